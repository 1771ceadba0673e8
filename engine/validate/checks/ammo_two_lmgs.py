"""A squad that fields two LMGs says whether its ammo number is one pool or each LMG's (24.1, 22.1).

24.1 gives a squad's number to "that squad's LMG"; Scenario 6 prints "Squad E (20 each)" where
each LMG has the number, and "Squad A (18)" where it does not say so. Ruling R81 reads a number
without "each" as one pool both LMGs fire from; format 2 makes the file say which.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import fielded_squad
from engine.model.scenario import SquadAmmo, UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="ammo-pool-or-each",
    rule="24.1, 22.1",
    severity=Severity.ERROR,
    summary="A squad that fields two LMGs gives a bare ammo number, or a squad with one LMG says pool or each.",
    fix='Write `ammo: {pool: N}` for "Squad A (9)" (one number for both LMGs) or `ammo: {each: N}` for '
    '"Squad E (20 each)"; a one-LMG squad takes a bare number. A format 1 file: `iceditor migrate FILE`.',
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    for ref in ctx.scenario.units:
        if ref.kind == "squad" and "ammo" in ref.data:
            yield from _squad(ctx, ref)


def _squad(ctx: ScenarioContext, ref: UnitRef) -> Iterator[Problem]:
    fielded = fielded_squad(ctx.counters, ref.side, ref.type, ref.data)
    if fielded is None:
        return  # unknown-unit or squad-clause reports it
    lmgs = sum(1 for m in fielded if m.weapon == "LMG")
    ammo = SquadAmmo.of(ref.data["ammo"])
    name = f"{ref.side.capitalize()} Squad {ref.type}"
    where = (*ref.path, "ammo")
    if lmgs >= 2 and ammo.split is None:
        if ctx.scenario.format_version < 2:
            yield CHECK.problem(
                ctx.doc,
                where,
                f"{name} fields {lmgs} LMGs and a bare ammo number ({ammo.points}): format 1 gives each LMG "
                f"{ammo.points}; `iceditor migrate` makes the file say pool or each (R81)",
                severity=Severity.INFO,
            )
        else:
            yield CHECK.problem(
                ctx.doc,
                where,
                f"{name} fields {lmgs} LMGs: say whether {ammo.points} is one pool (`{{pool: {ammo.points}}}`) "
                f"or each LMG's (`{{each: {ammo.points}}}`)",
            )
    elif lmgs == 1 and ammo.split is not None:
        yield CHECK.problem(
            ctx.doc,
            where,
            f"{name} fields one LMG: its ammo ({ammo.describe()}) is that LMG's; write `ammo: {ammo.points}`",
            severity=Severity.WARNING,
        )
