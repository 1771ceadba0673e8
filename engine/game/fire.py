"""Fire combat in play (10.0-13.0): AP fire with combined factors, MG intensive fire, AT fire,
and opportunity fire at the interrupt movement offers after every hex entered.

Mortars (mortars.py), grenades (grenades.py) and flamethrowers (flamethrower.py) are offered here
beside AP and AT fire. An AP attack is declared a unit at a time, so that the choices stay few however many units may
combine (11.13, 11.14): `aim UNIT HEX` names the target hex and the first firer, `join UNIT`
adds one, `intensive UNIT` doubles an MG (11.15), `shoot` takes the PCs and resolves (10.0 c-f),
`cancel` drops the declaration (no PC taken: nothing was attempted). `antitank UNIT HEX` is one
unit's AT fire at the AFV in HEX (12.0: never combined). The numbers of an attack (every firer,
every modifier with its rule, the dice for each target unit) are `shot.py`'s, which the odds
calculator shows for the same shot.
"""

from __future__ import annotations

from typing import Any

from engine.geometry.movement import Morale
from engine.hexgrid import Hex
from engine.model.tables import table_values
from engine.odds import ap_result, at_destroyed

from .actions import DONE, PASS, Action, IllegalAction, verb
from .advanced import advanced
from .ammo import ap_cost, committed, may_spend, spend
from .combining import combinable, group_fire_leader, may_combine
from .firing import combat_rolled, firer_and_hex, firing_side, mark_fired
from .flamethrower import FLAME, apply_flame, flame_actions
from .grenades import GRENADE, apply_grenade, grenade_actions
from .mg_modes import direct_fire
from .mortars import MORTAR, apply_mortar, mortar_actions
from .observation import note_intensive, observe, observers
from .performance import Check
from .results import apply_result, destroy_afv
from .shot import (
    Shot,
    ap_shot,
    at_shot,
    fire_pc_modifier,
    is_mg,
    may_aim,
    may_antitank,
    opening_hexes,
    openings,
    openings_by_unit,
)
from .state import GameState
from .units import Unit

AIM = verb("aim")  # aim UNIT HEX: an AP attack at HEX, UNIT its first firer (10.0 a)
JOIN = verb("join", arg=False, rule="11.13")  # join UNIT: another firer combines its factors (11.13, 11.14)
INTENSIVE = verb("intensive", arg=False, rule="11.15")  # intensive UNIT: an MG of the attack fires double (11.15)
SHOOT = verb("shoot", units=False, arg=False, rule="10.0")  # the declared attack: PCs, then the dice (10.0 c-f)
CANCEL = verb("cancel", units=False, arg=False, rule="R97")  # the declared attack is dropped before any PC
ANTITANK = verb("antitank")  # antitank UNIT HEX: AT fire at the AFV in HEX (12.0)


# -- the fire phases (6.0 B, E, F) -----------------------------------------------------------------


def fire_actions(game: GameState) -> list[Action]:
    """Every fire decision open in a fire phase (mortars, 14.0; AP and AT fire; grenades, 15.0;
    flamethrowers, 16.0); `done` ends the side's fire."""
    if game.attack is not None:
        return _declaring(game)
    return [
        *mortar_actions(game),
        *_openings(game),
        *grenade_actions(game),
        *flame_actions(game),
        Action(DONE),
    ]


