"""The engine stays headless and the code stays honest: import contract, ruff, mypy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True)


def test_engine_never_imports_qt() -> None:
    """House style: engine/ is pure Python, usable headless (import-linter 'forbidden' contract)."""
    if shutil.which("lint-imports") is None:
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    result = _run("lint-imports")
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_imports_without_qt_installed() -> None:
    probe = (
        "import sys; sys.modules['PySide6'] = None; sys.modules['shiboken6'] = None\n"
        "import engine.validate.runner, engine.geometry.zones, engine.model.scenario\n"
    )
    result = _run(sys.executable, "-c", probe)
    assert result.returncode == 0, result.stderr


def test_ruff() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "engine", "iceditor", "tests")
    assert result.returncode == 0, result.stdout


@pytest.mark.slow
def test_mypy_strict_on_engine() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout
