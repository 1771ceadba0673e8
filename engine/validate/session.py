"""Validation that follows edits: what the editor runs after every brush stroke.

A session keeps each scenario check's problems. A check that never asked the context for
the board depends on the scenario file alone and is not run again after a terrain edit;
the others are, on a context whose zones, viewsheds, movement graphs and turn counts
follow the edit instead of being rebuilt (Board.set_terrain and its watchers).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.scenario import partial_scenario, scenario_from_document
from engine.model.schema import schema_problems
from engine.model.source import SourceDocument
from engine.model.terrain import Terrain
from engine.problems import Problem, count_errors

from .context import ScenarioContext
from .registry import runners

Runner = Callable[[ScenarioContext], Iterator[Any]]


class ValidationSession:
    def __init__(self, doc: SourceDocument, board: Board | None = None) -> None:
        """`board`: the scenario's maps as the editor holds them (default: loaded from the files).

        A half-made file (one that does not meet the schema yet: a new scenario, a skeleton) has
        its schema problems and no others, as `iceditor validate` gives them; its context holds
        what it states so far (`partial_scenario`)."""
        schema = list(schema_problems(doc, "scenario"))
        self.half_made = schema if count_errors(schema) else None
        scenario = partial_scenario(doc) if self.half_made else scenario_from_document(doc, checked=True)
        self.context = ScenarioContext(scenario, board_given=board)
        self._results: dict[Runner, tuple[list[Problem], bool]] = {}
        self.runs = 0  # checks run since the session began
        if self.context.board is not None:  # whoever edits the board, the checks that read it rerun
            self.context.board.watchers.append(self._terrain_changed)

    @property
    def board(self) -> Board | None:
        return self.context.board

    def problems(self) -> list[Problem]:
        """Every scenario problem, running only the checks whose answers may have changed."""
        if self.half_made is not None:
            return list(self.half_made)
        out: list[Problem] = []
        for check in runners("check_scenario"):
            if check not in self._results:
                self._run(check)
            out += self._results[check][0]
        return out

    def revalidate_one(self) -> bool:
        """Run one check whose answer may have changed; False when every answer is up to date.
        An editor runs them one at a time between other work, to stay responsive."""
        check = next((c for c in runners("check_scenario") if c not in self._results), None)
        if check is None or self.half_made is not None:
            return False
        self._run(check)
        return True

    def _run(self, check: Runner) -> None:
        self.context.used_board = False
        found = list(check(self.context))
        self._results[check] = (found, self.context.used_board)
        self.runs += 1

    def edit(self, changes: Mapping[Hex, Terrain]) -> None:
        """Paint terrain on the scenario's board; checks that read the board will run again."""
        board = self.context.board
        if board is None:
            raise ValueError("the scenario's maps could not be loaded: nothing to edit")
        board.set_terrain(changes)

    def close(self) -> None:
        """Stop following the board's edits (a new session replaces this one)."""
        board = self.context.__dict__.get("_board")
        if board is not None:
            board.watchers[:] = [
                w for w in board.watchers if w not in (self._terrain_changed, self.context._terrain_changed)
            ]

    def _terrain_changed(self, hexes: frozenset[Hex]) -> None:
        self._results = {check: result for check, result in self._results.items() if not result[1]}
