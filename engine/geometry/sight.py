"""Line of sight (10.3): the answer object and the rules applied to the hexes a line meets.

Both LOS implementations (the shapely reference and the fast kernel) find *which* hexes
the line meets and how (passes through, runs along a hexside, touches a corner) and
whether it touches each Building symbol; `judge` then applies 10.31-10.34 to that list.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property

from engine.hexgrid import Hex, hex_distance
from engine.model.board import Board
from engine.model.tables import TerrainEffects, sighting_rules, terrain_effects

from .lattice import Contact, Touch, symbol_scale


class FirerState(StrEnum):
    UP = "up"
    DOWN = "down"


class HouseRule(StrEnum):
    """Departures from the letter of 10.3 that players may agree on; none applies unless named."""

    LOW_GROUND = "low-ground"
    """What stands in a hex lower than both units lies below their line: it neither blocks
    (10.31 a-c) nor counts along the LOS (11.16 b, 23.2 d, e). The letter of 10.31 has no such
    exception (ruling R72)."""


@dataclass(frozen=True)
class SightTerrain:
    """The table values LOS uses: obstacle levels (10.32 a), the Building symbol (10.31 a), the
    Trees/AFVs/Wrecks a same-level line may pass (10.31 b), and the house rules in play."""

    woods_obstacle: float
    building_obstacle: float
    woods_min_trees: int
    footprint: tuple[tuple[float, float], ...]
    join_width: float
    max_trees_along: int
    low_ground: bool = False  # HouseRule.LOW_GROUND

    @classmethod
    def from_effects(
        cls, effects: TerrainEffects | None = None, house_rules: Collection[HouseRule] = ()
    ) -> SightTerrain:
        effects = effects or terrain_effects()
        return cls(
            effects.row("woods").obstacle_level,
            effects.row("building").obstacle_level,
            effects.woods_min_trees,
            effects.footprint,
            effects.join_width,
            sighting_rules().max_trees_along,
            HouseRule.LOW_GROUND in house_rules,
        )

    @cached_property
    def scale(self) -> int:
        return symbol_scale([x for x, _ in self.footprint] + [self.join_width])


@dataclass(frozen=True)
class ProfilePoint:
    """A hex the line meets, at its range from the firer, as high as the Sighting Chart stands it
    (10.32 a), and the rule by which it blocks the line, if it does: 10.32 b (above the line between
    units on different levels) or 10.31 a-c (units on one level; 10.31 b at the hex where the
    Trees/AFVs/Wrecks along first exceed the limit)."""

    hex: Hex
    distance: int
    height: float
    rule: str | None = None

    @property
    def blocks(self) -> bool:
        return self.rule is not None


@dataclass(frozen=True)
class Sight:
    """The line of sight from `source` (the firer) to `target`."""

    source: Hex
    target: Hex
    blocked: bool
    rule: str | None  # "10.31 a", "10.31 b", "10.31 c" or "10.32 b"
    blocking_hex: Hex | None
    hexes: tuple[Hex, ...]  # passed through or along, in order, ends excluded
    hexsides: tuple[tuple[Hex, Hex], ...]  # pairs the line runs between (10.31 b)
    corners: tuple[Hex, ...]  # hexes touched at one corner only
    trees_along: int  # Trees/AFVs/Wrecks along the LOS, hexside rule applied (11.16 b, 23.2 d)
    marsh_along: tuple[Hex, ...]  # Marsh hexes along the LOS (23.2 e)
    range: int  # 11.2: the target hex counts, the firer's does not
    firer_level: int
    target_level: int
    profile: tuple[ProfilePoint, ...] = field(default=())

    @property
    def level_difference(self) -> int:
        """Target level minus firer level (11.16 c, 12.31: a higher target is harder to hit)."""
        return self.target_level - self.firer_level


SymbolHit = Callable[[Hex], bool]


def judge(
    board: Board,
    source: Hex,
    target: Hex,
    touched: Sequence[Touch],
    symbol_hit: SymbolHit,
    terrain: SightTerrain,
    firer: FirerState = FirerState.UP,
    blockers: Mapping[Hex, int] | None = None,
) -> Sight:
    """Apply 10.31-10.34 to the hexes a line meets (`touched`: absolute hexes, in order, ends included)."""
    blockers = blockers or {}
    low_end = min((source, target), key=lambda h: board.terrain(h).elevation)
    firer_level, target_level = board.terrain(source).elevation, board.terrain(target).elevation
    low = min(firer_level, target_level)
    n = hex_distance(source, target)

    def below(h: Hex) -> bool:
        """Under the low-ground house rule, a hex lower than both units: the line passes above it."""
        return terrain.low_ground and board.terrain(h).elevation < low

    def count(h: Hex) -> int:
        return 0 if below(h) else board.terrain(h).trees + blockers.get(h, 0)

    # 10.33: the end hexes never block; hexes off the board hold nothing
    steps = _steps([t for t in touched if t.offset not in (source, target) and t.offset in board.hexes])
    hexes: list[Hex] = []
    pairs: list[tuple[Hex, Hex]] = []
    corners: list[Hex] = []
    marsh: list[Hex] = []
    profile: list[ProfilePoint] = []
    trees = 0
    past_tree_limit = False  # 10.31 b: marked at the one hex where the count first exceeds the limit
    block: tuple[str, Hex] | None = None
    for contact, step in steps:
        if contact is Contact.CORNER:
            corners += step
        else:
            hexes += step
            if len(step) == 2:
                pairs.append((step[0], step[1]))
            trees += max(count(h) for h in step)  # 10.31 b: along a hexside, the hex with more
            marsh += [h for h in step if board.terrain(h).marsh and not below(h)][:1]
        found = None
        points: dict[Hex, ProfilePoint] = {}
        for h in step:
            height = _obstacle_height(board, h, contact, symbol_hit, terrain)
            distance = hex_distance(low_end, h)
            blocks = firer_level != target_level and _above_line(
                height, distance, n, min(firer_level, target_level), max(firer_level, target_level)
            )
            points[h] = ProfilePoint(h, hex_distance(source, h), height, "10.32 b" if blocks else None)
            if blocks and found is None:
                found = ("10.32 b", h)
        if firer_level == target_level:
            above = [h for h in step if not below(h)]
            too_many = trees > terrain.max_trees_along
            found = _same_level(board, above, contact, firer_level, symbol_hit, firer, too_many, max(step, key=count))
            if found is not None and not (found[0] == "10.31 b" and past_tree_limit):
                points[found[1]] = replace(points[found[1]], rule=found[0])
            past_tree_limit = past_tree_limit or too_many
        profile += points.values()
        if block is None and found is not None:
            block = found
    return Sight(
        source,
        target,
        block is not None,
        block[0] if block else None,
        block[1] if block else None,
        tuple(hexes),
        tuple(pairs),
        tuple(corners),
        trees,
        tuple(marsh),
        n,
        firer_level,
        target_level,
        tuple(profile),
    )


def _steps(touched: Sequence[Touch]) -> list[tuple[Contact, list[Hex]]]:
    """Group a line's hexes into steps: one hex passed through, a hexside pair, or a corner."""
    steps: list[tuple[Contact, list[Hex]]] = []
    last_t = None
    for t in touched:
        if t.contact is Contact.HEXSIDE and steps and steps[-1][0] is Contact.HEXSIDE and t.t == last_t:
            steps[-1][1].append(t.offset)
        else:
            steps.append((t.contact, [t.offset]))
        last_t = t.t
    return steps


