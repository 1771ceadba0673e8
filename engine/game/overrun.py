"""Overrun (9.0-9.34) and the Improved Positions' part in it (18.3, 18.4).

`overrun AFV HEX` (or, for an AFV/infantry stack, `overrun AFV+INF... HEX`, 8.4, 9.3) is offered in
the friendly Movement Phase only (9.11) for the hex across the AFV's frontal hexside (8.74) when
enemy units are seen there, none of them an AFV and no Wreck (9.13), and the AFV has the MPs to
enter it, one more (9.0), and to leave it again into a hex it may enter. One overrun per AFV per
Player Turn (9.11); a hex may be overrun many times in a phase, each time by another AFV (9.14).

The resolution (9.2): hidden units there are revealed first (24.23: the AFV is 'about to enter');
A) the defender decides, gun by gun, whether each NORMAL ATR/ATG in the hex fires at the AFV's
frontal armor (`antitank GUN HEX`, HEX the AFV's hex; `pass` ends it), once a Movement Phase at
the first AFV only (R139); destroyed, the Wreck stays in the hex the AFV came from and the
accompanying infantry go DOWN there, their move done (9.31). Otherwise the AFV (and the infantry
of a combined overrun) enter; B) defensive infantry fire unless infantry accompany it (9.32, R140);
C) the AFV's attack on each defending unit (R141, R142, 18.4); then the AT mines (19.2,
mines.overrun_detonation); accompanying infantry stay (9.33) and assault at once, without PCs,
what is left SUPPRESSED (R144); the AFV must leave the hex (9.0) and may go on moving (9.12).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from engine.geometry.movement import Morale, State, hexsides_between
from engine.hexgrid import DIRECTIONS, Hex
from engine.model.tables import movement_allowances, table_values
from engine.odds import at_destroyed

from .actions import PASS, Action, IllegalAction, verb
from .ammo import ap_cost, spend
from .assault import apply_assault, assault_actions, run_fight, start_fight
from .fire import ANTITANK, fire_pcs
from .firing import combat_rolled
from .leaders import _with_their_leaders
from .mines import overrun_detonation
from .morale import reveal_hex
from .movement import _begin, _stuck_over_full, end_active
from .performance import performance_check
from .results import apply_result, destroy_afv, eliminate
from .shot import Shot, at_shot, is_atg
from .stacks import _groups, _order, side_afvs
from .state import MOVEMENT, GameState, other
from .steps import _cost, _movement_cost, left, may_start, mover_side
from .steps import _step as step_into
from .units import Unit

Events = list[dict[str, Any]]

OVERRUN = verb("overrun")  # 9.0: overrun AFV[+INFANTRY...] HEX, the hex across the AFV's frontal hexside

INFANTRY = ("infantry", "ft", "commander")


@cache
def _rules() -> dict[str, Any]:
    rules: dict[str, Any] = table_values("combat")["overrun"]
    return rules


# -- offering the overrun (9.0, 9.1) ---------------------------------------------------------


def overrun_actions(game: GameState) -> list[Action]:
    """Every overrun open now: for the moving unit or stack, and for each AFV (alone or with the
    infantry it may move with, 8.4) that may start to move, in the order movement offers them."""
    if game.phase != MOVEMENT or game.overrun.get("under_way"):
        return []
    side = mover_side(game)
    active = [game.unit(i) for i in game.active]
    actions: list[Action] = []
    if active:
        if _stuck_over_full(game, active):
            return []
        actions += _group_overruns(game, active)
    reached = game.stage.get(side, 1)
    for afv in side_afvs(game, side):
        if not afv.on_map or afv.hex is None or not may_start(game, afv):
            continue
        if _front(game, afv) is None:
            continue
        units = [u for u in game.at(afv.hex) if u.side == side and may_start(game, u)]
        for group in _groups(game, units):
            if afv in group and _order(group[0], group) >= reached and _with_their_leaders(group):
                actions += _group_overruns(game, group)
    return actions


def _front(game: GameState, afv: Unit) -> Hex | None:
    """The hex across the AFV's frontal hexside if it holds enemy units its side sees."""
    if afv.facing is None or afv.hex is None or afv.immobilized:
        return None
    if afv.extra.get("overran") == game.player_turns:  # 9.11: 'only one overrun per Player Turn'
        return None
    t = afv.hex + DIRECTIONS[afv.facing]
    if t not in game.board.hexes or not any(u.side != afv.side and not u.hidden for u in game.at(t)):
        return None
    return t


