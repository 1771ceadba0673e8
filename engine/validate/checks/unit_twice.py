"""Each counter exists once (2.2): a side fields a unit in one place of its set-up list (24.1)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import Counters
from engine.model.scenario import UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import group_of, key_of, names

CHECK = Check(
    id="unit-twice",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A side fields the same squad, commander, CW or AFV twice (in two groups, or twice in one group).",
    fix="Keep the unit in one group; if the scenario means another counter, give its PR or number.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    """The same squad letter, commander rank and PR, CW or AFV type and number; a commander given
    without PR is the side's only one of that rank."""
    scenario = ctx.scenario
    earlier: list[UnitRef] = []
    for ref in scenario.units:
        if _pr_unknown(ref, ctx.counters):
            continue  # which commander is meant is unknown-unit's question
        key = key_of(ref.data)
        first = next((e for e in earlier if e.side == ref.side and names(key, e, ctx.counters)), None)
        earlier.append(ref)
        if first is None:
            continue
        where = (
            "earlier in the same group" if first.path[:4] == ref.path[:4] else f"in group {group_of(scenario, first)}"
        )
        line = f" (line {scenario.doc.position(first.path).line})" if scenario.doc else ""
        yield CHECK.problem(
            scenario.doc,
            (*ref.path, ref.kind),
            f"{ref.side.capitalize()} {ref.describe()} is fielded twice: also {where}{line}",
        )


def _pr_unknown(ref: UnitRef, counters: Counters) -> bool:
    """A commander given without PR where the side has no single commander of that rank."""
    ranks = [rank for rank, _ in counters.commanders.get(ref.side, []) if rank == ref.type]
    return ref.kind == "commander" and ref.pr is None and len(ranks) != 1