def _same_level(
    board: Board,
    step: list[Hex],
    contact: Contact,
    level: int,
    symbol_hit: SymbolHit,
    firer: FirerState,
    too_many_trees: bool,
    densest: Hex,
) -> tuple[str, Hex] | None:
    """10.31 for one step of the line (its hexes that can block: all of them by the letter);
    `too_many_trees`: the Trees/AFVs/Wrecks counted up to and including it exceed 10.31 b's limit."""
    for h in step:
        t = board.terrain(h)
        # a: "crosses or touches a Building symbol or Hill hex of a higher elevation"
        if t.elevation > level or (t.building is not None and contact is not Contact.CORNER and symbol_hit(h)):
            return "10.31 a", h
    if contact is Contact.CORNER:
        return None
    if too_many_trees:
        return "10.31 b", densest
    if firer is FirerState.DOWN:
        for h in step:
            if board.terrain(h).marsh:
                return "10.31 c", h
    return None


def _obstacle_height(board: Board, h: Hex, contact: Contact, symbol_hit: SymbolHit, terrain: SightTerrain) -> float:
    """A hex's height on the Sighting Chart (10.32 a): its hill level, plus its woods or building.

    A hill hex obstructs wherever the line touches it; woods only where the line passes
    through or along the hex; a building only where the line touches its symbol.
    """
    t = board.terrain(h)
    height = float(t.elevation)
    extra = 0.0
    if contact is not Contact.CORNER and t.trees >= terrain.woods_min_trees:
        extra = terrain.woods_obstacle
    if t.building is not None and contact is not Contact.CORNER and symbol_hit(h):
        extra = max(extra, terrain.building_obstacle)
    return height + extra


def _above_line(height: float, distance: int, n: int, low: int, high: int) -> bool:
    """10.32 b: the obstruction touches or crosses above the straight line between the units.

    The line rises from `low` at the lower unit to `high` at range `n`; at `distance` from
    the lower unit it stands at low + (high - low) * distance / n (compared multiplied by n).
    """
    return height * n >= low * n + (high - low) * distance
