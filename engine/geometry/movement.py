"""Movement on the board: allowances (8.1), terrain costs (8.5), stacking (8.61), an AFV's facing
(8.74, 8.75), reach and paths. The turns a unit needs to reach hexes: engine.geometry.turns.

Every number comes from the rule tables (tables/movement-allowances.yaml and
tables/terrain-effects.yaml); this module only decides which entry applies. The readings
chosen where the rules are silent are rulings R33-R46 in docs/rulings.md.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import count, pairwise
from typing import TYPE_CHECKING, Final, Literal

from engine.hexgrid import DIRECTIONS, Hex
from engine.model.board import Board
from engine.model.tables import TerrainEffects, movement_allowances, terrain_effects
from engine.model.terrain import Terrain

if TYPE_CHECKING:
    import networkx as nx


class UnitClass(StrEnum):
    INFANTRY = "infantry"
    CW = "cw"
    AFV = "afv"
    FT = "ft"


class State(StrEnum):
    UP = "up"
    DOWN = "down"


class Morale(StrEnum):
    NORMAL = "normal"
    PINNED = "pinned"
    SUPPRESSED = "suppressed"


class Phase(StrEnum):
    MOVEMENT = "movement"
    REACTION = "reaction"


ONE_HEX: Final = "one hex"
Allowance = float | Literal["one hex"]

# Rows of the Movement Point Allowance Chart by unit class; AFVs have one row per allowance (8.13).
_CHART_KIND = {UnitClass.INFANTRY: "infantry", UnitClass.CW: "crew_weapon", UnitClass.FT: "flamethrower"}
_AFV_KINDS = ("afv", "afv_bt7m")


class MovementError(ValueError):
    """A mover or a question the rules do not allow; the message names the rule."""


class NoPathError(MovementError):
    """No sequence of legal moves joins the two hexes; `barrier`: the hexes the unit may not enter that
    bar the way (the goal itself, or a ring around the start), `rule`: the rules that forbid them."""

    def __init__(self, mover: Mover, reason: str, barrier: tuple[Hex, ...] = (), rule: str | None = None) -> None:
        super().__init__(f"no legal path for {mover.describe()}: {reason}")
        self.reason = reason
        self.barrier = barrier
        self.rule = rule


class MovementFactorNeeded(MovementError):
    """A CW's Movement Phase allowance is on its counter (8.12) and the mover does not give it."""


@dataclass(frozen=True)
class Mover:
    """A unit as movement sees it. `mp`: a CW's counter Movement Factor, or an AFV's Movement Phase
    allowance picking its chart row (12: the BT7M)."""

    unit: UnitClass
    state: State = State.UP
    morale: Morale = Morale.NORMAL
    phase: Phase = Phase.MOVEMENT
    mp: float | None = None
    facing: int | None = None
    """An AFV's frontal hexside, an index into DIRECTIONS (8.7); None: whichever suits the move best."""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __hash__(self) -> int:  # worked out once: the game looks movement costs up by mover millions of times
        return self._hash

    def __reduce__(self) -> tuple[type[Mover], tuple[object, ...]]:  # a copy or an unpickled one hashes anew
        return Mover, (self.unit, self.state, self.morale, self.phase, self.mp, self.facing)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.unit, self.state, self.morale, self.phase, self.mp, self.facing)))
        if self.facing is not None and self.unit is not UnitClass.AFV:
            raise MovementError(f"only an AFV's facing changes how it moves (8.74); a {self.unit} needs none")
        if self.facing is not None and self.facing not in range(len(DIRECTIONS)):
            raise MovementError(f"a facing is one of the {len(DIRECTIONS)} hexsides, not {self.facing}")
        if self.unit is UnitClass.AFV and self.morale is Morale.PINNED:
            raise MovementError("an AFV is never PINNED: it has no Movement Allowance for that state (8.13)")
        if self.morale is not Morale.NORMAL and self.state is State.UP:
            raise MovementError(f"a {self.morale} unit is always in the DOWN state (3.25, 3.26)")
        if self.mp is not None and self.unit in (UnitClass.INFANTRY, UnitClass.FT):
            raise MovementError(f"the chart fixes {self.unit} allowances (8.11, 8.14); an MP value is for CWs and AFVs")
        if self.mp is not None and self.mp < 0:
            raise MovementError(f"a Movement Allowance cannot be negative ({self.mp:g})")

    @property
    def is_afv(self) -> bool:
        return self.unit is UnitClass.AFV

    @property
    def is_up(self) -> bool:
        return self.state is State.UP

    @property
    def may_use_road_rate(self) -> bool:
        """8.52: 'Only NORMAL status units in an UP state may use this road movement rate.'"""
        return self.morale is Morale.NORMAL and self.is_up

    def describe(self) -> str:
        mp = f" ({self.mp:g} MP)" if self.mp is not None else ""
        return f"{self.unit}{mp} {self.state.upper()} {self.morale.upper()}, {self.phase} phase"


