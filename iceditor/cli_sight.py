"""`iceditor los` and `iceditor viewshed`: line of sight on a map or a scenario's maps (10.3)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parsers(commands: Any) -> None:
    """Register the los and viewshed commands (to be written)."""


def run(args: argparse.Namespace) -> int | None:
    return None
