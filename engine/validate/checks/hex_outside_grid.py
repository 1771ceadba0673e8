"""Every hex a map file names lies on the map's grid."""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import Hex, hex_to_offset
from engine.model.mapsheet import MapSheet
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="hex-outside-grid",
    rule="2.1",
    severity=Severity.ERROR,
    summary="A hex named in a map file is not on the map's grid.",
    fix="Correct the label, or widen `grid.columns`/`grid.rows`.",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    named: list[tuple[JsonPath, Hex]] = [(("hexes", sheet.label(h)), h) for h in sheet.terrain]
    named += [(("roads", r, i), h) for r, road in enumerate(sheet.roads) for i, h in enumerate(road)]
    named += [(("bridges", i), h) for i, h in enumerate(sheet.bridges)]
    for path, h in named:
        if not sheet.grid.contains(*hex_to_offset(h, sheet.grid.offset)):
            label = sheet.label(h)
            yield CHECK.problem(
                sheet.doc, path, f"hex {label} is outside the grid ({sheet.grid.describe()})", hex=label
            )
