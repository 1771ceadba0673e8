"""Whole games: a seeded game's log is the same byte for byte and replays to the same state; the
command line plays and replays, and refuses what it cannot (docs/engine.md). Random play from every
scenario, with its invariants: tests/test_engine_random_play.py."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from engine.game import new_game
from engine.game.log import log_text, read_log, replay
from engine.model.scenario import load_scenario
from engine.players import make_player
from engine.players.match import play_out
from engine.resources import bundled_examples, bundled_scenarios
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden" / "s1-seed-1.jsonl"
SCENARIOS = {p.stem: load_scenario(p) for p in [*bundled_scenarios(), *bundled_examples()]}


def seeded_log(seed: int = 1) -> str:
    game = new_game(SCENARIOS["s1-demyansk-pocket"], seed)
    play_out(game, {"german": make_player("random", 2), "russian": make_player("random", 3)})
    return log_text(game, ["random", "random"])


def test_a_seeded_game_is_the_golden_log_byte_for_byte_and_replays_identically() -> None:
    """A game is a function of its scenario, seed and actions: the same seed gives the same log.
    ICEDITOR_REGENERATE_GOLDEN=1 writes the golden log again (review the diff)."""
    text = seeded_log()
    assert text == seeded_log()
    if os.environ.get("ICEDITOR_REGENERATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
    log = read_log(text)
    end = replay(log, SCENARIOS["s1-demyansk-pocket"])
    assert end.result == log.entries[-1]["events"][-1]["result"]
    verified = replay(log, SCENARIOS["s1-demyansk-pocket"], verify=True)
    assert verified.digest() == end.digest()
    halfway = replay(log, SCENARIOS["s1-demyansk-pocket"], upto=len(log.entries) // 2)
    assert halfway.turn < end.turn or halfway.phase != end.phase


@pytest.mark.slow
def test_cli_play_and_replay(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "s1", "--seed", "4", "--log", str(log), "--format", "json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["result"]["winner"] in ("german", "russian", "draw") and log.is_file()
    assert main(["replay", str(log), "--verify"]) == 0
    assert "every roll and state checked" in capsys.readouterr().out
    assert main(["replay", str(log), "--at", "5", "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert {"turn", "phase", "phasing", "to_act", "units", "result"} <= set(state)
    assert {"id", "side", "kind", "type", "hex", "state", "morale", "facing", "men", "hidden"} <= set(state["units"][0])
    assert main(["replay", str(log), "--each", "phase"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("end of turn 0") and len(lines) > 20


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The log `iceditor play s1 --seed 4` writes: played once, for the tests that break it."""
    log = tmp_path_factory.mktemp("played") / "game.jsonl"
    assert main(["play", "s1", "--seed", "4", "--log", str(log)]) == 0
    return log.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (lambda text: "", "the log is empty"),
        (lambda text: text[: len(text) // 2], "not a JSON line"),  # cut short mid-line
        (lambda text: text.replace('"action": "done"', '"action": "move russian/PL-PR10 5001"', 1), "is not legal"),
        (lambda text: re.sub(r'"digest": "[0-9a-f]+"', '"digest": "0000000000000000"', text, count=1), "state differs"),
    ],
)
def test_cli_replay_refuses_a_broken_log_with_its_line(
    tmp_path: Path, capsys: Any, played: str, broken: Any, message: str
) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(broken(played), encoding="utf-8")
    assert main(["replay", str(log), "--verify"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and str(log) in err


def test_cli_replay_refuses_a_log_of_another_scenario_file(tmp_path: Path, capsys: Any, played: str) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(played, encoding="utf-8")
    copy = tmp_path / "s1-demyansk-pocket.yaml"
    copy.write_text((REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text() + "\n# edited\n")
    log.write_text(log.read_text().replace("scenarios/s1-demyansk-pocket.yaml", str(copy), 1))
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert "another scenario file" in capsys.readouterr().err


def test_cli_play_refuses_an_unknown_player(capsys: Any) -> None:
    assert main(["play", "s1", "--players", "random,clever"]) == 2
    assert "no player 'clever'" in capsys.readouterr().err
