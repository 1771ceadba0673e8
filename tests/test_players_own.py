"""A player of one's own on the command line (issue 24, docs/engine.md "Writing a player"):
`--players MODULE:CLASS` imports CLASS from MODULE in the current folder or on PYTHONPATH."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from iceditor.entry import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "game"

CAUTIOUS = '''
import random


class Cautious:
    """Passes when it may, else plays at random."""

    name = "cautious"

    def __init__(self, seed):
        self.random = random.Random(seed)

    def choose(self, view, actions):
        passes = [a for a in actions if a.verb in ("pass", "done")]
        return passes[0] if passes else self.random.choice(actions)
'''


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(FIXTURE / name, tmp_path / name)
    (tmp_path / "mymodule_24.py").write_text(CAUTIOUS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_player_of_ones_own_plays_and_its_log_replays(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "duel.yaml", "--players", "mymodule_24:Cautious,random", "--log", "g.jsonl"]) == 0
    assert "Engine test, seed 0:" in capsys.readouterr().out
    assert '"players": ["mymodule_24:Cautious", "random"]' in (folder / "g.jsonl").read_text(encoding="utf-8")
    assert main(["replay", "g.jsonl", "--verify"]) == 0


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ("nomodule_24:X,random", "player nomodule_24:X: no module nomodule_24 here nor on PYTHONPATH"),
        ("mymodule_24:Bold,random", "player mymodule_24:Bold: mymodule_24 has no class Bold with a choose"),
        ("cautious,random", "no player 'cautious' (players: heuristic, random, search, or one of your own"),
    ],
)
def test_an_unknown_player_of_ones_own_is_named(
    folder: Path, capsys: pytest.CaptureFixture[str], players: str, words: str
) -> None:
    assert main(["play", "duel.yaml", "--players", players]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err, err
