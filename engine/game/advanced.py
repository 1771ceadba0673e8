"""The advanced rules' switch (21.0-23.0): one game option, `advanced`, off by default (R319); its
two optional rules are options of their own, counted only with it (R320)."""

from __future__ import annotations

from .state import GameState


def advanced(game: GameState) -> bool:
    """The advanced rules (21.0 MG modes, 22.0 ammo depletion, 23.0 observation): played together."""
    return bool(game.options.get("advanced", False))


def optional(game: GameState, name: str) -> bool:
    """23.2's Optional Penalty (`observation_penalty`) or the Cumulative Combat Results Table's
    Optional Special Roll (`special_roll`: 'When using the Observation rules'): with `advanced` only."""
    return advanced(game) and bool(game.options.get(name, False))
