"""The lines of a board as flat numpy tables, and the LOS rules (10.31, 10.32) on them.

What a line meets depends only on the difference of its two hexes (its delta). The table
holds, per delta, the hexes between the ends as steps (one hex, or a hexside's two: lanes
a and b) and corner touches (lane c), with the Building symbol parts each step touches and
its distance from both ends. Lines are walked once per direction class
(engine.geometry.lattice) and turned into place with numpy. A fan (one hex to many) is
then a handful of array operations over the concatenated segments of its targets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

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
    plus an element's offset is always a cell. Step elements come in two lanes (a, b: a
    hexside's two hexes, or one hex twice); corner touches have their own segments.
    """

    grid_shape: tuple[int, int]
    positions: Array  # hex index -> cell
    coords: Array  # hex index -> (q, r)
    span: tuple[int, int]
    row_grid: Array  # (dq + span_q, dr + span_r) -> row
    steps: dict[str, Array]  # off_a, off_b, symbol_a, symbol_b, ds_a, dt_a, ds_b, dt_b
    step_start: Array
    step_len: Array
    corners: dict[str, Array]  # off_c, ds_c, dt_c
    corner_start: Array
    corner_len: Array
    distance: Array  # row -> range
    deltas: Array  # row -> linear offset of the target from the source

    @cached_property
    def _through(self) -> tuple[Array, Array]:
        """Every element's offset, sorted, with its row: which lines meet a given offset."""
        s_rows = np.repeat(np.arange(len(self.step_len)), self.step_len)
        c_rows = np.repeat(np.arange(len(self.corner_len)), self.corner_len)
        offsets = np.concatenate([self.steps["off_a"], self.steps["off_b"], self.corners["off_c"]])
        rows = np.concatenate([s_rows, s_rows, c_rows])
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
        d = self.coords[targets] - self.coords[sources]
        return np.asarray(self.row_grid[d[:, 0] + self.span[0], d[:, 1] + self.span[1]])

    def meets(self, sources: Array, targets: Array, flags: Array) -> Array:
        """Whether the line from each source to its target meets a flagged cell."""
        _, s_idx, s_seg, s_len, c_idx, c_seg, c_len = self._lines(sources, targets)
        a, b, c = self._cells(sources, s_idx, s_len, c_idx, c_len)
        on_step = (flags[a] | flags[b]) == 1
        return _any(on_step, s_seg, s_len) | _any(flags[c] == 1, c_seg, c_len)

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

    def _lines(self, sources: Array, targets: Array) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
        """The step and corner elements of the lines, and their segments."""
        rows = self.rows(sources, targets)
        s_idx, s_seg, s_len = _segments(self.step_start[rows], self.step_len[rows])
        c_idx, c_seg, c_len = _segments(self.corner_start[rows], self.corner_len[rows])
        return rows, s_idx, s_seg, s_len, c_idx, c_seg, c_len

    def _cells(
        self, sources: Array, s_idx: Array, s_len: Array, c_idx: Array, c_len: Array
    ) -> tuple[Array, Array, Array]:
        """The cells of the elements: lanes a and b of the steps, and the corners."""
        here = self.positions[sources]
        s_here, c_here = _spread(here, s_len), _spread(here, c_len)
        a, b = s_here + self.steps["off_a"][s_idx], s_here + self.steps["off_b"][s_idx]
        return a, b, c_here + self.corners["off_c"][c_idx]

    def _symbol(self, x: Array, lane: str, s_idx: Array, hexes: HexArrays) -> Array:
        """Whether the line touches the Building symbol in hex cells x (10.31 a)."""
        return np.asarray((self.steps[f"symbol_{lane}"][s_idx] & hexes.symbol[x]) != 0)

    def _same_level(
        self, sources: Array, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """10.31 for lines whose ends are on one level."""
        _, s_idx, s_seg, s_len, c_idx, c_seg, c_len = self._lines(sources, targets)
        a, b, c = self._cells(sources, s_idx, s_len, c_idx, c_len)
        elev = hexes.elev
        level = elev[self.positions[sources]]
        s_level, c_level = _spread(level, s_len), _spread(level, c_len)
        elev_a, elev_b = elev[a], elev[b]
        symbol_a, symbol_b = self._symbol(a, "a", s_idx, hexes), self._symbol(b, "b", s_idx, hexes)
        count_a, count_b = hexes.count[a], hexes.count[b]
        marsh_a, marsh_b = (hexes.marsh[a] == 1, hexes.marsh[b] == 1) if firer is FirerState.DOWN else (None, None)
        # by the letter every hex on the line may block; the low-ground house rule spares lower ones
        if terrain.low_ground:
            up_a, up_b = elev_a >= s_level, elev_b >= s_level
            symbol_a, symbol_b, count_a, count_b = symbol_a & up_a, symbol_b & up_b, count_a * up_a, count_b * up_b
            if marsh_a is not None and marsh_b is not None:
                marsh_a, marsh_b = marsh_a & up_a, marsh_b & up_b
        step_block = (elev_a > s_level) | (elev_b > s_level) | symbol_a | symbol_b  # a: a higher Hill hex
        if marsh_a is not None and marsh_b is not None:
            step_block |= marsh_a | marsh_b  # c
        count = _sum(np.maximum(count_a, count_b), s_seg, s_len)  # b, hexside rule
        return np.asarray(
            _any(step_block, s_seg, s_len) | _any(elev[c] > c_level, c_seg, c_len) | (count > terrain.max_trees_along)
        )

    def _two_levels(self, sources: Array, targets: Array, hexes: HexArrays, terrain: SightTerrain) -> Array:
        """10.32 b for lines whose ends differ in level: each obstacle against the sight line,
        which rises from `low` at the lower unit to `high` at range n."""
        rows, s_idx, s_seg, s_len, c_idx, c_seg, c_len = self._lines(sources, targets)
        a, b, c = self._cells(sources, s_idx, s_len, c_idx, c_len)
        elev = hexes.elev
        e_s, e_t = elev[self.positions[sources]], elev[self.positions[targets]]
        n = self.distance[rows]
        low, high = np.minimum(e_s, e_t), np.maximum(e_s, e_t)
        source_low = e_s < e_t

        def above(height: Array, lane: str, idx: Array, length: Array) -> Array:
            table = self.corners if lane == "c" else self.steps
            d = np.where(np.repeat(source_low, length), table[f"ds_{lane}"][idx], table[f"dt_{lane}"][idx])
            nn, lo, hi = np.repeat(n, length), np.repeat(low, length), np.repeat(high, length)
            return np.asarray(height * nn >= lo * nn + (hi - lo) * d)

        def height(x: Array, lane: str) -> Array:
            woods = np.where(hexes.woods[x] == 1, terrain.woods_obstacle, 0.0)
            building = np.where(self._symbol(x, lane, s_idx, hexes), terrain.building_obstacle, 0.0)
            return np.asarray(elev[x] + np.maximum(woods, building))

        steps = above(height(a, "a"), "a", s_idx, s_len) | above(height(b, "b"), "b", s_idx, s_len)
        return np.asarray(_any(steps, s_seg, s_len) | _any(above(elev[c], "c", c_idx, c_len), c_seg, c_len))


def unique_pairs(sources: Array, targets: Array, n: int) -> tuple[Array, Array]:
    """Distinct (source, target) pairs of hex indices below n, sorted."""
    keys = np.unique(sources * n + targets)
    return keys // n, keys % n


def _segments(start: Array, length: Array) -> tuple[Array, Array, Array]:
    """Element indices of the concatenated segments [start, start + length), and where each begins."""
    seg = np.cumsum(length) - length
    idx = np.repeat(start - seg, length) + np.arange(int(length.sum()))
    return idx, seg, length


def _spread(values: Array, length: Array) -> Array | Any:
    """One value a line, for each of its `length` elements: the value itself when every line has the
    same one (a fan's source, its level), which numpy broadcasts without repeating it."""
    if len(values) and (values == values[0]).all():
        return values[0]
    return np.repeat(values, length)


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
    # each direction class walked once: its steps and corners as canonical offsets
    classes: dict[Hex, int] = {}
    c_steps: list[list[int]] = []  # a.q, a.r, b.q, b.r
    c_corners: list[list[int]] = []
    c_step_len: list[int] = []
    c_corner_len: list[int] = []
    turn, klass = [], []
    for row, delta in enumerate(deltas):
        row_grid[delta.q + span[0], delta.r + span[1]] = row
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
    # the symbol parts a line touches: bit i the band towards neighbour i, bit 6 the footprint
    core_a, bands_a = symbol_parts(s_delta, a, terrain)
    core_b, bands_b = symbol_parts(s_delta, b, terrain)
    steps = {
        "off_a": a[:, 0] * shape[1] + a[:, 1],
        "off_b": b[:, 0] * shape[1] + b[:, 1],
        "symbol_a": (bands_a | core_a << FOOTPRINT_BIT).astype(COLUMN_TYPES["symbol"]),
        "symbol_b": (bands_b | core_b << FOOTPRINT_BIT).astype(COLUMN_TYPES["symbol"]),
        "ds_a": _distance(a),
        "dt_a": _distance(a - s_delta),
        "ds_b": _distance(b),
        "dt_b": _distance(b - s_delta),
    }
    corners = {
        "off_c": co[:, 0] * shape[1] + co[:, 1],
        "ds_c": _distance(co),
        "dt_c": _distance(co - c_delta),
    }
    return DeltaTable(
        shape,
        positions,
        coords,
        span,
        row_grid,
        steps,
        s_start,
        s_len,
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
