"""Terrain keys that contradict each other in one hex."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="terrain-impossible",
    rule="8.53, 10.31 a",
    severity=Severity.ERROR,
    summary="A hex names a hill but holds no hill level, or has a building footprint but no building.",
    fix="Give the hex its hill level (`level`, or `upper_level` for a crest hex) or drop `hill`; give it its "
    "`building` id or drop `footprint`.",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    """Only contradictions a rule rules out; combinations that are merely unusual (a building in a
    marsh, a gully on a hill) are left alone (R49 in docs/rulings.md)."""
    for h, terrain in sorted(sheet.terrain.items()):
        label = sheet.label(h)
        if terrain.hill is not None and terrain.level == 0 and terrain.upper_level is None:
            yield CHECK.problem(
                sheet.doc,
                ("hexes", label, "hill"),
                f"hex {label} belongs to Hill {terrain.hill} but is level 0 with no upper level: a Hill hex is "
                "a Level 1 or Level 2 Hill hex",
                hex=label,
                rule="8.53, chart notes e, f",
            )
        if terrain.footprint is not None and terrain.building is None:
            yield CHECK.problem(
                sheet.doc,
                ("hexes", label, "footprint"),
                f"hex {label} has a building footprint but no building: the footprint is the outline of the "
                "hex's Building symbol",
                hex=label,
                rule="10.31 a",
            )
