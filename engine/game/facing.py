"""Facing in play (8.7): AFV turns and their MPs (8.74), CW facing changes (8.72, 8.73, R91),
and the facing chosen freely by a unit placed on the map (R161).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geometry.movement import Morale, hexsides_between
from engine.hexgrid import DIRECTIONS, Hex, parse_label
from engine.model.tables import movement_allowances, table_values

from .actions import FACE, Action, IllegalAction
from .state import MOVEMENT, GameState, other
from .steps import _may_act, budget, left
from .units import Unit


def turns_only(game: GameState, unit: Unit) -> bool:
    """A CW that may not leave its hex but may turn in it (R91): 8.72 'ATG's with a crew strength of
    3 or 4 may change facing', 8.73 MGs 'regardless of their crew strength', whatever 8.12 says of a
    short crew or a Movement Factor of zero; not a PINNED CW in the Reaction Movement Phase (8.12:
    'They may not move')."""
    if unit.kind != "cw" or not unit.faces_hexside or not unit.on_map or unit.facing is None:
        return False
    if unit.morale != Morale.NORMAL and game.phase != MOVEMENT:
        return False
    return _may_turn(unit) and _may_act(game, unit) and budget(game, unit) == 0


def _turns(game: GameState, afv: Unit) -> list[Hex]:
    """The facings an AFV may turn to now with the MPs it has (8.74, 8.75)."""
    if afv.facing is None or afv.hex is None:
        return []
    out = []
    for index, d in enumerate(DIRECTIONS):
        if index != afv.facing and _turn_cost(afv, index) <= left(game, afv):
            out.append(afv.hex + d)
    return out


def _turn_cost(afv: Unit, facing: int) -> float:
    """8.74: one hexside free after entering each hex (8.75: also before leaving the first), then 1 MP each."""
    assert afv.facing is not None
    return turn_mp(afv.facing, facing, int(afv.extra.get("free_hexsides", movement_allowances().free_facing_hexsides)))


def turn_mp(facing: int, new: int, free: int) -> float:
    """8.74: the MPs of turning from `facing` to `new` with `free` hexsides still free in the hex."""
    return max(hexsides_between(facing, new) - free, 0) * movement_allowances().extra_hexside_mp


def _may_turn(unit: Unit) -> bool:
    """8.72: ATGs with a crew of 3 or 4 may turn, of 1 or 2 never; 8.73: MGs always."""
    mg_turns, atg_crew = _turning_rules()
    if unit.type in ("MMG", "LMG"):
        return mg_turns
    if unit.type.endswith("AT"):
        return unit.men >= atg_crew
    return True


@cache
def _turning_rules() -> tuple[bool, int]:
    rules = table_values("movement-allowances")["facing"]
    return bool(rules["mg_turns_any_crew"]), int(rules["atg_turns_with_crew_at_least"])


def _facing_hexes(game: GameState, unit: Unit) -> list[Hex]:
    """The hexes across the hexsides the unit does not face (8.7), kept per board."""
    assert unit.hex is not None
    kept: dict[tuple[Hex, int | None], list[Hex]] = game.board.caches.setdefault("game_facing_hexes", {})
    key = (unit.hex, unit.facing)
    if key not in kept:
        kept[key] = [unit.hex + d for i, d in enumerate(DIRECTIONS) if i != unit.facing]
    return kept[key]


def facing_index(h: Hex, toward: Hex) -> int | None:
    """The facing (index in DIRECTIONS) of a unit in h whose frontal hexside faces `toward`."""
    d = toward - h
    return DIRECTIONS.index(d) if d in DIRECTIONS else None


def facing_choices(game: GameState, unit: Unit) -> list[Action]:
    """`face UNIT HEX` across each of the unit's six hexsides: a facing chosen freely, as a unit
    placed at the set-up chooses it (8.7) and one entering the map (R161)."""
    assert unit.hex is not None
    return game.hex_actions(FACE, (unit.id,), [unit.hex + d for d in DIRECTIONS])


def entry_facing_actions(game: GameState) -> list[Action]:
    """R161 (10.23, 8.7): the MG or ATG that has just entered the map chooses its facing, before
    the other side answers the hex entered (13.0); nothing else is open meanwhile. [] if none is due."""
    due = game.interrupt.get("facing") if game.interrupt is not None else None
    return facing_choices(game, game.unit(due)) if due is not None else []


def apply_entry_facing(game: GameState, action: Action) -> list[dict[str, Any]]:
    """The entering unit's facing; then the other side answers the hex entered (13.0)."""
    assert game.interrupt is not None
    unit = game.unit(game.interrupt["facing"])
    events = [face_on_placing(game, unit, action)]
    del game.interrupt["facing"]
    game.to_act = other(unit.side)
    return events


def face_on_placing(game: GameState, unit: Unit, action: Action) -> dict[str, Any]:
    """The facing of a unit placed on the map during play (an entry, 24.1; an infiltrator, 24.34):
    chosen freely, with no PC and no MP (R161: it is placed with it, 8.71's change is from a facing
    it has)."""
    if action not in facing_choices(game, unit):
        raise IllegalAction(f"{action.text()} is not open: {unit.id} is on the map and faces first", "10.23")
    unit = game.changing(unit)
    assert unit.hex is not None
    unit.facing = facing_index(unit.hex, parse_label(action.arg, game.board.offset))
    return {"event": "faced", "unit": unit.id, "toward": action.arg, "rule": "8.7, 10.23, R161"}


def _face(game: GameState, unit: Unit, toward: Hex) -> list[dict[str, Any]]:
    unit = game.changing(unit)
    assert unit.hex is not None
    new = facing_index(unit.hex, toward)
    assert new is not None
    if unit.is_afv and unit.facing is not None:
        cost = _turn_cost(unit, new)
        used = hexsides_between(unit.facing, new)
        unit.extra["free_hexsides"] = max(int(unit.extra.get("free_hexsides", 1)) - used, 0)
        unit.mp_spent += cost
    else:  # 8.73: one change reaches any hexside; once a hex (R150: a phase always ends)
        unit.extra["turned"] = True
    unit.facing = new
    return [
        {"event": "faced", "unit": unit.id, "toward": game.label(toward), "rule": "8.74" if unit.is_afv else "8.71"}
    ]