def _group_overruns(game: GameState, group: list[Unit]) -> list[Action]:
    afv = next((u for u in group if u.is_afv), None)
    if afv is None or afv.hex is None or not afv.on_map:
        return []
    t = _front(game, afv)
    if t is None or not may_overrun(game, afv, t):
        return []
    if any(_cost(game, u, afv.hex, t) is None for u in group if u is not afv):
        return []  # the infantry may stop first (8.43) and let the AFV go on alone
    return [Action(OVERRUN, tuple(u.id for u in group), game.label_of(t))]


def may_overrun(game: GameState, afv: Unit, t: Hex) -> bool:
    """9.13: no enemy AFV, no Wreck; 9.0: the MPs to enter (terrain + 1) and to leave again into
    a hex the AFV may enter, by its frontal hexside after a turn (8.74), as the side sees the map."""
    seen = [u for u in game.at(t) if u.side != afv.side and not u.hidden]
    if not seen or any(u.is_afv for u in seen) or t in game.wrecks:
        return False
    assert afv.hex is not None and afv.facing is not None
    mover = afv.mover(game.phase)
    enter = _movement_cost(game, afv.hex, t, mover)
    if enter is None:
        return False
    rest = left(game, afv) - enter - float(_rules()["extra_mp"])
    if rest < -1e-9:
        return False
    table = movement_allowances()
    for n in game.neighbours(t):
        out = _movement_cost(game, t, n, mover)
        if out is None or not _open_to(game, afv, n):
            continue
        new = DIRECTIONS.index(n - t)
        turn = max(hexsides_between(afv.facing, new) - table.free_facing_hexsides, 0) * table.extra_hexside_mp
        if out + turn <= rest + 1e-9:
            return True
    return False


def _open_to(game: GameState, afv: Unit, n: Hex) -> bool:
    """A hex the AFV may enter after the overrun: no enemy it sees (8.23; 9.11: no second
    overrun), no AFV, no Wreck (8.61)."""
    there = game.at(n)
    if any(u.side != afv.side and not u.hidden for u in there):
        return False
    return not (n in game.wrecks or any(u.is_afv and u.id != afv.id for u in there))


# -- declaring it ------------------------------------------------------------------------------


def apply_overrun(game: GameState, action: Action) -> Events:
    """The moving side declares the overrun (starting a move takes its PCs, 8.22, 8.41)."""
    if action not in overrun_actions(game):
        raise IllegalAction(f"{action.text()} is not an overrun open now", "9.0")
    units = [game.changing(i) for i in action.units]  # the movers change: this state's own (copy-on-write)
    events: Events = []
    if list(action.units) != list(game.active):
        events += end_active(game)
        events += _begin(game, units)
        units = [u for u in units if not u.move_done]
        if not any(u.is_afv for u in units):
            return events  # the AFV failed its PC: it has MOVED (4.0) and the stack stays (8.41)
    afv = next(u for u in units if u.is_afv)
    infantry = [u for u in units if not u.is_afv]
    origin, t = afv.hex, game.hex(action.arg)
    assert origin is not None
    hidden = [u for u in game.at(t) if u.side != afv.side and u.hidden]
    if hidden:  # 24.23: revealed as the AFV is about to enter; the overrun is offered again if still legal
        return events + reveal_hex(game, hidden[0].side, t, f"{afv.id} is about to overrun it")
    afv = game.changing(afv)
    afv.extra["overran"] = game.player_turns  # 9.11
    events.append(
        {"event": "overrun", "unit": afv.id, "with": [u.id for u in infantry], "hex": action.arg, "rule": "9.0"}
    )
    enemy_men = sum(u.men for u in game.at(t) if u.side != afv.side and not u.is_afv)
    if infantry and enemy_men > sum(u.men for u in infantry):  # 9.3: no combined overrun
        infantry = [game.changing(u) for u in infantry]
        for unit in infantry:
            unit.move_done = True
            unit.extra["moving"] = False
        events.append(
            {
                "event": "no combined overrun",
                "units": [u.id for u in infantry],
                "hex": game.label(origin),
                "why": f"{enemy_men} men in {action.arg}, more than the {len(infantry)} overrunning infantry",
                "rule": "9.3",
            }
        )
        infantry = []
    game.active = (afv.id, *(u.id for u in infantry))
    game.overrun["under_way"] = {
        "afv": afv.id,
        "infantry": [u.id for u in infantry],
        "hex": action.arg,
        "from": game.label_of(origin),
        "fired": [],
    }
    fired_at: dict[str, int] = game.overrun.setdefault("at_fire", {})
    if fired_at.get(action.arg) != game.player_turns:  # R139: the first AFV about to enter the hex
        fired_at[action.arg] = game.player_turns
        if _guns(game):
            game.to_act = other(afv.side)
            return events
    return events + _enter(game)


