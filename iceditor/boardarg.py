"""The MAP argument of the geometry commands, loaded: a map file, or a scenario (its maps, with its
errata); a SCENARIO argument loaded with its board; and a hex of either (iceditor/file_args.py names
them on the command line)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.hexgrid import Hex, LabelError
from engine.model.board import Board, assemble
from engine.model.load_errors import LOAD_FAILURES, load_failure
from engine.model.mapsheet import load_map
from engine.model.scenario import Scenario, scenario_from_document
from engine.model.schema import schema_name
from engine.model.source import SourceDocument, load_yaml

from .output import BadInput

__all__ = ["BadInput"]  # where the commands have always imported it from


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Turn the ways a file can fail to load into BadInput naming the file."""
    try:
        yield
    except LOAD_FAILURES as exc:
        raise BadInput(load_failure(path, exc)) from None


def load_board_arg(path: Path) -> Board:
    """A map file gives that map alone (no errata); a scenario gives its maps with its errata."""
    with _reading(path):
        doc = load_yaml(path)
        kind = schema_name(doc)
        if kind == "scenario":
            return scenario_from_document(doc).load_board()
        if kind != "map":  # not a file of ours: say so without quoting it (it may be /etc/passwd)
            raise BadInput(
                f"{path}: error: not a map or scenario file (its first key is not format: "
                "iron-cross-map/1 or iron-cross-scenario/2)"
            )
        return assemble([load_map(path)])


def load_scenario_arg(path: Path) -> tuple[Scenario, Board]:
    """A scenario file and its board (its maps, with its errata); BadInput for any other file."""
    with _reading(path):
        doc = load_yaml(path)
        if schema_name(doc) != "scenario":
            raise BadInput(not_a_scenario(path, doc))
        scenario = scenario_from_document(doc)
        return scenario, scenario.load_board()


def not_a_scenario(path: Path, doc: SourceDocument) -> str:
    """What a command that wants a scenario says of another file (a map: that it is one), never
    quoting it: a file that is not ours may be /etc/passwd."""
    what = "a map file, not a scenario file" if schema_name(doc) == "map" else "not a scenario file"
    return (
        f"{path}: error: {what}: this command wants a scenario (its first key is format: iron-cross-scenario/2 or /1)"
    )


def scenario_inputs(scenario: Scenario, board: Board) -> list[Path]:
    """The files a scenario's game reads: the scenario, its maps and its errata (none is written over)."""
    files = [scenario.file, *(sheet.file for sheet in board.maps)]
    if board.errata is not None:
        files.append(board.errata.file)
    return [Path(f) for f in files if f != "<memory>"]


def hex_arg(board: Board, label: str, path: Path) -> Hex:
    """A hex label given on the command line, on the board or BadInput naming it."""
    try:
        return board.hex(label)
    except LabelError as exc:
        raise BadInput(f"{path}: error: {exc}") from None
