"""`iceditor zone SCENARIO NAME`: a zone's hexes, resolved on the scenario's maps with errata."""

from __future__ import annotations

import json
from pathlib import Path

from iceditor.cli import main

S1 = Path(__file__).resolve().parent.parent / "scenarios" / "s1-demyansk-pocket.yaml"


def test_lists_a_zones_hexes(capsys) -> None:
    """24.4 victory: 'at least one unit in both hex 4307 and hex 4308'."""
    assert main(["zone", str(S1), "objectives"]) == 0
    assert capsys.readouterr().out.split() == ["4307", "4308"]


def test_lists_every_zone_with_its_size(capsys) -> None:
    assert main(["zone", str(S1)]) == 0
    out = capsys.readouterr().out
    assert "objectives: 2 hexes" in out and "russian-entry: 33 hexes" in out


def test_json(capsys) -> None:
    assert main(["zone", str(S1), "russian-entry", "--format", "json"]) == 0
    zones = json.loads(capsys.readouterr().out)["zones"]
    assert "3015" in zones["russian-entry"] and "3014" not in zones["russian-entry"]  # north of 3014, exclusive


def test_unknown_zone_and_missing_file_exit_2(capsys, tmp_path: Path) -> None:
    assert main(["zone", str(S1), "nowhere"]) == 2
    assert "no zone named 'nowhere'" in capsys.readouterr().err
    assert main(["zone", str(tmp_path / "missing.yaml"), "x"]) == 2
    assert "no such file" in capsys.readouterr().err


BROKEN_ZONES = """\
zones:
  on-hill-q:
    area: {hill: Q}
  nothing:
    area: {all_of: [{hexes: ["4307"]}, {hexes: ["4308"]}]}
"""


def test_a_zone_that_does_not_resolve_is_reported_and_the_others_listed(capsys, write) -> None:
    """24.1: zones name hexes of the scenario's maps; Map 2 has no Hill Q, and 4307 and 4308 share no hex."""
    text = S1.read_text(encoding="utf-8").replace("zones:\n", BROKEN_ZONES, 1)
    path = write("scenarios/s1.yaml", text)
    lines = text.splitlines()
    q_line = lines.index("    area: {hill: Q}") + 1
    nothing_line = lines.index("  nothing:") + 2  # its area
    assert main(["zone", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "objectives: 2 hexes" in out and "russian-entry: 33 hexes" in out and "nothing: 0 hexes" in out
    assert "on-hill-q" not in out
    errors = err.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"{path}:{q_line}:") and "error: zone 'on-hill-q': no hill 'Q'" in errors[0]
    assert errors[0].endswith("(24.1) [zone-empty]")
    assert errors[1].startswith(f"{path}:{nothing_line}:") and "zone 'nothing' resolves to no hex" in errors[1]
    assert main(["zone", str(path), "--format", "json"]) == 1
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["zones"]["objectives"] == ["4307", "4308"] and data["zones"]["nothing"] == []
    assert "on-hill-q" not in data["zones"]
    assert [(p["code"], p["line"]) for p in data["problems"]] == [("zone-empty", q_line), ("zone-empty", nothing_line)]
    assert main(["zone", str(path), "on-hill-q"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "no hill 'Q'" in err
