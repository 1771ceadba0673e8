"""Ragged arrays for the line tables: the elements of many lines of different lengths in one flat
numpy array, each line a segment of it, and the few operations the LOS rules need on them (take,
gather, a sum or an any a line), done as slices where the lines' elements lie together."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Array = NDArray[Any]  # numpy arrays: int64 cells and offsets, bool flags, float heights
ELEMENTS_A_SPAN = 128  # elements in a run of rows, on average, for slices of the table to beat a gather by index
FEW_BLOCKS = 64  # runs of lines from one cell, at most, gathered a run at a time
LINES_A_BLOCK = 16  # and as many lines a run, at least
FEW_OF_A_LANE = 64  # at most one element in so many looked up one by one, else the lane's column is taken whole


class Segments:
    """The elements of one lane of many lines, concatenated: where each line's segment begins
    (`seg`) and its length, and which elements of the lane's arrays they are: `spans` [lo, hi),
    one a run of lines whose rows follow one another (their elements lie together), else `idx`,
    one index an element."""

    def __init__(self, seg: Array, length: Array, idx: Array | None, lo: Array | None = None, hi: Array | None = None):
        self.seg, self.length, self.idx, self.total = seg, length, idx, int(seg[-1] + length[-1]) if len(seg) else 0
        if lo is not None and hi is not None:
            self.spans = list(zip(lo.tolist(), hi.tolist(), strict=True))
            self._lo, self._at = lo, np.cumsum(hi - lo) - (hi - lo)  # where each span begins in the lane

    def take(self, column: Array) -> Array:
        """The lane's `column` at these elements: slices of it, copied, or gathered by index."""
        if self.idx is not None:
            return np.asarray(column[self.idx])
        return np.concatenate([column[lo:hi] for lo, hi in self.spans])

    def pick(self, column: Array, positions: Array) -> Array:
        """The lane's `column` at the elements at `positions`: looked up one by one when they are
        few, else taken whole and picked."""
        if self.idx is not None:
            return np.asarray(column[self.idx[positions]])
        if len(positions) * FEW_OF_A_LANE > self.total:
            return self.take(column)[positions]
        span = np.searchsorted(self._at, positions, "right") - 1
        return np.asarray(column[self._lo[span] + positions - self._at[span]])


def segments(start: Array, length: Array, rows: Array | None = None) -> Segments:
    """The concatenated segments [start, start + length), and where each begins; by spans when the
    lines' `rows` run on in runs of enough elements, else by each element's index."""
    seg = np.cumsum(length) - length
    total = int(seg[-1] + length[-1]) if len(seg) else 0
    if not total:
        return Segments(seg, length, np.zeros(0, dtype=np.int64))
    if rows is not None and total >= ELEMENTS_A_SPAN:
        breaks = np.flatnonzero(rows[1:] - rows[:-1] != 1) + 1
        if (len(breaks) + 1) * ELEMENTS_A_SPAN <= total:
            first, last = np.concatenate(([0], breaks)), np.concatenate((breaks - 1, [len(rows) - 1]))
            return Segments(seg, length, None, start[first], start[last] + length[last])
    return Segments(seg, length, np.repeat(start - seg, length) + np.arange(total))


Bases = list[tuple[int, int, int]] | Array


def bases(values: Array, lane: Segments) -> Bases:
    """One value a line, for each of its elements: as (value, first element, end) blocks when it
    changes seldom from line to line (a fan: one block; a batch of the all-pairs matrix: one a
    source), else repeated for each element."""
    if not len(values):
        return np.zeros(0, dtype=np.int64)
    change = np.flatnonzero(values[1:] != values[:-1]) + 1
    if len(change) >= FEW_BLOCKS or len(change) * LINES_A_BLOCK >= len(values):
        return np.repeat(values, lane.length)
    first = lane.seg[change].tolist()
    return list(zip(values[np.concatenate(([0], change))].tolist(), [0, *first], [*first, lane.total], strict=True))


def base_at(base: Bases, positions: Array) -> Array:
    """The bases of the elements at `positions`."""
    if isinstance(base, list):
        first = np.array([lo for _, lo, _ in base], dtype=np.int64)
        return np.array([b for b, _, _ in base], dtype=np.int64)[np.searchsorted(first, positions, "right") - 1]
    return np.asarray(base[positions])


def indices(base: Bases, off: Array) -> Array:
    """base + off for each element."""
    if isinstance(base, list):
        return np.concatenate([off[lo:hi] + b for b, lo, hi in base]) if base else off
    return np.asarray(base + off)


def gather(values: Array, base: Bases, off: Array) -> Array:
    """values[base + off]: a block's elements taken through a view of `values` from its base (no
    addition), else one base an element added."""
    if isinstance(base, list):
        parts = [values[b:].take(off[lo:hi]) for b, lo, hi in base]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.asarray(values[base + off])


def spread(values: Array, length: Array) -> Array | Any:
    """One value a line, for each of its `length` elements: the value itself when every line has the
    same one (a fan's source, its level), which numpy broadcasts without repeating it."""
    if len(values) and (values == values[0]).all():
        return values[0]
    return np.repeat(values, length)


def sums(values: Array, lines: Segments) -> Array:
    padded = np.append(values, np.zeros(1, dtype=values.dtype))
    return np.where(lines.length > 0, np.add.reduceat(padded, lines.seg, dtype=np.int32), 0)


def anys(values: Array, lines: Segments) -> Array:
    padded = np.append(values, False)
    return (lines.length > 0) & np.logical_or.reduceat(padded, lines.seg)
