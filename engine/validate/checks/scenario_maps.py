"""A scenario's maps (and errata) load, and its north indicator points from a hex to an adjacent one."""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import LabelError, are_adjacent
from engine.model.board import Board
from engine.model.scenario import Scenario
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="scenario-maps",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A map or errata file the scenario names cannot be loaded, or the north indicator is misplaced.",
    fix="Name bundled maps (`map1`) or paths relative to the scenario; put the north indicator in a hex of the "
    "maps, pointing to an adjacent hex.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        yield CHECK.problem(ctx.doc, ("maps",), ctx.board_error or "cannot load the maps")
        if ctx.load_error is not None:
            yield from ctx.load_error.problems
        return
    yield from _north(ctx.scenario, board)


def _north(scenario: Scenario, board: Board) -> Iterator[Problem]:
    hexes = []
    for key, label in zip(("hex", "toward"), scenario.north, strict=True):
        try:
            hexes.append(board.hex(label))
        except LabelError as exc:
            yield CHECK.problem(scenario.doc, ("north", key), f"north indicator: {exc}", hex=label)
    if len(hexes) == 2 and not are_adjacent(*hexes):
        yield CHECK.problem(
            scenario.doc,
            ("north", "toward"),
            f"the north indicator must point from {scenario.north[0]} to an adjacent hex, not {scenario.north[1]}",
            hex=scenario.north[1],
        )
