""" "less" and "only" clauses name units of the squad, and the printed unit count matches (24.1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.counters import Clause, Counters, Member
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


def fielded_squad(counters: Counters, side: str, squad: str, unit: dict[str, Any]) -> list[Member] | None:
    """The members a squad entry fields; None when the squad is unknown (unknown-unit reports it) or
    its clause names a member it does not have (this check reports it)."""
    members = counters.squad(side, squad)
    if members is None:
        return None
    fielded, failures = fielded_members(unit, members)
    return None if failures else fielded


def fielded_members(unit: dict[str, Any], members: list[Member]) -> tuple[list[Member], list[tuple[int, str, str]]]:
    """The squad members a unit entry fields, and the clause entries that match no member.

    Each clause entry takes one member (24.1: with several matching, the owner picks at random;
    any of them will do for checking).
    """
    failures: list[tuple[int, str, str]] = []
    key = "only" if "only" in unit else "less"
    remaining = list(members)
    taken: list[Member] = []
    for i, entry in enumerate(unit.get(key) or []):
        text = entry["unit"] if isinstance(entry, dict) else str(entry)
        try:
            clause = Clause.parse(text)
        except ValueError as exc:
            failures.append((i, key, str(exc)))
            continue
        match = next((m for m in remaining if clause.matches(m)), None)
        if match is None:
            failures.append((i, key, text))
            continue
        remaining.remove(match)
        taken.append(match)
    return (taken if key == "only" else remaining), failures


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
