"""The end of a movement phase (6.0 C, D): the moving side places its Assault markers (17.0) and
assigns crew replacements (20.1) before the next phase begins; `done` ends it."""

from __future__ import annotations

from typing import Any

from .actions import Action, IllegalAction
from .assault import MARK, apply_mark, mark_actions
from .crews import REPLACE, apply_replacement, replacement_actions
from .state import GameState


def closing_actions(game: GameState) -> list[Action]:
    """Every marker and replacement open to the side that moved; `done` is added by the caller.
    The marks are kept until units move (`mark_actions`), the few CWs asked at each listing."""
    return [*mark_actions(game), *replacement_actions(game)]


def apply_closing(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action not in closing_actions(game):
        raise IllegalAction(f"{action.text()} is not open at the end of the {game.phase} phase", "17.0, 20.1")
    if action.verb == MARK:
        return apply_mark(game, action)
    if action.verb == REPLACE:
        return apply_replacement(game, action)
    raise IllegalAction(f"no such action {action.text()}")
