"""Units that must face a hexside are placed with a facing across one of their own hexsides (8.7)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import LabelError, are_adjacent, parse_label
from engine.model.setup import side_setups
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex, place

CHECK = Check(
    id="setup-facing",
    rule="8.7",
    severity=Severity.ERROR,
    summary="An ATG, MG (MMG, LMG) or AFV is placed without a facing, or faces a hex that is not adjacent "
    "(a warning: a facing given to a unit with all-round facing).",
    fix="Give `facing:` the adjacent hex across the unit's frontal hexside; units with all-round facing need none.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    for side in side_setups(ctx.scenario):
        for placed in place(ctx.scenario, ctx.counters, side.side, side.units).placed:
            p = placed.placement
            h = board_hex(ctx, p.hex)
            if h is None:
                continue  # setup-hex-off-map
            what = f"{side.side.capitalize()} {p.describe()}"
            if p.facing is None:
                if placed.faces_hexside(ctx.counters):
                    yield CHECK.problem(ctx.doc, p.path, f"{what} must face a hexside: give its `facing`", hex=p.hex)
                continue
            if not placed.faces_hexside(ctx.counters):
                yield CHECK.problem(
                    ctx.doc,
                    (*p.path, "facing"),
                    f"{what} has all-round facing: its `facing` means nothing",
                    hex=p.hex,
                    severity=Severity.WARNING,
                )
                continue
            try:
                ahead = parse_label(p.facing, board.offset)
            except LabelError:
                ahead = None
            if ahead is None or not are_adjacent(h, ahead):
                yield CHECK.problem(
                    ctx.doc,
                    (*p.path, "facing"),
                    f"{what} in {p.hex} faces {p.facing}, which is not an adjacent hex",
                    hex=p.hex,
                )
