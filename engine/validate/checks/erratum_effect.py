"""Every erratum names hexes of the mapsheet and changes something there."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.hexgrid import parse_label
from engine.model.board import assemble
from engine.model.errata import Errata
from engine.model.mapsheet import MapSheet
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="erratum-no-effect",
    rule="Terrain Clarifications and Errata",
    severity=Severity.WARNING,
    summary="An erratum names a hex on none of the maps, or changes nothing on the printed maps.",
    fix="Correct the hex label, or drop the change if the map already shows the corrected terrain.",
)


def check_errata(errata: Errata, maps: Sequence[MapSheet]) -> Iterator[Problem]:
    """Applied to all the maps at once: a change must land on a hex and alter it."""
    if not maps:
        return  # none of the maps beside the errata loads: validating each map says why
    try:
        board = assemble(list(maps))
    except ValueError as exc:  # maps with different offsets
        yield CHECK.problem(errata.doc, (), f"the maps beside the errata cannot be checked together: {exc}")
        return
    for change in errata.changes:
        for i, label in enumerate(change.hexes):
            path = ("changes", change.index, "hexes", i)
            h = parse_label(label, board.offset)
            if h not in board.hexes:
                yield CHECK.problem(errata.doc, path, f"hex {label} is on none of the maps", hex=label)
            elif board.terrain(h).changed(change.values) == board.terrain(h):
                yield CHECK.problem(errata.doc, path, f"erratum changes nothing in hex {label}", hex=label)
