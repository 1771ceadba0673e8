"""The Movement Phase's order in play (8.0): what may be done now, in 8.0's order (AFVs alone, then
AFV/infantry stacks, then the rest), the moving unit or stack going on or stopping, and why an
action is refused. One unit or stack moves at a time (8.0: "Units are always moved individually"
but for 8.3 and 8.4); starting another ends its movement. Mines in a hex go off as it is entered
(19.2: mines.entering_detonation); then the other side is asked whether it reacts (an interrupt:
opportunity fire, 13.0). An MG or ATG entering the map chooses its facing first (R161).

What it decides with: the side's starts, hex by hex (`starts`), steps and costs (`steps`), facing
(`facing`, 8.7), leaders (`leaders`, 8.3), stacks and stacking (`stacks`, 8.4, 8.62), Wrecks
(`wrecks`, 8.65).
"""

from __future__ import annotations

from typing import Any

from engine.geometry.movement import ONE_HEX, Morale, State
from engine.hexgrid import DIRECTIONS, parse_label
from engine.model.tables import movement_allowances

from .actions import DETACH, FACE, LEAD, MOVE, PUSH, STATE, STOP, Action, IllegalAction
from .facing import _face, _facing_hexes, _may_turn, _turn_cost, _turns, facing_index, turns_only
from .leaders import _detach, _lead, _may_lead
from .performance import performance_check
from .stacks import AFV_ALONE, _groups, _order, over_stacked, stacking_problems
from .starts import _starts
from .state import MOVEMENT, REACTION, GameState
from .steps import (
    _dynamic,
    _may_change_state,
    _may_enter,
    _movement_cost,
    _short_crewed,
    _state_change_cost,
    _step,
    _steps,
    budget,
    left,
    may_start,
    mover_side,
    open_entry_hexes,
    pc_needed,
    restricted,
)
from .units import ON_MAP, WAITING, Unit
from .wrecks import _declare_push, _push_actions


def stacking_holds(game: GameState, side: str) -> bool:
    """8.62 bars the end of the phase: a hex of `side` over the limit holds a unit that may still
    move out of it (R115: a unit a mine attack, 19.27, or fire, 13.18, stopped in a hex it was
    passing through, R89, over-fills it for good once no unit there may move; the moving stack
    itself: play's `_must_move_on`)."""
    problems = stacking_problems(game, side)
    if not problems:  # mostly none
        return False
    at = game.occupied()
    return any(any(u.side == side and may_start(game, u) for u in at[h]) for h in problems)


def movement_actions(game: GameState, about: Action | None = None) -> list[Action]:
    """Every movement choice open now; with `about`, those of the hex its units stand in only
    (enough to tell whether that action is legal: choices of one hex never depend on another's)."""
    side = mover_side(game)
    active = [game.unit(i) for i in game.active]
    actions: list[Action] = []
    if active:
        actions += _continue(game, active)
    if not active or not _stuck_over_full(game, active):
        actions += _starts(game, side, about)
        actions += _push_actions(game, side)
    return actions


def movement_allows(game: GameState, action: Action) -> bool:
    """`action in movement_actions(game, action)`, the moving stack's choices asked first: the
    parts a move goes on with are listed only as far as they are needed."""
    active = [game.unit(i) for i in game.active]
    if active and action in _continue(game, active):
        return True
    if active and _stuck_over_full(game, active):
        return False
    side = mover_side(game)
    return action in _starts(game, side, action) or action in _push_actions(game, side)


def _stuck_over_full(game: GameState, active: list[Unit]) -> bool:
    """The active stack stands where it may not end its move (8.62), or an AFV in the hex it has
    just overrun (9.0: 'and exiting the hex'): it must move on."""
    h = active[0].hex
    if active[0].extra.get("must_exit") == game.player_turns:
        return True
    return h is not None and active[0].on_map and over_stacked(game, active[0].side, h)


def _continue(game: GameState, active: list[Unit]) -> list[Action]:
    """What the moving unit or stack may do next; kept by the phase and its units until units move
    (`GameState.kept`, which goes with what stands in and around its hex). Each step moves the
    stack, so it is asked again only within a decision (the listing, then play's check): a key of
    who stands around the hex, as a hex's starts have, cost more than it kept."""
    h = active[0].hex
    if h is None or not active[0].on_map:
        return _continue_now(game, active)
    key = ("continue", game.phase, game.phasing, game.turn, h, tuple([_dynamic(u) for u in active]))
    found: list[Action] = game.kept(key, lambda: _continue_now(game, active))
    return found


