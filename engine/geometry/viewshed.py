"""Viewsheds and zone-to-zone visibility, cached per board and updated hex by hex after edits."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from engine.hexgrid import Hex, neighbours
from engine.model.board import Board

from .line_table import HexArrays, unique_pairs
from .los_kernel import SightKernel
from .ragged import Array
from .sight import FirerState

# An edit of more than this share of the board's hexes works the cached fans again whole:
# finding the lines through an edited hex costs about what 1/16 of a whole fan does (measured
# on Scenario 6, benchmarks/editor.py).
WHOLE_FANS_ABOVE = 1 / 16


@dataclass(frozen=True)
class ZoneVisibility:
    """What the hexes of one zone see of another's (every hex of `watchers` to every hex of `watched`)."""

    pairs: int
    visible_pairs: int
    seen: frozenset[Hex]  # hexes of `watched` that at least one watcher sees
    watched: frozenset[Hex]
    seen_by: Mapping[Hex, int] = field(default_factory=dict)  # each watched hex: how many watchers see it

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
        seen_by = np.zeros(len(columns), dtype=np.int64)
        pairs = visible = 0
        for h in set(watchers):
            open_ = ~self.blocked_from(h, firer)[columns]
            pairs += len(columns)
            visible += int(open_.sum())
            seen_by += open_
        counts = dict(zip(sorted(watched_set), seen_by.tolist(), strict=True))
        return ZoneVisibility(pairs, visible, frozenset(h for h, n in counts.items() if n), watched_set, counts)

    def changed(self, hexes: Iterable[Hex]) -> None:
        """The terrain of `hexes` changed on the board: bring the cached fans up to date."""
        edited = {h for h in hexes if h in self.board.hexes}
        # a building hex joins its symbol to the same building's neighbours (10.31 a): when one
        # changes, so may the symbol in the hexes around it
        before = self.board.previous
        joins = {h for h in edited if h not in before or before[h].building != self.board.terrain(h).building}
        edited |= {n for h in joins for n in neighbours(h) if n in self.board.hexes}
        # a kernel whose building joins follow the edit, and the terrain arrays rewritten at its hexes
        self.kernel = self.kernel.edited(edited)
        indices = np.array(sorted(self.kernel.index[h] for h in edited), dtype=np.int64)
        for arrays in self._arrays.values():
            self.kernel.write_arrays(arrays, indices.tolist())
        if not self._fans:
            return
        if len(edited) > WHOLE_FANS_ABOVE * len(self.kernel.order):
            # a fill over much of the board: the lines through it are nearly every line, and
            # finding them costs more than working each fan again
            for source, firer in self._fans:
                self._fans[(source, firer)] = self.kernel.fan_array(source, firer, self._terrain(firer))
            self.lines_worked += len(self._fans) * len(self.kernel.order)
            return
        table = self.kernel.table
        for firer in {firer for _, firer in self._fans}:
            sources = np.array(sorted(s for s, f in self._fans if f is firer), dtype=np.int64)
            # the lines through an edited hex, and those ending in one (or starting: whole fans)
            through_s, through_t = table.pairs_through(sources, table.positions[indices])
            ends_s, ends_t = np.repeat(sources, len(indices)), np.tile(indices, len(sources))
            whole = sources[np.isin(sources, indices)]
            all_s = np.repeat(whole, len(self.kernel.order))
            all_t = np.tile(np.arange(len(self.kernel.order)), len(whole))
            pair_s, pair_t = unique_pairs(
                np.concatenate([through_s, ends_s, all_s]),
                np.concatenate([through_t, ends_t, all_t]),
                len(self.kernel.order),
            )
            blocked = self.kernel.lines_blocked(pair_s, pair_t, firer, self._terrain(firer))
            for source in np.unique(pair_s).tolist():
                mine = pair_s == source
                self._fans[(source, firer)][pair_t[mine]] = blocked[mine]
            self.lines_worked += len(pair_s)
