"""Ammo depletion (22.0, an advanced rule: `options.advanced`): the ammo points a scenario gives a
unit, what each kind of fire spends (22.2) and the unit out of ammo that fires no more (22.1).

24.1: 'the ammo point number in parentheses beside the units': a squad's number is its LMG's (a
squad of two LMGs says `pool` or `each`), a CW's its own, an `only` member's its own; none is
unlimited. A pool is shared by the LMGs it names (R343); points are spent once the fire's PC is
passed (22.1: 'a failed PC attempt to fire does not cost an ammo point') and never below zero: a
fire that would cost more than the pool holds is not offered (R344).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.model.scenario import SquadAmmo
from engine.model.tables import table_values

from .advanced import advanced
from .state import GameState
from .units import Unit


@cache
def cost(kind: str) -> int:
    """22.2: the points one fire of `kind` spends (tables/combat.yaml ammo_points)."""
    return int(table_values("combat")["ammo_points"][kind])


def assign_ammo(game: GameState) -> None:
    """24.1, 22.1: every pool of the scenario's set-up lists, full, and each unit's pool."""
    by_ref: dict[int, list[Unit]] = {}
    for unit in game.units.values():
        by_ref.setdefault(unit.extra["_listed"][0], []).append(unit)
    for index, ref in enumerate(game.scenario.units):
        units = by_ref.get(index, [])
        if ref.kind == "crew_weapon" and "ammo" in ref.data:
            for unit in units:
                _pool(game, [unit], unit.id, int(ref.data["ammo"]))
        elif ref.kind == "squad":
            _squad(game, ref.data, units)


def _squad(game: GameState, data: dict[str, Any], units: list[Unit]) -> None:
    members = {int(u.extra["_listed"][1]): u for u in units}  # an `only` list fields in its order
    for index, entry in enumerate(data.get("only") or []):
        if isinstance(entry, dict) and "ammo" in entry and index in members:
            unit = members.pop(index)
            _pool(game, [unit], unit.id, int(entry["ammo"]))
    if "ammo" not in data:
        return
    ammo = SquadAmmo.of(data["ammo"])
    lmgs = [u for u in members.values() if u.type == "LMG"]
    if ammo.split == "pool":  # one number for both LMGs (R343)
        _pool(game, lmgs, f"{lmgs[0].id} pool" if lmgs else "", ammo.points)
    else:
        for unit in lmgs:
            _pool(game, [unit], unit.id, ammo.points)


def _pool(game: GameState, units: list[Unit], key: str, points: int) -> None:
    if not units:
        return
    game.ammo[key] = points
    for unit in units:
        unit.extra["ammo_pool"] = key


def ammo_left(game: GameState, unit: Unit) -> int | None:
    """The points the unit's pool holds (22.3's unmarked boxes); None: unlimited (no number, or the
    basic game)."""
    key = unit.extra.get("ammo_pool")
    return game.ammo[key] if key is not None and advanced(game) else None


def may_spend(game: GameState, unit: Unit, points: int, committed: int = 0) -> bool:
    """Whether the pool still pays `points` after `committed` of it already in the same attack."""
    left = ammo_left(game, unit)
    return left is None or left - committed >= points


def spend(game: GameState, unit: Unit, points: int) -> list[dict[str, Any]]:
    """22.1, 22.3: the points marked off; out of ammo at zero, for the rest of the game."""
    left = ammo_left(game, unit)
    if left is None:
        return []
    key = unit.extra["ammo_pool"]
    game.ammo[key] = max(0, left - points)  # may_spend let nothing cost more than is left
    # the roster is its owner's (R346): the other side sees the fire, not the boxes marked off
    owner = {"side": unit.side, "secret": True}
    event = {"event": "ammo", "unit": unit.id, "spent": points, "left": game.ammo[key], **owner, "rule": "22.1, 22.2"}
    if game.ammo[key]:
        return [event]
    return [event, {"event": "out of ammo", "unit": unit.id, **owner, "rule": "22.1"}]


def ap_cost(unit: Unit, intensive: bool) -> int:
    """22.2: what one unit's part in an AP attack spends (an MG in DF mode, an ATG, an ATR; R345)."""
    if unit.type in ("LMG", "MMG"):
        return cost("mg_direct_intensive" if intensive else "mg_direct")
    return cost({"ATR": "atr", "FT": "flamethrower"}.get(unit.type, "atg"))


def committed(game: GameState, unit: Unit, firers: list[Unit], intensive: list[str]) -> int:
    """The points the declared firers of an attack that share `unit`'s pool will spend (R344)."""
    key = unit.extra.get("ammo_pool")
    if key is None:
        return 0
    return sum(ap_cost(u, u.id in intensive) for u in firers if u.extra.get("ammo_pool") == key)


def out_of_ammo(game: GameState, unit: Unit) -> bool:
    """22.1: 'When this number is expended the unit is out of ammo and may fire no more in the game.'"""
    return ammo_left(game, unit) == 0
