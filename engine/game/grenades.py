"""Grenades (15.0): an infantry unit throws one at an occupied hex in the Support Fire, Defensive
Fire and Moving Fire Phases (15.1), after a PC + 2 (15.3), up to two hexes away but only into an
adjacent hex where either hex holds a Building (15.4); one die per enemy unit in the target hex on
the Building or Non-Building line of the Grenade Combat Table (15.6), AFVs untouched, results as
AP fire's (15.7) but a CW's crew dies on ten or less (15.8); a side throws at most the grenades its
scenario gives it (15.9).

Readings (docs/rulings.md): commanders are infantry and throw (R121); 15.4's "neither hex" is the
thrower's hex and the target hex (R122); a target hex needs an unblocked LOS (10.21, R123); every
unit of the thrower's hex has fired and goes through `mark_fired`, hidden ones revealed (R124); a
failed PC bars the hex for the Player Turn but uses no grenade (15.3, 15.9); a target hex holds an
enemy unit the thrower's side sees, and every enemy unit in it is attacked, hidden ones too (R93).
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from engine.geometry.sight import FirerState
from engine.hexgrid import Hex, hex_distance, within
from engine.model.tables import table_values

from .actions import Action, IllegalAction, verb
from .firing import FIRE_PHASES, combat_rolled, firer_and_hex, firing_side, mark_fired, may_fire
from .performance import performance_check
from .results import apply_result
from .sightlines import line_open
from .state import MOVING_FIRE, GameState, other
from .units import Unit

Events = list[dict[str, Any]]
GRENADE = verb("grenade")  # 15.0: grenade UNIT HEX
THROWERS = ("infantry", "commander")  # 15.1, 15.2: infantry (not FTs, CWs, AFVs); commanders: R121


@cache
def _table() -> dict[str, Any]:
    values: dict[str, Any] = table_values("combat")["grenades"]
    return values


def grenades_given(game: GameState, side: str) -> int:
    """15.9: 'The scenario being played will list the number of grenades each side has'."""
    return int(game.scenario.data["sides"][side].get("grenades") or 0)


def grenades_left(game: GameState, side: str) -> int:
    """15.9: the grenades a side has not yet used (attempts do not count)."""
    return grenades_given(game, side) - game.grenades_used.get(side, 0)


def _line(game: GameState, h: Hex) -> dict[str, Any]:
    """15.6: 'The type of target hex determines which line on the table is used'."""
    line: dict[str, Any] = _table()["building" if game.board.terrain(h).building is not None else "non_building"]
    return line


def in_range(game: GameState, source: Hex, target: Hex) -> bool:
    """15.4: 'up to a distance of two hexes if neither hex contains a Building. Grenades may be
    thrown at hexes containing Buildings only if the Building is in an adjacent hex' (R122: the
    thrower's hex and the target hex)."""
    distance = hex_distance(source, target)
    if distance < 1:
        return False
    building = any(game.board.terrain(h).building is not None for h in (source, target))
    most = int(_table()["building" if building else "non_building"]["max_range"])
    return distance <= most


def targets_in(game: GameState, h: Hex, attacked: str) -> list[Unit]:
    """15.6: the units of `attacked` in h a grenade affects: not AFVs; hidden ones too (R93)."""
    return _affected(game.at(h), attacked)


def _affected(units: list[Unit], attacked: str) -> list[Unit]:
    affects_afvs = bool(_table()["afvs_affected"])
    return [u for u in units if u.side == attacked and (affects_afvs or not u.is_afv)]


def is_target(game: GameState, h: Hex, attacked: str) -> bool:
    """15.1 'an occupied hex': one where the thrower's side sees a unit the grenade affects (R93)."""
    return _seen(targets_in(game, h, attacked))


def _seen(units: list[Unit]) -> bool:
    return any(not u.hidden for u in units)


def _thrown_from(game: GameState, h: Hex) -> bool:
    """15.3: 'Only one unit may throw (or attempt to throw) a grenade from any one hex during a Player Turn'."""
    return (game.player_turns, h) in game.grenade_hexes


def may_throw(game: GameState, unit: Unit) -> bool:
    """15.1-15.3, 15.9: whether the unit may throw a grenade now."""
    if game.phase not in FIRE_PHASES or grenades_left(game, unit.side) <= 0:
        return False
    return _may_throw_now(game, unit)


def _may_throw_now(game: GameState, unit: Unit) -> bool:
    """`may_throw` in a fire phase with grenades left: an infantry unit (15.1, 15.2) on the map
    that may fire (10.1), from a hex none threw from this Player Turn (15.3)."""
    return unit.kind in THROWERS and unit.hex is not None and may_fire(game, unit) and not _thrown_from(game, unit.hex)


def grenade_actions(game: GameState) -> list[Action]:
    """Every grenade the firing side may throw now: `grenade UNIT HEX`, by unit, then hex. Only
    the units with a target hex in a throw's reach are asked whether they may throw (a fire phase
    lists its choices after every shot; most units stand further off)."""
    side = firing_side(game)
    if game.phase not in FIRE_PHASES or grenades_left(game, side) <= 0:
        return []
    actions = []
    for i in game.kept(("grenade_reach", side), partial(_in_reach, game, side)):
        unit = game.units[i]
        if _may_throw_now(game, unit):  # kept until units move: targets and lines do not change
            actions += game.kept(("grenades", unit.id, unit.hex, unit.state), partial(_throws, game, unit))
    return actions


