"""Ammo points only where 24.1 puts them: a squad's number is its LMG's, a CW's is its own."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import fielded_squad
from engine.model.scenario import SquadAmmo, UnitRef
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="ammo-not-allowed",
    rule="24.1",
    severity=Severity.ERROR,
    summary="Ammo points on a commander, an AFV, a squad that fields no LMG, or a squad member other than an LMG "
    "or FT.",
    fix="Drop the number, or keep the LMG in the squad's less/only clause (the number belongs to it).",
)

# The squad members a scenario prints a number after: 24.1 ("that squad's LMG"), 24.7 ("FT PR9 (4)").
# Rifles and machine pistols never carry one (R50 in docs/rulings.md).
MEMBERS_WITH_AMMO = ("LMG", "FT")


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    """Every CW type may carry a number: 22.2 prices MG, ATR, mortar and ATG fire, and 2.23's CWs are
    those weapons."""
    for ref in ctx.scenario.units:
        if ref.kind in ("commander", "afv") and "ammo" in ref.data:
            what = "a commander" if ref.kind == "commander" else "an AFV"
            yield CHECK.problem(
                ctx.doc,
                (*ref.path, "ammo"),
                f"{ref.side.capitalize()} {ref.describe()} has ammo points ({ref.data['ammo']}) but is {what}: "
                "only a squad's LMG and a CW have ammo points",
            )
        elif ref.kind == "squad":
            yield from _squad(ctx, ref)


def _squad(ctx: ScenarioContext, ref: UnitRef) -> Iterator[Problem]:
    fielded = fielded_squad(ctx.counters, ref.side, ref.type, ref.data)
    if fielded is None:
        return  # unknown-unit or squad-clause reports it
    name = f"{ref.side.capitalize()} Squad {ref.type}"
    if "ammo" in ref.data and not any(m.weapon == "LMG" for m in fielded):
        roster = ", ".join(m.describe() for m in fielded) or "no units"
        yield CHECK.problem(
            ctx.doc,
            (*ref.path, "ammo"),
            f"{name} has ammo points ({SquadAmmo.of(ref.data['ammo']).describe()}) but fields no LMG ({roster}): "
            "a squad's number is its LMG's ammo",
        )
    # With no failures, the i-th entry of an `only` clause keeps the i-th fielded member.
    for i, entry in enumerate(ref.data.get("only") or []):
        if isinstance(entry, dict) and "ammo" in entry and fielded[i].weapon not in MEMBERS_WITH_AMMO:
            yield CHECK.problem(
                ctx.doc,
                (*ref.path, "only", i, "ammo"),
                f"{name}'s {fielded[i].describe()} has ammo points ({entry['ammo']}): only an LMG or an FT "
                "carries its own",
                rule="24.1, 22.0",
            )
