"""`iceditor replay --verify` means the log is the game (issue 24): a log tampered with anywhere is
refused with its line and what differs, exit 1 or 2 and never 3 (an internal error)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from iceditor.entry import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "game"
Lines = list[str]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The duel fixture played to its result (seed 0), its log beside it."""
    folder = tmp_path_factory.mktemp("duel")
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(FIXTURE / name, folder / name)
    assert main(["play", str(folder / "duel.yaml"), "--log", str(folder / "game.jsonl")]) == 0
    return folder / "game.jsonl"


def _header(change: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    def tamper(lines: Lines) -> Lines:
        head = json.loads(lines[0])
        change(head)
        return [json.dumps(head), *lines[1:]]

    return tamper


def _entry(n: int, change: Callable[[dict], None]) -> Callable[[Lines], Lines]:
    """Entry n's line changed (negative: from the end, before the snapshot line)."""

    def tamper(lines: Lines) -> Lines:
        at = n if n >= 0 else len(lines) - 1 + n
        entry = json.loads(lines[at])
        change(entry)
        return [*lines[:at], json.dumps(entry, sort_keys=True), *lines[at + 1 :]]

    return tamper


def _winner(entry: dict) -> None:
    entry["events"][0]["result"]["winner"] = "russian"


def _first_roll(lines: Lines) -> Lines:
    at = next(i for i, line in enumerate(lines) if json.loads(line).get("dice"))
    entry = json.loads(lines[at])
    entry["dice"][0] = entry["dice"][0] % 6 + 1
    return [*lines[:at], json.dumps(entry, sort_keys=True), *lines[at + 1 :]]


SEED = (
    '{"engine": "iceditor-engine/1", "format": "iron-cross-game/1", "options": {}, "scenario": "duel.yaml", '
    '"scenario_sha256": "0", '
)
CASES: dict[str, tuple[Callable[[Lines], Lines], int, str, int]] = {
    # name: (tamper, line, what the message says, exit code)
    "version": (_header(lambda h: h.update(engine="iceditor-engine/0")), 1, '"iceditor-engine/0"; this', 2),
    "no version": (_header(lambda h: h.pop("engine")), 1, "of engine none; this iceditor plays", 2),
    "option": (_header(lambda h: h.update(options={"nuke": True})), 1, 'unknown option "nuke"', 2),
    "option value": (_header(lambda h: h.update(options={"first_shot": "low-ground"})), 1, "option first_shot", 2),
    "events emptied": (_entry(5, lambda e: e.update(events=[])), 6, "records 0 events, the replay makes 1", 2),
    "event added": (_entry(5, lambda e: e["events"].append({"event": "x"})), 6, "records 2 events", 2),
    "result": (_entry(-1, _winner), -1, 'event 1 (game over) result: the log records {"by"', 2),
    "dice": (_first_roll, 0, "the dice rolled", 2),
    "action": (_entry(3, lambda e: e.update(action="pass")), 4, "is not legal here", 2),
    "truncated": (lambda lines: lines[:200], 200, "the game is not over (the log records no result)", 1),
    "nesting": (lambda lines: [lines[0], "[" * 100_000 + "]" * 100_000, *lines[2:]], 2, "nested too deep", 2),
    "huge seed": (lambda lines: [SEED + '"seed": ' + "9" * 5000 + "}", *lines[1:]], 1, "over 4,300 digits", 2),
    "long seed": (lambda lines: [SEED + '"seed": ' + "9" * 100 + "}", *lines[1:]], 1, "seed has 100 digits", 2),
}


@pytest.mark.parametrize("case", CASES)
def test_verify_refuses_a_tampered_log_with_its_line_and_what_differs(
    played: Path, tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper, line, words, code = CASES[case]
    lines = tamper(played.read_text(encoding="utf-8").splitlines())
    log = played.parent / f"tampered-{case.replace(' ', '-')}.jsonl"  # beside its scenario
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log), "--verify"]) == code
    err = capsys.readouterr().err
    if line < 0:
        line = len(lines) + line
    if line == 0:  # the first line with dice
        line = next(i for i, text in enumerate(lines, start=1) if json.loads(text).get("dice"))
    assert err.startswith(f"{log}:{line}: error: ") and words in err, err
    assert err.count(f"line {line}") == 0 and "Traceback" not in err  # the line said once


def test_the_untampered_log_verifies_and_a_cut_one_only_with_partial(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(played), "--verify"]) == 0
    cut = played.with_name("cut.jsonl")
    cut.write_text("\n".join(played.read_text(encoding="utf-8").splitlines()[:100]) + "\n", encoding="utf-8")
    assert main(["replay", str(cut), "--verify", "--partial"]) == 0
    assert "every roll and state checked" in capsys.readouterr().out


@pytest.mark.parametrize("named", ["/etc/passwd", "../../../../proc/self/environ"])
def test_the_header_scenario_is_never_an_arbitrary_path(
    played: Path, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log's scenario is found as a scenario's maps are: bundled, in the log's folder, or --allow-dir."""
    lines = _header(lambda h: h.update(scenario=named))(played.read_text(encoding="utf-8").splitlines())
    log = played.with_name("elsewhere.jsonl")
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{log}:1: error: the log's scenario {named} is outside") and "root:" not in err


def test_a_batch_log_finds_its_scenario_in_the_folder_above_from_anywhere(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch writes DIR/scenario.yaml and DIR/games/KEY.jsonl: the log replays from any folder."""
    games = played.parent / "games"
    games.mkdir(exist_ok=True)
    log = games / "g00000.jsonl"
    log.write_text(played.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(games)
    assert main(["replay", "g00000.jsonl"]) == 0
