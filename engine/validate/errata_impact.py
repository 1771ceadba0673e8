"""What an errata file changes for a scenario: hexes, LOS between every pair of hexes (10.3),
the named zones, and the turns from each deployment or entry to each objective (8.1).

The scenario is loaded twice, without errata and with them (the same maps and hexes, so one
LOS line table serves both boards); `errata_impact` compares the two. The readings are in
docs/rulings.md (R69-R71).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from engine.geometry.los_kernel import SightKernel
from engine.geometry.movement import Mover, UnitClass
from engine.geometry.sight import FirerState
from engine.geometry.table_cache import kept_matrix
from engine.geometry.zones import ZoneError, resolve, resolve_named
from engine.hexgrid import Hex, hex_distance
from engine.model.board import Board, default_errata_path
from engine.model.map_folders import extra_folders, folders_allowed
from engine.model.scenario import Scenario
from engine.model.terrain import Terrain

from .context import ScenarioContext
from .objectives import objectives, unresolved_objectives
from .starts import Start, starts

# Turn counts are compared for the unit the scenarios field most: NORMAL UP infantry (8.11).
MOVER = Mover(UnitClass.INFANTRY)
EXAMPLES = 3  # LOS examples of each kind (now blocked, now clear)


class ErrataImpactError(ValueError):
    """The scenario's maps or the errata cannot be loaded, or its north indicator is misplaced."""


@dataclass(frozen=True)
class HexChange:
    hex: str
    before: Terrain
    after: Terrain


@dataclass(frozen=True)
class SightChange:
    """A pair whose LOS the errata change, with the rule and hex that block it on the board where it is
    blocked: with the errata if `now_blocked`, else without them."""

    source: str
    target: str
    range: int
    now_blocked: bool
    rule: str | None
    blocking_hex: str | None


@dataclass(frozen=True)
class ZoneChange:
    name: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    problem: str | None = None  # the zone resolves on one board only: why not on the other


@dataclass(frozen=True)
class ObjectiveChange:
    """An objective of the victory conditions whose hexes differ; `only`: it exists on that board alone
    (a building the errata merge into another, or create)."""

    name: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    only: str | None = None  # "before" | "after"


@dataclass(frozen=True)
class NotCompared:
    """A named zone or an objective that resolves to no hex on either board: nothing to compare."""

    name: str
    problem: str  # why not, with the errata (the board the scenario is played on)


@dataclass(frozen=True)
class TurnChange:
    start: str  # "russian main: entry turn 1, russian-entry"
    objective: str  # "hex 4307", "Building 1"
    before: int | None  # None: never
    after: int | None


@dataclass(frozen=True)
class ErrataImpact:
    scenario: Scenario
    errata: str  # the errata file's name
    errata_file: str
    hexes: tuple[HexChange, ...]
    pairs: int  # hex pairs of the board, each counted once
    now_blocked: int
    now_clear: int
    examples: tuple[SightChange, ...]
    zones_compared: int  # the named zones that resolve on one board at least
    zones: tuple[ZoneChange, ...]
    zones_not_compared: tuple[NotCompared, ...]
    objectives_compared: int
    objectives: tuple[ObjectiveChange, ...]
    objectives_not_compared: tuple[NotCompared, ...]
    turns_compared: int
    turns: tuple[TurnChange, ...]

    @property
    def sight_changes(self) -> int:
        return self.now_blocked + self.now_clear


def errata_impact(scenario: Scenario, errata: Path | str | None = None) -> ErrataImpact:
    """The scenario's board without errata against the board with `errata` (default: the scenario's
    own errata file, the printed maps/errata.yaml unless it names another)."""
    if errata is None:
        errata = scenario.errata if isinstance(scenario.errata, str) else default_errata_path()
    # The errata file is the user's choice (command line, file dialog), not the scenario's: its folder is allowed.
    with folders_allowed([*extra_folders(), Path(errata).resolve().parent]):
        before = _context(replace(scenario, errata=False))
        after = _context(replace(scenario, errata=str(errata)))
    board_before, board_after = _board(before), _board(after)
    assert board_after.errata is not None
    hexes = tuple(
        HexChange(board_after.label(h), board_before.terrain(h), board_after.terrain(h))
        for h in sorted(board_after.hexes)
        if board_before.terrain(h) != board_after.terrain(h)
    )
    now_blocked, now_clear, examples = _sight(board_before, board_after)
    zones = [_zone_change(name, before, after) for name in scenario.zones]
    unresolved = [z for z in zones if isinstance(z, NotCompared)]
    compared = [z for z in zones if isinstance(z, ZoneChange)]
    targets = (_objectives(before), _objectives(after))
    names = list(dict.fromkeys([*targets[1], *targets[0]]))
    turns_compared, turns = _turns(before, after, targets)
    n = len(board_after.hexes)
    return ErrataImpact(
        scenario=scenario,
        errata=board_after.errata.name,
        errata_file=board_after.errata.file,
        hexes=hexes,
        pairs=n * (n - 1) // 2,
        now_blocked=now_blocked,
        now_clear=now_clear,
        examples=examples,
        zones_compared=len(compared),
        zones=tuple(z for z in compared if z.added or z.removed or z.problem),
        zones_not_compared=tuple(unresolved),
        objectives_compared=len(names),
        objectives=tuple(
            _objective_change(name, *targets, board_after)
            for name in names
            if targets[0].get(name) != targets[1].get(name)
        ),
        objectives_not_compared=_objectives_not_compared(before, after),
        turns_compared=turns_compared,
        turns=turns,
    )


