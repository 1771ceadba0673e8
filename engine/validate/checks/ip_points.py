"""Improved positions are rated 1, 2 or 3 points (18.0): in a scenario's IP lists and in a test set-up."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.setup import side_setups
from engine.model.setup_limits import setup_limits
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="ip-points",
    rule="18.0",
    severity=Severity.ERROR,
    summary="An IP is rated in points 18.0 does not print ('IP's are rated in points (1, 2 or 3)').",
    fix="Give the IP 1, 2 or 3 points (`points`; 'IP2 x 1' is one IP of 2 points); the ratings are "
    "tables/combat.yaml improved_positions.points.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    allowed = setup_limits().ip_points
    ratings = ", ".join(map(str, allowed))
    for path, points in _scenario_ips(ctx.scenario.data):
        if points not in allowed:
            yield CHECK.problem(ctx.doc, path, f"IP{points}: an IP is rated {ratings} points")
    for side in side_setups(ctx.scenario):
        for ip in side.improved_positions:
            if ip.points not in allowed:
                message = f"{side.side.capitalize()} IP{ip.points} in {ip.hex}: an IP is rated {ratings} points"
                yield CHECK.problem(ctx.doc, (*ip.path, "points"), message, hex=ip.hex)


def _scenario_ips(data: dict[str, Any]) -> Iterator[tuple[JsonPath, Any]]:
    """(path of `points`, points) of every IP the scenario gives a side or a group (24.1: 'IP2 x 1')."""
    for side, side_data in (data.get("sides") or {}).items():
        if not isinstance(side_data, dict):
            continue
        lists: list[tuple[JsonPath, Any]] = [(("sides", side), side_data)]
        lists += [(("sides", side, "groups", g), group) for g, group in enumerate(side_data.get("groups") or [])]
        for path, holder in lists:
            if not isinstance(holder, dict):
                continue
            for i, ip in enumerate(holder.get("improved_positions") or []):
                if isinstance(ip, dict) and "points" in ip:
                    yield (*path, "improved_positions", i, "points"), ip["points"]
