"""Saved games open where they were saved (R201, docs/engine.md, The log): a log's last line is
a snapshot of the state; opening it restores the state without replaying from the start, and the
game then goes on as the one that was saved."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from engine.game import legal_actions, new_game, play
from engine.game.log import LogError, log_text, read_log, replay
from engine.game.snapshot import checksum
from engine.model.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {
    name: load_scenario(REPO / "scenarios" / f"{name}.yaml") for name in ("s1-demyansk-pocket", "s6-spartakovka")
}
# Each save opened is replayed from the start: the CI profile opens about four of a game's saves (its
# end among them), the long one (tests/properties.py) twenty times as many.
OPENED = 4 * max(1, settings.default.max_examples // 50)


def _saves(name: str, seed: int, every: int, decisions: int = 3000) -> tuple[list[str], str]:
    """A random game's log saved every `every` decisions (and at its end), and its whole log."""
    rng, game, saves = random.Random(seed), new_game(SCENARIOS[name], seed), []
    while not game.is_over and len(game.log) <= decisions:
        play(game, rng.choice(legal_actions(game)))
        if rng.randrange(every) == 0 or game.is_over:
            saves.append(log_text(game))
    return saves, log_text(game)


@pytest.mark.parametrize(
    ("name", "seed", "every", "decisions"),
    [
        ("s1-demyansk-pocket", 8, 60, 3000),
        pytest.param("s6-spartakovka", 3, 150, 1500, marks=pytest.mark.slow),
    ],  # Scenario 6: its first half
)
def test_r201_a_game_opened_at_its_snapshot_is_the_game_replayed_and_goes_on_alike(
    name: str, seed: int, every: int, decisions: int
) -> None:
    """R201: 'a game saved at any point opens at that point without replaying from the start.'
    At many points of a random game: the game opened from the snapshot has the digest and the
    view of the log replayed from the start, and playing the rest of the game's actions on it
    (rolling its own dice on from the snapshot's generator) writes the whole game's log."""
    saves, whole = _saves(name, seed, every, decisions)
    actions = [entry["action"] for entry in read_log(whole).entries[1:]]
    assert len(saves) > 3
    for text in saves[::-1][:: max(1, len(saves) // OPENED)]:
        log = read_log(text)
        opened = replay(log, SCENARIOS[name])
        replayed = replay(log, SCENARIOS[name], each=lambda game, n: None)  # `each`: from the start
        assert opened.digest() == replayed.digest()
        assert opened.view(None) == replayed.view(None)
        assert opened.log == replayed.log
        for action in actions[len(log.entries) - 1 :]:
            assert opened.to_act, "the game ends where the log does"
            play(opened, next(a for a in legal_actions(opened) if a.text() == action))
        assert log_text(opened) == whole
        assert replay(log, SCENARIOS[name], verify=True).digest() == log.snapshot["digest"]  # type: ignore[index]


def _tampered(tmp_path: Path, change: str) -> tuple[Path, int]:
    saves, _ = _saves("s1-demyansk-pocket", 5, 50, decisions=400)
    lines = saves[-1].splitlines()
    shot = json.loads(lines[-1])
    unit = next(iter(shot["data"]["units"].values()))
    unit["men"] += 1
    if change == "rehashed":  # the hash made again: the digest still refuses it
        shot["sha256"] = checksum(shot["data"])
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(shot)]) + "\n", encoding="utf-8")
    return path, len(lines)


@pytest.mark.parametrize(
    ("change", "message"),
    [("edited", "does not match its sha256"), ("rehashed", "is not the one the log records (its digest differs)")],
)
def test_r201_a_tampered_snapshot_is_refused_naming_the_file_and_line(
    tmp_path: Path, change: str, message: str
) -> None:
    """R201: a snapshot is the state only if its hash and the state's digest say so; `replay`
    refuses it with the file and the snapshot's line, and `--verify` checks it against the
    state every action replayed from the seed makes."""
    path, line = _tampered(tmp_path, change)
    with pytest.raises(LogError, match=re.escape(message)) as refused:
        replay(read_log(path.read_text(encoding="utf-8")), SCENARIOS["s1-demyansk-pocket"])
    assert refused.value.line == line
    run = [sys.executable, "-m", "iceditor", "replay", str(path)]
    result = subprocess.run(run, capture_output=True, text=True, cwd=REPO, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().startswith(f"{path}:{line}: error:") and message in result.stderr
    if change == "rehashed":
        verified = subprocess.run([*run, "--verify"], capture_output=True, text=True, cwd=REPO, check=False)
        assert verified.returncode == 2 and "the snapshot is not the state the log's actions make" in verified.stderr


def test_r201_a_snapshot_is_the_last_line_and_of_the_last_action() -> None:
    saves, _ = _saves("s1-demyansk-pocket", 5, 50, decisions=200)
    lines = saves[-1].splitlines()
    with pytest.raises(LogError, match="a snapshot is the log's last line"):
        read_log("\n".join([*lines[:-2], lines[-1], lines[-2]]))
    with pytest.raises(LogError, match=r"the snapshot is of action \d+, the log has \d+"):
        read_log("\n".join([*lines[:-2], lines[-1]]))


@pytest.mark.slow
def test_r201_a_saved_game_verifies_and_opens_in_another_process(tmp_path: Path) -> None:
    """R201: the snapshot is the same data whatever the process's string hashing (sets of texts
    sorted), so `--verify --partial` (a game in progress) in another process finds it the state
    the actions make."""
    saves, _ = _saves("s1-demyansk-pocket", 9, 40, decisions=500)
    path = tmp_path / "game.jsonl"
    path.write_text(saves[-1], encoding="utf-8")
    for seed, extra in (("1", ["--verify", "--partial"]), ("2", ["--verify", "--partial"]), ("3", [])):
        run = [sys.executable, "-m", "iceditor", "replay", str(path), "--format", "json", *extra]
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(run, capture_output=True, text=True, cwd=REPO, check=False, env=env)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == replay(read_log(saves[-1]), SCENARIOS["s1-demyansk-pocket"]).view(None)
