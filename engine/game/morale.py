"""The Morale Phase (6.0 A, 7.0): hidden hexes next to a NORMAL enemy unit are revealed (24.22),
PINNED markers come off and SUPPRESSED units roll to recover."""

from __future__ import annotations

from typing import Any

from engine.geometry.movement import Morale
from engine.model.tables import table_values

from .performance import performance_check
from .state import GameState, other

MARKERS = {"P": Morale.PINNED, "S": Morale.SUPPRESSED}  # 3.21: the 'P' and 'S' markers


def morale_phase(game: GameState) -> list[dict[str, Any]]:
    """24.22's adjacency reveal, by the status the units begin the phase in, then 7.0 a-b for both
    players' units (the phasing player's first)."""
    events = reveal_by_adjacency(game)  # 24.22: 'begins its Morale Phase': before 7.0 a lifts a 'P'
    recovery = table_values("combat")["morale_recovery"]
    order = [game.phasing, other(game.phasing)]
    for side in order:
        for unit in game.side_units(side):
            if not unit.on_map:
                continue
            if unit.morale == Morale.PINNED:  # 7.0 a: removed automatically
                unit = game.changing(unit)
                unit.morale = Morale.NORMAL
                events.append({"event": "recovered", "unit": unit.id, "rule": "7.0 a"})
            elif unit.morale == Morale.SUPPRESSED:  # 7.0 b: 2 dice + 2 at most the PR
                check = performance_check(game.dice, unit.pr, "morale_recovery")
                failed = Morale.SUPPRESSED if unit.is_afv else MARKERS[str(recovery["failed_becomes"])]  # R99
                unit = game.changing(unit)
                unit.morale = Morale.NORMAL if check.passed else failed
                events.append(
                    {
                        "event": "morale_roll",
                        "unit": unit.id,
                        "check": check.describe(),
                        "morale": str(unit.morale),
                        "rule": "7.0 b",
                    }
                )
    return events


def reveal_by_adjacency(game: GameState) -> list[dict[str, Any]]:
    """24.22: 'If a NORMAL status enemy unit begins its Morale Phase in a hex adjacent to a hidden
    hex, all units in the hex are revealed.'"""
    events = []
    for side, secrets in game.secrets.items():
        for h in sorted(secrets.hidden_hexes):
            near = [
                u
                for n in game.board.neighbours(h)
                for u in game.at(n)
                if u.side == other(side) and u.morale == Morale.NORMAL and not u.hidden
            ]
            if near:
                events += reveal_hex(game, side, h, f"{near[0].id} is adjacent at the start of the Morale Phase")
    return events


def reveal_hex(game: GameState, side: str, h: Any, why: str) -> list[dict[str, Any]]:
    """All of `side`'s units hidden in hex h are placed on the map (24.22, 24.23)."""
    game.secrets[side].hidden_hexes.discard(h)
    shown = [u.id for u in game.at(h) if u.side == side and u.hidden]
    for unit in game.at(h):
        if unit.side == side and unit.hidden:  # copy-on-write: only the units that change
            game.changing(unit).hidden = False
    game.units_changed()
    return [{"event": "revealed", "hex": game.label(h), "units": shown, "why": why, "rule": "24.22"}]
