"""Which files a scenario may name as its maps and errata.

A scenario is data someone else may have written: `maps: ["/etc/passwd"]` must not make the
validator read that file and print it into a CI log. A scenario's maps and errata are the
bundled ones (`map2`, `errata: true`), or files under the scenario's own folder, the `maps/`
folder beside it (a repository laid out like iceditor's own: `scenarios/`, `maps/`), or a
folder the user allows explicitly (`--allow-dir`). Paths are compared after following
symbolic links, so a link inside the folder cannot lead out of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.file_reads import file_exists
from engine.resources import data_root

# For the whole process, threads included (the editor measures an errata's impact in one):
# set by the command line's --allow-dir for the command it runs.
_allowed: tuple[Path, ...] = ()


class MapPathError(FileNotFoundError):
    """A map or errata file that the scenario may not name, or that does not exist."""


@contextmanager
def folders_allowed(folders: Iterable[Path | str]) -> Iterator[None]:
    """Within the block, scenarios may also name files under these folders (`--allow-dir`)."""
    global _allowed
    before, _allowed = _allowed, tuple(Path(f).resolve() for f in folders)
    try:
        yield
    finally:
        _allowed = before


def extra_folders() -> tuple[Path, ...]:
    """The folders allowed by `folders_allowed` (the command line's --allow-dir)."""
    return _allowed


def scenario_folders(relative_to: Path | None) -> list[Path]:
    """The folders whose files a scenario in `relative_to` may name, most specific first."""
    folders = [relative_to.resolve(), (relative_to / ".." / "maps").resolve()] if relative_to else []
    return [*folders, *extra_folders(), data_root().resolve()]


def allowed_file(path: Path, relative_to: Path | None, what: str) -> Path:
    """`path` if it is a file in one of the scenario's folders; MapPathError otherwise.
    `what` names the file as the scenario does (`map '../x.yaml'`)."""
    resolved = path.resolve()
    folders = scenario_folders(relative_to)
    if not any(resolved.is_relative_to(folder) for folder in folders):
        raise MapPathError(
            f"{what} is outside the scenario's folder: a scenario names bundled maps (map1) or "
            "files under its own folder or the maps/ folder beside it (allow another folder with --allow-dir)"
        )
    if not file_exists(resolved):
        raise MapPathError(f"{what} not found")
    return path
