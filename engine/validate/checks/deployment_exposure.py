"""How much of each side's deployment area the other side's deployment area sees at the start (10.3).

Units set up UP (3.12 lets the owner choose; UP is the state that sees and is seen most), so
the figure is line of sight between the two areas with both ends UP. That is symmetric, so the
smaller area watches the larger one: the larger one's share is the hexes seen, the smaller
one's the watchers that see anything.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.hexgrid import Hex
from engine.model.counters import SIDES
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import zone_hexes
from engine.validate.starts import Start, starts

CHECK = Check(
    id="deployment-exposure",
    rule="10.3",
    severity=Severity.INFO,
    summary="The share of a side's deployment area in line of sight of the enemy's deployment area at the start "
    "(both UP).",
    fix="Nothing to fix: a figure for judging the scenario; a large share favours the side that moves first.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    views = ctx.viewsheds
    if views is None:
        return
    areas: dict[str, frozenset[Hex]] = {}
    first: dict[str, Start] = {}
    for start in starts(ctx.scenario, ctx.counters):
        area = None if start.entering else zone_hexes(ctx, start.zone, start.zone_path)
        if area:
            areas[start.side] = areas.get(start.side, frozenset()) | area
            first.setdefault(start.side, start)
    if len(areas) < len(SIDES):
        return  # one side enters the map: nothing of it is there to look at the start
    small, large = sorted(SIDES, key=lambda side: len(areas[side]))
    watched = views.zones(areas[small], areas[large])
    seen = {large: watched.seen, small: frozenset(h for h in areas[small] if views.visible_from(h) & areas[large])}
    for side in SIDES:
        enemy = next(s for s in SIDES if s != side)
        share = len(seen[side]) / len(areas[side])
        yield CHECK.problem(
            ctx.doc,
            first[side].zone_path,
            f"{len(seen[side])} of the {len(areas[side])} hexes of the {side.capitalize()} deployment area "
            f"({share:.0%}) are in line of sight of the {enemy.capitalize()} deployment area "
            f"({len(areas[enemy])} hexes), both UP",
        )
