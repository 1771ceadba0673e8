"""The lines of a board as flat numpy tables, and the LOS rules (10.31, 10.32) on them.

What a line meets depends only on the difference of its two hexes (its delta). The table
holds, per delta, the hexes between the ends as steps (one hex, or a hexside's two: lane a
the step's first hex, lane b the second hex of the few steps along a hexside) and corner
touches (lane c), with the Building symbol parts each hex touches and its distance from both
ends. Lines are walked once per direction class
(engine.geometry.lattice) and turned into place with numpy. A fan (one hex to many) is
then a handful of array operations over the concatenated segments of its targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from engine.hexgrid import Hex

from .lattice import Contact, canonical, half_band, local_to_lattice, touches
from .sight import FirerState, SightTerrain

FOOTPRINT_BIT = 6
Array = NDArray[Any]  # numpy arrays: int64 cells and offsets, bool flags, float heights
Polygon = Sequence[tuple[float, float]]


# The narrowest types that hold each column (a level, Trees + AFVs + Wrecks in a hex, flags, the
# symbol's 7 bits): the LOS rules gather them for every hex of every line, so narrow is fast.
COLUMN_TYPES: dict[str, type[np.signedinteger[Any]]] = {
    "elev": np.int8,
    "count": np.int16,
    "woods": np.int8,
    "marsh": np.int8,
    "symbol": np.int8,
    "custom": np.int8,
}


@dataclass(frozen=True)
class HexArrays:
    """Terrain per cell of a DeltaTable's padded grid."""

    elev: Array
    count: Array  # Trees + AFVs + Wrecks (10.31 b)
    woods: Array
    marsh: Array
    symbol: Array  # building hexes: bit i = neighbour i is of the same building, bit 6 = a building
    custom: Array


