"""What a combat result does to a unit (11.43, 11.45, 12.32, 12.34), the one place every kind of
attack (fire, mortars, grenades, flamethrowers, mines, overruns, assault) applies its results.

Results are "P", "S" and "E" (11.4); "NE" does nothing. A unit already PINNED or SUPPRESSED takes
the Cumulative Combat Results Table (11.45): P+P = S, P+S = S, S+P = S, S+S = the Special Roll
(a PC: failed, eliminated; passed, still SUPPRESSED), but for an AFV, which AP fire never destroys
(10.0, R160): it stays SUPPRESSED. An AFV leaves the map only by `destroy_afv`, for a Wreck (12.4).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.geometry.movement import Morale, State
from engine.model.tables import table_values

from .crews import crew_eliminated, lose_members, replacements
from .performance import performance_check
from .special_roll import DICE, special_roll
from .state import GameState
from .units import ELIMINATED, Unit

Events = list[dict[str, Any]]
MARKER = {"P": Morale.PINNED, "S": Morale.SUPPRESSED}
LETTER = {Morale.PINNED: "P", Morale.SUPPRESSED: "S"}


@cache
def _cumulative() -> dict[tuple[str, str], str]:
    rows = table_values("combat")["cumulative_results"]["table"]
    return {(str(r["before"]), str(r["result"])): str(r["final"]) for r in rows}


def apply_result(
    game: GameState, unit: Unit, result: str, rule: str, *, crew_kill_at_most: int | None = None
) -> Events:
    """Apply one attack's result to `unit` (11.43, 11.45). `crew_kill_at_most`: the 2-dice roll
    that kills a crew member of a CW on an E (11.43: 8; 15.8, grenades: 10)."""
    if result == "NE" or not unit.on_map:
        return []
    unit = game.changing(unit)
    if result == "E":
        if unit.is_afv:  # 11.43: 'Treat as a SUPPRESSED result; ... must remain in the DOWN state'
            unit.extra["commander_killed"] = True
            killed = _event(unit, "E", rule, "the tank commander is killed: DOWN for the game")
            return [killed, *_mark(game, unit, "S", rule)]
        if unit.kind == "cw":
            return crew_roll(game, unit, rule, crew_kill_at_most)
        return eliminate(game, unit, rule)
    if result == "P" and unit.is_afv:  # 11.43: 'AFV: Pinned has no effect'
        return [_event(unit, "P", rule, "no effect on an AFV")]
    return _mark(game, unit, result, rule)


def _mark(game: GameState, unit: Unit, result: str, rule: str) -> Events:
    """A P or S marker, through the Cumulative Combat Results Table (11.45); DOWN either way (11.43)."""
    before = LETTER.get(Morale(unit.morale))
    final = _cumulative()[(before, result)] if before is not None else result
    unit = game.changing(unit)
    unit.state = State.DOWN
    if final == "special_roll" and unit.is_afv:  # 10.0: 'AP fire will not destroy an AFV' (R160)
        unit.morale = Morale.SUPPRESSED
        return [_event(unit, "S", rule, "S on S: an AFV takes no Special Roll, still SUPPRESSED (10.0)")]
    if final == "special_roll":  # S + S: the Special Roll, a PC or the optional one (special_roll.py)
        roll = special_roll(game, unit)
        if roll.optional:
            faces = game.dice.roll(DICE)
            fell = roll.eliminated(sum(faces))
            shown = f"{'+'.join(map(str, faces))} = {sum(faces)}: {'eliminated' if fell else 'remains SUPPRESSED'}"
            detail = f"S on S: {roll.describe()}, {shown}"
            events = [_event(unit, "S", rule, detail, dice=list(faces), special_roll="Optional Special Roll (11.45)")]
        else:
            check = performance_check(game.dice, unit.pr)
            fell = roll.eliminated(check.total)
            events = [_event(unit, "S", rule, f"S on S: the Special Roll, {check.describe()}", check=check.describe())]
        if fell:
            return events + eliminate(game, unit, "11.45")
        unit = game.changing(unit)
        unit.morale = Morale.SUPPRESSED
        return events
    unit.morale = MARKER[final]
    shown = f"{before} and {result}: {final}" if before is not None else final
    return [_event(unit, result, rule, shown, morale=str(unit.morale))]


def crew_roll(game: GameState, unit: Unit, rule: str, kill_at_most: int | None = None) -> Events:
    """11.43 / 15.8: two dice per crew member, at most `kill_at_most` kills him; survivors SUPPRESSED."""
    rules = table_values("combat")["cw_crew_elimination"]
    most = int(kill_at_most if kill_at_most is not None else rules["ap_fire_kill_at_most"])
    rolls = [game.dice.roll(int(rules["dice"])) for _ in range(unit.men)]
    killed = sum(1 for r in rolls if sum(r) <= most)
    shown = f"crew rolls {[sum(r) for r in rolls]}: {killed} killed"
    events = [_event(unit, "E", rule, shown, rolls=[list(r) for r in rolls])]
    members = [i for i, r in enumerate(rolls) if sum(r) <= most]  # R119: each member's own roll
    events += lose_crew(game, unit, killed, rule, members)
    unit = game.unit(unit.id)
    if unit.on_map:  # 'If any crew members survive, the CW unit is SUPPRESSED' (through 11.45)
        events += _mark(game, unit, "S", rule)
    return events


def lose_crew(game: GameState, unit: Unit, killed: int, rule: str, members: Sequence[int] | None = None) -> Events:
    """A CW loses `killed` crew members; with none left it is eliminated. With replacements in its
    crew (20.1) `crews.lose_members` says who falls (`members`: their places in the roster, R119)
    and applies 20.3."""
    if killed <= 0:
        return []
    events: Events = []
    if replacements(unit):
        events += lose_members(game, unit, killed, rule, members)
    else:
        unit = game.changing(unit)
        unit.men = max(0, unit.men - killed)
        game.units_changed()
    unit = game.unit(unit.id)
    if unit.on_map and unit.men == 0:
        events += eliminate(game, unit, rule)
    return events


def eliminate(game: GameState, unit: Unit, rule: str) -> Events:
    """The unit is removed from the map (11.43 E); an AFV's destruction is `destroy_afv`."""
    h = unit.hex
    game.relocate(unit, ELIMINATED, None)
    unit = game.unit(unit.id)
    unit.hidden = False
    return [
        {"event": "eliminated", "unit": unit.id, "hex": game.label(h), "rule": rule},
        *crew_eliminated(game, unit, rule),
    ]


