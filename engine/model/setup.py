"""A scenario's concrete test set-up (its `setup:` section): what a playtest or the editor places.

Hexes stay printed labels here (the board that turns them into hexes belongs to the checks);
every value keeps the JSON path of its entry so that a problem points at its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .counters import SIDES
from .scenario import UNIT_KINDS, Scenario, describe_unit
from .source import JsonPath


@dataclass(frozen=True)
class Placement:
    """One `units:` entry: a unit (or one squad member, or the rest of a squad) in a hex."""

    side: str
    kind: str  # squad | commander | crew_weapon | afv
    type: str  # squad letter, commander rank, CW or AFV type
    number: int | None
    pr: int | None
    member: str | None  # a squad member ("R PR8"); None places the squad's remaining members
    hex: str
    state: str | None  # up | down; None: the group's `state`, else up (3.12)
    facing: str | None  # the adjacent hex across the frontal hexside (8.7)
    path: JsonPath

    def describe(self) -> str:
        unit = describe_unit(self.kind, self.type, self.number, self.pr)
        return unit + (f" {self.member}" if self.member else "")


@dataclass(frozen=True)
class ImprovedPosition:
    hex: str
    points: int
    path: JsonPath


@dataclass(frozen=True)
class MinedHex:
    """A mined hex as 19.11 records it."""

    hex: str
    ap_factors: int
    at_factors: int
    path: JsonPath


@dataclass(frozen=True)
class HiddenHex:
    hex: str
    path: JsonPath


@dataclass(frozen=True)
class Infiltration:
    """The Infiltration Hex and the units designated for it (24.31, 24.32); units are unit keys."""

    hex: str
    units: tuple[tuple[dict[str, Any], JsonPath], ...]
    path: JsonPath


@dataclass(frozen=True)
class SideSetup:
    side: str
    units: tuple[Placement, ...]
    improved_positions: tuple[ImprovedPosition, ...]
    mines: tuple[MinedHex, ...]
    hidden_hexes: tuple[HiddenHex, ...]
    infiltration: Infiltration | None
    path: JsonPath
    partial: bool = False  # still being built (R230): what it leaves out is not an error


def side_setups(scenario: Scenario) -> list[SideSetup]:
    """The sides the set-up places, in SIDES order; empty when the scenario has no `setup:`."""
    section = scenario.data.get("setup") or {}
    return [_side(side, section[side], ("setup", side)) for side in SIDES if side in section]


def _side(side: str, data: dict[str, Any], path: JsonPath) -> SideSetup:
    infiltration = data.get("infiltration")
    return SideSetup(
        side=side,
        units=tuple(_placement(side, u, (*path, "units", i)) for i, u in enumerate(data.get("units") or [])),
        improved_positions=tuple(
            ImprovedPosition(ip["hex"], ip["points"], (*path, "improved_positions", i))
            for i, ip in enumerate(data.get("improved_positions") or [])
        ),
        mines=tuple(
            MinedHex(m["hex"], m.get("ap_factors", 0), m.get("at_factors", 0), (*path, "mines", i))
            for i, m in enumerate(data.get("mines") or [])
        ),
        hidden_hexes=tuple(
            HiddenHex(label, (*path, "hidden_hexes", i)) for i, label in enumerate(data.get("hidden_hexes") or [])
        ),
        infiltration=None
        if infiltration is None
        else Infiltration(
            infiltration["hex"],
            tuple((u, (*path, "infiltration", "units", i)) for i, u in enumerate(infiltration["units"])),
            (*path, "infiltration"),
        ),
        path=path,
        partial=bool(data.get("partial", False)),
    )


def _placement(side: str, entry: dict[str, Any], path: JsonPath) -> Placement:
    kind = next(k for k in UNIT_KINDS if k in entry)
    return Placement(
        side=side,
        kind=kind,
        type=str(entry[kind]),
        number=entry.get("number"),
        pr=entry.get("pr"),
        member=entry.get("member"),
        hex=entry["hex"],
        state=entry.get("state"),
        facing=entry.get("facing"),
        path=path,
    )