def allowance(mover: Mover) -> Allowance:
    """MPs the mover may spend this phase, or ONE_HEX (one hex regardless of terrain costs). Rules 8.11-8.15."""
    if mover.unit is UnitClass.CW and mover.mp == 0:
        return 0.0  # 8.12: 'CW units with a Movement Allowance of zero ... may never move'
    value = movement_allowances().allowance(_chart_kind(mover), mover.morale, mover.phase)
    if value == "counter":
        if mover.mp is None:
            raise MovementFactorNeeded("a CW's Movement Phase allowance is the Movement Factor on its counter (8.12)")
        return mover.mp
    if value == "one_hex":
        return ONE_HEX
    if value is None or isinstance(value, str):
        raise MovementError(f"the Movement Point Allowance Chart has no allowance for {mover.describe()}")
    return float(value)


def _chart_kind(mover: Mover) -> str:
    if not mover.is_afv:
        return _CHART_KIND[mover.unit]
    if mover.mp is None:
        return _AFV_KINDS[0]
    table = movement_allowances()
    for kind in _AFV_KINDS:
        if table.allowance(kind, Morale.NORMAL, Phase.MOVEMENT) == mover.mp:
            return kind
    known = ", ".join(f"{table.allowance(k, Morale.NORMAL, Phase.MOVEMENT):g}" for k in _AFV_KINDS)
    raise MovementError(f"no AFV has {mover.mp:g} MPs in the Movement Phase (8.13: {known})")


# -- terrain costs (8.5) ------------------------------------------------------------------


def terrain_row(terrain: Terrain, effects: TerrainEffects) -> str:
    """The chart row a hex is entered by off the road: its dominant terrain (tables/terrain-effects.yaml).

    Hill rows go by the hex's elevation, the lower level of a crest hex (10.34, chart notes e, f).
    A Bridge hex is a Road hex, not a Gully hex (note a): off the road it costs its other terrain.
    """
    if terrain.building is not None:
        return "building"
    if terrain.trees >= effects.woods_min_trees:
        return "woods"
    if terrain.marsh:
        return "marsh"
    if terrain.gully and not terrain.bridge:  # note a: a Bridge hex "is treated as a Road hex" (R34)
        return "gully"
    if terrain.elevation > 0:
        return f"hill-{terrain.elevation}"
    return "clear"