def _continue_now(game: GameState, active: list[Unit]) -> list[Action]:
    ids = tuple(u.id for u in active)
    actions = game.hex_actions(MOVE, ids, _steps(game, active))
    if _stuck_over_full(game, active):  # R89: it moves on, and spends no MPs it needs for that
        turns = _turns_leading_on(game, active)
        if actions or turns:
            return actions + turns
        return [Action(STOP, ids)]  # every way out barred since it entered (24.23): 8.62 then holds the phase
    lead = active[0]
    if len(active) == 1 and lead.is_afv and not lead.immobilized:
        actions += game.hex_actions(FACE, ids, _turns(game, lead))
    if len(active) == 1 and lead.faces_hexside and not lead.is_afv and _may_turn(lead) and not lead.extra.get("turned"):
        actions += game.hex_actions(FACE, ids, _facing_hexes(game, lead))
    if len(active) == 1 and _may_change_state(game, lead):
        actions.append(Action(STATE, ids, "down" if lead.state == State.UP else "up"))
    actions.append(Action(STOP, ids))
    if len(active) > 1:
        afv = next((u for u in active if u.is_afv), None)
        if afv is not None and not afv.immobilized:  # the AFV turns; the infantry rides along (8.43)
            actions += game.hex_actions(FACE, (afv.id,), _turns(game, afv))
        for unit in active:  # 8.43: 'The infantry units may cease movement in any hex', but not those
            if not unit.is_afv and unit.led_by is None and not unit.extra.get("detached"):  # led (8.3 B, C)
                actions.append(Action(STOP, (unit.id,)))
    return actions


def _turns_leading_on(game: GameState, active: list[Unit]) -> list[Action]:
    """R89: an AFV in a hex it may not stay in turns only to a front it can still leave by (8.74)."""
    afv = next((u for u in active if u.is_afv and not u.immobilized), None)
    if afv is None or afv.hex is None:
        return []
    turns = []
    for t in _turns(game, afv):
        new = facing_index(afv.hex, t)
        assert new is not None
        cost = _movement_cost(game, afv.hex, t, afv.mover(game.phase)) if t in game.board.hexes else None
        if cost is not None and cost + _turn_cost(afv, new) <= left(game, afv) and _may_enter(game, active, t):
            turns.append(Action(FACE, (afv.id,), game.label_of(t)))
    return turns


def apply_movement(game: GameState, action: Action) -> list[dict[str, Any]]:
    if not movement_allows(game, action):
        raise _refusal(game, action)
    units = [game.changing(i) for i in action.units]  # the movers change: this state's own (copy-on-write)
    events: list[dict[str, Any]] = []
    if action.verb == LEAD:  # a PC to move begins another move: the one under way ends (8.0)
        return end_active(game) + _lead(game, units[0])
    if action.verb == DETACH:
        return end_active(game) + _detach(game, units, game.unit(action.arg))
    if action.verb == PUSH:
        return end_active(game) + _declare_push(game, units[0], game.hex(action.arg))
    if len(action.units) == 1 and len(game.active) > 1 and action.units[0] in game.active:
        return _within_stack(game, units[0], action)
    if list(action.units) != list(game.active):
        events += end_active(game)
        events += _begin(game, units)
        if any(u.move_done for u in units):
            return events  # a failed PC: the unit has MOVED and does nothing else this phase (4.0)
    if action.verb == STOP:
        return events + end_active(game)
    if action.verb == STATE:
        unit = units[0]
        unit.mp_spent += _state_change_cost(unit)
        unit.state = State(action.arg)
        unit.extra["state_changed"] = True  # R156
        return [*events, {"event": "state", "unit": unit.id, "state": action.arg, "rule": "3.13"}]
    if action.verb == FACE:  # the hex across the new frontal hexside may lie off the map
        return events + _face(game, units[0], parse_label(action.arg, game.board.offset))
    return events + _step(game, units, game.hex(action.arg))


# 8.1: each kind's Movement Allowance
_ALLOWANCE_RULES = {"infantry": "8.11", "commander": "8.11", "cw": "8.12", "afv": "8.13", "ft": "8.14"}


