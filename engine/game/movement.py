"""Movement in play (8.0): hex by hex, with the PC to move (8.22), leader directed movement (8.3),
AFV/infantry stacks (8.4), terrain costs and the road rate (8.5, from the geometry layer), AFV
immobilization (8.54, 8.55), stacking (8.6), facing (8.7), state changes (3.13) and entries (24.1).

One unit or stack moves at a time (8.0: "Units are always moved individually" but for 8.3 and
8.4); starting another ends its movement. Mines in a hex go off as it is entered (19.2:
mines.entering_detonation); then the other side is asked whether it reacts (an interrupt:
opportunity fire, 13.0). An MG or ATG entering the map chooses its facing first (R161).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from engine.geometry.movement import (
    ONE_HEX,
    Morale,
    State,
    allowance,
    entry_cost,
    hexsides_between,
    movement_cost,
)
from engine.hexgrid import DIRECTIONS, Hex, parse_label
from engine.model.tables import movement_allowances, table_values, terrain_effects
from engine.validate.placements import may_stand

from .actions import DETACH, FACE, LEAD, MOVE, PUSH, STATE, STOP, WRECK, Action, IllegalAction
from .mines import entering_detonation
from .morale import reveal_hex
from .performance import performance_check
from .state import MOVEMENT, REACTION, GameState, other
from .units import ON_MAP, WAITING, Unit

_allowance = cache(allowance)

# 8.0's movement order: AFVs alone, then AFV/infantry stacks, then the rest.
AFV_ALONE, AFV_STACK, OTHERS = 1, 2, 3


def mover_side(game: GameState) -> str:
    """The side that moves in this phase: the phasing player in C, the other in D (6.0)."""
    return game.phasing if game.phase == MOVEMENT else other(game.phasing)


# -- what a unit may do ---------------------------------------------------------------------


def budget(game: GameState, unit: Unit) -> float | str:
    """MPs the unit may spend this phase (8.1), or ONE_HEX; 8.3 C caps a unit led off on its own."""
    key = (unit.mover(game.phase), unit.allowance_cap, unit.men)
    if unit.extra.get("_budget_key") != key:
        unit.extra["_budget"] = _budget(game, unit)
        unit.extra["_budget_key"] = key
    value: float | str = unit.extra["_budget"]
    return value


def _budget(game: GameState, unit: Unit) -> float | str:
    if unit.kind == "cw" and _short_crewed(unit):
        return 0.0  # 8.12: 'units without a full crew may never move'
    value = _allowance(unit.mover(game.phase))
    if value == ONE_HEX or unit.allowance_cap is None:
        return value
    return min(float(value), unit.allowance_cap)


def _short_crewed(unit: Unit) -> bool:
    return unit.men < int(unit.extra.get("full_crew", unit.men))


def left(game: GameState, unit: Unit) -> float:
    """MPs left; a ONE_HEX unit has "one hex" until it has entered one."""
    value = budget(game, unit)
    if value == ONE_HEX:
        return 0.0 if unit.extra.get("hexes_entered", 0) else float("inf")
    return float(value) - unit.mp_spent


def may_start(game: GameState, unit: Unit) -> bool:
    """Whether the unit may begin to move (or turn, or change state) in this phase."""
    if not _may_act(game, unit):
        return False
    if unit.where == WAITING:
        return bool(open_entry_hexes(game, unit))
    if not unit.on_map:
        return False
    value = budget(game, unit)
    return value == ONE_HEX or float(value) > 0


def _may_act(game: GameState, unit: Unit) -> bool:
    """Nothing bars the unit from moving or turning in this phase."""
    if unit.side != mover_side(game) or unit.move_done or unit.immobilized or unit.extra.get("moving"):
        return False
    if unit.morale == Morale.SUPPRESSED:  # 8.15
        return False
    if game.phase == MOVEMENT and unit.extra.get("support_fired"):  # 8.21
        return False
    return not restricted(game, unit)


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


def restricted(game: GameState, unit: Unit) -> bool:
    """A scenario restriction (24.1): the unit may not move before that side's Player Turn of that
    Game Turn ("they may not move until Russian Player Turn 2"); kept for the phase."""
    found: dict[str, bool] = game.caches.setdefault("restricted", {})
    if unit.id not in found:
        found[unit.id] = _restricted(game, unit)
    return found[unit.id]


def _restricted(game: GameState, unit: Unit) -> bool:
    for item in game.scenario.data.get("restrictions") or []:
        if item.get("side", unit.side) != unit.side or not game.names(item, unit):
            continue
        until = item["may_not_move_before"]
        turn, side = int(until["turn"]), str(until["side"])
        first = str(game.scenario.data["moves_first"])
        reached = (game.turn, 0 if game.phasing == first else 1)
        if reached < (turn, 0 if side == first else 1):
            return True
    return False


def pc_needed(game: GameState, unit: Unit) -> bool:
    """8.22: a PC to move, except before the first shot; 8.3 B: not for a unit its leader leads."""
    return game.first_shot and not unit.extra.get("pc_passed") and unit.led_by is None


# -- stacking (8.62, 8.63) ------------------------------------------------------------------


def over_stacked(game: GameState, side: str, h: Hex, adding: Sequence[Unit] = ()) -> bool:
    """More than six men plus one AFV, or two CWs, in h with `adding` come in (8.62, 8.63)."""
    men, afvs, cws = game.totals(side, h)
    for u in adding:
        if u.hex != h or not u.on_map:
            men += 0 if u.is_afv else u.men
            afvs += u.is_afv
            cws += u.kind == "cw"
    most = _stacking_limits()
    return men > most[0] or afvs > most[1] or cws > most[2]


@cache
def _stacking_limits() -> tuple[int, int, int]:
    limits = table_values("combat")["stacking"]
    return int(limits["max_men"]), int(limits["max_afvs"]), int(limits["max_crew_weapons"])


def stacking_problems(game: GameState, side: str) -> list[Hex]:
    """Hexes where `side` has more than six men plus one AFV, or two CWs (8.62, 8.63)."""
    problems: list[Hex] = game.kept(("stacking", side), lambda: _stacking_problems(game, side))
    return problems


def stacking_holds(game: GameState, side: str) -> bool:
    """8.62 bars the end of the phase: a hex of `side` over the limit holds a unit that may still
    move out of it (R115: a unit a mine attack, 19.27, or fire, 13.18, stopped in a hex it was
    passing through, R89, over-fills it for good once no unit there may move; the moving stack
    itself: play's `_must_move_on`)."""
    return any(any(u.side == side and may_start(game, u) for u in game.at(h)) for h in stacking_problems(game, side))


def _stacking_problems(game: GameState, side: str) -> list[Hex]:
    most = _stacking_limits()
    found = []
    for h, units in game.occupied().items():
        if len(units) == 1 and units[0].men <= most[0]:
            continue  # one unit: over no limit unless it alone has too many men
        if any(u.side == side for u in units):
            men, afvs, cws = game.totals(side, h)
            if men > most[0] or afvs > most[1] or cws > most[2]:
                found.append(h)
    return sorted(found)


# -- legal actions --------------------------------------------------------------------------


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


def _stuck_over_full(game: GameState, active: list[Unit]) -> bool:
    """The active stack stands where it may not end its move (8.62), or an AFV in the hex it has
    just overrun (9.0: 'and exiting the hex'): it must move on."""
    h = active[0].hex
    if active[0].extra.get("must_exit") == game.player_turns:
        return True
    return h is not None and active[0].on_map and over_stacked(game, active[0].side, h)


def _continue(game: GameState, active: list[Unit]) -> list[Action]:
    """What the moving unit or stack may do next; kept for the phase by its units and what stands
    in and around its hex, as a hex's starts are."""
    h = active[0].hex
    if h is None or not active[0].on_map:
        return _continue_now(game, active)
    key = (h, tuple(_dynamic(u) for u in active), game.signature(h), game.around(h))
    cache: dict[tuple[Any, ...], list[Action]] = game.caches.setdefault("continue", {})
    found = cache.get(key)
    if found is None:
        found = cache[key] = _continue_now(game, active)
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


def _starts(game: GameState, side: str, about: Action | None = None) -> list[Action]:
    actions: list[Action] = []
    reached = game.stage.get(side, AFV_ALONE)
    by_hex: dict[Hex | None, list[Unit]] = {}
    units: Sequence[Unit] = game.side_units(side)
    if about is not None and about.units and about.units[0] in game.units:
        first = game.unit(about.units[0])
        units = [u for u in units if (u.hex, u.where) == (first.hex, first.where)]
    for unit in units:
        if may_start(game, unit):
            by_hex.setdefault(unit.hex if unit.on_map else None, []).append(unit)
        elif unit.kind == "cw" and turns_only(game, unit):
            actions += game.hex_actions(FACE, (unit.id,), _facing_hexes(game, unit))
    alike: dict[tuple[Any, ...], list[Hex]] = game.caches.setdefault("steps", {})  # units alike step alike
    cache: dict[tuple[Any, ...], list[Action]] = game.caches.setdefault("starts", {})
    for h, units in by_hex.items():
        if h is None:  # entering the map (24.1): one unit at a time
            for unit in units:
                if _order(unit, [unit]) >= reached:
                    actions += _entry_moves(game, unit)
            continue
        # A hex's choices change only with the phase, its units and what stands around it: kept by that key.
        around = game.around(h)
        key = (h, game.phase, reached, game.first_shot, tuple(_dynamic(u) for u in units), around)
        found = cache.get(key)
        if found is None:
            found = cache[key] = _hex_starts(game, units, reached, alike, around)
        actions += found
    return actions


def _dynamic(unit: Unit) -> tuple[Any, ...]:
    """Everything about a unit this phase that its choices depend on."""
    extra = unit.extra
    return (
        unit.id,
        unit.state,
        unit.morale,
        unit.facing,
        unit.mp_spent,
        unit.move_done,
        unit.allowance_cap,
        unit.led_by,
        unit.moved,
        unit.men,
        extra.get("moving"),
        extra.get("pc_passed"),
        extra.get("hexes_entered"),
        extra.get("lead_pc"),
        extra.get("lead_passed"),
        extra.get("detached"),
        extra.get("free_hexsides"),
        extra.get("turned"),
        extra.get("state_changed"),
        extra.get("must_exit"),
        unit.immobilized,
        extra.get("commander_killed"),  # 11.43: no more state changes (Unit.may_change_state)
    )


def _entry_moves(game: GameState, unit: Unit) -> list[Action]:
    """The unit's moves onto the map (24.1), kept until units move (by how it moves: `_entries`)."""
    key = (unit.id, unit.id in game.held, unit.mover(game.phase), budget(game, unit))
    moves: list[Action] = game.kept(("entry_moves", key), lambda: _entries(game, unit, key))
    return moves


def _hex_starts(
    game: GameState,
    units: list[Unit],
    reached: int,
    alike: dict[tuple[Any, ...], list[Hex]],
    around: tuple[Any, ...],
) -> list[Action]:
    actions: list[Action] = []
    for group in _groups(game, units):
        if _order(group[0], group) < reached or not _with_their_leaders(group):
            continue
        needs_pc = [u for u in group if pc_needed(game, u)]
        ids = tuple(u.id for u in group)
        if needs_pc and len(group) > 1 and not any(u.is_afv for u in group):
            continue  # a stack moves without PCs only once its leader has passed (8.3 B)
        if len(group) == 1:  # a lone unit's steps depend on how it moves and what stands around it
            key = (_mover_key(game, group[0]), group[0].side, around)
            steps = alike.get(key)
            if steps is None:
                steps = alike[key] = _steps(game, group)
        else:
            steps = _steps(game, group)
        actions += game.hex_actions(MOVE, ids, steps)
        if len(group) == 1:
            unit = group[0]
            if unit.is_afv:
                actions += game.hex_actions(FACE, ids, _turns(game, unit))
            elif unit.faces_hexside and _may_turn(unit):
                actions += game.hex_actions(FACE, ids, _facing_hexes(game, unit))
            if _may_change_state(game, unit):
                actions.append(Action(STATE, ids, "down" if unit.state == State.UP else "up"))
    if game.first_shot:
        actions += _leader_actions(game, units)
    return actions


def _mover_key(game: GameState, unit: Unit) -> tuple[Any, ...]:
    """What a lone unit's steps depend on: its hex, how it moves, what it has left, its men (with
    who stands around its hex: `_hex_starts`)."""
    return (
        unit.hex,
        unit.mover(game.phase),
        left(game, unit),
        unit.men,
        unit.kind == "cw",
        unit.extra.get("hexes_entered", 0),
        unit.allowance_cap,
    )


def _with_their_leaders(group: list[Unit]) -> bool:
    """8.3 B: units a leader's PC lets move 'remain with the leader throughout the entire movement'."""
    ids = {u.id for u in group}
    return all(u.led_by is None or u.led_by in ids for u in group)


def _groups(game: GameState, units: list[Unit]) -> list[list[Unit]]:
    """Each unit alone, and the stack that may move together: all of them where a commander is
    with them, else each squad's, alone or with the AFV there (5.3, 8.64, 8.41); CWs never with an
    AFV (8.44)."""
    detached: dict[tuple[str, ...], list[Unit]] = {}
    for u in units:  # 8.3 C: 'Several units moving together to the same hex take a single modified PC'
        if u.extra.get("detached"):
            detached.setdefault(u.extra["detached"], []).append(u)
    if detached:
        units = [u for u in units if not u.extra.get("detached")]
        return [*detached.values(), *_groups(game, units)] if units else list(detached.values())
    leaders = {u.led_by for u in units if u.led_by is not None}
    if leaders:  # 8.3 B, 8.32: the leader alone or with any of those he leads (R151)
        groups = []
        for leader_id in sorted(leaders):
            led = [u for u in units if u.led_by == leader_id and u.id != leader_id]
            leader = next((u for u in units if u.id == leader_id), None)
            if leader is not None:
                groups += [[leader, *c] for n in range(len(led) + 1) for c in combinations(led, n)]
        afvs = [u for u in units if u.is_afv and u.led_by is None]
        if len(afvs) == 1:  # 8.42: 'the leader and any moving infantry must accompany the AFV' (no CW: 8.44)
            for leader_id in sorted(leaders):
                riders = [u for u in units if u.led_by == leader_id and u.kind != "cw"]
                if any(u.id == leader_id for u in riders):
                    groups.append([afvs[0], *riders])
        return groups + [[u] for u in units if u.led_by is None]
    groups = [[u] for u in units]
    if len(units) < 2:
        return groups
    commander = any(u.kind == "commander" for u in units)
    stacks: list[list[Unit]] = []
    if commander:
        stacks.append(units)
    else:
        squads: dict[str | None, list[Unit]] = {}
        for u in units:
            squads.setdefault(u.squad, []).append(u)
        stacks += [s for key, s in squads.items() if key is not None and len(s) > 1]
        afvs = [u for u in units if u.is_afv]
        if len(afvs) == 1:  # 8.41: the AFV with the infantry it begins stacked with (5.3: one squad's)
            stacks += [[afvs[0], *s] for key, s in squads.items() if key is not None]
    for stack in stacks:
        if any(u.is_afv for u in stack):
            stack = [u for u in stack if u.kind != "cw"]  # 8.44
            if sum(1 for u in stack if u.is_afv) != 1:
                continue
        if len(stack) > 1 and stack not in groups:
            groups.append(stack)
    return groups


def _order(lead: Unit, group: list[Unit]) -> int:
    if any(u.is_afv for u in group):
        return AFV_ALONE if len(group) == 1 else AFV_STACK
    return OTHERS


def _leader_actions(game: GameState, units: list[Unit]) -> list[Action]:
    """8.3 A: a leader's PC for the units of his hex no other leader's PC is for (8.34); C: those he
    led that have not moved with him move off without him, one unit or several together, with his
    PR, wherever he is now ("because the leader has moved to another hex", or a casualty: R154)."""
    actions = []
    for leader in units:
        if leader.led_by is not None or leader.extra.get("lead_pc") or not _may_lead(leader):
            continue
        if any(u is not leader and u.led_by is None and may_lead(leader, u) for u in units):
            actions.append(Action(LEAD, (leader.id,)))
    left_behind: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.led_by is not None and unit.led_by != unit.id:
            left_behind.setdefault(unit.led_by, []).append(unit)
    for leader_id, led in sorted(left_behind.items()):
        actions += [Action(DETACH, tuple(u.id for u in group), leader_id) for group in _moving_together(led)]
    return actions


def _moving_together(units: list[Unit]) -> list[tuple[Unit, ...]]:
    """Each unit alone, and every set of two or more of one squad: without their leader, units of
    different squads may not move together (8.64, R152)."""
    squads: dict[str, list[Unit]] = {}
    for u in units:
        if u.squad is not None:
            squads.setdefault(u.squad, []).append(u)
    together = [c for s in squads.values() for n in range(2, len(s) + 1) for c in combinations(s, n)]
    return [(u,) for u in units] + together


def _may_lead(leader: Unit) -> bool:
    """5.1 commanders; 5.2 an infantry unit (not CW, FT or AFV) of PR 9 or more in NORMAL status."""
    if leader.morale != Morale.NORMAL:
        return False
    return leader.kind == "commander" or (leader.kind == "infantry" and leader.pr >= _acting_leader_pr())


def _acting_leader_pr() -> int:
    return int(table_values("combat")["leaders"]["acting_leader_min_pr"])


def may_lead(leader: Unit, unit: Unit) -> bool:
    """8.31: NORMAL infantry and CW units only; an acting leader his own squad plus one CW."""
    if unit.kind not in ("infantry", "ft", "cw", "commander") or unit.morale != Morale.NORMAL:
        return False
    if leader.kind == "commander":
        return True
    return unit.kind == "cw" or unit.squad == leader.squad


def _steps(game: GameState, group: list[Unit]) -> list[Hex]:
    """The adjacent hexes every unit of the group may enter now (8.5, 8.61, 8.74): `_cost` for each
    unit, with what does not depend on the hex entered worked out once per unit."""
    first = group[0]
    origin = first.hex
    if origin is None or not first.on_map:
        return []
    afv = next((u for u in group if u.is_afv), None)
    front = None if afv is None or afv.facing is None else origin + DIRECTIONS[afv.facing]
    movers = [
        (u, _step_costs(game, origin, u.mover(game.phase)), budget(game, u) == ONE_HEX, left(game, u)) for u in group
    ]
    targets = []
    for i, t in enumerate(game.neighbours(origin)):
        if afv is not None and t != front:
            continue  # 8.74: an AFV moves out of its hex through its frontal hexside (R42)
        for unit, costs, one_hex, rest in movers:
            cost = costs[i]
            if cost is None or (unit.extra.get("hexes_entered", 0) if one_hex else cost > rest + 1e-9):
                break  # 8.11: a ONE_HEX unit enters one hex regardless; else the MPs it has left
        else:
            if _may_enter(game, group, t):
                targets.append(t)
    return targets


def _step_costs(game: GameState, origin: Hex, mover: Any) -> list[float | None]:
    """`_movement_cost` into each of origin's neighbours (in `neighbours` order), kept per board."""
    costs: dict[tuple[Hex, Any], list[float | None]] = game.board.caches.setdefault("game_step_costs", {})
    found = costs.get((origin, mover))
    if found is None:
        found = costs[(origin, mover)] = [_movement_cost(game, origin, t, mover) for t in game.neighbours(origin)]
    return found


def _movement_cost(game: GameState, origin: Hex, target: Hex, mover: Any) -> float | None:
    """movement_cost, kept per board: the game never edits the terrain."""
    costs: dict[tuple[Hex, Hex, Any], float | None] = game.board.caches.setdefault("game_movement_costs", {})
    key = (origin, target, mover)
    if key not in costs:
        costs[key] = movement_cost(game.board, origin, target, mover)
    return costs[key]


def _cost(game: GameState, unit: Unit, origin: Hex, target: Hex) -> float | None:
    """MPs the unit pays to enter target now; None if it may not (P, or not enough MPs left)."""
    cost = _movement_cost(game, origin, target, unit.mover(game.phase))
    if cost is None:
        return None
    if budget(game, unit) == ONE_HEX:
        return 0.0 if not unit.extra.get("hexes_entered", 0) else None  # 8.11: one hex regardless
    return cost if cost <= left(game, unit) + 1e-9 else None


def _may_enter(game: GameState, group: list[Unit], t: Hex) -> bool:
    """No visible enemy unit (8.23: only an overrun enters one, 9.0), no second AFV or a Wreck for
    an AFV (8.61); an over-full hex only on the way through (8.62 counts at the phase's end)."""
    side = group[0].side
    there = game.occupied().get(t, ())
    if any(u.side != side and not u.hidden for u in there):
        return False
    if (t in game.wrecks or any(u.is_afv for u in there)) and any(u.is_afv for u in group):
        return False
    if over_stacked(game, side, t, group):
        return all(_cost_beyond(game, u, t) for u in group)
    return True


def _cost_beyond(game: GameState, unit: Unit, t: Hex) -> bool:
    """Whether the unit, having entered t, still has the MPs to leave it again."""
    mover = unit.mover(game.phase)
    if unit.on_map and unit.hex is not None:
        enter = _movement_cost(game, unit.hex, t, mover)
    else:
        enter = entry_cost(game.board, t, mover)
    if enter is None or budget(game, unit) == ONE_HEX:
        return False
    rest = left(game, unit) - enter
    return any(
        (c := _movement_cost(game, t, n, unit.mover(game.phase))) is not None and c <= rest
        for n in game.neighbours(t)
        if n != unit.hex
    )


def _entries(game: GameState, unit: Unit, key: tuple[Any, ...]) -> list[Action]:
    """The moves onto the entry hexes the unit may enter now (R44: the hex's own terrain cost),
    kept for the phase by how it moves and who stands on them."""
    candidates: dict[Any, list[Hex]] = game.caches.setdefault("entries", {})
    if key not in candidates:
        value = budget(game, unit)
        candidates[key] = [
            h
            for h in sorted(open_entry_hexes(game, unit))
            if (cost := entry_cost(game.board, h, unit.mover(game.phase))) is not None
            and (value == ONE_HEX or cost <= float(value))
        ]
    occupied = game.occupied()
    taken = tuple((h, game.signature(h)) for h in candidates[key] if h in occupied)
    open_now: dict[Any, list[Action]] = game.caches.setdefault("entries_open", {})
    where = (key, taken)  # an occupied entry hex is open by who stands there (`_may_enter`)
    if where not in open_now:
        barred = {h for h, _ in taken if not _may_enter(game, [unit], h)}
        open_now[where] = game.hex_actions(MOVE, (unit.id,), [h for h in candidates[key] if h not in barred])
    return open_now[where]


def open_entry_hexes(game: GameState, unit: Unit) -> frozenset[Hex]:
    """The hexes a waiting unit may enter the map on now: its entries' options of this turn or an
    earlier one (R84), in this phase, the chosen one where the side chose before play (24.1).
    Kept for the phase (the caches go with each phase)."""
    cache: dict[tuple[Any, ...], frozenset[Hex]] = game.caches.setdefault("entry_hexes", {})
    key = (unit.id, unit.id in game.held, game.turn, game.phase, game.phasing, tuple(sorted(game.entry_choice.items())))
    if key not in cache:
        cache[key] = _open_entry_hexes(game, unit)
    return cache[key]


def _open_entry_hexes(game: GameState, unit: Unit) -> frozenset[Hex]:
    found: set[Hex] = set()
    for index, entry, option_index, option in entry_options(game, unit):
        chosen = game.entry_choice.get((unit.side, index))
        if entry.get("choose") in ("before_play", "before_setup") and chosen is not None and chosen != option_index:
            continue
        phase = option.get("phase", "movement")
        if phase == "movement" and not (game.phase == MOVEMENT and game.phasing == unit.side):
            continue
        if phase == "reaction_movement" and not (game.phase == REACTION and game.phasing != unit.side):
            continue
        if int(option["turn"]) > game.turn:
            continue
        found |= game.zone_hexes(option["zone"])
    return frozenset(found)


def entry_options(game: GameState, unit: Unit) -> Iterator[tuple[int, dict[str, Any], int, dict[str, Any]]]:
    """(entry index, entry, option index, option) of every entry that names the unit or its group."""
    side_data = game.scenario.data["sides"][unit.side]
    for index, entry in enumerate(side_data.get("entries") or []):
        if not game.names(entry, unit):
            continue
        if entry.get("limit") and unit.id not in game.held and _deploys(game, unit):
            continue  # a deploying unit uses a limited entry only when held for it (R15)
        for option_index, option in enumerate(entry["options"]):
            yield index, entry, option_index, option


def _deploys(game: GameState, unit: Unit) -> bool:
    return any(game.names(d, unit) for d in game.scenario.data["sides"][unit.side].get("deployment") or [])


# -- facing (8.7) ---------------------------------------------------------------------------


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


def _may_change_state(game: GameState, unit: Unit) -> bool:
    """3.13, 3.27: a NORMAL unit with the MPs for a change; one moving ONE HEX regardless of terrain
    costs has no MPs to count, and changes once in the phase (R156: a phase always ends)."""
    if not unit.may_change_state:
        return False
    if budget(game, unit) == ONE_HEX:
        return not unit.extra.get("state_changed") and not unit.extra.get("hexes_entered")
    return _state_change_cost(unit) <= left(game, unit)


def _state_change_cost(unit: Unit) -> float:
    """3.13: 2 MPs for infantry and CWs, 5 for AFVs."""
    return _state_change_costs()[unit.is_afv]


@cache
def _state_change_costs() -> tuple[float, float]:
    costs = table_values("terrain-effects")["movement"]["state_change_mp"]
    return float(costs["infantry_cw"]), float(costs["afv"])


# -- applying -------------------------------------------------------------------------------


def apply_movement(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action not in movement_actions(game, action):
        raise _refusal(game, action)
    units = [game.changing(i) for i in action.units]  # the movers change: this state's own (copy-on-write)
    events: list[dict[str, Any]] = []
    if action.verb == LEAD:  # a PC to move begins another move: the one under way ends (8.0)
        return end_active(game) + _lead(game, units[0])
    if action.verb == DETACH:
        return end_active(game) + _detach(game, units, game.unit(action.arg))
    if action.verb == PUSH:
        return end_active(game) + _declare_push(game, units[0], game.board.hex(action.arg))
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
    return events + _step(game, units, game.board.hex(action.arg))


# -- refusals: why an action is not open, and the rule that says so -----------------------------

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


def _step(game: GameState, units: list[Unit], target: Hex) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    units = [game.changing(u) for u in units]
    hidden_there = [u for u in game.at(target) if u.side != units[0].side and u.hidden]
    if hidden_there:  # 24.23: revealed as the unit is about to enter; 8.23 then bars the hex
        return reveal_hex(game, hidden_there[0].side, target, f"{units[0].id} is about to enter it")
    for unit in units:
        origin = unit.hex
        if unit.where == WAITING:
            cost = entry_cost(game.board, target, unit.mover(game.phase))
            if unit.is_afv:
                unit.facing = _entering_facing(game, target)
            events.append({"event": "entered_map", "unit": unit.id, "hex": game.label(target), "rule": "24.1"})
        else:
            assert origin is not None
            cost = _movement_cost(game, origin, target, unit.mover(game.phase))
            events += _reveal_leaving(game, unit, origin)
            unit = game.unit(unit.id)  # revealed with its hex
        assert cost is not None
        if budget(game, unit) != ONE_HEX:
            unit.mp_spent += cost
        unit.extra["hexes_entered"] = unit.extra.get("hexes_entered", 0) + 1
        unit.extra["left_hex_turn"] = game.player_turns  # 10.14: a Stug that left its hex may not fire
        unit.extra["free_hexsides"] = movement_allowances().free_facing_hexsides
        unit.extra.pop("must_exit", None)  # 9.0: out of the hex it overran
        unit.extra.pop("turned", None)  # R150: a new hex, a new facing change
        game.relocate(unit, ON_MAP, target)
    units = [game.unit(u.id) for u in units]  # those the state holds: revealing and detonating change units
    events.append({"event": "moved", "units": [u.id for u in units], "hex": game.label(target)})
    own_hidden = [u for u in game.at(target) if u.side == units[0].side and u.hidden and u not in units]
    if own_hidden:  # 24.22: any unit moving into a hidden hex reveals it
        events += reveal_hex(game, units[0].side, target, f"{units[0].id} moved into it")
    game.control[target] = units[0].side
    events += entering_detonation(game, units, target)  # 19.2: 'the instant' it enters, before any answer
    units = [game.unit(u.id) for u in units]
    for unit in units:
        if unit.is_afv and unit.on_map:
            events += _bog(game, unit, target)
            if unit.immobilized:  # 8.43: 'If an AFV ceases its movement all infantry accompanying it must end ...'
                riders = [u for u in units if u is not unit and not u.move_done]
                events += game.stop_moving(riders, "8.43", "its AFV bogged down")
    units = [game.unit(u.id) for u in units]
    if any(u.move_done for u in units):
        game.active = tuple(u.id for u in units if not u.move_done)
    game.interrupt = {"hex": game.label(target), "units": [u.id for u in units if u.on_map], "side": units[0].side}
    facing = next((u for u in units if u.on_map and u.faces_hexside and u.facing is None), None)
    if facing is not None:  # R161: an MG or ATG entering the map faces before the other side answers
        game.interrupt["facing"] = facing.id
        return events
    game.to_act = other(units[0].side)
    return events


def _reveal_leaving(game: GameState, unit: Unit, origin: Hex) -> list[dict[str, Any]]:
    """24.22: a unit moving out of a hidden hex reveals all units in it."""
    if origin in game.secrets[unit.side].hidden_hexes:
        return reveal_hex(game, unit.side, origin, f"{unit.id} moved out of it")
    return []


def _bog(game: GameState, afv: Unit, h: Hex) -> list[dict[str, Any]]:
    """8.54 Woods, 8.55 Marsh: two dice at most the Trees (at most 4 in Marsh) immobilize the AFV."""
    terrain = game.board.terrain(h)
    rules = terrain_effects()
    table = table_values("terrain-effects")["movement"]["afv_immobilization"]
    if terrain.trees >= rules.woods_min_trees:
        limit, rule, kind = terrain.trees, "8.54", "woods"
    elif terrain.marsh:
        limit, rule, kind = int(table["marsh"]["immobilized_at_most"]), "8.55", "marsh"
    else:
        return []
    dice = game.dice.roll(int(table[kind]["dice"]))
    stuck = sum(dice) <= limit
    if stuck:
        afv = game.changing(afv)
        afv.immobilized = True
        afv.move_done = True
        afv.extra["moving"] = False
    return [
        {"event": "bog_roll", "unit": afv.id, "dice": list(dice), "at_most": limit, "immobilized": stuck, "rule": rule}
    ]


def _entering_facing(game: GameState, h: Hex) -> int:
    """An AFV entering the map faces into it: away from the first off-map neighbour, clockwise from
    up (R85); its free turn after entering (8.74) points it as its owner likes."""
    for index, d in enumerate(DIRECTIONS):
        if h - d not in game.board.hexes:
            return index
    return 0


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


def _lead(game: GameState, leader: Unit) -> list[dict[str, Any]]:
    """8.3 A: the leader's PC for the units of his hex. Failed: none of them may move, all have
    MOVED. Passed: those staying with him move without a PC (B). 8.34: 'A unit may have only one
    leader take the PC for it': units another leader's passed PC is for are left out (R153)."""
    check = performance_check(game.dice, leader.pr)
    leader = game.changing(leader)
    leader.extra["lead_pc"] = True
    stack = [u for u in game.at(leader.hex) if u.side == leader.side] if leader.hex is not None else [leader]
    events: list[dict[str, Any]] = [
        {
            "event": "pc",
            "unit": leader.id,
            "for": "leader directed movement",
            "check": check.describe(),
            "rule": "8.3 A",
        }
    ]
    for unit in stack:
        if unit.led_by is not None:
            continue
        unit = game.changing(unit)
        unit.moved = True
        if not check.passed:
            unit.move_done = True
        elif unit is leader or may_lead(leader, unit):
            unit.led_by = leader.id
    leader.extra["lead_passed"] = check.passed
    if check.passed:
        leader.extra["pc_passed"] = True
    return events


def _detach(game: GameState, units: list[Unit], leader: Unit) -> list[dict[str, Any]]:
    """8.3 C: units moving without the leader take a modified PC (+2) with his PR; passed, they move
    at most 4 MPs (2 in Reaction Movement); failed, they have MOVED and stay."""
    check = performance_check(game.dice, leader.pr, "leader_directed_movement")
    caps = table_values("movement-allowances")["leader_directed_movement"]
    cap = float(caps["movement_phase" if game.phase == MOVEMENT else "reaction_phase"])
    units = [game.changing(u) for u in units]
    for unit in units:
        unit.led_by = None
        unit.moved = True
        if check.passed:
            unit.extra["pc_passed"] = True
            unit.extra["detached"] = tuple(u.id for u in units)
            unit.allowance_cap = cap
        else:
            unit.move_done = True
    return [
        {
            "event": "pc",
            "units": [u.id for u in units],
            "for": f"movement led by {leader.id}",
            "check": check.describe(),
            "rule": "8.3 C",
        }
    ]


# -- pushing Wrecks (8.65) ------------------------------------------------------------------


def _push_actions(game: GameState, side: str) -> list[Action]:
    """8.65: 'To push a Wreck, an AFV must spend its entire Movement Phase (not Reaction Movement
    Phase) in a hex adjacent to the Wreck': an AFV that has not moved this phase, the Wreck across
    its frontal hexside (8.74: it enters the Wreck's hex as it moves, R90), somewhere to push it to."""
    if game.phase != MOVEMENT or not game.wrecks:
        return []
    actions = []
    for afv in game.side_units(side):
        if not afv.is_afv or afv.moved or afv.facing is None or not may_start(game, afv):
            continue
        assert afv.hex is not None
        wreck = afv.hex + DIRECTIONS[afv.facing]
        if wreck not in game.wrecks or any(u.side != side and not u.hidden for u in game.at(wreck)):
            continue  # 8.23: the AFV may not enter a visible enemy unit's hex
        if _movement_cost(game, afv.hex, wreck, afv.mover(game.phase)) is None or not _wreck_to(game, afv, wreck):
            continue
        actions.append(Action(PUSH, (afv.id,), game.label_of(wreck)))
    return actions


def _wreck_to(game: GameState, afv: Unit, wreck: Hex) -> list[Hex]:
    """The hexes the Wreck may be pushed into: next to it, not the pusher's, no AFV or other Wreck
    there (8.61), ground an AFV may stand on (R90)."""
    return [
        h
        for h in game.neighbours(wreck)
        if h != afv.hex
        and h not in game.wrecks
        and not any(u.is_afv for u in game.at(h))
        and may_stand(game.board, h, afv=True, state="up")
    ]


def _declare_push(game: GameState, afv: Unit, wreck: Hex) -> list[dict[str, Any]]:
    """The AFV spends its Movement Phase on the push (it has MOVED, 4.0); the PC comes at the end."""
    afv = game.changing(afv)
    afv.moved = afv.move_done = True
    afv.extra["push"] = wreck
    return [{"event": "push", "unit": afv.id, "wreck": game.label(wreck), "rule": "8.65"}]


def pushing(game: GameState) -> list[Unit]:
    """The AFVs whose push is still to be resolved, in a fixed order."""
    return [u for u in game.units.values() if u.extra.get("push") is not None]


def resolve_pushes(game: GameState) -> list[dict[str, Any]]:
    """8.65: 'At the end of the Movement Phase, the AFV takes a PC. If it passes, the Wreck is placed
    in an adjacent hex' (its owner chooses: `wreck_actions`) 'and the AFV enters the hex previously
    occupied by the Wreck. If it fails, the Wreck does not move.' One push at a time, so that each
    Wreck placed counts for the next. The PC is 8.65's own, taken before the first shot too."""
    events: list[dict[str, Any]] = []
    for afv in pushing(game):
        if afv.extra.get("push_passed"):
            return events  # its owner places the Wreck first
        afv = game.changing(afv)
        wreck: Hex = afv.extra["push"]
        check = performance_check(game.dice, afv.pr)
        events.append(
            {"event": "pc", "unit": afv.id, "for": "pushing a wreck", "check": check.describe(), "rule": "8.65"}
        )
        hidden = [u for u in game.at(wreck) if u.side != afv.side and u.hidden]
        if check.passed and hidden:  # 24.23, R88: revealed as the AFV is about to enter; it does not
            events += reveal_hex(game, hidden[0].side, wreck, f"{afv.id} is about to enter it")
            afv = game.unit(afv.id)
        elif check.passed and _wreck_to(game, afv, wreck):
            afv.extra["push_passed"] = True
            return events
        elif check.passed:
            events.append({"event": "push", "unit": afv.id, "wreck": game.label(wreck), "why": "nowhere to push it"})
        del afv.extra["push"]
    return events


def wreck_actions(game: GameState) -> list[Action]:
    """Where the owner of the AFV that passed its push PC may place the Wreck (8.65)."""
    afv = next((u for u in pushing(game) if u.extra.get("push_passed")), None)
    if afv is None:
        return []
    return [Action(WRECK, (afv.id,), game.label_of(h)) for h in _wreck_to(game, afv, afv.extra["push"])]


def apply_wreck(game: GameState, action: Action) -> list[dict[str, Any]]:
    """The Wreck goes where its owner chose, and the AFV enters the Wreck's hex as any move (8.54 and
    8.55 roll there, the other side is asked whether it reacts)."""
    if action not in wreck_actions(game):
        raise IllegalAction(f"{action.text()}: the Wreck pushed goes to a hex next to it (8.65)", "8.65")
    afv = game.changing(action.units[0])
    wreck: Hex = afv.extra.pop("push")
    del afv.extra["push_passed"]
    game.wrecks.remove(wreck)
    game.wrecks.add(game.board.hex(action.arg))
    events = [{"event": "wreck pushed", "unit": afv.id, "from": game.label(wreck), "to": action.arg, "rule": "8.65"}]
    return events + _step(game, [afv], wreck)
