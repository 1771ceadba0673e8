"""Movement properties on random small maps: reach, paths and turns against brute-force references."""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from engine.geometry.movement import (
    ONE_HEX,
    Morale,
    Mover,
    NoPathError,
    Phase,
    State,
    UnitClass,
    allowance,
    cheapest_path,
    entry_cost,
    movement_cost,
    reach,
)
from engine.geometry.turns import TurnSearch, turns_needed, turns_searches
from engine.hexgrid import DIRECTIONS, Hex, are_adjacent, neighbours
from engine.model.board import Board, assemble
from engine.model.mapsheet import Grid, MapSheet
from engine.model.terrain import CLEAR, Terrain

TERRAINS = [
    CLEAR,
    CLEAR,
    Terrain(trees=1),
    Terrain(trees=2),
    Terrain(building="1"),
    Terrain(marsh=True),
    Terrain(gully=True),
    Terrain(level=1, hill="K"),
    Terrain(level=2, hill="K"),
    Terrain(level=1, upper_level=2, hill="K"),
    Terrain(level=1, trees=3, hill="K"),
]


@st.composite
def boards(draw: st.DrawFn) -> Board:
    grid = Grid((10, 10 + draw(st.integers(0, 5))), (1, 1 + draw(st.integers(0, 5))))
    hexes = sorted(grid.hexes())
    terrain = {h: t for h in hexes if (t := draw(st.sampled_from(TERRAINS))) != CLEAR}
    roads = []
    for _ in range(draw(st.integers(0, 2))):
        road = [draw(st.sampled_from(hexes))]
        for _ in range(draw(st.integers(1, 6))):
            options = [n for n in neighbours(road[-1]) if n in grid.hexes()]
            if options:
                road.append(draw(st.sampled_from(options)))
        if len(road) > 1:
            roads.append(road)
    bridges = [h for road in roads for h in road if terrain.get(h, CLEAR).gully]
    return assemble([MapSheet("random", grid, terrain, roads, bridges)])


@st.composite
def movers(draw: st.DrawFn) -> Mover:
    unit = draw(st.sampled_from(list(UnitClass)))
    morale = draw(st.sampled_from([Morale.NORMAL, Morale.SUPPRESSED] if unit is UnitClass.AFV else list(Morale)))
    state = draw(st.sampled_from(list(State))) if morale is Morale.NORMAL else State.DOWN
    mp = {UnitClass.CW: draw(st.sampled_from([0, 3, 4, 5])), UnitClass.AFV: draw(st.sampled_from([None, 12]))}
    facing = draw(st.sampled_from([None, *range(6)])) if unit is UnitClass.AFV else None
    return Mover(unit, state, morale, draw(st.sampled_from(list(Phase))), mp.get(unit), facing)


@st.composite
def situations(draw: st.DrawFn) -> tuple[Board, Mover, Hex, frozenset[Hex], frozenset[Hex]]:
    board = draw(boards())
    hexes = sorted(board.hexes)
    start = draw(st.sampled_from(hexes))
    afvs = frozenset(draw(st.lists(st.sampled_from(hexes), max_size=3)))
    wrecks = frozenset(draw(st.lists(st.sampled_from(hexes), max_size=2)))
    return board, draw(movers()), start, afvs, wrecks


def blocked_for(mover: Mover, afvs: frozenset[Hex], wrecks: frozenset[Hex], start: Hex | None) -> set[Hex]:
    return (set(afvs | wrecks) - {start}) if mover.unit is UnitClass.AFV else set()


def turning(a: int, b: int) -> float:
    """8.74: MPs to turn an AFV from facing a to facing b in one hex: one hexside free, 1 MP each further."""
    hexsides = min(abs(a - b) % 6, 6 - abs(a - b) % 6)
    return max(hexsides - 1, 0)


def facing_of(a: Hex, b: Hex) -> int:
    return DIRECTIONS.index(b - a)


def brute_states(
    board: Board, starts: dict[tuple[Hex, int], float], mover: Mover, blocked: set[Hex], cutoff: float = math.inf
) -> dict[tuple[Hex, int], float]:
    """Cheapest MPs to each (hex, facing entered with) by relaxing every move until nothing improves
    (Bellman-Ford), straight from movement_cost; an AFV leaves a hex through its frontal hexside and
    pays `turning` first (8.74). Other units keep facing 0 and never pay for turning."""
    best = dict(starts)
    changed = True
    while changed:
        changed = False
        for (a, f), mp in list(best.items()):
            for b in board.neighbours(a):
                step = None if b in blocked else movement_cost(board, a, b, mover)
                if step is None:
                    continue
                g = facing_of(a, b) if mover.unit is UnitClass.AFV else 0
                total = mp + step + (turning(f, g) if mover.unit is UnitClass.AFV else 0)
                if total <= cutoff and total < best.get((b, g), math.inf):
                    best[b, g] = total
                    changed = True
    return best


def start_facings(board: Board, start: Hex, mover: Mover, entering: bool = False) -> list[int]:
    """An AFV's given facing, or any; entering, the facings it can have driven in with from off the map (R42)."""
    if mover.unit is not UnitClass.AFV:
        return [0]
    if mover.facing is not None:
        return [mover.facing]
    inward = [i for i, d in enumerate(DIRECTIONS) if start - d not in board.hexes] if entering else []
    return inward or list(range(6))


