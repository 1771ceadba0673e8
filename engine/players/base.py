"""What a player is, and the players by name (`iceditor play --players random,random`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.game.actions import Action
from engine.game.views import View


class Player(Protocol):
    name: str

    def choose(self, view: View, actions: Sequence[Action]) -> Action: ...


class RandomPlayer:
    """Any legal action, each as likely: a player to test the engine with, and a baseline."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def choose(self, view: View, actions: Sequence[Action]) -> Action:
        return actions[self._random.randrange(len(actions))]


PLAYERS: dict[str, Callable[[int], Player]] = {"random": RandomPlayer}


def make_player(name: str, seed: int) -> Player:
    """A player by name with its own generator; ValueError naming the players there are."""
    if name not in PLAYERS:
        raise ValueError(f"no player {name!r} (players: {', '.join(sorted(PLAYERS))})")
    return PLAYERS[name](seed)
