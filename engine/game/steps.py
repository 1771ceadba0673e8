"""Steps and their costs in play (8.0, 8.1, 8.5): who may start to move now, each unit's MPs
(8.1, 8.3 C) and what it has left, the hexes a unit or stack may enter next (8.5, 8.61, 8.74) and
what entering one does (24.22, 19.2, 8.54, 8.55), entries onto the map (24.1) and state changes (3.13).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from engine.geometry.movement import ONE_HEX, Morale, allowance, entry_cost, movement_cost
from engine.hexgrid import DIRECTIONS, Hex
from engine.model.tables import movement_allowances, table_values, terrain_effects

from .actions import MOVE, Action
from .mines import entering_detonation
from .morale import reveal_hex
from .stacks import over_stacked
from .state import MOVEMENT, REACTION, GameState, other
from .units import ON_MAP, WAITING, SharedUnit, Unit, while_shared

_allowance = cache(allowance)


def mover_side(game: GameState) -> str:
    """The side that moves in this phase: the phasing player in C, the other in D (6.0)."""
    return game.phasing if game.phase == MOVEMENT else other(game.phasing)


def budget(game: GameState, unit: Unit) -> float | str:
    """MPs the unit may spend this phase (8.1), or ONE_HEX; 8.3 C caps a unit led off on its own."""
    # how it moves (`Unit.mover`: its state, morale and facing in this phase), its cap and its men, read
    # without asking for its mover: a listing asks every unit's budget a few times over
    key = (unit.state, unit.morale, game.phase, unit.facing, unit.allowance_cap, unit.men)
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
    """Whether the unit may begin to move (or turn, or change state) in this phase. A shared unit
    not waiting to enter keeps the answer for the phase: nothing else it asks of the game changes
    within one (its restrictions by the Player Turn, 24.1)."""
    if type(unit) is not SharedUnit or unit.where == WAITING:
        return _may_start(game, unit)
    phase = (game.phase, game.phasing, game.turn)
    kept = unit.extra.get("_may_start")
    if kept is not None and kept[0] == phase:
        return bool(kept[1])
    found = _may_start(game, unit)
    unit.extra["_may_start"] = (phase, found)
    return found


def _may_start(game: GameState, unit: Unit) -> bool:
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


def restricted(game: GameState, unit: Unit) -> bool:
    """A scenario restriction (24.1): the unit may not move before that side's Player Turn of that
    Game Turn ("they may not move until Russian Player Turn 2"); kept for the phase."""
    found: dict[str, bool] = game.caches.get("restricted") or game.caches.setdefault("restricted", {})
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


def _dynamic(unit: Unit) -> tuple[Any, ...]:
    """Everything about a unit this phase that its choices depend on (kept while it is shared)."""
    if type(unit) is not SharedUnit:
        return _dynamic_now(unit)
    found: tuple[Any, ...] = while_shared(unit, "_dynamic", _dynamic_now)
    return found


# the notes of a unit's `extra` that its movement choices depend on (`_dynamic`); commander_killed,
# 11.43: no more state changes (Unit.may_change_state)
_DYNAMIC_NOTES = (
    *("moving", "pc_passed", "hexes_entered", "lead_pc", "lead_passed", "detached", "free_hexsides"),
    *("turned", "state_changed", "must_exit", "commander_killed"),
)


def _dynamic_now(unit: Unit) -> tuple[Any, ...]:
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
        unit.immobilized,
        *map(unit.extra.get, _DYNAMIC_NOTES),
    )


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


def _steps(game: GameState, group: list[Unit]) -> list[Hex]:
    """The adjacent hexes every unit of the group may enter now (8.5, 8.61, 8.74): `_cost` for each
    unit, with what does not depend on the hex entered worked out once per unit."""
    first = group[0]
    origin = first.hex
    if origin is None or not first.on_map:
        return []
    afv = next((u for u in group if u.is_afv), None)
    front = None if afv is None or afv.facing is None else origin + DIRECTIONS[afv.facing]
    movers = []  # each unit's step costs, whether it moves ONE HEX (and has entered one), its MPs left
    for u in group:
        value = budget(game, u)
        one_hex = value == ONE_HEX
        entered = one_hex and u.extra.get("hexes_entered", 0)  # 8.11: a ONE_HEX unit enters one hex regardless
        limit = 0.0 if one_hex else float(value) - u.mp_spent + 1e-9  # `left`, but for a ONE_HEX unit, not asked
        movers.append((_step_costs(game, origin, u.mover(game.phase)), one_hex, entered, limit))
    occupied, wrecks = game.occupied(), game.wrecks
    # `_may_enter` of a hex no unit stands in and no Wreck: whether the group alone over-fills it
    # (8.62: then only on the way through), the same for every such hex; asked at the first
    alone: bool | None = None
    targets = []
    for i, t in enumerate(game.neighbours(origin)):
        if afv is not None and t != front:
            continue  # 8.74: an AFV moves out of its hex through its frontal hexside (R42)
        for costs, one_hex, entered, limit in movers:
            cost = costs[i]
            if cost is None or (entered if one_hex else cost > limit):
                break
        else:
            if t in occupied or t in wrecks:
                if _may_enter(game, group, t):
                    targets.append(t)
                continue
            if alone is None:
                alone = over_stacked(game, group[0].side, t, group)
            if not alone or _may_enter(game, group, t):
                targets.append(t)
    return targets


def _step_costs(game: GameState, origin: Hex, mover: Any) -> list[float | None]:
    """`_movement_cost` into each of origin's neighbours (in `neighbours` order), kept per board by
    what `_movement_cost` reads of the mover."""
    kept = game.board.caches  # `get` first: `setdefault` would make a dict to throw away at every call
    costs: dict[tuple[Hex, bool, bool], list[float | None]] = kept.get("game_step_costs") or kept.setdefault(
        "game_step_costs", {}
    )
    key = (origin, mover.is_afv, mover.is_up)
    found = costs.get(key)
    if found is None:
        found = costs[key] = [_movement_cost(game, origin, t, mover) for t in game.neighbours(origin)]
    return found


def _movement_cost(game: GameState, origin: Hex, target: Hex, mover: Any) -> float | None:
    """movement_cost, kept per board (the game never edits the terrain) by all it reads of the
    mover: AFV or not and UP or not (8.5's chart); 8.52's road rate asks NORMAL and UP, and a unit
    not NORMAL is DOWN (3.26), so UP says it. Keyed by the whole mover, the same costs were worked
    out again for each facing, Movement Allowance and morale (S1: about 600 times a game)."""
    kept = game.board.caches
    costs: dict[tuple[Hex, Hex, bool, bool], float | None] = kept.get("game_movement_costs") or kept.setdefault(
        "game_movement_costs", {}
    )
    key = (origin, target, mover.is_afv, mover.is_up)
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
    there = game.occupied().get(t)  # most hexes a step may enter stand empty
    if there and any(u.side != side and not u.hidden for u in there):
        return False
    if any(u.is_afv for u in group) and (t in game.wrecks or (there and any(u.is_afv for u in there))):
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
    """The moves onto the entry hexes the unit may enter now (R44: the hex's own terrain cost):
    those its MPs reach, kept for the game by how it moves and the hexes open to it, less the
    occupied ones that who stands there bars (`_may_enter`), kept by hex and who stands there (a
    move changes a few: the others are not asked again)."""
    open_hexes = open_entry_hexes(game, unit)
    reached: dict[Any, tuple[list[Hex], frozenset[Hex], list[Action]]] = game.caches.setdefault("entries", {})
    found = reached.get((key, open_hexes))
    if found is None:
        hexes = _entry_reach(game, unit.mover(game.phase), budget(game, unit), open_hexes)
        found = reached[(key, open_hexes)] = (hexes, frozenset(hexes), game.hex_actions(MOVE, (unit.id,), hexes))
    hexes, among, moves = found
    occupied = among.intersection(game.occupied())
    if not occupied:
        return moves
    # all `_may_enter` asks of a waiting unit: how it moves, its men and MPs spent, who stands in the hex
    everywhere: dict[tuple[Any, ...], dict[tuple[Hex, Any], bool]] = game.caches.setdefault("entry_bars", {})
    bars = everywhere.get((key, unit.men, unit.mp_spent))
    if bars is None:
        bars = everywhere[(key, unit.men, unit.mp_spent)] = {}
    barred = set()
    for h in occupied:
        where = (h, game.signature(h))
        bar = bars.get(where)
        if bar is None:
            bar = bars[where] = not _may_enter(game, [unit], h)
        if bar:
            barred.add(h)
    return [move for h, move in zip(hexes, moves, strict=True) if h not in barred] if barred else moves


def _entry_reach(game: GameState, mover: Any, value: float | str, open_hexes: frozenset[Hex]) -> list[Hex]:
    """The open entry hexes that a unit moving as `mover` with `value` MPs may enter (R44: the hex's
    own terrain cost), in order; kept per board (the game never edits the terrain), for every unit
    that moves alike and every game: each waiting unit asks anew at each turn and phase."""
    kept: dict[tuple[Any, ...], list[Hex]] = game.board.caches.setdefault("game_entry_reach", {})
    key = (mover, value, open_hexes)
    found = kept.get(key)
    if found is None:
        found = kept[key] = [
            h
            for h in sorted(open_hexes)
            if (cost := entry_cost(game.board, h, mover)) is not None and (value == ONE_HEX or cost <= float(value))
        ]
    return found


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


def _step(game: GameState, units: list[Unit], target: Hex) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    units = [game.changing(u) for u in units]
    hidden_there = [u for u in game.occupied().get(target, ()) if u.side != units[0].side and u.hidden]
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
    own_hidden = [u for u in game.occupied().get(target, ()) if u.side == units[0].side and u.hidden and u not in units]
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
