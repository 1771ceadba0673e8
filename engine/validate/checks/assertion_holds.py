"""Designer assertions (`assertions:`) hold on the scenario's maps: LOS (10.3), reach in one phase (8.1, 8.5),
turns from a zone, entry or deployment to a zone (8.1, R44, R46). The vocabulary is schemas/assertions.schema.json."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import yaml

from engine.geometry.movement import (
    FACING_OF,
    ONE_HEX,
    Morale,
    MovementError,
    MovementFactorNeeded,
    Mover,
    NoPathError,
    Phase,
    State,
    UnitClass,
    cheapest_path,
    reach,
)
from engine.geometry.sight import FirerState
from engine.geometry.zones import ZoneError, resolve, resolve_named
from engine.hexgrid import Hex, LabelError, parse_label
from engine.model.board import Board
from engine.model.source import JsonPath
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.starts import starts

_FIX = (
    "Correct the map or the scenario; if the fact changed on purpose, correct the assertion "
    "(the message says what was found)."
)
FAILED = Check(
    id="assertion-failed",
    rule="10.3, 8.5, 8.1",
    severity=Severity.ERROR,
    summary="A designer's assertion is false on the scenario's maps: LOS (10.3), reach in one phase (8.5) or "
    "fewest Movement Phases to a zone (8.1); each problem names its rule.",
    fix=_FIX,
)
INVALID = Check(
    id="assertion-invalid",
    rule=None,
    severity=Severity.ERROR,
    summary="An assertion names a hex, zone or group the scenario does not have, or a unit the rules do not allow.",
    fix="Name hexes of the scenario's maps, zones of `zones:` or valid zone expressions, and groups that enter or "
    "deploy; give a CW's `mp`.",
)


class _Invalid(Exception):
    """An assertion that cannot be checked; `path` points at the culprit."""

    def __init__(self, path: JsonPath, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


class _ReportedElsewhere(Exception):
    """A zone the assertion uses is broken where it is defined: zone-empty reports it there."""


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    assertions = ctx.scenario.data.get("assertions") or []
    if not assertions or ctx.board is None:
        return  # no maps: scenario-maps says why
    for i, item in enumerate(assertions):
        kinds = [k for k in _KINDS if k in item]
        if len(kinds) != 1:
            found = f"found {' and '.join(kinds)}" if kinds else "found none"
            yield INVALID.problem(ctx.doc, ("assertions", i), f"an assertion is one of los, reach, turns ({found})")
            continue
        kind = kinds[0]
        rule, evaluate = _KINDS[kind]
        spec, path = item[kind], ("assertions", i, kind)
        try:
            failure = evaluate(ctx, spec, path)
        except _Invalid as exc:
            yield INVALID.problem(ctx.doc, exc.path, exc.message)
            continue
        except MovementFactorNeeded as exc:
            yield INVALID.problem(ctx.doc, (*path, "unit"), f"{exc}: give it with `mp`")
            continue
        except MovementError as exc:
            yield INVALID.problem(ctx.doc, (*path, "unit"), str(exc))
            continue
        except _ReportedElsewhere:
            continue
        if failure is not None:
            where = spec.get("from") if kind != "turns" else None
            yield FAILED.problem(ctx.doc, ("assertions", i), failure, hex=where, rule=rule)


# -- los ------------------------------------------------------------------------------------


def _los(ctx: ScenarioContext, spec: dict[str, Any], path: JsonPath) -> str | None:
    """None when the LOS is as expected, else what was found and what was expected."""
    board, viewsheds = ctx.board, ctx.viewsheds
    assert board is not None and viewsheds is not None
    source, target = _hex(board, spec["from"], (*path, "from")), _hex(board, spec["to"], (*path, "to"))
    blockers = Counter(
        _hex(board, label, (*path, key, j)) for key in ("afvs", "wrecks") for j, label in enumerate(spec.get(key, []))
    )
    firer = FirerState(spec.get("firer_state", FirerState.UP))
    sight = viewsheds.kernel.sight(source, target, firer, blockers)
    want_blocked = spec["expect"] == "blocked"
    rule, at = spec.get("rule"), spec.get("blocking_hex")
    found_at = board.label(sight.blocking_hex) if sight.blocking_hex is not None else None
    if sight.blocked == want_blocked and rule in (None, sight.rule) and at in (None, found_at):
        return None
    down = " (firer DOWN)" if firer is FirerState.DOWN else ""
    found = f"blocked at {found_at} ({sight.rule})" if sight.blocked else "clear"
    expected = spec["expect"] + (f" at {at}" if at else "") + (f" by {rule}" if rule else "")
    return f"LOS {spec['from']} -> {spec['to']}{down} is {found}, expected {expected}"


# -- reach ----------------------------------------------------------------------------------


def _reach(ctx: ScenarioContext, spec: dict[str, Any], path: JsonPath) -> str | None:
    board = ctx.board
    assert board is not None
    start, goal = _hex(board, spec["from"], (*path, "from")), _hex(board, spec["to"], (*path, "to"))
    occupied = {
        key: frozenset(_hex(board, label, (*path, key, j)) for j, label in enumerate(spec.get(key, [])))
        for key in ("afvs", "wrecks")
    }
    morale = Morale(spec.get("morale", Morale.NORMAL))
    mover = _mover(spec, morale, Phase(spec.get("phase", Phase.MOVEMENT)))
    if "facing" in spec:  # the hex faced may lie off the map: an AFV on the edge facing out
        try:
            ahead = parse_label(spec["facing"], board.offset) - start
        except LabelError as exc:
            raise _Invalid((*path, "facing"), str(exc)) from None
        if ahead not in FACING_OF:
            raise _Invalid((*path, "facing"), f"{spec['facing']} is not adjacent to {spec['from']} (8.7)")
        mover = replace(mover, facing=FACING_OF[ahead])
    result = reach(board, start, mover, **occupied)
    limit = spec.get("within_mp")
    if result.allowance == ONE_HEX and limit is not None:
        raise _Invalid(
            (*path, "within_mp"),
            f"{mover.describe()} moves one hex regardless of terrain costs (8.11-8.14, R38): within_mp means nothing",
        )
    cost = result.costs.get(goal)
    want = spec.get("expect", "reachable") == "reachable"
    if (cost is not None and (limit is None or cost <= limit)) == want:
        return None
    if cost is not None:
        found = f"costs {cost:g} MP"
    else:
        allowance = result.allowance if isinstance(result.allowance, str) else f"{result.allowance:g} MP"
        try:
            cheapest = f"cheapest path {cheapest_path(board, start, goal, mover, **occupied).cost:g} MP"
        except NoPathError as exc:
            cheapest = f"no legal path: {exc.reason}"
        found = f"is out of reach this phase (allowance {allowance}; {cheapest})"
    if want:
        expected = "in reach" + (f" for at most {limit:g} MP" if limit is not None else "")
    else:
        expected = "out of reach" + (f" or dearer than {limit:g} MP" if limit is not None else "")
    facing = f", facing {spec['facing']}" if "facing" in spec else ""
    return f"move {spec['from']} -> {spec['to']} ({mover.describe()}{facing}) {found}, expected {expected}"


# -- turns ----------------------------------------------------------------------------------


def _turns(ctx: ScenarioContext, spec: dict[str, Any], path: JsonPath) -> str | None:
    bounds = [key for key in ("exactly", "at_most", "at_least", "never") if key in spec]
    if not bounds or (len(bounds) > 1 and ("exactly" in bounds or "never" in bounds)):
        found = f"found {' and '.join(bounds)}" if bounds else "found none"
        raise _Invalid(path, f"turns takes exactly, or at_most and/or at_least, or never ({found})")
    if ctx.zones is None:
        raise _ReportedElsewhere  # no valid north indicator: scenario-maps says so
    mover = _mover(spec, Morale.NORMAL, Phase.MOVEMENT)
    sources, entering, origin = _sources(ctx, spec["from"], (*path, "from"))
    targets = _zone(ctx, spec["to"], (*path, "to"))
    turns = ctx.turns(sources, targets, mover, entering=entering)
    holds = (
        turns is None
        if spec.get("never")
        else turns is not None
        and spec.get("exactly", turns) == turns
        and turns <= spec.get("at_most", turns)
        and turns >= spec.get("at_least", turns)
    )
    if holds:
        return None
    found = "never" if turns is None else f"{turns} turn{'s' if turns != 1 else ''}"
    expected = " and ".join("never" if key == "never" else f"{key.replace('_', ' ')} {spec[key]}" for key in bounds)
    unit = f"{mover.unit}" + (f" ({mover.mp:g} MP)" if mover.mp is not None else "") + f" {mover.state.upper()}"
    return f"turns for {unit} {origin} to {_show(spec['to'])}: {found}, expected {expected}"


def _sources(ctx: ScenarioContext, ref: Any, path: JsonPath) -> tuple[frozenset[Hex], bool, str]:
    """The hexes the unit starts from, whether it enters there (R44), and the words for the message."""
    if isinstance(ref, dict) and ("entry" in ref or "deployment" in ref):
        kind = "entry" if "entry" in ref else "deployment"
        group = ref[kind]
        zones = _group_zones(ctx, kind, group, ref.get("side"), path)
        hexes = frozenset().union(*(_zone(ctx, zone, zone_path) for zone_path, zone in zones))
        verb = "entering with" if kind == "entry" else "deployed with"
        return hexes, kind == "entry", f"{verb} group {group}"
    if isinstance(ref, dict) and "enter" in ref:
        return _zone(ctx, ref["enter"], (*path, "enter")), True, f"entering in {_show(ref['enter'])}"
    return _zone(ctx, ref, path), False, f"from {_show(ref)}"


def _group_zones(
    ctx: ScenarioContext, kind: str, group: str, side: str | None, path: JsonPath
) -> list[tuple[JsonPath, Any]]:
    """The zones of every entry option (or deployment) of a group, with their paths in the file."""
    key = "entries" if kind == "entry" else "deployment"
    found: dict[str, list[tuple[JsonPath, Any]]] = {}
    for start in starts(ctx.scenario, ctx.counters):
        s, k, i = start.path[1:4]
        if k == key and side in (None, s) and ctx.scenario.data["sides"][s][k][i].get("group") == group:
            found.setdefault(str(s), []).append((start.zone_path, start.zone))
    if not found:
        verb = "enters the map" if kind == "entry" else "deploys"
        raise _Invalid((*path, kind), f"no group {group!r} {verb}" + (f" on the {side} side" if side else ""))
    if len(found) > 1:
        raise _Invalid((*path, kind), f"both sides have a group {group!r}: say which with `side`")
    return next(iter(found.values()))


# -- shared -----------------------------------------------------------------------------------


def _mover(spec: dict[str, Any], morale: Morale, phase: Phase) -> Mover:
    """The unit an assertion moves; its state defaults to UP, or DOWN when not NORMAL (3.25)."""
    default = State.UP if morale is Morale.NORMAL else State.DOWN
    return Mover(UnitClass(spec["unit"]), State(spec.get("state", default)), morale, phase, spec.get("mp"))


def _hex(board: Board, label: str, path: JsonPath) -> Hex:
    try:
        return board.hex(label)
    except LabelError as exc:
        raise _Invalid(path, str(exc)) from None


def _zone(ctx: ScenarioContext, ref: Any, path: JsonPath) -> frozenset[Hex]:
    """A zone name or expression; _ReportedElsewhere when the trouble is one zone-empty reports."""
    assert ctx.zones is not None
    try:
        hexes = resolve_named(ref, ctx.zones, path) if isinstance(ref, str) else resolve(ref, ctx.zones, path)
    except ZoneError as exc:
        # zone-empty reports a named zone's own trouble where it is defined, and every `zone:` key.
        if exc.path[:1] == ("zones",) or exc.path[-1:] == ("zone",) or path[:1] == ("sides",):
            raise _ReportedElsewhere from None
        raise _Invalid(exc.path, f"zone: {exc}") from None
    if not hexes:
        if path[:1] == ("sides",):
            raise _ReportedElsewhere
        raise _Invalid(path, "zone resolves to no hex")
    return hexes


def _show(ref: Any) -> str:
    """A zone as the file writes it: its name, or the expression in flow style."""
    return ref if isinstance(ref, str) else yaml.safe_dump(ref, default_flow_style=True, width=1000).strip()


# The kind of assertion, the rule it is about, and how to test it.
_KINDS: dict[str, tuple[str, Callable[[ScenarioContext, dict[str, Any], JsonPath], str | None]]] = {
    "los": ("10.3", _los),
    "reach": ("8.5", _reach),
    "turns": ("8.1", _turns),
}
