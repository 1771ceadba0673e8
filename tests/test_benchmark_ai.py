"""benchmarks/ai.py's readings of batches: `--batches` (a player set seed by seed beside a base),
`--evaluation` (how well the search's evaluation foretells a batch's results) and `--spread`
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
from engine.players import PLAYERS, HeuristicPlayer, make_player
from engine.players.heuristic import Knobs

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def ai() -> Iterator[ModuleType]:
    """benchmarks/ai.py, its players (`plain-heuristic`, the doctrines) registered for the test and
    taken off again for the other tests."""
    players = dict(PLAYERS)
    yield importlib.reload(importlib.import_module("benchmarks.ai"))
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


def test_spread_tells_a_side_whose_result_varies_from_one_that_never_does(
    ai: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--spread`: issue 21's bar applies where a side's result can differ. Two batches' games (the
    summaries a batch writes): the heuristic's German loses every seed, so its Russian wins every
    one (no result to change); against `search` the German drew one of two."""
    for name, players, winners in (
        ("hh", ["heuristic", "heuristic"], ["russian", "russian", "russian"]),
        ("sh", ["search", "heuristic"], ["russian", "draw"]),
    ):
        folder = tmp_path / name
        (folder / "games").mkdir(parents=True)
        (folder / "batch.json").write_text(json.dumps({"source": "x/s5-through-the-marshes.yaml", "players": players}))
        for i, winner in enumerate(winners):
            sides = dict(zip(("german", "russian"), players, strict=True))
            summary = {"seed": i + 1, "winner": winner, "players": sides}
            (folder / "games" / f"g{i:05d}.json").write_text(json.dumps(summary))
    assert ai.main(["--spread", str(tmp_path / "hh"), str(tmp_path / "sh"), "--format", "json"]) == 0
    rows = {(r["side"], r["player"], r["against"]): r for r in json.loads(capsys.readouterr().out)}
    assert rows["german", "heuristic", "heuristic"]["record"] == [0, 0, 3]
    assert not rows["german", "heuristic", "heuristic"]["varies"]
    assert not rows["russian", "heuristic", "heuristic"]["varies"]
    assert rows["german", "search", "heuristic"]["record"] == [0, 1, 1]
    assert rows["german", "search", "heuristic"]["varies"]
    assert rows["german", "search", "heuristic"]["seeds"] == [1, 2]
    assert ai.main(["--spread", str(tmp_path / "nothing")]) == 2


def _batch(folder: Path, players: list[str], games: list[tuple[int, str, dict[str, int]]]) -> None:
    """A batch folder as `iceditor playtest` leaves it: batch.json and each game's summary."""
    (folder / "games").mkdir(parents=True)
    (folder / "batch.json").write_text(json.dumps({"source": "x/s3-closing-the-ring.yaml", "players": players}))
    sides = dict(zip(("german", "russian"), players, strict=True))
    for seed, winner, lost in games:
        summary = {"seed": seed, "winner": winner, "players": sides, "casualties": lost, "cpu_seconds": 2.0}
        (folder / "games" / f"g{seed:05d}.json").write_text(json.dumps(summary))


def test_batches_pair_each_seed_with_the_base_by_result_and_by_casualty_exchange(
    ai: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--batches`: the search as the German in two pieces (seeds 1-2, 3-4), the heuristic's base in
    one. Seed 1 a win where the base lost (better), seed 4 a loss where the base won (worse); the
    exchange (Russian units lost less German) against the base's on each seed: +2, +1, 0, -1."""
    _batch(tmp_path / "a", ["search", "heuristic"], [(1, "german", {"german": 3, "russian": 9}),
                                                     (2, "russian", {"german": 4, "russian": 5})])  # fmt: skip
    _batch(tmp_path / "b", ["search", "heuristic"], [(3, "russian", {"german": 6, "russian": 6}),
                                                     (4, "russian", {"german": 5, "russian": 4})])  # fmt: skip
    _batch(tmp_path / "r", ["heuristic", "search"], [(1, "russian", {"german": 2, "russian": 2})])  # the search Russian
    _batch(tmp_path / "h", ["heuristic", "heuristic"], [(1, "russian", {"german": 3, "russian": 7}),
                                                        (2, "russian", {"german": 4, "russian": 4}),
                                                        (3, "russian", {"german": 6, "russian": 6}),
                                                        (4, "german", {"german": 5, "russian": 5})])  # fmt: skip
    spec = f"{tmp_path / 'a'},{tmp_path / 'b'}:{tmp_path / 'h'}"
    assert ai.main(["--batches", f"{tmp_path / 'r'}:{tmp_path / 'h'}", "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)  # `--players heuristic,search`: the search is measured
    assert (row["side"], row["player"], row["record"]) == ("russian", "search", [1, 0, 0])
    assert row["exchange"] == 4 and row["exchange_interval"] is None  # one seed: (2 - 2) less (3 - 7)
    assert ai.main(["--batches", spec, "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)  # no row for the Russian: the search played only the German
    assert (row["scenario"], row["side"], row["games"]) == ("s3-closing-the-ring", "german", 4)
    assert (row["record"], row["base_record"], row["better"], row["worse"]) == ([1, 0, 3], [1, 0, 3], 1, 1)
    assert row["exchange"] == pytest.approx(0.5)
    low, high = row["exchange_interval"]  # 1.96 standard errors of +2, +1, 0, -1
    assert (low, high) == pytest.approx((0.5 - 1.265, 0.5 + 1.265), abs=0.01)
    assert ai.main(["--batches", spec]) == 0
    assert "| +0.50 (-0.77 to +1.77) |" in capsys.readouterr().out
    assert ai.main(["--batches", str(tmp_path / "a")]) == 2
    (tmp_path / "h" / "batch.json").unlink()  # games without the batch's record: not a playtest folder
    assert ai.main(["--batches", f"{tmp_path / 'a'}:{tmp_path / 'h'}"]) == 2


@pytest.mark.slow  # four Scenario 1 games: some 3-12 s
def test_the_doctrines_are_the_heuristic_with_other_thresholds_set_beside_it(
    ai: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--pairs free-fire-heuristic:heuristic,heuristic:heuristic` (docs/balance.md, Strength: does
    a side's play change its result?): each doctrine a heuristic of its own thresholds, on each side
    against the heuristic, set seed by seed beside the heuristic against itself."""
    for name in ai.DOCTRINES:
        player = make_player(name, 1)
        assert isinstance(player, HeuristicPlayer) and player.knobs == ai.DOCTRINES[name] != Knobs()
    pairs = "free-fire-heuristic:heuristic,heuristic:heuristic"
    assert ai.main(["--games", "1", "--scenarios", "s1", "--pairs", pairs, "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(r["player"], r["side"], r["games"]) for r in found["rows"]] == [
        (player, side, 1) for side in ("german", "russian") for player in ("free-fire-heuristic", "heuristic")
    ]
    doctrine = found["paired"]
    assert [(r["player"], r["side"]) for r in doctrine] == [("free-fire-heuristic", s) for s in ("german", "russian")]
    assert all(r["better"] + r["worse"] <= 1 for r in doctrine)
