"""The rule tables (tables/*.yaml) as plain values: the Movement & Combat Effects Chart,
the Movement Point Allowance Chart, the building symbol and the Sighting Chart's numbers used for LOS.

Every number the engine uses for terrain comes from here, never from code, so a user who
owns the printed charts replaces an `assumed` value by editing one data file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.problems import count_errors
from engine.resources import data_path

from .load_errors import LoadError
from .schema import schema_problems
from .source import SourceDocument, load_yaml

# Terrain rows of the Movement & Combat Effects Chart (tables/terrain-effects.yaml).
ROWS = ("clear", "road", "gully", "woods", "building", "marsh", "hill-1", "hill-2", "bridge")

MoveCost = float | None  # None: the hex is prohibited to that unit type (chart legend "P")


def plain(node: Any) -> Any:
    """A table node with every `{value: X, printed|inferred|assumed: ...}` entry replaced by X."""
    if isinstance(node, dict):
        if "value" in node and ("printed" in node or "inferred" in node or "assumed" in node):
            return node["value"]
        return {k: plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


@dataclass(frozen=True)
class TerrainRow:
    """One row of the Movement & Combat Effects Chart."""

    infantry_cw_up: MoveCost
    infantry_cw_down: MoveCost
    afv_up: MoveCost
    afv_down: MoveCost
    ap_dice: int
    observation_base: int
    obstacle_level: float

    def move_cost(self, afv: bool, up: bool) -> MoveCost:
        """MPs to enter a hex of this row (8.5, 8.51: the cost depends on the UP/DOWN state)."""
        if afv:
            return self.afv_up if up else self.afv_down
        return self.infantry_cw_up if up else self.infantry_cw_down


def _cost(value: Any) -> MoveCost:
    return None if value == "P" else float(value)


@dataclass(frozen=True)
class TerrainEffects:
    rows: dict[str, TerrainRow]
    uphill_extra_mp: float
    road_rate_mp_per_hex: float
    woods_min_trees: int
    footprint: tuple[tuple[float, float], ...]
    join_width: float

    def row(self, name: str) -> TerrainRow:
        return self.rows[name]


@dataclass(frozen=True)
class Allowances:
    """The Movement Point Allowance Chart: kind -> morale -> phase -> MPs.

    A value is a number of MPs, "one_hex" (one hex regardless of terrain), "counter" (the
    counter's Movement Factor) or None (the morale state cannot occur for that kind).
    """

    table: dict[str, dict[str, dict[str, float | str | None]]]
    leader_directed: dict[str, float]
    free_facing_hexsides: int  # 8.74: an AFV turns this many hexsides free in each hex
    extra_hexside_mp: float  # 8.74: each further hexside costs this

    def allowance(self, kind: str, morale: str, phase: str) -> float | str | None:
        return self.table[kind][morale][f"{phase}_phase"]


@cache
def _load(path: Path) -> SourceDocument:
    """A table file, parsed and schema-checked once: several loaders read one file (combat.yaml
    for the set-up limits and the engine's values), and none edits what it reads (`plain` copies)."""
    doc = load_yaml(path)
    problems = list(schema_problems(doc, "table"))
    if count_errors(problems):
        raise LoadError(doc.file, problems)
    return doc


def terrain_effects_from(data: dict[str, Any]) -> TerrainEffects:
    values = plain(data)
    rows = {
        name: TerrainRow(
            _cost(row["infantry_cw_up"]),
            _cost(row["infantry_cw_down"]),
            _cost(row["afv_up"]),
            _cost(row["afv_down"]),
            int(row["ap_dice"]),
            int(row["observation_base"]),
            float(row["obstacle_level"]),
        )
        for name, row in values["terrain"].items()
    }
    move = values["movement"]
    symbol = values["building_footprint"]
    return TerrainEffects(
        rows,
        float(move["uphill_extra_mp"]),
        float(move["road_rate_mp_per_hex"]),
        int(move["woods_min_trees"]),
        tuple((float(x), float(y)) for x, y in symbol["polygon"]),
        float(symbol["join_width"]),
    )


@cache
def terrain_effects(path: Path | None = None) -> TerrainEffects:
    """The bundled Movement & Combat Effects Chart (or the one at `path`)."""
    return terrain_effects_from(_load(path or data_path("tables", "terrain-effects.yaml")).data)


@dataclass(frozen=True)
class SightingRules:
    """The printed numbers of 10.31 kept in tables/sighting.yaml."""

    max_trees_along: int  # 10.31 b: "more than three" blocks


@cache
def sighting_rules(path: Path | None = None) -> SightingRules:
    values = plain(_load(path or data_path("tables", "sighting.yaml")).data)
    return SightingRules(int(values["same_level"]["max_trees_along"]))


@cache
def movement_allowances(path: Path | None = None) -> Allowances:
    values = plain(_load(path or data_path("tables", "movement-allowances.yaml")).data)
    other = values["other_costs"]
    return Allowances(
        values["allowances"],
        {
            k: float(v)
            for k, v in values["leader_directed_movement"].items()
            if k in ("movement_phase", "reaction_phase")
        },
        int(other["afv_free_facing_hexsides"]),
        float(other["afv_extra_hexside_mp"]),
    )


@cache
def table_values(name: str) -> dict[str, Any]:
    """A bundled table (tables/NAME.yaml) with every sourced value replaced by its value: the rules
    engine reads its printed numbers here (provenance policy: never a number in code)."""
    values: dict[str, Any] = plain(_load(data_path("tables", f"{name}.yaml")).data)
    return values
