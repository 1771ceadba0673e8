"""Fast line of sight on one board: `sight` for a pair, `fan` for one hex to all, `matrix` for all pairs.

`sight` takes a line's hexes from engine.geometry.lattice (cached per direction) and applies
the same `judge` as the reference; `fan` and `matrix` use the board's line table
(engine.geometry.line_table), where the rules of `judge` are array operations.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property

import numpy as np

from engine.hexgrid import DIRECTIONS, Hex
from engine.model.board import Board

from .building_symbols import symbol_parts
from .lattice import Contact, Touch, centre, touches
from .line_table import COLUMN_TYPES, FOOTPRINT_BIT, DeltaTable, HexArrays, delta_table
from .ragged import Array
from .sight import FirerState, Sight, SightTerrain, judge
from .table_cache import kept_table

MATRIX_BATCH = 16384  # lines a call of `matrix` works: its fixed cost (some 0.1 ms) paid seldom (4,096: 8% slower)


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

    def edited(self, hexes: Iterable[Hex]) -> SightKernel:
        """A kernel for the board after an edit of `hexes` (and of their neighbours' building joins,
        10.31 a), sharing this one's hex order and line table: what an edit changes, not the board."""
        kernel = copy.copy(self)
        kernel.__dict__.pop("_joins", None)
        if "_joins" in self.__dict__:
            joins = dict(self._joins)
            for h in hexes:
                joins.pop(h, None)
                if self.board.terrain(h).building is not None:
                    joins[h] = self._joined(h)
            kernel.__dict__["_joins"] = joins
        return kernel

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
        # the symbol parts the line touches, in the Building hexes it passes (most lines pass none)
        terrain = self.board.terrain
        passed = [
            t.offset
            for t in touches(delta)
            if t.contact is not Contact.CORNER and terrain(source + t.offset).building is not None
        ]
        parts: dict[Hex, tuple[bool, int]] = {}
        if passed:
            offsets = np.array([[h.q, h.r] for h in passed], dtype=np.int64)
            core, bands = symbol_parts(np.array([[delta.q, delta.r]] * len(passed)), offsets, self.terrain)
            parts = {h: (bool(c), int(b)) for h, c, b in zip(passed, core.tolist(), bands.tolist(), strict=True)}

        def symbol_hit(h: Hex) -> bool:
            if self.board.terrain(h).footprint is not None:
                return self._custom_hit(source, target, h)
            footprint, band_mask = parts[h - source]
            return footprint or bool(band_mask & self._joins[h])

        return judge(self.board, source, target, touched, symbol_hit, self.terrain, firer, blockers)

    def _custom_hit(self, source: Hex, target: Hex, h: Hex) -> bool:
        """A hex with its own footprint (not the table's): tested directly, it may be any shape."""
        # shapely (0.05 s to import, numpy aside) only for a board with such a footprint
        from shapely import LineString

        from .los_reference import building_symbol, cell

        scale = self.terrain.scale
        (ax, ay), (bx, by) = centre(source), centre(target)
        line = LineString([(ax * scale, ay * scale), (bx * scale, by * scale)])
        building = self.board.terrain(h).building
        assert building is not None
        return bool(line.intersects(building_symbol(self.board, building, self.terrain).intersection(cell(h, scale))))

    @cached_property
    def _joins(self) -> dict[Hex, int]:
        """For each building hex, bit i set when neighbour i belongs to the same building."""
        return {h: self._joined(h) for h, t in self.board.terrain_map.items() if t.building is not None}

    def _joined(self, h: Hex) -> int:
        building = self.board.terrain(h).building
        return sum(1 << i for i, d in enumerate(DIRECTIONS) if self.board.terrain(h + d).building == building)

    # -- many pairs --------------------------------------------------------------------------
    @cached_property
    def table(self) -> DeltaTable:
        return kept_table(self.order, self.terrain, delta_table)

    def arrays(self, blockers: Mapping[Hex, int] | None = None) -> HexArrays:
        """Terrain on the table's padded grid; cells off the board hold nothing and never block."""
        table = self.table
        blockers = blockers or {}
        size = table.grid_shape[0] * table.grid_shape[1]
        columns = {name: np.zeros(size, dtype=dtype) for name, dtype in COLUMN_TYPES.items()}
        columns["elev"][:] = -1
        arrays = HexArrays(**columns)
        self.write_arrays(arrays, range(len(self.order)), blockers)
        return arrays

    def write_arrays(
        self, arrays: HexArrays, indices: Sequence[int], blockers: Mapping[Hex, int] | None = None
    ) -> None:
        """Write the terrain of these hexes (indices into `order`) into `arrays`: after an edit, its hexes only."""
        blockers = blockers or {}
        arrays.derived.clear()
        for i, pos in zip(indices, self.table.positions[list(indices)].tolist(), strict=True):
            h = self.order[i]
            t = self.board.terrain(h)
            arrays.elev[pos] = t.elevation
            arrays.count[pos] = t.trees + blockers.get(h, 0)
            arrays.woods[pos] = t.trees >= self.terrain.woods_min_trees
            arrays.marsh[pos] = t.marsh
            arrays.symbol[pos] = self._joins[h] | 1 << FOOTPRINT_BIT if t.building is not None else 0
            arrays.custom[pos] = t.footprint is not None

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
        return self.lines_blocked(np.full(len(targets), source), targets, firer, arrays)

    def lines_blocked(self, sources: Array, targets: Array, firer: FirerState, arrays: HexArrays) -> Array:
        """Blocked flags for the lines sources[i] -> targets[i] (hex indices)."""
        blocked = self.table.blocked(sources, targets, firer, arrays, self.terrain)
        if arrays.custom.any():  # a hex with its own footprint on the line: the exact path
            for k in np.flatnonzero(self.table.meets(sources, targets, arrays.custom)):
                blocked[k] = self.sight(self.order[int(sources[k])], self.order[int(targets[k])], firer).blocked
        return blocked

    def matrix(self, firer: FirerState = FirerState.UP) -> Array:
        """The all-pairs matrix: [i, j] is True when the LOS from hex i to hex j is blocked
        (hexes in sorted order, `self.order`). Both ends are in the same state, so the LOS
        is symmetric: each pair is worked once and mirrored, from the higher hex where the levels
        differ (10.32 b), so that its lines to the lower hexes lie together in the line table."""
        arrays = self.arrays()
        n = len(self.order)
        out = np.zeros((n, n), dtype=bool)
        level = arrays.elev[self.table.positions]
        sources, targets = np.triu_indices(n, 1)
        same = level[sources] == level[targets]
        higher, lower = np.nonzero(level[:, None] > level[None, :])
        sources, targets = np.concatenate([sources[same], higher]), np.concatenate([targets[same], lower])
        # in batches of many rows: each call's fixed cost is paid once a batch, not once a row
        for start in range(0, len(sources), MATRIX_BATCH):
            s, t = sources[start : start + MATRIX_BATCH], targets[start : start + MATRIX_BATCH]
            out[s, t] = self.lines_blocked(s, t, firer, arrays)
        return out | out.T
