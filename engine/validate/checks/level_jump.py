"""A Level 2 Hill hex next to a level 0 hex: a climb the rules price only one level at a time."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.board import assemble
from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="level-jump",
    rule="8.53",
    severity=Severity.WARNING,
    summary="A level 2 hex shares a hexside with a level 0 hex.",
    fix="Check the levels against the map: hills usually step up through level 1; if the map really shows the "
    "cliff, keep it (ruling R36 prices the climb).",
)


def check_map(sheet: MapSheet) -> Iterator[Problem]:
    """8.53 and chart notes e, f price a climb from a non-Hill hex to Level 1 and from Level 1 to Level 2,
    never from level 0 to Level 2 at once; a hex holding two levels counts as the lower (10.34)."""
    board = assemble([sheet])
    for h, terrain in sorted(sheet.terrain.items()):
        if terrain.level != 2:
            continue
        low = sorted(board.label(n) for n in board.neighbours(h) if board.terrain(n).level == 0)
        if low:
            label = sheet.label(h)
            yield CHECK.problem(
                sheet.doc,
                ("hexes", label, "level"),
                f"level 2 hex {label} is next to level 0 hex{'es' if len(low) > 1 else ''} {', '.join(low)}: "
                "8.53 and chart notes e, f price a climb of one level at a time (non-Hill to Level 1, "
                "Level 1 to Level 2), not two",
                hex=label,
            )
