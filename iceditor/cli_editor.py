"""`iceditor edit FILE`, and `iceditor` alone: open the editor (on Scenario 1 by default)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.resources import bundled_scenarios, shown_name

from .display import NO_DISPLAY, display_problem
from .file_args import file_arg


def add_parsers(commands: Any) -> None:
    edit = commands.add_parser(
        "edit",
        description="Open a scenario or map file in the editor window (with no FILE: Scenario 1).",
    )
    edit.add_argument("file", nargs="?", type=file_arg, metavar="FILE", help="a path, or a bundled name (s6, map2)")


def default_file() -> Path:
    return next(p for p in bundled_scenarios() if p.name.startswith("s1-"))


def run(args: argparse.Namespace) -> int | None:
    if args.command != "edit":
        return None
    path = args.file or default_file()
    why = display_problem()
    if why is not None:  # Qt would abort (exit 134) with its xcb message
        print(NO_DISPLAY.format(why=why, file=shown_name(path)), file=sys.stderr)
        return 2
    from iceditor.editor.app import run as run_editor  # Qt is loaded only for the editor

    return run_editor(path)
