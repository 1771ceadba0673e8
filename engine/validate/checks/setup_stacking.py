"""Stacking at set-up: at most six men plus one AFV of a side in a hex (8.62), one CW (8.63).

24.21: 'Stacking restrictions apply to the units deployed in the hidden hexes'; the limits
hold at the end of every movement phase (8.62), so a set-up must meet them from the start.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from engine.model.setup import side_setups
from engine.model.setup_limits import setup_limits
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import Placed, place

STACKING = Check(
    id="setup-stacking",
    rule="8.62",
    severity=Severity.ERROR,
    summary="More than six men, or more than one AFV, of a side in a hex (a CW counts its crew, 8.63).",
    fix="Spread the units over more hexes: each infantry unit is one man, a CW its crew, an AFV none.",
)
ONE_CW = Check(
    id="setup-one-cw-per-hex",
    rule="8.63",
    severity=Severity.ERROR,
    summary="More than one CW counter of a side in a hex.",
    fix="Place each CW in a hex of its own.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    for side in side_setups(ctx.scenario):
        by_hex: dict[str, list[Placed]] = defaultdict(list)
        for placed in place(ctx.scenario, ctx.counters, side.side, side.units).placed:
            by_hex[placed.placement.hex].append(placed)
        for label, stack in by_hex.items():
            yield from _stack(ctx, side.side.capitalize(), label, stack)


def _stack(ctx: ScenarioContext, side: str, label: str, stack: list[Placed]) -> Iterator[Problem]:
    """Each limit is reported once, at the entry that first goes over it, with the hex's total.
    A CW whose crew the counters do not give counts no men."""
    limits = setup_limits()
    men = [placed.men(ctx.counters, limits.men_per_infantry_unit) or 0 for placed in stack]
    afvs = [placed for placed in stack if placed.ref.kind == "afv"]
    cws = [placed for placed in stack if placed.ref.kind == "crew_weapon"]
    running = 0
    for placed, n in zip(stack, men, strict=True):
        running += n
        if running > limits.max_men:
            yield STACKING.problem(
                ctx.doc,
                placed.placement.path,
                f"{side} units in {label} hold {sum(men)} men: at most {limits.max_men} men plus {limits.max_afvs} AFV "
                f"(a CW counts its crew, 8.63)",
                hex=label,
            )
            break
    if len(afvs) > limits.max_afvs:
        yield STACKING.problem(
            ctx.doc,
            afvs[limits.max_afvs].placement.path,
            f"{len(afvs)} {side} AFVs in {label}: at most {limits.max_afvs} "
            f"({', '.join(a.ref.describe() for a in afvs)})",
            hex=label,
        )
    if len(cws) > limits.max_crew_weapons:
        yield ONE_CW.problem(
            ctx.doc,
            cws[limits.max_crew_weapons].placement.path,
            f"{len(cws)} {side} CWs in {label}: at most {limits.max_crew_weapons} CW counter in a hex "
            f"({', '.join(c.ref.describe() for c in cws)})",
            hex=label,
        )
