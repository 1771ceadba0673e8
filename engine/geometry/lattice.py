"""Exact hex geometry for line of sight: which hexes a centre-to-centre line touches, and how.

Sheet coordinates have sqrt(3) in every y, so a line that runs exactly along a hexside
or through a hex corner cannot be told apart from one that misses it by 1e-16. Here the
sheet is mapped by the affine map (x, y) -> (2x, 2y / sqrt(3)): hex centres become the
integer points (3q, 2r + q) and corners the integer offsets (+-2, 0), (+-1, +-1). An
affine map keeps straight lines, crossings and touchings, so every question 10.31 asks
("passes through", "along a hexside", "touches") is answered in exact integer arithmetic.

Building symbols (10.31 a) are given in hex-local sheet units (docs/formats.md). Their
x coordinates stay rational after the map; a `scale` turns every rational coordinate into
an integer so that touching a symbol's corner is exact too (y coordinates with sqrt(3)
are irrational and never lie exactly on a line through two hex centres).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction
from functools import cache

from engine.hexgrid import DIRECTIONS, SQRT3, Hex, hex_distance, neighbours

# Hex corners in lattice units, in the order of hexgrid.corner_offsets (clockwise from the right).
CORNERS: tuple[tuple[int, int], ...] = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


def centre(h: Hex) -> tuple[int, int]:
    """A hex centre in lattice units."""
    return 3 * h.q, 2 * h.r + h.q


class Contact(IntEnum):
    """How a line meets a hex (its closed cell)."""

    INTERIOR = 0  # passes through the hex
    HEXSIDE = 1  # runs along one of its hexsides (10.31 b: count the adjoining hex with more)
    CORNER = 2  # touches it at one corner only


@dataclass(frozen=True, slots=True)
class Touch:
    """One hex met by the line from the origin hex to a delta: its offset, how, and where (0..1)."""

    offset: Hex
    contact: Contact
    t: Fraction


# The six hexsides as (E, K): edge vector and start corner, clockwise.
_EDGES = tuple(
    ((CORNERS[(i + 1) % 6][0] - CORNERS[i][0], CORNERS[(i + 1) % 6][1] - CORNERS[i][1]), CORNERS[i]) for i in range(6)
)


def _classify(h: Hex, vx: int, vy: int) -> tuple[Contact, Fraction] | None:
    """How the segment (0,0)-(vx,vy) meets the closed cell of h, and where it first does.

    Inside the cell means cross(E, P(t) - C - K) >= 0 for each hexside, i.e. a*t >= b; the
    interval [lo, hi] of t is kept as integer fractions (numerator, positive denominator).
    """
    cx, cy = 3 * h.q, 2 * h.r + h.q
    ln, ld, hn, hd = 0, 1, 1, 1
    for (ex, ey), (kx, ky) in _EDGES:
        a = ex * vy - ey * vx
        b = ex * (cy + ky) - ey * (cx + kx)
        if a > 0:
            if b * ld > ln * a:
                ln, ld = b, a
        elif a < 0:
            if b * hd > hn * a:  # b/a < hn/hd, with a < 0
                hn, hd = -b, -a
        elif b > 0:
            return None
    if ln * hd > hn * ld:
        return None
    lo = Fraction(ln, ld)
    if ln * hd == hn * ld:
        return Contact.CORNER, lo
    # the midpoint of the interval lies on a hexside exactly when the line runs along it
    mn, md = ln * hd + hn * ld, 2 * ld * hd
    for (ex, ey), (kx, ky) in _EDGES:
        if ex * (mn * vy - (cy + ky) * md) - ey * (mn * vx - (cx + kx) * md) == 0:
            return Contact.HEXSIDE, lo
    return Contact.INTERIOR, lo


def rotate(h: Hex, k: int) -> Hex:
    """h turned k times 60 degrees about Hex(0, 0) (a symmetry of the grid and of hex cells)."""
    q, r = h.q, h.r
    for _ in range(k % 6):
        q, r = -r, q + r
    return Hex(q, r)


@cache
def touches(delta: Hex) -> tuple[Touch, ...]:
    """Every hex the line from the centre of Hex(0, 0) to the centre of `delta` meets, ends
    included, in order along the line (a hexside's two hexes share their `t`).

    Computed once per direction class: the grid's six rotations carry lines to lines.

    >>> [(t.offset.q, t.offset.r, t.contact.name) for t in touches(Hex(2, -1))]
    [(0, 0, 'INTERIOR'), (1, -1, 'HEXSIDE'), (1, 0, 'HEXSIDE'), (2, -1, 'INTERIOR')]
    """
    k, turned = canonical(delta)
    if k == 0:
        return _walk(delta)
    back = [Touch(rotate(t.offset, -k), t.contact, t.t) for t in _walk(turned)]
    return tuple(sorted(back, key=lambda t: (t.t, t.contact, t.offset)))


def canonical(delta: Hex) -> tuple[int, Hex]:
    """The turn k and the delta it gives in the sector q > 0, -q < r <= 0 (Hex(0, 0) stays)."""
    for k in range(6):
        turned = rotate(delta, k)
        if turned.q > 0 and -turned.q < turned.r <= 0:
            return k, turned
    return 0, delta


def _leaving(vx: int, vy: int) -> list[tuple[int, int, int, int, int, int]]:
    """The hexsides a line of direction (vx, vy) can leave a cell through (a < 0 in _classify's
    terms), as (i, ex, ey, kx, ky, -a): the same for every hex of the line, so found once a walk."""
    out = []
    for i, ((ex, ey), (kx, ky)) in enumerate(_EDGES):
        a = ex * vy - ey * vx
        if a < 0:
            out.append((i, ex, ey, kx, ky, -a))
    return out


def _exit(h: Hex, leaving: list[tuple[int, int, int, int, int, int]]) -> tuple[Fraction, list[int]]:
    """Where the line leaves the cell of h (it is inside it), and through which hexsides (two: a corner)."""
    cx, cy = 3 * h.q, 2 * h.r + h.q
    hn, hd, tight = 1, 1, []
    for i, ex, ey, kx, ky, minus_a in leaving:
        minus_b = ey * (cx + kx) - ex * (cy + ky)
        if minus_b * hd < hn * minus_a:
            hn, hd, tight = minus_b, minus_a, [i]
        elif minus_b * hd == hn * minus_a:
            tight.append(i)
    return Fraction(hn, hd), tight


# Hexside i of CORNERS (from corner i to corner i + 1) faces neighbour DIRECTIONS[(i + 2) % 6].
_ACROSS = tuple(DIRECTIONS[(i + 2) % 6] for i in range(6))


@cache
def _walk(delta: Hex) -> tuple[Touch, ...]:
    """Walk the line from Hex(0, 0) to `delta` hex by hex: it leaves a hex through a hexside
    (into the next hex) or through a corner, where it either enters one of the two other
    hexes (the third is touched at that corner) or runs along the hexside between them and
    then enters the hex beyond that hexside's far corner.
    """
    vx, vy = centre(delta)
    leaving = _leaving(vx, vy)
    current = Hex(0, 0)
    out = [Touch(current, Contact.INTERIOR, Fraction(0))]
    while current != delta:
        t_exit, tight = _exit(current, leaving)
        if len(tight) == 1:
            current = current + _ACROSS[tight[0]]
            out.append(Touch(current, Contact.INTERIOR, t_exit))
            continue
        sides = [current + _ACROSS[i] for i in tight]
        found = sorted(((_classify(n, vx, vy) or (Contact.CORNER, t_exit))[0], n) for n in sides)
        out += [Touch(n, contact, t_exit) for contact, n in found]
        if found[0][0] is Contact.INTERIOR:
            current = found[0][1]
            continue
        # along the hexside between the two: the line enters their other common neighbour
        first, second = sides
        beyond = next(n for n in neighbours(first) if n != current and hex_distance(n, second) == 1)
        t_beyond = _classify(beyond, vx, vy)
        assert t_beyond is not None and t_beyond[0] is Contact.INTERIOR
        current = beyond
        out.append(Touch(current, Contact.INTERIOR, t_beyond[1]))
    return tuple(out)


# -- building symbols ---------------------------------------------------------------------

Point = tuple[float, float]


def symbol_scale(values: Sequence[float]) -> int:
    """An integer factor that makes 2x and width/2 of every given decimal an integer."""
    scale = 1
    for v in values:
        scale = math.lcm(scale, Fraction(str(v)).denominator)
    return 2 * scale


def local_to_lattice(x: float, y: float, scale: int) -> Point:
    """Hex-local sheet units to scaled lattice units (x rational stays exact)."""
    return float(Fraction(str(x)) * 2 * scale), 2 * y / SQRT3 * scale


def side_midpoint(direction: int) -> tuple[Fraction, Fraction]:
    """The midpoint of the hexside towards neighbour `direction` (hexgrid.DIRECTIONS order), lattice units."""
    dx, dy = centre(DIRECTIONS[direction])
    return Fraction(dx, 2), Fraction(dy, 2)


def half_band(direction: int, width: float, scale: int) -> list[Point]:
    """The part inside a hex of the band joining its building symbol to the neighbour's:
    a rectangle `width` wide from the centre to the shared hexside, in scaled lattice units."""
    mx, my = side_midpoint(direction)
    cx, cy = centre(DIRECTIONS[direction])
    # The sheet's unit perpendicular to a centre line (length sqrt(3) on the sheet) maps to
    # the rational lattice vector (-cy, cx / 3).
    half = Fraction(str(width)) / 2
    px, py = -cy * half, Fraction(cx, 3) * half
    corners = [(-px, -py), (px, py), (mx + px, my + py), (mx - px, my - py)]
    return [(float(x * scale), float(y * scale)) for x, y in corners]
