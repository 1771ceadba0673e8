"""How many values the rulebook does not print a scenario rests on, file by file (provenance policy).

A scenario uses its maps and errata, the counters of the units it fields, and the rule
tables (LOS, movement and combat read them). Values marked `assumed` there are what a
player who owns the printed game should check before trusting the scenario's figures.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from engine.model.provenance import sourced_values
from engine.model.scenario import UnitRef
from engine.model.source import JsonPath, load_yaml
from engine.problems import Problem, Severity
from engine.resources import data_path, shown_name
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

from .assumed_values import count_assumed

CHECK = Check(
    id="assumed-used",
    rule=None,
    severity=Severity.INFO,
    summary="The values not printed in the rulebook (marked `assumed`) that the scenario uses, summed per file: "
    "its maps and errata, the counters of its units, the rule tables.",
    fix="If you own the printed game, check these files' assumed values (`iceditor provenance --assumed FILE`).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    docs = ctx.source_documents()
    if not docs:
        return  # the maps cannot be loaded: scenario-maps says so
    counts = [(shown_name(doc.file), count_assumed(doc.data)) for doc in docs]
    counters = ctx.counters.doc
    if counters is not None:
        used = {prefix for ref in ctx.scenario.units for prefix in _counter_paths(ref, ctx)}
        n = sum(1 for v in sourced_values(counters) if v.provenance == "assumed" and v.path[:3] in used)
        counts.append((shown_name(counters.file), n))
    counts += [(shown_name(table), n) for table, n in _table_counts()]
    counts = [(file, n) for file, n in counts if n]
    if counts:
        total = sum(n for _, n in counts)
        files = ", ".join(f"{file} {n}" for file, n in counts)
        yield CHECK.problem(ctx.doc, (), f"the scenario rests on {total} assumed values: {files}")


@cache
def _table_counts() -> list[tuple[Path, int]]:
    """Assumed values of each rule table (read once: the tables are the rules, not the scenario)."""
    return [(table, count_assumed(load_yaml(table).data)) for table in sorted(data_path("tables").glob("*.yaml"))]


def _counter_paths(ref: UnitRef, ctx: ScenarioContext) -> Iterator[JsonPath]:
    """The counters entries (first three path steps) a unit of the scenario reads."""
    side = ref.side
    if ref.kind == "squad":
        yield ("squads", side, ref.type)
        for member in ctx.counters.squad(side, ref.type) or []:
            yield ("infantry_weapons", side, member.weapon)
    elif ref.kind == "commander":
        for i, (rank, pr) in enumerate(ctx.counters.commanders.get(side, [])):
            if rank == ref.type and ref.pr in (None, pr):
                yield ("commanders", side, i)
    else:
        yield ("crew_weapons" if ref.kind == "crew_weapon" else "afvs", side, ref.type)
