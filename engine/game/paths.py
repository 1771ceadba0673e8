"""Moves by path: `move UNITS H1 H2 ... Hn` is one decision for a whole move (docs/engine.md, R190-R192).

The engine plays it hex by hex through movement's own actions, as the same steps played one by
one: after each hex the other side answers (13.0); its `pass` plays the next hex. The path stops
where the rules stop it (a failed PC 8.22, 13.18's PINNED, 19.27's mines, 8.54 bogging, a hex
it may no longer enter) with a `path ended` event naming the hex, the reason and the rule.
`GameState.path` holds the hexes still to go while the other side answers (R190).

`paths(game, units)` gives every hex the units may reach with the cheapest path to it, from
what their side sees (8.1, 8.5, 8.23, 8.61, 8.74).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.geometry.movement import ONE_HEX, entry_cost
from engine.hexgrid import Hex, LabelError
from engine.model.tables import movement_allowances

from .actions import FACE, MOVE, Action, IllegalAction
from .facing import facing_index, turn_mp
from .movement import apply_movement, movement_actions
from .stacks import over_stacked
from .state import MOVEMENT, REACTION, GameState
from .steps import _entering_facing, _movement_cost, _step_costs, budget, left, open_entry_hexes
from .units import Unit


class Route(NamedTuple):
    """The cheapest path to a hex: its hexes (the first next to the units, the last the
    destination) and the most MPs a unit of the stack spends on it (turns included, 8.74)."""

    hexes: tuple[str, ...]
    mp: float

    def action(self, units: Sequence[str]) -> Action:
        return Action(MOVE, tuple(units), " ".join(self.hexes))


def is_path(action: Action) -> bool:
    """`move UNITS H1 H2 ...`: more than one hex (one hex is movement's own step)."""
    return action.verb == MOVE and " " in action.arg


# -- playing a path ---------------------------------------------------------------------------


def apply_path(game: GameState, action: Action) -> list[dict[str, Any]]:
    """Check the whole path from what the mover knows, then play its first hex (R191)."""
    labels, _ = _checked(game, action)
    game.path = {"units": list(action.units), "hexes": labels, "entered": 0, "n": len(game.log)}
    return continue_path(game)


def continue_path(game: GameState) -> list[dict[str, Any]]:
    """The path's next hex (the other side passed at the one entered last, 13.0), or its end."""
    path = game.path
    assert path is not None
    ids = tuple(path["units"])
    if path["entered"] and game.active != ids:  # fire (13.18), mines (19.27), bogging (8.54, 8.43)
        return _ended(game, [])
    if not path["hexes"]:
        return _ended(game, [], reached=True)
    target = path["hexes"][0]
    events: list[dict[str, Any]] = []
    try:
        events += _turn_toward(game, ids, target)
        if not any(game.unit(i).move_done for i in ids):
            events += apply_movement(game, Action(MOVE, ids, target))
    except IllegalAction as refusal:
        return _ended(game, events, why=(refusal.reason, refusal.rule or "8.0"))
    if game.interrupt is None:  # no hex entered: a failed PC (8.22), units revealed in it (24.23)
        return _ended(game, events)
    path["hexes"] = path["hexes"][1:]
    path["entered"] += 1
    return events


def _turn_toward(game: GameState, ids: tuple[str, ...], target: str) -> list[dict[str, Any]]:
    """8.74: an AFV leaves its hex through its frontal hexside: it turns first (R192)."""
    afv = next((u for u in map(game.unit, ids) if u.is_afv), None)
    if afv is None or not afv.on_map or afv.hex is None or afv.facing is None:
        return []
    toward = facing_index(afv.hex, game.hex(target))
    if toward is None or toward == afv.facing:
        return []
    if len(ids) > 1 and game.active != ids:
        raise IllegalAction(f"the stack's AFV faces away from {target}: it turns once the stack moves", "8.74")
    return apply_movement(game, Action(FACE, (afv.id,), target))


def _ended(
    game: GameState, events: list[dict[str, Any]], *, reached: bool = False, why: tuple[str, str] | None = None
) -> list[dict[str, Any]]:
    """The path's end: where the units are, and why they stopped short (the rule that stopped them)."""
    path = game.path
    assert path is not None
    game.path = None
    lead = game.unit(path["units"][0])
    end: dict[str, Any] = {"event": "path ended", "units": path["units"], "hex": game.label(lead.hex)}
    if reached:
        return [*events, {**end, "reached": True, "rule": "8.0"}]
    reason, rule = why or _why_stopped(game, path, events)
    return [*events, {**end, "reached": False, "why": reason, "rule": rule}]


def _why_stopped(game: GameState, path: dict[str, Any], events: list[dict[str, Any]]) -> tuple[str, str]:
    """What stopped the path: the last failed PC of its units, bog roll, stop or reveal among its events."""
    ids = set(path["units"])
    since = [e for entry in game.log[path["n"] :] for e in entry.get("events", [])]
    for event in reversed([*since, *events]):
        kind = event.get("event")
        named = {event.get("unit"), *event.get("units", [])}
        if kind == "pc" and ids & named and str(event.get("check", "")).endswith("failed"):
            return f"{'+'.join(sorted(ids & named))} failed the PC to move", str(event["rule"])
        if kind == "bog_roll" and event.get("immobilized"):
            return f"{event['unit']} is immobilized", str(event["rule"])
        if kind == "stopped" and event.get("unit") in ids and event.get("rule"):
            return f"{event['unit']} stopped ({event.get('why') or 'its move ended'})", str(event["rule"])
        if kind == "eliminated" and event.get("unit") in ids:
            return f"{event['unit']} was eliminated", str(event.get("rule", "13.18"))
        if kind == "revealed":
            return f"hidden units revealed in {event['hex']}", "24.23"
    return "the stack no longer moves as one", "8.0"


def _checked(game: GameState, action: Action) -> tuple[list[str], dict[str, float]]:
    """The path's hexes and each unit's MPs for it; refused with the first hex the mover may not
    take and the rule, from what its side knows only (terrain costs, the enemy units it sees: R191)."""
    unknown = [i for i in action.units if i not in game.units]
    if unknown or not action.units:
        raise IllegalAction(f"no unit {unknown[0] if unknown else ''} to move", "8.0")
    group = [game.unit(i) for i in action.units]
    labels = action.arg.split()
    hexes = []
    for label in labels:
        try:
            hexes.append(game.hex(label))
        except LabelError:
            raise IllegalAction(f"the path's {label} is not a hex of the map", "8.0") from None
    previous = group[0].hex if group[0].on_map else None
    spent = dict.fromkeys(action.units, 0.0)
    afv = next((u for u in group if u.is_afv), None)
    free_after = movement_allowances().free_facing_hexsides
    facing = afv.facing if afv is not None else None
    free = int(afv.extra.get("free_hexsides", free_after)) if afv is not None else free_after
    for n, (label, h) in enumerate(zip(labels, hexes, strict=True)):
        if previous is not None and h not in game.neighbours(previous):
            raise IllegalAction(f"{label} is not next to {game.label_of(previous)}: a path goes hex by hex", "8.0")
        if any(u.side != group[0].side and not u.hidden for u in game.at(h)):
            raise IllegalAction(f"{label} holds an enemy unit: only an overrun enters one", "8.23")
        toward = None if previous is None else facing_index(previous, h)
        for unit in group:
            _spend(game, unit, previous, h, label, n, spent)
            if unit is afv and toward is not None and facing is not None:
                spent[unit.id] += turn_mp(facing, toward, free)  # 8.74: it turns to leave by its front
            if spent[unit.id] > left(game, unit) + 1e-9:
                raise IllegalAction(
                    f"{unit.id} has {left(game, unit):g} MP left: the path to {label} costs {spent[unit.id]:g}", "8.1"
                )
        if afv is not None:
            facing = toward if toward is not None else _entering_facing(game, h)
        previous, free = h, free_after
    return labels, spent


def _spend(
    game: GameState, unit: Unit, previous: Hex | None, h: Hex, label: str, n: int, spent: dict[str, float]
) -> None:
    """What entering h costs the unit (8.5; 24.1 from off the map; 8.11 one hex regardless)."""
    if budget(game, unit) == ONE_HEX:
        if n + int(unit.extra.get("hexes_entered", 0)) >= 1:
            raise IllegalAction(f"{unit.id} moves one hex regardless of terrain: {label} is one more", "8.11")
        return
    mover = unit.mover(game.phase)
    cost = _movement_cost(game, previous, h, mover) if previous is not None else entry_cost(game.board, h, mover)
    if cost is None:
        raise IllegalAction(f"{label} is prohibited to {unit.id} (P)", "8.5")
    spent[unit.id] += cost


# -- where the units may go -------------------------------------------------------------------


def paths(game: GameState, units: Sequence[str]) -> dict[str, Route]:
    """Every hex the units may move to now, with its cheapest path (the least MPs in all), from what
    their side sees: terrain costs and the road rate (8.5), MPs left (8.1), no hex with an enemy unit
    it sees (8.23), no AFV into an AFV's or a Wreck's hex (8.61), an AFV turning to leave by its
    front (8.74), a hex over 8.62's limit only on the way through. Hidden enemy units and mines are
    not known: the path may stop short when played. In the order of the destinations' labels."""
    if game.phase not in (MOVEMENT, REACTION) or game.interrupt is not None or game.closing or game.phase_ending:
        return {}
    ids = tuple(units)
    group = [game.unit(i) for i in ids]
    legal = set(movement_actions(game, Action(MOVE, ids)))
    afv = next((u for u in group if u.is_afv), None)
    side = group[0].side
    origin = group[0].hex if group[0].on_map else None
    free_after = movement_allowances().free_facing_hexsides
    # a heap of (MPs in all, order, hex, facing, each unit's MPs, hexes entered, the path so far as
    # (the path to the hex before, this hex's label): a tuple of the labels is made for a route only)
    heap: list[tuple[float, int, Hex, int | None, tuple[float, ...], int, Any]] = []
    if origin is not None:
        heap.append((0.0, 0, origin, afv.facing if afv else None, (0.0,) * len(group), 0, None))
    elif len(group) == 1:  # 24.1: one unit at a time onto its entry hexes
        for h in sorted(open_entry_hexes(game, group[0])):
            label = game.label_of(h)
            if Action(MOVE, ids, label) in legal:
                mover = group[0].mover(game.phase)
                cost = 0.0 if budget(game, group[0]) == ONE_HEX else entry_cost(game.board, h, mover)
                assert cost is not None
                entering = _entering_facing(game, h) if afv else None
                heap.append((cost, len(heap), h, entering, (cost,), 1, (None, label)))
    heapq.heapify(heap)
    # each unit: how it moves, whether it moves one hex regardless (8.11) and may still, its MPs left
    movers = [
        (u, u.mover(game.phase), budget(game, u) == ONE_HEX, not u.extra.get("hexes_entered"), left(game, u) + 1e-9)
        for u in group
    ]
    turns: dict[tuple[int, int, int], float] = {}  # 8.74's MPs of a turn, by (facing, new facing, free)
    best: dict[tuple[Hex, int | None], float] = {}
    found: dict[str, Route] = {}
    passable: dict[Hex, bool] = {}
    order = len(heap)
    while heap:
        total, _, h, facing, spent, entered, path = heapq.heappop(heap)
        if best.get((h, facing), float("inf")) <= total:
            continue
        best[(h, facing)] = total
        if path is not None and path[1] not in found and not over_stacked(game, side, h, group):
            found[path[1]] = Route(_labels(path), max(spent))
        free = int(afv.extra.get("free_hexsides", free_after)) if afv is not None and h == origin else free_after
        step_costs = [_step_costs(game, h, mover) for _, mover, _, _, _ in movers]
        facings = _neighbour_facings(game, h) if afv is not None else None
        for i, n in enumerate(game.neighbours(h)):
            if n == origin:
                continue
            toward = facings[i] if facings is not None else None
            turn = 0.0
            if facing is not None and toward is not None:
                key = (facing, toward, free)
                turn = turns.get(key, -1.0)
                if turn < 0:
                    turn = turns[key] = turn_mp(facing, toward, free)
            costs = _entering(movers, step_costs, i, spent, entered, afv, turn)
            if costs is None:
                continue
            if n not in passable:
                passable[n] = _may_pass(game, group, n)
            if not passable[n]:
                continue
            label = game.label_of(n)
            if h == origin and not _first_step_legal(game, ids, legal, afv, facing, toward, label):
                continue
            order += 1
            heapq.heappush(heap, (sum(costs), order, n, toward, costs, entered + 1, (path, label)))
    return dict(sorted(found.items()))


def _labels(path: Any) -> tuple[str, ...]:
    """A path kept as (the path before, the last label), as the tuple of its labels."""
    labels = []
    while path is not None:
        path, label = path
        labels.append(label)
    return tuple(reversed(labels))


def _neighbour_facings(game: GameState, h: Hex) -> list[int | None]:
    """facing_index toward each of h's neighbours (in `neighbours` order), kept per board."""
    kept: dict[Hex, list[int | None]] = game.board.caches.setdefault("game_neighbour_facings", {})
    found = kept.get(h)
    if found is None:
        found = kept[h] = [facing_index(h, n) for n in game.neighbours(h)]
    return found


def _entering(
    movers: list[tuple[Unit, Any, bool, bool, float]],
    step_costs: list[list[float | None]],
    i: int,
    spent: tuple[float, ...],
    entered: int,
    afv: Unit | None,
    turn: float,
) -> tuple[float, ...] | None:
    """Each unit's MPs once it has entered the hex's i-th neighbour (8.5, the AFV's turn first: 8.74;
    8.11: a ONE_HEX unit one hex only), or None if one of them may not."""
    costs = []
    for (unit, _, one_hex, may, most), so_far, from_here in zip(movers, spent, step_costs, strict=True):
        if one_hex:
            if entered or not may:
                return None
            costs.append(0.0)
            continue
        cost = from_here[i]
        if cost is None:
            return None
        cost += so_far + (turn if unit is afv else 0.0)
        if cost > most:
            return None
        costs.append(cost)
    return tuple(costs)


def _may_pass(game: GameState, group: list[Unit], n: Hex) -> bool:
    """8.23: no enemy unit the side sees; 8.61: no AFV into an AFV's or a Wreck's hex."""
    there = game.at(n)
    if any(u.side != group[0].side and not u.hidden for u in there):
        return False
    return not (any(u.is_afv for u in group) and (n in game.wrecks or any(u.is_afv for u in there)))


def _first_step_legal(
    game: GameState,
    ids: tuple[str, ...],
    legal: set[Action],
    afv: Unit | None,
    facing: int | None,
    toward: int | None,
    label: str,
) -> bool:
    """The first hex is one of movement's choices now (or, for an AFV, the turn toward it: R192)."""
    if afv is not None and facing is not None and toward != facing:
        return Action(FACE, (afv.id,), label) in legal and (len(ids) == 1 or game.active == ids)
    return Action(MOVE, ids, label) in legal