def movement_cost(board: Board, origin: Hex, target: Hex, mover: Mover) -> float | None:
    """MPs to move from `origin` into the adjacent `target`; None if the hex is prohibited ("P"). Rule 8.5."""
    effects = terrain_effects()
    terrain = board.terrain(target)
    base = effects.row(terrain_row(terrain, effects)).move_cost(mover.is_afv, mover.is_up)
    if base is None:
        return None  # "P": 8.52 prices a move along the road, it opens no prohibited hex (R34)
    if target in board.road_neighbours.get(origin, ()):
        # 8.52 'regardless of the terrain': along the road the other terrain of the hex does
        # not count; a unit barred from the road rate pays the Road row (a Bridge: note a) (R34).
        if mover.may_use_road_rate:
            base = effects.road_rate_mp_per_hex
        else:
            road = effects.row("bridge" if terrain.bridge else "road").move_cost(mover.is_afv, mover.is_up)
            if road is None:
                return None
            base = road
    # 8.53: 'in addition to all other costs', so also on the road rate (R35); one MP per level climbed (R36).
    climb = terrain.elevation - board.terrain(origin).elevation
    return base + effects.uphill_extra_mp * max(climb, 0)


def entry_cost(board: Board, h: Hex, mover: Mover) -> float | None:
    """MPs to enter the map in hex h: its own terrain row, no road rate and no uphill MP (R44)."""
    return terrain_cost(board.terrain(h), afv=mover.is_afv, up=mover.is_up)


def terrain_cost(terrain: Terrain, *, afv: bool, up: bool) -> float | None:
    """The chart's cost of a hex's own terrain row for AFVs or others, UP or DOWN; None for "P" (8.5)."""
    effects = terrain_effects()
    return effects.row(terrain_row(terrain, effects)).move_cost(afv, up)


# -- the movement graph ---------------------------------------------------------------------


def movement_graph(board: Board, mover: Mover) -> nx.DiGraph:
    """The board as a directed graph, edge `cost` = MPs to enter the head hex; prohibited hexes have no in-edges.

    Costs depend only on whether the mover is an AFV and on its state: the road rate goes with
    the UP state, since a unit that is not NORMAL is DOWN (3.26). Kept with the board and
    patched around the hexes of each terrain edit (Board.set_terrain).
    """
    import networkx as nx  # 0.1 s to import: for cheapest paths; reach and the turn searches need none

    _, graphs = _movement_caches(board)
    key = (mover.is_afv, mover.state)
    if key not in graphs:
        graph = nx.DiGraph()
        graph.add_nodes_from(sorted(board.hexes))
        graph.add_weighted_edges_from(_edges(_adjacency(board, mover)), weight="cost")
        graphs[key] = graph
    return graphs[key]


# (head, MPs to enter it, the facing of the step: FACING_OF[head - tail], kept so no search subtracts hexes)
_Adjacency = dict[Hex, list[tuple[Hex, float, int]]]


def _movement_caches(board: Board) -> tuple[dict[tuple[bool, State], _Adjacency], dict[tuple[bool, State], nx.DiGraph]]:
    """The board's movement costs by (AFV, state), as plain lists and as graphs; patched after each terrain edit."""
    if "adjacency" not in board.caches:
        board.caches["adjacency"], board.caches["movement"] = {}, {}
        # first of the watchers: those that follow an edit (turn searches) read the patched costs
        board.watchers.insert(0, lambda hexes: _patch(board, hexes))
    return board.caches["adjacency"], board.caches["movement"]


def _costs_from(board: Board, key: tuple[bool, State], tails: Iterable[Hex]) -> _Adjacency:
    mover = Mover(UnitClass.AFV if key[0] else UnitClass.INFANTRY, key[1])
    out: _Adjacency = {}
    for a in tails:
        costs = ((b, movement_cost(board, a, b, mover)) for b in board.neighbours(a))
        out[a] = [(b, cost, FACING_OF[b - a]) for b, cost in costs if cost is not None]
    return out


def _edges(adjacency: _Adjacency) -> list[tuple[Hex, Hex, float]]:
    return [(a, b, cost) for a, heads in adjacency.items() for b, cost, _ in heads]


