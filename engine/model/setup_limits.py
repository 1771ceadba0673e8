"""The set-up limits of the combat table (tables/combat.yaml): stacking (8.62, 8.63), mines
(19.12, 19.14) and IP ratings (18.0). Printed numbers, kept in data like every other table value."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

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
