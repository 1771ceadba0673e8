"""A hex holding two elevations holds adjacent levels (10.34, chart notes e and f)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="two-levels",
    rule="10.34",
    severity=Severity.ERROR,
    summary="`upper_level` is not one above `level`.",
    fix="A crest hex holds level N and N+1: set `upper_level` to `level` + 1, or remove it.",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    for h, t in sheet.terrain.items():
        if t.upper_level is not None and t.upper_level != t.level + 1:
            label = sheet.label(h)
            yield CHECK.problem(
                sheet.doc,
                ("hexes", label, "upper_level"),
                f"hex {label} holds levels {t.level} and {t.upper_level}; a crest joins adjacent levels",
                hex=label,
            )
