"""What a computation read from the disk, so that a result kept between processes can tell that it
still holds (issue 22: engine/validate/verdict_cache.py keeps validation verdicts).

`recording()` collects, for the code run inside it in this thread, every file opened for reading
(Python raises an `open` audit event for every open, `os.open` included, whoever calls it), every
folder listed (`os.listdir`, `os.scandir`: globs too) and every existence asked through
`file_exists`: a stat raises no audit event, so code that asks whether a file is there without
opening it must ask `file_exists`. Python's own files and installed packages are left out (their
versions are part of a kept result's key), and so is the cache folder (results of our making);
the bundled data never is, even inside an installed package.
`fingerprints` and `unchanged` tell whether all of it would be read the same now."""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import sysconfig
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.cache_folder import cache_folder
from engine.resources import data_root


@dataclass
class Reads:
    files: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    exists: set[str] = field(default_factory=set)


_local = threading.local()
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_CODE_SUFFIXES = (".py", ".pyc", ".so", ".pth")


def _recorders() -> list[Reads]:
    if not hasattr(_local, "recorders"):
        _local.recorders = []
    found: list[Reads] = _local.recorders
    return found


@contextmanager
def recording() -> Iterator[Reads]:
    """What the code run inside it reads (nested recordings each see all of it)."""
    _install()
    reads = Reads()
    _recorders().append(reads)
    try:
        yield reads
    finally:
        _recorders().remove(reads)


def file_exists(path: Path) -> bool:
    """`path.is_file()`, noted by the recordings running (OSError as is_file raises it)."""
    for reads in _recorders():
        reads.exists.add(os.path.abspath(path))
    return path.is_file()


@cache
def _install() -> None:
    sys.addaudithook(_heard)


@cache
def _system() -> tuple[str, ...]:
    """Folders whose files are not data: Python's, the installed packages', the system's."""
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, *sysconfig.get_paths().values(), "/proc", "/sys", "/dev"}
    return tuple(os.path.join(os.path.abspath(f), "") for f in folders)


def _left_out(inside: str) -> bool:
    folder = cache_folder()  # asked each time: a test, or a user, may move it
    if folder is not None and inside.startswith(os.path.join(os.path.abspath(folder), "")):
        return True
    return inside.startswith(_system()) and not inside.startswith(_data())


@cache
def _data() -> str:
    return os.path.join(str(data_root()), "")


def _heard(event: str, args: tuple[Any, ...]) -> None:
    recorders = getattr(_local, "recorders", None)
    if not recorders or event not in ("open", "os.listdir", "os.scandir"):
        return
    given = args[0] if args else None
    if isinstance(given, int):  # an open file descriptor: its file was noted when it was opened
        return
    if event == "open":
        mode, flags = args[1], args[2]
        if given is None or (isinstance(mode, str) and set(mode) & set("wax+")) or int(flags or 0) & _WRITES:
            return
    name = os.path.abspath(os.fsdecode(given if given is not None else "."))
    inside = os.path.join(name, "")  # a left-out folder itself is left out too (the cache's, written and listed)
    if name.endswith(_CODE_SUFFIXES) or _left_out(inside):
        return
    for reads in recorders:
        (reads.files if event == "open" else reads.folders).add(name)


Fingerprints = dict[str, dict[str, Any]]


def fingerprints(reads: Reads) -> Fingerprints:
    """How each thing read is now: a file's digest, a folder's listing's, an existence."""
    return {
        "files": {name: _file(name) for name in sorted(reads.files)},
        "folders": {name: _folder(name) for name in sorted(reads.folders)},
        "exists": {name: os.path.isfile(name) for name in sorted(reads.exists)},
    }


def unchanged(kept: Fingerprints) -> bool:
    """Whether everything in `kept` reads the same now."""
    return (
        all(_file(name) == digest for name, digest in kept["files"].items())
        and all(_folder(name) == digest for name, digest in kept["folders"].items())
        and all(os.path.isfile(name) == found for name, found in kept["exists"].items())
    )


def _file(name: str) -> str | None:
    try:
        # non-blocking, and only a regular file read: a FIFO where a map was globbed must not hang
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as stream:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                return f"not a file: {stat.S_IFMT(mode)}"
            return hashlib.sha256(stream.read()).hexdigest()
    except OSError:
        return None  # none, or unreadable: reading it again must fail the same way


def _folder(name: str) -> str | None:
    try:
        return hashlib.sha256("\0".join(sorted(os.listdir(name))).encode()).hexdigest()
    except OSError:
        return None
