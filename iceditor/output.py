"""What the commands print: JSON for programs, aligned tables, and the two forms of a complaint.

A complaint names what it is about first, as compilers and argparse do: a file
(`FILE: error: ...`, or `FILE:LINE:COL: error: ...` for a place in it) or the command line
(`iceditor COMMAND: error: ...`, as argparse words its own).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


class BadInput(Exception):
    """Input the command cannot work on; the message names the file or hex (exit code 2)."""


def command_error(command: str, message: str) -> str:
    """A complaint about the command line: `iceditor COMMAND: error: message`."""
    return f"iceditor {command}: error: {message}"


def file_error(path: object, message: str) -> str:
    """A complaint about a file as a whole: `FILE: error: message`."""
    return f"{path}: error: {message}"


def print_table(rows: Sequence[Sequence[str]]) -> None:
    """Rows as aligned columns, each as wide as its widest cell; the last column runs free."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for row in rows:
        print("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]]).rstrip())


def print_json(data: Any) -> None:
    """One JSON document on standard output, indented, ending with a newline."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
