"""Reports that agree with themselves and hide nothing (issue 10): the order and summary of
`validate`, SARIF metadata, `checks` columns, rule numbers printed once."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.model.provenance import KINDS
from engine.validate.registry import all_checks
from engine.validate.runner import validate_paths
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
CHECKS = REPO / "engine" / "validate" / "checks"

# A map with one assumed value (info) and a road 1001 -> 1003 that is not a chain (error).
INFO_MAP = """\
format: iron-cross-map/1
name: Info
provenance: {assumed: "a guess"}
grid: {columns: [10, 14], rows: [1, 9]}
hexes:
  "1203": {trees: 2}
"""
BROKEN_MAP = """\
format: iron-cross-map/1
name: Broken
grid: {columns: [10, 14], rows: [1, 9]}
roads:
  - ["1001", "1003"]
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_validate_prints_errors_first_then_a_summary(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    info, broken = write("info.yaml", INFO_MAP), write("broken.yaml", BROKEN_MAP)
    status, out, err = run(capsys, "validate", str(info), str(broken))
    lines = out.splitlines()
    assert status == 1 and len(lines) == 2
    assert lines[0].startswith(f"{broken}:5:14: error: ")
    assert lines[1].startswith(f"{info}:") and ": info: 1 assumed value" in lines[1]
    assert err == "2 files checked: 1 error, 0 warnings, 1 info\n"
    status, out, _ = run(capsys, "validate", str(info), str(broken), "--format", "json")
    data = json.loads(out)
    assert [p["severity"] for p in data["problems"]] == ["error", "info"]
    assert data["summary"] == {"files": 2, "error": 1, "warning": 0, "info": 1}


def test_sarif_carries_no_placeholder_address(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "validate", str(write("broken.yaml", BROKEN_MAP)), "--format", "sarif")
    driver = json.loads(out)["runs"][0]["tool"]["driver"]
    assert status == 1 and driver["name"] == "iceditor"
    assert "informationUri" not in driver and not re.search(r"https?://[^\"]*\.example\b", out)


def test_checks_columns_line_up_whatever_the_rule_text(capsys: pytest.CaptureFixture[str]) -> None:
    """`Terrain Clarifications and Errata` and `24.4, 24.6, 24.8, 24.9` are longer than a rule number."""
    status, out, _ = run(capsys, "checks")
    header, *rows = out.splitlines()
    assert status == 0 and len(rows) == len(all_checks())
    start = header.index("what it means")
    for check, row in zip(all_checks(), rows, strict=True):
        assert row[start:].startswith(check.summary) and row[start - 2 : start] == "  ", row
        assert row.split()[0] == check.id
        assert row[header.index("rule") :].startswith(check.rule or "-")


def _messages(module: ast.Module) -> list[str]:
    """The string pieces of a check module (messages are built from them)."""
    return [n.value for n in ast.walk(module) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_no_check_writes_its_own_rule_into_a_message() -> None:
    """Problem.text appends the rule: a message ending in it printed "(24.1) (24.1)"."""
    for path in sorted(CHECKS.glob("*.py")):
        module = ast.parse(path.read_text(encoding="utf-8"))
        rules = {
            n.value.value
            for n in ast.walk(module)
            if isinstance(n, ast.keyword) and n.arg == "rule" and isinstance(n.value, ast.Constant) and n.value.value
        }
        for text in _messages(module):
            assert not any(text.rstrip().endswith(f"({rule})") for rule in rules), (path.name, text)


def test_los_json_profile_agrees_with_the_blocking_hex(capsys: pytest.CaptureFixture[str]) -> None:
    """10.31 a: 4001 -> 4307 on Map 2 crosses Building 22's symbol in 4104 (an AFV there too): the
    profile entry of the blocking hex says it blocks, and by which rule."""
    argv = ["los", str(REPO / "maps" / "map2.yaml"), "4001", "4307", "--afv", "4104", "--format", "json"]
    status, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert status == 0 and (data["blocked"], data["blocking_hex"], data["rule"]) == (True, "4104", "10.31 a")
    entry = next(p for p in data["profile"] if p["hex"] == "4104")
    assert (entry["blocks"], entry["rule"]) == (True, "10.31 a")
    assert [p["hex"] for p in data["profile"] if p["blocks"]] == ["4104"]


# `FILE: error:` / `FILE:LINE:COL: error:` for a file, `iceditor COMMAND: error:` for the command line.
COMPLAINT = re.compile(r"^(iceditor [a-z]+: error: |\S+?(:\d+:\d+)?: error: )")


@pytest.mark.parametrize(
    ("argv", "starts"),
    [
        (["validate", "{map}", "--ignore", "no-such-code"], "iceditor validate: error: unknown check code(s)"),
        (["path", "{map}", "1001", "1509", "--unit", "infantry"], "{map}: error: hex 1509 is not on"),
        (["reach", "{map}", "1001", "--unit", "cw"], "iceditor reach: error: a CW's Movement Phase allowance"),
        (["zone", "{s1}", "nowhere"], "{s1}: error: no zone named 'nowhere'"),
        (["snapshot", "{map}", "--out", "x.png", "--size", "big"], "iceditor snapshot: error: --size 'big'"),
        (["snapshot", "{map}", "--out", "x.gif"], "iceditor snapshot: error: --out x.gif: the file name must end"),
        (["render", "{map}", "--out", "x.svg", "--dpi", "5"], "iceditor render: error: --dpi 50-1200"),
        (["validate", "--format", "xml"], "iceditor validate: error: argument --format"),
    ],
)
def test_complaints_name_the_file_or_the_command_first(
    write: Any, capsys: pytest.CaptureFixture[str], argv: list[str], starts: str
) -> None:
    names = {"map": str(write("m.yaml", BROKEN_MAP)), "s1": str(REPO / "scenarios" / "s1-demyansk-pocket.yaml")}
    status, out, err = run(capsys, *(a.format(**names) for a in argv))
    last = err.splitlines()[-1]
    assert status == 2 and out == "" and COMPLAINT.match(last), err
    assert last.startswith(starts.format(**names)), last


# -- provenance: what validate counts, provenance lists -----------------------------------------------

DATA_FILES = [
    *sorted((REPO / "maps").glob("*.yaml")),
    *sorted((REPO / "tables").glob("*.yaml")),
    REPO / "counters" / "counters.yaml",
    REPO / "scenarios" / "s4-tula.yaml",
]


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_provenance_lists_exactly_the_assumed_values_validate_counts(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Map 2 was '64 assumed values' in validate and 1 in `provenance --assumed` (the map's own mark)."""
    told = [p for p in validate_paths([path]) if p.code == "assumed-values"]
    counted = int(told[0].message.split()[0]) if told else 0
    status, out, err = run(capsys, "provenance", "--assumed", str(path))
    assert status == 0 and len(out.splitlines()) == counted
    assert err == f"1 file listed: 0 printed, 0 inferred, {counted} assumed\n"
    assert all(f"{path}:" in line and ": assumed: " in line for line in out.splitlines())
    status, out, _ = run(capsys, "provenance", str(path), "--format", "json")
    (listed,) = json.loads(out)["files"]
    assert listed["counts"]["assumed"] == counted == sum(v["provenance"] == "assumed" for v in listed["values"])
    assert set(listed["counts"]) == set(KINDS)


def test_a_reconstructed_map_lists_each_hex_road_and_bridge_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    path = REPO / "maps" / "map3.yaml"
    status, out, _ = run(capsys, "provenance", "--assumed", str(path), "--format", "json")
    values = json.loads(out)["files"][0]["values"]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert status == 0 and len(values) == len(data["hexes"]) + len(data["roads"]) + len(data["bridges"])
    by_pointer = {v["pointer"]: v for v in values}
    assert by_pointer["/bridges/0"]["value"] == "5806" and by_pointer["/roads/0"]["value"].startswith("6527 6526")
    assert all(v["note"].startswith("reconstructed from the rulebook's clues") for v in values)
    assert "/provenance" not in by_pointer  # the reason, not a value


def test_provenance_used_lists_what_a_scenario_rests_on(capsys: pytest.CaptureFixture[str]) -> None:
    """assumed-used: 'the scenario rests on 159 assumed values: maps/map2.yaml 64, ...'; --used lists them."""
    s1 = REPO / "scenarios" / "s1-demyansk-pocket.yaml"
    (told,) = [p for p in validate_paths([s1]) if p.code == "assumed-used"]
    per_file = dict(part.rsplit(" ", 1) for part in told.message.split(": ", 1)[1].split(", "))
    status, out, err = run(capsys, "provenance", "--used", str(s1))
    lines = out.splitlines()
    assert status == 0 and len(lines) == int(told.message.split()[4])
    assert {file: str(sum(line.startswith(f"{file}:") for line in lines)) for file in per_file} == per_file
    assert err == f"scenarios/s1-demyansk-pocket.yaml rests on {told.message.split('rests on ', 1)[1]}\n"
    status, out, _ = run(capsys, "provenance", "--used", str(s1), "--format", "json")
    (scenario,) = json.loads(out)["scenarios"]
    assert {f["file"]: str(f["counts"]["assumed"]) for f in scenario["files"]} == per_file
    assert run(capsys, "provenance", "--used", str(REPO / "maps" / "map2.yaml"))[0] == 2


def test_the_bundled_listing_is_the_same_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/provenance.md names the bundled files as the data folder does, wherever it is run."""
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "provenance", "--format", "markdown")
    assert status == 0 and out == (REPO / "docs" / "provenance.md").read_text(encoding="utf-8")
