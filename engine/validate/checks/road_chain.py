"""Each road is a chain of hexes joined along hexsides."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from engine.hexgrid import are_adjacent
from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="road-not-adjacent",
    rule="8.52",
    severity=Severity.ERROR,
    summary="Two consecutive hexes of a road do not share a hexside.",
    fix="Insert the hexes the road passes through, or correct the label (mind the map's `offset`).",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    for r, road in enumerate(sheet.roads):
        for i, (a, b) in enumerate(pairwise(road)):
            if not are_adjacent(a, b):
                yield CHECK.problem(
                    sheet.doc,
                    ("roads", r, i + 1),
                    f"road {r + 1}: {sheet.label(a)} and {sheet.label(b)} do not share a hexside "
                    f"(grid offset {sheet.grid.offset.value})",
                    hex=sheet.label(b),
                )
