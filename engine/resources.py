"""Where the bundled data lives: inside the package in a wheel, at the repository top in a checkout."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

DATA_DIRS = ("schemas", "maps", "scenarios", "tables", "counters")


@cache
def data_root() -> Path:
    """The folder holding `schemas/`, `maps/`, `scenarios/`, `tables/` and `counters/`."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "data", package.parent):
        if (candidate / "schemas").is_dir() and (candidate / "maps").is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data not found beside {package}: the installation is incomplete")


def data_path(*parts: str) -> Path:
    """A bundled file, e.g. `data_path("maps", "map1.yaml")`."""
    return data_root().joinpath(*parts)


def bundled_files() -> list[Path]:
    """Everything iceditor ships: maps, errata, tables, counters, scenarios."""
    return [
        *bundled_maps(),
        data_path("maps", "errata.yaml"),
        *sorted(data_path("tables").glob("*.yaml")),
        *sorted(data_path("counters").glob("*.yaml")),
        *bundled_scenarios(),
        *bundled_examples(),
    ]


def bundled_maps() -> list[Path]:
    return sorted(data_path("maps").glob("map*.yaml"))


def bundled_scenarios() -> list[Path]:
    """The six printed scenarios."""
    return sorted(data_path("scenarios").glob("*.yaml"))


def bundled_examples() -> list[Path]:
    """Designers' example scenarios (scenarios/examples/): not printed, shown in docs/formats.md."""
    return sorted(data_path("scenarios", "examples").glob("*.yaml"))


# The folders of bundled files a command can be given by name (schemas are not: no command reads one).
NAMED_DIRS = ("maps", "scenarios", "tables", "counters")


def bundled_names(folder: str | None = None) -> dict[str, Path]:
    """Every name a bundled file answers to, in `folder` or in all of NAMED_DIRS: its stem (`map2`,
    `errata`, `combat`, `s1-demyansk-pocket`), its file name, its path in the data folder
    (`maps/map2.yaml`, as `shown_name` prints it) and, for a printed scenario, its number (`s1`)."""
    names: dict[str, Path] = {}
    for name in (folder,) if folder else NAMED_DIRS:
        for path in sorted(data_path(name).rglob("*.yaml")):
            names.update({path.stem: path, path.name: path, path.relative_to(data_root()).as_posix(): path})
            if number := re.match(r"s\d+-", path.name):
                names[number.group()[:-1]] = path
    return names


def bundled_file(name: str | Path, folder: str | None = None) -> Path | None:
    """The bundled file `name` means (see bundled_names), or None.

    >>> bundled_file("s1").name, bundled_file("maps/map2.yaml").name, bundled_file("s1", "maps")
    ('s1-demyansk-pocket.yaml', 'map2.yaml', None)
    """
    return bundled_names(folder).get(Path(name).as_posix())


def is_bundled(path: Path) -> bool:
    """Whether `path` is one of iceditor's own data files (a bundled map, scenario, table)."""
    return Path(path).resolve().is_relative_to(data_root().resolve())


def installed() -> bool:
    """Whether the bundled data is inside an installed package (a wheel's `data/` folder), not a
    checkout of the repository, where its files are the project's own sources."""
    return data_root().name == "data"


def given_or_bundled(name: str | Path) -> Path:
    """A file named by the user: the path itself when it exists (your own file always wins),
    else the bundled file of that name, else the path as given (its reader reports it missing)."""
    path = Path(name)
    if path.exists():
        return path
    return bundled_file(path) or path


def shown_name(path: Path | str) -> str:
    """A file as a reader would name it: bundled data from the data folder (`maps/errata.yaml`,
    the same wherever iceditor is installed), others from the current folder when inside it."""
    resolved = Path(path).resolve()
    for base in (data_root(), Path.cwd()):
        if resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)
