"""Where the bundled data lives: inside the package in a wheel, at the repository top in a checkout."""

from __future__ import annotations

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


def bundled_maps() -> list[Path]:
    return sorted(data_path("maps").glob("map*.yaml"))


def bundled_scenarios() -> list[Path]:
    return sorted(data_path("scenarios").glob("*.yaml"))


def shown_name(path: Path | str) -> str:
    """A file as a reader would name it: bundled data from the data folder (`maps/errata.yaml`,
    the same wherever iceditor is installed), others from the current folder when inside it."""
    resolved = Path(path).resolve()
    for base in (data_root(), Path.cwd()):
        if resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
    return str(path)
