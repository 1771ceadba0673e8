"""AI players, registered by name: a player chooses from its side's view and the legal actions,
never from the full state (house style; OpenSpiel's information-state discipline)."""

from .base import PLAYERS, Player, make_player
from .heuristic import HeuristicPlayer
from .search import SearchPlayer

PLAYERS["heuristic"] = HeuristicPlayer
PLAYERS["search"] = SearchPlayer

__all__ = ["PLAYERS", "HeuristicPlayer", "Player", "SearchPlayer", "make_player"]
