"""`iceditor reach` and `iceditor path`: movement costs on a map or a scenario's maps (8.1, 8.5, 8.6)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parsers(commands: Any) -> None:
    """Register the reach and path commands (to be written)."""


def run(args: argparse.Namespace) -> int | None:
    return None