def _refusal(game: GameState, action: Action) -> IllegalAction:
    """Why a movement phase's action (one that is not among `movement_actions`) is refused, with the
    rule that refuses it: worked out only for a refusal, so listing and playing cost nothing more."""
    for unit_id in action.units:
        if unit_id not in game.units:
            return IllegalAction(f"{action.text()}: the scenario has no unit {unit_id}", "24.1")
    units = [game.unit(i) for i in action.units]
    if not units:
        return IllegalAction(f"{action.text()}: name the units it concerns", _rule_for(action))
    if action.verb == DETACH:
        return _detach_refusal(game, action, units)
    for unit in units:
        why = _unit_refusal(game, action, unit)
        if why is not None:
            return IllegalAction(f"{action.text()}: {unit.id} {why[0]}", why[1])
    if action.verb == LEAD and action.arg:
        return IllegalAction(f"{action.text()}: a leader's PC to move names no hex", "8.3 A")
    if action.verb == LEAD:
        return _lead_refusal(game, units[0])
    if action.verb in (MOVE, FACE, PUSH) and not action.arg:
        return IllegalAction(f"{action.text()}: name the hex", _rule_for(action))
    if action.verb in (MOVE, FACE, PUSH) and not _is_label(game, action.arg):
        return IllegalAction(f"{action.text()}: {action.arg} is not a hex of the map", _rule_for(action))
    if action.verb == STOP and units[0].extra.get("moving"):
        return IllegalAction(f"{action.text()}: units led 'remain with the leader throughout'", "8.3 B")
    if action.verb == STOP:
        return IllegalAction(f"{action.text()}: only a unit that is moving stops", "8.0")
    if action.verb == STATE and action.arg not in ("up", "down"):
        return IllegalAction(f"{action.text()}: a unit's combat state is up or down", "3.1")
    if action.verb == STATE and not units[0].may_change_state:
        return IllegalAction(f"{action.text()}: only a NORMAL status unit changes its state at will", "3.27, 11.43")
    if action.verb == STATE:
        if units[0].state == action.arg:
            return IllegalAction(f"{action.text()}: {units[0].id} is {action.arg} already", "3.13")
        if budget(game, units[0]) == ONE_HEX:
            return IllegalAction(f"{action.text()}: moving one hex, it changes its state once, before", "3.13, R156")
        cost, rest = _state_change_cost(units[0]), left(game, units[0])
        return IllegalAction(f"{action.text()}: a change costs {cost:g} MPs, {units[0].id} has {rest:g} left", "3.13")
    if action.verb == MOVE:
        return _move_refusal(game, action, units)
    if action.verb == FACE:
        return _face_refusal(game, action, units[0])
    return IllegalAction(f"{action.text()} is not a legal move now", _rule_for(action))


def _unit_refusal(game: GameState, action: Action, unit: Unit) -> tuple[str, str] | None:
    """What bars the unit itself from the action in this phase, if anything: the first of the rules."""
    side = mover_side(game)
    if unit.side != side:
        return f"is {unit.side}: the {side} side moves in this phase", "6.0 C" if game.phase == MOVEMENT else "6.0 D"
    if unit.where not in (ON_MAP, WAITING):
        return f"is {unit.where}", "11.43" if unit.where == "eliminated" else "20.1"
    if unit.morale == Morale.SUPPRESSED:
        return "is SUPPRESSED: 'Suppressed units of any type may not move'", "3.22, 8.15"
    if unit.immobilized:
        return "is immobilized for the remainder of the game", "8.54, 8.55"
    if game.phase == MOVEMENT and unit.extra.get("support_fired"):
        return "fired in the Support Fire Phase and may not move in the Movement Phase", "8.21"
    if restricted(game, unit):
        return "may not move yet: a restriction of the scenario", "24.1"
    if unit.extra.get("push") is not None:
        return "spends its Movement Phase pushing a Wreck", "8.65"
    if unit.move_done:
        return "has MOVED: its movement is over for this phase", "4.0, 8.0"
    if unit.kind == "cw" and _short_crewed(unit) and not (action.verb == FACE and turns_only(game, unit)):
        return "is short of its crew: 'units without a full crew may never move'", "8.12"
    if unit.morale == Morale.PINNED and game.phase == REACTION and unit.kind in ("cw", "ft"):
        return "is PINNED: it may not move in the Reaction Movement Phase", "3.22, " + _ALLOWANCE_RULES[unit.kind]
    if unit.where == WAITING and not open_entry_hexes(game, unit):
        return "has no entry open in this phase", "24.1"
    if unit.led_by not in (None, unit.id, *action.units) and action.verb in (MOVE, FACE, STATE):
        return f"is led by {unit.led_by}: it moves with him, or without him after a modified PC", "8.3 B, 8.3 C"
    return None


