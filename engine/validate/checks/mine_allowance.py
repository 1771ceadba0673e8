"""A side's AT mine factors can be placed (19.12).

19.12: "A hex mined with AT factors must have AT LEAST two factors in the hex": a side given one
AT factor (its own and its groups' together, as the engine's set-up counts them) has no hex it may
place it in. The engine would offer no `mine at` and the factor would never be laid; a scenario
with this error is not played.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.setup_limits import setup_limits
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="mine-allowance",
    rule="19.12",
    severity=Severity.ERROR,
    summary="A side is given fewer AT mine factors than the two a hex mined with AT factors needs.",
    fix="Give the side at least two AT factors, or none (record a misprint as a `correction:`).",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    least = setup_limits().min_at_factors
    for side, data in ctx.scenario.data["sides"].items():
        holders = [(data, ("sides", side))] + [
            (group, ("sides", side, "groups", i)) for i, group in enumerate(data["groups"])
        ]
        given = [(holder["mines"], (*path, "mines")) for holder, path in holders if holder.get("mines")]
        total = sum(int(mines.get("at_factors", 0)) for mines, _ in given)
        if 0 < total < least:
            where = next(path for mines, path in given if mines.get("at_factors"))
            yield CHECK.problem(
                ctx.doc,
                (*where, "at_factors"),
                f"{side.capitalize()} mines: {total} AT factor{'s' if total != 1 else ''}, but a hex mined with "
                f"AT factors must have at least {least}: {'it' if total == 1 else 'they'} could never be placed",
            )
