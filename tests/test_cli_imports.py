"""Issue 22: `iceditor --help` and `validate` load only what they use. The command line names one
command, and only that command's module is imported (iceditor/cli.py, COMMANDS), so the help
loads no engine beyond the file arguments, and validation no Qt, Dask or game engine. The editor
shows a scenario without the game engine: the playtest, the LOS tool's odds and the balance test
import it when first used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from iceditor.cli import COMMANDS, main, parse

HEAVY = (
    "importlib.metadata",  # the version, looked up by --version alone
    "PySide6",
    "dask",
    "distributed",
    "matplotlib",
    "numpy",
    "shapely",
    "jsonschema",
    "engine.game",
    "engine.players",
)


def _loaded_by(argv: list[str]) -> list[str]:
    code = (
        "import contextlib, io, json, sys\n"
        "from iceditor.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({HEAVY!r}))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_help_loads_no_engine_qt_or_dask() -> None:
    assert _loaded_by(["--help"]) == []


def test_validate_loads_no_qt_dask_or_game_engine() -> None:
    loaded = _loaded_by(["validate", "s1"])
    assert not [m for m in loaded if m.startswith(("PySide6", "dask", "distributed", "engine.game", "engine.players"))]


def test_help_lists_every_command_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("    ") and line[4] != " "]
    assert listed == list(COMMANDS)
    assert "the cheapest path in MPs between two hexes" in out


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_parses_whole_when_named(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each command named is built by its own module: its --help is its own, not a stub's."""
    with pytest.raises(SystemExit) as done:
        parse([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: iceditor {name} ")
    assert "--allow-dir" in out


def test_an_unknown_command_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nosuch'" in err and "'playtest'" in err


def test_the_editor_shows_a_scenario_without_the_game_engine() -> None:
    """Issue 22 (open Scenario 6 under 1.5 s): the window imports the game engine and its players
    only when play is asked for (here: F5's play mode, built at its first use)."""
    code = (
        "import json, sys\n"
        "from iceditor.cli_editor import default_file\n"
        "from iceditor.editor.app import application, load\n"
        "from iceditor.editor.window import MainWindow\n"
        "app = application()\n"
        "window = MainWindow(load(default_file()))\n"
        "window.show()\n"
        "app.processEvents()\n"
        "shown = sorted(m for m in sys.modules if m.startswith(('engine.game', 'engine.players')))\n"
        "window.play_menu.mode\n"
        "print(json.dumps([shown, 'engine.game' in sys.modules]))\n"
    )
    shown, after_play = _printed_offscreen(code)
    assert shown == []
    assert after_play


def test_a_launch_shows_the_window_before_numpy_and_shapely_are_imported() -> None:
    """Issue 22 (`iceditor edit` under 1.5 s): what the window first shows needs neither (65 ms of
    imports on this machine); the validation that follows it, the LOS tool's kernel, the viewshed
    overlay and the errata's impact import them when they first run."""
    code = (
        "import json, sys\n"
        "from engine.resources import given_or_bundled\n"
        "from iceditor.editor.app import application, load\n"
        "from iceditor.editor.window import MainWindow\n"
        "app = application()\n"
        "window = MainWindow(load(given_or_bundled('s6')), validate=False)\n"
        "window.show()\n"
        "app.processEvents()\n"
        "shown = sorted(m for m in sys.modules if m.startswith(('numpy', 'shapely')))\n"
        "window.refresh_problems()\n"
        "print(json.dumps([shown, 'numpy' in sys.modules]))\n"
    )
    shown, validated = _printed_offscreen(code)
    assert shown == []
    assert validated


def _printed_offscreen(code: str) -> Any:
    """What `code` prints last (JSON), run in a new process with Qt offscreen."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return json.loads(done.stdout.splitlines()[-1])
