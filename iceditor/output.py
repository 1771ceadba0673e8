"""What the commands print for programs to read."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


def print_table(rows: Sequence[Sequence[str]]) -> None:
    """Rows as aligned columns, each as wide as its widest cell; the last column runs free."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)] if rows else []
    for row in rows:
        print("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]]).rstrip())


def print_json(data: Any) -> None:
    """One JSON document on standard output, indented, ending with a newline."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