# -- 9.2 A: defensive AT fire -----------------------------------------------------------------


def _guns(game: GameState) -> list[Unit]:
    """9.2 A: 'all NORMAL status ATR and ATG units in the hex may fire at the AFV unit ...
    regardless of the firing unit's facing or if it has already fired'; each once (R139);
    10.16 (an ATR without a full crew 'may not fire at all') and 10.15 still hold."""
    under_way = game.overrun["under_way"]
    afv = game.unit(under_way["afv"])
    found = []
    for unit in game.at(game.hex(under_way["hex"])):
        if unit.side == afv.side or unit.id in under_way["fired"] or unit.morale != Morale.NORMAL:
            continue
        if not (unit.type == "ATR" or is_atg(unit)) or unit.value("at_factor") is None:
            continue
        short = unit.men < int(unit.extra.get("full_crew", unit.men))
        if short and unit.type == "ATR":
            continue
        if short and unit.men <= 2 and unit.extra.get("fired_game_turn") == game.turn:
            continue
        found.append(unit)
    return sorted(found, key=lambda u: u.id)


def frontal_shot(game: GameState, gun: Unit, afv: Unit) -> Shot:
    """9.2 A: the shot's numbers as normal AT fire (12.1-12.31: shot.at_shot) but 'directed at the
    AFV's frontal armor' whatever the gun's position."""
    assert afv.hex is not None
    return replace(at_shot(game, gun, afv.hex), armor=int(afv.value("frontal")))


def decisions(game: GameState) -> list[Action]:
    """What is to decide while an overrun is under way: the defender's guns (9.2 A), or a loss in
    the immediate assault (9.33, 17.23)."""
    if game.assault.get("fight"):
        return assault_actions(game)
    under_way = game.overrun["under_way"]
    return [Action(ANTITANK, (u.id,), under_way["from"]) for u in _guns(game)] + [Action(PASS)]


def deciding(game: GameState) -> bool:
    """An overrun's decision is open (play.py asks before anything else in a Movement Phase)."""
    return bool(game.overrun.get("under_way")) or (game.phase == MOVEMENT and bool(game.assault.get("fight")))


def apply_decision(game: GameState, action: Action) -> Events:
    if action not in decisions(game):
        raise IllegalAction(f"{action.text()} is not open: the overrun is being resolved", "9.2")
    if game.assault.get("fight"):
        return apply_assault(game, action) + _assault_over(game)
    if action.verb == PASS:
        return _enter(game)
    under_way = game.overrun["under_way"]
    gun, afv = game.unit(action.units[0]), game.unit(under_way["afv"])
    under_way["fired"].append(gun.id)
    passed, events = fire_pcs(game, [gun])  # 9.2 A: 'resolved as normal anti-tank fire': 10.12's PC first
    if passed:
        events += spend(game, gun, ap_cost(gun, False))  # 22.2: ATG or ATR, 1 point
        shot = frontal_shot(game, gun, afv)
        faces = game.dice.roll(shot.dice[0].count)
        combat_rolled(game)
        destroyed = at_destroyed(faces, shot.firepower, shot.armor, shot.higher)
        events.append(
            {
                "event": "overrun at fire",
                "unit": gun.id,
                "target": afv.id,
                "shot": shot.describe(game),
                "dice": list(faces),
                "destroyed": destroyed,
                "rule": "9.2 A",
            }
        )
        if destroyed:
            return events + _destroyed_before(game, afv)
    if _guns(game):
        return events
    return events + _enter(game)


