"""Improved positions of a test set-up: where they may go (18.1) and how many (24.1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.setup import SideSetup, side_setups
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex, group_area, may_stand, side_area, union, zone_hexes

PLACEMENT = Check(
    id="setup-ip-placement",
    rule="18.1",
    severity=Severity.ERROR,
    summary="An IP is in a hex infantry and CW units cannot occupy, or outside the zone the scenario gives it.",
    fix='Place it in a hex open to infantry and CWs, inside the IP\'s `zone` ("IP3 x 1 on any building hex").',
)
OUTSIDE = Check(
    id="setup-ip-outside-deployment",
    rule="18.1",
    severity=Severity.WARNING,
    summary="An IP is outside the deployment area of the side (or group) that receives it.",
    fix="Place it where the side's infantry and CWs set up (R55 in docs/rulings.md: an IP is placed with the set-up).",
)
COUNT = Check(
    id="setup-ip-count",
    rule="24.1",
    severity=Severity.ERROR,
    summary="The set-up places more or fewer IPs of a points value than the scenario gives the side.",
    fix="Place exactly the IPs of the scenario's list (IPn x c: c markers of n points), its groups' included.",
)


@dataclass(frozen=True)
class Allowance:
    """One `IPn x c` of the scenario, with where it may go."""

    points: int
    count: int
    zone: frozenset[Hex] | None  # None: anywhere (or a zone that does not resolve)
    owner_area: frozenset[Hex] | None  # the receiving side's or group's deployment area


def allowances(ctx: ScenarioContext, side: str) -> list[Allowance]:
    """The side's IPs and its groups' (Scenario 6 gives IPs per group)."""
    data = ctx.scenario.data["sides"][side]
    found: list[tuple[dict[str, Any], JsonPath, frozenset[Hex] | None]] = []
    area = side_area(ctx, side)
    for i, ip in enumerate(data.get("improved_positions") or []):
        found.append((ip, ("sides", side, "improved_positions", i), area))
    for g, group in enumerate(data["groups"]):
        area = group_area(ctx, side, group["name"])
        for i, ip in enumerate(group.get("improved_positions") or []):
            found.append((ip, ("sides", side, "groups", g, "improved_positions", i), area))
    return [
        Allowance(
            ip["points"],
            ip["count"],
            zone_hexes(ctx, ip["zone"], (*path, "zone")) if "zone" in ip else None,
            owner,
        )
        for ip, path, owner in found
    ]


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    for side in side_setups(ctx.scenario):
        given = allowances(ctx, side.side)
        yield from _placement(ctx, board, side, given)
        yield from _count(ctx, side, given)


def _placement(ctx: ScenarioContext, board: Board, side: SideSetup, given: list[Allowance]) -> Iterator[Problem]:
    for ip in side.improved_positions:
        h = board_hex(ctx, ip.hex)
        of_value = [a for a in given if a.points == ip.points]
        if h is None or not of_value:
            continue  # setup-hex-off-map; setup-ip-count
        what, path = f"{side.side.capitalize()} IP{ip.points} in {ip.hex}", (*ip.path, "hex")
        if not any(may_stand(board, h, afv=False, state=state) for state in ("up", "down")):
            yield PLACEMENT.problem(
                ctx.doc, path, f"{what}: infantry and CW units cannot occupy the hex (chart: P)", hex=ip.hex
            )
        zones = [a.zone for a in of_value if a.zone is not None]
        if len(zones) == len(of_value) and h not in frozenset().union(*zones):
            yield PLACEMENT.problem(
                ctx.doc, path, f"{what} is outside the zone the scenario gives its IP{ip.points}s", hex=ip.hex
            )
        area = union(a.owner_area for a in of_value)
        if area is not None and h not in area:
            yield OUTSIDE.problem(ctx.doc, path, f"{what} is outside the side's deployment area", hex=ip.hex)


def _count(ctx: ScenarioContext, side: SideSetup, given: list[Allowance]) -> Iterator[Problem]:
    allowed: Counter[int] = Counter()
    for a in given:
        allowed[a.points] += a.count
    placed = Counter(ip.points for ip in side.improved_positions)
    name = side.side.capitalize()
    for points in sorted(set(allowed) | set(placed)):
        if placed[points] == allowed[points]:
            continue
        message = f"{placed[points]} {name} IP{points} placed, the scenario gives {allowed[points]}"
        if placed[points] > allowed[points]:
            surplus = [ip for ip in side.improved_positions if ip.points == points][allowed[points]]
            yield COUNT.problem(ctx.doc, surplus.path, message, hex=surplus.hex)
        else:
            where = (*side.path, "improved_positions") if side.improved_positions else side.path
            short = Severity.INFO if side.partial else None  # R230: a set-up being built
            yield COUNT.problem(ctx.doc, where, message + (" (partial set-up)" if short else ""), severity=short)