def _adjacency(board: Board, mover: Mover) -> _Adjacency:
    """The movement costs as plain lists of (hex, cost) out of each hex: the turn searches' inner loop."""
    plain, _ = _movement_caches(board)
    key = (mover.is_afv, mover.state)
    if key not in plain:
        plain[key] = _costs_from(board, key, sorted(board.hexes))
    return plain[key]


def _patch(board: Board, hexes: frozenset[Hex]) -> None:
    """Re-cost the edges into and out of edited hexes (terrain of the head, uphill from the tail)."""
    tails = sorted({n for h in hexes for n in (h, *board.neighbours(h))})
    plain, graphs = _movement_caches(board)
    for key, adjacency in plain.items():
        patched = _costs_from(board, key, tails)
        adjacency.update(patched)
        if key in graphs:
            graph = graphs[key]
            graph.remove_edges_from([(a, b) for a in tails for b in list(graph.successors(a))])
            graph.add_weighted_edges_from(_edges(patched), weight="cost")


def _passable(
    board: Board, mover: Mover, afvs: Collection[Hex], wrecks: Collection[Hex], start: Hex | None = None
) -> nx.DiGraph:
    """The movement graph less the hexes the mover may not enter: for an AFV, any AFV or Wreck (8.61, 12.4).

    Infantry, CWs and FTs move through friendly units (8.61) and Wrecks, which are no side's units (8.23).
    """
    import networkx as nx  # see movement_graph

    graph = movement_graph(board, mover)
    if not mover.is_afv:
        return graph
    return nx.restricted_view(graph, _barred(mover, afvs, wrecks, start), [])


def _barred(mover: Mover, afvs: Collection[Hex], wrecks: Collection[Hex], start: Hex | None = None) -> set[Hex]:
    """Hexes the mover may not enter for the units in them: for an AFV, any AFV or Wreck but its own start."""
    return (set(afvs) | set(wrecks)) - {start} if mover.is_afv else set()


# -- AFV facing (8.74, 8.75) ------------------------------------------------------------------

# A facing is the index in DIRECTIONS of the frontal hexside (8.7); an AFV moves out of a hex
# through its frontal hexside and enters the next hex still facing that way (8.74, R42).
FACING_OF: Final = {d: i for i, d in enumerate(DIRECTIONS)}
AfvState = tuple[Hex, int]  # a hex and the facing the AFV entered it with, its free turn not yet taken


def hexsides_between(a: int, b: int) -> int:
    """Hexsides an AFV turns from facing a to facing b, the shorter way round (0-3)."""
    d = abs(a - b) % len(DIRECTIONS)
    return min(d, len(DIRECTIONS) - d)


def turn_mp(hexsides: int) -> float:
    """MPs to turn `hexsides` hexsides in one hex. 8.74: 'After it moves into EACH new hex it may
    freely change its facing ONE hexside left or right. It may then turn additional hexsides at a
    cost of 1 MP per hexside'; 8.75: the same in a hex the AFV has not left (R42)."""
    table = movement_allowances()
    return max(hexsides - table.free_facing_hexsides, 0) * table.extra_hexside_mp


def _turn_table() -> list[list[float]]:
    """turn_mp from each facing to each facing."""
    n = len(DIRECTIONS)
    return [[turn_mp(hexsides_between(a, b)) for b in range(n)] for a in range(n)]


def _afv_starts(board: Board, start: Hex, mover: Mover, entering: bool) -> list[AfvState]:
    """The states an AFV may start in: its given facing; else any (chosen at set-up), or, entering the
    map, the facings it can have moved in from off the map (R42, R44)."""
    if mover.facing is not None:
        return [(start, mover.facing)]
    if entering:
        inward = [i for i, d in enumerate(DIRECTIONS) if start - d not in board.hexes]
        if inward:
            return [(start, i) for i in inward]
    return [(start, i) for i in range(len(DIRECTIONS))]


