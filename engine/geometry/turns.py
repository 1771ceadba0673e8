"""How many Movement Phases a unit needs to reach a set of hexes, unopposed (8.1, 8.5, 8.74, 8.75):
what scenario validation asks of every force and objective (engine/validate/context.py).

The costs and the AFV facing come from engine.geometry.movement; R41, R42, R44 and R46 are the
readings chosen where the rules are silent (docs/rulings.md).
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from engine.hexgrid import Hex, neighbours
from engine.model.board import Board
from engine.model.tables import movement_allowances

from .movement import (
    ONE_HEX,
    AfvState,
    Mover,
    Phase,
    _adjacency,
    _afv_starts,
    _barred,
    _turn_table,
    allowance,
    entry_cost,
    hexsides_between,
    turn_mp,
)


def turns_needed(
    board: Board,
    sources: Iterable[Hex],
    targets: Collection[Hex],
    mover: Mover,
    *,
    entering: bool = False,
    afvs: Collection[Hex] = (),
    wrecks: Collection[Hex] = (),
) -> int | None:
    """The fewest Movement Phases from any source to any target, or None if no target can be reached."""
    return turns_searches(board, sources, [targets], mover, entering=entering, afvs=afvs, wrecks=wrecks)[0].turns


@dataclass(frozen=True)
class TurnSearch:
    """A turns_needed answer and the hexes the search settled before it.

    A terrain edit can change the answer only if it touches a settled hex or a neighbour of
    one: any other path reaches the edited hex through unsettled hexes, whose labels are
    already no better than the answer's.
    """

    turns: int | None
    settled: frozenset[Hex]
    path: frozenset[Hex] = frozenset()  # the hexes of one best way to the answer

    def may_change(self, edited: Collection[Hex], *, dearer_only: bool = False) -> bool:
        """Whether an edit of these hexes can change the answer. `dearer_only`: the edit made no
        move cheaper and none newly possible; then a best way that avoids the edited hexes
        still costs what it did, and nothing got cheaper, so the answer stands."""
        if dearer_only and self.turns is not None:
            return any(h in self.path for h in edited)
        return any(h in self.settled or any(n in self.settled for n in neighbours(h)) for h in edited)


def _way(parent: dict[AfvState, AfvState], state: AfvState) -> frozenset[Hex]:
    """The hexes from a start (its own parent) to `state`."""
    way = [state]
    while parent[way[-1]] != way[-1]:
        way.append(parent[way[-1]])
    return frozenset(h for h, _ in way)


def _turn_over_two_phases(left: float, hexsides: int, enter: float, budget: float) -> float | None:
    """An AFV whose turn and next hex do not fit the MPs `left` this phase turns what they pay now (the
    free hexside first, 8.74), stops, and next phase turns the rest, again with a free hexside in a
    hex it has not left (8.75), and enters. The MPs that costs next phase; None if over the allowance."""
    table = movement_allowances()
    paid = max(hexsides - table.free_facing_hexsides, 0)
    paid_now = min(paid, int(left // table.extra_hexside_mp)) if table.extra_hexside_mp > 0 else paid
    cost = turn_mp(paid - paid_now) + enter
    return cost if cost <= budget else None


def turns_searches(
    board: Board,
    sources: Iterable[Hex],
    target_sets: Sequence[Collection[Hex]],
    mover: Mover,
    *,
    entering: bool = False,
    afvs: Collection[Hex] = (),
    wrecks: Collection[Hex] = (),
) -> list[TurnSearch]:
    """turns_needed for each set of targets, with what the search looked at (TurnSearch), in one
    search that runs until every set is reached.

    Each turn the mover spends at most its Movement Phase allowance; unused MPs are lost and it
    may stop in any hex and go on next turn. A unit deployed in a target needs 0 turns; with
    `entering` it comes onto the map in a source hex in turn 1, paying that hex's entry cost (R44).

    Dijkstra on labels (turns, MPs spent in the last turn), compared lexicographically. A step
    costing c takes (t, m) to (t, m + c) if that fits the allowance, else to (t + 1, c). That
    map never decreases a label and keeps the order of labels (if l1 <= l2 then step(l1) <=
    step(l2)), so, as for plain path lengths, the first label settled at a hex is the least
    one over all paths; and going on in the same turn whenever a step fits is never worse than
    stopping early, by the same order. Hence the first target settled has the fewest turns.
    An AFV's labels are kept per (hex, facing) and its steps include its turns (8.74), split over
    two phases where the allowance runs out (_turn_over_two_phases); that map keeps the order too.
    """
    limit = allowance(replace(mover, phase=Phase.MOVEMENT))
    adjacency = _adjacency(board, mover)
    # 8.61: an AFV never enters a hex holding an AFV or a Wreck; other units pass through them
    barred = _barred(mover, afvs, wrecks)
    # One hex per turn regardless of cost: each step costs 1 of a budget of 1.
    budget = 1.0 if limit == ONE_HEX else limit
    # An AFV's state is its hex and the facing it entered with (8.74); other units have facing 0 throughout.
    turning = _turn_table() if mover.is_afv else None
    # (turns, MPs spent this turn, hex, facing, the state it was entered from: itself for a start)
    heap: list[tuple[int, float, Hex, int, Hex, int]] = []
    for s in sources:
        cost = entry_cost(board, s, mover)
        if s not in adjacency or s in barred or cost is None:
            continue  # another AFV or a Wreck is there, or the hex is prohibited to the unit type
        step = 1.0 if limit == ONE_HEX else cost
        for _, f in _afv_starts(board, s, mover, entering) if mover.is_afv else [(s, 0)]:
            if not entering:
                heap.append((0, budget, s, f, s, f))  # turn 0 is spent: the first step starts turn 1
            elif step <= budget:
                heap.append((1, step, s, f, s, f))
    heapq.heapify(heap)
    sets_of: dict[Hex, list[int]] = {}
    for i, targets in enumerate(target_sets):
        for t in targets:
            sets_of.setdefault(t, []).append(i)
    found: dict[int, TurnSearch] = {}
    settled: set[Hex] = set()
    done: set[AfvState] = set()
    parent: dict[AfvState, AfvState] = {}
    over_two: dict[tuple[float, int, int, float], float | None] = {}
    while heap and len(found) < len(target_sets):
        turns, spent, h, facing, from_hex, from_facing = heapq.heappop(heap)
        if (h, facing) in done:
            continue
        done.add((h, facing))
        settled.add(h)
        parent[h, facing] = (from_hex, from_facing)
        for i in sets_of.get(h, ()):
            if i not in found:
                found[i] = TurnSearch(turns, frozenset(settled), _way(parent, (h, facing)))
        for n, edge_cost, step_facing in adjacency[h]:
            enter = 1.0 if limit == ONE_HEX else edge_cost
            ahead = facing if turning is None else step_facing
            if (n, ahead) in done or n in barred or enter > budget:
                continue  # 8.1: no minimum move, a hex dearer than the allowance is never entered (R41)
            cost = enter if turning is None else enter + turning[facing][ahead]
            fresh = turns == 0  # turn 0 is no phase: a unit in place turns and moves from turn 1
            if spent + cost <= budget:
                label = (turns, spent + cost)
            elif turning is None or (fresh and cost <= budget):
                label = (turns + 1, cost)
            else:
                left = budget if fresh else budget - spent
                split = (left, facing, ahead, enter)  # few distinct ones: each worked out once a search
                if split not in over_two:
                    over_two[split] = _turn_over_two_phases(left, hexsides_between(facing, ahead), enter, budget)
                later = over_two[split]
                if later is None:
                    continue
                label = (turns + (2 if fresh else 1), later)
            heapq.heappush(heap, (label[0], label[1], n, ahead, h, facing))
    never = TurnSearch(None, frozenset(settled))
    return [found.get(i, never) for i in range(len(target_sets))]