def brute_costs(board: Board, start: Hex, mover: Mover, blocked: set[Hex]) -> dict[Hex, float]:
    """Cheapest MPs to each hex, over every facing it may be entered with."""
    best: dict[Hex, float] = {}
    states = brute_states(board, {(start, f): 0.0 for f in start_facings(board, start, mover)}, mover, blocked)
    for (h, _), mp in states.items():
        best[h] = min(mp, best.get(h, mp))
    return best


def brute_turns(
    board: Board, sources: set[Hex], targets: set[Hex], mover: Mover, entering: bool, blocked: set[Hex]
) -> int | None:
    """Turn by turn: the (hex, facing) states the unit can end each turn in, from the previous turn's by
    one phase's moves; an AFV may also turn in its last hex with the MPs left (8.74, 8.75)."""
    mover = replace(mover, phase=Phase.MOVEMENT)
    limit = allowance(mover)
    one_hex = limit == ONE_HEX
    sources = {s for s in sources - blocked if entry_cost(board, s, mover) is not None}

    def phase(starts: dict[tuple[Hex, int], float]) -> set[tuple[Hex, int]]:
        """The states the unit can end a phase in from `starts` (state: MPs already spent)."""
        if one_hex:  # one hex regardless of cost; only infantry, CWs and FTs move so (8.11-8.14)
            return set(starts) | {
                (b, 0)
                for a, _ in starts
                for b in board.neighbours(a)
                if b not in blocked and movement_cost(board, a, b, mover) is not None
            }
        reached = brute_states(board, starts, mover, blocked, limit)
        if mover.unit is not UnitClass.AFV:
            return set(reached)
        return {(h, g) for (h, f), mp in reached.items() for g in range(6) if mp + turning(f, g) <= limit}

    if not entering:
        turn, ends = 0, {(s, f) for s in sources for f in start_facings(board, s, mover)}
    else:
        turn, ends = 1, set()
        for s in sources:
            cost = 1.0 if one_hex else entry_cost(board, s, mover)
            if cost is not None and cost <= (1.0 if one_hex else limit):
                starts = {(s, f): (0.0 if one_hex else cost) for f in start_facings(board, s, mover, True)}
                ends |= set(starts) if one_hex else phase(starts)
    while not {h for h, _ in ends} & targets:
        later = set(ends)
        for state in ends:
            later |= phase({state: 0.0})
        if later == ends:
            return None
        turn, ends = turn + 1, later
    return turn


@given(situations())
def test_reach_costs_are_the_cheapest_within_the_allowance(case) -> None:
    """8.1, 8.5: reach = every hex whose cheapest cost fits the allowance, at that cost; one hex: the neighbours."""
    board, mover, start, afvs, wrecks = case
    blocked = blocked_for(mover, afvs, wrecks, start)
    result = reach(board, start, mover, afvs=afvs, wrecks=wrecks)
    limit = allowance(mover)
    best = brute_costs(board, start, mover, blocked)
    if limit == ONE_HEX:
        assert set(result.costs) == {start} | {h for h in best if are_adjacent(start, h)}
        assert all(result.costs[h] == movement_cost(board, start, h, mover) for h in result.costs if h != start)
    else:
        assert result.costs == {h: mp for h, mp in best.items() if mp <= limit}
        assert all(mp <= limit for mp in result.costs.values())
    assert result.costs[start] == 0
    assert not blocked & set(result.costs)


@given(situations())
def test_reach_is_closed_and_tight(case) -> None:
    """Triangle: a hex one move beyond a reached hex is reached at most that much dearer; every reached hex has a
    predecessor it is reached through exactly."""
    board, mover, start, afvs, wrecks = case
    result = reach(board, start, mover, afvs=afvs, wrecks=wrecks)
    limit = allowance(mover)
    if limit == ONE_HEX:
        return
    blocked = blocked_for(mover, afvs, wrecks, start)
    slack = turning(0, 3) if mover.unit is UnitClass.AFV else 0  # an AFV may have to turn round first (8.74)
    for a, mp in result.costs.items():
        for b in board.neighbours(a):
            step = movement_cost(board, a, b, mover)
            if step is not None and b not in blocked and mp + step + slack <= limit:
                assert result.costs[b] <= mp + step + slack
    for b, mp in result.costs.items():
        steps = [(a, movement_cost(board, a, b, mover)) for a in board.neighbours(b) if a in result.costs]
        assert b == start or any(
            step is not None and result.costs[a] + step <= mp <= result.costs[a] + step + slack for a, step in steps
        )