@dataclass(frozen=True)
class DeltaTable:
    """Every line between two hexes of a board, flat: one segment of elements per delta.

    Hexes are cells of a grid padded by the board's span on every side, so a source's cell
    plus an element's offset is always a cell. Every step is an element of lane a (its first
    hex); a step along a hexside is also an element of lane b (its second hex, `off_ab` its
    first): about one step in a hundred, so lane b costs little. Corner touches are lane c.
    """

    grid_shape: tuple[int, int]
    positions: Array  # hex index -> cell
    row_at: Array  # linear offset of the target from the source, shifted to start at 0 -> row
    steps: dict[str, Array]  # off_a, symbol_a, ds_a, dt_a
    step_start: Array
    step_len: Array
    sides: dict[str, Array]  # off_b, off_ab, symbol_b, ds_b, dt_b
    side_start: Array
    side_len: Array
    corners: dict[str, Array]  # off_c, ds_c, dt_c
    corner_start: Array
    corner_len: Array
    distance: Array  # row -> range
    deltas: Array  # row -> linear offset of the target from the source

    @cached_property
    def _through(self) -> tuple[Array, Array]:
        """Every element's offset, sorted, with its row: which lines meet a given offset."""
        lanes = ((self.step_len, self.steps["off_a"]), (self.side_len, self.sides["off_b"]))
        rows = np.concatenate([np.repeat(np.arange(len(n)), n) for n, _ in (*lanes, (self.corner_len, None))])
        offsets = np.concatenate([off for _, off in lanes] + [self.corners["off_c"]])
        order = np.argsort(offsets, kind="stable")
        return offsets[order], rows[order]

    @cached_property
    def _hex_at(self) -> Array:
        """Cell -> hex index, -1 off the board."""
        out = np.full(self.grid_shape[0] * self.grid_shape[1], -1, dtype=np.int64)
        out[self.positions] = np.arange(len(self.positions))
        return out

    def pairs_through(self, sources: Array, cells: Array) -> tuple[Array, Array]:
        """(source, target) hex indices of the lines from `sources` that meet any of `cells`."""
        offsets, rows = self._through
        wanted = (cells[None, :] - self.positions[sources][:, None]).ravel()
        lo, hi = np.searchsorted(offsets, wanted, "left"), np.searchsorted(offsets, wanted, "right")
        idx, _, length = _segments(lo, hi - lo)
        source = np.repeat(np.repeat(sources, len(cells)), length)
        target = self._hex_at[self.positions[source] + self.deltas[rows[idx]]]
        on_board = target >= 0
        return unique_pairs(source[on_board], target[on_board], len(self.positions))

    def rows(self, sources: Array, targets: Array) -> Array:
        shift = len(self.row_at) // 2
        return np.asarray(self.row_at[self.positions[targets] - self.positions[sources] + shift])

    def meets(self, sources: Array, targets: Array, flags: Array) -> Array:
        """Whether the line from each source to its target meets a flagged cell."""
        _, steps, sides, corners = self._lines(sources, targets)
        a, b, c = self._lane_cells(sources, steps, sides, corners)
        return _any(flags[a] == 1, steps) | _any(flags[b] == 1, sides) | _any(flags[c] == 1, corners)

    def blocked(
        self, sources: Array, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """The rules of `judge` (10.31, 10.32) as array operations, for the lines sources[i] -> targets[i]."""
        elev = hexes.elev
        same_level = elev[self.positions[targets]] == elev[self.positions[sources]]
        out = np.zeros(len(targets), dtype=bool)
        if same_level.any():
            out[same_level] = self._same_level(sources[same_level], targets[same_level], firer, hexes, terrain)
        if not same_level.all():
            out[~same_level] = self._two_levels(sources[~same_level], targets[~same_level], hexes, terrain)
        return out

    def _lines(self, sources: Array, targets: Array) -> tuple[Array, Segments, Segments, Segments]:
        """The lines' rows, and the elements of their lanes a (steps), b (sides) and c (corners)."""
        rows = self.rows(sources, targets)
        return (
            rows,
            _segments(self.step_start[rows], self.step_len[rows]),
            _segments(self.side_start[rows], self.side_len[rows]),
            _segments(self.corner_start[rows], self.corner_len[rows]),
        )

    def _lane_cells(
        self, sources: Array, steps: Segments, sides: Segments, corners: Segments
    ) -> tuple[Array, Array, Array]:
        """The cells of the elements of lanes a, b and c."""
        here = self.positions[sources]
        offsets = (self.steps["off_a"], self.sides["off_b"], self.corners["off_c"])
        a, b, c = (_cells(here, lane, off) for lane, off in zip((steps, sides, corners), offsets, strict=True))
        return a, b, c

    @staticmethod
    def _symbol(x: Array, line_parts: Array, idx: Array, hexes: HexArrays) -> Array:
        """Whether the line touches the Building symbol in hex cells x (10.31 a): the line's parts
        `line_parts[idx]` are looked up only where a cell holds a building, a few hexes in a hundred."""
        cell_parts = hexes.symbol[x]
        out = cell_parts != 0
        building = np.flatnonzero(out)
        out[building] = (line_parts[idx[building]] & cell_parts[building]) != 0
        return np.asarray(out)

    def _same_level(
        self, sources: Array, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """10.31 for lines whose ends are on one level."""
        _, steps, sides, corners = self._lines(sources, targets)
        a, b, c = self._lane_cells(sources, steps, sides, corners)
        ab = _cells(self.positions[sources], sides, self.sides["off_ab"])
        elev = hexes.elev
        level = elev[self.positions[sources]]
        s_level, b_level, c_level = (_spread(level, lane.length) for lane in (steps, sides, corners))
        elev_a, elev_b = elev[a], elev[b]
        symbol_a = self._symbol(a, self.steps["symbol_a"], steps.idx, hexes)
        symbol_b = self._symbol(b, self.sides["symbol_b"], sides.idx, hexes)
        count_a, count_b, count_ab = hexes.count[a], hexes.count[b], hexes.count[ab]
        marsh_a, marsh_b = (hexes.marsh[a] == 1, hexes.marsh[b] == 1) if firer is FirerState.DOWN else (None, None)
        # by the letter every hex on the line may block; the low-ground house rule spares lower ones
        if terrain.low_ground:
            up_a, up_b = elev_a >= s_level, elev_b >= b_level
            symbol_a, symbol_b, count_a, count_b = symbol_a & up_a, symbol_b & up_b, count_a * up_a, count_b * up_b
            count_ab = count_ab * (elev[ab] >= b_level)
            if marsh_a is not None and marsh_b is not None:
                marsh_a, marsh_b = marsh_a & up_a, marsh_b & up_b
        block_a = (elev_a > s_level) | symbol_a  # a: a higher Hill hex
        block_b = (elev_b > b_level) | symbol_b
        if marsh_a is not None and marsh_b is not None:
            block_a, block_b = block_a | marsh_a, block_b | marsh_b  # c
        # b, hexside rule: a step counts the larger of its two hexes, max(a, b) = a + max(b - a, 0);
        # a hex that blocks by a or c counts over the limit, so one sum answers a, b and c
        over = terrain.max_trees_along + 1
        count = _sum(np.where(block_a, over, count_a), steps)
        count += _sum(np.where(block_b, over, np.maximum(count_b - count_ab, 0)), sides)
        return np.asarray((count > terrain.max_trees_along) | _any(elev[c] > c_level, corners))

    def _two_levels(self, sources: Array, targets: Array, hexes: HexArrays, terrain: SightTerrain) -> Array:
        """10.32 b for lines whose ends differ in level: each obstacle against the sight line,
        which rises from `low` at the lower unit to `high` at range n."""
        rows, steps, sides, corners = self._lines(sources, targets)
        a, b, c = self._lane_cells(sources, steps, sides, corners)
        elev = hexes.elev
        e_s, e_t = elev[self.positions[sources]], elev[self.positions[targets]]
        n = self.distance[rows]
        low, high = np.minimum(e_s, e_t), np.maximum(e_s, e_t)
        source_low = e_s < e_t

        def above(height: Array, table: dict[str, Array], lane: str, elements: Segments) -> Array:
            idx, length = elements.idx, elements.length
            d = np.where(np.repeat(source_low, length), table[f"ds_{lane}"][idx], table[f"dt_{lane}"][idx])
            nn, lo, hi = np.repeat(n, length), np.repeat(low, length), np.repeat(high, length)
            return np.asarray(height * nn >= lo * nn + (hi - lo) * d)

        def height(x: Array, line_parts: Array, idx: Array) -> Array:
            woods = np.where(hexes.woods[x] == 1, terrain.woods_obstacle, 0.0)
            building = np.where(self._symbol(x, line_parts, idx, hexes), terrain.building_obstacle, 0.0)
            return np.asarray(elev[x] + np.maximum(woods, building))

        height_a = height(a, self.steps["symbol_a"], steps.idx)
        height_b = height(b, self.sides["symbol_b"], sides.idx)
        return np.asarray(
            _any(above(height_a, self.steps, "a", steps), steps)
            | _any(above(height_b, self.sides, "b", sides), sides)
            | _any(above(elev[c], self.corners, "c", corners), corners)
        )


def unique_pairs(sources: Array, targets: Array, n: int) -> tuple[Array, Array]:
    """Distinct (source, target) pairs of hex indices below n, sorted."""
    keys = np.unique(sources * n + targets)
    return keys // n, keys % n


class Segments(NamedTuple):
    """The elements of one lane of many lines, concatenated: their indices into the lane's arrays,
    where each line's segment begins, and its length."""

    idx: Array
    seg: Array
    length: Array


def _segments(start: Array, length: Array) -> Segments:
    """Element indices of the concatenated segments [start, start + length), and where each begins."""
    seg = np.cumsum(length) - length
    idx = np.repeat(start - seg, length) + np.arange(int(length.sum()))
    return Segments(idx, seg, length)


def _cells(here: Array, lane: Segments, offsets: Array) -> Array:
    """The cells of a lane's elements: each line's source cell `here` plus the elements' offsets."""
    return np.asarray(_spread(here, lane.length) + offsets[lane.idx])


def _spread(values: Array, length: Array) -> Array | Any:
    """One value a line, for each of its `length` elements: the value itself when every line has the
    same one (a fan's source, its level), which numpy broadcasts without repeating it."""
    if len(values) and (values == values[0]).all():
        return values[0]
    return np.repeat(values, length)


def _sum(values: Array, lines: Segments) -> Array:
    padded = np.append(values, 0)
    return np.where(lines.length > 0, np.add.reduceat(padded, lines.seg), 0)


def _any(values: Array, lines: Segments) -> Array:
    padded = np.append(values, False)
    return (lines.length > 0) & np.logical_or.reduceat(padded, lines.seg)


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
    # the padded grid's linear offsets are one a delta, so a line's row is one look-up away
    row_shift = span[0] * shape[1] + span[1]
    row_at = np.full(2 * row_shift + 1, -1, dtype=np.int64)
    # each direction class walked once: its steps and corners as canonical offsets
    classes: dict[Hex, int] = {}
    c_steps: list[list[int]] = []  # a.q, a.r, b.q, b.r
    c_corners: list[list[int]] = []
    c_step_len: list[int] = []
    c_corner_len: list[int] = []
    turn, klass = [], []
    for row, delta in enumerate(deltas):
        row_at[delta.q * shape[1] + delta.r + row_shift] = row
        k, canon = canonical(delta)
        if canon not in classes:
            classes[canon] = len(classes)
            line_steps, line_corners = line_lanes(canon)
            c_steps += [[s[0].q, s[0].r, s[-1].q, s[-1].r] for s in line_steps]
            c_corners += [[h.q, h.r] for h in line_corners]
            c_step_len.append(len(line_steps))
            c_corner_len.append(len(line_corners))
        turn.append((6 - k) % 6)  # back from the canonical delta to this one
        klass.append(classes[canon])
    turns, klasses = np.array(turn, dtype=np.int64), np.array(klass, dtype=np.int64)
    delta_arr = np.array([[d.q, d.r] for d in deltas], dtype=np.int64).reshape(-1, 2)
    canon_steps = np.array(c_steps, dtype=np.int64).reshape(-1, 4)
    canon_corners = np.array(c_corners, dtype=np.int64).reshape(-1, 2)

    def lay_out(lengths: list[int], canon: Array) -> tuple[Array, Array, Array, Array]:
        """The rows' elements: canonical elements turned into place; row start, length, delta."""
        length = np.array(lengths, dtype=np.int64)
        starts = np.cumsum(length) - length
        idx, seg, row_len = _segments(starts[klasses], length[klasses])
        k = np.repeat(turns, row_len)
        return _turn(canon[idx], k), seg, row_len, np.repeat(delta_arr, row_len, axis=0)

    st, s_start, s_len, s_delta = lay_out(c_step_len, canon_steps)
    co, c_start, c_len, c_delta = lay_out(c_corner_len, canon_corners)
    a, b = st[:, 0:2], st[:, 2:4]
    side = (a != b).any(axis=1)  # a step along a hexside: its second hex is an element of lane b
    side_len = np.bincount(np.repeat(np.arange(len(deltas)), s_len)[side], minlength=len(deltas))
    b, b_delta = b[side], s_delta[side]

    def symbol(delta: Array, offset: Array) -> Array:
        """The symbol parts a line touches: bit i the band towards neighbour i, bit 6 the footprint."""
        core, bands = symbol_parts(delta, offset, terrain)
        return np.asarray(bands | core << FOOTPRINT_BIT, dtype=COLUMN_TYPES["symbol"])

    off_a = a[:, 0] * shape[1] + a[:, 1]
    steps = {"off_a": off_a, "symbol_a": symbol(s_delta, a), "ds_a": _distance(a), "dt_a": _distance(a - s_delta)}
    sides = {
        "off_b": b[:, 0] * shape[1] + b[:, 1],
        "off_ab": off_a[side],
        "symbol_b": symbol(b_delta, b),
        "ds_b": _distance(b),
        "dt_b": _distance(b - b_delta),
    }
    corners = {
        "off_c": co[:, 0] * shape[1] + co[:, 1],
        "ds_c": _distance(co),
        "dt_c": _distance(co - c_delta),
    }
    return DeltaTable(
        shape,
        positions,
        row_at,
        steps,
        s_start,
        s_len,
        sides,
        np.cumsum(side_len) - side_len,
        side_len,
        corners,
        c_start,
        c_len,
        _distance(delta_arr),
        delta_arr[:, 0] * shape[1] + delta_arr[:, 1],
    )


# lattice.rotate as integer matrices on rows of (q, r): k turns of (q, r) -> (-r, q + r)
_TURNS = np.array([np.linalg.matrix_power(np.array([[0, -1], [1, 1]]), k) for k in range(6)], dtype=np.int64)


def _turn(points: Array, k: Array) -> Array:
    """Rows of (q, r) pairs (any even number of columns), each turned k times 60 degrees."""
    out = np.empty_like(points)
    for col in range(0, points.shape[1], 2):
        pair = points[:, col : col + 2]
        out[:, col : col + 2] = np.einsum("nij,nj->ni", _TURNS[k], pair)
    return out


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
