"""Generated documentation stays in step with the data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent


def test_provenance_doc_is_current() -> None:
    """docs/provenance.md is `iceditor provenance --format markdown`: regenerate it after editing data."""
    result = subprocess.run(
        [sys.executable, "-m", "iceditor.cli", "provenance", "--format", "markdown"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert (REPO / "docs" / "provenance.md").read_text(encoding="utf-8") == result.stdout


def test_provenance_lists_assumed_counter_values_with_reasons(capsys) -> None:

    assert main(["provenance", "--assumed", str(REPO / "counters" / "counters.yaml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(": assumed: " in line for line in lines)
    assert any("/infantry_weapons/russian/R/assault_rating = 2: not printed" in line for line in lines)


def test_provenance_marks_the_11_2_rifle_values_inferred(capsys) -> None:
    """11.2 example: 'A Russian infantry unit has an AP factor of 4 and an initial range of 7': the
    weapon is not named, so the rifle's values are inferred, not printed (tests/test_provenance_inferred.py)."""

    main(["provenance", str(REPO / "counters" / "counters.yaml")])
    out = capsys.readouterr().out
    assert "inferred: /infantry_weapons/russian/R/ap_factor = 4: 11.2 example" in out
    assert "inferred: /infantry_weapons/russian/R/initial_range = 7: 11.2 example" in out


def test_checks_doc_is_current(capsys) -> None:
    """docs/checks.md is `iceditor checks --format markdown`: regenerate it after adding a check."""
    assert main(["checks", "--format", "markdown"]) == 0
    assert (REPO / "docs" / "checks.md").read_text(encoding="utf-8") == capsys.readouterr().out


def test_readme_counts_the_bundled_files_validate_checks(capsys) -> None:
    """Quick start's `iceditor validate` line: the README says how many files it checks, and names
    them as bundled names (`maps/map2.yaml`), never an installation's absolute path (issue 24)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert main(["validate"]) == 0
    out, err = capsys.readouterr()
    checked = err.splitlines()[-1].split(" files checked")[0]
    assert f"all the bundled data, {checked} files (" in readme
    assert out.startswith("maps/map1.yaml:") and "/maps/" not in out


def test_version_and_odds_alone_answer(capsys) -> None:
    assert main(["odds"]) == 2
    assert capsys.readouterr().err == "iceditor odds: error: name a KIND: ap, at, fire (iceditor odds KIND --help)\n"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("iceditor ")
    assert main(["odds", "at", "--factor", "8", "--armor", "2", "--dice", "2", "--format", "json"]) == 0
    assert (
        '"factor": 8,\n  "armor": 2,\n  "dice": 2,\n  "higher": false,\n  "p_destroyed": 0.41'
        in capsys.readouterr().out
    )
