"""Viewsheds and zone-to-zone visibility, cached per board and updated hex by hex after edits."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from engine.hexgrid import Hex, neighbours
from engine.model.board import Board

from .line_table import Array, HexArrays
from .los_kernel import SightKernel
from .sight import FirerState


@dataclass(frozen=True)
class ZoneVisibility:
    """What the hexes of one zone see of another's (every hex of `watchers` to every hex of `watched`)."""

    pairs: int
    visible_pairs: int
    seen: frozenset[Hex]  # hexes of `watched` that at least one watcher sees
    watched: frozenset[Hex]

    @property
    def share_seen(self) -> float:
        """The share of the watched zone seen from somewhere in the watching zone."""
        return len(self.seen) / len(self.watched) if self.watched else 0.0


class Viewsheds:
    """Fans (one hex to all) cached by source and firer state.

    After an edit, `changed(hexes)` recomputes, in each cached fan, only the lines that meet
    an edited hex (or end in one); a building edit also reaches the neighbours, whose
    symbols join it (10.31 a).
    """

    def __init__(self, board: Board, kernel: SightKernel | None = None) -> None:
        self.board = board
        self.kernel = kernel or SightKernel(board)
        self._arrays: dict[FirerState, HexArrays] = {}
        self._fans: dict[tuple[int, FirerState], Array] = {}
        self.lines_worked = 0  # lines evaluated since creation: what an edit costs

    def _terrain(self, firer: FirerState) -> HexArrays:
        if firer not in self._arrays:
            self._arrays[firer] = self.kernel.arrays()
        return self._arrays[firer]

    def blocked_from(self, source: Hex, firer: FirerState = FirerState.UP) -> Array:
        """Blocked flags from `source` to every hex, in `kernel.order`."""
        key = (self.kernel.index[source], firer)
        if key not in self._fans:
            self._fans[key] = self.kernel.fan_array(key[0], firer, self._terrain(firer))
            self.lines_worked += len(self.kernel.order)
        return self._fans[key]

    def visible_from(self, source: Hex, firer: FirerState = FirerState.UP) -> frozenset[Hex]:
        blocked = self.blocked_from(source, firer)
        return frozenset(h for h, b in zip(self.kernel.order, blocked.tolist(), strict=True) if not b and h != source)

    def zones(
        self, watchers: Iterable[Hex], watched: Iterable[Hex], firer: FirerState = FirerState.UP
    ) -> ZoneVisibility:
        watched_set = frozenset(watched)
        columns = np.array([self.kernel.index[h] for h in sorted(watched_set)], dtype=np.int64)
        seen = np.zeros(len(columns), dtype=bool)
        pairs = visible = 0
        for h in set(watchers):
            open_ = ~self.blocked_from(h, firer)[columns]
            pairs += len(columns)
            visible += int(open_.sum())
            seen |= open_
        hexes = sorted(watched_set)
        return ZoneVisibility(
            pairs, visible, frozenset(h for h, s in zip(hexes, seen.tolist(), strict=True) if s), watched_set
        )

    def changed(self, hexes: Iterable[Hex]) -> None:
        """The terrain of `hexes` changed on the board: bring the cached fans up to date."""
        edited = {h for h in hexes if h in self.board.hexes}
        edited |= {n for h in edited for n in neighbours(h) if n in self.board.hexes}  # building joins
        self.kernel = SightKernel(self.board, self.kernel.terrain, table=self.kernel.table)
        self._arrays = {}
        table = self.kernel.table
        flags = np.zeros(table.grid_shape[0] * table.grid_shape[1], dtype=np.int64)
        flags[[int(table.positions[self.kernel.index[h]]) for h in edited]] = 1
        everything = np.arange(len(self.kernel.order))
        for (source, firer), fan in self._fans.items():
            if self.kernel.order[source] in edited:
                stale = everything
            else:
                stale = np.flatnonzero(table.meets(source, everything, flags) | (flags[table.positions] == 1))
            if len(stale):
                fan[stale] = self.kernel.fan_array(source, firer, self._terrain(firer), stale)
                self.lines_worked += len(stale)
