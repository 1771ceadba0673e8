"""Shared fixtures: small hand-built maps written to temporary files."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if "ICEDITOR_CACHE_DIR" not in os.environ:
    # The suite keeps its line tables (engine/geometry/table_cache.py) in a folder of its own, never
    # the user's; the workers of `-n auto` inherit it from the controller, which removes it at the end.
    os.environ["ICEDITOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="iceditor-test-cache-")
    atexit.register(shutil.rmtree, os.environ["ICEDITOR_CACHE_DIR"], True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): a worker a core for the whole suite; none for the files or
    tests named on the command line, where starting the workers would cost more than they save."""
    return (os.cpu_count() or 1) if config.args_source is pytest.Config.ArgsSource.TESTPATHS else 0


@pytest.fixture(autouse=True, scope="session")
def _data_folders_of_the_test_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The editor's autosaves and settings (Qt's AppDataLocation: XDG folders on Linux) go to
    folders of this test run, never the user's, and no two test processes share them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config-home")))
        yield


# Hypothesis, bounded (tests/properties.py): no deadline (a loaded machine is slow, not wrong);
# 25 examples a property in `pytest -q`, forty times as many with HYPOTHESIS_PROFILE=long.
settings.register_profile("ci", deadline=None, max_examples=25)
settings.register_profile("long", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The map document of the format spec (docs/formats.md), verbatim.
SPEC_MAP = """\
format: iron-cross-map/1
name: Test map
grid: {columns: [10, 14], rows: [1, 9], offset: even-q}   # inclusive ranges
hexes:                        # hexes not listed are Clear, level 0
  "1203": {trees: 2}          # number of Tree symbols (one Tree alone is not a tree hex)
  "1204": {level: 1, hill: K} # hill level 0/1/2 and the hill's name
  "1205": {building: 1}       # part of Building 1; hexes sharing an id form one multi-hex building
  "1206": {marsh: true}
  "1207": {gully: true}
roads:                        # each road is a chain of adjacent hexes joined along hexsides
  - ["1001", "1101", "1202"]
"""


@pytest.fixture
def write(tmp_path: Path):
    """Write text to a file in a temporary folder and return its path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write


REPO = Path(__file__).resolve().parents[1]
# The rulebook transcription is not part of the repository: ICEDITOR_RULEBOOK names it, else ../shared beside the clone.
RULEBOOK = Path(os.environ.get("ICEDITOR_RULEBOOK") or REPO.parent / "shared" / "rules" / "iron-cross-rulebook.txt")


@pytest.fixture(scope="session")
def rulebook() -> str:
    """The rulebook's text; a test quoting it skips, naming the path and ICEDITOR_RULEBOOK, where there is none."""
    if not RULEBOOK.is_file():
        pytest.skip(f"rulebook transcription not found at {RULEBOOK} (set ICEDITOR_RULEBOOK to its path)")
    return RULEBOOK.read_text(encoding="utf-8")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """Copies of the bundled maps and scenarios in tmp_path: tests never write into the repository."""
    shutil.copytree(REPO / "maps", tmp_path / "maps")
    shutil.copytree(REPO / "scenarios", tmp_path / "scenarios")
    return tmp_path