def _lead_refusal(game: GameState, leader: Unit) -> IllegalAction:
    if not game.first_shot:
        return IllegalAction(f"lead {leader.id}: before the first shot no unit takes a PC to move", "8.22")
    if not _may_lead(leader):
        return IllegalAction(f"lead {leader.id}: not a commander nor NORMAL infantry of PR 9 or more", "5.1, 5.2")
    if leader.led_by is not None and leader.led_by != leader.id:
        return IllegalAction(f"lead {leader.id}: {leader.led_by} took the PC for him", "8.34")
    if leader.extra.get("lead_pc"):
        return IllegalAction(f"lead {leader.id}: he took his PC for the hex already", "8.3 A")
    return IllegalAction(f"lead {leader.id}: no unit in his hex for him to lead", "8.31, 8.34")


def _detach_refusal(game: GameState, action: Action, units: list[Unit]) -> IllegalAction:
    if action.arg not in game.units:
        return IllegalAction(f"{action.text()}: {action.arg or 'no leader'} is not a leader's id", "8.3 C")
    for unit in units:
        if unit.led_by != action.arg or unit.id == action.arg:
            return IllegalAction(f"{action.text()}: {unit.id} has no PC of {action.arg} passed for it", "8.3 C")
        why = _unit_refusal(game, action, unit)
        if why is not None:
            return IllegalAction(f"{action.text()}: {unit.id} {why[0]}", why[1])
    return IllegalAction(f"{action.text()}: units of different squads move together only with a leader", "5.3, 8.64")


def _is_label(game: GameState, label: str) -> bool:
    try:
        parse_label(label, game.board.offset)
    except ValueError:
        return False
    return True


def _move_refusal(game: GameState, action: Action, units: list[Unit]) -> IllegalAction:
    text, target = action.text(), parse_label(action.arg, game.board.offset)
    first = units[0]
    if len(units) > 1 and not any(sorted(g, key=id) == sorted(units, key=id) for g in _groups(game, units)):
        if any(u.is_afv for u in units) and any(u.kind == "cw" for u in units):
            return IllegalAction(f"{text}: CW units may not move with AFV's", "8.44")
        if any(u.hex != first.hex or u.where != first.where for u in units):
            return IllegalAction(f"{text}: only units stacked together move together", "8.0")
        return IllegalAction(f"{text}: units of different squads move together only with a commander", "5.3, 8.64")
    if len(units) > 1 and any(pc_needed(game, u) for u in units) and not any(u.is_afv for u in units):
        return IllegalAction(f"{text}: a stack moves together after its leader's PC (lead)", "8.3 A, 8.3 B")
    if _order(first, units) < game.stage.get(first.side, AFV_ALONE):
        return IllegalAction(f"{text}: AFVs alone move first, then AFV/infantry stacks, then the rest", "8.0")
    if first.where == WAITING:
        if target not in open_entry_hexes(game, first):
            return IllegalAction(f"{text}: {action.arg} is not one of its entry hexes now", "24.1")
    elif first.hex is None or target not in game.neighbours(first.hex):
        return IllegalAction(f"{text}: {action.arg} is not a hex next to its own", "8.0")
    elif any(u.is_afv for u in units) and any(
        u.facing is not None and target != first.hex + DIRECTIONS[u.facing] for u in units if u.is_afv
    ):
        return IllegalAction(f"{text}: an AFV moves through its frontal hexside", "8.74")
    there = game.at(target)
    if any(u.side != first.side and not u.hidden for u in there):
        return IllegalAction(f"{text}: only an overrun moves into an enemy occupied hex", "8.23, 9.0")
    if any(u.is_afv for u in units) and (target in game.wrecks or any(u.is_afv for u in there)):
        return IllegalAction(f"{text}: an AFV may not enter a hex with another AFV or a Wreck", "8.61, 8.65")
    for unit in units:
        if unit.where == WAITING:
            continue
        assert unit.hex is not None
        cost = _movement_cost(game, unit.hex, target, unit.mover(game.phase))
        if cost is None:
            return IllegalAction(f"{text}: {unit.id} may not enter {action.arg}", "8.5")
        if budget(game, unit) == ONE_HEX:
            return IllegalAction(f"{text}: {unit.id} moves one hex in this phase, and has moved it", "8.11, 8.12, 8.14")
        if cost > left(game, unit) + 1e-9:
            rule = "8.3 C" if unit.allowance_cap is not None else _ALLOWANCE_RULES.get(unit.kind, "8.1")
            return IllegalAction(
                f"{text}: {unit.id} has {left(game, unit):g} MPs left, {action.arg} costs {cost:g}", rule
            )
    if over_stacked(game, first.side, target, units):
        return IllegalAction(f"{text}: more than six men plus one AFV in {action.arg}, with no MPs to leave it", "8.62")
    return IllegalAction(f"{text} is not a legal move now", "8.0")


