"""Every zone resolves to at least one hex of the scenario's maps."""

from __future__ import annotations

from collections.abc import Iterator

from engine.geometry.zones import ZoneError, resolve
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext

CHECK = Check(
    id="zone-empty",
    rule="24.1",
    severity=Severity.ERROR,
    summary="A zone names a hex, road, hill or building that is not on the maps, or resolves to no hex at all.",
    fix="Correct the expression: every hex, road waypoint, hill and building must exist on the scenario's maps.",
)


def check_scenario(context: ScenarioContext) -> Iterator[Problem]:
    scenario, ctx = context.scenario, context.zones
    if ctx is None:
        return  # no board or no valid north indicator: scenario-maps says so
    empty_names: set[str] = set()
    for path, expr in scenario.zone_expressions():
        if isinstance(expr, str) and expr in empty_names:
            continue  # reported once, where the named zone is defined
        try:
            hexes = resolve({"zone": expr} if isinstance(expr, str) else expr, ctx, ())
        except ZoneError as exc:
            # A named zone's own problem is reported once, where it is defined.
            if exc.path[:1] == ("zones",) and path[:1] != ("zones",):
                continue
            where = exc.path if exc.path[:1] == ("zones",) else (*path, *exc.path)
            yield CHECK.problem(scenario.doc, where, f"{_zone_named(where)}: {exc}", hex=exc.hex)
            continue
        if not hexes:
            if path[:1] == ("zones",):
                empty_names.add(str(path[1]))
            yield CHECK.problem(scenario.doc, path, f"{_zone_named(path)} resolves to no hex")


def _zone_named(path: JsonPath) -> str:
    """The zone as a designer finds it: by its name, or as the one given at that place."""
    return f"zone {path[1]!r}" if path[:1] == ("zones",) else "the zone given here"
