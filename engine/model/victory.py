"""Victory points (24.9): the most each award can give, counted on the board.

A scenario's `victory.points` (docs/formats.md) awards VPs per controlled hex of named
buildings and per controlled building of a map. The most the scoring side can get is every
award in full; the editor shows it beside the schedule, and the vp-maximum check compares it
with the printed building sizes and the schedule's top.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.hexgrid import Hex

from .board import Board
from .mapsheet import MapSheet


@dataclass(frozen=True)
class AwardMaximum:
    """One award in full: `vp` for each hex (`per_hex`) or each building of `buildings`."""

    index: int  # position in `awards`
    vp: int
    per_hex: bool
    buildings: dict[str, int]  # building id -> its hexes on the board
    missing: tuple[str, ...] = ()  # building ids the award names that the board does not have
    map: str | None = None  # the map whose buildings a per-building award counts

    @property
    def scored(self) -> int:
        """How many hexes (per_hex) or buildings the award pays for at most."""
        return sum(self.buildings.values()) if self.per_hex else len(self.buildings)

    @property
    def total(self) -> int:
        return self.vp * self.scored

    def describe(self) -> str:
        """`1 VP x 25 hexes of Buildings 1 (13), 3 (5), 4 (7)` or `3 VP x 3 other buildings of map1 (2, 5, 6)`."""
        ids = sorted(self.buildings, key=_building_order)
        if self.per_hex:
            sizes = ", ".join(f"{b} ({self.buildings[b]})" for b in ids)
            return f"{self.vp} VP x {self.scored} hexes of Building{'s' if len(ids) != 1 else ''} {sizes}"
        listed = f" ({', '.join(ids)})" if ids else ""
        return f"{self.vp} VP x {self.scored} other building{'s' if self.scored != 1 else ''} of {self.map}{listed}"


@dataclass(frozen=True)
class PointsMaximum:
    awards: tuple[AwardMaximum, ...]

    @property
    def total(self) -> int:
        return sum(a.total for a in self.awards)

    def describe(self) -> str:
        return f"{self.total} VP: " + "; ".join(a.describe() for a in self.awards)


def maximum_points(points: Mapping[str, Any], board: Board, maps: Mapping[str, MapSheet]) -> PointsMaximum:
    """The most VPs `points` can give on `board` (`maps`: the scenario's map names and sheets).

    Control of a building needs every one of its hexes (24.9), so each award pays in full
    when the side controls everything it names.
    """
    buildings = board.buildings()
    awards = []
    for i, award in enumerate(points.get("awards") or []):
        if "per_hex_controlled" in award:
            named = [str(b) for b in award["per_hex_controlled"].get("building") or []]
            found = {b: len(buildings[b]) for b in dict.fromkeys(named) if b in buildings}
            missing = tuple(b for b in named if b not in buildings)
            awards.append(AwardMaximum(i, int(award["vp"]), True, found, missing))
        else:
            scope = award["per_building_controlled"]
            name = str(scope["map"])
            sheet = maps.get(name)
            on_map = buildings_on(board, sheet) if sheet is not None else {}
            excepted = {str(b) for b in scope.get("except") or []}
            counted = {b: len(hexes) for b, hexes in on_map.items() if b not in excepted}
            missing = tuple(b for b in (str(e) for e in scope.get("except") or []) if b not in on_map)
            awards.append(AwardMaximum(i, int(award["vp"]), False, counted, missing, name))
    return PointsMaximum(tuple(awards))


def buildings_on(board: Board, sheet: MapSheet) -> dict[str, frozenset[Hex]]:
    """The buildings of the board with a hex on `sheet` (a building across a seam is on both maps)."""
    grid = sheet.hexes()
    return {b: hexes for b, hexes in board.buildings().items() if hexes & grid}


def _building_order(building: str) -> tuple[int, str]:
    return (int(building), "") if building.isdigit() else (10**9, building)
