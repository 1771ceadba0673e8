"""Fire combat (10.0-13.0). SKELETON: being written (issue 13)."""

from __future__ import annotations

from typing import Any

from .actions import DONE, PASS, Action, IllegalAction
from .state import GameState


def fire_actions(game: GameState) -> list[Action]:
    return [Action(DONE)]


def apply_fire(game: GameState, action: Action) -> list[dict[str, Any]]:
    raise IllegalAction(f"no such action {action.text()}", "10.0")


def reaction_actions(game: GameState) -> list[Action]:
    return [Action(PASS)]


def apply_reaction(game: GameState, action: Action) -> list[dict[str, Any]]:
    raise IllegalAction(f"{action.text()}: the only answer to a move now is pass", "13.0")
