"""Small readings of actions that the doctrines share: the hex an action names, the first action
of a kind, and how many choices a doctrine ranks for a search beside its own."""

from __future__ import annotations

from engine.game.actions import DONE, PASS, Action
from engine.game.state import GameState
from engine.hexgrid import Hex, parse_label

ALTERNATIVES = 3  # the choices a search (search.py) weighs beside a doctrine's own


def action_hex(game: GameState, action: Action) -> Hex:
    """The hex an action names last (a move's, a placement's, a shot's target)."""
    return hex_at(game, action.arg.split()[-1])


def hex_at(game: GameState, label: str) -> Hex:
    """The hex a label names, on the board or not (a facing may name a hex across its edge)."""
    return parse_label(label, game.board.offset)


def first_of(actions: list[Action], *verbs: str) -> Action:
    """The first action of the first of `verbs` that has one, else the first action."""
    for verb in verbs:
        for a in actions:
            if a.verb == verb:
                return a
    return actions[0]


def done_or_first(actions: list[Action]) -> Action:
    """`done` or `pass` where a phase may end, else the first action."""
    return first_of(actions, DONE, PASS)
