"""Can each force reach each objective before the game ends? Unopposed, at the real movement costs.

A deployed force moves from its zone from its first Movement Phase (turn 1, or later under a
restriction); an entering force comes on in its entry turn, paying the entry hex (R44); one
entering in a Reaction Movement Phase is on the edge after it and moves from the next turn
(R46 counts Movement Phases only). Infantry moves at 6 MPs (8.11); AFVs at their counters'
allowance (8.13) and only to objective hexes they may stand in (a building, "P" to AFVs, is the
infantry's objective). The turns come from the shared context, which keeps them across edits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from engine.geometry.movement import ONE_HEX, Mover, Phase, UnitClass, allowance, entry_cost
from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.counters import SIDES
from engine.model.scenario import UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.objectives import Objective, objectives
from engine.validate.placements import may_stand, zone_hexes
from engine.validate.starts import Start, afv_movement, first_movement_turn, starts

TOO_FAR = Check(
    id="objective-too-far",
    rule="8.1",
    severity=Severity.WARNING,
    summary="Unopposed, a force cannot reach a victory objective before the game ends, from its deployment zone "
    "or entry at real movement costs.",
    fix="Compare the entry turn, the zones and the game length with the printed scenario; if they agree, the "
    "force simply cannot take part there.",
)
ARRIVALS = Check(
    id="objective-turns",
    rule="8.1",
    severity=Severity.INFO,
    summary="The first turn each side's units could stand on each objective, unopposed.",
    fix="Nothing to fix: a figure for judging the scenario's balance against its game length.",
)


@dataclass(frozen=True)
class Force:
    """The units of a start that move alike."""

    units: tuple[UnitRef, ...]
    mover: Mover

    def describe(self) -> str:
        return ", ".join(ref.describe() for ref in self.units)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    goals = objectives(ctx)
    if board is None or not goals:
        return
    length = ctx.scenario.game_length
    earliest: dict[str, dict[str, int | None]] = {side: {} for side in SIDES}
    for start in starts(ctx.scenario, ctx.counters):
        area = zone_hexes(ctx, start.zone, start.zone_path)
        if not area:
            continue
        for force in forces(ctx, start):
            afv = force.mover.is_afv
            aims = [(g, frozenset(h for h in g.hexes if may_stand(board, h, afv=afv, state="up"))) for g in goals]
            aims = [(goal, targets) for goal, targets in aims if targets]
            arrivals = _arrivals(ctx, board, start, force, area, [targets for _, targets in aims])
            for (goal, _), arrival in zip(aims, arrivals, strict=True):
                best = earliest[start.side]
                best[goal.name] = _sooner(best.get(goal.name), arrival)
                if arrival is None or arrival > length:
                    yield TOO_FAR.problem(ctx.doc, start.path, _late(start, force, goal, arrival, length))
    for side in SIDES:
        if earliest[side]:
            yield ARRIVALS.problem(ctx.doc, ("sides", side), _first_turns(side, goals, earliest[side], length))


def forces(ctx: ScenarioContext, start: Start) -> Iterator[Force]:
    """Infantry (squads and commanders) at 6 MPs, and the AFVs by Movement Phase allowance (8.11, 8.13)."""
    infantry = tuple(ref for ref in start.units if ref.kind in ("squad", "commander"))
    if infantry:
        yield Force(infantry, Mover(UnitClass.INFANTRY))
    afvs: dict[float | None, list[UnitRef]] = {}
    for ref in start.units:
        if ref.kind == "afv":
            afvs.setdefault(afv_movement(ctx.counters, ref.side, ref.type), []).append(ref)
    for mp, units in afvs.items():
        yield Force(tuple(units), Mover(UnitClass.AFV, mp=mp))


def _arrivals(
    ctx: ScenarioContext,
    board: Board,
    start: Start,
    force: Force,
    area: frozenset[Hex],
    target_sets: list[frozenset[Hex]],
) -> list[int | None]:
    """The Game Turn whose Movement Phase brings the force to each target set; 0: deployed on it; None: never."""
    if start.turn is None:
        # Deployed on an objective: there at the start, no search needed.
        first = first_movement_turn(ctx.scenario, ctx.counters, force.units)
        away = iter(ctx.turns_each(area, [t for t in target_sets if not t & area], force.mover))
        return [0 if targets & area else _later(first - 1, next(away)) for targets in target_sets]
    if start.phase == "movement":
        return [_later(start.turn - 1, t) for t in ctx.turns_each(area, target_sets, force.mover, entering=True)]
    # In a Reaction Movement Phase it reaches the entry hexes its reaction allowance pays for.
    reaction = allowance(replace(force.mover, phase=Phase.REACTION))
    edge = frozenset(
        h
        for h in area
        if (cost := entry_cost(board, h, force.mover)) is not None and (reaction == ONE_HEX or cost <= reaction)
    )
    if not edge:
        return [None] * len(target_sets)
    return [_later(start.turn, t) for t in ctx.turns_each(edge, target_sets, force.mover)]


def _later(turn: int, turns: int | None) -> int | None:
    """The turn `turns` Movement Phases after `turn`; None: never."""
    return None if turns is None else turn + turns


def _sooner(a: int | None, b: int | None) -> int | None:
    """The earlier of two arrivals, None standing for never."""
    return b if a is None else a if b is None else min(a, b)


def _late(start: Start, force: Force, goal: Objective, arrival: int | None, length: int) -> str:
    side = start.side.capitalize()
    if start.turn is None:
        how = f"deployed in {start.zone_name}"
    elif start.phase == "movement":
        how = f"entering on turn {start.turn}"
    else:
        how = f"entering in the Reaction Movement Phase of turn {start.turn}"
    units = f"{side} {'up to ' if start.limited else ''}{force.describe()} ({_class(force.mover)})"
    if arrival is None:
        return f"{units} {how} can never reach {goal.name}"
    return f"{units} {how} reach {goal.name} on turn {arrival} at the earliest; the game ends on turn {length}"


def _class(mover: Mover) -> str:
    return f"{'AFV' if mover.is_afv else 'infantry'}, {allowance(mover):g} MP"


def _first_turns(side: str, goals: list[Objective], earliest: dict[str, int | None], length: int) -> str:
    parts = []
    for goal in goals:
        if goal.name in earliest:
            turn = earliest[goal.name]
            parts.append(f"{goal.name} {'never' if turn is None else 'at the start' if turn == 0 else f'turn {turn}'}")
    return (
        f"{side.capitalize()} units can first stand on, unopposed: {', '.join(parts)} (the game ends on turn {length})"
    )
