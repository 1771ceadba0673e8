"""A deployment zone can hold the units that must deploy in it under the stacking limits (8.62, 8.63).

Groups deploying in the same hexes add up. Where zones overlap, every set of deployments must
fit in the union of their zones (Hall's condition: with it, each resource can be shared out).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.counters import SIDES, fielded_members
from engine.model.scenario import UnitRef
from engine.model.setup_limits import SetupLimits, setup_limits
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import crew, may_stand, zone_hexes
from engine.validate.starts import Start, starts

CHECK = Check(
    id="deployment-capacity",
    rule="8.62",
    severity=Severity.ERROR,
    summary="A deployment zone cannot hold the units that must deploy in it: six men plus one AFV a hex, one CW "
    "a hex (a CW counts its crew, 8.63), AFVs only where they may stand.",
    fix="Widen the zone, or deploy fewer units in it.",
)

# Sets of zones beyond this size are checked one by one and all together only.
MAX_SUBSET_ZONES = 8


@dataclass
class Deployment:
    """Deployments sharing one set of hexes, with what they must put there."""

    starts: list[Start]
    area: frozenset[Hex]
    men: int = 0
    crew_weapons: int = 0
    afvs: int = 0


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    limits = setup_limits()
    for side in SIDES:
        deployments: dict[frozenset[Hex], Deployment] = {}
        for start in starts(ctx.scenario, ctx.counters):
            area = zone_hexes(ctx, start.zone, start.zone_path) if start.side == side and not start.entering else None
            if area is None:
                continue  # an entry, the other side, or a zone that does not resolve (zone-empty)
            deployment = deployments.setdefault(area, Deployment([], area))
            deployment.starts.append(start)
            for ref in start.units:
                _add(ctx, deployment, ref, limits)
        yield from _hall(ctx, board, list(deployments.values()), limits)


def _add(ctx: ScenarioContext, deployment: Deployment, ref: UnitRef, limits: SetupLimits) -> None:
    if ref.kind == "squad":
        members = ctx.counters.squad(ref.side, ref.type) or []
        deployment.men += len(fielded_members(ref.data, members)[0]) * limits.men_per_infantry_unit
    elif ref.kind == "commander":
        deployment.men += limits.men_per_infantry_unit
    elif ref.kind == "crew_weapon":
        deployment.men += crew(ctx.counters, ref.side, ref.type) or 0
        deployment.crew_weapons += 1
    else:
        deployment.afvs += 1


def _hall(ctx: ScenarioContext, board: Board, deployments: list[Deployment], limits: SetupLimits) -> Iterator[Problem]:
    """Each resource, for each set of deployments not containing one already reported for it."""
    n = len(deployments)
    sizes = list(range(1, n + 1)) if n <= MAX_SUBSET_ZONES else [1, n]
    reported: dict[str, list[set[int]]] = {}
    every = frozenset().union(*(d.area for d in deployments))
    standing = {
        h: (may_stand(board, h, afv=False, state="up"), may_stand(board, h, afv=True, state="up")) for h in every
    }
    for size in sizes:
        for chosen in combinations(range(n), size):
            group = [deployments[i] for i in chosen]
            area = frozenset().union(*(d.area for d in group))
            for noun, need, room, basis in _needs(standing, group, area, limits):
                if need <= room or any(r <= set(chosen) for r in reported.get(noun, [])):
                    continue
                reported.setdefault(noun, []).append(set(chosen))
                starts_ = [s for d in group for s in d.starts]
                side = starts_[0].side.capitalize()
                units = ", ".join(ref.describe() for s in starts_ for ref in s.units)
                zones = " and ".join(dict.fromkeys(s.zone_name for s in starts_))
                message = (
                    f"{side} {units} need room for {_count(need, noun)} in {zones} ({_count(len(area), 'hex')}): "
                    f"there is room for {room} ({basis})"
                )
                yield CHECK.problem(ctx.doc, starts_[0].zone_path, message)


def _needs(
    standing: dict[Hex, tuple[bool, bool]], group: list[Deployment], area: frozenset[Hex], limits: SetupLimits
) -> Iterator[tuple[str, int, int, str]]:
    """(what, needed, room, how the room is counted) for men, CWs and AFVs; `standing`: whether
    infantry and whether an AFV may stand in each hex."""
    infantry = sum(1 for h in area if standing[h][0])
    afv_hexes = sum(1 for h in area if standing[h][1])
    yield "man", sum(d.men for d in group), infantry * limits.max_men, f"{limits.max_men} men a hex, 8.62"
    cws = sum(d.crew_weapons for d in group)
    yield "CW", cws, infantry * limits.max_crew_weapons, f"{limits.max_crew_weapons} CW a hex, 8.63"
    afvs = sum(d.afvs for d in group)
    yield "AFV", afvs, afv_hexes * limits.max_afvs, f"{limits.max_afvs} AFV a hex where an AFV may stand, 8.62"


def _count(n: int, noun: str) -> str:
    plural = {"man": "men", "hex": "hexes"}.get(noun, noun + "s")
    return f"{n} {noun if n == 1 else plural}"
