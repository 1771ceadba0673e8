"""What the commands print for programs to read."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(data: Any) -> None:
    """One JSON document on standard output, indented, ending with a newline."""
    json.dump(data, sys.stdout, indent=2)
    sys.stdout.write("\n")
