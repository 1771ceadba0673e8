"""A multi-hex building, and a named hill, is one piece of the map: its hexes join across hexsides."""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import Hex
from engine.model.board import Board, assemble
from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

BUILDING_SPLIT = Check(
    id="building-split",
    rule="24.5, 24.9",
    severity=Severity.ERROR,
    summary="The hexes sharing a building id do not form one connected multi-hex building.",
    fix="Give each separate building its own id, or correct the hex that breaks the building apart.",
)

HILL_SPLIT = Check(
    id="hill-split",
    rule="24.4, 24.6, 24.8, 24.9",
    severity=Severity.ERROR,
    summary="The hexes sharing a hill name do not form one connected hill.",
    fix="Give each separate hill its own name, or correct the hex that breaks the hill apart.",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    """Scenarios count "each hex that comprises the building" (24.9) and place units "on Hill K" (24.4):
    an id or a name stands for one piece of terrain (ruling R47 in docs/rulings.md)."""
    board = assemble([sheet])
    for check, key, what, areas in (
        (BUILDING_SPLIT, "building", "Building", board.buildings()),
        (HILL_SPLIT, "hill", "Hill", board.hills()),
    ):
        for name, hexes in areas.items():
            pieces = _pieces(board, hexes)
            for piece in pieces[1:]:
                first = piece[0]
                others = "; ".join(", ".join(p) for p in pieces if p is not piece)
                yield check.problem(
                    sheet.doc,
                    ("hexes", first, key),
                    f"{what} {name} is in {len(pieces)} pieces that share no hexside: {', '.join(piece)} "
                    f"apart from {others}",
                    hex=first,
                )


def _pieces(board: Board, hexes: frozenset[Hex]) -> list[list[str]]:
    """The connected pieces as sorted labels, largest first (then by first label)."""
    # a flood fill, not networkx: importing it cost a tenth of a second of every `iceditor validate`
    left, pieces = set(hexes), []
    while left:
        piece, frontier = set(), [left.pop()]
        while frontier:
            h = frontier.pop()
            piece.add(h)
            joined = [n for n in board.neighbours(h) if n in left]
            left.difference_update(joined)
            frontier += joined
        pieces.append(sorted(board.label(h) for h in piece))
    return sorted(pieces, key=lambda p: (-len(p), p[0]))
