"""Who may fire now, what firing does to a unit, and the AP dice of an attack: the parts every
kind of fire shares (10.1, 10.13, 11.3), whether AP, AT, mortar, grenade or flamethrower.

4.0: a unit that took its PC to fire has fired, pass or fail (10.11: 'Units that have already
attempted to fire in the Player Turn are not eligible to fire'). 8.22: the first roll that
resolves combat ends the free movement of the game's start from the next Phasing Player on.
24.22: 'If a hidden unit in a hidden hex fires, it (and only it) is revealed.'
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from engine.geometry.movement import Morale, State, terrain_row
from engine.hexgrid import Hex
from engine.model.tables import table_values, terrain_effects

from .ammo import out_of_ammo
from .state import DEFENSIVE_FIRE, MOVEMENT, MOVING_FIRE, REACTION, SUPPORT_FIRE, GameState, other
from .units import Unit

FIRE_PHASES = (SUPPORT_FIRE, DEFENSIVE_FIRE, MOVING_FIRE)  # 6.0 B, E, F (10.13)


def firing_side(game: GameState) -> str:
    """10.13: the phasing player fires in B, D (opportunity) and F; the other in C (opportunity) and E."""
    if game.phase in (MOVEMENT, DEFENSIVE_FIRE):
        return other(game.phasing)
    return game.phasing


def may_fire(game: GameState, unit: Unit, *, again: bool = False) -> bool:
    """10.11, 10.13-10.16: whether the unit may attempt to fire now (any kind of fire). `again`: an
    MG's Fire Lane or Spray combat goes on in a later phase (10.11's 'Exception: MACHINE GUN MODES
    21.0'; 21.27, R354), its having fired set aside."""
    if not unit.on_map or unit.side != firing_side(game) or (unit.fired and not again):
        return False
    if out_of_ammo(game, unit):  # 22.1: 'may fire no more in the game'
        return False
    if unit.morale != Morale.NORMAL:  # 10.11: 'PINNED/SUPPRESSED units are not eligible to fire'
        return False
    if unit.extra.get("may_not_fire_until", 0) > game.player_turns:  # 11.15: a jammed or broken MG
        return False
    if unit.extra.get("spot_failed") == (game.player_turns, game.phase):  # 4.0: a failed spotter (R134)
        return False
    if game.phase == DEFENSIVE_FIRE and unit.moved:  # 10.13: 'did not move in the Reaction Movement Phase'
        return False
    if game.phase in (MOVING_FIRE, REACTION) and unit.kind == "cw" and unit.moved:
        return False  # 10.13: 'CW units that moved in the Movement Phase may not fire'; 13.12
    if is_stug(unit) and unit.extra.get("left_hex_turn") == game.player_turns:
        return False  # 10.14: 'A German Stug that moved earlier in the Player Turn may not fire' (turning: 12.2)
    if unit.kind == "cw" and unit.men < int(unit.extra.get("full_crew", unit.men)):
        if unit.type == "ATR":  # 10.16: 'An ATR without a full crew may not fire at all'
            return False
        if unit.value("at_factor") is not None and unit.men <= 2 and unit.extra.get("fired_game_turn") == game.turn:
            return False  # 10.15: an ATG of crew 1 or 2 'may fire only ONCE in a GAME TURN'
    return True


def is_stug(unit: Unit) -> bool:
    """10.23, 12.2: the German Stug (no turret: it fires through its frontal hexsides only)."""
    return unit.is_afv and unit.value("turret") is False