def _afv_search(
    board: Board, start: Hex, mover: Mover, barred: Collection[Hex], cutoff: float, goal: Hex | None = None
) -> tuple[dict[AfvState, float], dict[AfvState, AfvState]]:
    """Cheapest MPs to each (hex, facing) within `cutoff`, turning costs included, and each state's
    parent (a start is its own); stops once a state in `goal` is settled."""
    adjacency = _adjacency(board, mover)
    turning = _turn_table()
    heap: list[tuple[float, AfvState, AfvState]] = [(0.0, s, s) for s in _afv_starts(board, start, mover, False)]
    costs: dict[AfvState, float] = {}
    parent: dict[AfvState, AfvState] = {}
    while heap:
        cost, state, came_from = heapq.heappop(heap)
        if state in costs:
            continue
        costs[state], parent[state] = cost, came_from
        h, facing = state
        if h == goal:
            break
        for n, enter, ahead in adjacency[h]:
            total = cost + turning[facing][ahead] + enter
            if n not in barred and total <= cutoff and (n, ahead) not in costs:
                heapq.heappush(heap, (total, (n, ahead), state))
    return costs, parent


# -- reach, paths, turns --------------------------------------------------------------------


@dataclass(frozen=True)
class Reach:
    """The hexes a unit may enter this phase and the fewest MPs to enter each (the start costs 0)."""

    start: Hex
    allowance: Allowance
    costs: dict[Hex, float]
    immobilization: frozenset[Hex] = field(default_factory=frozenset)
    """Woods and Marsh hexes an AFV reaches, where it rolls for immobilization (8.54, 8.55; R43)."""


def reach(board: Board, start: Hex, mover: Mover, *, afvs: Collection[Hex] = (), wrecks: Collection[Hex] = ()) -> Reach:
    """Where the mover can go this phase from `start`, with the cheapest MP cost of each hex. Rules 8.1, 8.5, 8.61.

    A ONE_HEX allowance reaches every adjacent hex it may enter, whatever it costs (8.11, 8.12,
    8.14); the costs then show what the terrain would charge (R38). An AFV's costs include its
    turns (8.74), from its facing or, when the mover gives none, the best one (R42).
    """
    limit = allowance(mover)
    barred = _barred(mover, afvs, wrecks, start)
    if limit == ONE_HEX:
        costs = {start: 0.0} | {h: cost for h, cost, _ in _adjacency(board, mover)[start] if h not in barred}
    elif mover.is_afv:
        costs = {}
        for (h, _), cost in _afv_search(board, start, mover, barred, limit)[0].items():
            costs[h] = min(cost, costs.get(h, cost))
    else:
        costs = _cheapest(_adjacency(board, mover), start, limit)
    effects = terrain_effects()
    rolls = [h for h in costs if h != start and terrain_row(board.terrain(h), effects) in ("woods", "marsh")]
    return Reach(start, limit, dict(sorted(costs.items())), frozenset(rolls if mover.is_afv else ()))


def _cheapest(adjacency: _Adjacency, start: Hex, limit: float) -> dict[Hex, float]:
    """The fewest MPs from start to each hex within `limit` (Dijkstra; the minima do not depend
    on the order of the search, so they are networkx's single_source_dijkstra_path_length's)."""
    costs: dict[Hex, float] = {}
    order = count()  # ties in cost go first in, first out: no Hex comparisons
    heap = [(0.0, next(order), start)]
    while heap:
        cost, _, h = heapq.heappop(heap)
        if h in costs:
            continue
        costs[h] = cost
        for n, step, _ in adjacency[h]:
            if n not in costs and cost + step <= limit:
                heapq.heappush(heap, (cost + step, next(order), n))
    return costs


@dataclass(frozen=True)
class Path:
    """Hexes from the start to the goal and the MPs spent entering each after the start."""

    hexes: tuple[Hex, ...]
    steps: tuple[float, ...]
    turns: tuple[int, ...] = ()
    """For an AFV: the hexsides it turns before each step, in the hex it leaves (8.74); its cost is in the step."""

    @property
    def cost(self) -> float:
        return sum(self.steps)


