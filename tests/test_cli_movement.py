"""`iceditor reach`, `path` and `turns`: output shapes and exit codes (0 computed, 1 no path, 2 bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from iceditor.cli import main

S1 = Path(__file__).resolve().parent.parent / "scenarios" / "s1-demyansk-pocket.yaml"

MAP = """\
format: iron-cross-map/1
name: CLI test
grid: {columns: [10, 12], rows: [1, 5]}
hexes:
  "1102": {trees: 2}
  "1104": {building: 1}
roads:
  - ["1001", "1002", "1003", "1004", "1005"]
"""


@pytest.fixture
def map_file(write) -> str:
    return str(write("map.yaml", MAP))


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_reach_json(capsys, map_file: str) -> None:
    """8.11: 6 MPs; 8.52: 1/2 MP a hex along the road, so the whole road is in reach."""
    out = run_json(capsys, "reach", map_file, "1001", "--unit", "infantry")
    assert set(out) == {"from", "allowance", "costs", "immobilization"}
    assert out["from"] == "1001" and out["allowance"] == 6
    assert out["costs"]["1001"] == 0 and out["costs"]["1002"] == 0.5 and out["costs"]["1005"] == 2
    assert isinstance(out["costs"]["1005"], int) and out["immobilization"] == []


def test_reach_json_one_hex(capsys, map_file: str) -> None:
    """8.11: a PINNED infantry unit moves 'ONE HEX, regardless of terrain costs' in the Reaction Movement Phase."""
    out = run_json(capsys, "reach", map_file, "1103", "--unit", "infantry", "--morale", "pinned", "--phase", "reaction")
    assert out["allowance"] == "one hex"
    assert sorted(out["costs"]) == ["1002", "1003", "1102", "1103", "1104", "1202", "1203"]


def test_reach_text_groups_hexes_by_cost(capsys, map_file: str) -> None:
    assert main(["reach", map_file, "1001", "--unit", "afv", "--phase", "reaction"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1001: afv UP NORMAL, reaction phase, best facing, allowance 5 MP: 14 hexes"
    assert "  0.5 MP: 1002" in out
    assert "  immobilization roll on entering (8.54, 8.55): 1102" in out


def test_reach_afv_blocked_and_bt7m(capsys, map_file: str) -> None:
    """8.61: no AFV enters a hex holding an AFV or a Wreck; 8.13: the BT7M has 6 MPs in the Reaction Phase."""
    out = run_json(capsys, "reach", map_file, "1001", "--unit", "afv", "--afv", "1002", "--wreck", "1101")
    assert "1002" not in out["costs"] and "1101" not in out["costs"]
    assert (
        run_json(capsys, "reach", map_file, "1001", "--unit", "afv", "--mp", "12", "--phase", "reaction")["allowance"]
        == 6
    )


def test_reach_pinned_defaults_to_down(capsys, map_file: str) -> None:
    """3.25: a PINNED unit is DOWN, so it pays 2 along the road (8.52), without --state."""
    out = run_json(capsys, "reach", map_file, "1001", "--unit", "infantry", "--morale", "pinned")
    assert out["allowance"] == 3 and out["costs"]["1002"] == 2


def test_path_json(capsys, map_file: str) -> None:
    """8.5: the cheapest path with the MPs of each hex entered."""
    out = run_json(capsys, "path", map_file, "1001", "1005", "--unit", "infantry", "--state", "down")
    assert set(out) == {"from", "to", "cost", "hexes", "steps"}
    assert out["hexes"] == ["1001", "1002", "1003", "1004", "1005"] and out["cost"] == 8
    assert out["steps"][0] == {"hex": "1002", "cost": 2} and len(out["steps"]) == 4


def test_path_text(capsys, map_file: str) -> None:
    assert main(["path", map_file, "1001", "1003", "--unit", "infantry"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "1001 -> 1003: 1 MP for infantry UP NORMAL, movement phase",
        "  1002  +0.5  = 0.5",
        "  1003  +0.5  = 1",
    ]


def test_no_path_names_the_closed_hex_and_the_rule(capsys, map_file: str) -> None:
    """Legend 'P': no AFV enters a building; 'no path' exits 1, naming the hex and the rule (cost null)."""
    assert main(["path", map_file, "1001", "1104", "--unit", "afv", "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    reason = (
        "no legal path for afv UP NORMAL, movement phase: it may not enter building 1104 "
        "('P', prohibited to the unit type, on the Movement & Combat Effects Chart, 8.5)"
    )
    assert out == {
        "from": "1001",
        "to": "1104",
        "cost": None,
        "hexes": [],
        "steps": [],
        "reason": reason,
        "rule": "8.5",
        "barrier": ["1104"],
    }
    assert main(["path", map_file, "1001", "1104", "--unit", "afv"]) == 1
    assert capsys.readouterr().out == f"1001 -> 1104: {reason}\n"


def test_no_path_out_of_a_ring_names_the_ring(capsys, map_file: str) -> None:
    """8.61, 12.4: an AFV ringed by AFVs and Wrecks (1001's neighbours: 1002, 1101, 1102) goes nowhere."""
    argv = ["path", map_file, "1001", "1005", "--unit", "afv", "--afv", "1002", "--wreck", "1101", "--wreck", "1102"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert out == (
        "1001 -> 1005: no legal path for afv UP NORMAL, movement phase: every way out of the 1 hex it can reach "
        "from 1001 is barred by hexes it may not enter: 1002 (an AFV may not enter a hex holding another AFV, "
        "8.61); 1101 1102 (an AFV may not enter a hex holding a Wreck, 12.4)\n"
    )
    assert main([*argv, "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert (data["rule"], data["barrier"]) == ("8.61, 12.4", ["1002", "1101", "1102"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["reach", "{map}", "1109", "--unit", "infantry"], "{map}: error: hex 1109 is not on CLI test"),
        (["reach", "{map}", "11x9", "--unit", "infantry"], "'11x9' is not a hex label"),
        (["path", "{map}", "1001", "1309", "--unit", "infantry"], "hex 1309 is not on CLI test"),
        (["reach", "{map}", "1001", "--unit", "afv", "--afv", "9999"], "hex 9999 is not on CLI test"),
        (["reach", "{map}", "1001", "--unit", "afv", "--morale", "pinned"], "never PINNED"),
        (["reach", "{map}", "1001", "--unit", "cw"], "counter (8.12): give it with --mp N"),
        (["reach", "{map}", "1001", "--unit", "afv", "--mp", "7"], "no AFV has 7 MPs in the Movement Phase (8.13"),
        (["reach", "{map}", "1001", "--unit", "ft", "--mp", "7"], "(8.11, 8.14)"),
        (
            ["path", "{map}", "1001", "1002", "--unit", "infantry", "--morale", "pinned", "--state", "up"],
            "(3.25, 3.26)",
        ),
        (["reach", "{missing}", "1001", "--unit", "infantry"], "missing.yaml"),
    ],
)
def test_bad_input_exits_2(capsys, map_file: str, tmp_path: Path, argv: list[str], message: str) -> None:
    """Unknown hexes, unreadable files and movers the rules do not allow: exit 2 with a message, no traceback."""
    names = {"map": map_file, "missing": str(tmp_path / "missing.yaml")}
    assert main([a.format(**names) for a in argv]) == 2
    err = capsys.readouterr().err
    assert message.format(**names) in err and "Traceback" not in err


def test_turns_on_a_scenario(capsys) -> None:
    """24.4: the Russians enter on turn 1; infantry needs 2 turns to reach 4307 or 4308."""
    out = run_json(capsys, "turns", str(S1), "russian-entry", "objectives", "--unit", "infantry", "--enter")
    assert out == {"scenario": str(S1), "from": "russian-entry", "to": "objectives", "entering": True, "turns": 2}
    assert main(["turns", str(S1), "objectives", '{hexes: ["4308"]}', "--unit", "infantry"]) == 0
    assert capsys.readouterr().out.startswith('from objectives to {hexes: ["4308"]}: 0 turns')
    assert main(["turns", str(S1), "russian-entry", "objectives", "--unit", "afv", "--enter"]) == 0
    assert ": never (afv" in capsys.readouterr().out  # both hexes are buildings


def test_turns_bad_input(capsys, map_file: str) -> None:
    assert main(["turns", str(S1), "nowhere", "objectives", "--unit", "infantry"]) == 2
    assert "'nowhere' is neither a zone of the scenario" in capsys.readouterr().err
    assert main(["turns", str(S1), "{hill: Z}", "objectives", "--unit", "infantry"]) == 2
    assert "zone '{hill: Z}'" in capsys.readouterr().err
    assert main(["turns", map_file, "a", "b", "--unit", "infantry"]) == 2
    assert "not a scenario file" in capsys.readouterr().err
