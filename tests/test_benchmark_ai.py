"""benchmarks/ai.py's `--evaluation`: how well the search's evaluation foretells a batch's results
(docs/balance.md, Strength)."""

from __future__ import annotations

import importlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from engine.batch.games import GameTask, play_task
from engine.players import PLAYERS

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def ai() -> Iterator[ModuleType]:
    """benchmarks/ai.py, its `plain-heuristic` taken off the players again for the other tests."""
    players = dict(PLAYERS)
    yield importlib.import_module("benchmarks.ai")
    PLAYERS.clear()
    PLAYERS.update(players)


def test_the_evaluation_is_set_beside_each_games_result_player_turn_by_player_turn(
    ai: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A logged Scenario 1 game between heuristics, replayed: a row for each of its 14 Player Turns
    (7 Game Turns) with the game's score (one game: no correlation yet)."""
    shutil.copy(REPO / "scenarios" / "s1-demyansk-pocket.yaml", tmp_path / "scenario.yaml")
    (tmp_path / "games").mkdir()
    task = GameTask("g00000", str(tmp_path / "scenario.yaml"), 1, ("heuristic", "heuristic"), str(tmp_path))
    assert "error" not in play_task(task)
    assert ai.main(["--evaluation", str(tmp_path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["player_turn"], r["games"], r["r"]) for r in rows] == [(t, 1, None) for t in range(1, 15)]


def test_a_correlation_needs_both_sides_to_vary(ai: ModuleType) -> None:
    assert ai._correlation([(1.0, 1.0), (2.0, 1.0)]) is None
    assert ai._correlation([(1.0, -1.0), (2.0, 0.0), (3.0, 1.0)]) == pytest.approx(1.0)
