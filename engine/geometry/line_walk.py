"""10.31 b's count along one line at a time, in pure Python over the line table's steps.

A game asks a few lines at a time with the AFVs and Wrecks where they stand (10.31 b counts them
with the Tree symbols); the numpy kernel's fixed cost is 0.1-0.3 ms a call however few its
lines, a walk here a few microseconds a line. The steps are the line table's (the hexes a line
passes through or along, ends and corner touches left out: `sight.judge`'s count), read for a
delta when first asked and kept with the walk: at most one entry a delta of the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.hexgrid import DIRECTIONS, Hex

from .line_table import DeltaTable, HexArrays, Region
from .sight import SightTerrain

# cell offsets from the source: the hexes passed through, the hexside pairs run along, and all of them
Steps = tuple[tuple[int, ...], tuple[tuple[int, int], ...], frozenset[int]]


class LineWalk:
    """The bare terrain's Tree symbols and levels by cell of a board's line table, and its lines' steps."""

    def __init__(self, table: DeltaTable, order: Sequence[Hex], arrays: HexArrays, terrain: SightTerrain) -> None:
        """`arrays`: the bare terrain's (no AFV or Wreck), on `table`'s grid; `order`: the hexes of its positions."""
        self.table = table
        self.cell = dict(zip(order, table.positions.tolist(), strict=True))
        self.trees = arrays.count.tolist()
        self.level = arrays.elev.tolist()
        self.low_ground = terrain.low_ground
        self.limit = terrain.max_trees_along
        self._beside = [0] * Region.HEXSIDE + [d.q * table.grid_shape[1] + d.r for d in DIRECTIONS]
        self._steps: dict[int, Steps] = {}

    def steps(self, offset: int) -> Steps:
        """The steps of the line to the cell `offset` cells away, as cell offsets from its source."""
        found = self._steps.get(offset)
        if found is None:
            table, beside, size, reach = self.table, self._beside, self.table.size, self.table.reach
            row = int(table.row_at[offset + reach])
            start = int(table.step_start[row])
            through, along = [], []
            for element in table.steps["off_a"][start : start + int(table.step_len[row])].tolist():
                region, cell = divmod(element, size)
                cell -= reach
                if region == Region.STEP:
                    through.append(cell)
                elif region >= Region.HEXSIDE:  # a corner touch adds nothing (10.31 b)
                    along.append((cell, cell + beside[region]))
            passed = frozenset(through).union(*along)
            found = self._steps[offset] = (tuple(through), tuple(along), passed)
        return found

    def trees_along(self, source: Hex, target: Hex, blockers: Mapping[int, int]) -> int:
        """`judge`'s `trees_along`: the Trees, AFVs and Wrecks (`blockers`: by cell) of each hex the
        line passes through, the larger of a hexside's two it runs along (10.31 b, 11.16 b); under
        the low-ground house rule none of a hex lower than both ends."""
        a, b = self.cell[source], self.cell[target]
        trees, level = self.trees, self.level
        low = min(level[a], level[b]) if self.low_ground else -1  # cells off the board: level -1, no trees
        through, along, _ = self.steps(b - a)
        total = 0
        for offset in through:
            cell = a + offset
            if level[cell] >= low:
                total += trees[cell] + blockers.get(cell, 0)
        for first, second in along:
            one, two = a + first, a + second
            total += max(
                trees[one] + blockers.get(one, 0) if level[one] >= low else 0,
                trees[two] + blockers.get(two, 0) if level[two] >= low else 0,
            )
        return total

    def blocks(self, source: Hex, target: Hex, blockers: Mapping[int, int]) -> bool:
        """Whether the AFVs and Wrecks (`blockers`: by cell) block a line the bare terrain leaves
        open: they only add to 10.31 b's count, which only ends on one level heed (10.31), and
        only in the hexes the line passes (most lines pass none: not walked)."""
        a, b = self.cell[source], self.cell[target]
        if self.level[a] != self.level[b]:
            return False
        passed = self.steps(b - a)[2]
        return any(c - a in passed for c in blockers) and self.trees_along(source, target, blockers) > self.limit
