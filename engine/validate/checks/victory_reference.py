"""The buildings and maps the victory conditions name are on the scenario's maps (24.1, 24.9).

Zones inside the conditions (hexes, hills, buildings, named zones) are zone expressions:
zone-empty resolves and reports them, once, where they are written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.board import Board
from engine.model.source import JsonPath
from engine.model.victory import maximum_points
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="victory-reference",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A victory condition or VP award names a building or map the scenario's maps do not have, or a kind "
    "of building none of them has.",
    fix="Name a building id and a map of the scenario (`maps:`); a printed size belongs to a building of its award.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    victory = ctx.scenario.data.get("victory") or {}
    if board is None or not victory:
        return
    for i, result in enumerate(victory.get("results") or []):
        yield from _condition(ctx, board, result["when"], ("victory", "results", i, "when"))
    points = victory.get("points")
    if points:
        yield from _awards(ctx, board, points)


def _condition(ctx: ScenarioContext, board: Board, condition: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        for i, inner in enumerate(arg):
            yield from _condition(ctx, board, inner, (*path, kind, i))
    elif kind == "sole_occupant":
        yield from _sole_occupant(ctx, board, arg, (*path, kind))


def _sole_occupant(ctx: ScenarioContext, board: Board, arg: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    buildings = board.buildings()
    wanted = str(arg["building"])
    if wanted not in ("any", "multi_hex"):
        if wanted not in buildings:
            yield CHECK.problem(ctx.doc, (*path, "building"), f"no building {wanted} on {board.describe()}")
        return
    what = "building" if wanted == "any" else "multi-hex building"
    count = sum(1 for hexes in buildings.values() if wanted == "any" or len(hexes) > 1)
    at_least = arg.get("at_least", 1)
    if count < at_least:
        yield CHECK.problem(
            ctx.doc,
            (*path, "building"),
            f"the condition needs {at_least} {what}{'s' if at_least > 1 else ''}, {board.describe()} has {count}: "
            "it never holds",
        )


def _awards(ctx: ScenarioContext, board: Board, points: dict[str, Any]) -> Iterator[Problem]:
    maps = dict(zip(ctx.scenario.maps, board.maps, strict=True))
    for award in maximum_points(points, board, maps).awards:
        path: JsonPath = ("victory", "points", "awards", award.index)
        data = points["awards"][award.index]
        if award.per_hex:
            named = [str(b) for b in data["per_hex_controlled"]["building"]]
            for j, building in enumerate(named):
                if building in award.missing:
                    where = (*path, "per_hex_controlled", "building", j)
                    yield CHECK.problem(ctx.doc, where, f"no building {building} on {board.describe()}")
            for building in data["per_hex_controlled"].get("sizes") or {}:
                if str(building) not in named:
                    where = (*path, "per_hex_controlled", "sizes", building)
                    yield CHECK.problem(
                        ctx.doc, where, f"a size for Building {building}, which this award does not name"
                    )
            continue
        scope = data["per_building_controlled"]
        if award.map not in maps:
            where = (*path, "per_building_controlled", "map")
            yield CHECK.problem(
                ctx.doc, where, f"map {award.map!r} is not one of this scenario's maps ({', '.join(maps)})"
            )
            continue
        for j, building in enumerate(str(b) for b in scope.get("except") or []):
            if building in award.missing:
                where = (*path, "per_building_controlled", "except", j)
                yield CHECK.problem(ctx.doc, where, f"no building {building} on {award.map}")
