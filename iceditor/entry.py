"""The `iceditor` command's entry point: `iceditor odds ap|at` answers without loading the maps,
the geometry and the editor (its exact odds need none of them); every other command is cli.main.
Whatever a command prints is escaped (engine/terminal_text.py): a name a file holds never reaches
the terminal as a control or bidi character."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from engine.terminal_text import terminal_output

    args = list(sys.argv[1:] if argv is None else argv)
    with terminal_output():
        if args[:1] == ["odds"] and args[1:2] in (["ap"], ["at"]):
            return _odds(args)
        from .cli import main as full

        return full(args)


def _odds(argv: list[str]) -> int:
    from . import cli_odds
    from .output import BadInput

    parser = argparse.ArgumentParser(prog="iceditor")
    cli_odds.add_parsers(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)  # a wrong command line: argparse says why and exits 2
    try:
        code = cli_odds.run(args)
    except BadInput as exc:
        print(exc, file=sys.stderr)
        return 2
    return int(code or 0)
