"""The rules engine: a game of Iron Cross as the rulebook writes it (docs/engine.md). No Qt."""

from .actions import Action, IllegalAction, parse
from .play import ENGINE_VERSION, ScenarioNotPlayable, apply, legal_actions, new_game, play
from .state import GameState

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "GameState",
    "IllegalAction",
    "ScenarioNotPlayable",
    "apply",
    "legal_actions",
    "new_game",
    "parse",
    "play",
]
