"""`iceditor validate`: output formats, exit codes, and problems located in the YAML."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
S1 = (REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_bundled_data_passes_with_no_errors(capsys) -> None:
    code, out, err = run(capsys, "validate")
    assert code == 0, out
    assert " error:" not in out
    assert "0 errors" in err


def test_assumed_values_are_one_info_line_per_file(capsys) -> None:
    _, out, _ = run(capsys, "validate", "--format", "json")
    problems = json.loads(out)["problems"]
    infos = [p for p in problems if p["code"] == "assumed-values"]
    files = [p["file"] for p in infos]
    assert len(files) == len(set(files))
    assert any(f.endswith("counters.yaml") for f in files) and any(f.endswith("map1.yaml") for f in files)
    assert all(p["severity"] == "info" and "assumed value" in p["message"] for p in infos)


def test_broken_scenario_names_the_line(capsys, write) -> None:
    broken = S1.replace('- {squad: B, ammo: 8, less: ["LMG PR8"]}', '- {squad: B, ammo: 8, less: ["LMG PR3"]}')
    path = write("scenarios/s1.yaml", broken)
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "LMG PR3" in text)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert f"{path}:{line}:" in out and "Russian Squad B has no LMG PR3" in out and "(24.1) [squad-clause]" in out


def test_json_shape(capsys, write) -> None:
    path = write(
        "s1.yaml", S1.replace("{crew_weapon: MMG, number: 2, ammo: 14}", "{crew_weapon: MMG, number: 7, ammo: 14}")
    )
    code, out, _ = run(capsys, "validate", "--format", "json", str(path))
    assert code == 1
    (problem,) = [p for p in json.loads(out)["problems"] if p["severity"] == "error"]
    assert set(problem) == {"file", "line", "column", "severity", "code", "message", "rule", "hex"}
    assert problem["code"] == "unknown-unit" and problem["rule"] == "2.2" and problem["hex"] is None
    assert "no MMG #7" in problem["message"]


def test_schema_error_points_into_the_yaml(capsys, write) -> None:
    path = write("s1.yaml", S1.replace("game_length: 7", "game_length: seven"))
    code, out, _ = run(capsys, "validate", str(path))
    line = next(i for i, text in enumerate(S1.splitlines(), 1) if text.startswith("game_length"))
    assert code == 1 and f"{path}:{line}:14: error: /game_length:" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("maps: [map2]", "maps: [map9]"),
        ('north: {hex: "5001", toward: "5002"', 'north: {hex: "5001", toward: "5004"'),
        ('adjacent_to: {road: ["4001", "5014"]}', 'adjacent_to: {road: ["4001", "4501"]}'),
        ("- {hill: K}", "- {hill: Q}"),
    ],
)
def test_reference_problems(capsys, write, text: str, fragment: str) -> None:
    assert text in S1
    path = write("scenarios/s1.yaml", S1.replace(text, fragment))
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    expected = {
        "maps: [map9]": "[scenario-maps]",
        'north: {hex: "5001", toward: "5004"': "adjacent hex",
        'adjacent_to: {road: ["4001", "4501"]}': "4501 is not a road hex",
        "- {hill: Q}": "no hill 'Q'",
    }[fragment]
    assert expected in out


def test_unreadable_files_exit_2_without_traceback(capsys, write, tmp_path: Path) -> None:
    bad = write("bad.yaml", "format: [\n")
    binary = tmp_path / "b.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    code, out, err = run(capsys, "validate", str(bad), str(binary), str(tmp_path / "missing.yaml"), str(tmp_path))
    assert code == 2
    assert "Traceback" not in out + err
    assert f"{bad}:2:1: error: not valid YAML" in out
    assert "not UTF-8" in out and "no such file" in out and "is a folder" in out


def test_console_script_runs(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "iceditor.cli", "validate", str(REPO / "maps" / "map1.yaml")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0 and "assumed-values" in result.stdout


def test_bad_command_line_exits_2(capsys) -> None:
    assert main(["validate", "--format", "xml"]) == 2
    assert "invalid choice: 'xml'" in capsys.readouterr().err
