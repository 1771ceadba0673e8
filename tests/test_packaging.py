"""The bundled data is found by the installed package: editable, and from a wheel in a fresh venv."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from engine.resources import DATA_DIRS, data_root

REPO = Path(__file__).resolve().parent.parent


def test_checkout_reads_the_data_at_the_repository_top() -> None:
    assert data_root() == REPO
    for name in DATA_DIRS:
        assert (data_root() / name).is_dir()


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_carries_the_data(tmp_path: Path) -> None:
    """Build the wheel, install it alone into a new virtual environment, validate from elsewhere.

    The venv sees the already-installed dependencies (PySide6 is large) but not this checkout:
    iceditor itself comes from the wheel, and the test proves its data comes from the wheel too.
    """
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(REPO)],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("iceditor-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = "import engine.resources as r, json; print(json.dumps(str(r.data_root())))"
    where = subprocess.run([python, "-c", probe], cwd=elsewhere, check=True, capture_output=True, text=True)
    root = Path(json.loads(where.stdout))
    assert root.is_relative_to(env_dir), root
    for name in DATA_DIRS:
        assert (root / name).is_dir()
    result = subprocess.run(
        [env_dir / "bin" / "iceditor", "validate", "--format", "json"], cwd=elsewhere, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    problems = json.loads(result.stdout)["problems"]
    assert not [p for p in problems if p["severity"] == "error"]
