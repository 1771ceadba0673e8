"""The values printed on a counter (2.21-2.23), each with its source: what the OOB editor shows.

counters/counters.yaml gives every value as `{value, printed}`, `{value, inferred}` or `{value, assumed}`. An
infantry unit (a squad member or a commander) takes its side's weapon values unless its own
entry overrides one; its weapon and PR are sourced by the entry's own `printed`/`assumed`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .counters import Counters

# Keys of a counter entry that source or identify it rather than being printed on it.
_NOT_VALUES = {"printed", "inferred", "assumed", "note", "ids", "units", "rank"}


@dataclass(frozen=True)
class CounterValue:
    name: str  # the counters.yaml key: ap_factor, initial_range, crew, movement...
    value: Any
    source: str  # the printed source, the words it is inferred from, or the reason for the assumption
    assumed: bool
    inferred: bool = False  # read from the rule's words, not printed as a number


def counter_values(
    counters: Counters, side: str, kind: str, type_: str, *, pr: int | None = None, member: int | None = None
) -> dict[str, CounterValue]:
    """The values of one counter, by name; empty when the counters have no such unit.

    `kind`: squad (with `member`, the index of the man in the squad's list), commander (`type_`
    the rank; `pr` may be left out where the side has one commander of that rank), crew_weapon
    or afv.
    """
    data: Mapping[str, Any] = counters.doc.data if counters.doc is not None else {}
    if kind == "squad":
        members = ((data.get("squads") or {}).get(side) or {}).get(type_, {}).get("units") or []
        entry = members[member] if member is not None and member < len(members) else None
        return _infantry(data, side, entry) if entry is not None else {}
    if kind == "commander":
        ranks = [c for c in (data.get("commanders") or {}).get(side) or [] if c.get("rank") == type_]
        chosen = [c for c in ranks if pr is None or c.get("pr") == pr]
        return _infantry(data, side, chosen[0]) if len(chosen) == 1 else {}
    section = {"crew_weapon": "crew_weapons", "afv": "afvs"}.get(kind)
    entry = ((data.get(section) or {}).get(side) or {}).get(type_) if section else None
    return _values(entry) if isinstance(entry, Mapping) else {}


def _infantry(data: Mapping[str, Any], side: str, entry: Mapping[str, Any]) -> dict[str, CounterValue]:
    """An infantry unit: its weapon's values, its entry's own values over them."""
    own = _values(entry)
    weapon = own["weapon"].value if "weapon" in own else None
    base = ((data.get("infantry_weapons") or {}).get(side) or {}).get(weapon)
    return {**(_values(base) if isinstance(base, Mapping) else {}), **own}


def _values(entry: Mapping[str, Any]) -> dict[str, CounterValue]:
    """The entry's values: sourced ones with their own source, plain ones with the entry's."""
    assumed = isinstance(entry.get("assumed"), str)
    source = str(entry.get("assumed") if assumed else entry.get("printed", ""))
    found = {}
    for name, value in entry.items():
        if name in _NOT_VALUES:
            continue
        if isinstance(value, Mapping) and "value" in value:
            kind = next((k for k in ("assumed", "inferred", "printed") if isinstance(value.get(k), str)), "printed")
            found[name] = CounterValue(
                name, value["value"], str(value.get(kind, "")), kind == "assumed", kind == "inferred"
            )
        elif not isinstance(value, Mapping | list):
            found[name] = CounterValue(name, value, source, assumed)
    return found