def mark_fired(game: GameState, units: list[Unit]) -> list[dict[str, Any]]:
    """The units have attempted to fire (10.11, 4.0): not again this Player Turn; a hidden firer is
    revealed, it alone (24.22)."""
    events: list[dict[str, Any]] = []
    for unit in units:
        unit = game.changing(unit)
        unit.fired = True
        unit.extra["fired_phase"] = game.phase
        unit.extra["fired_game_turn"] = game.turn
        if game.options.get("advanced"):
            unit.extra["fired_at"] = game.phase_count()  # 23.2 observer g-j (observation.py)
        if game.phase == SUPPORT_FIRE:
            unit.extra["support_fired"] = True  # 8.21: it may not move in the Movement Phase
        if unit.hidden:
            unit.hidden = False
            game.units_changed()
            events.append({"event": "revealed", "units": [unit.id], "hex": game.label(unit.hex), "rule": "24.22"})
    return events


def combat_rolled(game: GameState) -> None:
    """8.22: 'until either side rolls the dice to resolve combat (the first shot). PC's for movement
    must be taken by the next Phasing Player' (R92: from the next Player Turn on)."""
    game.shot_fired = True


def ap_dice(game: GameState, target: Unit, *, moved: bool, ignore: tuple[str, ...] = ()) -> tuple[int, list[str]]:
    """11.3: the dice of an AP attack on `target`, and why (each part with its rule). `moved`: a
    firing unit moved this Player Turn (11.32). `ignore` leaves out parts: mortars (14.4) ignore
    "afv_cover" and "trees" (a woods hex read as its terrain without them, R131); a flamethrower
    rolls two dice whatever (16.3) and does not call this."""
    modifiers = _dice_modifiers()
    assert target.hex is not None
    if target.is_afv:  # 11.34: two dice UP, four DOWN, one more if a firer moved
        dice = 4 if target.state == State.DOWN else 2
        why = [f"{dice} against an AFV {target.state} (11.34)"]
        if moved:
            dice += 1
            why.append("+1 a firer moved (11.34)")
        return dice, why
    effects = terrain_effects()
    terrain = game.board.terrain(target.hex)
    if "trees" in ignore:
        terrain = replace(terrain, trees=0)
    row = terrain_row(terrain, effects)
    dice = effects.row(row).ap_dice
    why = [f"{dice} for {row} (11.31)"]
    if target.state == State.DOWN:
        dice += int(modifiers["target_down"])
        why.append("+1 the target is DOWN (11.31)")
    if moved:
        dice += int(modifiers["firer_moved"])
        why.append("+1 a firer moved this Player Turn (11.32)")
    if "afv_cover" not in ignore and _covered(game, target):
        dice += int(modifiers["afv_cover"])
        why.append("+1 AFV/Wreck cover (11.33)")
    points = game.improved_positions.get(target.hex, 0)
    if points and target.kind != "afv":  # 18.2: infantry and CW units benefit; 18.3: a die per point
        dice += points * int(modifiers["per_improved_position_point"])
        why.append(f"+{points} for the IP (18.3)")
    return dice, why


def _covered(game: GameState, target: Unit) -> bool:
    """11.33: infantry stacked with a Wreck, or with an AFV that has not moved this Player Turn or
    that the infantry moved with and ended stacked with; never a CW."""
    if target.kind == "cw" or target.hex is None:
        return False
    if target.hex in game.wrecks:
        return True
    return any(u.is_afv and (not u.moved or target.extra.get("rode_with") == u.id) for u in game.at(target.hex))


@cache
def _dice_modifiers() -> dict[str, Any]:
    values: dict[str, Any] = table_values("terrain-effects")["ap_dice_modifiers"]
    return values


def firer_and_hex(game: GameState, action: Any, verb: str) -> tuple[Unit, Hex] | None:
    """The one unit of the firing side on the map an action of `verb` names, and the hex it names;
    None for an action not of that form (a legality check's first step)."""
    if action.verb != verb or len(action.units) != 1 or action.units[0] not in game.units:
        return None
    unit = game.unit(action.units[0])
    if unit.side != firing_side(game) or unit.hex is None:
        return None
    try:
        return unit, game.hex(action.arg)
    except ValueError:  # not a hex label of the board (UnknownHexError, LabelError)
        return None
