"""The hex grid: labels, offsets, distances, adjacency (docs/formats.md, 'The hex grid')."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import (
    Hex,
    LabelError,
    Offset,
    are_adjacent,
    hex_distance,
    hex_label,
    hex_line,
    hex_to_offset,
    hex_to_point,
    neighbours,
    offset_to_hex,
    parse_label,
    point_to_hex,
    polygon_corners,
    within,
)

columns = st.integers(10, 70)
rows = st.integers(1, 27)
offsets = st.sampled_from(list(Offset))


# (label, offset, neighbours clockwise from up): even-q puts even columns half a hex lower.
NEIGHBOURS = [
    ("1001", Offset.EVEN_Q, ["1000", "1101", "1102", "1002", "0902", "0901"]),
    ("1101", Offset.EVEN_Q, ["1100", "1200", "1201", "1102", "1001", "1000"]),
    ("1101", Offset.ODD_Q, ["1100", "1201", "1202", "1102", "1002", "1001"]),
    ("4307", Offset.EVEN_Q, ["4306", "4406", "4407", "4308", "4207", "4206"]),
    ("5014", Offset.EVEN_Q, ["5013", "5114", "5115", "5015", "4915", "4914"]),
]


@pytest.mark.parametrize(("label", "offset", "expected"), NEIGHBOURS)
def test_neighbours_table(label: str, offset: Offset, expected: list[str]) -> None:
    assert [hex_label(n, offset) for n in neighbours(parse_label(label, offset))] == expected


def test_even_q_means_even_columns_sit_lower() -> None:
    """Format spec: `offset: even-q` (default): even-numbered columns are lower."""
    _, y_even = hex_to_point(parse_label("1001", Offset.EVEN_Q))
    _, y_odd = hex_to_point(parse_label("1101", Offset.EVEN_Q))
    assert y_even > y_odd
    _, y_even = hex_to_point(parse_label("1001", Offset.ODD_Q))
    _, y_odd = hex_to_point(parse_label("1101", Offset.ODD_Q))
    assert y_even < y_odd


def test_column_runs_top_to_bottom_by_row() -> None:
    ys = [hex_to_point(parse_label(f"40{r:02d}"))[1] for r in range(1, 28)]
    assert ys == sorted(ys)
    assert {hex_to_point(parse_label(f"40{r:02d}"))[0] for r in range(1, 28)} == {60.0}


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("1001", "1001", 0),
        ("1001", "1004", 3),
        ("1001", "1101", 1),
        ("4307", "4308", 1),
        ("1014", "3014", 20),
        ("1001", "3001", 20),
    ],
)
def test_distance_table(a: str, b: str, distance: int) -> None:
    """11.2: count the target hex, not the firer's."""
    assert hex_distance(parse_label(a), parse_label(b)) == distance


@pytest.mark.parametrize("bad", ["430", "43077", "43a7", "", "4 07"])
def test_bad_labels_are_refused(bad: str) -> None:
    with pytest.raises(LabelError, match="not a hex label"):
        parse_label(bad)


@given(columns, rows, offsets)
def test_label_round_trip(column: int, row: int, offset: Offset) -> None:
    label = f"{column:02d}{row:02d}"
    assert hex_label(parse_label(label, offset), offset) == label
    assert hex_to_offset(offset_to_hex(column, row, offset), offset) == (column, row)


@given(columns, rows, columns, rows)
def test_distance_symmetric_and_triangle(c1: int, r1: int, c2: int, r2: int) -> None:
    a, b = offset_to_hex(c1, r1), offset_to_hex(c2, r2)
    assert hex_distance(a, b) == hex_distance(b, a)
    assert hex_distance(a, b) >= abs(c1 - c2)
    for n in neighbours(a):
        assert abs(hex_distance(n, b) - hex_distance(a, b)) <= 1


@given(columns, rows)
def test_neighbours_are_adjacent_and_share_a_side(column: int, row: int) -> None:
    h = offset_to_hex(column, row)
    corners = {(round(x, 6), round(y, 6)) for x, y in polygon_corners(h)}
    for n in neighbours(h):
        assert are_adjacent(h, n)
        shared = corners & {(round(x, 6), round(y, 6)) for x, y in polygon_corners(n)}
        assert len(shared) == 2  # a hexside


@given(columns, rows, st.integers(0, 4))
def test_within_is_every_hex_at_most_that_far_in_sorted_order(column: int, row: int, reach: int) -> None:
    """`within(h, reach)`: the hexes at `hex_distance` at most `reach` (11.2's count), h too: 1, 7,
    19... of them (1 + 3 reach (reach + 1)), those of a box around h walked and measured."""
    h = offset_to_hex(column, row)
    box = (Hex(h.q + dq, h.r + dr) for dq in range(-5, 6) for dr in range(-5, 6))
    assert list(within(h, reach)) == sorted(n for n in box if hex_distance(h, n) <= reach)
    assert len(list(within(h, reach))) == 1 + 3 * reach * (reach + 1)


@given(columns, rows, st.floats(-0.45, 0.45), st.floats(-0.45, 0.45))
def test_point_to_hex_inverts_hex_to_point(column: int, row: int, dx: float, dy: float) -> None:
    h = offset_to_hex(column, row)
    x, y = hex_to_point(h)
    assert point_to_hex(x + dx, y + dy) == h


@given(columns, rows, columns, rows)
def test_hex_line_is_a_chain(c1: int, r1: int, c2: int, r2: int) -> None:
    a, b = offset_to_hex(c1, r1), offset_to_hex(c2, r2)
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(are_adjacent(p, q) for p, q in pairwise(line))


def test_seam_column_is_one_column() -> None:
    """Maps 1 and 2 share column 30: 3014 is the same hex whichever map names it."""
    assert parse_label("3014") == Hex(30, 14 - 15)
