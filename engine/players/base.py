"""What a player is, and the players by name (`iceditor play --players random,random`, or one of
your own: `--players mymodule:Cautious,random`)."""

from __future__ import annotations

import importlib
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, cast

from engine.game.actions import Action
from engine.game.views import View
from engine.model.scenario import Scenario


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


def begin_game(players: Mapping[str, Player], scenario: Scenario) -> None:
    """Each player with a `begin(scenario, side)` told the scenario and its side before its first
    choice (the scenario is public; the heuristic and search players refuse to choose without it)."""
    for side, player in players.items():
        begin = getattr(player, "begin", None)
        if begin is not None:
            begin(scenario, side)


_OWN = re.compile(r"(?P<module>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):(?P<cls>[A-Za-z_]\w*)")


def make_player(name: str, seed: int) -> Player:
    """A player by name with its own generator: a registered one (PLAYERS), or one of your own as
    `MODULE:CLASS` (docs/engine.md, Writing a player); ValueError naming the players there are."""
    if name in PLAYERS:
        return PLAYERS[name](seed)
    own = _OWN.fullmatch(name)
    if own is None:
        raise ValueError(
            f"no player {name[:60]!r} (players: {', '.join(sorted(PLAYERS))}, or one of your own as MODULE:CLASS)"
        )
    return _own_player(own["module"], own["cls"], name)(seed)


def _own_player(module_name: str, cls: str, name: str) -> Callable[[int], Player]:
    """The class CLASS of MODULE, imported from the current folder or Python's path (PYTHONPATH):
    the player a user names on the command line is code the user chose to run."""
    path = list(sys.path)
    sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"player {name}: no module {module_name} here nor on PYTHONPATH ({exc})") from None
    except Exception as exc:  # the module's own error: the user's code, reported, never a traceback
        raise ValueError(f"player {name}: importing {module_name} failed: {type(exc).__name__}: {exc}") from None
    finally:
        sys.path[:] = path
    player = getattr(module, cls, None)
    if not callable(player) or not callable(getattr(player, "choose", None)):
        raise ValueError(f"player {name}: {module_name} has no class {cls} with a choose(view, actions)")
    return cast(Callable[[int], Player], player)
