"""Line of sight by the letter of 10.3, with shapely: slow, plain, and the yardstick for the kernel.

The line is a LineString from centre to centre; each hex is its hexagon. How the line
meets a hex is read from the DE-9IM relation: interiors meet (passes through), only the
boundary along a length (runs along a hexside), or at a point (touches a corner). Each
building's symbol is the union of its hexes' footprints and of bands joining adjacent
hexes of the building; the line "crosses or touches" it in a hex when it meets the part
of the symbol inside that hex (10.31 a, 10.33). Coordinates are the lattice ones
(engine.geometry.lattice), where hex corners are integers, so shapely decides exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache

from shapely import LineString, Point, Polygon, STRtree, get_coordinates, unary_union
from shapely.geometry.base import BaseGeometry

from engine.hexgrid import DIRECTIONS, Hex
from engine.model.board import Board

from .lattice import CORNERS, Contact, Touch, centre, half_band, local_to_lattice
from .sight import FirerState, Sight, SightTerrain, judge


def cell(h: Hex, scale: int) -> Polygon:
    cx, cy = centre(h)
    return Polygon([((cx + kx) * scale, (cy + ky) * scale) for kx, ky in CORNERS])


def building_symbol(board: Board, building: str, terrain: SightTerrain) -> BaseGeometry:
    """The whole symbol of a (multi-hex) building: footprints plus joining bands (10.31 a)."""
    scale = terrain.scale
    parts = []
    hexes = [h for h, t in board.terrain_map.items() if t.building == building]
    for h in hexes:
        cx, cy = centre(h)
        outline = board.terrain(h).footprint or terrain.footprint
        parts.append(
            Polygon([(cx * scale + x, cy * scale + y) for x, y in (local_to_lattice(*p, scale) for p in outline)])
        )
        for i, d in enumerate(DIRECTIONS):
            if board.terrain(h + d).building == building:
                band = half_band(i, terrain.join_width, scale)
                parts.append(Polygon([(cx * scale + x, cy * scale + y) for x, y in band]))
    return unary_union(parts)


@cache
def _index(hexes: frozenset[Hex], scale: int) -> tuple[STRtree, list[Hex]]:
    order = sorted(hexes)
    return STRtree([cell(h, scale) for h in order]), order


def reference_sight(
    board: Board,
    source: Hex,
    target: Hex,
    firer: FirerState = FirerState.UP,
    blockers: Mapping[Hex, int] | None = None,
    terrain: SightTerrain | None = None,
) -> Sight:
    terrain = terrain or SightTerrain.from_effects()
    scale = terrain.scale
    (ax, ay), (bx, by) = centre(source), centre(target)
    line = LineString([(ax * scale, ay * scale), (bx * scale, by * scale)])
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 * scale
    touched: list[Touch] = []
    tree, order = _index(board.hexes, scale)
    near = tree.query(line) if source != target else []
    for h in sorted(order[i] for i in near):  # the hexagons whose bounding boxes the line meets
        poly = cell(h, scale)
        matrix = line.relate(poly)  # DE-9IM: the line's interior against the hexagon's interior, boundary
        if matrix[0] == "1":
            contact = Contact.INTERIOR
        elif matrix[1] == "1":
            contact = Contact.HEXSIDE
        elif matrix[1] == "0":
            contact = Contact.CORNER
        else:
            continue
        start = min(float(line.project(Point(*xy))) for xy in get_coordinates(line.intersection(poly)))
        touched.append(Touch(h, contact, Fraction(start / length if length else 0).limit_denominator(10**6)))
    touched.sort(key=lambda t: (t.t, t.contact, t.offset))
    symbols: dict[str, BaseGeometry] = {}

    def symbol_hit(h: Hex) -> bool:
        building = board.terrain(h).building
        assert building is not None
        if building not in symbols:
            symbols[building] = building_symbol(board, building, terrain)
        return bool(line.intersects(symbols[building].intersection(cell(h, scale))))

    return judge(board, source, target, touched, symbol_hit, terrain, firer, blockers)
