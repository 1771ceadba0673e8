"""A side's movement starts in play (8.0): what each of its units may begin now, hex by hex, in
the order of `side_units` (a CW's turns, R91; each hex's choices from its first unit that may
start; the waiting units' entries, 24.1), kept by hex (`GameState.hex_starts`) and put together
as a listing (`GameState.starts_listing`) that a move or a change patches by the hexes it touched.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any, NamedTuple

from engine.geometry.movement import State
from engine.hexgrid import Hex

from .actions import FACE, MOVE, STATE, Action
from .facing import _facing_hexes, _may_turn, _turns, turns_only
from .leaders import _leader_actions, _with_their_leaders
from .stacks import AFV_ALONE, _groups, _order
from .state import GameState
from .steps import _dynamic, _entries, _may_change_state, _mover_key, _steps, budget, may_start, pc_needed
from .units import WAITING, Unit


class _Listing(NamedTuple):
    """A side's movement starts as `_starts` put them together, kept with the hexes' starts
    (`GameState.starts_listing`) so that a listing after a move puts in only the hexes it touched."""

    side: str
    stamp: tuple[Any, ...]
    reached: int  # 8.0's order reached when it was put together
    # each hex's: the place of its first unit that may start (None: none may), its choices, its CWs'
    # turns by place, whether its choices depend on the order reached (`_hex_entry`)
    hexes: dict[Hex, tuple[int | None, list[Action], list[tuple[int, list[Action]]], bool]]
    # the side's units waiting to enter that might start: those that may when it is first put together
    # (open_entry_hexes: the phase's; a waiting unit stops only as it starts), less those that entered since
    waiting: tuple[str, ...]
    turns: list[Action]  # the CWs' turns (R91), in the order of `side_units`
    turned: list[tuple[int, list[Action]]]  # those turns by their CW's place, in that order
    onmap: list[Action]  # the hexes' choices, each hex at its first unit that may start
    ranks: list[int]  # that unit's place (`GameState.ranks`: the order of `side_units`), hex by hex
    choices: list[list[Action]]  # each hex's choices, in the order of `ranks`
    offsets: list[int]  # where each hex's choices begin in `onmap` (and its length last)


def _starts(game: GameState, side: str, about: Action | None = None) -> list[Action]:
    """The units' starts, in the order of `side_units`: a CW's turns where it stands (R91), then
    each hex's choices from its first unit that may start, the waiting units' entries (24.1) at the
    first of them that may. A hex's are kept (`GameState.hex_starts`, by the phase and the first
    shot, and the order reached where an AFV may start: `_hex_entry`) until a unit in it changes or
    one next to it moves, and so is the listing put together from them (`_Listing`): a listing asks
    only the hexes a move or a change touched, or those with an AFV when the order moves on (8.0),
    not every unit of the side. With `about`, the choices of its units' hex only."""
    reached = game.stage.get(side, AFV_ALONE)
    stamp = (game.phase, game.phasing, game.turn, game.first_shot)
    first = game.units.get(about.units[0]) if about is not None and about.units else None
    if first is not None and first.on_map and first.hex is not None:
        entry = _entry(game, side, first.hex, stamp, reached, keep=False)  # kept from whole listings only
        return [*(a for turns in entry[2].values() for a in turns), *(entry[3] if entry[1] else ())]
    if first is not None:  # off the map: only a waiting unit may start (24.1)
        ids = [u.id for u in game.side_units(side) if u.where == WAITING] if first.where == WAITING else []
        return _entering(game, side, ids, reached)[1]
    kept = game.starts_listing()
    if kept is None or kept[0].side != side or kept[0].stamp != stamp:
        units = game.side_units(side)
        hexes = dict.fromkeys(u.hex for u in units if u.on_map and u.hex is not None)
        waiting = tuple(u.id for u in units if u.where == WAITING and may_start(game, u))
        listing = _listing(game, side, stamp, reached, None, hexes, waiting)
        game.starts_listing(keep=listing)
    elif kept[1] or kept[0].reached != reached:
        changed = kept[1] if kept[0].reached == reached else kept[1].union(h for h, v in kept[0].hexes.items() if v[3])
        listing = _listing(game, side, stamp, reached, kept[0], changed, kept[0].waiting)
        game.starts_listing(keep=listing)
    else:
        listing = kept[0]
    return _assembled(game, listing, reached)


def _entry(
    game: GameState, side: str, h: Hex, stamp: tuple[Any, ...], reached: int, keep: bool = True
) -> tuple[Any, ...]:
    """A hex's starts (`_hex_entry`), kept in `hex_starts` by its stamp and, if they depend on it,
    the order reached."""
    entry: tuple[Any, ...] | None = game.hex_starts().get(h)
    if entry is None or entry[0] != stamp or entry[4] not in (None, reached):
        entry = _hex_entry(game, side, h, stamp, reached)
        if keep:
            game.keep_starts(h, entry)
    return entry


