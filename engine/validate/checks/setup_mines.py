"""Mines of a test set-up: factors per hex (19.12), terrain (19.14) and the side's totals (19.11)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from engine.geometry.zones import TERRAIN_TESTS
from engine.model.setup import MinedHex, SideSetup, side_setups
from engine.model.setup_limits import SetupLimits, setup_limits
from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.placements import board_hex

FACTORS = Check(
    id="setup-mine-factors",
    rule="19.12",
    severity=Severity.ERROR,
    summary="A mined hex holds more than four AP or seven AT factors, or AT factors but fewer than two.",
    fix="Spread the factors over more hexes; a hex with AT factors needs at least two of them.",
)
TERRAIN = Check(
    id="setup-mine-terrain",
    rule="19.14",
    severity=Severity.ERROR,
    summary="Mines are placed in a Building hex.",
    fix="Mines may be deployed in any terrain except Buildings: move them.",
)
TOTALS = Check(
    id="setup-mine-count",
    rule="19.11",
    severity=Severity.ERROR,
    summary="The set-up's AP or AT mine factors differ from the factors the scenario gives the side.",
    fix="Place exactly the side's factors (its groups' included): `mines: {ap_factors, at_factors}` of the scenario.",
)


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    board = ctx.board
    if board is None:
        return
    limits = setup_limits()
    for side in side_setups(ctx.scenario):
        by_hex: dict[str, list[MinedHex]] = defaultdict(list)
        for mined in side.mines:
            by_hex[mined.hex].append(mined)
        for label, entries in by_hex.items():
            h = board_hex(ctx, label)
            if h is None:
                continue  # setup-hex-off-map
            yield from _factors(ctx, label, entries, limits)
            terrain = board.terrain(h)
            for name in limits.mine_prohibited_terrain:
                if TERRAIN_TESTS[name](terrain):
                    yield TERRAIN.problem(
                        ctx.doc,
                        (*entries[0].path, "hex"),
                        f"mines in {label}: mines may not be in a {name} hex",
                        hex=label,
                    )
        yield from _totals(ctx, side)


def _factors(ctx: ScenarioContext, label: str, entries: list[MinedHex], limits: SetupLimits) -> Iterator[Problem]:
    """Each limit once per hex, at the entry that goes over it (a hex may be listed more than once)."""
    for kind, most in (("ap_factors", limits.max_ap_factors), ("at_factors", limits.max_at_factors)):
        running = 0
        for mined in entries:
            running += getattr(mined, kind)
            if running > most:
                total = sum(getattr(m, kind) for m in entries)
                yield FACTORS.problem(
                    ctx.doc,
                    (*mined.path, kind),
                    f"{total} {kind[:2].upper()} mine factors in {label}, at most {most}",
                    hex=label,
                )
                break
    at = [m for m in entries if m.at_factors]
    total_at = sum(m.at_factors for m in at)
    if at and total_at < limits.min_at_factors:
        yield FACTORS.problem(
            ctx.doc,
            (*at[0].path, "at_factors"),
            f"{total_at} AT mine factor{'s' if total_at != 1 else ''} in {label}: a hex mined with AT factors "
            f"must have at least {limits.min_at_factors}",
            hex=label,
        )


def _totals(ctx: ScenarioContext, side: SideSetup) -> Iterator[Problem]:
    data = ctx.scenario.data["sides"][side.side]
    given = [data.get("mines")] + [group.get("mines") for group in data["groups"]]
    where = (*side.path, "mines") if side.mines else side.path
    for kind in ("ap_factors", "at_factors"):
        allowed = sum(m[kind] for m in given if m)
        placed = sum(getattr(m, kind) for m in side.mines)
        if placed != allowed:
            short = Severity.INFO if side.partial and placed < allowed else None  # R230: a set-up being built
            yield TOTALS.problem(
                ctx.doc,
                where,
                f"{side.side.capitalize()} mines: {placed} {kind[:2].upper()} factors placed, "
                f"the scenario gives {allowed}" + (" (partial set-up)" if short else ""),
                severity=short,
            )
