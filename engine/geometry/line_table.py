"""The lines of a board as flat numpy tables, and the LOS rules (10.31, 10.32) on them.

What a line meets depends only on the difference of its two hexes (its delta). The table
holds, per delta, the hexes between the ends as steps (one hex, or a hexside's two) and corner
touches: lane a one element a step or corner touch, lane b the second hex of the few steps
along a hexside, with the Building symbol parts each hex touches and its distance from both
ends. Lines are walked once per direction class (engine.geometry.lattice) and turned into
place with numpy. 10.31 is then one weight a cell and a sum a line, 10.32 b a height a cell
against a fraction of the line's rise; a fan (one hex to many) is a handful of array
operations over slices of the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from engine.hexgrid import DIRECTIONS, Hex

from .building_symbols import symbol_parts
from .lattice import Contact, canonical, touches
from .ragged import Array, Segments, anys, base_at, bases, gather, indices, segments, spread, sums
from .sight import FirerState, SightTerrain

FOOTPRINT_BIT = 6


class Region:
    """Where in the cell arrays lane a's elements read a cell's value: a step through the cell, a
    corner touch of it, or a step along the hexside between it and its neighbour i (10.31 b: the
    larger count of the two), HEXSIDE + i."""

    STEP = 0
    CORNER = 1
    HEXSIDE = 2


REGIONS = Region.HEXSIDE + len(DIRECTIONS)
FEW_TWO_LEVELS = 8  # at most one line in so many between two levels: worked as on one level too, not split off


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
    # what the LOS rules work out of the columns once (`same_level_weights`): emptied when
    # SightKernel.write_arrays rewrites cells; `dataclasses.replace` starts an empty one
    derived: dict[tuple[Any, ...], Any] = field(default_factory=dict, init=False, repr=False, compare=False)


@dataclass(frozen=True)
class DeltaTable:
    """Every line between two hexes of a board, flat: one segment of elements per delta.

    Hexes are cells of a grid padded by the board's span on every side, so a source's cell
    plus an element's offset is always a cell. Lane a holds every step (its first hex) and every
    corner the line touches; a step along a hexside is also an element of lane b (its second
    hex, which 10.31 reads through the step's region and only 10.32 b reads here): about one
    step in a hundred.

    Offsets count from the source's cell minus `reach`, so they are never negative. Lane a's
    index cell arrays of REGIONS regions of `size` cells: its element's region (a step, a corner
    touch, a step along a hexside and which) times `size` plus its cell.
    """

    grid_shape: tuple[int, int]
    positions: Array  # hex index -> cell
    row_at: Array  # linear offset of the target from the source, shifted to start at 0 -> row
    steps: dict[str, Array]  # off_a, symbol_a, symbol_pair (a hexside's second hex), ds_a, dt_a
    step_start: Array
    step_len: Array
    sides: dict[str, Array]  # off_b, symbol_b, ds_b, dt_b
    side_start: Array
    side_len: Array
    distance: Array  # row -> range
    deltas: Array  # row -> linear offset of the target from the source

    @property
    def size(self) -> int:
        """Cells in the padded grid."""
        return self.grid_shape[0] * self.grid_shape[1]

    @property
    def reach(self) -> int:
        """The largest linear offset between two hexes of the board."""
        return len(self.row_at) // 2

    @cached_property
    def _through(self) -> tuple[Array, Array]:
        """Every element's cell offset, sorted, with its row: which lines meet a given offset."""
        a = self.steps["off_a"] % self.size - self.reach  # the cell, whatever the region
        lanes = ((self.step_len, a), (self.side_len, self.sides["off_b"] - self.reach))
        rows = np.concatenate([np.repeat(np.arange(len(n)), n) for n, _ in lanes])
        offsets = np.concatenate([off for _, off in lanes])
        order = np.argsort(offsets, kind="stable")
        return offsets[order], rows[order]

    @cached_property
    def _hex_at(self) -> Array:
        """Cell -> hex index, -1 off the board."""
        out = np.full(self.size, -1, dtype=np.int64)
        out[self.positions] = np.arange(len(self.positions))
        return out

    def pairs_through(self, sources: Array, cells: Array) -> tuple[Array, Array]:
        """(source, target) hex indices of the lines from `sources` that meet any of `cells`."""
        offsets, rows = self._through
        wanted = (cells[None, :] - self.positions[sources][:, None]).ravel()
        lo, hi = np.searchsorted(offsets, wanted, "left"), np.searchsorted(offsets, wanted, "right")
        met = segments(lo, hi - lo)
        source = np.repeat(np.repeat(sources, len(cells)), met.length)
        target = self._hex_at[self.positions[source] + self.deltas[met.take(rows)]]
        on_board = target >= 0
        return unique_pairs(source[on_board], target[on_board], len(self.positions))

    def rows(self, sources: Array, targets: Array) -> Array:
        return np.asarray(self.row_at[self.positions[targets] - self.positions[sources] + self.reach])

    def meets(self, sources: Array, targets: Array, flags: Array) -> Array:
        """Whether the line from each source to its target meets a flagged cell."""
        rows, steps = self._lines(sources, targets)
        sides = self._sides(rows)
        base, base_b = (bases(self.positions[sources] - self.reach, lane) for lane in (steps, sides))
        a = gather(np.tile(flags, REGIONS), base, steps.take(self.steps["off_a"]))
        return anys(a == 1, steps) | anys(gather(flags, base_b, sides.take(self.sides["off_b"])) == 1, sides)

    def blocked(
        self, sources: Array, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """The rules of `judge` (10.31, 10.32) as array operations, for the lines sources[i] -> targets[i]."""
        elev = hexes.elev
        two_levels = np.flatnonzero(elev[self.positions[targets]] != elev[self.positions[sources]])
        if len(two_levels) * FEW_TWO_LEVELS <= len(targets):
            # few lines between two levels (a fan from level 0): all worked as on one level, those again
            out = self._same_level(sources, targets, firer, hexes, terrain)
        else:
            out = np.zeros(len(targets), dtype=bool)
            same_level = np.ones(len(targets), dtype=bool)
            same_level[two_levels] = False
            out[same_level] = self._same_level(sources[same_level], targets[same_level], firer, hexes, terrain)
        if len(two_levels):
            out[two_levels] = self._two_levels(sources[two_levels], targets[two_levels], hexes, terrain)
        return out

    def _lines(self, sources: Array, targets: Array) -> tuple[Array, Segments]:
        """The lines' rows, and the elements of their lane a."""
        rows = self.rows(sources, targets)
        return rows, segments(self.step_start[rows], self.step_len[rows], rows)

    def _sides(self, rows: Array) -> Segments:
        """The elements of the lines' lane b."""
        return segments(self.side_start[rows], self.side_len[rows], rows)

    def _buildings(self, hexes: HexArrays) -> Buildings:
        """The board's building hexes, numbered (worked out once for the arrays)."""
        if ("buildings",) not in hexes.derived:
            cells = self.positions[hexes.symbol[self.positions] != 0]
            number = np.full(self.size, -1, dtype=np.int64)
            number[cells] = np.arange(len(cells))
            hexes.derived[("buildings",)] = Buildings(number, cells, hexes.symbol[cells], hexes.count[cells])
        buildings: Buildings = hexes.derived[("buildings",)]
        return buildings

    def _worth_a_table(self, hexes: HexArrays, key: tuple[Any, ...], elements: int) -> bool:
        """Whether to read these `elements`' values (weights or heights, `key`) from a table of the
        arrays' every value, worked out once: when it is there, or once the elements asked of these
        arrays outnumber its values (a game's few lines between two moves ask for their own)."""
        if key in hexes.derived:
            return True
        asked = hexes.derived.get(("asked", *key), 0) + elements
        hexes.derived[("asked", *key)] = asked
        return bool(asked >= REGIONS * len(self.positions))

    def _levels(self, hexes: HexArrays) -> int:
        return int(hexes.elev[self.positions].max()) + 1

    @cached_property
    def _valued(self) -> tuple[Array, Array]:
        """The indices of one level of the cell arrays where a value may be other than 0: the
        board's cells in every region (the heights), and for the weights also the hexsides a board
        cell has on either side."""
        heights = np.concatenate([self.positions + region * self.size for region in range(REGIONS)])
        weights = [self.positions + Region.STEP * self.size, self.positions + Region.CORNER * self.size]
        for region in range(Region.HEXSIDE, REGIONS):
            near = np.union1d(self.positions, self.positions - self._neighbour[region])
            weights.append(near + region * self.size)
        return heights, np.concatenate(weights)

    def _all_levels(self, at: Array, levels: int) -> Array:
        return np.asarray((at[None, :] + np.arange(levels)[:, None] * (REGIONS * self.size)).ravel())

    def same_level_weights(self, hexes: HexArrays, firer: FirerState, terrain: SightTerrain) -> Array:
        """`weights_at` for every index, worked out once for the arrays (HexArrays.derived)."""
        key = ("weights", firer, terrain)
        if key not in hexes.derived:
            levels, at = self._levels(hexes), self._valued[1]
            at = self._all_levels(at, levels)
            weights = np.zeros(levels * REGIONS * self.size, dtype=_weight_type(len(self._buildings(hexes).cell)))
            weights[at] = self.weights_at(at, hexes, firer, terrain)
            hexes.derived[key] = weights
        return np.asarray(hexes.derived[key])

    def weights_at(self, at: Array, hexes: HexArrays, firer: FirerState, terrain: SightTerrain) -> Array:
        """10.31 as one number for each index `at` (L * REGIONS * size + region * size + cell), for
        lines whose ends stand on level L: what lane a's element in that region and cell adds to
        the line's sum; the line is blocked when its sum exceeds 10.31 b's limit. A step adds its
        hex's Trees, AFVs and Wrecks (b), at most `over`, the limit plus one; `over` for a higher
        hex (a) or a Marsh hex for a DOWN firer (c); -1 - i for building hex i, whose Building
        symbol (a) the line may touch or not. A corner touch adds `over` for a higher hex (a), else
        nothing; a step along a hexside the larger of its two hexes' (b), or `hexside_code` where
        one is a building hex."""
        over = terrain.max_trees_along + 1
        number = self._buildings(hexes).number
        dtype = _weight_type(len(self._buildings(hexes).cell))
        level, rest = np.divmod(at, REGIONS * self.size)
        region, cell = np.divmod(rest, self.size)

        def step(level: Array, cell: Array) -> Array:
            elev, building, count = hexes.elev[cell], number[cell], np.minimum(hexes.count[cell], over)
            blocks = elev > level
            if terrain.low_ground:  # by the letter every hex on the line may block; this spares lower ones
                up = elev >= level
                building, count = np.where(up, building, -1), count * up
            if firer is FirerState.DOWN:
                blocks |= (hexes.marsh[cell] == 1) & (elev >= level if terrain.low_ground else True)
            return np.asarray(np.where(blocks, over, np.where(building >= 0, -1 - building, count)))

        out = step(level, cell)
        corner = np.flatnonzero(region == Region.CORNER)
        if len(corner):
            out[corner] = np.where(hexes.elev[cell[corner]] > level[corner], over, 0)
        side = np.flatnonzero(region >= Region.HEXSIDE)
        if len(side):
            first, second = out[side], step(level[side], cell[side] + self._neighbour[region[side]])
            out[side] = np.where((first < 0) | (second < 0), hexside_code(np.dtype(dtype)), np.maximum(first, second))
        return out.astype(dtype)

    def _weigh(self, at: Array, hexes: HexArrays, firer: FirerState, terrain: SightTerrain) -> Array:
        """The weights at `at`: from the arrays' table of them when it is there, else worked out."""
        weights = hexes.derived.get(("weights", firer, terrain))
        return self.weights_at(at, hexes, firer, terrain) if weights is None else np.asarray(weights[at])

    def _same_level(
        self, sources: Array, targets: Array, firer: FirerState, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """10.31 for lines whose ends are on one level."""
        _, steps = self._lines(sources, targets)
        buildings = self._buildings(hexes)
        over, stride = terrain.max_trees_along + 1, REGIONS * self.size
        symbols, counts = buildings.symbol, np.minimum(buildings.counts, over)
        here = self.positions[sources] + hexes.elev[self.positions[sources]].astype(np.int64) * stride
        base = bases(here - self.reach, steps)
        off = steps.take(self.steps["off_a"])
        if not self._worth_a_table(hexes, ("weights", firer, terrain), steps.total):
            w = self.weights_at(indices(base, off), hexes, firer, terrain)
        else:
            w = gather(self.same_level_weights(hexes, firer, terrain), base, off)
        marked = np.flatnonzero(w < 0)
        if len(marked):
            hexside = w[marked] == hexside_code(w.dtype)
            building = marked[~hexside]
            parts = steps.pick(self.steps["symbol_a"], building)
            w[building] = _building_weights(w[building], parts, symbols, counts, over)
            if hexside.any():
                # a hexside with a building hex on either side: each hex's weight, its symbol touched or not
                at = marked[hexside]
                region = off[at] // self.size
                first = off[at] - region * self.size + base_at(base, at)  # in the step region
                second = first + self._neighbour[region]
                pair = []
                for cell, line_parts in ((first, "symbol_a"), (second, "symbol_pair")):
                    value = self._weigh(cell, hexes, firer, terrain)
                    building = np.flatnonzero(value < 0)
                    parts = steps.pick(self.steps[line_parts], at[building])
                    value[building] = _building_weights(value[building], parts, symbols, counts, over)
                    pair.append(value)
                w[at] = np.maximum(*pair)
        return np.asarray(sums(w, steps) > terrain.max_trees_along)

    @cached_property
    def _neighbour(self) -> Array:
        """A region's hexside neighbour as a grid offset (0 for the other regions)."""
        out = np.zeros(REGIONS, dtype=np.int64)
        out[Region.HEXSIDE :] = [d.q * self.grid_shape[1] + d.r for d in DIRECTIONS]
        return out

    def obstacle_heights(self, hexes: HexArrays, terrain: SightTerrain) -> Array:
        """`heights_at` for every index, worked out once for the arrays (HexArrays.derived)."""
        key = ("heights", terrain)
        if key not in hexes.derived:
            levels = self._levels(hexes)
            at = self._all_levels(self._valued[0], levels)
            heights = np.zeros(levels * REGIONS * self.size)
            heights[at] = self.heights_at(at, hexes, terrain)
            hexes.derived[key] = heights
        return np.asarray(hexes.derived[key])

    def heights_at(self, at: Array, hexes: HexArrays, terrain: SightTerrain) -> Array:
        """10.32 a's heights above level L, for the sight lines that rise from a unit on level L,
        at the indices `at` (L * REGIONS * size + region * size + cell): a hex's level plus its
        woods where a line passes through or along it (lane b holds the second hex along a
        hexside), its bare level where a line touches its corner; less L and never below 0 (what
        is no higher than the lower unit stands below its line); -1 - (L * buildings + i) for
        building hex i, whose Building symbol a line may touch or not (`_building_heights`)."""
        buildings = self._buildings(hexes)
        number, symbols = buildings.number, buildings.symbol
        level, rest = np.divmod(at, REGIONS * self.size)
        region, cell = np.divmod(rest, self.size)
        elev = hexes.elev[cell].astype(np.float64)
        plain = np.maximum(elev + np.where(hexes.woods[cell] == 1, terrain.woods_obstacle, 0.0) - level, 0.0)
        marked = np.where(number[cell] >= 0, -1.0 - (level * len(symbols) + number[cell]), plain)
        return np.asarray(np.where(region == Region.CORNER, np.maximum(elev - level, 0.0), marked))

    def _building_heights(self, hexes: HexArrays, terrain: SightTerrain, number: Array) -> tuple[Array, Array]:
        """The heights of building hexes marked -1 - number by `heights_at` (10.32 a): where a line
        misses the Building symbol, and where it touches it."""
        buildings = self._buildings(hexes)
        level, i = np.divmod(number, max(len(buildings.cell), 1))
        cell = buildings.cell[i]
        elev = hexes.elev[cell].astype(np.float64)
        missed = np.maximum(elev + np.where(hexes.woods[cell] == 1, terrain.woods_obstacle, 0.0) - level, 0.0)
        return missed, np.maximum(missed, elev + terrain.building_obstacle - level)

    @cached_property
    def _fractions(self) -> dict[str, Array]:
        """Each element's distance from the line's source ("s_a", "s_b") and from its target ("t_a",
        "t_b"), as a fraction of the line's range."""
        out: dict[str, Array] = {}
        for lane, table, length in (("a", self.steps, self.step_len), ("b", self.sides, self.side_len)):
            n = np.repeat(self.distance, length)
            out |= {f"s_{lane}": table[f"ds_{lane}"] / n, f"t_{lane}": table[f"dt_{lane}"] / n}
        return out

    def _two_levels(self, sources: Array, targets: Array, hexes: HexArrays, terrain: SightTerrain) -> Array:
        """10.32 b for lines whose ends differ in level: the lines whose source is the lower unit,
        then those whose target is."""
        elev = hexes.elev
        e_s, e_t = elev[self.positions[sources]], elev[self.positions[targets]]
        out = np.zeros(len(sources), dtype=bool)
        for end, low_end, low, rise in (("s", e_s < e_t, e_s, e_t - e_s), ("t", e_s > e_t, e_t, e_s - e_t)):
            if low_end.any():
                out[low_end] = self._above_line(
                    sources[low_end], targets[low_end], low[low_end], rise[low_end], end, hexes, terrain
                )
        return out

    def _above_line(
        self, sources: Array, targets: Array, low: Array, rise: Array, end: str, hexes: HexArrays, terrain: SightTerrain
    ) -> Array:
        """10.32 b: whether an obstacle touches or crosses above the sight line, which rises from level
        `low` at the lower unit (the lines' `end`: "s" their source, "t" their target) by `rise`
        over its range: at a fraction f of the range from the lower unit, an obstacle more than
        rise * f above `low`."""
        rows, steps = self._lines(sources, targets)
        sides = self._sides(rows)
        whole = self._worth_a_table(hexes, ("heights", terrain), steps.total + sides.total)
        symbols = self._buildings(hexes).symbol
        here = self.positions[sources] + low.astype(np.int64) * REGIONS * self.size - self.reach
        both = bases(here, steps), bases(here, sides)
        blocked = np.zeros(len(sources), dtype=bool)
        for base, table, lane, elements in zip(both, (self.steps, self.sides), "ab", (steps, sides), strict=True):
            if elements.total:
                off = elements.take(table[f"off_{lane}"])
                if whole:
                    height = gather(self.obstacle_heights(hexes, terrain), base, off)
                else:
                    height = self.heights_at(indices(base, off), hexes, terrain)
                building, number, hit = _symbols_touched(height, elements, table[f"symbol_{lane}"], symbols)
                missed, touched = self._building_heights(hexes, terrain, number)
                height[building] = np.where(hit, touched, missed)
                line = spread(rise, elements.length) * elements.take(self._fractions[f"{end}_{lane}"])
                blocked |= anys(height >= line, elements)
        return blocked


def _symbols_touched(values: Array, lane: Segments, line_parts: Array, symbols: Array) -> tuple[Array, Array, Array]:
    """The elements whose `values` mark a building hex (-1 - n, for the hex numbered n % buildings),
    n, and whether the line touches the hex's Building symbol (10.31 a): the line's parts in
    `line_parts` against the hex's `symbols`."""
    building = np.flatnonzero(values < 0)
    number = (-1 - values[building]).astype(np.int64)
    hit = (lane.pick(line_parts, building) & symbols[number % max(len(symbols), 1)]) != 0
    return building, number, hit


def _weight_type(buildings: int) -> type[np.signedinteger[Any]]:
    """int8 while -1 - i numbers every building hex above `hexside_code`."""
    return np.int8 if buildings < 128 else np.int32


def hexside_code(dtype: np.dtype[Any]) -> int:
    """The weight of a step along a hexside with a building hex on either side: the least of the type."""
    return int(np.iinfo(dtype).min)


def _building_weights(codes: Array, parts: Array, symbols: Array, counts: Array, over: int) -> Array:
    """The weights of building hexes -1 - i for a line: `over` where its parts touch the hex's
    Building symbol (10.31 a), else the hex's count (10.31 b)."""
    number = (-1 - codes).astype(np.int64)
    return np.where((parts & symbols[number]) != 0, over, counts[number])


def unique_pairs(sources: Array, targets: Array, n: int) -> tuple[Array, Array]:
    """Distinct (source, target) pairs of hex indices below n, sorted."""
    keys = np.unique(sources * n + targets)
    return keys // n, keys % n


class Buildings(NamedTuple):
    """The board's building hexes: each cell's number (-1: none), the cell of each, and its symbol
    (which of its neighbours join it, 10.31 a) and Trees, AFVs and Wrecks (10.31 b)."""

    number: Array
    cell: Array
    symbol: Array
    counts: Array


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

    def lay_out(lengths: list[int], canon: Array) -> tuple[Array, Array, Array]:
        """The rows' elements: canonical elements turned into place; row length, delta."""
        length = np.array(lengths, dtype=np.int64)
        starts = np.cumsum(length) - length
        elements = segments(starts[klasses], length[klasses])
        k = np.repeat(turns, elements.length)
        return _turn(elements.take(canon), k), elements.length, np.repeat(delta_arr, elements.length, axis=0)

    st, s_len, s_delta = lay_out(c_step_len, canon_steps)
    co, c_len, c_delta = lay_out(c_corner_len, canon_corners)
    a, b = st[:, 0:2], st[:, 2:4]
    side = (a != b).any(axis=1)  # a step along a hexside: its second hex is an element of lane b
    side_len = np.bincount(np.repeat(np.arange(len(deltas)), s_len)[side], minlength=len(deltas))
    b, b_delta = b[side], s_delta[side]

    def symbol(delta: Array, offset: Array) -> Array:
        """The symbol parts a line touches: bit i the band towards neighbour i, bit 6 the footprint."""
        core, bands = symbol_parts(delta, offset, terrain)
        return np.asarray(bands | core << FOOTPRINT_BIT, dtype=COLUMN_TYPES["symbol"])

    off_a = a[:, 0] * shape[1] + a[:, 1]
    off_c = co[:, 0] * shape[1] + co[:, 1]
    # lane a: a line's steps, then its corner touches, each in its region of the cell arrays (`Region`)
    size = shape[0] * shape[1]
    region = np.zeros(len(a), dtype=np.int64)
    for i, d in enumerate(DIRECTIONS):
        region[((st[:, 2:4] - a) == (d.q, d.r)).all(axis=1)] = Region.HEXSIDE + i
    lane_a = np.argsort(np.concatenate([np.repeat(np.arange(len(deltas)), n) for n in (s_len, c_len)]), kind="stable")
    pair = np.zeros(len(a), dtype=COLUMN_TYPES["symbol"])
    pair[side] = symbol(b_delta, b)
    steps = {
        "off_a": np.concatenate([off_a + region * size, off_c + Region.CORNER * size]) + row_shift,
        "symbol_a": np.concatenate([symbol(s_delta, a), np.zeros(len(co), dtype=COLUMN_TYPES["symbol"])]),
        "symbol_pair": np.concatenate([pair, np.zeros(len(co), dtype=COLUMN_TYPES["symbol"])]),
        "ds_a": np.concatenate([_distance(a), _distance(co)]),
        "dt_a": np.concatenate([_distance(a - s_delta), _distance(co - c_delta)]),
    }
    steps = {k: v[lane_a] for k, v in steps.items()}
    sides = {
        "off_b": b[:, 0] * shape[1] + b[:, 1] + row_shift,
        "symbol_b": pair[side],
        "ds_b": _distance(b),
        "dt_b": _distance(b - b_delta),
    }
    a_len = s_len + c_len
    return DeltaTable(
        shape,
        positions,
        row_at,
        steps,
        np.cumsum(a_len) - a_len,
        a_len,
        sides,
        np.cumsum(side_len) - side_len,
        side_len,
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
