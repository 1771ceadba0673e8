"""A restriction ends on a turn of the game (24.1: the scenario states its Game Length).

`may_not_move_before: {turn: T}` past the last Game Turn means the units never move: that is
a misprint or a wrong game length, not a playability concern, so it is an error.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="restriction-turn",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A restriction lets its units move only after the last Game Turn: they could never move.",
    fix="Give a turn from 1 to `game_length`, or correct the game length.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    length = ctx.scenario.game_length
    for i, item in enumerate(ctx.scenario.data.get("restrictions") or []):
        turn = item["may_not_move_before"]["turn"]
        if turn > length:
            yield CHECK.problem(
                ctx.doc,
                ("restrictions", i, "may_not_move_before", "turn"),
                f"the units may not move before turn {turn}, but the game lasts {length} turns: they never move",
            )
