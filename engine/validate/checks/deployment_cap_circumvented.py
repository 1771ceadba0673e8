"""A deployment's cap (`limit:`) binds on every hex of its zone, and leaves the units it caps
somewhere to deploy (24.1, R83).

R83 counts a unit against a cap only where it stands in the capped zone and in none of its other
deployment zones: a capped hex that another deployment of the same units also covers takes any
number of them. "No more than one LMG ... may deploy on Hill P" with a second zone that includes
the hill lets the whole squad stand there; with no second zone, the second LMG has nowhere to go
and the engine's set-up could not go on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.hexgrid import Hex
from engine.model.counters import fielded_members
from engine.model.setup_limits import Capped, cap_excess
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import deployment_zones, names_ref, zone_hexes

CHECK = Check(
    id="deployment-cap-circumvented",
    rule="24.1, R83",
    severity=Severity.WARNING,
    summary="Another deployment zone of the units a `limit:` caps covers hexes of the capped zone: "
    "there the cap does not count them.",
    fix="Take the capped zone's hexes out of the units' other deployment zones (`minus:`), "
    "or say in a note why the cap holds only on the rest.",
)
STRANDED = Check(
    id="deployment-cap-stranded",
    rule="24.1, R83",
    severity=Severity.ERROR,
    summary="A `limit:` caps units that have no other deployment zone at fewer than there are: "
    "the rest have nowhere to deploy.",
    fix="Give the capped units a second deployment (the rest deploy there), or raise the limit.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    if ctx.board is None:
        return
    for side in ("german", "russian"):
        for i, item in enumerate(ctx.scenario.data["sides"][side].get("deployment") or []):
            if item.get("limit"):
                yield from _covered(ctx, side, item, ("sides", side, "deployment", i))
                yield from _stranded(ctx, side, item, ("sides", side, "deployment", i))


def _covered(ctx: ScenarioContext, side: str, item: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    assert ctx.board is not None
    capped = zone_hexes(ctx, item["zone"], (*path, "zone"))
    if not capped:
        return  # zone-empty reports it
    covered: set[Hex] = set()
    others: set[str] = set()
    for ref in ctx.scenario.units:
        if ref.side != side or not names_ref(ctx.scenario, item, ref, ctx.counters):
            continue
        for zone, where in deployment_zones(ctx.scenario, ref, ctx.counters):
            area = zone_hexes(ctx, zone, where) if where != (*path, "zone") else None
            if area and capped & area:
                covered |= capped & area
                others.add(zone if isinstance(zone, str) else "another deployment's zone")
    if covered:
        labels = sorted(ctx.board.label(h) for h in covered)
        shown = ", ".join(labels[:6]) + (" ..." if len(labels) > 6 else "")
        name = item["zone"] if isinstance(item["zone"], str) else "the capped zone"
        whole = "all" if covered == capped else f"{len(covered)} of the {len(capped)}"
        yield CHECK.problem(
            ctx.doc,
            (*path, "limit"),
            f"{whole} hexes of {name} ({shown}) are also in {', '.join(sorted(others))}, where the units "
            "it caps deploy too: there its limit does not count them",
            hex=labels[0],
        )


def _stranded(ctx: ScenarioContext, side: str, item: dict[str, Any], path: JsonPath) -> Iterator[Problem]:
    """The units the cap names whose only deployment is this one, counted as the cap counts them."""
    only_here = [
        ref
        for ref in ctx.scenario.units
        if ref.side == side
        and names_ref(ctx.scenario, item, ref, ctx.counters)
        and [where for _, where in deployment_zones(ctx.scenario, ref, ctx.counters)] == [(*path, "zone")]
    ]
    counted = []
    for ref in only_here:
        members = fielded_members(ref.data, ctx.counters.squad(side, ref.type) or [])[0] if ref.kind == "squad" else []
        counted += [Capped("squad", ref.type, m.weapon) for m in members] or [Capped(ref.kind, ref.type)]
    name = item["zone"] if isinstance(item["zone"], str) else "the capped zone"
    for excess in cap_excess(item["limit"], counted):
        yield STRANDED.problem(
            ctx.doc,
            (*path, "limit"),
            f"{excess.what} may deploy only in {name}, whose limit allows {excess.most}: the rest have nowhere "
            "to deploy",
        )
