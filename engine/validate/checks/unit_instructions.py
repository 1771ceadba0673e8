"""Deployments, entries and restrictions name groups and units of the side's set-up list, and every
unit of the list is deployed or enters (24.1)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from engine.model.counters import SIDES, Counters
from engine.model.scenario import UNIT_KINDS, UnitRef
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

from .unit_twice import unit_id

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
    scenario, counters = ctx.scenario, ctx.counters
    data = scenario.data
    placed: set[JsonPath] = set()
    for path, kind, sides, item in _instructions(data):
        named: list[UnitRef] = []
        if "group" in item:
            group = [r for r in scenario.units if r.side in sides and _group_name(data, r) == item["group"]]
            if not group:
                yield UNKNOWN_GROUP.problem(
                    scenario.doc,
                    (*path, "group"),
                    f"no group {item['group']!r} in the {' or '.join(s.capitalize() for s in sides)} set-up "
                    f"(groups: {', '.join(_group_names(data, sides))})",
                )
            named += group
        for j, key in enumerate(item.get("units") or []):
            fielded = [r for r in scenario.units if r.side in sides and _same_unit(key, r, counters)]
            if not fielded:
                side = " or ".join(s.capitalize() for s in sides)
                yield DEPLOYED_NOT_FIELDED.problem(
                    scenario.doc,
                    (*path, "units", j),
                    f"{side} {_describe(key, sides[0])} is {DONE[kind]} here but the {side} set-up list does "
                    "not field it",
                )
            named += fielded
        # An entry with a limit is an alternative for a few units of a group, not where the group goes (R15).
        if kind != "restriction" and "limit" not in item:
            placed.update(r.path for r in named)
    yield from _not_placed(ctx, placed)


def _not_placed(ctx: ScenarioContext, placed: set[JsonPath]) -> Iterator[Problem]:
    scenario = ctx.scenario
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
                f"{side} group {_group_name(scenario.data, refs[0])} ({listed}) has no deployment and no entry: "
                "the scenario does not say where it sets up",
            )
            continue
        for ref in missing:
            yield NOT_PLACED.problem(
                scenario.doc,
                (*ref.path, ref.kind),
                f"{side} {ref.describe()} is in no deployment or entry, and its group is in none either",
            )


def _instructions(
    data: Mapping[str, Any],
) -> Iterator[tuple[JsonPath, str, tuple[str, ...], Mapping[str, Any]]]:
    """Each deployment, entry and restriction: its path, kind, the sides whose units it may name, itself."""
    for side in SIDES:
        for key, kind in (("deployment", "deployment"), ("entries", "entry")):
            for i, item in enumerate(data["sides"][side].get(key) or []):
                yield ("sides", side, key, i), kind, (side,), item
    for i, item in enumerate(data.get("restrictions") or []):
        # A restriction without `side` may name either side's units (schema: side is for ambiguous ids).
        yield ("restrictions", i), "restriction", ((item["side"],) if "side" in item else SIDES), item


def _same_unit(key: Mapping[str, Any], ref: UnitRef, counters: Counters) -> bool:
    """Whether an instruction's unit key names a fielded unit; a commander without a known PR matches by rank."""
    (kind, name, number), (ref_kind, ref_name, ref_number) = (
        unit_id(key, ref.side, counters),
        unit_id(ref.data, ref.side, counters),
    )
    if (kind, name) != (ref_kind, ref_name):
        return False
    return number == ref_number or (kind == "commander" and None in (number, ref_number))


def _describe(key: Mapping[str, Any], side: str) -> str:
    kind = next(k for k in UNIT_KINDS if k in key)
    return UnitRef(side, kind, str(key[kind]), key.get("number"), key.get("pr"), dict(key), ()).describe()


def _group_name(data: Mapping[str, Any], ref: UnitRef) -> str:
    return str(data["sides"][ref.side]["groups"][ref.path[3]]["name"])


def _group_names(data: Mapping[str, Any], sides: tuple[str, ...]) -> list[str]:
    return [str(g["name"]) for side in sides for g in data["sides"][side]["groups"]]
