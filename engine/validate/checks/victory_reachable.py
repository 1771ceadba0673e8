"""Victory conditions a side can meet with the units it fields (24.1 playability).

"At least one unit in every hex" of a 16-hex hill needs 16 units: a side that fields 8 counters
can never meet it, and the designer should hear so, as vp-maximum reports a VP schedule no side
can reach. Units are counters (2.2): each squad member, commander, CW and AFV is one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.counters import Counters, fielded_members
from engine.model.scenario import Scenario
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import zone_hexes

CHECK = Check(
    id="victory-unreachable",
    rule="24.1",
    severity=Severity.WARNING,
    summary="A victory condition needs more units in a zone than the side fields, so it can never hold.",
    fix="Give the side more units, or make the zone smaller (or ask for fewer units).",
)


def units_fielded(scenario: Scenario, counters: Counters, side: str) -> int:
    """The counters a side fields in the whole game, entries included (a squad: its fielded members)."""
    total = 0
    for ref in scenario.units:
        if ref.side != side:
            continue
        members = counters.squad(side, ref.type) if ref.kind == "squad" else None
        total += len(fielded_members(ref.data, members)[0]) if members is not None else 1
    return total


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    victory = ctx.scenario.data.get("victory") or {}
    for i, result in enumerate(victory.get("results") or []):
        yield from _condition(ctx, result["when"], ("victory", "results", i, "when"))


def _condition(ctx: ScenarioContext, condition: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        for i, inner in enumerate(arg):
            yield from _condition(ctx, inner, (*path, kind, i))
        return
    if kind == "occupies_each":
        hexes = zone_hexes(ctx, arg["zone"], (*path, kind, "zone"))
        needed, what = (len(hexes) if hexes is not None else 0), "a unit in each of its {} hexes"
    elif kind == "units_in":
        needed, what = arg["at_least"], "{} units in it"
    else:
        return
    fielded = units_fielded(ctx.scenario, ctx.counters, arg["side"])
    if needed > fielded:
        yield CHECK.problem(
            ctx.doc,
            (*path, kind),
            f"the condition needs {what.format(needed)}, and the {arg['side'].capitalize()} side fields "
            f"{fielded} units: it can never hold",
        )
