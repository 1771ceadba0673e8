"""How many Movement Phases a unit needs to reach a set of hexes, unopposed (8.1, 8.5, 8.74, 8.75):
what scenario validation asks of every force and objective (engine/validate/context.py).

The costs and the AFV facing come from engine.geometry.movement; R41, R42, R44 and R46 are the
readings chosen where the rules are silent (docs/rulings.md).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import count, pairwise

from engine.hexgrid import DIRECTIONS, Hex
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


Label = tuple[int, float]  # (Movement Phases, MPs spent in the last one), compared lexicographically


@dataclass(frozen=True)
class TurnSearch:
    """A turns_needed answer, one best way to it, and the search's labels, which follow terrain edits.

    An edit can make the answer worse only if the best way kept, walked again on the edited board,
    now takes more turns (or is closed): only an edit of its hexes can do that. It can make the
    answer better only if some target's label drops below the answer (SearchLabels.follow).
    """

    turns: int | None
    targets: frozenset[Hex]
    labels: SearchLabels
    way: tuple[AfvState, ...] = ()  # the states of one best way to the answer, a start first

    def may_change(self, edited: Collection[Hex], improved: Mapping[Hex, int]) -> bool:
        """Whether an edit of these hexes can change the answer; `improved`: what `labels.follow`
        returned for this edit (each hex whose label dropped, with its fewest turns)."""
        if self.turns is not None and any(h in edited for h, _ in self.way):
            arrival = self.labels.walk(self.way)
            if arrival is None or arrival[0] > self.turns:
                return True
        best = math.inf if self.turns is None else self.turns
        return any(improved.get(t, best) < best for t in self.targets)


class _Steps:
    """How a label grows with each step of a search: one mover, one allowance (8.1, 8.74, 8.75)."""

    def __init__(self, mover: Mover) -> None:
        self.limit = allowance(replace(mover, phase=Phase.MOVEMENT))
        # One hex per turn regardless of cost: each step costs 1 of a budget of 1.
        self.budget = 1.0 if self.limit == ONE_HEX else self.limit
        # An AFV's state is its hex and the facing it entered with (8.74); other units have facing 0 throughout.
        self.turning = _turn_table() if mover.is_afv else None
        self._over_two: dict[tuple[float, int, int, float], float | None] = {}

    def label(self, label: Label, facing: int, ahead: int, enter: float) -> Label | None:
        """The label after entering a hex for `enter` MPs, turning from `facing` to `ahead` first (an
        AFV); None if the step never fits (8.1: a hex dearer than the allowance is never entered, R41)."""
        turns, spent = label
        cost = enter if self.turning is None else enter + self.turning[facing][ahead]
        if spent + cost <= self.budget:
            return turns, spent + cost
        return self.beyond(label, facing, ahead, enter, cost)

    def beyond(self, label: Label, facing: int, ahead: int, enter: float, cost: float) -> Label | None:
        """`label` for a step of `cost` MPs (its turn included) that does not fit what is left this phase."""
        turns, spent = label
        fresh = turns == 0  # turn 0 is no phase: a unit in place turns and moves from turn 1
        if self.turning is None or (fresh and cost <= self.budget):
            return turns + 1, cost
        left = self.budget if fresh else self.budget - spent
        split = (left, facing, ahead, enter)  # few distinct ones: each worked out once a search
        if split not in self._over_two:
            self._over_two[split] = _turn_over_two_phases(left, hexsides_between(facing, ahead), enter, self.budget)
        later = self._over_two[split]
        return None if later is None else (turns + (2 if fresh else 1), later)


@dataclass(eq=False)
class SearchLabels:
    """The labels of one turn search's settled states, kept so that its answers follow terrain edits.

    Kept true after every edit: each kept label is at most the state's label on the board as it
    is now, and a state not kept is no better than `stop`, the last label the search settled
    (None: it settled every state it could reach). An edit changes the costs of the steps into
    and out of the edited hexes only; `follow` works out, from the kept labels, the labels
    that those steps lower, and from them onward, as the search would (Dijkstra), only as far
    as they stay lower than what is kept and than `stop`.
    """

    board: Board
    mover: Mover
    sources: frozenset[Hex]
    entering: bool
    barred: frozenset[Hex]
    steps: _Steps
    labels: dict[AfvState, Label] = field(default_factory=dict)
    stop: Label | None = None

    def starts(self, hexes: Iterable[Hex]) -> Iterator[tuple[Label, AfvState]]:
        """The first labels of the search's states in these source hexes (R44 when entering)."""
        board, mover, steps = self.board, self.mover, self.steps
        adjacency = _adjacency(board, mover)
        for s in hexes:
            cost = entry_cost(board, s, mover)
            if s not in adjacency or s in self.barred or cost is None:
                continue  # another AFV or a Wreck is there, or the hex is prohibited to the unit type
            step = 1.0 if steps.limit == ONE_HEX else cost
            for _, f in _afv_starts(board, s, mover, self.entering) if mover.is_afv else [(s, 0)]:
                if not self.entering:
                    yield (0, steps.budget), (s, f)  # turn 0 is spent: the first step starts turn 1
                elif step <= steps.budget:
                    yield (1, step), (s, f)

    def follow(self, edited: Collection[Hex]) -> dict[Hex, int]:
        """Bring the labels up to date after an edit of these hexes (the movement costs already
        patched, engine/geometry/movement.py); each hex whose label dropped, with its fewest turns."""
        board, labels, steps = self.board, self.labels, self.steps
        adjacency = _adjacency(board, self.mover)
        facings = range(len(DIRECTIONS)) if steps.turning is not None else (0,)
        order = count()  # ties go first in, first out: no Hex comparisons
        heap: list[tuple[Label, int, AfvState]] = []
        for tail in {n for h in edited for n in (h, *board.neighbours(h))}:  # the tails of the steps that changed
            for f in facings:
                if (tail, f) in labels:
                    for n, cost, ahead in adjacency[tail]:
                        if tail in edited or n in edited:
                            self._push(heap, order, (tail, f), n, cost, ahead)
        for label, state in self.starts(s for s in edited if s in self.sources):
            heapq.heappush(heap, (label, next(order), state))
        improved: dict[Hex, int] = {}
        while heap:
            label, _, state = heapq.heappop(heap)
            if (self.stop is not None and label >= self.stop) or (state in labels and label >= labels[state]):
                continue
            labels[state] = label
            improved[state[0]] = min(label[0], improved.get(state[0], label[0]))
            for n, cost, ahead in adjacency[state[0]]:
                self._push(heap, order, state, n, cost, ahead)
        return improved

    def walk(self, way: Sequence[AfvState]) -> Label | None:
        """The label at the end of `way` (states, a start first) on the board as it is now, taking
        each step as the search does; None if the mover can no longer go that way."""
        label = next((first for first, state in self.starts([way[0][0]]) if state == way[0]), None)
        adjacency = _adjacency(self.board, self.mover)
        for (h, facing), state in pairwise(way):
            step = next(((cost, ahead) for n, cost, ahead in adjacency[h] if n == state[0]), None)
            if label is None or step is None:
                return None
            taken = self._step(label, facing, state[0], *step)
            label = taken[0] if taken is not None and taken[1] == state else None
        return label

    def _step(self, label: Label, facing: int, n: Hex, cost: float, ahead: int) -> tuple[Label, AfvState] | None:
        """The label and state after a step into `n` for `cost` MPs towards `ahead` (an AFV's facing)."""
        steps = self.steps
        enter = 1.0 if steps.limit == ONE_HEX else cost
        ahead = facing if steps.turning is None else ahead
        if n in self.barred or enter > steps.budget:
            return None
        after = steps.label(label, facing, ahead, enter)
        return None if after is None else (after, (n, ahead))

    def _push(
        self,
        heap: list[tuple[Label, int, AfvState]],
        order: count[int],
        state: AfvState,
        n: Hex,
        cost: float,
        ahead: int,
    ) -> None:
        taken = self._step(self.labels[state], state[1], n, cost, ahead)
        if taken is not None:
            heapq.heappush(heap, (taken[0], next(order), taken[1]))


