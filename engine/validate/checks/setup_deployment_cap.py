"""A deployment with a cap (`limit:`) holds no more than the cap in its zone (24.1).

"No more than one LMG and any two Rifle units from Squad D may deploy on Hill P": the units the
deployment names deploy there up to its limit, the rest by their other deployments. A placed unit
counts against the cap when it stands in the capped zone and in none of its other deployment zones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.setup import side_setups
from engine.model.setup_limits import Capped, cap_excess
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import Placed, board_hex, deployment_zones, names_ref, place, zone_hexes

CHECK = Check(
    id="setup-deployment-cap",
    rule="24.1",
    severity=Severity.ERROR,
    summary="The test set-up places more units in a capped deployment zone than its `limit:` allows.",
    fix="Move the extra units to the group's other deployment area.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    if ctx.board is None:
        return
    for side in side_setups(ctx.scenario):
        placed = place(ctx.scenario, ctx.counters, side.side, side.units).placed
        for i, item in enumerate(ctx.scenario.data["sides"][side.side].get("deployment") or []):
            if item.get("limit"):
                yield from _capped(ctx, placed, item, ("sides", side.side, "deployment", i))


def _capped(ctx: ScenarioContext, placed: list[Placed], item: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    capped = zone_hexes(ctx, item["zone"], (*path, "zone"))
    if capped is None:
        return  # zone-empty reports it
    inside = []
    for p in placed:
        h = board_hex(ctx, p.placement.hex)
        if h is None or h not in capped or not names_ref(ctx.scenario, item, p.ref, ctx.counters):
            continue
        others = [
            zone_hexes(ctx, zone, where)
            for zone, where in deployment_zones(ctx.scenario, p.ref, ctx.counters)
            if where != (*path, "zone")
        ]
        if not any(area is not None and h in area for area in others):
            inside.append(p)
    counted = [(n, c) for n, p in enumerate(inside) for c in _counted(p)]  # as the engine's set-up (R83)
    name = item["zone"] if isinstance(item["zone"], str) else "this deployment's zone"
    for excess in cap_excess(item["limit"], [c for _, c in counted]):
        found = [inside[n] for n in sorted({counted[i][0] for i in excess.counted})]
        yield _over(ctx, path, found, excess.what, excess.most, name)


def _counted(p: Placed) -> list[Capped]:
    """Units as counters: each squad member placed is one (2.2)."""
    if p.ref.kind == "squad" and p.members:
        return [Capped("squad", p.ref.type, m.weapon) for m in p.members]
    return [Capped(p.ref.kind, p.ref.type)]


def _over(ctx: ScenarioContext, path: JsonPath, found: list[Placed], what: str, most: int, zone: str) -> Problem:
    first = found[-1].placement
    hexes = ", ".join(dict.fromkeys(p.placement.hex for p in found))
    return CHECK.problem(
        ctx.doc,
        first.path,
        f"{what} deploy in {zone} ({hexes}): its limit allows {most}",
        hex=first.hex,
    )
