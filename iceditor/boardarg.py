"""The MAP argument of the geometry commands: a map file, or a scenario (its maps, with its errata)."""

from __future__ import annotations

from pathlib import Path

from engine.hexgrid import Hex, LabelError
from engine.model.board import Board, assemble
from engine.model.mapsheet import LoadError, load_map
from engine.model.scenario import scenario_from_document
from engine.model.schema import schema_name
from engine.model.source import SourceError, load_yaml


class BadInput(Exception):
    """Input the command cannot work on; the message names the file or hex (exit code 2)."""


def load_board_arg(path: Path) -> Board:
    """A map file gives that map alone (no errata); a scenario gives its maps with its errata."""
    try:
        doc = load_yaml(path)
        if schema_name(doc) == "scenario":
            return scenario_from_document(doc).load_board()
        return assemble([load_map(path)])
    except SourceError as exc:
        raise BadInput(f"{exc.file}:{exc.line}:{exc.column}: error: {exc.message}") from None
    except LoadError as exc:
        raise BadInput("\n".join(p.text() for p in exc.problems)) from None
    except (FileNotFoundError, ValueError) as exc:
        raise BadInput(f"{path}: error: {exc}") from None


def hex_arg(board: Board, label: str, path: Path) -> Hex:
    """A hex label given on the command line, on the board or BadInput naming it."""
    try:
        return board.hex(label)
    except LabelError as exc:
        raise BadInput(f"{path}: error: {exc}") from None
