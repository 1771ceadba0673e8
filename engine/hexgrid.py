"""The hex grid: axial coordinates for flat-topped hexes, printed `XXYY` labels at the edges.

After Red Blob Games, "Hexagonal Grids": a `Hex` is axial `(q, r)` with `s = -q - r`; the
printed label's column is `q` and its row is recovered through the map's offset (`even-q`:
even-numbered columns sit half a hex lower). Labels exist only at the edges of the program
(files, display, command line); everything inside works on `Hex`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from enum import StrEnum
from typing import NamedTuple


class Offset(StrEnum):
    """Which columns sit half a hex lower on the printed map."""

    EVEN_Q = "even-q"
    ODD_Q = "odd-q"


class Hex(NamedTuple):
    """A hex in axial coordinates; `q` is the printed column number.

    A named tuple: hashing and ordering run in C, which every search and zone leans on.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)


# Clockwise from "up" (towards lower row numbers) on the printed sheet.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)


class LabelError(ValueError):
    """A hex label that is not a printed `XXYY` label."""


def offset_to_hex(column: int, row: int, offset: Offset = Offset.EVEN_Q) -> Hex:
    """Printed column and row to axial coordinates.

    >>> offset_to_hex(10, 1)
    Hex(q=10, r=-4)
    """
    shift = (column + (column & 1)) // 2 if offset is Offset.EVEN_Q else (column - (column & 1)) // 2
    return Hex(column, row - shift)


def hex_to_offset(h: Hex, offset: Offset = Offset.EVEN_Q) -> tuple[int, int]:
    """Axial coordinates to printed (column, row)."""
    shift = (h.q + (h.q & 1)) // 2 if offset is Offset.EVEN_Q else (h.q - (h.q & 1)) // 2
    return h.q, h.r + shift


def parse_label(label: str, offset: Offset = Offset.EVEN_Q) -> Hex:
    """A printed label `XXYY` to a hex.

    >>> parse_label("4307")
    Hex(q=43, r=-15)
    """
    if not isinstance(label, str) or len(label) != 4 or not label.isdigit():
        raise LabelError(f"{label!r} is not a hex label (four digits, column then row: '4307')")
    return offset_to_hex(int(label[:2]), int(label[2:]), offset)


def hex_label(h: Hex, offset: Offset = Offset.EVEN_Q) -> str:
    """A hex to its printed label.

    >>> hex_label(parse_label("5014"))
    '5014'
    """
    column, row = hex_to_offset(h, offset)
    if not (0 <= column <= 99 and 0 <= row <= 99):
        raise LabelError(f"hex {h} has no printed label (column {column}, row {row})")
    return f"{column:02d}{row:02d}"


def hex_distance(a: Hex, b: Hex) -> int:
    """Hexes from a to b, counting b but not a (rule 11.2 counts ranges this way).

    >>> hex_distance(parse_label("1001"), parse_label("1004"))
    3
    """
    dq, dr = a.q - b.q, a.r - b.r  # the cube distance, without building a Hex (a hot path of play)
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> Iterator[Hex]:
    """The six hexes sharing a hexside with h, clockwise from up."""
    for d in DIRECTIONS:
        yield h + d


def within(h: Hex, reach: int) -> Iterator[Hex]:
    """The hexes at most `reach` from h, h too, in sorted order (by q, then r), on any board.

    >>> [hex_label(n) for n in within(parse_label("1002"), 1)]
    ['0902', '0903', '1001', '1002', '1003', '1102', '1103']
    """
    for dq in range(-reach, reach + 1):
        for dr in range(max(-reach, -dq - reach), min(reach, reach - dq) + 1):
            yield Hex(h.q + dq, h.r + dr)


def are_adjacent(a: Hex, b: Hex) -> bool:
    return hex_distance(a, b) == 1


# Flat-topped layout with unit outer radius: the centre of (q, r) is at
# x = 3/2 q, y = sqrt(3) (r + q/2); y grows towards higher row numbers.
SQRT3 = math.sqrt(3.0)


def hex_to_point(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a hex in sheet units (x right, y down)."""
    return size * 1.5 * h.q, size * SQRT3 * (h.r + h.q / 2.0)


def corner_offsets(size: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The six corners of a flat-topped hex around its centre, clockwise from the right."""
    return tuple((size * math.cos(math.radians(60 * i)), size * math.sin(math.radians(60 * i))) for i in range(6))


def polygon_corners(h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
    """The corners of a hex on the sheet."""
    cx, cy = hex_to_point(h, size)
    return [(cx + dx, cy + dy) for dx, dy in corner_offsets(size)]


def point_to_hex(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex containing a sheet point (cube rounding)."""
    qf = (2.0 / 3.0 * x) / size
    rf = (-1.0 / 3.0 * x + SQRT3 / 3.0 * y) / size
    return cube_round(qf, rf)


def cube_round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from a to b, both ends included.

    Used for zones ("hexes 3001 to 3013"), where the line runs along a column or row of
    hexes. Line of sight does not use this: along a hexside rule 10.31 b decides.
    """
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    # A tiny, fixed nudge keeps points off hexsides; harmless for zone lines.
    eps_q, eps_r = 1e-6, 2e-6
    return [
        cube_round(
            a.q + eps_q + (b.q - a.q) * i / n,
            a.r + eps_r + (b.r - a.r) * i / n,
        )
        for i in range(n + 1)
    ]
