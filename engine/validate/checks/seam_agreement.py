"""Maps that share a seam column describe its hexes alike (2.1: Maps 1/2 share 30xx, 2/3 share 50xx)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="seam-conflict",
    rule="2.1",
    severity=Severity.ERROR,
    summary="Two maps describe a shared seam hex differently.",
    fix="Make the seam hex identical in both map files (the first map's description is used).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    for conflict in board.seam_conflicts:
        label = board.label(conflict.hex)
        yield CHECK.problem(
            conflict.other.doc,
            ("hexes", label),
            f"seam hex {label} differs from {conflict.kept.name} ({conflict.kept.file}); "
            f"{conflict.kept.name}'s is used",
            hex=label,
        )
