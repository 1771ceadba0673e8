"""The bundled data is found by the installed package: editable, and from a plain `pip install .`
into another virtual environment, where the README's examples run from another folder."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from engine.resources import DATA_DIRS, data_root
from tests.readme_commands import cli_examples, quick_start, run_examples

REPO = Path(__file__).resolve().parent.parent
# The dependencies are inherited (inheriting_venv); a plain wheel builds with the hatchling already
# here, an editable install needs hatchling's `editables` too: pip fetches them to build it.
PIP_INSTALL = ["-m", "pip", "install", "-q", "--no-deps"]
PLAIN = [*PIP_INSTALL, "--no-build-isolation", "--no-index"]


def inheriting_venv(env_dir: Path) -> Path:
    """A new virtual environment that also sees the packages of the Python running the tests
    (PySide6 is large: no download), whether that is a venv, a user's or the system's Python;
    its python. Not `system_site_packages=True`: that sees the base Python, not a venv running
    the tests. The site folders join sys.path as plain paths, so their `.pth` files (an
    editable iceditor among them) stay unread: iceditor comes only from what is installed here."""
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    probe = "import sysconfig; print(sysconfig.get_path('purelib'))"
    found = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True)
    site_packages = Path(found.stdout.strip())
    (site_packages / "inherited-from-the-test-run.pth").write_text("\n".join(site_folders()) + "\n", encoding="utf-8")
    return python


def site_folders() -> list[str]:
    """Where the Python running the tests finds its installed packages."""
    return [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


def test_checkout_reads_the_data_at_the_repository_top() -> None:
    assert data_root() == REPO
    for name in DATA_DIRS:
        assert (data_root() / name).is_dir()


def test_the_readme_examples_are_found_and_none_opens_a_window() -> None:
    examples = cli_examples()
    assert "iceditor list" in examples and any(e.startswith("iceditor los s1 ") for e in examples)
    assert not [e for e in examples if e == "iceditor" or e.startswith("iceditor edit")]


@pytest.mark.slow
@pytest.mark.timeout(1800)  # installs and runs the README's examples, on a loaded machine
def test_plain_install_carries_the_data_and_runs_the_readme_examples_elsewhere(tmp_path: Path) -> None:
    """`pip install .` (not editable) into a new virtual environment, then from a folder with no
    repository in sight: the data comes from the installed package, `iceditor validate` passes,
    and every README example runs (bundled names, own files beside no maps)."""
    python = inheriting_venv(tmp_path / "venv")
    subprocess.run([python, *PLAIN, str(REPO)], check=True, capture_output=True, cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = "import engine.resources as r, json, sys; print(json.dumps([str(r.data_root()), sys.path]))"
    where = subprocess.run([python, "-c", probe], cwd=elsewhere, check=True, capture_output=True, text=True)
    found, path = json.loads(where.stdout)
    root = Path(found)
    assert set(site_folders()) <= set(path)  # the dependencies as the tests see them, from a venv too
    assert root.is_relative_to(tmp_path / "venv"), root
    for name in DATA_DIRS:
        assert (root / name).is_dir()
    bin_dir = python.parent
    result = subprocess.run(
        [bin_dir / "iceditor", "validate", "--format", "json"], cwd=elsewhere, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert not [p for p in json.loads(result.stdout)["problems"] if p["severity"] == "error"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    assert run_examples(bin_dir, elsewhere / "examples", root, env) == []


@pytest.mark.slow
@pytest.mark.timeout(1800)  # installs and runs the README's examples, on a loaded machine
def test_the_packaging_test_passes_in_a_virtual_environment(tmp_path: Path) -> None:
    """The README's test command in a venv (`pip install -e '.[test]'`, then pytest): the test
    that installs iceditor into a further venv must find the dependencies of the venv running it."""
    python = inheriting_venv(tmp_path / "venv")
    subprocess.run([python, *PIP_INSTALL, "-e", str(REPO)], check=True, capture_output=True, cwd=tmp_path)
    test = "tests/test_packaging.py::test_plain_install_carries_the_data_and_runs_the_readme_examples_elsewhere"
    result = subprocess.run(
        [python, "-m", "pytest", "-q", "-m", "slow", test],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "1 passed" in result.stdout


def test_the_quick_start_is_two_commands_installing_then_validating_and_testing() -> None:
    install, test = quick_start()
    assert install.startswith("python3 -m pip install -e . && ") and install.endswith("iceditor validate")
    assert test.startswith("python3 -m pip install -e '.[test]' && ") and test.endswith("python3 -m pytest -q")


@pytest.mark.slow  # a second pytest collects three large test files
def test_every_test_quoting_the_rulebook_reads_iceditor_rulebook(tmp_path: Path) -> None:
    """On a fresh machine there is no ../shared beside the clone: ICEDITOR_RULEBOOK names the
    transcription for all of them (a test reading a path of its own would pass here instead)."""
    missing = tmp_path / "no-rulebook.txt"
    files = ["tests/test_counters_data.py", "tests/test_tables_data.py", "tests/test_scenario_files.py"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-k", "rulebook", *files],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "ICEDITOR_RULEBOOK": str(missing)},
    )
    assert result.returncode == 0, result.stdout[-2000:]
    skipped = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all(f"not found at {missing}" in line for line in skipped)
    assert re.search(r"^11 skipped", result.stdout, re.MULTILINE) and "passed" not in result.stdout
