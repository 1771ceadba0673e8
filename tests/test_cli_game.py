"""`iceditor play` and `iceditor replay` on a scenario its set-up makes unplayable (iceditor/cli_game.py):
the validator's errors as `iceditor validate` prints them, each naming the file once, and exit 2."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from iceditor.entry import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "game"
OUTSIDE = (
    ":51:25: error: German Squad D in 1205 is outside its deployment area (german-area) (24.1) "
    "[setup-outside-deployment]"
)


def _fire(tmp_path: Path, *, broken: bool) -> Path:
    """The fire fixture beside its map; broken: German Squad D set up outside its deployment area (24.1)."""
    shutil.copy(FIXTURE / "fire-map.yaml", tmp_path / "fire-map.yaml")
    text = (FIXTURE / "fire.yaml").read_text(encoding="utf-8")
    assert '{squad: D, hex: "1224"}' in text
    path = tmp_path / "fire.yaml"
    path.write_text(text.replace('{squad: D, hex: "1224"}', '{squad: D, hex: "1205"}') if broken else text)
    return path


def _assert_refused(err: str, path: Path) -> None:
    assert err.splitlines() == [f"{path}{OUTSIDE}"]  # the file once, its line, the rule and the check
    assert "Traceback" not in err


def test_24_1_play_refuses_a_set_up_outside_its_deployment_area(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fire(tmp_path, broken=True)
    assert main(["play", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    _assert_refused(captured.err, path)


def test_24_1_replay_refuses_a_log_whose_scenario_is_not_playable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log played on the fixture, its scenario then broken and the log's hash made to match: the
    scenario's error is named (its file, not the log's), once."""
    path = _fire(tmp_path, broken=False)
    log = tmp_path / "game.jsonl"
    assert main(["play", str(path), "--log", str(log)]) == 0
    path = _fire(tmp_path, broken=True)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    header["scenario_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    log.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    capsys.readouterr()
    for command in (["replay", str(log)], ["odds", "fire", str(log), "--from", "1205", "--to", "1203"]):
        assert main(command) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        _assert_refused(captured.err, path)
