"""Names and values as a message or a terminal shows them: control and bidirectional characters
escaped (a U+202E would reverse what follows it), and cut to about 60 characters (a 15 MB title or
a 300-byte file name is no message)."""

from __future__ import annotations

import unicodedata

LIMIT = 60  # characters of a value a message quotes
PATH_LIMIT = 240  # of a path the user gave: a folder's name is long, and no name over 255 bytes is a file


def shown(value: object, limit: int = LIMIT) -> str:
    """`value` as text safe to print: its control, format (bidi) and separator characters written as
    `\\u202e`, then cut to `limit` characters with `...` saying so."""
    text = str(value)
    cut = len(text) > limit
    text = text[:limit]
    escaped = "".join(_escaped(c) for c in text)
    return escaped + ("..." if cut else "")


def _escaped(char: str) -> str:
    if char == "\t" or unicodedata.category(char) not in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
