"""A victory point schedule (24.9): one result for every total, from 0 to the most the awards can give."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.victory import PointsMaximum, maximum_points
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

SCHEDULE = Check(
    id="vp-schedule",
    rule="24.9",
    severity=Severity.ERROR,
    summary="A VP schedule leaves a total without a result, gives one total two results, or has a band running "
    "backwards.",
    fix="Make the bands [low, high] follow each other from 0 with no gap and no overlap (0-13, 14-18, 19-34).",
)
MAXIMUM = Check(
    id="vp-maximum",
    rule="24.9",
    severity=Severity.ERROR,
    summary="The most VPs the awards give on the board (info), and where it disagrees with the printed building "
    "sizes or the schedule's top, or leaves a result out of reach.",
    fix="Correct the map (the buildings' hexes) or the scenario (sizes, awards, schedule) so that they agree.",
)

POINTS = ("victory", "points")


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    points = (ctx.scenario.data.get("victory") or {}).get("points")
    if not points:
        return
    bands: list[dict[str, Any]] = points.get("schedule") or []
    yield from _schedule(ctx, bands)
    board = ctx.board
    if board is None:
        return
    maximum = maximum_points(points, board, dict(zip(ctx.scenario.maps, board.maps, strict=True)))
    side = str(points["side"]).capitalize()
    yield MAXIMUM.problem(
        ctx.doc,
        (*POINTS, "awards"),
        f"the {side} player can score at most {maximum.describe()}",
        severity=Severity.INFO,
    )
    yield from _sizes(ctx, points, maximum)
    yield from _top(ctx, bands, maximum)


def _schedule(ctx: ScenarioContext, bands: list[dict[str, Any]]) -> Iterator[Problem]:
    covering: dict[int, list[int]] = {}
    for i, band in enumerate(bands):
        low, high = band["vp"]
        if low > high:
            yield SCHEDULE.problem(ctx.doc, _band(i), f"the band {low}-{high} VP runs backwards: no total is in it")
        for total in range(low, high + 1):
            covering.setdefault(total, []).append(i)
    if not covering:
        return
    gaps = [t for t in range(max(covering)) if t not in covering]
    for low, high in _runs(gaps):
        after = min(i for t, at in covering.items() if t > high for i in at)
        yield SCHEDULE.problem(ctx.doc, _band(after), f"no result for {_span(low, high)} VP")
    overlaps: dict[tuple[int, ...], list[int]] = {}
    for total, at in sorted(covering.items()):
        if len(at) > 1:
            overlaps.setdefault(tuple(at), []).append(total)
    for shared, totals in overlaps.items():
        results = ", ".join(f"{bands[i]['result']} ({_span(*bands[i]['vp'])})" for i in shared)
        for low, high in _runs(totals):
            message = f"{_span(low, high)} VP fall in {len(shared)} bands: {results}"
            yield SCHEDULE.problem(ctx.doc, _band(shared[-1]), message)


def _sizes(ctx: ScenarioContext, points: dict[str, Any], maximum: PointsMaximum) -> Iterator[Problem]:
    """The printed sizes ("Building 1 (13 hexes total)") against the buildings on the board."""
    for award in maximum.awards:
        sizes = (points["awards"][award.index].get("per_hex_controlled") or {}).get("sizes") or {}
        for building, printed in sizes.items():
            found = award.buildings.get(str(building))
            if found is not None and found != printed:
                yield MAXIMUM.problem(
                    ctx.doc,
                    (*POINTS, "awards", award.index, "per_hex_controlled", "sizes", building),
                    f"Building {building} has {found} hexes on the board; the scenario prints {printed}",
                )


def _top(ctx: ScenarioContext, bands: list[dict[str, Any]], maximum: PointsMaximum) -> Iterator[Problem]:
    """Every band within reach, and the schedule ending where the awards do."""
    if not bands:
        return
    most = maximum.total
    top = max(band["vp"][1] for band in bands)
    for i, band in enumerate(bands):
        low, high = band["vp"]
        if low > most:
            yield MAXIMUM.problem(
                ctx.doc, _band(i), f"{band['result']} needs {_span(low, high)} VP; the awards give at most {most}"
            )
        elif high == top and top > most:
            yield MAXIMUM.problem(ctx.doc, _band(i), f"the schedule ends at {top} VP; the awards give at most {most}")
    if top < most:
        last = max(range(len(bands)), key=lambda i: bands[i]["vp"][1])
        yield MAXIMUM.problem(
            ctx.doc,
            _band(last),
            f"the schedule ends at {top} VP; the awards give up to {most}, so {_span(top + 1, most)} VP have no result",
        )


def _band(i: int) -> tuple[str | int, ...]:
    return (*POINTS, "schedule", i, "vp")


def _runs(values: list[int]) -> Iterator[tuple[int, int]]:
    """Consecutive runs of sorted integers, as (first, last)."""
    start: int | None = None
    for i, v in enumerate(values):
        if start is None:
            start = v
        if i + 1 == len(values) or values[i + 1] != v + 1:
            yield start, v
            start = None


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"
