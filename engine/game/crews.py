"""Crew replacements (20.0). SKELETON: filled in by the crews work (issue 13)."""

from __future__ import annotations

from typing import Any

from .actions import Action, IllegalAction, verb
from .state import GameState

REPLACE = verb("replace")  # 20.1: replace INFANTRY CW


def replacement_actions(game: GameState) -> list[Action]:
    return []


def apply_replacement(game: GameState, action: Action) -> list[dict[str, Any]]:
    raise IllegalAction(f"no such action {action.text()}", "20.1")