def _destroyed_before(game: GameState, afv: Unit) -> Events:
    """9.2 A: 'If the AFV is destroyed place a Wreck marker in the hex adjacent to the defending
    units'; 9.31: the accompanying infantry 'are immediately placed in the DOWN state in the
    adjacent hex (with the Wreck marker). They have completed their move. They may Assault (17.0)
    normally ... The infantry are not affected by the special AT fire' (no 12.34)."""
    under_way = game.overrun.pop("under_way")
    infantry = [game.unit(i) for i in under_way["infantry"]]
    events = destroy_afv(game, afv, "9.2 A", wreck_in=game.hex(under_way["from"]), spared=infantry)
    infantry = [game.changing(u) for u in infantry]
    for unit in infantry:
        unit.state = State.DOWN
        unit.move_done = True
        unit.extra["moving"] = False
    if infantry:
        events.append({"event": "down", "units": [u.id for u in infantry], "hex": under_way["from"], "rule": "9.31"})
    game.active = ()
    game.to_act = afv.side
    return events


# -- entering and the resolution (9.2 B, C) ---------------------------------------------------


def _enter(game: GameState) -> Events:
    """The AFV (with the infantry of a combined overrun) enters the hex; 9.12: the overrun is
    resolved there at once (R143: no opportunity fire at that hex, the resolution is the
    defender's answer)."""
    under_way = game.overrun.pop("under_way")
    afv = game.changing(under_way["afv"])  # the movers change: this state's own (copy-on-write)
    infantry = [game.changing(i) for i in under_way["infantry"]]
    t = game.hex(under_way["hex"])
    side, enemy = afv.side, other(afv.side)
    game.to_act = side
    afv.extra["overrunning"] = True  # mines.py: the AT factors wait for 19.2's moment
    events = step_into(game, [afv, *infantry], t)
    game.interrupt = None
    game.to_act = side
    afv.mp_spent += float(_rules()["extra_mp"])  # 9.0: 'one extra MP in addition to the terrain cost'
    accompanying = [u for u in infantry if u.on_map and u.hex == t]
    if afv.on_map and not accompanying:
        events += _infantry_fire(game, afv, t)
    if afv.on_map:
        events += _afv_attack(game, afv, t)
        events += overrun_detonation(game, afv, t)
    afv.extra.pop("overrunning", None)
    for unit in infantry:  # 9.33: 'accompanying infantry units do not exit with the AFV'
        unit.move_done = True
        unit.extra["moving"] = False
    if any(u.side == enemy for u in game.at(t)) and not accompanying:
        game.control[t] = enemy  # R82: the defenders still hold the hex the AFV passes through
    game.active = ()
    if afv.on_map and not afv.move_done and not afv.immobilized:
        afv.extra["must_exit"] = game.player_turns  # 9.0: 'and exiting the hex'
        game.active = (afv.id,)
    if afv.on_map and accompanying:
        events += _immediate_assault(game, accompanying, t)
    return events


def infantry_fire_number(game: GameState, t: Hex, side: str) -> int:
    """9.2 B (2): the MEN of the NORMAL infantry and CW units, +1 a Tree, +1 an IP point (18.3),
    +1 a NORMAL commander (counted twice), +2 in a Marsh hex."""
    rules = _rules()["defensive_infantry"]
    normal = [u for u in game.at(t) if u.side == side and u.morale == Morale.NORMAL and not u.is_afv]
    terrain = game.board.terrain(t)
    total = sum(u.men for u in normal) * int(rules["per_man"])
    total += terrain.trees * int(rules["per_tree"])
    total += game.improved_positions.get(t, 0) * int(rules["per_ip_point"])
    total += sum(1 for u in normal if u.kind == "commander") * int(rules["per_normal_commander"])
    total += int(rules["marsh"]) if terrain.marsh else 0
    return total


def _infantry_fire(game: GameState, afv: Unit, t: Hex) -> Events:
    """9.2 B: the PC of the highest PR NORMAL infantry unit; passed, three dice at most the number
    of (2) destroy the AFV, its Wreck in the overrun hex, 'with no loss to the defenders'. Always
    tried (R140)."""
    enemy = other(afv.side)
    normal = [u for u in game.at(t) if u.side == enemy and u.kind in INFANTRY and u.morale == Morale.NORMAL]
    if not normal:
        return [
            {"event": "overrun infantry fire", "hex": game.label_of(t), "why": "no NORMAL infantry", "rule": "9.2 B"}
        ]
    firer = max(normal, key=lambda u: (u.pr, u.id))
    check = performance_check(game.dice, firer.pr)
    events: Events = [
        {"event": "pc", "unit": firer.id, "for": "defensive infantry fire", "check": check.describe(), "rule": "9.2 B"}
    ]
    if not check.passed:
        return events
    number = infantry_fire_number(game, t, enemy)
    dice = game.dice.roll(int(_rules()["defensive_infantry"]["dice"]))
    combat_rolled(game)
    destroyed = sum(dice) <= number
    events.append(
        {
            "event": "overrun infantry fire",
            "hex": game.label_of(t),
            "number": number,
            "dice": list(dice),
            "destroyed": destroyed,
            "rule": "9.2 B, 18.3",
        }
    )
    if destroyed:
        events += destroy_afv(game, afv, "9.2 B")
        game.active = ()
    return events


