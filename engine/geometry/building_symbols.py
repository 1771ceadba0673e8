"""Which parts of a hex's Building symbol a line touches (10.31 a), for many lines at once: the
symbol's footprint and the six half bands that join it to its neighbours, met by segments."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from .lattice import half_band, local_to_lattice
from .ragged import Array
from .sight import SightTerrain

Polygon = Sequence[tuple[float, float]]


def symbol_parts(delta: Array, offset: Array, terrain: SightTerrain) -> tuple[Array, Array]:
    """For lines from Hex(0, 0) to `delta` and hexes at `offset` on them (rows of (q, r)):
    whether each line touches that hex's footprint, and the bands it touches (bit i: towards
    neighbour i). The same test as `segment_meets`, on arrays."""
    scale = terrain.scale
    cx, cy = 3 * offset[:, 0], 2 * offset[:, 1] + offset[:, 0]
    vx, vy = 3 * delta[:, 0], 2 * delta[:, 1] + delta[:, 0]
    ax, ay = -cx * scale, -cy * scale
    bx, by = (vx - cx) * scale, (vy - cy) * scale
    footprint, joins = _symbol_polygons(terrain.footprint, terrain.join_width, scale)
    core = _meets(ax, ay, bx, by, footprint)
    bands = np.zeros(len(offset), dtype=np.int64)
    for i, band in enumerate(joins):
        bands |= _meets(ax, ay, bx, by, band).astype(np.int64) << i
    return core.astype(np.int64), bands


@cache
def _symbol_polygons(
    footprint: tuple[tuple[float, float], ...], join_width: float, scale: int
) -> tuple[Polygon, tuple[Polygon, ...]]:
    """The Building symbol's footprint and its six half bands in scaled lattice units, worked out
    in exact fractions once (a single line's LOS asks for them too)."""
    return [local_to_lattice(x, y, scale) for x, y in footprint], tuple(
        half_band(i, join_width, scale) for i in range(6)
    )


def _meets(ax: Array, ay: Array, bx: Array, by: Array, poly: Polygon) -> Array:
    dx, dy = bx - ax, by - ay
    sides = np.array([dx * (py - ay) - dy * (px - ax) for px, py in poly])
    apart = (sides > 0).all(axis=0) | (sides < 0).all(axis=0)
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True))
    sign = 1.0 if area > 0 else -1.0
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        ex, ey = x1 - x0, y1 - y0
        apart |= (sign * (ex * (ay - y0) - ey * (ax - x0)) < 0) & (sign * (ex * (by - y0) - ey * (bx - x0)) < 0)
    return np.asarray(~apart)
