"""A whole game between two players (engine/players), each deciding from its side's view."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.game.play import legal_actions, play
from engine.game.state import GameState
from engine.game.views import SideLog, player_view
from engine.model.counters import SIDES

from .base import Player, begin_game


def play_out(
    game: GameState,
    players: Mapping[str, Player],
    max_actions: int = 1_000_000,
    after: Callable[[GameState], None] | None = None,
) -> GameState:
    """Let the players decide until the game ends (in place); `players` by side, each handed its
    side's View (nothing behind it: docs/engine.md, Writing a player); a player with a
    `begin(scenario, side)` is told the scenario and its side first. `after` sees the state after
    each action (a batch's record of the game's course; never a player)."""
    logs = {side: SideLog(side) for side in SIDES}  # each read on, not again from the start
    begin_game(players, game.scenario)
    for _ in range(max_actions):
        if game.is_over:
            return game
        side = game.to_act
        actions = legal_actions(game)
        play(game, players[side].choose(player_view(game, side, logs[side]), actions))
        if after is not None:
            after(game)
    raise RuntimeError(f"no result after {max_actions} actions")
