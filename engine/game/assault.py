"""Assault (17.0). SKELETON: filled in by the assault work (issue 13)."""

from __future__ import annotations

from typing import Any

from .actions import DONE, Action, IllegalAction, verb
from .state import GameState

MARK = verb("mark")  # 17.0: mark UNIT HEX, an Assault marker pointing at the adjacent HEX


def mark_actions(game: GameState) -> list[Action]:
    return []


def apply_mark(game: GameState, action: Action) -> list[dict[str, Any]]:
    raise IllegalAction(f"no such action {action.text()}", "17.0")


def assault_actions(game: GameState) -> list[Action]:
    return [Action(DONE)]


def apply_assault(game: GameState, action: Action) -> list[dict[str, Any]]:
    raise IllegalAction(f"no such action {action.text()}", "17.0")
