"""Each placed unit stands in its deployment area (24.1) and in a hex its type may occupy (8.5 chart)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import Hex
from engine.model.setup import side_setups
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import Placed, board_hex, deployment_zones, may_stand, place, union, zone_hexes

OUTSIDE = Check(
    id="setup-outside-deployment",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A placed unit is outside its group's deployment area, or belongs to a group that enters the map.",
    fix="Move it into the zone its deployment names; units that enter the map are not placed at the start.",
)
PROHIBITED = Check(
    id="setup-prohibited-hex",
    rule="8.5 chart P",
    severity=Severity.ERROR,
    summary='A unit is placed in a hex prohibited to its type ("P" on the Movement & Combat Effects Chart).',
    fix="Place it in a hex its type may enter (an AFV not in a building, with the bundled chart).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    for side in side_setups(ctx.scenario):
        for placed in place(ctx.scenario, ctx.counters, side.side, side.units).placed:
            h = board_hex(ctx, placed.placement.hex)
            if h is None:
                continue  # setup-hex-off-map
            yield from _outside(ctx, placed, h)
            if not may_stand(board, h, afv=placed.ref.kind == "afv", state=placed.state):
                label = placed.placement.hex
                yield PROHIBITED.problem(
                    ctx.doc,
                    (*placed.placement.path, "hex"),
                    f"{placed.placement.describe()} may not stand in {label}: the hex is prohibited to its type",
                    hex=label,
                )


def _outside(ctx: ScenarioContext, placed: Placed, h: Hex) -> Iterator[Problem]:
    p, ref = placed.placement, placed.ref
    zones = deployment_zones(ctx.scenario, ref, ctx.counters)
    what = f"{ref.side.capitalize()} {p.describe()}"
    if not zones:
        yield OUTSIDE.problem(
            ctx.doc, p.path, f"{what} enters the map: it has no deployment area to be placed in", hex=p.hex
        )
        return
    area = union(zone_hexes(ctx, zone, path) for zone, path in zones)
    if area is not None and h not in area:
        names = ", ".join(z if isinstance(z, str) else "an inline zone" for z, _ in zones)
        yield OUTSIDE.problem(
            ctx.doc, (*p.path, "hex"), f"{what} in {p.hex} is outside its deployment area ({names})", hex=p.hex
        )