def destroy_afv(game: GameState, unit: Unit, rule: str, wreck_in: Any = None, spared: Sequence[Unit] = ()) -> Events:
    """12.32: the AFV is removed and replaced with a Wreck marker (12.4), in its hex or `wreck_in`
    (9.2 A: 'in the hex adjacent to the defending units'); 12.34: friendly infantry stacked with it
    are SUPPRESSED at once, but those `spared` (9.31: 'The infantry are not affected by the special
    AT fire')."""
    h = unit.hex
    assert h is not None
    infantry = ("infantry", "ft", "commander")
    left_out = {unit.id, *(u.id for u in spared)}  # by id: a unit changed since is another object
    stacked = [u for u in game.at(h) if u.side == unit.side and u.id not in left_out and u.kind in infantry]
    game.relocate(unit, ELIMINATED, None)
    wreck = wreck_in if wreck_in is not None else h
    game.wrecks.add(wreck)
    events: Events = [
        {"event": "destroyed", "unit": unit.id, "hex": game.label(h), "wreck": game.label(wreck), "rule": rule}
    ]
    for other_unit in stacked:
        events += _mark(game, other_unit, "S", "12.34")
    return events


def _event(unit: Unit, result: str, rule: str, detail: str, **more: Any) -> dict[str, Any]:
    return {"event": "result", "unit": unit.id, "result": result, "detail": detail, "rule": rule, **more}
