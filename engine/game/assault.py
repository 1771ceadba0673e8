"""Assault (17.0): the Assault markers placed at the end of a movement phase and the Assault Phase.

17.0: "At the end of the Movement and Reaction Movement Phases the Phasing and Non-phasing
Players (respectively) place Assault markers on their infantry units ... The arrow on the marker
must point toward the adjacent hex to be assaulted." One marker a hex (R105): `mark UNIT HEX`
puts it on UNIT's hex, pointing at HEX. Markers are public and go at the end of the Assault Phase.

In the Assault Phase (6.0 G) the phasing side conducts all its assaults, then the other side
(play.py: `done`). Per marked hex, one action: `assault UNITS HEX` (17.12: each unit its own PC,
+1) and, with a leader in the stack, `lead LEADER+UNITS HEX` (17.12: the leader's PC for the
whole stack). The units that pass move into the hex and the assault is resolved at once (17.0
a-f): the initial round in 17.21's sequence, 17.22, then simultaneous rounds until one side is
left; 17.23's losses are chosen by their owner (`remove UNIT`, R109); the survivors go DOWN.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geometry.movement import Morale, State
from engine.hexgrid import Hex
from engine.model.tables import table_values

from .actions import DONE, LEAD, Action, IllegalAction, verb
from .leaders import may_lead
from .mines import assault_detonation
from .morale import reveal_hex
from .performance import performance_check
from .results import eliminate
from .stacks import over_stacked
from .state import ASSAULT as ASSAULT_PHASE
from .state import MOVEMENT, MOVING_FIRE, GameState, other
from .steps import _movement_cost
from .units import ON_MAP, Unit

Events = list[dict[str, Any]]

MARK = verb("mark")  # 17.0: mark UNIT HEX, an Assault marker on UNIT's hex pointing at the adjacent HEX
ASSAULT = verb("assault")  # 17.0 a, 17.12: assault UNITS HEX, each unit takes its own PC (+1)
REMOVE = verb(
    "remove", arg=False, rule="17.23"
)  # 17.23: remove UNIT, the owner's choice of the unit an assault hit eliminates
# `lead LEADER+UNITS HEX` (actions.LEAD) in the Assault Phase: 17.12, the leader's PC for the stack

INFANTRY = ("infantry", "ft", "commander")  # 17.11, 17.13: no CW, no AFV assaults


# -- Assault markers (17.0, 17.11), at the end of a movement phase -----------------------------


def _markable(unit: Unit, side: str) -> bool:
    """An infantry unit of the moving side, NORMAL (17.13: only NORMAL units may assault)."""
    return unit.side == side and unit.on_map and unit.kind in INFANTRY and unit.morale == Morale.NORMAL


def mark_actions(game: GameState) -> list[Action]:
    """17.0: `mark UNIT HEX` for each hex of the moving side's NORMAL infantry without a marker
    (R105: one a hex), toward each adjacent hex its infantry may enter; UNIT is the hex's first
    such unit by id. Every hex's marks are kept for the phase while no unit changes (a mark of
    `changed_since`: a reveal or a crew replacement changes units, a marker none), where each
    listing made a key of every unit of the side; the hexes marked since are left out (a marker
    changes no other hex's marks): a closing lists them after every marker."""
    side = game.to_act
    last = game.caches.get("marks")  # (mark, side, every hex's marks)
    changed, mark = game.changed_since(last[0] if last is not None else None, "marks")
    if last is not None and changed is not None and not changed and last[1] == side:
        every = last[2]
    else:
        every = _every_mark(game, side)
    game.caches["marks"] = (mark, side, every)
    markers = game.assault_markers
    return [action for h, actions in every if h not in markers for action in actions]


def _every_mark(game: GameState, side: str) -> list[tuple[Hex, list[Action]]]:
    first: dict[Hex, Unit] = {}
    for unit in sorted(game.side_units(side), key=lambda u: u.id):
        if unit.hex is not None and _markable(unit, side):
            first.setdefault(unit.hex, unit)
    return [(h, _marks(game, h, unit)) for h, unit in sorted(first.items(), key=lambda item: item[1].id)]


def _marks(game: GameState, h: Hex, unit: Unit) -> list[Action]:
    """The unit's `mark` actions toward the hexes next to h its mover may enter, in order: those
    hexes kept per board by h and the mover, the actions by h, the unit and its state (all 8.5's
    chart reads of a NORMAL infantry unit's mover: UP or not; never an AFV), where each movement
    phase's end asked every marking unit's mover and its hexes' actions again (the game never
    edits the terrain)."""
    caches = game.board.caches
    found: dict[tuple[Hex, str, str], list[Action]] = caches.setdefault("assault_marks", {})
    key = (h, unit.id, unit.state)
    marks = found.get(key)
    if marks is None:
        mover = unit.mover(MOVEMENT)
        hexes: dict[tuple[Hex, Any], list[Hex]] = caches.setdefault("assault_mark_hexes", {})
        near = hexes.get((h, mover))
        if near is None:
            near = [n for n in game.neighbours(h) if _movement_cost(game, h, n, mover) is not None]
            near = hexes[(h, mover)] = sorted(near, key=game.label_of)
        ids = (unit.id,)  # made here, not by `hex_actions`: these are kept per board, not per phase
        marks = found[key] = [Action(MARK, ids, game.label_of(n)) for n in near]
    return marks


def apply_mark(game: GameState, action: Action) -> Events:
    """17.0: the marker is placed (closing.py checked the action is open). R105: placing it on a
    hidden hex reveals the units there (the marker is public and sits on them)."""
    unit = game.unit(action.units[0])
    assert unit.hex is not None
    target = game.hex(action.arg)
    game.assault_markers[unit.hex] = (unit.side, target)
    events: Events = [
        {
            "event": "assault marker",
            "hex": game.label_of(unit.hex),
            "toward": action.arg,
            "side": unit.side,
            "rule": "17.0",
        }
    ]
    if unit.hex in game.secrets[unit.side].hidden_hexes:
        events += reveal_hex(game, unit.side, unit.hex, "an Assault marker is placed on it (R105)")
    return events


# -- the Assault Phase (6.0 G, 17.0) -----------------------------------------------------------


def assault_actions(game: GameState) -> list[Action]:
    """An assault under way: its owner's losses to choose (17.23). Otherwise one `assault` per
    marked hex of the side to act (and a `lead` per leader there, 17.12), then `done`."""
    fight = game.assault.get("fight")
    if fight:
        alive = fight["attackers"] if game.to_act == fight["side"] else fight["defenders"]
        return [Action(REMOVE, (i,)) for i in sorted(alive)]
    return _phase_actions(game)


def _phase_actions(game: GameState) -> list[Action]:
    """Each marker's designations, kept for the phase with a mark of `changed_since` and worked out
    again only for a marker where what they read changed: a unit that stood in its hex or the
    target hex when they were worked out, or stands there now, changed since (every change of a
    unit, its place included, is one of `changing`), or 17.32's clearing or a Wreck of the target
    hex (8.62). Asked of the side's few markers at each listing, not of every unit there; with no
    unit changed and the same markers, clearings and Wrecks, the last listing is offered again
    (`apply_assault` and `done` list it again to check the choice)."""
    side = game.to_act
    # (mark, marker -> (ids there, cleared, Wreck, designations), (side, markers, clearings, Wrecks, listing))
    last = game.caches.get("designations")
    changed, mark = game.changed_since(last[0] if last is not None else None, "designations")
    clearing, wrecks = game.assault.get("cleared") or {}, game.wrecks  # 17.32; 8.62
    kept: dict[tuple[Hex, Hex], tuple[frozenset[str], Any, bool, list[Action]]] = {}
    if last is not None and changed is not None:
        kept = last[1]
        if not changed and last[2][:4] == (side, game.assault_markers, clearing, wrecks):
            game.caches["designations"] = (mark, kept, last[2])
            return list(last[2][4])
        entered = {game.units[i].hex for i in changed}
    checked = {}  # the side's markers only: the other side's go, as the changes since are not asked of them
    actions: list[Action] = []
    for h, (owner, target) in sorted(game.assault_markers.items()):
        if owner == side:
            cleared, wreck = clearing.get(game.label_of(target)), target in wrecks
            found = kept.get((h, target))
            if (
                found is None
                or found[1] != cleared
                or found[2] != wreck
                or (changed and (h in entered or target in entered or not found[0].isdisjoint(changed)))
            ):
                there = frozenset(u.id for u in (*game.at(h), *game.at(target)))
                found = (there, cleared, wreck, _designations(game, h, target))
            checked[(h, target)] = found
            actions += found[3]
    actions.append(Action(DONE))
    listed = (side, dict(game.assault_markers), dict(clearing), set(wrecks), actions)  # copies: changed in place
    game.caches["designations"] = (mark, checked, listed)
    return list(actions)


def eligible(game: GameState, unit: Unit, target: Hex) -> bool:
    """17.11-17.15 and 9.34: whether the unit may assault `target` now."""
    if not unit.on_map or unit.kind not in INFANTRY or unit.morale != Morale.NORMAL:  # 17.13, 17.15
        return False
    if unit.extra.get("assaulted"):  # 4.0: it has ASSAULTED this Player Turn (9.34: overrun's too)
        return False
    if unit.fired and unit.extra.get("fired_phase") == MOVING_FIRE:  # 17.14
        return bool(unit.extra.get("grenade_target") == game.label_of(target))
    return True


def _stack(game: GameState, h: Hex, side: str, target: Hex) -> list[Unit]:
    """The marked hex's units that may assault, leaders first, then by id, as many as the target
    hex holds with the side's units already there (R107: 8.62's limit, as 17.32 counts it)."""
    units = [u for u in game.at(h) if u.side == side and eligible(game, u, target)]
    units.sort(key=lambda u: (u.kind != "commander", u.id))
    chosen: list[Unit] = []
    for unit in units:
        if not over_stacked(game, side, target, [*chosen, unit]):
            chosen.append(unit)
    return chosen


def _visible_enemy_afv(game: GameState, side: str, target: Hex) -> bool:
    return any(u.side != side and u.is_afv and not u.hidden for u in game.at(target))


def _designations(game: GameState, h: Hex, target: Hex) -> list[Action]:
    side = game.to_act
    if _visible_enemy_afv(game, side, target):  # 17.13: 'A hex containing an enemy AFV may not be assaulted'
        return []
    stack = _stack(game, h, side, target)
    if not stack:
        return []
    ids = tuple(u.id for u in stack)
    label = game.label_of(target)
    actions = [Action(ASSAULT, ids, label)]
    if _cleared(game, side, target):  # 17.32: no PC; `lead` would add nothing
        return actions
    for leader in stack:
        if _leads(leader, stack):
            rest = tuple(u.id for u in stack if u is not leader)
            actions.append(Action(LEAD, (leader.id, *rest), label))
    return actions


def _leads(leader: Unit, stack: list[Unit]) -> bool:
    """17.12 'If the stack contains a leader': a commander (5.1) leads any of them; an acting
    leader (5.2, NORMAL, PR 9 or more) only a stack of his own squad (R106)."""
    if leader.kind == "commander":
        return True
    if leader.kind != "infantry" or leader.pr < _acting_leader_pr() or len(stack) < 2:
        return False
    return all(may_lead(leader, u) for u in stack if u is not leader)


@cache
def _acting_leader_pr() -> int:
    return int(table_values("combat")["leaders"]["acting_leader_min_pr"])


def _cleared(game: GameState, side: str, target: Hex) -> bool:
    """17.32: an assault of this phase eliminated all the defenders of the hex and no enemy unit
    is seen there."""
    cleared = game.assault.get("cleared", {})
    if cleared.get(game.label_of(target)) != side:
        return False
    return not any(u.side != side and not u.hidden for u in game.at(target))


def apply_assault(game: GameState, action: Action) -> Events:
    """A designated assault (17.0 a-f) or, during one, a loss its owner chooses (17.23)."""
    if action not in assault_actions(game):
        raise IllegalAction(f"{action.text()} is not open in the Assault Phase", "17.0")
    if action.verb == REMOVE:
        return _remove(game, game.unit(action.units[0]))
    return _designate(game, action)


def _designate(game: GameState, action: Action) -> Events:
    units = [game.changing(i) for i in action.units]  # the assaulters change: this state's own (copy-on-write)
    side, origin, target = units[0].side, units[0].hex, game.hex(action.arg)
    assert origin is not None
    del game.assault_markers[origin]
    label = action.arg
    events: Events = [
        {
            "event": "assault",
            "units": list(action.units),
            "from": game.label_of(origin),
            "hex": label,
            "rule": "17.0 a",
        }
    ]
    enemy = other(side)
    if any(u.side == enemy and u.is_afv for u in game.at(target)):  # a hidden AFV: 17.13, R110
        events += _revealed(game, enemy, target, "an assault was designated against a hex with an AFV (R110)")
        events.append({"event": "no assault", "hex": label, "why": "an enemy AFV is there", "rule": "17.13"})
        return events
    if _cleared(game, side, target):  # 17.32: 'These units are NOT required to take a PC'
        events.append({"event": "moved in", "units": list(action.units), "hex": label, "rule": "17.32"})
        for unit in units:
            unit.extra["assaulted"] = True
        events += _move_in(game, units, target)
        events += _detonate(game, target, units)
        return events
    passed = _checks(game, action, units, events)
    if not passed:
        events.append({"event": "no assault", "hex": label, "why": "no unit passed its PC", "rule": "17.12"})
        return events
    events += _move_in(game, passed, target)
    defenders = [u for u in game.at(target) if u.side == enemy]
    if not defenders:  # an empty hex: the units move in (17.0 a) and go DOWN (17.0 f)
        return events + _finish_empty(game, passed, target)
    start_fight(game, side, enemy, label, passed, defenders)
    events.append(
        {
            "event": "assault fight",
            "hex": label,
            "attackers": len(passed),
            "defenders": len(defenders),
            "rule": "17.0 b",
        }
    )
    return events + run_fight(game)


def _checks(game: GameState, action: Action, units: list[Unit], events: Events) -> list[Unit]:
    """17.12: each unit's modified PC (+1), or the leader's for the whole stack; every unit that
    took it (or was led) has ASSAULTED (4.0)."""
    for unit in units:
        unit.extra["assaulted"] = True
    if action.verb == LEAD:
        leader = units[0]
        check = performance_check(game.dice, leader.pr, "assault")
        events.append(
            {
                "event": "assault check",
                "unit": leader.id,
                "check": check.describe(),
                "for": "the stack",
                "rule": "17.12",
            }
        )
        return list(units) if check.passed else []
    passed = []
    for unit in units:
        check = performance_check(game.dice, unit.pr, "assault")
        events.append({"event": "assault check", "unit": unit.id, "check": check.describe(), "rule": "17.12"})
        if check.passed:
            passed.append(unit)
    return passed


def _move_in(game: GameState, units: list[Unit], target: Hex) -> Events:
    """17.0 a: 'Units that pass are moved into the assaulted hex'; 24.22: leaving or entering the
    side's own hidden hex reveals it."""
    side = units[0].side
    events: Events = []
    origin = units[0].hex
    if origin is not None and origin in game.secrets[side].hidden_hexes:
        events += reveal_hex(game, side, origin, f"{units[0].id} assaulted out of it")
    for unit in units:
        game.relocate(unit, ON_MAP, target)
    events.append({"event": "moved", "units": [u.id for u in units], "hex": game.label_of(target), "rule": "17.0 a"})
    if target in game.secrets[side].hidden_hexes:
        events += reveal_hex(game, side, target, f"{units[0].id} moved into it")
    return events


def _finish_empty(game: GameState, units: list[Unit], target: Hex) -> Events:
    events = _down(game, units)
    game.control[target] = units[0].side
    return events + _detonate(game, target, units)


def _down(game: GameState, units: list[Unit]) -> Events:
    """17.0 f: 'Place all surviving units in the DOWN state.'"""
    for unit in units:
        game.changing(unit).state = State.DOWN
    return [{"event": "down", "units": [u.id for u in units], "rule": "17.0 f"}] if units else []


def _detonate(game: GameState, target: Hex, units: list[Unit]) -> Events:
    """19.2: 'In an assault, the mine detonation occurs after the completion of the assault
    resolution' (mines.py), for the assaulting units that stand in the hex."""
    standing = [u for u in (game.unit(u.id) for u in units) if u.on_map and u.hex == target]  # as they are now
    return assault_detonation(game, target, standing) if standing else []


def _revealed(game: GameState, side: str, h: Hex, why: str) -> Events:
    """24.23: hidden units in an assaulted hex are placed on the map (when the assault is resolved)."""
    if h not in game.secrets[side].hidden_hexes:
        return []
    events = reveal_hex(game, side, h, why)
    for event in events:
        event["rule"] = "24.23"
    return events


# -- assault fire (17.2) -----------------------------------------------------------------------


def _alive(game: GameState, ids: list[str]) -> list[Unit]:
    return [game.unit(i) for i in ids if game.unit(i).on_map]


def start_fight(
    game: GameState, side: str, enemy: str, label: str, attackers: list[Unit], defenders: list[Unit]
) -> None:
    """An assault fight begins in hex `label`: the initial round's first step (17.21 a); `run_fight`
    resolves it (an overrun's immediate assault, 9.33, starts one too)."""
    game.assault["fight"] = {
        "side": side,
        "defender": enemy,
        "hex": label,
        "attackers": [u.id for u in attackers],
        "defenders": [u.id for u in defenders],
        "round": 1,
        "step": "a",
        "hits": {},
    }


def run_fight(game: GameState) -> Events:
    """Resolve the assault under way until its owner must choose a loss (17.23) or one side is
    left (17.0 d, e); then 17.0 f."""
    fight = game.assault["fight"]
    events: Events = []
    while True:
        if fight["hits"]:
            chooser = _chooser(game, fight, events)
            if chooser is not None:
                game.to_act = chooser
                return events
            continue
        attackers, defenders = _alive(game, fight["attackers"]), _alive(game, fight["defenders"])
        if not attackers or not defenders:
            return events + _finish(game, attackers, defenders)
        step = fight["step"]
        if step == "a":  # 17.21 a: 'All NORMAL status defenders fire and the results are applied immediately'
            events += _fire(game, fight, [u for u in defenders if u.morale == Morale.NORMAL], "17.21 a")
            fight["step"] = "b"
        elif step == "b":  # 17.21 b: PINNED defenders and all attackers, results applied together
            pinned = [u for u in defenders if u.morale == Morale.PINNED]
            events += _fire(game, fight, [*pinned, *attackers], "17.21 b")
            fight["step"] = "c"
        elif step == "c":  # 17.21 c: 'All SUPPRESSED defenders ... fire and the results are applied immediately'
            events += _fire(game, fight, [u for u in defenders if u.morale == Morale.SUPPRESSED], "17.21 c")
            fight["step"] = "normal"
        elif step == "normal":  # 17.22: 'all surviving PINNED and SUPPRESSED defenders are placed in NORMAL status'
            returned = [u for u in defenders if u.morale != Morale.NORMAL]
            for unit in returned:
                game.changing(unit).morale = Morale.NORMAL
            if returned:
                events.append({"event": "normal", "units": [u.id for u in returned], "rule": "17.22"})
            fight["step"] = "round"
        else:  # 17.0 e, 17.22: subsequent rounds, simultaneous
            if all(int(u.value("assault_rating", 0)) < 1 for u in [*defenders, *attackers]):
                raise ValueError(f"no unit in the assault of {fight['hex']} has an Assault factor (counters.yaml)")
            fight["round"] += 1
            events += _fire(game, fight, [*defenders, *attackers], "17.0 e")


def _fire(game: GameState, fight: dict[str, Any], firing: list[Unit], rule: str) -> Events:
    """17.23: one die per unit (17.24: a CW once, whatever its crew); at most its Assault factor
    eliminates an enemy unit. The hits are counted here and removed by their owner (`_chooser`)."""
    dice = int(_assault_table()["dice"])
    events: Events = []
    for unit in firing:
        roll = game.dice.roll(dice)
        rating = int(unit.value("assault_rating", 0))
        hit = sum(roll) <= rating
        events.append(
            {
                "event": "assault fire",
                "unit": unit.id,
                "round": fight["round"],
                "roll": sum(roll),
                "assault_rating": rating,
                "hit": hit,
                "rule": f"{rule}, 17.23",
            }
        )
        if hit:
            enemy = fight["defender"] if unit.side == fight["side"] else fight["side"]
            fight["hits"][enemy] = fight["hits"].get(enemy, 0) + 1
    return events


@cache
def _assault_table() -> dict[str, Any]:
    table: dict[str, Any] = table_values("combat")["assault"]
    return table


def _chooser(game: GameState, fight: dict[str, Any], events: Events) -> str | None:
    """The side that must choose a loss now (the defender's owner first), or None when a side's
    hits take all its units in the assault (no choice: all are eliminated)."""
    for side in (fight["defender"], fight["side"]):
        n = fight["hits"].get(side, 0)
        if not n:
            continue
        alive = _alive(game, fight["attackers"] if side == fight["side"] else fight["defenders"])
        if n >= len(alive):
            for unit in alive:
                events += eliminate(game, unit, "17.23")
            _forget(fight, alive)
            del fight["hits"][side]
            return None
        return str(side)
    fight["hits"] = {}
    return None


def _forget(fight: dict[str, Any], units: list[Unit]) -> None:
    gone = {u.id for u in units}
    fight["attackers"] = [i for i in fight["attackers"] if i not in gone]
    fight["defenders"] = [i for i in fight["defenders"] if i not in gone]


def _remove(game: GameState, unit: Unit) -> Events:
    """17.23: 'The owning player decides which of his units he will remove from play.'"""
    fight = game.assault["fight"]
    events = eliminate(game, unit, "17.23")
    _forget(fight, [unit])
    fight["hits"][unit.side] -= 1
    if not fight["hits"][unit.side]:
        del fight["hits"][unit.side]
    return events + run_fight(game)


def _finish(game: GameState, attackers: list[Unit], defenders: list[Unit]) -> Events:
    """17.0 f: the survivors DOWN; the hex's control (R82: the side left in it, R111); 24.23:
    hidden defenders placed on the map; 19.2: mines; 17.32: a hex cleared for the other assaults."""
    fight = game.assault.pop("fight")
    target = game.hex(fight["hex"])
    side = fight["side"]
    events = _down(game, [*attackers, *defenders])
    held = side if attackers or not defenders else fight["defender"]
    game.control[target] = held
    events.append(
        {
            "event": "assault resolved",
            "hex": fight["hex"],
            "held by": held if attackers or defenders else None,
            "rounds": fight["round"],
            "rule": "17.0 d",
        }
    )
    events += _revealed(game, fight["defender"], target, "the assault is resolved")
    if attackers:
        game.assault.setdefault("cleared", {})[fight["hex"]] = side
    if (
        attackers and game.phase == ASSAULT_PHASE
    ):  # an overrun's assault (9.33): its mines went off as it entered (19.26)
        events += _detonate(game, target, attackers)
    game.to_act = side
    return events


def end_assault_phase(game: GameState) -> Events:
    """17.0: the Assault markers are removed at the end of the Assault Phase; what a unit
    ASSAULTED this Player Turn is forgotten (4.0)."""
    removed = len(game.assault_markers)
    game.assault_markers.clear()
    game.assault = {}
    for unit in game.changing_all([u for u in game.units.values() if "assaulted" in u.extra]):
        unit.extra.pop("assaulted")  # copy-on-write: only the units that change
    return [{"event": "assault markers removed", "markers": removed, "rule": "17.0"}] if removed else []
