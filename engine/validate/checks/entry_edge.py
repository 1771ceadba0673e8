"""Units entering the map come in on a map edge, the one the printed text names (24.1).

24.1: units 'not deployed on the map ... enter through one of the map edges, the map edge or
hexes to be moved through is listed'. Every hex of an entry zone must be on the border of the
scenario's assembled maps (a seam column between two maps is not an edge); when the printed
text names map edges ("on the north mapedge"), on one of those, taken from the north
indicator (R1).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.geometry.compass import EDGE_NORMALS, edge_facing
from engine.geometry.zones import edge_hexes
from engine.hexgrid import Hex
from engine.model.board import Board
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import zone_hexes
from engine.validate.starts import starts

CHECK = Check(
    id="entry-off-edge",
    rule="24.1",
    severity=Severity.ERROR,
    summary="An entry zone holds hexes that are not on a map edge, or not on the map edge its printed text names.",
    fix="Use {map_edge: ...} or hexes of the named edge; directions follow the north indicator (R1).",
)

EDGE_WORDS = "north|east|south|west"  # the map edges (schema `edge`)
# "the north mapedge", "the north or south mapedge", "east map edge"
NAMED_EDGES = re.compile(rf"\b((?:{EDGE_WORDS})(?:\s*(?:,|or|and)\s*(?:{EDGE_WORDS}))*)\s+map\s*-?\s*edge", re.I)
SHOWN = 6  # hexes listed in a message


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    border = {edge: edge_hexes(board.hexes, edge, board) for edge in EDGE_NORMALS}
    on_border = frozenset().union(*border.values())
    for start in starts(ctx.scenario, ctx.counters):
        hexes = zone_hexes(ctx, start.zone, start.zone_path) if start.entering else None
        if not hexes:
            continue
        inside = hexes - on_border
        if inside:
            yield CHECK.problem(
                ctx.doc,
                start.zone_path,
                f"{_listed(board, inside)} {_are(inside)} not on a map edge of {board.describe()}",
                hex=board.label(min(inside)),
            )
        named = printed_edges(start.printed or "")
        if not named or ctx.compass is None:
            continue
        try:
            allowed = frozenset().union(*(border[edge_facing(ctx.compass, d)] for d in named))
        except ValueError:
            continue  # north points diagonally: zone-empty reports the ambiguous edge
        wrong = (hexes & on_border) - allowed
        if wrong:
            edges = " or ".join(named)
            yield CHECK.problem(
                ctx.doc,
                start.zone_path,
                f"{_listed(board, wrong)} {_are(wrong)} not on the {edges} map edge the printed text names "
                f"(directions from the north indicator, R1)",
                hex=board.label(min(wrong)),
            )


def printed_edges(text: str) -> list[str]:
    """The map edges a printed instruction names, in order: "north or south mapedge" -> [north, south]."""
    found: list[str] = []
    for match in NAMED_EDGES.finditer(text):
        found += [w.lower() for w in re.findall(EDGE_WORDS, match.group(1), re.I)]
    return list(dict.fromkeys(found))


def _listed(board: Board, hexes: frozenset[Hex]) -> str:
    labels = sorted(board.label(h) for h in hexes)
    more = f" and {len(labels) - SHOWN} more" if len(labels) > SHOWN else ""
    return f"hex{'es' if len(labels) > 1 else ''} {', '.join(labels[:SHOWN])}{more}"


def _are(hexes: frozenset[Hex]) -> str:
    return "are" if len(hexes) > 1 else "is"
