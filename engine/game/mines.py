"""Mines in play (19.0): detonation as units enter a mined hex (19.2-19.26), who may go on moving
(19.27), and the detonations of an assault, an overrun and an infiltration (19.2, 24.37).

Mines are placed in secret at the set-up (19.11: `game.secrets[side].mines`, {hex: {"ap": n, "at":
n}}) and never depleted (19.15): every entry detonates them again. What a detonation reveals is
public from then on (`game.revealed_mines`, in both sides' views). Who owns a mine does not matter
once it detonates (19.22: 'ANY AP mined hex'; 19.23: 'ANY AT mined hex'), so the factors of a hex
are the sum of both sides'; only 19.21 looks at the owner, and there nothing happens at all:
infantry and CWs never detonate or reveal AT mines, their own or the enemy's.

Mine detonations are not combat for 8.22's first shot ('Mine detonations ... do not count as
combat for this purpose'): nothing here sets `game.first_shot`. Results go through results.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.geometry.movement import Morale
from engine.hexgrid import Hex
from engine.model.tables import table_values

from .results import apply_result, destroy_afv
from .state import GameState
from .units import Unit

Events = list[dict[str, Any]]


def factors(game: GameState, h: Hex) -> dict[str, int]:
    """The AP and AT factors in h, both sides' together (19.13: both types may share a hex)."""
    total = {"ap": 0, "at": 0}
    for secrets in game.secrets.values():
        mined = secrets.mines.get(h)
        if mined:
            total["ap"] += int(mined.get("ap", 0))
            total["at"] += int(mined.get("at", 0))
    return total


@cache
def _rules() -> dict[str, Any]:
    rules: dict[str, Any] = table_values("combat")["mines"]
    return rules


def ap_result(die: int, ap_factors: int) -> str:
    """19.24 a-d, fractions rounded up: the result of one AP mine die.

    >>> [ap_result(d, 4) for d in range(1, 7)]
    ['E', 'S', 'P', 'P', 'NE', 'NE']
    >>> [ap_result(d, 1) for d in (1, 2)]
    ['E', 'NE']
    >>> [ap_result(d, 2) for d in (1, 2, 3)]
    ['E', 'P', 'NE']
    """
    attack = _rules()["ap_attack"]
    for result, name in (("E", "eliminated_fraction"), ("S", "suppressed_fraction"), ("P", "pinned_fraction")):
        if die <= math.ceil(ap_factors * float(attack[name]) - 1e-9):
            return result
    return "NE"


# -- movement (19.2: 'the instant a player's unit (or stack) enters a mined hex') ------------


def entering_detonation(game: GameState, units: Sequence[Unit], h: Hex) -> Events:
    """The mines of h as the moving unit or stack `units` enters it (from a hex next to it or from
    off the map), before the other side answers the move (steps.py's `_step` calls it).

    AP factors (19.22: any unit of either side): revealed; each infantry unit and CW of the stack
    undergoes an AP mine attack (19.24; with an AFV, 19.26: the AFV itself rolls nothing). AT factors
    (19.23: an AFV of either side): revealed and the AFV attacked (19.25); infantry and CWs alone
    neither detonate nor reveal them (19.21). AP before AT, in the order of the rules. An AFV whose
    `extra["overrunning"]` is set is entering to overrun: its AT attack comes later
    (`overrun_detonation`, 19.2). Then 19.27: after a mine attack only NORMAL units go on moving."""
    mines = factors(game, h)
    if not mines["ap"] and not mines["at"]:
        return []
    events: Events = []
    afv = next((u for u in units if u.is_afv), None)
    attacked = False
    if mines["ap"]:
        infantry = [u for u in units if not u.is_afv]
        rule = "19.26" if afv is not None else "19.22"
        events.append(_reveal(game, h, "ap", mines["ap"], rule, units[0]))
        if infantry:
            events += _ap_attack(game, h, infantry, mines["ap"], "19.26" if afv is not None else "19.24")
            attacked = True
    if mines["at"] and afv is not None and afv.on_map and not afv.extra.get("overrunning"):
        events.append(_reveal(game, h, "at", mines["at"], "19.23", afv))
        events += _at_attack(game, afv, mines["at"])
        attacked = True
    if attacked:
        events += _stop_after_attack(game, units, afv)
    return events


def _stop_after_attack(game: GameState, units: Sequence[Unit], afv: Unit | None) -> Events:
    """19.27: 'Only units in NORMAL status after a mine attack may continue moving' (R115): units of
    the stack not NORMAL, or no longer on the map, end their movement; with them infantry whose AFV
    stopped (8.43) and units whose leader stopped in the hex (8.3 B; one eliminated leaves them
    free, as 8.33 lets a group go on without a leader lost to fire)."""
    units = [game.unit(u.id) for u in units]  # as the attacks left them
    afv = game.unit(afv.id) if afv is not None else None
    stopped = {u.id for u in units if not u.on_map or u.morale != Morale.NORMAL}
    if afv is not None and afv.id in stopped:
        stopped |= {u.id for u in units}
    stopped |= {u.id for u in units if u.led_by in stopped and game.unit(u.led_by).on_map}
    return game.stop_moving([u for u in units if u.id in stopped and not u.move_done], "19.27")


