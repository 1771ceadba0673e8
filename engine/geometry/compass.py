"""Compass directions on the sheet, relative to a scenario's north indicator.

A scenario places the NORTH indicator in one hex pointing to an adjacent one (24.1); north is
that direction on the sheet, and east is a quarter turn clockwise from it as a player looks
at the map. Sheet coordinates have y growing downwards (towards higher row numbers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.hexgrid import Hex, are_adjacent, hex_to_point

BEARINGS = {
    "north": 0.0,
    "northeast": 45.0,
    "east": 90.0,
    "southeast": 135.0,
    "south": 180.0,
    "southwest": 225.0,
    "west": 270.0,
    "northwest": 315.0,
}


@dataclass(frozen=True)
class Compass:
    """North as a unit vector on the sheet."""

    north_x: float
    north_y: float

    @classmethod
    def from_indicator(cls, at: Hex, toward: Hex) -> Compass:
        if not are_adjacent(at, toward):
            raise ValueError("the north indicator must point from a hex to an adjacent hex")
        ax, ay = hex_to_point(at)
        bx, by = hex_to_point(toward)
        length = math.hypot(bx - ax, by - ay)
        return cls((bx - ax) / length, (by - ay) / length)

    def vector(self, direction: str) -> tuple[float, float]:
        """The unit vector of a compass direction (`north`, `southeast`...) on the sheet."""
        angle = math.radians(BEARINGS[direction])
        # A clockwise turn on a sheet whose y axis points down.
        x = self.north_x * math.cos(angle) - self.north_y * math.sin(angle)
        y = self.north_x * math.sin(angle) + self.north_y * math.cos(angle)
        return x, y


# The four borders of a rectangular grid and their outward directions on the sheet.
EDGE_NORMALS = {"top": (0.0, -1.0), "bottom": (0.0, 1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}


def edge_facing(compass: Compass, direction: str) -> str:
    """Which border of the grid is the `direction` map edge; ValueError if two are equally near."""
    vx, vy = compass.vector(direction)
    scored = sorted(((nx * vx + ny * vy, edge) for edge, (nx, ny) in EDGE_NORMALS.items()), reverse=True)
    if math.isclose(scored[0][0], scored[1][0], abs_tol=1e-6):
        raise ValueError(f"the {direction} map edge is ambiguous: north points diagonally across the grid")
    return scored[0][1]
