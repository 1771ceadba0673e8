"""Names and values as a message or a terminal shows them: control and bidirectional characters
escaped (a U+202E would reverse what follows it, an ESC would rewrite the screen), and cut to about
60 characters (a 15 MB title or a 300-byte file name is no message).

`shown` is for a value a line quotes (a title, a name, a path); `TerminalStream` escapes whatever a
command writes to its standard output and error, so that no value a file or a file name holds
reaches the terminal as a control character, whichever message quotes it."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, TextIO

LIMIT = 60  # characters of a value a message quotes
PATH_LIMIT = 240  # of a path the user gave: a folder's name is long, and no name over 255 bytes is a file
_UNSAFE = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))  # control, format (bidi), separators, unassigned


def shown(value: object, limit: int = LIMIT) -> str:
    """`value` as text safe to print: its control, format (bidi) and separator characters written as
    `\\u202e`, then cut to `limit` characters with `...` saying so."""
    text = str(value)
    cut = len(text) > limit
    return escaped(text[:limit]) + ("..." if cut else "")


def escaped(text: str, keep: str = "\t") -> str:
    """`text` with every character a terminal would act on, but those in `keep`, written as `\\x1b`."""
    if text.isascii():  # the common case, in C: only the ASCII control characters to escape
        return text.translate(_ascii_table(keep))
    return "".join(_escaped(c) if c not in keep else c for c in text)


@cache
def _ascii_table(keep: str) -> dict[int, str]:
    return {code: _escaped(chr(code)) for code in (*range(0x20), 0x7F) if chr(code) not in keep}


def _escaped(char: str) -> str:
    if unicodedata.category(char) not in _UNSAFE:
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class TerminalStream:
    """A text stream whose writes reach `stream` escaped, lines and tabs kept (`escaped`)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(escaped(text, keep="\t\n"))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, encoding, buffer...: the stream's own
        return getattr(self._stream, name)


def data_output() -> TextIO:
    """The standard output for a file's own text (`migrate --stdout`, to be redirected to a file):
    not escaped, as a file may hold any printable character and its copy must be the same."""
    out = sys.stdout
    return out._stream if isinstance(out, TerminalStream) else out


@contextmanager
def terminal_output() -> Iterator[None]:
    """While a command runs, what it prints to standard output and error is escaped."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalStream(out), TerminalStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