# -- the attacks ----------------------------------------------------------------------------


def _reveal(game: GameState, h: Hex, kind: str, count: int, rule: str, by: Unit) -> dict[str, Any]:
    """The factors of one type in h are public from now on (19.22, 19.23; R116)."""
    game.revealed_mines[h] = {**game.revealed_mines.get(h, {}), kind: count}
    return {"event": "mines", "hex": game.label(h), "type": kind, "factors": count, "by": by.id, "rule": rule}


def _ap_attack(game: GameState, h: Hex, units: Sequence[Unit], ap_factors: int, rule: str) -> Events:
    """19.24: one die for each infantry unit and CW attacked (all rolled first, in the order given),
    then each result applied as an AP fire result (11.4: through results.apply_result)."""
    dice = int(_rules()["ap_attack"]["dice"])
    targets = [u for u in units if u.on_map and not u.is_afv]
    rolls = [game.dice.roll(dice) for _ in targets]
    events: Events = []
    for unit, roll in zip(targets, rolls, strict=True):
        unit = game.unit(unit.id)  # as the results before left it
        result = ap_result(sum(roll), ap_factors)
        events.append(
            {
                "event": "mine_attack",
                "type": "ap",
                "unit": unit.id,
                "hex": game.label(h),
                "factors": ap_factors,
                "dice": list(roll),
                "result": result,
                "rule": rule,
            }
        )
        events += apply_result(game, unit, result, "19.24")
    return events


def _at_attack(game: GameState, afv: Unit, at_factors: int) -> Events:
    """19.25: two dice at most the AT factors destroy the AFV (a Wreck in its hex, 12.32); 'Any
    infantry accompanying the destroyed AFV are immediately SUPPRESSED' (destroy_afv's 12.34, which
    SUPPRESSES the friendly infantry stacked with it)."""
    roll = game.dice.roll(int(_rules()["at_attack"]["dice"]))
    destroyed = sum(roll) <= at_factors
    events: Events = [
        {
            "event": "mine_attack",
            "type": "at",
            "unit": afv.id,
            "hex": game.label(afv.hex),
            "factors": at_factors,
            "dice": list(roll),
            "result": "destroyed" if destroyed else "NE",
            "rule": "19.25",
        }
    ]
    if destroyed:
        events += destroy_afv(game, afv, "19.25")
    return events


# -- for the other rules that move units into hexes ------------------------------------------


def assault_detonation(game: GameState, h: Hex, units: Sequence[Unit]) -> Events:
    """19.2: 'In an assault, the mine detonation occurs after the completion of the assault
    resolution'. The assault code calls this once an assault on h is resolved, with the assaulting
    units that entered h and stand there: AP factors are revealed and each of them (infantry; CWs
    do not assault, 17.13) undergoes an AP mine attack (19.22, 19.24); AT factors stay hidden
    (19.21: infantry do not detonate them). Returns the events; nothing to do without AP factors."""
    return _ap_only(game, h, units, "19.2")


def infiltration_attack(game: GameState, h: Hex, units: Sequence[Unit]) -> Events:
    """24.37: 'Any infiltrating units placed on AP (only) mined hexes, including the Infiltration Hex
    itself, reveal the presence of the mine AFTER any hidden German units are revealed. Each Russian
    unit on such a hex is subject to a normal mine attack'. The infiltration code calls this for each
    hex it placed Russian units in (after 24.36's reveals), with those units: AP factors revealed and
    a 19.24 attack on each, its result on top of what they have (11.45); AT factors play no part."""
    return _ap_only(game, h, units, "24.37")


def _ap_only(game: GameState, h: Hex, units: Sequence[Unit], rule: str) -> Events:
    ap = factors(game, h)["ap"]
    targets = [u for u in units if u.on_map and not u.is_afv]
    if not ap or not targets:
        return []
    return [_reveal(game, h, "ap", ap, rule, targets[0]), *_ap_attack(game, h, targets, ap, rule)]


def overrun_detonation(game: GameState, afv: Unit, h: Hex) -> Events:
    """19.2: 'In an overrun, AT factors attack the AFV after the overrun resolution and before the
    AFV leaves the hex'. The overrun code sets `afv.extra["overrunning"]` before the AFV enters h
    (so that movement's `entering_detonation` leaves its AT attack for now; its AP factors and the
    AP attack on infantry moving with it happen as it enters, 19.26), resolves the overrun (9.2),
    then calls this before the AFV exits: AT factors revealed and the AFV attacked (19.23, 19.25).
    A destroyed AFV leaves its Wreck in h and does not exit. Returns the events."""
    at = factors(game, h)["at"]
    if not at or not afv.on_map or afv.hex != h:
        return []
    return [_reveal(game, h, "at", at, "19.2", afv), *_at_attack(game, afv, at)]
