"""Every unit a scenario fields is on the countersheet (2.21-2.23)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import Counters
from engine.model.scenario import UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="unknown-unit",
    rule="2.2",
    severity=Severity.ERROR,
    summary="A squad, commander, crew weapon or AFV the scenario fields is not in the counters.",
    fix="Use a squad letter, commander rank and PR, CW or AFV type and number from counters/counters.yaml.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    scenario, counters = ctx.scenario, ctx.counters
    for ref in scenario.units:
        message = _missing(ref, counters)
        if message:
            yield CHECK.problem(scenario.doc, (*ref.path, ref.kind), message)


def _missing(ref: UnitRef, counters: Counters) -> str | None:
    side = ref.side.capitalize()
    if ref.kind == "squad":
        known = sorted(counters.squads[ref.side])
        return (
            None
            if ref.type in known
            else f"{side} Squad {ref.type} is not in the counters (squads: {', '.join(known)})"
        )
    if ref.kind == "commander":
        ranks = [(rank, pr) for rank, pr in counters.commanders[ref.side] if rank == ref.type]
        if not ranks:
            return f"{side} has no {ref.type} commander"
        if ref.pr is not None and all(pr != ref.pr for _, pr in ranks):
            prs = ", ".join(f"PR{pr}" for _, pr in ranks)
            return f"{side} has no {ref.type} PR{ref.pr} ({ref.type}: {prs})"
        if ref.pr is None and len(ranks) > 1:
            return f"{side} has {len(ranks)} {ref.type} commanders: say which PR"
        return None
    table = counters.crew_weapons if ref.kind == "crew_weapon" else counters.afvs
    types = table[ref.side]
    if ref.type not in types:
        return f"{side} has no {ref.type} counter (types: {', '.join(types)})"
    if ref.number not in types[ref.type]:
        return f"{side} has no {ref.type} #{ref.number} (numbers: {', '.join(map(str, types[ref.type]))})"
    return None