def _way(parent: dict[AfvState, AfvState], state: AfvState) -> tuple[AfvState, ...]:
    """The states from a start (its own parent) to `state`."""
    way = [state]
    while parent[way[-1]] != way[-1]:
        way.append(parent[way[-1]])
    return tuple(reversed(way))


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
    """turns_needed for each set of targets, with a best way and the labels (TurnSearch), in one
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
    adjacency = _adjacency(board, mover)
    # 8.61: an AFV never enters a hex holding an AFV or a Wreck; other units pass through them
    barred = frozenset(_barred(mover, afvs, wrecks))
    steps = _Steps(mover)
    limit, budget, turning = steps.limit, steps.budget, steps.turning
    sources = frozenset(sources)
    kept = SearchLabels(board, mover, sources, entering, barred, steps)
    # (turns, MPs spent this turn, hex, facing, the state it was entered from: itself for a start)
    heap = [(*label, s, f, s, f) for label, (s, f) in kept.starts(sources)]
    heapq.heapify(heap)
    sets_of: dict[Hex, list[int]] = {}
    for i, targets in enumerate(target_sets):
        for t in targets:
            sets_of.setdefault(t, []).append(i)
    found: dict[int, TurnSearch] = {}
    done = kept.labels
    parent: dict[AfvState, AfvState] = {}
    while heap and len(found) < len(target_sets):
        turns, spent, h, facing, from_hex, from_facing = heapq.heappop(heap)
        if (h, facing) in done:
            continue
        done[h, facing] = turns, spent
        parent[h, facing] = (from_hex, from_facing)
        for i in sets_of.get(h, ()):
            if i not in found:
                found[i] = TurnSearch(turns, frozenset(target_sets[i]), kept, _way(parent, (h, facing)))
        for n, edge_cost, step_facing in adjacency[h]:
            enter = 1.0 if limit == ONE_HEX else edge_cost
            ahead = facing if turning is None else step_facing
            if (n, ahead) in done or n in barred or enter > budget:
                continue  # 8.1: no minimum move, a hex dearer than the allowance is never entered (R41)
            cost = enter if turning is None else enter + turning[facing][ahead]
            if spent + cost <= budget:  # the common case, without a call: steps.label's first answer
                heapq.heappush(heap, (turns, spent + cost, n, ahead, h, facing))
            elif (label := steps.beyond((turns, spent), facing, ahead, enter, cost)) is not None:
                heapq.heappush(heap, (label[0], label[1], n, ahead, h, facing))
        if len(found) == len(target_sets):
            kept.stop = (turns, spent)
    return [found.get(i) or TurnSearch(None, frozenset(target_sets[i]), kept) for i in range(len(target_sets))]