def _listing(
    game: GameState,
    side: str,
    stamp: tuple[Any, ...],
    reached: int,
    base: _Listing | None,
    changed: Iterable[Hex],
    waiting: tuple[str, ...],
) -> _Listing:
    """`base` (a listing, left as it is) with the `changed` hexes' starts asked anew, each put in
    its place in the order of `side_units`, where the hexes it kept stay in theirs: every hex's
    choices sorted and put together again after each move cost more than the hexes it asked."""
    ranks = game.ranks()
    occupied = game.occupied()
    if base is None:
        hexes, firsts, choices, turned = {}, [], [], []
    else:
        hexes, firsts, choices, turned = dict(base.hexes), list(base.ranks), list(base.choices), list(base.turned)
    changed = list(changed)
    for h in changed:
        old = hexes.pop(h, None)  # most hexes a move touches had no starts
        if old is not None:
            _dropped(old, firsts, choices, turned)
    for h in changed:  # once every changed hex is out: a unit that moved is in the old hex's place
        there = occupied.get(h)  # most hexes a move touches stand empty
        if there and (there[0].side == side or any(u.side == side for u in there)):
            entry = _entry(game, side, h, stamp, reached)
            first = min([ranks[i] for i in entry[1]]) if entry[1] else None
            turns_by_place = [(ranks[i], turns) for i, turns in entry[2].items()]
            hexes[h] = (first, entry[3], turns_by_place, entry[4] is not None)
            if first is not None:
                at = bisect_left(firsts, first)
                firsts.insert(at, first)
                choices.insert(at, entry[3])
            for item in turns_by_place:
                insort(turned, item, key=itemgetter(0))
    offsets = [0, *accumulate(map(len, choices))]
    turns = [a for _, t in turned for a in t]
    return _Listing(
        side,
        stamp,
        reached,
        hexes,
        waiting,
        turns,
        turned,
        list(chain.from_iterable(choices)),
        firsts,
        choices,
        offsets,
    )


def _dropped(
    old: tuple[int | None, list[Action], list[tuple[int, list[Action]]], bool],
    firsts: list[int],
    choices: list[list[Action]],
    turned: list[tuple[int, list[Action]]],
) -> None:
    """A hex's old starts taken out of a listing's places (found by their place, then as the same list)."""
    if old[0] is not None:
        at = bisect_left(firsts, old[0])
        while choices[at] is not old[1]:
            at += 1
        del firsts[at], choices[at]
    for place, turns in old[2]:
        at = bisect_left(turned, place, key=itemgetter(0))
        while turned[at][1] is not turns:
            at += 1
        del turned[at]


def _assembled(game: GameState, listing: _Listing, reached: int) -> list[Action]:
    """The listing with the waiting units' entries at the first of them that may start."""
    first, moves = _entering(game, listing.side, listing.waiting, reached)
    if not moves:
        return [*listing.turns, *listing.onmap] if listing.turns else listing.onmap  # the kept list: never changed
    at = listing.offsets[bisect_left(listing.ranks, first)]
    return [*listing.turns, *listing.onmap[:at], *moves, *listing.onmap[at:]]


def _entering(game: GameState, side: str, waiting: Iterable[str], reached: int) -> tuple[int, list[Action]]:
    """The waiting units' moves onto the map (24.1), one unit at a time in the order of
    `side_units`, and the place of the first of them that may start."""
    first, moves = -1, []
    for i in waiting:
        unit = game.units[i]
        if unit.where == WAITING and may_start(game, unit):
            if first < 0:
                first = game.ranks()[i]
            if _order(unit, [unit]) >= reached:
                moves += _entry_moves(game, unit)
    return first, moves


def _hex_entry(game: GameState, side: str, h: Hex, stamp: tuple[Any, ...], reached: int) -> tuple[Any, ...]:
    """A hex's starts for `_starts`: (the stamp, the units that may start, a CW's turns by unit,
    the hex's choices, the order reached they hold for: None for any). 8.0's order bars only AFVs
    and their stacks (`_order`): without an AFV that may start, the choices are the same at any."""
    units, turns = [], {}
    for unit in game.occupied().get(h, ()):
        if unit.side != side:
            continue
        if may_start(game, unit):
            units.append(unit)
        elif unit.kind == "cw" and turns_only(game, unit):
            turns[unit.id] = game.hex_actions(FACE, (unit.id,), _facing_hexes(game, unit))
    if not units:
        return (stamp, frozenset(), turns, [], None)
    # A hex's choices change only with the phase, its units and what stands around it: kept by that key.
    order, around = (reached if any(u.is_afv for u in units) else None), game.around(h)
    key = (h, game.phase, order, game.first_shot, tuple([_dynamic(u) for u in units]), around)
    cache: dict[tuple[Any, ...], list[Action]] = game.caches.get("starts") or game.caches.setdefault("starts", {})
    found = cache.get(key)
    if found is None:
        alike: dict[tuple[Any, ...], list[Hex]] = game.caches.setdefault("steps", {})  # units alike step alike
        found = cache[key] = _hex_starts(game, units, reached, alike, around)
    return (stamp, frozenset([u.id for u in units]), turns, found, order)


def _entry_moves(game: GameState, unit: Unit) -> list[Action]:
    """The unit's moves onto the map (24.1), kept until units move (by how it moves: `_entries`)
    in this phase: what `GameState.kept` keeps outlasts a phase in which no unit moves, and a later
    turn opens more entry hexes (R84)."""
    key = (unit.id, unit.id in game.held, unit.mover(game.phase), budget(game, unit))
    phase = (game.turn, game.phase, game.phasing)
    moves: list[Action] = game.kept(("entry_moves", phase, key), lambda: _entries(game, unit, key))
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
