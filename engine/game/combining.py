"""Combining AP factors (11.12-11.14): who may join a declared attack, which firers may fire as
one, and the leader of a Group Fire (23.14). The engine's fire combat and the odds calculator
(fire_odds.py) ask the same functions.
"""

from __future__ import annotations

from engine.geometry.movement import Morale
from engine.hexgrid import Hex, hex_distance
from engine.model.tables import table_values

from .mortars import is_mortar
from .shot import is_atg, is_mg, opening_hexes, openings, opportunity_fire
from .state import DEFENSIVE_FIRE, SUPPORT_FIRE, GameState
from .units import Unit


def combinable(game: GameState, firers: list[Unit], target: Hex) -> list[Unit]:
    """The units that may join the declared attack: each may fire at the target itself and the
    whole may combine (11.12-11.14)."""
    ids, side = {u.id for u in firers}, firers[0].side  # the openings the listing kept, at the target
    able = [
        u for u, h, aim, _ in openings(game, side, opening_hexes(game, side)) if aim and h == target and u.id not in ids
    ]
    return [u for u in able if may_combine(game, [*firers, u])]


def may_combine(game: GameState, units: list[Unit]) -> bool:
    """11.12: AFVs and ATGs never combine AP; 11.13 a-c infantry (a squad's stacked; different squads
    stacked with a NORMAL commander; Group Fire: a squad in two adjacent hexes with a NORMAL leader
    in one, Support and Defensive Fire only); 11.14 MMGs stacked with or adjacent to infantry or
    MGs, Group Fire with them in one of the two hexes. In opportunity fire only 11.13 a-b (13.15, R94)."""
    if len(units) == 1:
        return True
    if any(u.is_afv or is_atg(u) or is_mortar(u) or u.kind == "ft" or (u.kind == "cw" and not is_mg(u)) for u in units):
        return False
    hexes = sorted({u.hex for u in units if u.hex is not None})
    if len(hexes) > 2 or (len(hexes) == 2 and hex_distance(hexes[0], hexes[1]) != 1):
        return False
    if len(hexes) == 2 and opportunity_fire(game):
        return False  # R94: 13.15 'as per 11.13': stacked units only
    infantry = [u for u in units if u.type != "MMG"]
    mmgs = [u for u in units if u.type == "MMG"]
    if not infantry:
        return True  # 11.14: MGs with MGs
    by_hex: dict[Hex, list[Unit]] = {}
    for u in infantry:
        assert u.hex is not None
        by_hex.setdefault(u.hex, []).append(u)
    if not all(_stacked_combine(game, h, group) for h, group in by_hex.items()):
        return False
    if len(by_hex) == 2:  # 11.13 c Group Fire: one squad, a NORMAL leader in one of the hexes
        squads = {u.squad for u in infantry}
        if game.phase not in (SUPPORT_FIRE, DEFENSIVE_FIRE) or len(squads) != 1 or None in squads:
            return False
        return any(_leaders(game, h) for h in by_hex)
    return bool(mmgs) or len(hexes) == 1


def group_fire_leader(game: GameState, units: list[Unit]) -> Unit | None:
    """The leader of a Group Fire (11.13 c: infantry firers in two hexes; MMGs in one of them,
    11.14), None for any other attack: 23.14, 'only the leader may be used to observe'. A commander
    before an acting leader (5.1, 5.2), one that fires before one that does not (R370)."""
    hexes = sorted({u.hex for u in units if u.type != "MMG" and u.hex is not None})
    if len(hexes) != 2:
        return None
    firing = {u.id for u in units}
    leaders = [u for h in hexes for u in _leaders(game, h)]
    return min(leaders, key=lambda u: (u.kind != "commander", u.id not in firing), default=None)


def _stacked_combine(game: GameState, h: Hex, group: list[Unit]) -> bool:
    """11.13 a: one squad's units stacked; b: different squads stacked with a NORMAL commander."""
    squads = {u.squad for u in group}
    if len(squads) == 1 and None not in squads:
        return True
    return any(u.kind == "commander" and u.morale == Morale.NORMAL for u in game.at(h))


def _leaders(game: GameState, h: Hex) -> list[Unit]:
    """11.13 c: 'a NORMAL status leader' in the hex: a commander (5.1) or an acting leader (5.2)."""
    least = int(table_values("combat")["leaders"]["acting_leader_min_pr"])
    return [
        u
        for u in game.at(h)
        if u.morale == Morale.NORMAL and (u.kind == "commander" or (u.kind == "infantry" and u.pr >= least))
    ]
