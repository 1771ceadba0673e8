"""How many values the rulebook does not print a scenario rests on, file by file (provenance policy).

A scenario uses its maps and errata, the counters of the units it fields, and the rule
tables (LOS, movement and combat read them). Values marked `assumed` there are what a
player who owns the printed game should check before trusting the scenario's figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

from engine.model.provenance import Sourced, count_sourced, sourced_values
from engine.model.scenario import UnitRef
from engine.model.source import JsonPath, load_yaml
from engine.problems import Problem, Severity
from engine.resources import data_path, shown_name
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="assumed-used",
    rule=None,
    severity=Severity.INFO,
    summary="The values not printed in the rulebook (marked `assumed`) that the scenario uses, summed per file: "
    "its own, its maps and errata, the counters of its units, the rule tables.",
    fix="If you own the printed game, check these values: `iceditor provenance --used SCENARIO` lists exactly them.",
)


def used_values(ctx: ScenarioContext) -> list[tuple[str, list[Sourced]]] | None:
    """The assumed values the scenario rests on, file by file (files with none left out), as this
    check counts them and `iceditor provenance --used` lists them; None if the maps cannot be loaded."""
    docs = ctx.source_documents()
    if not docs:
        return None  # scenario-maps says why
    found = [(shown_name(doc.file), _assumed(sourced_values(doc))) for doc in docs]
    if ctx.doc is not None:  # the scenario's own (format 2: what its source does not give)
        found.insert(0, (shown_name(ctx.doc.file), _assumed(sourced_values(ctx.doc))))
    counters = ctx.counters.doc
    if counters is not None:
        used = {prefix for ref in ctx.scenario.units for prefix in _counter_paths(ref, ctx)}
        found.append((shown_name(counters.file), [v for v in _assumed(sourced_values(counters)) if v.path[:3] in used]))
    found += [(shown_name(table), list(values)) for table, values in _table_values()]
    return [(file, values) for file, values in found if values]


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    found = used_values(ctx)
    if found:
        yield CHECK.problem(ctx.doc, (), f"the scenario rests on {summary(found)}")


def summary(found: list[tuple[str, list[Sourced]]]) -> str:
    """'159 assumed values: maps/map2.yaml 64, ...', as this check and `iceditor provenance --used` say it."""
    counts = [(file, count_sourced(values)["assumed"]) for file, values in found]
    files = ", ".join(f"{file} {n}" for file, n in counts) or "none"
    return f"{sum(n for _, n in counts)} assumed values: {files}"


def _assumed(values: Iterable[Sourced]) -> list[Sourced]:
    return [v for v in values if v.provenance == "assumed"]


@cache
def _table_values() -> list[tuple[Path, tuple[Sourced, ...]]]:
    """Assumed values of each rule table (read once: the tables are the rules, not the scenario)."""
    tables = sorted(data_path("tables").glob("*.yaml"))
    return [(table, tuple(_assumed(sourced_values(load_yaml(table))))) for table in tables]


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
