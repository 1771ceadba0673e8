"""Leader directed movement (8.3): a leader's PC for the units of his hex (8.3 A, 8.34), and
those he led moving off without him (8.3 C).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.geometry.movement import Morale
from engine.model.tables import table_values

from .actions import DETACH, LEAD, Action
from .performance import performance_check
from .state import MOVEMENT, GameState
from .units import Unit


def _with_their_leaders(group: list[Unit]) -> bool:
    """8.3 B: units a leader's PC lets move 'remain with the leader throughout the entire movement'."""
    ids = {u.id for u in group}
    return all(u.led_by is None or u.led_by in ids for u in group)


def _leader_actions(game: GameState, units: list[Unit]) -> list[Action]:
    """8.3 A: a leader's PC for the units of his hex no other leader's PC is for (8.34); C: those he
    led that have not moved with him move off without him, one unit or several together, with his
    PR, wherever he is now ("because the leader has moved to another hex", or a casualty: R154)."""
    actions = []
    for leader in units:
        if leader.led_by is not None or leader.extra.get("lead_pc") or not _may_lead(leader):
            continue
        if any(u is not leader and u.led_by is None and may_lead(leader, u) for u in units):
            actions.append(Action(LEAD, (leader.id,)))
    left_behind: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.led_by is not None and unit.led_by != unit.id:
            left_behind.setdefault(unit.led_by, []).append(unit)
    for leader_id, led in sorted(left_behind.items()):
        actions += [Action(DETACH, tuple(u.id for u in group), leader_id) for group in _moving_together(led)]
    return actions


def _moving_together(units: list[Unit]) -> list[tuple[Unit, ...]]:
    """Each unit alone, and every set of two or more of one squad: without their leader, units of
    different squads may not move together (8.64, R152)."""
    squads: dict[str, list[Unit]] = {}
    for u in units:
        if u.squad is not None:
            squads.setdefault(u.squad, []).append(u)
    together = [c for s in squads.values() for n in range(2, len(s) + 1) for c in combinations(s, n)]
    return [(u,) for u in units] + together


def _may_lead(leader: Unit) -> bool:
    """5.1 commanders; 5.2 an infantry unit (not CW, FT or AFV) of PR 9 or more in NORMAL status."""
    if leader.morale != Morale.NORMAL:
        return False
    return leader.kind == "commander" or (leader.kind == "infantry" and leader.pr >= _acting_leader_pr())


def _acting_leader_pr() -> int:
    return int(table_values("combat")["leaders"]["acting_leader_min_pr"])


def may_lead(leader: Unit, unit: Unit) -> bool:
    """8.31: NORMAL infantry and CW units only; an acting leader his own squad plus one CW."""
    if unit.kind not in ("infantry", "ft", "cw", "commander") or unit.morale != Morale.NORMAL:
        return False
    if leader.kind == "commander":
        return True
    return unit.kind == "cw" or unit.squad == leader.squad


def _lead(game: GameState, leader: Unit) -> list[dict[str, Any]]:
    """8.3 A: the leader's PC for the units of his hex. Failed: none of them may move, all have
    MOVED. Passed: those staying with him move without a PC (B). 8.34: 'A unit may have only one
    leader take the PC for it': units another leader's passed PC is for are left out (R153)."""
    check = performance_check(game.dice, leader.pr)
    leader = game.changing(leader)
    leader.extra["lead_pc"] = True
    stack = [u for u in game.at(leader.hex) if u.side == leader.side] if leader.hex is not None else [leader]
    events: list[dict[str, Any]] = [
        {
            "event": "pc",
            "unit": leader.id,
            "for": "leader directed movement",
            "check": check.describe(),
            "rule": "8.3 A",
        }
    ]
    for unit in stack:
        if unit.led_by is not None:
            continue
        unit = game.changing(unit)
        unit.moved = True
        if not check.passed:
            unit.move_done = True
        elif unit is leader or may_lead(leader, unit):
            unit.led_by = leader.id
    leader.extra["lead_passed"] = check.passed
    if check.passed:
        leader.extra["pc_passed"] = True
    return events


def _detach(game: GameState, units: list[Unit], leader: Unit) -> list[dict[str, Any]]:
    """8.3 C: units moving without the leader take a modified PC (+2) with his PR; passed, they move
    at most 4 MPs (2 in Reaction Movement); failed, they have MOVED and stay."""
    check = performance_check(game.dice, leader.pr, "leader_directed_movement")
    caps = table_values("movement-allowances")["leader_directed_movement"]
    cap = float(caps["movement_phase" if game.phase == MOVEMENT else "reaction_phase"])
    units = [game.changing(u) for u in units]
    for unit in units:
        unit.led_by = None
        unit.moved = True
        if check.passed:
            unit.extra["pc_passed"] = True
            unit.extra["detached"] = tuple(u.id for u in units)
            unit.allowance_cap = cap
        else:
            unit.move_done = True
    return [
        {
            "event": "pc",
            "units": [u.id for u in units],
            "for": f"movement led by {leader.id}",
            "check": check.describe(),
            "rule": "8.3 C",
        }
    ]
