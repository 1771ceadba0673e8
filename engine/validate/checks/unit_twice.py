"""Each counter exists once (2.2): a side fields a unit in one place of its set-up list (24.1)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.model.counters import Counters
from engine.model.scenario import UNIT_KINDS, UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="unit-twice",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A side fields the same squad, commander, CW or AFV twice (in two groups, or twice in one group).",
    fix="Keep the unit in one group; if the scenario means another counter, give its PR or number.",
)

# kind, type (squad letter, rank, CW or AFV type), and the commander's PR or the CW's or AFV's number
UnitId = tuple[str, str, int | None]


def unit_id(unit: Mapping[str, Any], side: str, counters: Counters) -> UnitId:
    """The counter a unit entry names. A commander given without PR is the side's only one of that
    rank; with several (unknown-unit asks which) its PR stays None."""
    kind = next(k for k in UNIT_KINDS if k in unit)
    if kind == "commander" and unit.get("pr") is None:
        prs = [pr for rank, pr in counters.commanders.get(side, []) if rank == unit[kind]]
        return kind, str(unit[kind]), prs[0] if len(prs) == 1 else None
    return kind, str(unit[kind]), unit.get("pr" if kind == "commander" else "number")


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    scenario = ctx.scenario
    first_seen: dict[tuple[str, UnitId], UnitRef] = {}
    for ref in scenario.units:
        uid = unit_id(ref.data, ref.side, ctx.counters)
        if uid[0] == "commander" and uid[2] is None:
            continue  # which commander is meant is unknown-unit's question
        first = first_seen.setdefault((ref.side, uid), ref)
        if first is ref:
            continue
        group = scenario.data["sides"][ref.side]["groups"][first.path[3]]["name"]
        where = "earlier in the same group" if first.path[3] == ref.path[3] else f"in group {group}"
        line = f" (line {scenario.doc.position(first.path).line})" if scenario.doc else ""
        yield CHECK.problem(
            scenario.doc,
            (*ref.path, ref.kind),
            f"{ref.side.capitalize()} {ref.describe()} is fielded twice: also {where}{line}",
        )