def _afv_attack(game: GameState, afv: Unit, t: Hex) -> Events:
    """9.2 C: two dice for each defending unit, +1 a Tree, +1 an IP point (18.3), +1 if ALL the
    units in the hex are PINNED or SUPPRESSED (R141: as C begins); at most the AFV's Overrun factor
    eliminates (R142: a CW too, whole), else SUPPRESSED and DOWN through the Cumulative Combat
    Results Table; 18.4 in an IP hex: NORMAL units PINNED instead, PINNED ones SUPPRESSED,
    SUPPRESSED ones remain so."""
    rules = _rules()["afv_attack"]
    enemy = other(afv.side)
    defenders = sorted((u for u in game.at(t) if u.side == enemy), key=lambda u: u.id)
    points = game.improved_positions.get(t, 0)
    bonus = game.board.terrain(t).trees * int(rules["per_tree"]) + points * int(rules["per_ip_point"])
    if defenders and all(u.morale != Morale.NORMAL for u in defenders):
        bonus += int(rules["all_pinned_or_suppressed"])
    factor = int(afv.value("overrun", 0))
    events: Events = []
    for unit in defenders:
        if not unit.on_map:
            continue
        dice = game.dice.roll(int(rules["dice"]))
        combat_rolled(game)
        total = sum(dice) + bonus
        eliminated = total <= factor
        events.append(
            {
                "event": "overrun attack",
                "unit": afv.id,
                "target": unit.id,
                "dice": list(dice),
                "total": total,
                "overrun": factor,
                "eliminated": eliminated,
                "rule": "9.2 C, 18.3",
            }
        )
        if eliminated:
            events += eliminate(game, unit, "9.2 C")
        elif points and unit.morale == Morale.SUPPRESSED:  # 18.4: 'SUPPRESSED ones remain so'
            game.changing(unit).state = State.DOWN
            events.append(
                {"event": "result", "unit": unit.id, "result": "S", "detail": "remains SUPPRESSED", "rule": "18.4"}
            )
        elif points and unit.morale == Morale.NORMAL:  # 18.4: 'not SUPPRESSED but are only PINNED'
            events += apply_result(game, unit, "P", "18.4")
        else:
            events += apply_result(game, unit, "S", "9.2 C")
    return events


# -- 9.33, 9.34: the accompanying infantry ----------------------------------------------------


def _immediate_assault(game: GameState, infantry: list[Unit], t: Hex) -> Events:
    """9.33: 'If any SUPPRESSED enemy units are still in the hex the overrunning infantry conduct an
    IMMEDIATE assault (17.0) and the attackers do not take a PC to do so'; NORMAL ones only (17.13,
    R144), against every enemy unit in the hex (17.0 b); 9.34: they have then completed their part
    in this Player Turn (R145). The fight is assault.py's; its losses are chosen as in the Assault
    Phase (`remove`)."""
    enemy = other(infantry[0].side)
    defenders = [u for u in game.at(t) if u.side == enemy]
    attackers = [u for u in infantry if u.morale == Morale.NORMAL]
    if not attackers or not any(u.morale == Morale.SUPPRESSED for u in defenders):
        return []
    attackers = [game.changing(u) for u in attackers]
    for unit in attackers:
        unit.extra["assaulted"] = True  # 9.34, assault.eligible: no assault in the Assault Phase
        unit.fired = True  # 9.34 (R145): no fire either for the rest of the Player Turn
    label = game.label_of(t)
    start_fight(game, infantry[0].side, enemy, label, attackers, defenders)
    events: Events = [
        {"event": "assault", "units": [u.id for u in attackers], "hex": label, "why": "no PC", "rule": "9.33, 17.0"}
    ]
    return events + run_fight(game) + _assault_over(game)


def _assault_over(game: GameState) -> Events:
    """Once the immediate assault is over: 17.32's cleared hexes are the Assault Phase's, not this."""
    if not game.assault.get("fight"):
        game.assault.pop("cleared", None)
        game.to_act = mover_side(game)
    return []
