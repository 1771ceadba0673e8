"""Hidden hexes of a test set-up: how many (24.2), where (24.21), and no AFVs in them (24.21)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.setup import side_setups
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex, place, side_area

COUNT = Check(
    id="setup-hidden-count",
    rule="24.2",
    severity=Severity.ERROR,
    summary="The set-up has more hidden hexes than the scenario gives the side.",
    fix="Drop hidden hexes down to the side's `hidden_hexes` (the scenario's 'May have N hidden hexes').",
)
OUTSIDE = Check(
    id="setup-hidden-outside-deployment",
    rule="24.21",
    severity=Severity.ERROR,
    summary="A hidden hex is outside the area in which the side may deploy.",
    fix="'Hidden hexes may only be selected from that area of the map in which the player is permitted to deploy.'",
)
AFV = Check(
    id="setup-hidden-afv",
    rule="24.21",
    severity=Severity.ERROR,
    summary="An AFV is placed in a hidden hex.",
    fix="'AFV's may not be deployed in hidden hexes': move the AFV or drop the hex from `hidden_hexes`.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    if ctx.board is None:
        return
    for side in side_setups(ctx.scenario):
        name = side.side.capitalize()
        allowed = ctx.scenario.data["sides"][side.side].get("hidden_hexes", 0)
        if len(side.hidden_hexes) > allowed:
            surplus = side.hidden_hexes[allowed]
            yield COUNT.problem(
                ctx.doc,
                surplus.path,
                f"{len(side.hidden_hexes)} {name} hidden hexes, the scenario gives {allowed}",
                hex=surplus.hex,
            )
        area = side_area(ctx, side.side)
        for hidden in side.hidden_hexes:
            h = board_hex(ctx, hidden.hex)
            if h is not None and area is not None and h not in area:
                yield OUTSIDE.problem(
                    ctx.doc,
                    hidden.path,
                    f"{name} hidden hex {hidden.hex} is outside the side's deployment area",
                    hex=hidden.hex,
                )
        hidden_labels = {hidden.hex for hidden in side.hidden_hexes}
        for placed in place(ctx.scenario, ctx.counters, side.side, side.units).placed:
            p = placed.placement
            if placed.ref.kind == "afv" and p.hex in hidden_labels:
                yield AFV.problem(
                    ctx.doc, (*p.path, "hex"), f"{name} {p.describe()} is in hidden hex {p.hex}", hex=p.hex
                )
