"""Flamethrower attacks (16.0): an FT attacks in the Support Fire, Defensive Fire and Moving Fire
Phases 'with the same eligibility and PC requirements as other units' (10.1, a regular PC: 10.12),
never combined, from the UP state only (16.2), at infantry and CW units up to two hexes away
(16.1) to which it traces an unblocked LOS (10.21); two dice on the Flamethrower Combat Table by
the range, whatever the terrain, states, IPs or movement (16.3), the result applied as AP fire's
(11.43) to each enemy infantry and CW unit in the hex, one roll each (10.24, R125), hidden ones too
(R93: a hex is a target for the units its side sees there). A hex holding only AFVs is no target
(16.1: 'They may not fire at AFV's'); AFVs in a target hex are untouched.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geometry.movement import State
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex, hex_distance
from engine.model.tables import table_values

from .actions import Action, IllegalAction, verb
from .ammo import ap_cost, spend
from .firing import FIRE_PHASES, combat_rolled, firer_and_hex, firing_side, mark_fired, may_fire
from .performance import performance_check
from .results import apply_result
from .sightlines import line_open
from .state import GameState, other
from .units import Unit

Events = list[dict[str, Any]]
FLAME = verb("flame")  # 16.0: flame FT HEX


@cache
def _table() -> dict[str, Any]:
    values: dict[str, Any] = table_values("combat")["flamethrower"]
    return values


def flame_targets(game: GameState, h: Hex, attacked: str) -> list[Unit]:
    """16.1: the infantry and CW units of `attacked` in h (not AFVs; hidden ones too: R93)."""
    return [u for u in game.at(h) if u.side == attacked and not u.is_afv]


def may_flame(game: GameState, unit: Unit) -> bool:
    """16.0, 16.2: an FT that may fire now (10.1), in the UP state."""
    return game.phase in FIRE_PHASES and unit.kind == "ft" and unit.state == State.UP and may_fire(game, unit)


def flame_actions(game: GameState) -> list[Action]:
    """Every flamethrower attack open to the firing side: `flame FT HEX`, by unit, then hex."""
    if game.phase not in FIRE_PHASES:
        return []
    side = firing_side(game)
    units = sorted((u for u in game.side_units(side) if u.kind == "ft" and may_flame(game, u)), key=lambda u: u.id)
    if not units:
        return []
    most = int(_table()["max_range"])
    hexes = game.kept(("flame_targets", side), lambda: _target_hexes(game, other(side)))  # until units move
    actions = []
    for unit in units:
        assert unit.hex is not None
        for h in hexes:
            if 1 <= hex_distance(unit.hex, h) <= most and line_open(game, unit.hex, h, FirerState.UP):
                actions.append(Action(FLAME, (unit.id,), game.label_of(h)))
    return actions


def _target_hexes(game: GameState, attacked: str) -> list[Hex]:
    """The hexes where the attacker sees a unit a flamethrower attacks (16.1, R93), sorted."""
    return sorted(h for h in game.occupied() if any(not u.hidden for u in flame_targets(game, h, attacked)))


def flame_legal(game: GameState, action: Action) -> bool:
    """Whether `action` is among `flame_actions(game)`, checked on its own."""
    named = firer_and_hex(game, action, FLAME)
    if named is None or not may_flame(game, named[0]):
        return False
    unit, target = named
    assert unit.hex is not None
    seen = any(not u.hidden for u in flame_targets(game, target, other(unit.side)))
    distance = hex_distance(unit.hex, target)
    return seen and 1 <= distance <= int(_table()["max_range"]) and line_open(game, unit.hex, target, FirerState.UP)


def apply_flame(game: GameState, action: Action) -> Events:
    """10.12: the FT's PC (it has fired either way, 4.0); passed, 16.3's two dice for each enemy
    infantry and CW unit in the hex, on the line of the range."""
    if not flame_legal(game, action):
        raise IllegalAction(f"{action.text()} is not a flamethrower attack the rules allow now", "16.0")
    unit = game.unit(action.units[0])
    target = game.hex(action.arg)
    assert unit.hex is not None
    check = performance_check(game.dice, unit.pr)
    events: Events = [
        {
            "event": "flame",
            "unit": unit.id,
            "hex": action.arg,
            "check": check.describe(),
            "passed": check.passed,
            "rule": "16.0, 10.12",
        }
    ]
    events += mark_fired(game, [unit])
    unit = game.unit(unit.id)  # as marked
    assert unit.hex is not None
    if not check.passed:
        return events
    events += spend(game, unit, ap_cost(unit, False))  # 22.0: an FT's number (R345)
    distance = hex_distance(unit.hex, target)
    line = _table()[f"range_{distance}"]
    results = {int(total): str(r["result"]) for r in line for total in r["rolls"]}
    combat_rolled(game)
    for victim in flame_targets(game, target, other(unit.side)):
        dice = game.dice.roll(int(_table()["dice"]))
        result = results[sum(dice)]
        events.append(
            {
                "event": "flame roll",
                "unit": victim.id,
                "dice": list(dice),
                "range": distance,
                "result": result,
                "rule": "16.3",
            }
        )
        events += apply_result(game, victim, result, "16.3")
    return events
