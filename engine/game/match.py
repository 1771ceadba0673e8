"""A whole game between two players (engine/players), each deciding from its side's view."""

from __future__ import annotations

from collections.abc import Mapping

from engine.players.base import Player

from .play import legal_actions, play
from .state import GameState, View


def play_out(game: GameState, players: Mapping[str, Player], max_actions: int = 1_000_000) -> GameState:
    """Let the players decide until the game ends (in place); `players` by side."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        side = game.to_act
        actions = legal_actions(game)
        play(game, players[side].choose(View(game, side), actions))
    raise RuntimeError(f"no result after {max_actions} actions")
