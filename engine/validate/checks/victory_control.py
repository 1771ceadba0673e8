"""`controls` conditions rest on a definition of control (24.9's "the last player to occupy the hex").

A scenario that wins by control says what control means (`victory.control`), and may say who
controls which hexes before any unit moves (`at_start`: "the Germans win by retaining total
control of it"). Two sides cannot control one hex at the start, and a condition cannot ask for
more hexes than its zone has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.hexgrid import Hex
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import zone_hexes

CHECK = Check(
    id="victory-control",
    rule="24.9",
    severity=Severity.ERROR,
    summary="A `controls` victory condition with no `victory.control` definition, two sides controlling one hex "
    "at the start, or a condition asking for more hexes than its zone has.",
    fix="Add `victory.control: {means: last_to_occupy}` (24.9's definition) with the printed text; give each hex "
    "to one side in `at_start`; lower `at_least` to the zone's size.",
)


def controls_conditions(victory: dict[str, Any]) -> Iterator[tuple[dict[str, Any], JsonPath]]:
    """Every `controls` condition of the victory results, with its path."""
    for i, result in enumerate(victory.get("results") or []):
        yield from _walk(result["when"], ("victory", "results", i, "when"))


def _walk(condition: dict[str, Any], path: JsonPath) -> Iterator[tuple[dict[str, Any], JsonPath]]:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        for i, inner in enumerate(arg):
            yield from _walk(inner, (*path, kind, i))
    elif kind == "controls":
        yield arg, (*path, kind)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    victory = ctx.scenario.data.get("victory") or {}
    conditions = list(controls_conditions(victory))
    if conditions and "control" not in victory:
        arg, path = conditions[0]
        yield CHECK.problem(
            ctx.doc,
            path,
            f"the {arg['side']} condition asks for control, and the scenario does not say what control means: "
            "add victory.control (24.9: 'the last player to occupy the hex')",
        )
    for arg, path in conditions:
        hexes = zone_hexes(ctx, arg["zone"], (*path, "zone"))
        if hexes is not None and arg.get("at_least", 0) > len(hexes):
            yield CHECK.problem(
                ctx.doc,
                (*path, "at_least"),
                f"control of {arg['at_least']} hexes of a zone of {len(hexes)}: it never holds",
            )
    if ctx.board is not None:
        yield from _at_start(ctx, (victory.get("control") or {}).get("at_start") or [])


def _at_start(ctx: ScenarioContext, entries: list[dict[str, Any]]) -> Iterator[Problem]:
    assert ctx.board is not None
    held: dict[Hex, str] = {}
    for i, entry in enumerate(entries):
        path: JsonPath = ("victory", "control", "at_start", i)
        hexes = zone_hexes(ctx, entry["zone"], (*path, "zone")) or frozenset()
        clash = sorted(ctx.board.label(h) for h in hexes if held.get(h, entry["side"]) != entry["side"])
        if clash:
            shown = ", ".join(clash[:5]) + (" ..." if len(clash) > 5 else "")
            yield CHECK.problem(
                ctx.doc,
                (*path, "zone"),
                f"{len(clash)} hexes ({shown}) are controlled at the start by both sides",
                hex=clash[0],
            )
        for h in hexes:
            held.setdefault(h, entry["side"])