def cheapest_path(
    board: Board, origin: Hex, goal: Hex, mover: Mover, *, afvs: Collection[Hex] = (), wrecks: Collection[Hex] = ()
) -> Path:
    """The cheapest way from origin to goal in MPs, however many phases it takes; NoPathError if there is none."""
    import networkx as nx  # see movement_graph

    graph = _passable(board, mover, afvs, wrecks, origin)
    if mover.is_afv:
        costs, parent = _afv_search(board, origin, mover, _barred(mover, afvs, wrecks, origin), math.inf, goal)
        ends = [state for state in costs if state[0] == goal]
        if not ends:
            raise _no_path(board, graph, origin, goal, mover, afvs, wrecks)
        states = [ends[0]]
        while parent[states[-1]] != states[-1]:
            states.append(parent[states[-1]])
        states.reverse()
        steps = tuple(costs[b] - costs[a] for a, b in pairwise(states))
        turns = tuple(hexsides_between(a[1], b[1]) for a, b in pairwise(states))
        return Path(tuple(h for h, _ in states), steps, turns)
    try:
        hexes = nx.dijkstra_path(graph, origin, goal, weight="cost")
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        raise _no_path(board, graph, origin, goal, mover, afvs, wrecks) from None
    return Path(tuple(hexes), tuple(graph[a][b]["cost"] for a, b in pairwise(hexes)))


BARRIER_SHOWN = 12  # hexes of a barrier named in the message; the error carries them all


def _no_path(
    board: Board,
    graph: nx.DiGraph,
    origin: Hex,
    goal: Hex,
    mover: Mover,
    afvs: Collection[Hex],
    wrecks: Collection[Hex],
) -> NoPathError:
    """Why no path joins origin to goal: the goal is closed to the unit, or every hex the unit could
    step to next from the hexes it can reach is."""
    import networkx as nx  # see movement_graph

    def why(h: Hex) -> tuple[str, str, str]:
        """What closes h to the unit ({hexes}: where), why, and the rule."""
        if h in wrecks:
            return "{hexes}", "an AFV may not enter a hex holding a Wreck", "12.4"
        if h in afvs:
            return "{hexes}", "an AFV may not enter a hex holding another AFV", "8.61"
        row = terrain_row(board.terrain(h), terrain_effects())
        road = "; 8.52's road rate does not lift it" if board.terrain(h).road else ""
        return (
            f"{row} {{hexes}}",
            f"'P', prohibited to the unit type, on the Movement & Combat Effects Chart{road}",
            "8.5",
        )

    def say(hexes: Sequence[Hex]) -> str:
        what, because, rule = why(hexes[0])
        shown = " ".join(board.label(h) for h in hexes[:BARRIER_SHOWN])
        more = f" and {len(hexes) - BARRIER_SHOWN} more" if len(hexes) > BARRIER_SHOWN else ""
        return f"{what.format(hexes=shown + more)} ({because}, {rule})"

    if goal not in graph or not any(a != goal for a in graph.predecessors(goal)):
        return NoPathError(mover, f"it may not enter {say([goal])}", (goal,), why(goal)[2])
    reached = nx.descendants(graph, origin) | {origin}
    barrier = tuple(sorted({n for h in reached for n in board.neighbours(h)} - reached))
    by_reason: dict[tuple[str, str, str], list[Hex]] = {}
    for h in barrier:
        by_reason.setdefault(why(h), []).append(h)
    parts = "; ".join(say(hexes) for hexes in by_reason.values())
    where = f"the {len(reached)} hex{'es' if len(reached) != 1 else ''} it can reach from {board.label(origin)}"
    reason = f"every way out of {where} is barred by hexes it may not enter: {parts}"
    return NoPathError(mover, reason, barrier, ", ".join(dict.fromkeys(rule for *_, rule in by_reason)))
