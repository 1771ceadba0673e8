"""The audit's cases of issue 11 ("rules by the letter") on map files in tests/fixtures/rules/,
asked through the command line as a user would."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from iceditor.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
DIP = str(FIXTURES / "hilltops-across-a-dip.yaml")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main([*args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_10_31_b_two_level_1_hills_across_four_trees(capsys: pytest.CaptureFixture[str]) -> None:
    """10.31: 'If both hexes are on the same elevation, LOS is blocked if: ... b) the line passes
    through hexes containing more than three Tree symbols'. Both units on level 1 hills, the 4 Trees
    in a level 0 hex between them: blocked; under the low-ground house rule, clear."""
    letter = run_json(capsys, "los", DIP, "1202", "1206")
    assert (letter["blocked"], letter["rule"], letter["blocking_hex"], letter["trees_along"]) == (
        True,
        "10.31 b",
        "1204",
        4,
    )
    house = run_json(capsys, "los", DIP, "1202", "1206", "--house-rule", "low-ground")
    assert (house["blocked"], house["trees_along"]) == (False, 0)


def test_10_31_c_marsh_between_hills_with_a_down_firer(capsys: pytest.CaptureFixture[str]) -> None:
    """10.31 c: 'if the firing unit is in the DOWN state and the line passes through a Marsh hex'.
    The Marsh is level 0, the units on level 1: blocked for a DOWN firer, clear for an UP one."""
    down = run_json(capsys, "los", DIP, "1402", "1406", "--firer-state", "down")
    assert (down["blocked"], down["rule"], down["blocking_hex"]) == (True, "10.31 c", "1404")
    assert not run_json(capsys, "los", DIP, "1402", "1406")["blocked"]
    house = run_json(capsys, "los", DIP, "1402", "1406", "--firer-state", "down", "--house-rule", "low-ground")
    assert not house["blocked"] and house["marsh_along"] == 0


def test_viewshed_follows_the_letter_unless_the_house_rule_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """The viewshed of 1202 leaves out 1206 behind the 4 Trees (10.31 b), and has it with low-ground."""
    assert "1206" not in run_json(capsys, "viewshed", DIP, "1202")["visible"]
    assert "1206" in run_json(capsys, "viewshed", DIP, "1202", "--house-rule", "low-ground")["visible"]


def test_unknown_house_rule_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["los", DIP, "1202", "1206", "--house-rule", "hills-see-all"])
    assert exit_info.value.code == 2
    assert "low-ground" in capsys.readouterr().err
