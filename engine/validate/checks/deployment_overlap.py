"""The two sides' deployment areas do not overlap (24.1).

24.1 gives each side "the area in which each player may deploy"; a hex in both areas lets the
side that sets up second stack into the first side's units or be refused a hex its instructions
promise. Printed scenarios never overlap; a designer's draft may, by a zone typed too wide.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import side_area

CHECK = Check(
    id="deployment-overlap",
    rule="24.1",
    severity=Severity.WARNING,
    summary="Hexes lie in both sides' deployment areas.",
    fix="Narrow one side's deployment zone so that the areas do not share hexes (or say why in a note).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    german, russian = side_area(ctx, "german"), side_area(ctx, "russian")
    if not german or not russian:
        return
    shared = sorted(board.label(h) for h in german & russian)
    if shared:
        shown = ", ".join(shared[:6]) + (" ..." if len(shared) > 6 else "")
        yield CHECK.problem(
            ctx.doc,
            ("sides", "russian", "deployment"),
            f"{len(shared)} hexes are in both the German and the Russian deployment areas ({shown})",
            hex=shared[0],
        )