def _face_refusal(game: GameState, action: Action, unit: Unit) -> IllegalAction:
    text = action.text()
    if not unit.faces_hexside:
        return IllegalAction(f"{text}: {unit.id} has all round facing", "8.7")
    if not _may_turn(unit):
        return IllegalAction(f"{text}: ATG's with a crew strength of 1 or 2 may never change facing", "8.72")
    toward = parse_label(action.arg, game.board.offset)
    if unit.hex is None or facing_index(unit.hex, toward) is None:
        return IllegalAction(f"{text}: {action.arg} is not across a hexside of its hex", "8.7")
    if unit.facing == facing_index(unit.hex, toward):
        return IllegalAction(f"{text}: {unit.id} faces {action.arg} already", "8.7")
    if unit.extra.get("turned"):
        return IllegalAction(f"{text}: {unit.id} has changed its facing in this hex", "8.73, R150")
    if unit.is_afv:
        return IllegalAction(f"{text}: {unit.id} has {left(game, unit):g} MPs left for the turn", "8.74")
    return IllegalAction(f"{text} is not a legal move now", "8.7")


def _rule_for(action: Action) -> str:
    rules = {MOVE: "8.0", FACE: "8.7", STATE: "3.13", LEAD: "8.3", DETACH: "8.3 C", STOP: "8.0", PUSH: "8.65"}
    return rules.get(action.verb, "8.0")


def _within_stack(game: GameState, unit: Unit, action: Action) -> list[dict[str, Any]]:
    """One unit of the moving stack: the AFV turns (8.74), or a unit ceases its movement (8.43)."""
    if action.verb == FACE:
        return _face(game, unit, parse_label(action.arg, game.board.offset))
    return game.stop_moving([unit], "8.43")


def _begin(game: GameState, units: list[Unit]) -> list[dict[str, Any]]:
    """A unit or stack starts to move: the PC of 8.22 where one is due; the movement order (8.0)."""
    events: list[dict[str, Any]] = []
    side = units[0].side
    game.stage[side] = max(game.stage.get(side, AFV_ALONE), _order(units[0], units))
    for unit in units:
        unit.moved = True  # 4.0: MOVE is taking the PC, pass or fail
        if pc_needed(game, unit):
            check = performance_check(game.dice, unit.pr)
            events.append(
                {"event": "pc", "unit": unit.id, "for": "movement", "check": check.describe(), "rule": "8.22"}
            )
            if not check.passed:
                unit.move_done = True
                continue
            unit.extra["pc_passed"] = True
        unit.extra["moving"] = True
        unit.extra.setdefault("free_hexsides", movement_allowances().free_facing_hexsides)
    afv = next((u for u in units if u.is_afv), None)
    if afv is not None and afv.move_done:  # 8.41, 8.43: without the AFV the stack does not go
        for unit in units:
            unit.move_done = True
            unit.extra["moving"] = False
    game.active = tuple(u.id for u in units if not u.move_done)
    return events


def end_active(game: GameState) -> list[dict[str, Any]]:
    """The moving unit or stack ends its move (8.0: starting another, `stop`, the phase's end)."""
    return game.stop_moving([game.unit(i) for i in game.active])