def _context(scenario: Scenario) -> ScenarioContext:
    ctx = ScenarioContext(scenario)
    if ctx.board is None:
        raise ErrataImpactError(ctx.board_error or "cannot load the maps")
    if ctx.zones is None:
        raise ErrataImpactError(f"the north indicator {' -> '.join(scenario.north)} is not two adjacent hexes")
    return ctx


def _board(ctx: ScenarioContext) -> Board:
    assert ctx.board is not None
    return ctx.board


# -- LOS (10.3) -------------------------------------------------------------------------------


def _sight(before: Board, after: Board) -> tuple[int, int, tuple[SightChange, ...]]:
    """Pairs now blocked, pairs now clear (both ends UP, each pair once), and the nearest examples of each."""
    kernel_before = SightKernel(before)
    kernel_after = SightKernel(after, table=kernel_before.table)  # same hexes: the same lines
    # kept on disk: the next process (and a game of the scenario) reads them (engine/geometry/table_cache.py)
    blocked_before, blocked_after = kept_matrix(kernel_before, FirerState.UP), kept_matrix(kernel_after, FirerState.UP)
    upper = np.triu(np.ones_like(blocked_before), k=1)
    examples: list[SightChange] = []
    counts = []
    for now_blocked, kernel, changed in (
        (True, kernel_after, blocked_after & ~blocked_before & upper),
        (False, kernel_before, blocked_before & ~blocked_after & upper),
    ):
        pairs = [(kernel.order[i], kernel.order[j]) for i, j in zip(*np.nonzero(changed), strict=True)]
        counts.append(len(pairs))
        for a, b in sorted(pairs, key=lambda p: (hex_distance(*p), after.label(p[0]), after.label(p[1])))[:EXAMPLES]:
            sight = kernel.sight(a, b)
            at = after.label(sight.blocking_hex) if sight.blocking_hex is not None else None
            examples.append(SightChange(after.label(a), after.label(b), sight.range, now_blocked, sight.rule, at))
    return counts[0], counts[1], tuple(examples)


# -- zones ------------------------------------------------------------------------------------


def _zone_change(name: str, before: ScenarioContext, after: ScenarioContext) -> ZoneChange | NotCompared:
    found: list[frozenset[Hex] | str] = []
    for ctx in (before, after):
        assert ctx.zones is not None
        try:
            found.append(resolve_named(name, ctx.zones))
        except ZoneError as exc:
            found.append(str(exc))
    old, new = found
    label = _board(after).label
    if isinstance(old, str) and isinstance(new, str):
        return NotCompared(name, new)
    if isinstance(old, str) or isinstance(new, str):
        return ZoneChange(name, (), (), f"without errata: {old}" if isinstance(old, str) else f"with errata: {new}")
    return ZoneChange(name, tuple(sorted(map(label, new - old))), tuple(sorted(map(label, old - new))))


# -- turns (8.1) ------------------------------------------------------------------------------


Objectives = dict[str, frozenset[Hex]]


def _objectives(ctx: ScenarioContext) -> Objectives:
    return {o.name: o.hexes for o in objectives(ctx)}


def _objectives_not_compared(before: ScenarioContext, after: ScenarioContext) -> tuple[NotCompared, ...]:
    """The objectives that resolve to no hex with the errata nor without them (zone-empty reports them)."""
    without = {o.name for o in unresolved_objectives(before)}
    return tuple(NotCompared(o.name, o.problem or "") for o in unresolved_objectives(after) if o.name in without)


def _objective_change(name: str, before: Objectives, after: Objectives, board: Board) -> ObjectiveChange:
    old, new = before.get(name, frozenset()), after.get(name, frozenset())
    only = "before" if name not in after else "after" if name not in before else None
    return ObjectiveChange(
        name, tuple(sorted(map(board.label, new - old))), tuple(sorted(map(board.label, old - new))), only
    )


def _turns(
    before: ScenarioContext, after: ScenarioContext, targets: tuple[Objectives, Objectives]
) -> tuple[int, tuple[TurnChange, ...]]:
    """Turns from each deployment and entry option to each objective on both boards, compared."""
    names = [name for name in targets[1] if name in targets[0]]
    if not names:
        return 0, ()
    compared = 0
    changes: list[TurnChange] = []
    seen: set[tuple[str, bool, str]] = set()
    for start in starts(after.scenario, after.counters):
        key = (start.side, start.entering, repr(start.zone))
        old_sources, new_sources = _start_hexes(before, start), _start_hexes(after, start)
        if key in seen or old_sources is None or new_sources is None:
            continue  # the same start as another group's; or a zone that does not resolve (zone-empty reports it)
        seen.add(key)
        old = before.turns_each(old_sources, [targets[0][name] for name in names], MOVER, entering=start.entering)
        new = after.turns_each(new_sources, [targets[1][name] for name in names], MOVER, entering=start.entering)
        compared += len(names)
        changes += [
            TurnChange(_describe(after.scenario, start), name, a, b)
            for name, a, b in zip(names, old, new, strict=True)
            if a != b
        ]
    return compared, tuple(changes)


def _start_hexes(ctx: ScenarioContext, start: Start) -> frozenset[Hex] | None:
    assert ctx.zones is not None
    try:
        hexes = resolve_named(start.zone, ctx.zones) if isinstance(start.zone, str) else resolve(start.zone, ctx.zones)
    except ZoneError:
        return None
    return hexes or None


def _describe(scenario: Scenario, start: Start) -> str:
    """'russian main: entry turn 1, russian-entry': the side, the group (or `units`), how, the zone."""
    side, kind, index = start.path[1], start.path[2], start.path[3]
    group = scenario.data["sides"][side][kind][index].get("group", "units")
    how = f"entry turn {start.turn}" if start.entering else "deployment"
    return f"{side} {group}: {how}, {start.zone_name}"
