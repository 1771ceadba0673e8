"""A test set-up places units the scenario fields, each once, and (for a side it sets up) every unit
that deploys on the map (24.1)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.setup import SideSetup, side_setups
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import deployment_zones, not_entering, place

UNKNOWN = Check(
    id="setup-unknown-unit",
    rule="24.1",
    severity=Severity.ERROR,
    summary="The set-up places a unit (or squad member) the side does not field.",
    fix="Name the unit as the scenario's groups do; a squad member must be one its less/only clause keeps.",
)
TWICE = Check(
    id="setup-unit-twice",
    rule="24.1",
    severity=Severity.ERROR,
    summary="The set-up places a unit, or a squad member, twice.",
    fix="Remove the second entry. A whole-squad entry places the members no member entry places.",
)
MISSING = Check(
    id="setup-unit-missing",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A side the set-up places leaves out a unit that deploys on the map.",
    fix="Place it (units that enter the map are not placed), or leave the whole side out of `setup:`; "
    "while the set-up is built, `partial: true` on the side makes this info (R230).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    for side in side_setups(ctx.scenario):
        yield from _side(ctx, side)


def _side(ctx: ScenarioContext, side: SideSetup) -> Iterator[Problem]:
    scenario, counters = ctx.scenario, ctx.counters
    placements = place(scenario, counters, side.side, side.units)
    for m in placements.misplaced:
        check = UNKNOWN if m.reason == "unknown" else TWICE
        yield check.problem(ctx.doc, m.placement.path, m.message, hex=m.placement.hex)
    where = (*side.path, "units") if side.units else side.path
    deploying = [u for u in placements.unplaced if deployment_zones(scenario, u.ref, counters)]
    # R15: whole units of a group may be kept off the map for an entry with a `limit`.
    kept_off = not_entering(scenario, [u.ref for u in deploying if not u.partial], counters)
    for u in deploying:
        if not u.partial and all(ref is not u.ref for ref in kept_off):
            continue
        what = u.ref.describe()
        if u.partial:
            what += f" ({', '.join(m.describe() for m in u.members)})"
        if side.partial:  # R230: a set-up being built; the game's set-up places the rest
            said = f"{side.side.capitalize()} {what} is not placed yet (partial set-up)"
            yield MISSING.problem(ctx.doc, where, said, severity=Severity.INFO)
            continue
        yield MISSING.problem(
            ctx.doc, where, f"{side.side.capitalize()} {what} deploys on the map but the set-up does not place it"
        )