def _in_reach(game: GameState, side: str) -> list[str]:
    """The ids of the side's infantry with a target hex in a throw's reach (15.4), sorted: kept
    until units move, where each listing walked every unit of the side."""
    near: dict[Hex, bool] = {}
    ids = []
    for unit in game.side_units(side):
        h = unit.hex
        if unit.kind not in THROWERS or h is None:
            continue
        reaches = near.get(h)
        if reaches is None:
            reaches = near[h] = not _targets_of(game, side).isdisjoint(_within(game, h, _reach()))
        if reaches:
            ids.append(unit.id)
    return sorted(ids)


def _throws(game: GameState, unit: Unit) -> list[Action]:
    """`grenade UNIT HEX` for every target hex the unit's throw reaches (15.4) with an open line."""
    assert unit.hex is not None
    targets = _targets_of(game, unit.side)
    state = FirerState(str(unit.state))
    return [
        Action(GRENADE, (unit.id,), game.label_of(h))
        for h in _within(game, unit.hex, _reach())  # 15.4: no throw reaches further
        if h in targets and in_range(game, unit.hex, h) and line_open(game, unit.hex, h, state)
    ]


@cache
def _reach() -> int:
    """15.4: the farthest a grenade is thrown, whatever the hexes."""
    return max(int(_table()[line]["max_range"]) for line in ("building", "non_building"))


def _targets_of(game: GameState, side: str) -> frozenset[Hex]:
    """The hexes `side`'s grenades may be thrown at (`is_target`), kept until units move."""
    found: frozenset[Hex] = game.kept(("grenade_targets", side), lambda: _targets(game, other(side)))
    return found


def _targets(game: GameState, attacked: str) -> frozenset[Hex]:
    return frozenset(h for h, units in game.occupied().items() if _seen(_affected(units, attacked)))  # is_target


def _within(game: GameState, h: Hex, reach: int) -> list[Hex]:
    """The hexes 1 to `reach` hexes from h, sorted (kept per board)."""
    kept: dict[tuple[Hex, int], list[Hex]] = game.board.caches.setdefault("hexes_within", {})
    if (h, reach) not in kept:
        kept[(h, reach)] = [n for n in within(h, reach) if n != h and n in game.board.hexes]
    return kept[(h, reach)]


def grenade_legal(game: GameState, action: Action) -> bool:
    """Whether `action` is among `grenade_actions(game)`, checked on its own."""
    named = firer_and_hex(game, action, GRENADE)
    if named is None or not may_throw(game, named[0]):
        return False
    unit, target = named
    assert unit.hex is not None
    return (
        is_target(game, target, other(unit.side))
        and in_range(game, unit.hex, target)
        and line_open(game, unit.hex, target, FirerState(str(unit.state)))
    )


def apply_grenade(game: GameState, action: Action) -> Events:
    """15.3: the PC + 2; whatever it gives, every unit of the thrower's hex has fired (R124); passed,
    a grenade is used (15.9) and the attack resolved (15.5, 15.6)."""
    if not grenade_legal(game, action):
        raise IllegalAction(f"{action.text()} is not a grenade the rules allow now", "15.0")
    thrower = game.unit(action.units[0])
    source, target = thrower.hex, game.hex(action.arg)
    assert source is not None
    game.grenade_hexes.add((game.player_turns, source))
    check = performance_check(game.dice, thrower.pr, "grenade_attack")
    events: Events = [
        {
            "event": "grenade",
            "unit": thrower.id,
            "hex": action.arg,
            "check": check.describe(),
            "passed": check.passed,
            "rule": "15.3",
        }
    ]
    hex_mates = [u for u in game.at(source) if u.side == thrower.side]
    events += mark_fired(game, [thrower, *(u for u in hex_mates if u.id != thrower.id)])
    thrower = game.unit(thrower.id)  # as marked
    if game.phase == MOVING_FIRE:  # 17.14: they may still assault the hex the grenade was thrown into
        for unit in hex_mates:
            game.changing(unit).extra["grenade_target"] = action.arg
    if not check.passed:
        return events
    game.grenades_used[thrower.side] = game.grenades_used.get(thrower.side, 0) + 1
    events.append(
        {
            "event": "grenade used",
            "side": thrower.side,
            "left": grenades_left(game, thrower.side),
            "rule": "15.9",
        }
    )
    return events + grenade_attack(game, target, "15.6", attacked=other(thrower.side))


def grenade_attack(
    game: GameState,
    target_hex: Hex,
    rule: str,
    ignore_pinned_suppressed: bool = False,
    *,
    attacked: str | None = None,
) -> Events:
    """15.6-15.8: one die on the hex's line of the Grenade Combat Table for each unit of side
    `attacked` in `target_hex` (default: the side the firing side fires at), AFVs not affected;
    a CW's 'E' kills a crew member on two dice of ten or less (15.8). 24.35, 24.36: P and S ignored."""
    side = attacked if attacked is not None else other(firing_side(game))
    line = _line(game, target_hex)
    results = {int(face): str(r["result"]) for r in line["results"] for face in r["rolls"]}
    kill_at_most = int(table_values("combat")["cw_crew_elimination"]["grenade_kill_at_most"])
    targets = targets_in(game, target_hex, side)
    if targets:
        combat_rolled(game)
    events: Events = []
    for unit in targets:
        (die,) = game.dice.roll(int(_table()["dice"]))
        result = results[die]
        ignored = ignore_pinned_suppressed and result in ("P", "S")
        events.append(
            {
                "event": "grenade roll",
                "unit": unit.id,
                "die": die,
                "result": "NE" if ignored else result,
                "detail": f"{result} ignored" if ignored else result,
                "rule": rule,
            }
        )
        if not ignored:
            events += apply_result(game, unit, result, rule, crew_kill_at_most=kill_at_most)
    return events
