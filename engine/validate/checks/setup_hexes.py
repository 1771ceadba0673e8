"""Every hex a test set-up names is on the scenario's maps."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.setup import side_setups
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex

CHECK = Check(
    id="setup-hex-off-map",
    rule="2.1",
    severity=Severity.ERROR,
    summary="A unit, IP, mine, hidden hex or Infiltration Hex of the set-up is not on the scenario's maps.",
    fix="Correct the label: the scenario's `maps:` decide which hexes exist.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    if ctx.board is None:
        return  # scenario-maps says why
    for side in side_setups(ctx.scenario):
        named: list[tuple[JsonPath, str]] = [((*p.path, "hex"), p.hex) for p in side.units]
        named += [((*ip.path, "hex"), ip.hex) for ip in side.improved_positions]
        named += [((*m.path, "hex"), m.hex) for m in side.mines]
        named += [(h.path, h.hex) for h in side.hidden_hexes]
        if side.infiltration is not None:
            named.append(((*side.infiltration.path, "hex"), side.infiltration.hex))
        for path, label in named:
            if board_hex(ctx, label) is None:
                yield CHECK.problem(ctx.doc, path, f"hex {label} is not on {ctx.board.describe()}", hex=label)
