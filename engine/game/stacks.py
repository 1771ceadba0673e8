"""Stacks in play: which units may move together (8.3 B, 8.41-8.44, 8.64) and in what order
(8.0: AFVs alone, then AFV/infantry stacks, then the rest), and the stacking limits (8.62, 8.63).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from engine.hexgrid import Hex
from engine.model.tables import table_values

from .state import GameState
from .units import Unit, side_ids

# 8.0's movement order: AFVs alone, then AFV/infantry stacks, then the rest.
AFV_ALONE, AFV_STACK, OTHERS = 1, 2, 3


def over_stacked(game: GameState, side: str, h: Hex, adding: Sequence[Unit] = ()) -> bool:
    """More than six men plus one AFV, or two CWs, in h with `adding` come in (8.62, 8.63)."""
    men, afvs, cws = game.totals(side, h)
    for u in adding:
        if u.hex != h or not u.on_map:
            kind = u.kind  # `is_afv` read once: every step asks this of its stack for each hex it may enter
            if kind == "afv":
                afvs += 1
            else:
                men += u.men
                cws += kind == "cw"
    most = _stacking_limits()
    return men > most[0] or afvs > most[1] or cws > most[2]


@cache
def _stacking_limits() -> tuple[int, int, int]:
    limits = table_values("combat")["stacking"]
    return int(limits["max_men"]), int(limits["max_afvs"]), int(limits["max_crew_weapons"])


def stacking_problems(game: GameState, side: str) -> list[Hex]:
    """Hexes where `side` has more than six men plus one AFV, or two CWs (8.62, 8.63)."""
    problems: list[Hex] = game.kept(("stacking", side), lambda: _stacking_problems(game, side))
    return problems


def _stacking_problems(game: GameState, side: str) -> list[Hex]:
    most = _stacking_limits()
    found = []
    for h, units in game.occupied().items():
        if len(units) == 1 and units[0].men <= most[0]:
            continue  # one unit: over no limit unless it alone has too many men
        if any(u.side == side for u in units):
            men, afvs, cws = game.totals(side, h)
            if men > most[0] or afvs > most[1] or cws > most[2]:
                found.append(h)
    return sorted(found)


def _groups(game: GameState, units: list[Unit]) -> list[list[Unit]]:
    """Each unit alone, and the stack that may move together: all of them where a commander is
    with them, else each squad's, alone or with the AFV there (5.3, 8.64, 8.41); CWs never with an
    AFV (8.44)."""
    detached: dict[tuple[str, ...], list[Unit]] = {}
    for u in units:  # 8.3 C: 'Several units moving together to the same hex take a single modified PC'
        if u.extra.get("detached"):
            detached.setdefault(u.extra["detached"], []).append(u)
    if detached:
        units = [u for u in units if not u.extra.get("detached")]
        return [*detached.values(), *_groups(game, units)] if units else list(detached.values())
    leaders = {u.led_by for u in units if u.led_by is not None}
    if leaders:  # 8.3 B, 8.32: the leader alone or with any of those he leads (R151)
        groups = []
        for leader_id in sorted(leaders):
            led = [u for u in units if u.led_by == leader_id and u.id != leader_id]
            leader = next((u for u in units if u.id == leader_id), None)
            if leader is not None:
                groups += [[leader, *c] for n in range(len(led) + 1) for c in combinations(led, n)]
        afvs = [u for u in units if u.is_afv and u.led_by is None]
        if len(afvs) == 1:  # 8.42: 'the leader and any moving infantry must accompany the AFV' (no CW: 8.44)
            for leader_id in sorted(leaders):
                riders = [u for u in units if u.led_by == leader_id and u.kind != "cw"]
                if any(u.id == leader_id for u in riders):
                    groups.append([afvs[0], *riders])
        return groups + [[u] for u in units if u.led_by is None]
    groups = [[u] for u in units]
    if len(units) < 2:
        return groups
    commander = any(u.kind == "commander" for u in units)
    stacks: list[list[Unit]] = []
    if commander:
        stacks.append(units)
    else:
        squads: dict[str | None, list[Unit]] = {}
        for u in units:
            squads.setdefault(u.squad, []).append(u)
        stacks += [s for key, s in squads.items() if key is not None and len(s) > 1]
        afvs = [u for u in units if u.is_afv]
        if len(afvs) == 1:  # 8.41: the AFV with the infantry it begins stacked with (5.3: one squad's)
            stacks += [[afvs[0], *s] for key, s in squads.items() if key is not None]
    for stack in stacks:
        if any(u.is_afv for u in stack):
            stack = [u for u in stack if u.kind != "cw"]  # 8.44
            if sum(1 for u in stack if u.is_afv) != 1:
                continue
        if len(stack) > 1 and stack not in groups:
            groups.append(stack)
    return groups


def side_afvs(game: GameState, side: str) -> list[Unit]:
    """The side's AFVs in the order of `side_units` (8.65's pushes and 9.0's overruns are theirs
    alone): their ids kept for the game, as no unit changes side or kind, where every movement
    listing walked every unit of the side for them."""
    units = game.units
    return [units[i] for i in side_ids(game, "side_afvs", side, lambda u: u.is_afv)]


def _order(lead: Unit, group: list[Unit]) -> int:
    if any(u.is_afv for u in group):
        return AFV_ALONE if len(group) == 1 else AFV_STACK
    return OTHERS
