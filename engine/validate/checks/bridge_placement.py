"""A Bridge hex is a Road hex that crosses a Gully (chart note a)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.mapsheet import MapSheet
from engine.model.terrain import CLEAR
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="bridge-placement",
    rule="8.5 chart note a",
    severity=Severity.ERROR,
    summary="A bridge is not where a road crosses a gully, or a road crosses a gully without a bridge.",
    fix="List the hex under `bridges` only where a road runs through a gully hex, and list every such hex.",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    road_hexes = {h for road in sheet.roads for h in road}
    for i, h in enumerate(sheet.bridges):
        label = sheet.label(h)
        missing = [
            w
            for w, ok in (("a road hex", h in road_hexes), ("a gully hex", sheet.terrain.get(h, CLEAR).gully))
            if not ok
        ]
        if missing:
            yield CHECK.problem(sheet.doc, ("bridges", i), f"bridge {label} is not {' or '.join(missing)}", hex=label)
    for h in sorted(road_hexes):
        if sheet.terrain.get(h, CLEAR).gully and h not in sheet.bridges:
            label = sheet.label(h)
            yield CHECK.problem(
                sheet.doc, ("hexes", label), f"road crosses gully hex {label} without a bridge", hex=label
            )
