"""The set-up limits of the combat table (tables/combat.yaml): stacking (8.62, 8.63), mines
(19.12, 19.14) and IP ratings (18.0). Printed numbers, kept in data like every other table value.
And a scenario's own caps: what a deployment's `limit:` (R83) or an entry's (R15) counts, one
function for the engine's set-up and the validator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.resources import data_path

from .tables import _load, plain


@dataclass(frozen=True)
class SetupLimits:
    max_men: int  # of a side in a hex (8.62)
    max_afvs: int
    max_crew_weapons: int  # CW counters in a hex (8.63)
    men_per_infantry_unit: int
    max_ap_factors: int  # per mined hex (19.12)
    max_at_factors: int
    min_at_factors: int  # in a hex with AT factors
    mine_prohibited_terrain: tuple[str, ...]  # zone terrain names (19.14: Buildings)
    ip_points: tuple[int, ...]  # the points an IP may be rated (18.0: 1, 2 or 3)


@cache
def setup_limits(path: Path | None = None) -> SetupLimits:
    values = plain(_load(path or data_path("tables", "combat.yaml")).data)
    stacking, mines = values["stacking"], values["mines"]
    return SetupLimits(
        max_men=int(stacking["max_men"]),
        max_afvs=int(stacking["max_afvs"]),
        max_crew_weapons=int(stacking["max_crew_weapons"]),
        men_per_infantry_unit=int(stacking["men_per_infantry_unit"]),
        max_ap_factors=int(mines["max_ap_factors_per_hex"]),
        max_at_factors=int(mines["max_at_factors_per_hex"]),
        min_at_factors=int(mines["min_at_factors_per_hex"]),
        mine_prohibited_terrain=tuple(mines["prohibited_terrain"]),
        ip_points=tuple(int(p) for p in values["improved_positions"]["points"]),
    )


# Limit keys of an entry (R15) or a deployment (R83) by unit kind.
LIMIT_KINDS = {"squad": "squads", "commander": "commanders", "crew_weapon": "crew_weapons", "afv": "afvs"}


def limit_capacity(value: Any) -> tuple[int, list[str] | None]:
    """A limit's count and the types it allows (None: any), `2` or `{count: 1, types: [MMG]}`."""
    return (value["count"], value["types"]) if isinstance(value, dict) else (value, None)


@dataclass(frozen=True)
class Capped:
    """A counter as a deployment cap counts it: its kind as the scenario names units (`squad`,
    `commander`, `crew_weapon`, `afv`), its type (a squad's letter, a rank, a CW or AFV type) and,
    for a squad member, its weapon (2.21)."""

    kind: str
    type: str
    weapon: str | None = None


@dataclass(frozen=True)
class Excess:
    """A term of a cap that the counted units break: `what` ("2 LMG units"), the most it allows
    and the indexes of the units it counts."""

    what: str
    most: int
    counted: tuple[int, ...]


def cap_excess(limit: Mapping[str, Any], units: Sequence[Capped]) -> list[Excess]:
    """The terms of a deployment's `limit:` that `units` (those standing only in its zone) break
    (R83): `members` counts squad members by weapon, `units` every counter, `squads` each squad once,
    `commanders`, `crew_weapons` and `afvs` their counters (of the types given, if any).

    >>> cap_excess({"members": {"LMG": 1}}, [Capped("squad", "E", "LMG"), Capped("squad", "E", "LMG")])
    [Excess(what='2 LMG units', most=1, counted=(0, 1))]
    """
    found = []
    for weapon, most in (limit.get("members") or {}).items():
        counted = tuple(i for i, u in enumerate(units) if u.kind == "squad" and u.weapon == weapon)
        if len(counted) > most:
            found.append(Excess(f"{len(counted)} {weapon} units", most, counted))
    if "units" in limit and len(units) > limit["units"]:
        found.append(Excess(f"{len(units)} units", limit["units"], tuple(range(len(units)))))
    for kind, key in LIMIT_KINDS.items():
        if key not in limit:
            continue
        most, types = limit_capacity(limit[key])
        counted = tuple(i for i, u in enumerate(units) if u.kind == kind and (types is None or u.type in types))
        count = len({units[i].type for i in counted}) if kind == "squad" else len(counted)
        if count > most:
            found.append(Excess(f"{count} {key.replace('_', ' ')}", most, counted))
    return found