@given(situations(), st.data())
def test_cheapest_path_is_the_cheapest(case, data) -> None:
    """The path's steps are moves between adjacent hexes at their cost; its total is the brute-force cheapest."""
    board, mover, start, afvs, wrecks = case
    goal = data.draw(st.sampled_from(sorted(board.hexes)))
    best = brute_costs(board, start, mover, blocked_for(mover, afvs, wrecks, start))
    try:
        path = cheapest_path(board, start, goal, mover, afvs=afvs, wrecks=wrecks)
    except NoPathError:
        assert goal not in best
        return
    assert path.hexes[0] == start and path.hexes[-1] == goal
    assert len(path.steps) == len(path.hexes) - 1
    turns = path.turns or (0,) * len(path.steps)
    for (a, b), step, turned in zip(zip(path.hexes, path.hexes[1:], strict=False), path.steps, turns, strict=True):
        assert are_adjacent(a, b) and movement_cost(board, a, b, mover) + max(turned - 1, 0) == step
    assert path.cost == best[goal]


@given(boards(), st.sampled_from(list(UnitClass)), st.data())
def test_down_never_cheaper_than_up(board, unit, data) -> None:
    """8.51: every row costs at least as much DOWN as UP, and the road rate is for UP units only: DOWN never gains."""
    start = data.draw(st.sampled_from(sorted(board.hexes)))
    mp = {UnitClass.CW: 5}.get(unit)
    up = brute_costs(board, start, Mover(unit, State.UP, mp=mp), set())
    down = brute_costs(board, start, Mover(unit, State.DOWN, mp=mp), set())
    assert set(down) <= set(up)
    assert all(down[h] >= up[h] for h in down)


@given(situations(), st.data())
def test_more_blockers_never_help(case, data) -> None:
    """8.61: adding AFVs or Wrecks to the board never makes a hex cheaper to reach."""
    board, mover, start, afvs, wrecks = case
    more = afvs | {data.draw(st.sampled_from(sorted(board.hexes)))}
    fewer = reach(board, start, mover, afvs=afvs, wrecks=wrecks).costs
    blocked = reach(board, start, mover, afvs=more, wrecks=wrecks).costs
    assert set(blocked) <= set(fewer)
    assert all(blocked[h] >= fewer[h] for h in blocked)


@given(situations(), st.data(), st.booleans())
def test_turns_needed_equals_turn_by_turn_reach(case, data, entering) -> None:
    """Turns = the first turn in which the unit can end in a target, moving a full phase's reach each turn."""
    board, mover, _, afvs, wrecks = case
    hexes = sorted(board.hexes)
    sources = set(data.draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=3)))
    targets = set(data.draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=3)))
    blocked = blocked_for(mover, afvs, wrecks, None)
    expected = brute_turns(board, sources, targets, mover, entering, blocked)
    assert turns_needed(board, sources, targets, mover, entering=entering, afvs=afvs, wrecks=wrecks) == expected


@given(boards(), movers(), st.data())
def test_turns_needed_agrees_with_path_costs(board, mover, data) -> None:
    """Each turn spends at most the allowance: turns >= cost / allowance; one turn exactly when the cost fits;
    entering costs at most one more turn than starting there; turns obey the triangle inequality."""
    hexes = sorted(board.hexes)
    a, b, c = (data.draw(st.sampled_from(hexes)) for _ in range(3))
    mover = replace(mover, phase=Phase.MOVEMENT)
    limit = allowance(mover)
    turns = turns_needed(board, {a}, {b}, mover)
    entered = turns_needed(board, {a}, {b}, mover, entering=True)
    # a hex prohibited to the unit type is no start (R44)
    assert (turns == 0) == (a == b and entry_cost(board, a, mover) is not None)
    if turns is None:
        return
    assert entered is None or turns <= entered <= turns + 1
    first, then = turns_needed(board, {a}, {c}, mover), turns_needed(board, {c}, {b}, mover)
    if first is not None and then is not None:
        assert turns <= first + then
    if limit != ONE_HEX and a != b:
        cost = cheapest_path(board, a, b, mover).cost
        assert turns >= math.ceil(cost / limit)
        assert (turns == 1) == (cost <= limit)


@given(situations(), st.data(), st.booleans())
def test_turn_searches_follow_terrain_edits(case, data, entering) -> None:
    """A turn search kept across edits (SearchLabels.follow, TurnSearch.may_change) answers what a new
    search on the edited board does; one that may change is searched again, as the validation does."""
    board, mover, _, afvs, wrecks = case
    hexes = sorted(board.hexes)

    def hexes_drawn(most: int) -> frozenset[Hex]:
        return frozenset(data.draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=most)))

    sources = hexes_drawn(3)
    target_sets = [hexes_drawn(3) for _ in range(data.draw(st.integers(1, 3)))]

    def search() -> list[TurnSearch]:
        return turns_searches(board, sources, target_sets, mover, entering=entering, afvs=afvs, wrecks=wrecks)

    kept = search()
    for _ in range(data.draw(st.integers(1, 8))):
        stroke = {h: data.draw(st.sampled_from(TERRAINS)) for h in hexes_drawn(2)}
        board.set_terrain(stroke)
        labels = kept[0].labels  # one search: its answers share their labels, which follow each edit once
        improved = labels.follow(stroke)
        fresh = search()
        for i, s in enumerate(kept):
            assert s.labels is labels
            if not s.may_change(stroke, improved):
                assert s.turns == fresh[i].turns
        if any(s.may_change(stroke, improved) for s in kept):
            kept = fresh
