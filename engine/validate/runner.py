"""Validate files: schema first, then every check that applies to the file's format."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.model.errata import errata_from_document
from engine.model.load_errors import LoadError
from engine.model.mapsheet import MapSheet, load_map, map_from_document
from engine.model.schema import schema_name, schema_problems
from engine.model.source import SourceDocument, SourceError, load_yaml
from engine.problems import Problem, count_errors
from engine.resources import bundled_maps

from .registry import runners
from .scenario import scenario_problems


def validate_paths(paths: Iterable[Path]) -> list[Problem]:
    """Problems of all files; SourceError for a file that cannot be read or parsed as YAML."""
    problems: list[Problem] = []
    for path in paths:
        problems += validate_document(load_yaml(path))
    return problems


def validate_document(doc: SourceDocument, *, errors_only: bool = False) -> list[Problem]:
    """The file's problems; `errors_only`: leave out the checks that only inform or warn (what
    decides whether a game may start: play.py)."""
    problems = list(schema_problems(doc))
    if count_errors(problems):
        return problems
    name = schema_name(doc)
    if name == "map":
        problems += map_problems(map_from_document(doc))
    elif name == "errata":
        errata, maps = errata_from_document(doc), _mapsheet_beside(Path(doc.file))
        problems += [p for check in runners("check_errata") for p in check(errata, maps)]
    elif name == "scenario":
        problems += scenario_problems(doc, errors_only=errors_only)
    problems += [p for check in runners("check_document", errors_only=errors_only) for p in check(doc)]
    return problems


def map_problems(sheet: MapSheet) -> list[Problem]:
    return [p for check in runners("check_map") for p in check(sheet)]


def _mapsheet_beside(errata_file: Path) -> list[MapSheet]:
    """The maps an errata file corrects: those in its folder, or the bundled ones."""
    paths = sorted(errata_file.parent.glob("map*.yaml")) or bundled_maps()
    maps = []
    for path in paths:
        try:
            maps.append(load_map(path))
        except (LoadError, SourceError):
            continue  # reported when that map itself is validated
    return maps