def apply_fire(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action.verb == MORTAR:
        return apply_mortar(game, action)
    if action.verb == GRENADE:
        return apply_grenade(game, action)
    if action.verb == FLAME:
        return apply_flame(game, action)
    if not _legal(game, action):
        raise _refused(game, action)
    return _apply(game, action)


def _refused(game: GameState, action: Action) -> IllegalAction:
    named = firer_and_hex(game, action, action.verb) if action.verb == AIM and game.attack is None else None
    if named is not None and _cancelled(game, *named):
        return IllegalAction(f"{action.text()}: its attack at {action.arg} was cancelled in this phase", "R155")
    return IllegalAction(f"{action.text()} is not a legal fire choice now", _rule(action))


def _legal(game: GameState, action: Action) -> bool:
    """Whether the action is among fire_actions (or reaction_actions), without listing them all."""
    if game.attack is not None:
        target = game.hex(game.attack["target"])
        firers = [game.unit(i) for i in game.attack["units"]]
        if action.verb == JOIN:
            unit = game.units.get(action.units[0]) if action.units else None
            return (
                unit is not None
                and unit not in firers
                and direct_fire(game, unit)
                and may_aim(game, unit, target)
                and may_combine(game, [*firers, unit])
                and may_spend(game, unit, ap_cost(unit, False), committed(game, unit, firers, game.attack["intensive"]))
            )
        return action in _declaring(game) if action.verb == INTENSIVE else action.verb in (SHOOT, CANCEL)
    named = firer_and_hex(game, action, action.verb) if action.verb in (AIM, ANTITANK) else None
    if named is None:
        return False
    unit, h = named
    if game.interrupt is not None and action.arg != game.interrupt["hex"]:
        return False  # 13.13: only the hex entered
    if action.verb == AIM:
        return may_aim(game, unit, h) and not _cancelled(game, unit, h) and direct_fire(game, unit)
    return may_antitank(game, unit, h)


def _cancelled(game: GameState, unit: Unit, h: Hex) -> bool:
    """R155: the unit was the first firer of an attack at h cancelled this phase (no cycle of aim
    and cancel: a phase always ends)."""
    return game.label_of(h) in unit.extra.get("cancelled", ())


# -- opportunity fire (13.0) at the interrupt after a hex entered ---------------------------------------


def reaction_actions(game: GameState) -> list[Action]:
    """13.0: after a moving unit or stack enters a hex, the other side may fire at that hex
    (13.13) or let it go on (`pass`)."""
    if game.attack is not None:
        return _declaring(game)
    assert game.interrupt is not None
    return [Action(PASS), *_openings(game)]


def apply_reaction(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action.verb == PASS or not _legal(game, action):
        raise IllegalAction(
            f"{action.text()} is not open now: the answer to a move is pass or opportunity fire", "13.0"
        )
    events = _apply(game, action)
    if game.attack is None and action.verb in (SHOOT, ANTITANK):
        events += movers_after_fire(game)
    return events


def movers_after_fire(game: GameState) -> list[dict[str, Any]]:
    """13.18: 'Moving units which become PINNED may move no further in that phase'; a SUPPRESSED or
    eliminated one neither. The interrupt stays open: another unit may fire at the hex (13.16)."""
    events = []
    for unit in [game.unit(i) for i in game.active]:
        if not unit.on_map or unit.morale != Morale.NORMAL:
            events += game.stop_moving([unit], "13.18", str(unit.morale) if unit.on_map else "eliminated")
    return events


# -- shared -------------------------------------------------------------------------------------


def _openings(game: GameState) -> list[Action]:
    """The first moves of an attack: `aim` and `antitank` for each unit that may fire now at each
    target hex (10.2), only the hex entered at an interrupt (13.13); by unit, then hex. In a fire
    phase each unit's kept until its openings change (`openings_by_unit`: a new list when it
    changes, as R155's cancelled attacks do) or the side's MG modes do (21.1)."""
    side = firing_side(game)
    hexes = opening_hexes(game, side)
    if game.interrupt is not None:
        return _aims(game, openings(game, side, hexes))
    made = game.kept(("opening_actions", side), dict)  # by unit id: (its openings, the modes, its actions)
    modes = game.secrets[side].modes
    actions: list[Action] = []
    for i, its in openings_by_unit(game, side, hexes).items():
        if its:
            last = made.get(i)
            if last is None or last[0] is not its or last[1] is not modes:
                unit = game.units[i]
                last = made[i] = (its, modes, _aims(game, [(unit, h, aim, antitank) for h, aim, antitank in its]))
            actions += last[2]
    return actions


def _aims(game: GameState, found: list[tuple[Unit, Hex, bool, bool]]) -> list[Action]:
    actions: list[Action] = []
    for unit, h, aim, antitank in found:
        if aim and not _cancelled(game, unit, h) and direct_fire(game, unit):
            actions += game.hex_actions(AIM, (unit.id,), (h,))
        if antitank:
            actions += game.hex_actions(ANTITANK, (unit.id,), (h,))
    return actions


def _declaring(game: GameState) -> list[Action]:
    """With an attack declared: more firers, intensive fire, shoot or cancel."""
    attack = game.attack
    assert attack is not None
    target = game.hex(attack["target"])
    firers = [game.unit(i) for i in attack["units"]]
    intensive = attack["intensive"]
    actions = [
        Action(JOIN, (u.id,))
        for u in combinable(game, firers, target)
        if direct_fire(game, u)  # 21.1: only an MG in DF mode joins an ordinary AP attack
        and may_spend(game, u, ap_cost(u, False), committed(game, u, firers, intensive))  # 22.1 (R344)
    ]
    actions += [  # 11.15; 22.2: three points, all still in the pool (R344)
        Action(INTENSIVE, (u.id,))
        for u in firers
        if is_mg(u)
        and u.id not in intensive
        and may_spend(game, u, ap_cost(u, True) - ap_cost(u, False), committed(game, u, firers, intensive))
    ]
    return [*actions, Action(SHOOT), Action(CANCEL)]


def _apply(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action.verb == AIM:
        game.attack = {"target": action.arg, "units": [action.units[0]], "intensive": []}
        return [{"event": "aim", "unit": action.units[0], "hex": action.arg, "rule": "10.0 a"}]
    if action.verb == JOIN:
        assert game.attack is not None
        game.attack["units"].append(action.units[0])
        return [{"event": "join", "unit": action.units[0], "hex": game.attack["target"], "rule": "11.13, 11.14"}]
    if action.verb == INTENSIVE:
        assert game.attack is not None
        game.attack["intensive"].append(action.units[0])
        return [{"event": "intensive", "unit": action.units[0], "rule": "11.15"}]
    if action.verb == CANCEL:  # R155: its first firer opens no second time at that hex this phase
        assert game.attack is not None
        first = game.changing(game.attack["units"][0])
        first.extra["cancelled"] = (*first.extra.get("cancelled", ()), game.attack["target"])
        game.attack = None
        return [{"event": "cancelled", "rule": "10.0 a"}]
    if action.verb == SHOOT:
        return _shoot(game)
    if action.verb == ANTITANK:
        return _antitank(game, game.unit(action.units[0]), game.hex(action.arg))
    raise IllegalAction(f"no such action {action.text()}")


def fire_pcs(game: GameState, units: list[Unit]) -> tuple[list[Unit], list[dict[str, Any]]]:
    """10.12: every unit that attempts to fire takes a PC (an overrun's AT fire too, 9.2 A: 'resolved
    as normal anti-tank fire'); only those that pass fire (10.0 c); 13.17's modifiers in
    opportunity fire (`fire_pc_modifier`, which the odds read too)."""
    passed, events = [], []
    for unit in units:
        check = Check(game.dice.roll(2), fire_pc_modifier(game, unit), unit.pr)
        events.append({"event": "pc", "unit": unit.id, "for": "fire", "check": check.describe(), "rule": "10.12"})
        if check.passed:
            passed.append(unit)
    events += mark_fired(game, units)  # 4.0: attempted is fired, pass or fail (10.11)
    return [game.unit(u.id) for u in passed], events  # as marked


def _shoot(game: GameState) -> list[dict[str, Any]]:
    attack = game.attack
    assert attack is not None
    game.attack = None
    target = game.hex(attack["target"])
    units = [game.unit(i) for i in attack["units"]]
    observed, events = attack_observed(game, units, target)  # 23.11: before any fire PC
    passed, pcs = fire_pcs(game, units)
    events += pcs
    if not passed:
        return [*events, {"event": "no fire", "hex": attack["target"], "why": "every PC failed", "rule": "10.0 c"}]
    intensive = tuple(i for i in attack["intensive"] if i in {u.id for u in passed})
    shot = ap_shot(game, passed, target, intensive=intensive, observed=observed)
    spent = [e for unit in passed for e in spend(game, unit, ap_cost(unit, unit.id in intensive))]  # 22.1
    events += resolve_ap(game, shot, spent=spent)
    for unit_id in intensive:  # 11.15: 'After each use of Intensive Fire ... two dice'
        note_intensive(game, game.unit(unit_id))
        events += _intensive_roll(game, game.unit(unit_id))
    return events


def resolve_ap(
    game: GameState, shot: Shot, rule: str = "11.43", spent: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The attack's event (then `spent`, the ammo its firers marked off: 22.1), then each target
    unit's dice and result (11.4); `rule`: the fire's."""
    events = [_shot_event(game, shot), *(spent or [])]
    combat_rolled(game)
    for dice, unit in zip(shot.dice, shot.targets, strict=True):
        unit = game.unit(unit.id)  # as the results before left it (12.34, a crew's loss)
        if not unit.on_map:
            continue
        faces = game.dice.roll(dice.count)
        result = ap_result(sum(faces), faces, shot.levels)
        events.append(
            {
                "event": "ap roll",
                "unit": unit.id,
                "dice": list(faces),
                "levels": shot.levels,
                "result": result,
                "rule": f"{rule}, 11.44" if result == "E" and len(faces) > 1 and set(faces) == {1} else rule,
            }
        )
        events += apply_result(game, unit, result, rule)
    return events


def attack_observed(game: GameState, firers: list[Unit], target: Hex) -> tuple[bool, list[dict[str, Any]]]:
    """23.1: each firing hex's observer (`observers`; in Group Fire its leader alone, 23.14) tries
    in turn; the hex is observed once one succeeds (23.13), and the attempts stop there. The basic
    game: always observed, no dice."""
    if not advanced(game):
        return True, []
    events: list[dict[str, Any]] = []
    for observer in observers(firers, group_fire_leader(game, firers)):
        observed, seen = observe(game, observer, target)
        events += seen
        if observed:
            return True, events
    return False, events


def _intensive_roll(game: GameState, unit: Unit) -> list[dict[str, Any]]:
    table = table_values("combat")["intensive_mg_fire"]
    faces = game.dice.roll(int(table["dice"]))
    row = next(r for r in table["results"] if sum(faces) in r["rolls"])
    turns = row.get("may_not_fire_player_turns")
    if row["result"] != "no_effect":
        # 'may not fire during the remainder of this player turn and the next' (jammed: 1 more)
        unit = game.changing(unit)
        unit.extra["may_not_fire_until"] = game.player_turns + 1 + int(turns) if turns is not None else 10**9
    return [{"event": "intensive roll", "unit": unit.id, "dice": list(faces), "result": row["result"], "rule": "11.15"}]


def _antitank(game: GameState, unit: Unit, target_hex: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    if advanced(game):  # 23.31: 'AT fire must always be directed at an observed target'
        observed, events = observe(game, unit, target_hex)
        if not observed:  # its attempt is spent: no PC, no ammo, no second try this Player Turn (R348)
            events += mark_fired(game, [unit])
            return [
                *events,
                {"event": "no fire", "hex": game.label(target_hex), "why": "not observed", "rule": "23.31"},
            ]
    passed, pcs = fire_pcs(game, [unit])
    events += pcs
    if not passed:
        return events
    shot = at_shot(game, unit, target_hex)
    events.append(_shot_event(game, shot))
    events += spend(game, unit, ap_cost(unit, False))  # 22.2: ATG or ATR, 1 point
    combat_rolled(game)
    afv = shot.targets[0]
    faces = game.dice.roll(shot.dice[0].count)
    destroyed = at_destroyed(faces, shot.firepower, shot.armor, shot.higher)
    events.append(
        {
            "event": "at roll",
            "unit": afv.id,
            "dice": list(faces),
            "armor": shot.armor,
            "higher": shot.higher,
            "factor": shot.firepower,
            "destroyed": destroyed,
            "rule": "12.33" if len(faces) > 1 and set(faces) == {1} else "12.31, 12.32",
        }
    )
    if destroyed:
        events += destroy_afv(game, afv, "12.32")
    return events


def _shot_event(game: GameState, shot: Shot) -> dict[str, Any]:
    return {"event": "attack", **shot.describe(game)}


def _rule(action: Action) -> str:
    return {AIM: "10.2", JOIN: "11.13", INTENSIVE: "11.15", SHOOT: "10.0", ANTITANK: "12.0"}.get(action.verb, "10.0")
