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
