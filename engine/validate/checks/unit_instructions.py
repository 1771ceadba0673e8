"""Deployments, entries and restrictions name groups and units of the side's set-up list, and every
unit of the list is deployed or enters (24.1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.counters import SIDES
from engine.model.scenario import Scenario, UnitRef
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import describe_key, group_of, key_of, names
from engine.validate.starts import named_units

DEPLOYED_NOT_FIELDED = Check(
    id="deployed-not-fielded",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A deployment, entry or restriction names a unit that the side's set-up list does not field.",
    fix="Add the unit to a group of the side, or correct the unit the instruction names (record a misprint "
    "as a `correction:`).",
)

UNKNOWN_GROUP = Check(
    id="unknown-group",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A deployment, entry or restriction names a group the side does not have.",
    fix="Use the `name` of one of the side's groups.",
)

NOT_PLACED = Check(
    id="unit-not-placed",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A unit of the set-up list has no deployment and no entry: the scenario does not say where it sets up.",
    fix="Add a deployment or an entry for its group (or for the unit under `units:`).",
)

# What each kind of instruction does to the units it names, for the messages.
DONE = {"deployment": "deployed", "entry": "brought on", "restriction": "restricted"}


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    scenario = ctx.scenario
    placed: set[JsonPath] = set()
    capped: set[JsonPath] = set()  # named only by an instruction with a limit: said so in the message
    for path, kind, sides, item in _instructions(scenario.data):
        yield from _references(ctx, path, kind, sides, item)
        # An entry with a limit is an alternative for a few units of a group, not where the group goes (R15).
        if kind != "restriction":
            named = {r.path for r in named_units(scenario, ctx.counters, sides[0], item)}
            (capped if "limit" in item else placed).update(named)
    yield from _not_placed(scenario, placed, capped)


def _references(
    ctx: ScenarioContext, path: JsonPath, kind: str, sides: tuple[str, ...], item: dict[str, Any]
) -> Iterator[Problem]:
    """The instruction's group is a group of the side, and each unit it names one the side fields."""
    scenario = ctx.scenario
    refs = [r for r in scenario.units if r.side in sides]
    side = " or ".join(s.capitalize() for s in sides)
    if "group" in item and all(group_of(scenario, r) != item["group"] for r in refs):
        groups = ", ".join(str(g["name"]) for s in sides for g in scenario.data["sides"][s]["groups"])
        yield UNKNOWN_GROUP.problem(
            scenario.doc, (*path, "group"), f"no group {item['group']!r} in the {side} set-up (groups: {groups})"
        )
    for j, unit in enumerate(item.get("units") or []):
        key = key_of(unit)
        if not any(names(key, r, ctx.counters) for r in refs):
            yield DEPLOYED_NOT_FIELDED.problem(
                scenario.doc,
                (*path, "units", j),
                f"{side} {describe_key(key)} is {DONE[kind]} here but the {side} set-up list does not field it",
            )


def _not_placed(scenario: Scenario, placed: set[JsonPath], capped: set[JsonPath]) -> Iterator[Problem]:
    limited = (
        " (a deployment or entry with a limit names it: a limit is a few units' alternative, "
        "not where the group goes, R15)"
    )
    groups: dict[JsonPath, list[UnitRef]] = {}
    for ref in scenario.units:
        groups.setdefault(ref.path[:4], []).append(ref)
    for group_path, refs in groups.items():
        missing = [r for r in refs if r.path not in placed]
        side = refs[0].side.capitalize()
        if len(missing) == len(refs):
            listed = ", ".join(r.describe() for r in refs)
            yield NOT_PLACED.problem(
                scenario.doc,
                (*group_path, "name"),
                f"{side} group {group_of(scenario, refs[0])} ({listed}) has no deployment and no entry"
                f"{limited if any(r.path in capped for r in refs) else ''}: the scenario does not say where it sets up",
            )
            continue
        for ref in missing:
            yield NOT_PLACED.problem(
                scenario.doc,
                (*ref.path, ref.kind),
                f"{side} {ref.describe()} is in no deployment or entry, and its group is in none either"
                f"{limited if ref.path in capped else ''}",
            )


def _instructions(data: dict[str, Any]) -> Iterator[tuple[JsonPath, str, tuple[str, ...], dict[str, Any]]]:
    """Each deployment, entry and restriction: its path, kind, the sides whose units it may name, itself."""
    for side in SIDES:
        for key, kind in (("deployment", "deployment"), ("entries", "entry")):
            for i, item in enumerate(data["sides"][side].get(key) or []):
                yield ("sides", side, key, i), kind, (side,), item
    for i, item in enumerate(data.get("restrictions") or []):
        # A restriction without `side` may name either side's units (schema: side is for ambiguous ids).
        yield ("restrictions", i), "restriction", ((item["side"],) if "side" in item else SIDES), item
