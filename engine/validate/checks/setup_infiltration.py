"""Russian infiltration in a test set-up: allowed by the scenario (24.3), into a hex within its
restrictions and free of on-map Germans (24.32), by one squad and at most one commander (24.31)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.counters import SIDES
from engine.model.setup import Infiltration, SideSetup, side_setups
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex, describe_key, key_of, names, place, zone_hexes

NOT_ALLOWED = Check(
    id="setup-infiltration-not-allowed",
    rule="24.3",
    severity=Severity.ERROR,
    summary="The set-up infiltrates a side the scenario gives no infiltration option.",
    fix="'Infiltration may only be used if the option is present in the scenario instructions': drop it.",
)
HEX = Check(
    id="setup-infiltration-hex",
    rule="24.32",
    severity=Severity.ERROR,
    summary="The Infiltration Hex is outside the scenario's infiltration restrictions, or holds an on-map enemy unit.",
    fix="Pick a hex of the scenario's infiltration zone not occupied by an on-map enemy unit (a hidden one may be).",
)
UNITS = Check(
    id="setup-infiltration-units",
    rule="24.31",
    severity=Severity.ERROR,
    summary="Infiltrating units other than one squad plus at most one commander, or a unit the side does not field.",
    fix="Designate ONE squad and, if wished, one commander; CW and AFV units may not infiltrate.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    setups = {side.side: side for side in side_setups(ctx.scenario)}
    for side in setups.values():
        infiltration = side.infiltration
        if infiltration is None:
            continue
        allowed = ctx.scenario.data.get("infiltration")
        if allowed is None or allowed["side"] != side.side:
            yield NOT_ALLOWED.problem(
                ctx.doc, infiltration.path, f"the scenario gives the {side.side.capitalize()} side no infiltration"
            )
            continue
        enemy = setups.get(next(s for s in SIDES if s != side.side))
        yield from _hex(ctx, infiltration, allowed["zone"], enemy)
        yield from _units(ctx, side, infiltration)


def _hex(ctx: ScenarioContext, infiltration: Infiltration, zone: object, enemy: SideSetup | None) -> Iterator[Problem]:
    label, path = infiltration.hex, (*infiltration.path, "hex")
    h = board_hex(ctx, label)
    if h is None:
        return  # setup-hex-off-map
    area = zone_hexes(ctx, zone, ("infiltration", "zone"))
    if area is not None and h not in area:
        yield HEX.problem(
            ctx.doc, path, f"Infiltration Hex {label} is outside the scenario's infiltration zone", hex=label
        )
    if enemy is None:
        return
    hidden = {hidden.hex for hidden in enemy.hidden_hexes}
    on_map = [
        placed.placement
        for placed in place(ctx.scenario, ctx.counters, enemy.side, enemy.units).placed
        if placed.placement.hex == label and label not in hidden
    ]
    if on_map:
        yield HEX.problem(
            ctx.doc,
            path,
            f"Infiltration Hex {label} holds on-map {enemy.side.capitalize()} units "
            f"({', '.join(p.describe() for p in on_map)})",
            hex=label,
        )


def _units(ctx: ScenarioContext, side: SideSetup, infiltration: Infiltration) -> Iterator[Problem]:
    refs = [ref for ref in ctx.scenario.units if ref.side == side.side]
    seen = {"squad": 0, "commander": 0}
    name = side.side.capitalize()
    for entry, path in infiltration.units:
        key = key_of(entry)
        if not any(names(key, ref, ctx.counters) for ref in refs):
            yield UNITS.problem(ctx.doc, path, f"{name} side fields no {describe_key(key)}")
            continue
        kind = key[0]
        if kind not in seen:
            yield UNITS.problem(ctx.doc, path, f"{describe_key(key)} may not infiltrate: CW and AFV units may not")
            continue
        seen[kind] += 1
        if seen[kind] > 1:
            yield UNITS.problem(
                ctx.doc, path, f"a second {kind}, {describe_key(key)}: ONE squad plus one commander may infiltrate"
            )
    if not seen["squad"]:
        yield UNITS.problem(
            ctx.doc, (*infiltration.path, "units"), "no squad infiltrates: 24.31 designates ONE squad plus a commander"
        )
