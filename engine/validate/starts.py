"""Where and when a side's units come into play: a deployment zone before play, or an option of
an entry during it (24.1). Shared by the deployment, entry and playability checks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.model.counters import SIDES, Counters
from engine.model.scenario import Scenario, UnitRef
from engine.model.setup_limits import LIMIT_KINDS
from engine.model.source import JsonPath

from .placements import counter_value, group_of, key_of, names


@dataclass(frozen=True)
class Start:
    """Units of one side and where they start: deployed in `zone`, or entering through it on `turn`."""

    side: str
    units: tuple[UnitRef, ...]
    zone: Any  # a zone name or an inline expression
    path: JsonPath  # the deployment, or the entry's option
    turn: int | None = None  # None: deployed before play
    phase: str = "movement"  # the entry's phase: movement | reaction_movement
    printed: str | None = None  # the option's printed text, else its instruction's
    limited: bool = False  # up to so many units of each kind (R15), not the whole group
    instruction_printed: str | None = None  # the whole instruction's printed text

    @property
    def entering(self) -> bool:
        return self.turn is not None

    @property
    def zone_path(self) -> JsonPath:
        return (*self.path, "zone")

    @property
    def zone_name(self) -> str:
        return self.zone if isinstance(self.zone, str) else "the zone given here"


def starts(scenario: Scenario, counters: Counters) -> Iterator[Start]:
    """Every deployment, then every option of every entry, side by side, in file order."""
    for side in SIDES:
        setup = scenario.data["sides"][side]
        for i, item in enumerate(setup.get("deployment") or []):
            units = named_units(scenario, counters, side, item)
            printed = item.get("printed")
            path = ("sides", side, "deployment", i)
            yield Start(side, units, item["zone"], path, printed=printed, instruction_printed=printed)
        for i, item in enumerate(setup.get("entries") or []):
            units = _within_limit(named_units(scenario, counters, side, item), item.get("limit"))
            for j, option in enumerate(item["options"]):
                yield Start(
                    side,
                    units,
                    option["zone"],
                    ("sides", side, "entries", i, "options", j),
                    turn=option["turn"],
                    phase=option.get("phase", "movement"),
                    printed=option.get("printed") or item.get("printed"),
                    limited="limit" in item,
                    instruction_printed=item.get("printed"),
                )


def named_units(scenario: Scenario, counters: Counters, side: str, item: dict[str, Any]) -> tuple[UnitRef, ...]:
    """The fielded units an instruction names by `group` or `units:` (24.1)."""
    keys = [key_of(u) for u in item.get("units") or []]
    return tuple(
        ref
        for ref in scenario.units
        if ref.side == side
        and (item.get("group") == group_of(scenario, ref) or any(names(key, ref, counters) for key in keys))
    )


def _within_limit(units: tuple[UnitRef, ...], limit: dict[str, Any] | None) -> tuple[UnitRef, ...]:
    """The units that may use an entry with a limit: those of the kinds (and CW types) it admits."""
    if not limit:
        return units
    admitted = []
    for ref in units:
        allowed = limit.get(LIMIT_KINDS[ref.kind], 0)
        if isinstance(allowed, dict):
            allowed = allowed["count"] if ref.type in allowed["types"] else 0
        if allowed > 0:
            admitted.append(ref)
    return tuple(admitted)


def afv_movement(counters: Counters, side: str, afv: str) -> float | None:
    """An AFV's Movement Phase allowance from the counters (8.13); None if they do not say."""
    value = counter_value(counters, "afvs", side, afv, "movement")
    return float(value) if value is not None else None


def first_movement_turn(scenario: Scenario, counters: Counters, units: tuple[UnitRef, ...]) -> int:
    """The first Game Turn in whose Movement Phase all the units may move: 1, or later under a
    restriction naming them all (`may_not_move_before`: not before that side's Player Turn)."""
    if not units:
        return 1
    side, first = units[0].side, 1
    for item in scenario.data.get("restrictions") or []:
        if item.get("side", side) != side or any(
            ref not in named_units(scenario, counters, side, item) for ref in units
        ):
            continue
        before = item["may_not_move_before"]
        # The side's own Player Turn of turn T comes after the enemy's only when the enemy moves first.
        later = 1 if before["side"] != side and scenario.data.get("moves_first") == side else 0
        first = max(first, before["turn"] + later)
    return first
