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
    assert main(["los", DIP, "1202", "1206", "--house-rule", "hills-see-all"]) == 2
    assert "low-ground" in capsys.readouterr().err


STREET = str(FIXTURES / "road-through-a-building.yaml")
OPEN = str(FIXTURES / "open-ground.yaml")


def test_8_52_a_road_through_a_building_is_prohibited_to_an_afv(capsys: pytest.CaptureFixture[str]) -> None:
    """8.52: 'Units expend only 1/2 MP per hex, regardless of the terrain, when moving ... along the
    road' prices the move; nothing lifts the chart's 'P: The hex is prohibited to that unit type'.
    An AFV may not drive down the street through Building 1 (1203), UP or DOWN; `path` says so with
    the rule and exits 1. Infantry goes along it at 1/2 MP a hex (R34)."""
    for state in ("up", "down"):
        assert main(["path", STREET, "1202", "1203", "--unit", "afv", "--state", state, "--format", "json"]) == 1
        answer = json.loads(capsys.readouterr().out)
        assert (answer["cost"], answer["rule"], answer["barrier"]) == (None, "8.5", ["1203"])
        assert "'P'" in answer["reason"] and "8.52" in answer["reason"]
    around = run_json(capsys, "path", STREET, "1201", "1205", "--unit", "afv")
    assert "1203" not in around["hexes"]
    street = run_json(capsys, "path", STREET, "1201", "1205", "--unit", "infantry")
    assert (street["hexes"], street["cost"]) == (["1201", "1202", "1203", "1204", "1205"], 2)


def test_8_74_an_afv_turning_two_hexsides_pays_one_mp(capsys: pytest.CaptureFixture[str]) -> None:
    """8.74: 'After it moves into EACH new hex it may freely change its facing ONE hexside left or
    right. It may then turn additional hexsides at a cost of 1 MP per hexside.' From 1203 to 1404
    (two hexes in a straight line through 1304): facing 1304 it costs 2 MP; facing 1202 the AFV
    must first turn two hexsides, one free and one for 1 MP: 3 MP, 1 more than the straight move."""
    straight = run_json(capsys, "path", OPEN, "1203", "1404", "--unit", "afv", "--facing", "1304")
    turning = run_json(capsys, "path", OPEN, "1203", "1404", "--unit", "afv", "--facing", "1202")
    assert (straight["cost"], turning["cost"]) == (2, 3)
    assert [s["turn_hexsides"] for s in straight["steps"]] == [0, 0]
    assert sum(s["turn_hexsides"] for s in turning["steps"]) == 2
    behind = run_json(capsys, "path", OPEN, "1203", "1205", "--unit", "afv", "--facing", "1202")
    assert behind["cost"] == 4  # three hexsides round: 2 MP of turning, then 2 hexes
    reach = run_json(capsys, "reach", OPEN, "1203", "--unit", "afv", "--facing", "1202")
    assert (reach["costs"]["1201"], reach["costs"]["1205"]) == (2, 4)
    assert main(["path", OPEN, "1203", "1404", "--unit", "afv", "--facing", "1202"]) == 0
    assert "1304  +2  = 2  (turns 2 hexsides first: 1 MP, 8.74)" in capsys.readouterr().out


def test_facing_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """--facing names an adjacent hex (8.7), and only an AFV's facing changes its movement (8.74)."""
    assert main(["path", OPEN, "1203", "1404", "--unit", "afv", "--facing", "1502"]) == 2
    assert "not adjacent to 1203 (8.7)" in capsys.readouterr().err
    assert main(["reach", OPEN, "1203", "--unit", "infantry", "--facing", "1202"]) == 2
    assert "8.74" in capsys.readouterr().err


def test_18_0_a_scenario_1_copy_with_4_point_ips_is_refused(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """18.0: 'IP's are rated in points (1, 2 or 3).' Scenario 1 with its German IP1 x 2 made IP4 x 2,
    and its set-up's IPs made 4 points to match: both are errors at their line."""
    path = workspace / "scenarios" / "s1-demyansk-pocket.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        'improved_positions: [{points: 1, count: 2, printed: "IP1 x 2"}]',
        ('improved_positions: [{points: 4, count: 2, printed: "IP1 x 2"}]'),
    )
    text = text.replace('{hex: "4307", points: 1}', '{hex: "4307", points: 4}').replace(
        '{hex: "4308", points: 1}', '{hex: "4308", points: 4}'
    )
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path), "--select", "ip-points", "--format", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert [(p["rule"], p["line"], p["hex"]) for p in problems] == [
        ("18.0", 56, None),
        ("18.0", 141, "4307"),
        (
            "18.0",
            142,
            "4308",
        ),
    ]
    assert all("rated 1, 2, 3 points" in p["message"] for p in problems)
