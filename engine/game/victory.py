"""Victory at the game's end (24.1, 24.9): the scenario's results in order, or its VP schedule; the
result names the condition that decided it.

Occupancy counts units on the map, hidden ones too (they are there, 24.2). Control is 24.9's
"the last player to occupy the hex" (R82), with `victory.control.at_start` for hexes held before
any unit moves.
"""

from __future__ import annotations

from typing import Any

from engine.hexgrid import Hex
from engine.model.victory import buildings_on
from engine.validate.objectives import objectives as named_objectives

from .state import GameState
from .units import Unit


def result(game: GameState) -> dict[str, Any]:
    victory = game.scenario.data["victory"]
    if "points" in victory:
        return _points(game, victory["points"])
    for i, entry in enumerate(victory["results"]):
        if holds(game, entry["when"]):
            text = entry.get("printed") or entry.get("note") or f"result {i + 1}"
            return {"winner": entry["winner"], "by": text, "condition": i}
    otherwise = victory["otherwise"]
    value = otherwise["value"] if isinstance(otherwise, dict) else otherwise
    return {"winner": value, "by": "no condition holds: the result otherwise", "condition": None}


def holds(game: GameState, condition: dict[str, Any]) -> bool:
    ((kind, arg),) = condition.items()
    if kind == "all_of":
        return all(holds(game, c) for c in arg)
    if kind == "any_of":
        return any(holds(game, c) for c in arg)
    if kind == "sole_occupant":
        return _sole_occupant(game, arg)
    hexes = game.zone_hexes(arg["zone"])
    side = arg["side"]
    if kind == "occupies_each":
        return bool(hexes) and all(_occupants(game, h, side) for h in hexes)
    if kind == "no_units_in":
        return not any(_occupants(game, h, side) for h in hexes)
    if kind == "units_in":
        units = [u for h in hexes for u in _occupants(game, h, side)]
        if arg.get("from") == "commanders_or_one_squad":
            return _commanders_or_one_squad(units) >= int(arg["at_least"])
        return len(units) >= int(arg["at_least"])
    if kind == "controls":
        held = sum(1 for h in hexes if controller(game, h) == side)
        return held >= int(arg.get("at_least", len(hexes))) and bool(hexes)
    raise ValueError(f"no victory condition {kind!r}")


def _occupants(game: GameState, h: Hex, side: str) -> list[Unit]:
    return [u for u in game.at(h) if u.side == side]


def _commanders_or_one_squad(units: list[Unit]) -> int:
    """R19: commanders count, with the members of the one squad that has most of them there."""
    commanders = sum(1 for u in units if u.kind == "commander")
    squads: dict[str | None, int] = {}
    for u in units:
        if u.squad is not None:
            squads[u.squad] = squads.get(u.squad, 0) + 1
    return commanders + max(squads.values(), default=0)


def _sole_occupant(game: GameState, arg: dict[str, Any]) -> bool:
    wanted = str(arg["building"])
    count = 0
    for building, hexes in game.board.buildings().items():
        if (wanted == "multi_hex" and len(hexes) < 2) or (wanted not in ("any", "multi_hex") and building != wanted):
            continue
        units = [u for h in hexes for u in game.at(h)]
        if units and all(u.side == arg["side"] for u in units):
            count += 1
    return count >= int(arg.get("at_least", 1))


def controller(game: GameState, h: Hex) -> str | None:
    """24.9: the last side to occupy the hex; before any has, the side `at_start` names (R82)."""
    return game.control.get(h)


def _points(game: GameState, points: dict[str, Any]) -> dict[str, Any]:
    side = points["side"]
    total = 0
    parts = []
    buildings = game.board.buildings()
    maps = dict(zip(game.scenario.maps, game.board.maps, strict=True))
    for award in points["awards"]:
        vp = int(award["vp"])
        if "per_hex_controlled" in award:
            hexes = [h for b in award["per_hex_controlled"]["building"] for h in buildings.get(str(b), ())]
            scored = sum(1 for h in hexes if controller(game, h) == side)
        else:
            scope = award["per_building_controlled"]
            excepted = {str(b) for b in scope.get("except") or []}
            on_map = buildings_on(game.board, maps[str(scope["map"])])
            scored = sum(
                1
                for b, hexes in on_map.items()
                if b not in excepted and all(controller(game, h) == side for h in hexes)
            )
        total += vp * scored
        parts.append(f"{scored} x {vp} VP")
    for band in points["schedule"]:
        low, high = band["vp"]
        if low <= total <= high:
            return {"winner": band["result"], "by": f"{side} scored {total} VP ({', '.join(parts)})", "vp": total}
    raise ValueError(f"{total} VP is in no band of the schedule")  # vp-schedule checks it covers every total


def initial_control(game: GameState) -> None:
    """R82: hexes a side controls before any unit moves."""
    control = game.scenario.data["victory"].get("control") or {}
    for entry in control.get("at_start") or []:
        for h in game.zone_hexes(entry["zone"]):
            game.control[h] = entry["side"]


def objectives(game: GameState, side: str | None = None) -> dict[Hex, str | None]:
    """The hexes of the objectives the scenario's victory names (engine/validate/objectives.py: its
    conditions' zones and buildings, its VP awards' buildings), each with the side that holds it
    (R210): the side whose units are in it, else the last to occupy it (24.9, R82), else None. As
    `side` sees it: the other side's hidden units are not counted, and its hidden hexes are held by
    no one it knows of (views.py's record)."""
    hexes = {h for objective in named_objectives(game.context) for h in objective.hexes}
    held: dict[Hex, str | None] = {}
    for h in sorted(hexes):
        holder = hex_holder(game, h, side=side)
        held[h] = None if holder == CONTESTED else holder  # both sides in it (an assault to come): no one's
    return held


CONTESTED = "contested"


def hex_holder(game: GameState, h: Hex, *, last_occupant: bool = True, side: str | None = None) -> str | None:
    """Who holds h: the side whose units are in it, `CONTESTED` when both sides' are, else (with
    `last_occupant`) 24.9's last side to occupy it (R82), else None. As `side` sees it: the other
    side's hidden units are not counted, and a hex one of them stands in is held by no one it knows of."""
    there = game.at(h)
    sides = {u.side for u in there if not (side is not None and u.side != side and u.hidden)}
    if len(sides) > 1:
        return CONTESTED
    if sides:
        return sides.pop()
    if not last_occupant or (side is not None and any(u.side != side and u.hidden for u in there)):
        return None
    return controller(game, h)
