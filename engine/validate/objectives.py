"""The places a scenario's victory conditions are about: its objectives (24.1 victory conditions, 24.9).

Each hex listed, hill and building named, and every building a VP award counts is an objective
of its own; any other area (a side of a road, say) is one objective, named by its zone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from engine.geometry.zones import ZoneContext, ZoneError, resolve
from engine.hexgrid import Hex
from engine.model.source import JsonPath
from engine.model.victory import maximum_points

from .context import ScenarioContext


@dataclass(frozen=True)
class Objective:
    name: str  # "hex 4307", "Hill K", "Building 1", "south-of-east-west-road"
    hexes: frozenset[Hex]
    path: JsonPath  # where the victory conditions name it
    problem: str | None = None  # why it resolves to no hex (zone-empty reports it in the file)


def objectives(ctx: ScenarioContext) -> list[Objective]:
    """The victory conditions' objectives in the order the file names them, each once (by its hexes)."""
    unique: dict[frozenset[Hex], Objective] = {}
    for objective in _named(ctx):
        if objective.hexes:
            unique.setdefault(objective.hexes, objective)
    return list(unique.values())


def unresolved_objectives(ctx: ScenarioContext) -> list[Objective]:
    """The objectives the victory conditions name that resolve to no hex, each once, with the reason."""
    found = _named(ctx)
    resolved = {o.name for o in found if o.hexes}
    unresolved = {o.name: o for o in found if not o.hexes and o.name not in resolved}
    return list(unresolved.values())


def _named(ctx: ScenarioContext) -> list[Objective]:
    """Every objective as the victory conditions name it, those that resolve to no hex included."""
    zones, board = ctx.zones, ctx.board
    if zones is None or board is None:
        return []
    victory = ctx.scenario.data.get("victory") or {}
    found: list[Objective] = []
    for i, result in enumerate(victory.get("results") or []):
        found += _condition(zones, result["when"], ("victory", "results", i, "when"))
    points = victory.get("points")
    if points:
        maps = dict(zip(ctx.scenario.maps, board.maps, strict=True))
        buildings = board.buildings()
        for award in maximum_points(points, board, maps).awards:
            path: JsonPath = ("victory", "points", "awards", award.index)
            found += [Objective(f"Building {b}", buildings[b], path) for b in award.buildings]
    return found


def _condition(zones: ZoneContext, condition: dict[str, Any], path: JsonPath) -> Iterator[Objective]:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        for i, inner in enumerate(arg):
            yield from _condition(zones, inner, (*path, kind, i))
    elif kind == "sole_occupant":
        yield from _split({"building": arg["building"]}, zones, (*path, kind, "building"), None)
    else:
        zone = arg["zone"]
        yield from _split({"zone": zone} if isinstance(zone, str) else zone, zones, (*path, kind, "zone"), None)


def _split(expr: Mapping[str, Any], zones: ZoneContext, path: JsonPath, name: str | None) -> Iterator[Objective]:
    """An expression as objectives: hexes one by one, each hill and building, unions part by part."""
    ((key, arg),) = expr.items()
    board = zones.board
    if key == "zone" and str(arg) in zones.named:
        yield from _split(zones.named[str(arg)], zones, path, str(arg))
    elif key == "any_of":
        for part in arg:
            yield from _split(part, zones, path, name)
    elif key == "hexes":
        for label in arg:
            yield _resolved(f"hex {label}", {"hexes": [label]}, zones, path)
    elif key == "hill" and arg == "any":
        hills = board.hills()
        yield from (Objective(f"Hill {hill}", hexes, path) for hill, hexes in hills.items())
        if not hills:
            yield Objective("any hill", frozenset(), path, "the maps have no hill")
    elif key == "hill":
        yield _resolved(f"Hill {arg}", expr, zones, path)
    elif (key == "building" and arg in ("any", "multi_hex")) or expr == {"terrain": "building"}:
        kind = "multi-hex building" if arg == "multi_hex" else "building"
        buildings = {b: hexes for b, hexes in board.buildings().items() if arg != "multi_hex" or len(hexes) > 1}
        yield from (Objective(f"Building {b}", hexes, path) for b, hexes in buildings.items())
        if not buildings:
            yield Objective(f"any {kind}", frozenset(), path, f"the maps have no {kind}")
    elif key == "building":
        yield _resolved(f"Building {arg}", expr, zones, path)
    else:
        yield _resolved(name or (f"zone {arg}" if key == "zone" else f"the {key} area"), expr, zones, path)


def _resolved(name: str, expr: Mapping[str, Any], zones: ZoneContext, path: JsonPath) -> Objective:
    try:
        hexes = resolve(expr, zones)
    except ZoneError as exc:
        return Objective(name, frozenset(), path, str(exc))
    return Objective(name, hexes, path, None if hexes else "resolves to no hex")
