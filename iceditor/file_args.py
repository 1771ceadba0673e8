"""The file arguments of the commands: a path, or the name of a bundled file. Light on purpose:
`iceditor --help` and every command's parser import it, and nothing that loads a map (issue 22)."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.resources import given_or_bundled

MAP_HELP = "a map or scenario file, or a bundled name (map2, s1)"
SCENARIO_HELP = "a scenario file, or a bundled name (s1, s1-demyansk-pocket)"


def file_arg(text: str) -> Path:
    """An argparse `type` for a file the command reads: a path, or a bundled name such as `map2`,
    `s1` or `scenarios/s1-demyansk-pocket.yaml`, which work from any folder (`iceditor list`)."""
    path = given_or_bundled(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text}: no such file, nor a bundled name (`iceditor list` shows them)")
    return path
