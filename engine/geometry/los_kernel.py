"""Fast line of sight: per-direction tables and numpy, for fans, viewsheds and all pairs.

What a line meets depends only on the difference between its two hexes, so each delta's
hexes (engine.geometry.lattice.touches) and whether the line touches the Building symbol
parts of each of them (the footprint, and the band towards each of the six neighbours)
are worked out once. A query then only looks up the terrain along those offsets: `sight`
for one pair (through the same `judge` as the reference), and `fan` / `matrix` for many
pairs at once as numpy arrays, with the rules of `judge` written as array operations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray
from shapely import LineString

from engine.hexgrid import DIRECTIONS, Hex, hex_distance
from engine.model.board import Board

from .lattice import Contact, Touch, centre, half_band, local_to_lattice, touches
from .los_reference import building_symbol, cell
from .sight import MAX_TREES_ALONG, FirerState, Sight, SightTerrain, judge

Polygon = Sequence[tuple[float, float]]
Array = NDArray[Any]  # numpy arrays: int64 cells and offsets, bool flags, float heights


def segment_meets(ax: float, ay: float, bx: float, by: float, poly: Polygon) -> bool:
    """Whether a segment crosses or touches a convex polygon (separating axes; touching counts).

    Inputs are integers in lattice units or irrational values that never lie exactly on a
    line through two hex centres, so float arithmetic decides exactly here.
    """
    dx, dy = bx - ax, by - ay
    sides = [dx * (py - ay) - dy * (px - ax) for px, py in poly]
    if all(s > 0 for s in sides) or all(s < 0 for s in sides):
        return False
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True))
    sign = 1.0 if area > 0 else -1.0
    for (x0, y0), (x1, y1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        ex, ey = x1 - x0, y1 - y0
        if sign * (ex * (ay - y0) - ey * (ax - x0)) < 0 and sign * (ex * (by - y0) - ey * (bx - x0)) < 0:
            return False
    return True


@dataclass(frozen=True)
class SymbolParts:
    """Whether a line touches, in one hex, the footprint and the bands towards each neighbour (bit i)."""

    footprint: bool
    bands: int


@cache
def symbol_touches(delta: Hex, terrain: SightTerrain) -> dict[Hex, SymbolParts]:
    """For each hex the line to `delta` passes through or along: which symbol parts it touches."""
    scale = terrain.scale
    footprint = [local_to_lattice(x, y, scale) for x, y in terrain.footprint]
    bands = [half_band(i, terrain.join_width, scale) for i in range(6)]
    vx, vy = centre(delta)
    out: dict[Hex, SymbolParts] = {}
    for t in touches(delta):
        if t.contact is Contact.CORNER:
            continue
        cx, cy = centre(t.offset)
        ax, ay, bx, by = -cx * scale, -cy * scale, (vx - cx) * scale, (vy - cy) * scale
        core = segment_meets(ax, ay, bx, by, footprint)
        mask = sum(1 << i for i, band in enumerate(bands) if segment_meets(ax, ay, bx, by, band))
        out[t.offset] = SymbolParts(core, mask)
    return out


class SightKernel:
    """Line of sight on one board, fast. Build once per board state; `sight`, `fan`, `matrix`."""

    def __init__(self, board: Board, terrain: SightTerrain | None = None, table: DeltaTable | None = None) -> None:
        """`table`: one built for the same hexes and symbol (it does not depend on the terrain)."""
        self.board = board
        self.terrain = terrain or SightTerrain.from_effects()
        self.order = sorted(board.hexes)
        self.index = {h: i for i, h in enumerate(self.order)}
        if table is not None:
            self.__dict__["table"] = table

    # -- one pair ---------------------------------------------------------------------------
    def sight(
        self,
        source: Hex,
        target: Hex,
        firer: FirerState = FirerState.UP,
        blockers: Mapping[Hex, int] | None = None,
    ) -> Sight:
        delta = target - source
        touched = [Touch(source + t.offset, t.contact, t.t) for t in touches(delta)]
        parts = symbol_touches(delta, self.terrain)

        def symbol_hit(h: Hex) -> bool:
            custom = self.board.terrain(h).footprint
            if custom is not None:
                return self._custom_hit(source, target, h)
            touched_parts = parts[h - source]
            return touched_parts.footprint or bool(touched_parts.bands & self._joins[h])

        return judge(self.board, source, target, touched, symbol_hit, self.terrain, firer, blockers)

    def _custom_hit(self, source: Hex, target: Hex, h: Hex) -> bool:
        """A hex with its own footprint (not the table's): tested directly, it may be any shape."""
        scale = self.terrain.scale
        (ax, ay), (bx, by) = centre(source), centre(target)
        line = LineString([(ax * scale, ay * scale), (bx * scale, by * scale)])
        building = self.board.terrain(h).building
        assert building is not None
        return bool(line.intersects(building_symbol(self.board, building, self.terrain).intersection(cell(h, scale))))

    @cached_property
    def _joins(self) -> dict[Hex, int]:
        """For each building hex, bit i set when neighbour i belongs to the same building."""
        out: dict[Hex, int] = {}
        for h, t in self.board.terrain_map.items():
            if t.building is not None:
                out[h] = sum(
                    1 << i for i, d in enumerate(DIRECTIONS) if self.board.terrain(h + d).building == t.building
                )
        return out

    # -- many pairs --------------------------------------------------------------------------
    @cached_property
    def table(self) -> DeltaTable:
        return delta_table(self.order, self.terrain)

    def arrays(self, blockers: Mapping[Hex, int] | None = None) -> HexArrays:
        """Terrain on the table's padded grid; cells off the board hold nothing and never block."""
        table = self.table
        blockers = blockers or {}
        size = table.grid_shape[0] * table.grid_shape[1]
        columns = {name: np.zeros(size, dtype=np.int64) for name in HexArrays.__dataclass_fields__}
        columns["elev"][:] = -1
        for h, pos in zip(self.order, table.positions.tolist(), strict=True):
            t = self.board.terrain(h)
            columns["elev"][pos] = t.elevation
            columns["count"][pos] = t.trees + blockers.get(h, 0)
            columns["woods"][pos] = t.trees >= self.terrain.woods_min_trees
            columns["building"][pos] = t.building is not None
            columns["marsh"][pos] = t.marsh
            columns["joins"][pos] = self._joins.get(h, 0)
            columns["custom"][pos] = t.footprint is not None
        return HexArrays(**columns)

    def fan(
        self,
        source: Hex,
        firer: FirerState = FirerState.UP,
        blockers: Mapping[Hex, int] | None = None,
    ) -> dict[Hex, bool]:
        """Whether the LOS from `source` to each hex of the board is blocked."""
        blocked = self.fan_array(self.index[source], firer, self.arrays(blockers))
        return dict(zip(self.order, blocked.tolist(), strict=True))

    def fan_array(self, source: int, firer: FirerState, arrays: HexArrays, targets: Array | None = None) -> Array:
        """Blocked flags from hex index `source` to `targets` (default: every hex, in `order`)."""
        if targets is None:
            targets = np.arange(len(self.order))
        blocked, custom = self.table.blocked(source, targets, firer, arrays, self.terrain)
        for k in np.flatnonzero(custom):  # a hex with its own footprint on the line: the exact path
            blocked[k] = self.sight(self.order[source], self.order[int(targets[k])], firer).blocked
        return blocked

    def matrix(self, firer: FirerState = FirerState.UP) -> Array:
        """The all-pairs matrix: [i, j] is True when the LOS from hex i to hex j is blocked
        (hexes in sorted order, `self.order`). Both ends are in the same state, so the LOS
        is symmetric: each pair is worked once and mirrored."""
        arrays = self.arrays()
        n = len(self.order)
        out = np.zeros((n, n), dtype=bool)
        for i in range(n - 1):
            row = self.fan_array(i, firer, arrays, np.arange(i + 1, n))
            out[i, i + 1 :] = row
            out[i + 1 :, i] = row
        return out


@dataclass(frozen=True)
class HexArrays:
    """Terrain per cell of a DeltaTable's padded grid."""

    elev: Array
    count: Array  # Trees + AFVs + Wrecks (10.31 b)
    woods: Array
    building: Array
    marsh: Array
    joins: Array
    custom: Array


@dataclass(frozen=True)
class DeltaTable:
    """Every line between two hexes of a board, flat: one segment of elements per delta.

    Hexes are cells of a grid padded by the board's span on every side, so a source's cell
    plus an element's offset is always a cell. Step elements come in two lanes (a, b: a
    hexside's two hexes, or one hex twice); corner touches have their own segments.
    """

    grid_shape: tuple[int, int]
    positions: Array  # hex index -> cell
    coords: Array  # hex index -> (q, r)
    span: tuple[int, int]
    row_grid: Array  # (dq + span_q, dr + span_r) -> row
    steps: dict[str, Array]  # off_a, off_b, core_a, core_b, bands_a, bands_b, ds_a, dt_a, ds_b, dt_b
    step_start: Array
    step_len: Array
    corners: dict[str, Array]  # off_c, ds_c, dt_c
    corner_start: Array
    corner_len: Array
    distance: Array  # row -> range

    def rows(self, source: int, targets: Array) -> Array:
        d = self.coords[targets] - self.coords[source]
        return np.asarray(self.row_grid[d[:, 0] + self.span[0], d[:, 1] + self.span[1]])

    def meets(self, source: int, targets: Array, flags: Array) -> Array:
        """Whether the line from hex index `source` to each target meets a flagged cell."""
        rows = self.rows(source, targets)
        here = self.positions[source]
        s_idx, s_seg, s_len = _segments(self.step_start[rows], self.step_len[rows])
        c_idx, c_seg, c_len = _segments(self.corner_start[rows], self.corner_len[rows])
        on_step = (flags[here + self.steps["off_a"][s_idx]] | flags[here + self.steps["off_b"][s_idx]]) == 1
        on_corner = flags[here + self.corners["off_c"][c_idx]] == 1
        return _any(on_step, s_seg, s_len) | _any(on_corner, c_seg, c_len)

    def blocked(
        self, source: int, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> tuple[Array, Array]:
        """The rules of `judge` (10.31, 10.32) as array operations, from one source to many
        targets; also which lines meet a hex with its own footprint (to be worked exactly)."""
        rows = self.rows(source, targets)
        here = self.positions[source]
        elev = hexes.elev
        e_s = elev[here]
        e_t = elev[self.positions[targets]]
        n = self.distance[rows]
        low, high = np.minimum(e_s, e_t), np.maximum(e_s, e_t)
        same_level = e_t == e_s
        s_idx, s_seg, s_len = _segments(self.step_start[rows], self.step_len[rows])
        c_idx, c_seg, c_len = _segments(self.corner_start[rows], self.corner_len[rows])
        st = {k: v[s_idx] for k, v in self.steps.items()}
        a, b = here + st["off_a"], here + st["off_b"]
        c = here + self.corners["off_c"][c_idx]

        def per_step(values: Array) -> Array:
            return np.repeat(values, s_len)

        def symbol(x: Array, core: Array, bands: Array) -> Array:
            return np.asarray((hexes.building[x] == 1) & ((core == 1) | ((bands & hexes.joins[x]) != 0)))

        sym_a, sym_b = symbol(a, st["core_a"], st["bands_a"]), symbol(b, st["core_b"], st["bands_b"])
        # 10.31: both ends on one level
        level = per_step(np.where(same_level, e_s, 10**6))
        step_block = (elev[a] > level) | (elev[b] > level) | sym_a | sym_b
        if firer is FirerState.DOWN:
            step_block |= (hexes.marsh[a] | hexes.marsh[b]) == 1
        corner_block = elev[c] > np.repeat(np.where(same_level, e_s, 10**6), c_len)
        count = _sum(np.maximum(hexes.count[a], hexes.count[b]), s_seg, s_len)
        same = _any(step_block, s_seg, s_len) | _any(corner_block, c_seg, c_len) | (count > MAX_TREES_ALONG)
        # 10.32: two levels, each obstacle against the sight line from the lower unit
        source_low = e_s <= e_t
        lo_s, hi_s, n_s, low_s = per_step(low), per_step(high), per_step(n), per_step(source_low.astype(np.int64))

        def height(x: Array, sym: Array) -> Array:
            woods = np.where(hexes.woods[x] == 1, terrain.woods_obstacle, 0.0)
            return elev[x] + np.maximum(woods, np.where(sym, terrain.building_obstacle, 0.0))

        def above(h: Array, d_s: Array, d_t: Array) -> Array:
            d = np.where(low_s == 1, d_s, d_t)
            return np.asarray(h * n_s >= lo_s * n_s + (hi_s - lo_s) * d)

        step_above = above(height(a, sym_a), st["ds_a"], st["dt_a"]) | above(height(b, sym_b), st["ds_b"], st["dt_b"])
        cs = self.corners
        c_low = np.repeat(source_low, c_len)
        c_d = np.where(c_low, cs["ds_c"][c_idx], cs["dt_c"][c_idx])
        c_n, c_lo, c_hi = np.repeat(n, c_len), np.repeat(low, c_len), np.repeat(high, c_len)
        corner_above = elev[c] * c_n >= c_lo * c_n + (c_hi - c_lo) * c_d
        differ = _any(step_above, s_seg, s_len) | _any(corner_above, c_seg, c_len)
        custom = _any((hexes.custom[a] | hexes.custom[b]) == 1, s_seg, s_len)
        return np.where(same_level, same, differ), custom


def _segments(start: Array, length: Array) -> tuple[Array, Array, Array]:
    """Element indices of the concatenated segments [start, start + length), and where each begins."""
    seg = np.cumsum(length) - length
    idx = np.repeat(start - seg, length) + np.arange(int(length.sum()))
    return idx, seg, length


def _sum(values: Array, seg: Array, length: Array) -> Array:
    padded = np.append(values, 0)
    return np.where(length > 0, np.add.reduceat(padded, seg), 0)


def _any(values: Array, seg: Array, length: Array) -> Array:
    padded = np.append(values, False)
    return (length > 0) & np.logical_or.reduceat(padded, seg)


def delta_table(order: Sequence[Hex], terrain: SightTerrain) -> DeltaTable:
    """Build the table for the lines between the hexes `order` (sorted board hexes)."""
    coords = np.array([[h.q, h.r] for h in order], dtype=np.int64)
    span = (int(np.ptp(coords[:, 0])), int(np.ptp(coords[:, 1])))
    q0 = int(coords[:, 0].min()) - span[0] - 2
    r0 = int(coords[:, 1].min()) - span[1] - 2
    shape = (3 * span[0] + 5, 3 * span[1] + 5)
    positions = (coords[:, 0] - q0) * shape[1] + (coords[:, 1] - r0)
    present = np.zeros((2 * span[0] + 1, 2 * span[1] + 1), dtype=bool)
    for q, r in coords:
        present[coords[:, 0] - q + span[0], coords[:, 1] - r + span[1]] = True
    deltas = [Hex(int(i) - span[0], int(j) - span[1]) for i, j in zip(*np.nonzero(present), strict=True)]
    row_grid = np.full(present.shape, -1, dtype=np.int64)
    step_rows: list[tuple[Hex, Hex, Hex, int]] = []  # (delta, a, b, row)
    corner_rows: list[tuple[Hex, Hex, int]] = []
    step_len, corner_len, distance = [], [], []
    for row, delta in enumerate(deltas):
        row_grid[delta.q + span[0], delta.r + span[1]] = row
        distance.append(hex_distance(Hex(0, 0), delta))
        line_steps, line_corners = line_lanes(delta)
        step_rows += [(delta, s[0], s[-1], row) for s in line_steps]
        corner_rows += [(delta, h, row) for h in line_corners]
        step_len.append(len(line_steps))
        corner_len.append(len(line_corners))

    def linear(q: Array, r: Array) -> Array:
        return q * shape[1] + r

    sd = np.array([[d.q, d.r, a.q, a.r, b.q, b.r] for d, a, b, _ in step_rows], dtype=np.int64).reshape(-1, 6)
    cd = np.array([[d.q, d.r, h.q, h.r] for d, h, _ in corner_rows], dtype=np.int64).reshape(-1, 4)
    core_a, bands_a = symbol_parts(sd[:, 0:2], sd[:, 2:4], terrain)
    core_b, bands_b = symbol_parts(sd[:, 0:2], sd[:, 4:6], terrain)
    steps = {
        "off_a": linear(sd[:, 2], sd[:, 3]),
        "off_b": linear(sd[:, 4], sd[:, 5]),
        "core_a": core_a,
        "core_b": core_b,
        "bands_a": bands_a,
        "bands_b": bands_b,
        "ds_a": _distance(sd[:, 2:4]),
        "dt_a": _distance(sd[:, 2:4] - sd[:, 0:2]),
        "ds_b": _distance(sd[:, 4:6]),
        "dt_b": _distance(sd[:, 4:6] - sd[:, 0:2]),
    }
    corners = {
        "off_c": linear(cd[:, 2], cd[:, 3]),
        "ds_c": _distance(cd[:, 2:4]),
        "dt_c": _distance(cd[:, 2:4] - cd[:, 0:2]),
    }
    s_len, c_len = np.array(step_len, dtype=np.int64), np.array(corner_len, dtype=np.int64)
    return DeltaTable(
        shape,
        positions,
        coords,
        span,
        row_grid,
        steps,
        np.cumsum(s_len) - s_len,
        s_len,
        corners,
        np.cumsum(c_len) - c_len,
        c_len,
        np.array(distance, dtype=np.int64),
    )


def _distance(d: Array) -> Array:
    """Hex distance from Hex(0, 0) for rows of (q, r)."""
    q, r = d[:, 0], d[:, 1]
    return np.asarray((np.abs(q) + np.abs(r) + np.abs(q + r)) // 2)


def symbol_parts(delta: Array, offset: Array, terrain: SightTerrain) -> tuple[Array, Array]:
    """For lines from Hex(0, 0) to `delta` and hexes at `offset` on them (rows of (q, r)):
    whether each line touches that hex's footprint, and the bands it touches (bit i: towards
    neighbour i). The same test as `segment_meets`, on arrays."""
    scale = terrain.scale
    cx, cy = 3 * offset[:, 0], 2 * offset[:, 1] + offset[:, 0]
    vx, vy = 3 * delta[:, 0], 2 * delta[:, 1] + delta[:, 0]
    ax, ay = -cx * scale, -cy * scale
    bx, by = (vx - cx) * scale, (vy - cy) * scale
    footprint = [local_to_lattice(x, y, scale) for x, y in terrain.footprint]
    core = _meets(ax, ay, bx, by, footprint)
    bands = np.zeros(len(offset), dtype=np.int64)
    for i in range(6):
        bands |= _meets(ax, ay, bx, by, half_band(i, terrain.join_width, scale)).astype(np.int64) << i
    return core.astype(np.int64), bands


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


def line_lanes(delta: Hex) -> tuple[list[list[Hex]], list[Hex]]:
    """The hexes between the ends of a line, as steps (one hex, or a hexside's two) and corner touches."""
    origin = Hex(0, 0)
    steps: list[list[Hex]] = []
    corners: list[Hex] = []
    last = None
    for t in touches(delta):
        if t.offset in (origin, delta):
            continue
        if t.contact is Contact.CORNER:
            corners.append(t.offset)
        elif t.contact is Contact.HEXSIDE and last is not None and last.contact is Contact.HEXSIDE and last.t == t.t:
            steps[-1].append(t.offset)
        else:
            steps.append([t.offset])
        last = t
    return steps, corners
