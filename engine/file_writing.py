"""Writing the user's files so that a crash, a kill or a full disk never leaves one half written.

A file is written to a temporary file beside it, `.NAME.PID.RANDOM.tmp`, flushed to the disk, then
renamed over it: the file is either as it was or as saved. The file keeps its mode (and group,
where allowed), and a symbolic link stays a link: its target is written. A write cut short by a
kill leaves its temporary file behind; the next write beside it, or the next open, removes the
stale ones of our own pattern: those of a process that is gone, or older than any write takes.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import time
from pathlib import Path

# A write takes well under a second: a temporary file untouched this long is no live write
# (it also covers a pid reused since, and files of versions that did not name their pid).
STALE_SECONDS = 600.0

_writing: set[Path] = set()  # this process's temporary files being written right now


def atomic_write(path: Path, text: str, newline: str = "\n") -> Path:
    """Write `text` (UTF-8, each `\\n` written as `newline`) to `path` atomically; the file written
    (a link's target)."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(target)
    try:
        kept: os.stat_result | None = target.stat()
    except FileNotFoundError:
        kept = None
    temp = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # created like any new file (the umask applies), then given the mode of the file it replaces
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    _writing.add(temp)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as out:
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
