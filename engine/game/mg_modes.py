"""Advanced rule 21.0, machine gun modes: Direct Fire (DF), Fire Lane (FL) and Spray (SP), the
modes chosen at the end of the Morale Phase (21.41) and where a lane or a spray area reaches.

The advanced rules are one game option, `advanced` (the rulebook: 'all the advanced rules should
be used together'); without it every MG is in DF mode ('Under the basic game rules all MG's are
considered to be in the DF mode') and nothing here is offered. A side's modes are its secrets
(`Secrets.modes`: 'A unit's mode need not be revealed until the unit fires'): `mode UNIT df|sp|fl
HEX` is a secret event, left out of the other side's log and view (views.py).
"""

from __future__ import annotations

from typing import Any

from engine.geometry.lattice import touches
from engine.geometry.movement import Morale
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex

from .actions import Action, IllegalAction, verb
from .advanced import advanced
from .shot import in_frontal_area, is_mg
from .sightlines import open_lines
from .state import GameState
from .units import Unit

DF, FL, SP = "df", "fl", "sp"
MODE = verb("mode")  # mode UNIT df | sp | fl HEX: an MG's mode for the Player Turn (21.41), in secret


def mode_of(game: GameState, unit: Unit) -> tuple[str, str]:
    """The MG's mode and its Fire Lane's target hex label ("" but in FL mode); DF by default (21.0)."""
    mode, target, _ = game.secrets[unit.side].modes.get(unit.id, (DF, "", 0))
    return mode, target


def direct_fire(game: GameState, unit: Unit) -> bool:
    """Whether the unit fires ordinary AP fire (`aim`, `join`, `intensive`): every unit but an MG in
    FL or SP mode, whose attacks are never combined with other AP attacks (21.26, 21.36)."""
    return not (advanced(game) and is_mg(unit) and mode_of(game, unit)[0] != DF)


def set_mode(game: GameState, unit: Unit, mode: str, target: str = "") -> None:
    game.secrets[unit.side].modes = {**game.secrets[unit.side].modes, unit.id: (mode, target, game.player_turns)}


# -- where a lane and a spray area reach (21.21, 21.31) -------------------------------------------


def _initial_range(unit: Unit) -> int:
    return int(unit.value("initial_range", 1))


def _same_level(game: GameState, a: Hex, b: Hex) -> bool:
    return game.board.terrain(a).elevation == game.board.terrain(b).elevation


def reach(game: GameState, unit: Unit) -> list[Hex]:
    """21.21, 21.31: the hexes within the MG's unblocked LOS and initial range, on its level, in its
    frontal area (10.23: an MG fires only into it; R307): a lane's possible target hexes, and the
    spray fire area. Kept until units move (AFVs and Wrecks block lines: 10.31 b)."""
    origin = unit.hex
    assert origin is not None
    key = (origin, unit.facing, _initial_range(unit), str(unit.state))
    found: list[Hex] = game.kept(("mg_reach", *key), lambda: _reach(game, *key))
    return found


def _reach(game: GameState, origin: Hex, facing: int | None, n: int, state: str) -> list[Hex]:
    near = _area(game, origin, facing, n)
    return [
        h for h, ok in zip(near, open_lines(game, [(origin, h) for h in near], FirerState(state)), strict=True) if ok
    ]


def _area(game: GameState, origin: Hex, facing: int | None, n: int) -> list[Hex]:
    """The board's hexes within `n` of `origin`, in the frontal area, on its level: the bare
    geometry of `reach`, kept with the board (it never changes in a game)."""
    areas: dict[tuple[Hex, int | None, int], list[Hex]] = game.board.caches.setdefault("mg_areas", {})
    key = (origin, facing, n)
    if key not in areas:
        around = (origin + Hex(dq, dr) for dq in range(-n, n + 1) for dr in range(max(-n, -dq - n), min(n, n - dq) + 1))
        areas[key] = sorted(
            h
            for h in around
            if h in game.board.hexes
            and h != origin
            and in_frontal_area(origin, facing, h)
            and _same_level(game, origin, h)
        )
    return areas[key]


def lane(game: GameState, unit: Unit, target: Hex) -> list[Hex]:
    """21.21: 'All hexes touched by a straight line from the center of the MG's hex to the center
    of the target hex' (a corner touched too: R308), but the MG's own, on the MG's level only."""
    origin = unit.hex
    assert origin is not None
    hexes = [origin + t.offset for t in touches(target - origin) if t.offset != Hex(0, 0)]
    return [h for h in dict.fromkeys(hexes) if h in game.board.hexes and _same_level(game, origin, h)]


def lane_now(game: GameState, unit: Unit) -> list[Hex]:
    """The FL MG's lane from where it stands now; none if its target hex is no longer within its
    unblocked LOS, initial range and frontal area (it moved or turned: R309)."""
    mode, label = mode_of(game, unit)
    if mode != FL or unit.hex is None:
        return []
    target = game.hex(label)
    return lane(game, unit, target) if target in reach(game, unit) else []


# -- choosing modes at the end of the Morale Phase (21.41) ---------------------------------------


def mode_actions(game: GameState) -> list[Action]:
    """21.41: 'At the end of any Morale Phase, each player is permitted to change the mode of their
    MG's. Only a NORMAL status unit may change its mode.' Once a Morale Phase an MG (R310)."""
    if not advanced(game):
        return []
    actions = []
    for unit in game.side_units(game.to_act):
        if not (is_mg(unit) and unit.on_map and unit.morale == Morale.NORMAL):
            continue
        if game.secrets[unit.side].modes.get(unit.id, (DF, "", 0))[2] == game.player_turns:
            continue
        current = mode_of(game, unit)
        actions += [Action(MODE, (unit.id,), m) for m in (DF, SP) if current != (m, "")]
        actions += [
            Action(MODE, (unit.id,), f"{FL} {game.label_of(h)}")
            for h in reach(game, unit)
            if current != (FL, game.label_of(h))
        ]
    return actions


def apply_mode(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action not in mode_actions(game):
        raise IllegalAction(f"{action.text()}: only a NORMAL MG's mode, once at the end of the Morale Phase", "21.41")
    unit = game.unit(action.units[0])
    mode, _, target = action.arg.partition(" ")
    set_mode(game, unit, mode, target)
    return [
        {
            "event": "mode",
            "side": unit.side,
            "unit": unit.id,
            "mode": mode,
            "target": target,
            "secret": True,
            "rule": "21.41",
        }
    ]
