""" "less" and "only" clauses name units of the squad, and the printed unit count matches (24.1)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import fielded_members
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="squad-clause",
    rule="24.1",
    severity=Severity.ERROR,
    summary='A "less" or "only" clause names a unit the squad does not have, or the unit count is wrong.',
    fix="Check the clause against the squad's members in counters/counters.yaml (each entry removes or keeps "
    "one unit).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    scenario, counters = ctx.scenario, ctx.counters
    for ref in scenario.units:
        if ref.kind != "squad":
            continue
        members = counters.squad(ref.side, ref.type)
        if members is None:
            continue  # unknown-unit reports it
        fielded, failures = fielded_members(ref.data, members)
        roster = ", ".join(m.describe() for m in members)
        for i, key, text in failures:
            verb = "keep" if key == "only" else "remove"
            yield CHECK.problem(
                scenario.doc,
                (*ref.path, key, i),
                f"{ref.side.capitalize()} Squad {ref.type} has no {text} left to {verb} (members: {roster})",
            )
        count = ref.data.get("count")
        if count is not None and not failures and count != len(fielded):
            yield CHECK.problem(
                scenario.doc,
                (*ref.path, "count"),
                f"{ref.side.capitalize()} Squad {ref.type} fields {len(fielded)} units, the scenario says {count}",
            )
