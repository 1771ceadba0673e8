"""Writing the user's files so that a crash, a kill or a full disk never leaves one half written.

A file is written to a temporary file beside it, `.NAME.PID.RANDOM.tmp`, flushed to the disk, then
renamed over it: the file is either as it was or as saved. The file keeps its mode (and group,
where allowed), and a symbolic link stays a link: its target is written. A write cut short by a
kill leaves its temporary file behind; the next write beside it, or the next open, removes the
stale ones of our own pattern: those of a process that is gone, or older than any write takes.

Only a regular file is replaced (or a new one created): a character device such as /dev/null or a
FIFO is written in place, as a shell's `>` would; a folder, a socket or a block device is refused
with words (WriteRefused), as is a path that is an input of the same command (`refuse_inputs`).
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from engine.terminal_text import PATH_LIMIT, shown

# A write takes well under a second: a temporary file untouched this long is no live write
# (it also covers a pid reused since, and files of versions that did not name their pid).
STALE_SECONDS = 600.0

_writing: set[Path] = set()  # this process's temporary files being written right now


class WriteRefused(OSError):
    """A path that is not written: `str()` is `PATH: error: REASON`; `strerror` the reason alone
    (as an OSError's, for the editor's messages), `errno` the system's where it gave one."""

    def __init__(self, path: Path | str, reason: str, errno: int | None = None) -> None:
        super().__init__(f"{shown(path, PATH_LIMIT)}: error: {reason}")
        self.strerror, self.errno, self.filename = reason, errno, str(path)

    def __str__(self) -> str:
        return str(self.args[0])


def refuse_inputs(path: Path, inputs: Iterable[Path | str], what: str = "an input of this command") -> None:
    """WriteRefused if `path` is one of `inputs`, however either is spelled (links, `./`, `..`):
    writing a game's log over its own scenario would destroy it."""
    target = os.path.realpath(path)
    for given in inputs:
        if os.path.realpath(given) == target:
            raise WriteRefused(path, f"not written: it is {what} ({shown(given, PATH_LIMIT)})")


def atomic_write(path: Path, text: str | bytes, newline: str = "\n") -> Path:
    """Write `text` (UTF-8, each `\\n` written as `newline`; bytes as they are) to `path` atomically; the file written
    (a link's target). A character device or FIFO is written in place; WriteRefused for a path
    that cannot be written, or is no file to replace (a folder, a socket, a block device)."""
    target = Path(os.path.realpath(path))
    try:
        kept: os.stat_result | None = target.stat()
    except FileNotFoundError:
        kept = None
    except OSError as exc:
        raise _refused(path, exc) from None
    if kept is not None and not stat.S_ISREG(kept.st_mode):
        return _write_in_place(path, target, kept, text, newline)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return _replace(target, kept, text, newline)
    except OSError as exc:
        raise _refused(path, exc) from None


def _refused(path: Path, exc: OSError) -> WriteRefused:
    return WriteRefused(path, f"cannot be written: {exc.strerror or exc}", exc.errno)


def _opened(fd: int, text: str | bytes, newline: str) -> IO[Any]:
    if isinstance(text, bytes):
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline=newline)


def _write_in_place(path: Path, target: Path, kept: os.stat_result, text: str | bytes, newline: str) -> Path:
    """A device or a FIFO, written as it is (never renamed over: the node stays); the others refused."""
    if stat.S_ISDIR(kept.st_mode):
        raise WriteRefused(path, "is a folder: name a file to write")
    if not (stat.S_ISCHR(kept.st_mode) or stat.S_ISFIFO(kept.st_mode)):
        raise WriteRefused(path, "is not a regular file (a socket or a block device): not written")
    try:  # non-blocking: a FIFO no one reads is refused (ENXIO) rather than waited on for ever
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        reader = " (a FIFO no program is reading)" if stat.S_ISFIFO(kept.st_mode) else ""
        raise WriteRefused(path, f"cannot be written{reader}: {exc.strerror or exc}", exc.errno) from None
    try:
        os.set_blocking(fd, True)
        with _opened(fd, text, newline) as out:
            out.write(text)
    except OSError as exc:  # /dev/full: ENOSPC
        raise _refused(path, exc) from None
    return target


def _replace(target: Path, kept: os.stat_result | None, text: str | bytes, newline: str) -> Path:
    remove_stale_temps(target)
    temp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # created like any new file (the umask applies), then given the mode of the file it replaces
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    _writing.add(temp)
    try:
        with _opened(fd, text, newline) as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if kept is not None:
            os.chmod(temp, stat.S_IMODE(kept.st_mode))
            if hasattr(os, "chown"):  # POSIX; only the owner or root may change the group
                with contextlib.suppress(OSError):
                    os.chown(temp, -1, kept.st_gid)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    finally:
        _writing.discard(temp)
    _sync_folder(target.parent)
    return target


def remove_stale_temps(path: Path) -> list[Path]:
    """Remove the temporary files a write of `path` cut short left beside it; the ones removed.
    Only our own pattern, and only stale ones (never another live process's write in progress)."""
    target = Path(os.path.realpath(path))
    return _remove_stale(target.parent, re.escape(target.name))


def remove_stale_temps_in(folder: Path) -> list[Path]:
    """The same for every file of a folder of our own (an autosave's, whose copies change names)."""
    return _remove_stale(folder, r".+?")  # the shortest name: a pid after it is read as one


def _remove_stale(folder: Path, name: str) -> list[Path]:
    pattern = re.compile(rf"\.{name}\.(?:(\d+)\.)?\w{{8}}\.tmp")
    removed: list[Path] = []
    try:
        candidates = list(folder.iterdir())
    except OSError:
        return removed
    for temp in candidates:
        found = pattern.fullmatch(temp.name)
        if found is None or temp in _writing:
            continue
        try:
            age = time.time() - temp.lstat().st_mtime
            if _stale(int(found[1]) if found[1] else None, age):
                temp.unlink()
                removed.append(temp)
        except OSError:  # gone meanwhile, or not ours to remove: leave it
            continue
    return removed


def _stale(pid: int | None, age: float) -> bool:
    if age > STALE_SECONDS:
        return True
    if pid is None:  # an older version's name: only its age tells
        return False
    return pid == os.getpid() or not _running(pid)  # ours and not being written (`_writing`), or its writer gone


def _running(pid: int) -> bool:
    if os.name == "nt":  # os.kill would end the process there: assume it runs, its age decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _sync_folder(folder: Path) -> None:
    """The rename itself reaches the disk (POSIX; not every system can open a folder)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def file_list(paths: list[Path], *, one_line: bool = False) -> str:
    """Files as a message names them: the folder they share, then each one on a line of its own
    (or after one another, `one_line`).

    >>> print(file_list([Path("/w/scenarios/s6.yaml"), Path("/w/maps/map2.yaml")]))
    in /w:
      scenarios/s6.yaml
      maps/map2.yaml
    >>> file_list([Path("/w/maps/map2.yaml")], one_line=True)
    'in /w/maps: map2.yaml'
    """
    absolute = [Path(os.path.abspath(p)) for p in paths]
    shared = Path(os.path.commonpath([p.parent for p in absolute]))
    names = [str(p.relative_to(shared)) for p in absolute]
    return f"in {shared}: {', '.join(names)}" if one_line else f"in {shared}:\n" + "\n".join(f"  {n}" for n in names)
