"""`iceditor odds fire` on a bad scenario, and what it loads to answer (iceditor/cli_odds.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iceditor.entry import main

REPO = Path(__file__).resolve().parent.parent
FIXTURE = REPO / "tests" / "fixtures" / "game"


def _scenario(tmp_path: Path, old: str, new: str) -> Path:
    """The fire fixture with one text replaced, beside its map."""
    shutil.copy(FIXTURE / "fire-map.yaml", tmp_path / "fire-map.yaml")
    text = (FIXTURE / "fire.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "fire.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_odds_fire_refuses_a_set_up_the_validator_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every check runs before the odds: a unit set up outside its deployment area is named with
    its file (once), line, hex, rule and check, as `iceditor validate` prints it, and the command exits 2
    without a traceback."""
    path = _scenario(tmp_path, '{crew_weapon: MMG, number: 1, hex: "1324"', '{crew_weapon: MMG, number: 1, hex: "1315"')
    assert main(["odds", "fire", str(path), "--from", "1315", "--to", "1303"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[0] == (
        f"{path}:52:44: error: German MMG #1 in 1315 is outside its deployment area (german-area) (24.1) "
        "[setup-outside-deployment]"
    )
    assert all(line.count(str(path)) == 1 for line in captured.err.splitlines())  # each error: the file once
    assert "Traceback" not in captured.err


def test_odds_fire_refuses_a_scenario_against_its_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario(tmp_path, "game_length: 3\n", "game_length: 3\nbogus: 1\n")
    assert main(["odds", "fire", str(path), "--from", "1324", "--to", "1303"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:10:1: error: /bogus: unknown key 'bogus'" in err and "[schema]" in err


def test_odds_fire_loads_neither_networkx_nor_shapely() -> None:
    """A set-up's odds need no graph search and no polygon (the fixture names no line's side and no
    custom building footprint): the two libraries, a fifth of a start, stay unloaded."""
    code = (
        "import sys\n"
        "from iceditor.entry import main\n"
        f"assert main(['odds', 'fire', {str(FIXTURE / 'fire.yaml')!r}, '--from', '1324', '--to', '1303']) == 0\n"
        "print(sorted(m for m in ('networkx', 'shapely') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert "AP firepower 10" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_21_0_odds_fire_mode_gives_a_fire_lane_or_refuses_with_its_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """21.0, 21.21: `--mode UNIT=fl:HEX` puts the MG in FL mode for the odds; without the advanced
    rules, for a unit that is no MG or a lane target out of its reach it is refused (exit 2, the rule)."""
    fire = str(FIXTURE / "fire.yaml")
    base = ["odds", "fire", fire, "--from", "1324", "--to", "1316"]
    assert main([*base, "--advanced", "--mode", "german/MMG-1=fl:1316"]) == 0
    assert "german/MMG-1 (FL mode, a Fire Lane to 1316)" in capsys.readouterr().out
    assert main([*base, "--mode", "german/MMG-1=sp"]) == 2
    assert "add --advanced (21.0, R319)" in capsys.readouterr().err
    assert main([*base, "--advanced", "--mode", "german/D/R-PR9-1=sp"]) == 2
    assert "is no MG" in capsys.readouterr().err
    assert main([*base, "--advanced", "--mode", "german/MMG-1=fl:1330"]) == 2
    assert "(21.21, R307)" in capsys.readouterr().err
