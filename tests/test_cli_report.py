"""`iceditor validate` output formats (text, json, github, sarif), --strict, --select/--ignore,
and `iceditor checks`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sarif import loader

from engine.validate.registry import all_checks
from iceditor.cli import main

MAP = """\
format: iron-cross-map/1
name: T
grid: {columns: [10, 14], rows: [1, 9]}
roads:
  - ["1001", "1003"]
"""
# An erratum that changes nothing: a warning (erratum-no-effect), no error.
ERRATA = """\
format: iron-cross-errata/1
name: T errata
changes:
  - hexes: ["1002"]
    set: {trees: 0}
    printed: "Hex 1002 has no trees."
"""


@pytest.fixture
def broken(write: Any) -> Path:
    return write("m.yaml", MAP)  # 1001 -> 1003 is not a chain: road-not-adjacent (error)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_text_is_path_line_col_severity_message_rule_code(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "validate", str(broken))
    assert status == 1
    assert out.startswith(f"{broken}:5:14: error: ") and out.rstrip().endswith("[road-not-adjacent]")
    assert "1 error" in err


def test_github_annotations(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "validate", str(broken), "--format", "github")
    assert status == 1
    line = out.strip()
    assert line.startswith(f"::error file={broken},line=5,col=14,title=road-not-adjacent")
    assert "::" in line[2:] and "\n" not in line


def test_sarif_is_read_by_sarif_tools_with_rule_metadata(
    broken: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "validate", str(broken), "--format", "sarif")
    assert status == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {c.id for c in all_checks()}
    result = run_["results"][0]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "road-not-adjacent"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], result["level"]) == (5, 14, "error")
    path = tmp_path / "out.sarif"
    path.write_text(out, encoding="utf-8")
    sarif_file = loader.load_sarif_file(str(path))
    assert sarif_file.get_result_count() == 1
    assert sarif_file.get_records()[0]["Code"].startswith("road-not-adjacent")


def test_strict_turns_warnings_into_errors(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    write("map1.yaml", MAP.replace('  - ["1001", "1003"]', '  - ["1001", "1002"]'))
    errata = write("errata.yaml", ERRATA)
    status, out, _ = run(capsys, "validate", str(errata))
    assert status == 0 and "warning:" in out and "[erratum-no-effect]" in out
    status, out, _ = run(capsys, "validate", str(errata), "--strict")
    assert status == 1 and "error:" in out


def test_select_and_ignore_by_code(broken: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "validate", str(broken), "--ignore", "road-not-adjacent")[0] == 0
    status, out, _ = run(capsys, "validate", str(broken), "--select", "schema,bridge-placement")
    assert (status, out) == (0, "")
    assert run(capsys, "validate", str(broken), "--select", "road-not-adjacent")[0] == 1
    status, _, err = run(capsys, "validate", str(broken), "--ignore", "no-such-code")
    assert status == 2 and "unknown check code(s): no-such-code" in err


def test_every_check_is_listed_with_rule_and_fix(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "checks", "--format", "json")
    rows = json.loads(out)["checks"]
    assert status == 0 and len(rows) == len(all_checks())
    assert all(r["summary"] and r["fix"] and r["severity"] in ("error", "warning", "info") for r in rows)
    assert {r["code"] for r in rows} >= {"schema", "unreadable", "road-not-adjacent", "zone-empty"}


def test_pre_commit_hook_runs_the_validator_on_yaml_files(
    write: Any, broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """.pre-commit-hooks.yaml: the hook's entry, given a repository's YAML files, checks the
    iceditor ones and skips the others (a CI workflow, say)."""
    import shlex

    import yaml

    hooks = yaml.safe_load((Path(__file__).parents[1] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "iceditor-validate")
    assert hook["language"] == "python" and "yaml" in hook["types"]
    program, *entry = shlex.split(hook["entry"])
    assert program == "iceditor"
    workflow = write("ci.yml", "name: CI\non: [push]\n")
    good = write("good.yaml", MAP.replace('  - ["1001", "1003"]', '  - ["1001", "1002"]'))
    assert run(capsys, *entry, str(workflow), str(good))[0] == 0
    status, out, _ = run(capsys, *entry, str(workflow), str(broken))
    assert status == 1 and "[road-not-adjacent]" in out and "ci.yml" not in out
