"""The game's API: `new_game`, `legal_actions`, `apply` (docs/engine.md).

`legal_actions(state)` lists every decision open to `state.to_act`, in a fixed order; `apply`
returns the state after one of them (a copy: the state given is left as it was) or raises
IllegalAction with the reason and the rule. `play(state, action)` does the same in place, for
a bot or a batch that does not keep the states it passed.

The fire phases (6.0 B, E, F) are fire.py's, the Assault Phase (G) assault.py's; after each hex
a unit enters, the other side answers (an interrupt: opportunity fire, 13.0, or `pass`); at the end
of each movement phase the moving side places its Assault markers (17.0) and takes its crew
replacements (20.1): closing.py.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from engine.geometry.movement import State
from engine.model.board import Board
from engine.model.counters import Counters, bundled_counters
from engine.model.scenario import Scenario
from engine.problems import Problem, Severity
from engine.validate.context import ScenarioContext
from engine.validate.runner import validate_document
from engine.validate.verdict_cache import kept_problems

from .actions import (
    DETACH,
    DONE,
    ENTRY,
    FACE,
    LEAD,
    MOVE,
    PASS,
    PUSH,
    REVEAL,
    SET_UP_VERBS,
    STATE,
    STOP,
    Action,
    IllegalAction,
    malformed,
)
from .advanced import advanced
from .ammo import assign_ammo
from .assault import apply_assault, assault_actions, end_assault_phase
from .closing import apply_closing, closing_actions
from .dice import Dice
from .facing import apply_entry_facing, entry_facing_actions
from .fire import apply_fire, apply_reaction, fire_actions, reaction_actions
from .firing import FIRE_PHASES
from .infiltration import (
    INFILTRATION,
    apply_infiltration,
    begins_at_support_fire,
    infiltration_actions,
    infiltration_open,
    infiltration_over,
    start_infiltration,
)
from .mg_fire import MG_VERBS, apply_mg, mg_actions
from .mg_modes import MODE, apply_mode, mode_actions
from .morale import morale_phase, reveal_hex
from .movement import apply_movement, end_active, movement_actions, stacking_holds
from .overrun import OVERRUN, apply_decision, apply_overrun, deciding, decisions, overrun_actions
from .paths import apply_path, continue_path, is_path
from .setup import (
    apply_entry_choice,
    apply_given_setup,
    apply_setup,
    entry_choice_actions,
    open_entry_choices,
    setup_actions,
)
from .sightlines import shared_caches
from .stacks import stacking_problems
from .state import (
    ASSAULT,
    DEFENSIVE_FIRE,
    ENTRY_CHOICE,
    FREE_STATE,
    MORALE,
    MOVEMENT,
    PLAYER_TURN,
    REACTION,
    SETUP,
    SUPPORT_FIRE,
    GameState,
    other,
)
from .units import Unit, field_units
from .victory import initial_control, result
from .wrecks import apply_wreck, pushing, resolve_pushes, wreck_actions

ENGINE_VERSION = "iceditor-engine/1"
BOTH_PLAY = (MORALE, ASSAULT, FREE_STATE)  # 6.0: A, G and H: both players participate


class ScenarioNotPlayable(ValueError):
    """A scenario with errors the validator reports: the engine plays only what the rules allow.
    Its text is those errors as `iceditor validate` prints them, one a line, each naming its file,
    line, rule and check once: a command prints it as it is."""


def new_game(
    scenario: Scenario,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    *,
    board: Board | None = None,
    validated: bool = False,
) -> GameState:
    """A game of `scenario` at its set-up. Options: `first_shot` (True: PCs to move from the start,
    as after 8.22's first shot); `advanced` (the advanced rules 21.0-23.0, one switch: R319) with
    `observation_penalty` (23.2's Optional Penalty) and `special_roll` (the Cumulative Combat
    Results Table's Optional Special Roll), each off unless set. `board`: the maps as an editor
    holds them (its unsaved terrain; a copy is played on); `validated`: the caller's own validation
    found no errors (the editor's). The maps of a scenario are read once and shared by all its
    games (the game never edits them)."""
    if not validated:
        _check_playable(scenario)
    counters: Counters = bundled_counters()
    shared = shared_caches(scenario) if board is None else None
    if shared is not None:  # the maps, their terrain costs, lines of sight and zones: the same for every game of it
        if "board" not in shared:
            shared["board"] = scenario.load_board()
        board = shared["board"]
    assert board is not None
    context = ScenarioContext(
        scenario, counters, replace(board, watchers=[], caches={} if shared is None else shared, previous={})
    )
    if shared is not None:
        context.share_zones(shared.setdefault("zones", {}))
    units = {u.id: u for u in field_units(scenario, counters)}
    game = GameState(scenario, context, counters, seed, dict(options or {}), Dice(seed), units)
    game.first_shot = bool(game.options.get("first_shot", False))
    if advanced(game):
        assign_ammo(game)  # 22.0
    initial_control(game)
    events = apply_given_setup(game)
    game.to_act = str(scenario.data["sets_up_first"])
    game.log.append({"n": 0, "event": "start", "events": events})
    _settle(game)
    return game


_PLAYABLE: weakref.WeakValueDictionary[int, Scenario] = weakref.WeakValueDictionary()


def _check_playable(scenario: Scenario) -> None:
    """The validator's errors refuse a scenario; checked once per scenario object (a batch plays many games)."""
    if scenario.doc is None or _PLAYABLE.get(id(scenario)) is scenario:
        return
    doc = scenario.doc

    def errors() -> list[Problem]:
        return [p for p in validate_document(doc, errors_only=True) if p.severity is Severity.ERROR]

    # a scenario found playable before, with all it reads unchanged, is not validated again (issue 22);
    # one with errors is, so that they are reported from the file as it is now
    found = kept_problems("playable", str(scenario.file), repr(doc.data), errors, keep=lambda problems: not problems)
    if found:
        raise ScenarioNotPlayable("\n".join(replace(p, file=p.file or str(scenario.file)).text() for p in found))
    _PLAYABLE[id(scenario)] = scenario


def legal_actions(game: GameState) -> list[Action]:
    if game.is_over:
        return []
    if game.phase == SETUP:
        return setup_actions(game)
    if game.phase == INFILTRATION:
        return infiltration_actions(game)
    if game.phase == ENTRY_CHOICE:
        return entry_choice_actions(game)
    if deciding(game):  # 9.2 A's guns, 9.33's immediate assault
        return decisions(game)
    if game.interrupt is not None:  # an entering MG or ATG faces first (R161), then the answer (13.0)
        return entry_facing_actions(game) or [*reaction_actions(game), *mg_actions(game)]
    if game.phase_ending:
        return wreck_actions(game)
    if game.closing:
        return [*closing_actions(game), Action(DONE)]
    if game.phase in FIRE_PHASES:
        return [*mg_actions(game), *fire_actions(game)]  # 21.2, 21.3: the advanced MG modes
    if game.phase == ASSAULT:
        return assault_actions(game)
    if game.phase in (MOVEMENT, REACTION):
        actions = movement_actions(game) + overrun_actions(game)
        if _movement_may_end(game):
            actions.append(Action(DONE))
        return actions
    if game.phase == MORALE:
        hidden = sorted(game.secrets[game.to_act].hidden_hexes)
        return [Action(REVEAL, (), game.label_of(h)) for h in hidden] + mode_actions(game) + [Action(DONE)]
    if game.phase == FREE_STATE:
        return [*_free_state_actions(game), Action(DONE)]
    return [Action(DONE)]


def _movement_may_end(game: GameState) -> bool:
    """`done` in a movement phase: no hex over 8.62's limit that a unit may still leave, the moving
    stack not bound to move on."""
    return not stacking_holds(game, game.to_act) and not _must_move_on(game)


def _must_move_on(game: GameState) -> bool:
    """8.62: the moving stack stands over the limit; 9.0: an AFV has yet to exit the hex it overran."""
    if any(game.unit(i).extra.get("must_exit") == game.player_turns for i in game.active):
        return True
    return any(game.unit(i).hex in stacking_problems(game, game.to_act) for i in game.active)


def apply(game: GameState, action: Action) -> GameState:
    """The state after `action`; the given state is unchanged."""
    twin = game.copy()
    play(twin, action)
    return twin


def play(game: GameState, action: Action) -> None:
    """Apply `action` to `game` in place; IllegalAction if the rules do not allow it now."""
    if game.is_over:
        raise IllegalAction("the game is over", "6.0")
    refused = malformed(action)  # `done extra`: what its verb never takes
    if refused is not None:
        raise refused
    side, turn, phase = game.to_act, game.turn, game.phase
    game.strict_epoch()  # the tests' check of copy-on-write (STRICT_UNITS): every action as if on a copy
    before = len(game.dice.rolled)
    events = _apply(game, action)
    game.log.append(
        {
            "n": len(game.log),
            "turn": turn,
            "phase": phase,
            "side": side,
            "action": action.text(),
            "dice": game.dice.rolled[before:],
            "events": events,
        }
    )
    _settle(game)
    if game.phase != phase or game.is_over:  # a phase's end: the state's digest, for replay --verify
        game.log[-1]["digest"] = game.digest()


def _apply(game: GameState, action: Action) -> list[dict[str, Any]]:
    if game.phase == SETUP:
        events = apply_setup(game, action)
        if action.verb == DONE:
            events += _setup_done(game)
        return events
    if game.phase == INFILTRATION:  # 24.3
        events = apply_infiltration(game, action)
        return events + (_after_setup(game) if infiltration_over(game) else [])
    if game.phase == ENTRY_CHOICE:
        return apply_entry_choice(game, action)
    if deciding(game):
        return apply_decision(game, action)
    if game.interrupt is not None:
        if "facing" in game.interrupt:
            return apply_entry_facing(game, action)
        if action.verb in MG_VERBS:
            return apply_mg(game, action)
        if action.verb != PASS or game.attack is not None:
            return apply_reaction(game, action)
        game.to_act = str(game.interrupt["side"])
        game.interrupt = None
        if game.phase_ending:
            return _end_movement(game)
        return continue_path(game) if game.path is not None else []  # a move by path goes on (R190)
    if game.phase_ending:
        return apply_wreck(game, action)
    if game.closing:
        if action.verb != DONE:
            return apply_closing(game, action)
        game.closing = False
        return _next_phase(game)
    if action.verb in _MOVING_VERBS and game.phase != _ALSO_IN.get(action.verb) and not _moving(game, action):
        phase = game.phase.replace("_", " ")
        if action.verb == OVERRUN:
            raise IllegalAction(f"{action.text()}: overruns are made only in the friendly Movement Phase", "9.11")
        raise IllegalAction(f"{action.text()}: units move in the movement phases, not in the {phase} phase", "6.0 C, D")
    if game.phase in FIRE_PHASES and action.verb in MG_VERBS:
        return apply_mg(game, action)
    if game.phase in _ASSAULT_OR_FIRE:
        if action.verb != DONE:
            return apply_assault(game, action) if game.phase == ASSAULT else apply_fire(game, action)
        still_open = action not in assault_actions(game) if game.phase == ASSAULT else game.attack is not None
        if still_open:
            raise IllegalAction(f"the {game.phase} phase has a decision open: finish it first", "6.0")
        return _done(game)
    if action.verb == DONE:  # checked without listing every move of the phase
        if game.phase in (MOVEMENT, REACTION) and not _movement_may_end(game):
            if any(game.unit(i).extra.get("must_exit") == game.player_turns for i in game.active):
                raise IllegalAction("the AFV that overran must leave the hex", "9.0")
            hexes = ", ".join(game.label_of(h) for h in stacking_problems(game, game.to_act))
            raise IllegalAction(f"more than six men plus one AFV in {hexes}", "8.62")
        return _done(game)
    if game.phase == MOVEMENT and action.verb == OVERRUN:
        return apply_overrun(game, action)
    if game.phase in (MOVEMENT, REACTION):
        return apply_path(game, action) if is_path(action) else apply_movement(game, action)
    if action not in legal_actions(game):
        raise IllegalAction(f"{action.text()} is not a legal choice in the {game.phase} phase", "6.0")
    if action.verb == MODE:
        return apply_mode(game, action)
    if action.verb == REVEAL:
        return reveal_hex(game, game.to_act, game.hex(action.arg), "revealed by its owner")
    if action.verb == STATE:  # 3.13: 'once at the end of any Assault Phase at no MP cost'
        unit = game.changing(action.units[0])
        unit.state = State(action.arg)
        unit.extra["state_changed"] = True
        return [{"event": "state", "unit": unit.id, "state": action.arg, "rule": "3.13, 6.0 H"}]
    raise IllegalAction(f"no such action {action.text()}")


_ASSAULT_OR_FIRE = frozenset((ASSAULT, *FIRE_PHASES))  # 6.0 B, E, F, G


# The verbs of the movement phases (8.0, 9.0), and the other phase that has one of them: 17.12's
# leader in the Assault Phase, 6.0 H's free change of state.
_MOVING_VERBS = frozenset((MOVE, DETACH, STOP, FACE, PUSH, LEAD, STATE, OVERRUN))
_ALSO_IN = {LEAD: ASSAULT, STATE: FREE_STATE}


def _moving(game: GameState, action: Action) -> bool:
    """A movement phase (an overrun: the friendly Movement Phase only, 9.11)."""
    return game.phase == MOVEMENT or (game.phase == REACTION and action.verb != OVERRUN)


def _free_state_actions(game: GameState) -> list[Action]:
    """6.0 H / 3.13: a NORMAL unit's UP/DOWN state, free (3.27: only NORMAL units change it), once.
    The side's units on the map that may change it are found at its first listing of the phase:
    nothing played in it changes where a unit is or its morale, only its state, which marks it
    (`state_changed`). Their actions are kept with a mark of `changed_since`: a listing asks again
    only the units changed since (the one that changed its state), where each asked all the side's."""
    side = game.to_act
    last = game.caches.get("free_state")  # (mark, side, each unit's action or None, by id)
    changed, mark = game.changed_since(last[0] if last is not None else None, "free_state")
    if last is None or changed is None or last[1] != side:
        units = [u for u in game.side_units(side) if u.on_map and u.may_change_state]
        each = {u.id: _state_change(u) for u in units}
    else:
        each = last[2]
        if changed:
            each = {**each, **{i: _state_change(game.units[i]) for i in changed if i in each}}
    game.caches["free_state"] = (mark, side, each)
    return [action for action in each.values() if action is not None]


def _state_change(unit: Unit) -> Action | None:
    if unit.extra.get("state_changed"):
        return None
    return Action(STATE, (unit.id,), "down" if unit.state == State.UP else "up")


# -- the sequence of play (6.0) ----------------------------------------------------------------


def _setup_done(game: GameState) -> list[dict[str, Any]]:
    game.setup_done.append(game.to_act)
    if len(game.setup_done) < 2:
        game.to_act = other(game.to_act)
        return []
    for unit in game.units.values():
        if unit.faces_hexside and unit.on_map and unit.facing is None:
            raise IllegalAction(f"{unit.id} has no facing", "8.7")
    if infiltration_open(game):  # 24.31: after the set-ups, before the entries and play (R126)
        events = start_infiltration(game)
        return events + (_after_setup(game) if infiltration_over(game) else [])
    return _after_setup(game)


def _after_setup(game: GameState) -> list[dict[str, Any]]:
    if open_entry_choices(game):
        game.phase = ENTRY_CHOICE
        game.to_act = open_entry_choices(game)[0][0]
        return []
    return _start_turn(game, 1)


def _start_turn(game: GameState, turn: int) -> list[dict[str, Any]]:
    game.turn = turn
    game.phasing = str(game.scenario.data["moves_first"])
    # 24.34: a successful infiltration: 'The scenario begins with the Russian player turn Support Fire Phase' (R129)
    return _start_player_turn(game, SUPPORT_FIRE if turn == 1 and begins_at_support_fire(game) else MORALE)


def _start_player_turn(game: GameState, phase: str = MORALE) -> list[dict[str, Any]]:
    game.player_turns += 1
    if game.shot_fired:  # 8.22: 'PC's for movement must be taken by the next Phasing Player' (R92)
        game.first_shot = True
    marked = [  # the eliminated too: the digest holds their flags
        u for u in _changed(game, "turn_marks") if u.moved or u.fired or not _FOR_THE_PLAYER_TURN.isdisjoint(u.extra)
    ]
    for unit in game.changing_all(marked):  # copy-on-write: only the units whose marks come off
        unit.moved = unit.fired = False
        for key in _FOR_THE_PLAYER_TURN.intersection(unit.extra):
            del unit.extra[key]
    return _enter_phase(game, phase)


# what a unit's extra holds for one Player Turn only (8.21; 17.14: a grenade of this Player Turn's
# Moving Fire Phase)
_FOR_THE_PLAYER_TURN = frozenset(("support_fired", "grenade_target"))


# what a unit's extra holds for one phase only (8.0, 8.3, 8.74; 6.0 H)
_FOR_THE_PHASE = frozenset(
    (
        "moving",
        "pc_passed",
        "hexes_entered",
        "lead_pc",
        "lead_passed",
        "free_hexsides",
        "turned",
        "detached",
        "cancelled",
        "state_changed",
        "mg_attacked",
        "observing",
    )
)


_UNMOVED = (0.0, False, None, None)  # a unit's mp_spent, move_done, allowance_cap and led_by as a phase starts


def _enter_phase(game: GameState, phase: str) -> list[dict[str, Any]]:
    game.phase = phase
    game.next_phase_caches()
    game.acted = set()
    game.stage = {}
    marked = [
        u
        for u in _changed(game, "phase_marks")
        if not _FOR_THE_PHASE.isdisjoint(u.extra) or (u.mp_spent, u.move_done, u.allowance_cap, u.led_by) != _UNMOVED
    ]
    for unit in game.changing_all(marked):  # copy-on-write: only the units whose marks come off
        unit.mp_spent, unit.move_done, unit.allowance_cap, unit.led_by = _UNMOVED
        for key in _FOR_THE_PHASE.intersection(unit.extra):  # the few it holds, not a pop of each
            del unit.extra[key]
    game.to_act = other(game.phasing) if phase in (REACTION, DEFENSIVE_FIRE) else game.phasing  # 6.0 D, E
    events: list[dict[str, Any]] = [{"event": "phase", "turn": game.turn, "phase": phase, "phasing": game.phasing}]
    if phase == MORALE:
        events += morale_phase(game)
    return events


def _changed(game: GameState, reader: str) -> Iterable[Unit]:
    """The units that may carry marks to take off: a unit is marked only by a change (`changing`),
    so those changed since `reader` last asked (a phase's or a Player Turn's start: about 15 of 75
    in Scenario 6), in the order of `units`; every unit where that is not known (kept in the
    caches from phase to phase)."""
    changed, game.caches[reader] = game.changed_since(game.caches.get(reader), reader)
    units = game.units
    return units.values() if changed is None else [units[i] for i in sorted(changed, key=game.ranks().__getitem__)]


def _done(game: GameState) -> list[dict[str, Any]]:
    events = end_active(game) if game.active else []
    if game.phase in BOTH_PLAY and game.to_act not in game.acted:
        game.acted.add(game.to_act)
        if len(game.acted) < 2:
            game.to_act = other(game.to_act)
            return events
    if game.phase == MOVEMENT and pushing(game):
        game.phase_ending = True
        return events + _end_movement(game)
    if game.phase in (MOVEMENT, REACTION):
        return events + _close_movement(game)
    if game.phase == ASSAULT:  # 17.0: the Assault markers come off at the end of the phase
        events += end_assault_phase(game)
    return events + _next_phase(game)


def _close_movement(game: GameState) -> list[dict[str, Any]]:
    """17.0, 20.1: the moving side's Assault markers and crew replacements at the phase's end."""
    if closing_actions(game):
        game.closing = True
        return []
    return _next_phase(game)


def _end_movement(game: GameState) -> list[dict[str, Any]]:
    """8.65: the pushes at the end of the Movement Phase, one at a time, then the next phase."""
    events = resolve_pushes(game)
    if wreck_actions(game):
        return events  # the owner places the Wreck (`wreck`)
    game.phase_ending = False
    return events + _close_movement(game)


def _next_phase(game: GameState) -> list[dict[str, Any]]:
    """6.0: the next phase, the other Player Turn, the next Game Turn or the game's end."""
    index = PLAYER_TURN.index(game.phase)
    if index + 1 < len(PLAYER_TURN):
        return _enter_phase(game, PLAYER_TURN[index + 1])
    second = game.phasing != str(game.scenario.data["moves_first"])
    if not second:
        game.phasing = other(game.phasing)
        return _start_player_turn(game)
    if game.turn >= int(game.scenario.data["game_length"]):
        game.phase = "over"
        game.result = result(game)
        game.to_act = ""
        return [{"event": "game over", "result": game.result, "rule": "6.0, 24.1"}]
    game.turn += 1
    game.phasing = str(game.scenario.data["moves_first"])
    return _start_player_turn(game)


def _settle(game: GameState) -> None:
    """Nothing to decide for the side to act at the set-up's end: move on (no choices is no turn)."""
    if game.phase == ENTRY_CHOICE and not open_entry_choices(game):
        _start_turn(game, 1)
    elif game.phase == ENTRY_CHOICE:
        game.to_act = open_entry_choices(game)[0][0]


__all__ = [
    "ENGINE_VERSION",
    "ENTRY",
    "SET_UP_VERBS",
    "IllegalAction",
    "ScenarioNotPlayable",
    "apply",
    "legal_actions",
    "new_game",
    "play",
]
