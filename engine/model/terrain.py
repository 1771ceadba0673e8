"""The terrain of one hex, as painted on the map (trees, levels, buildings, marsh, gully, roads)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from .tables import terrain_effects

# Keys a map file may give a hex (docs/formats.md); `road` and `bridge` come from the
# map's road and bridge lists.
HEX_KEYS = ("trees", "level", "upper_level", "hill", "building", "footprint", "marsh", "gully")

Footprint = tuple[tuple[float, float], ...]


@cache
def _woods_min_trees() -> int:
    """The chart's `woods_min_trees`, read once: zones and checks ask every hex after each edit."""
    return terrain_effects().woods_min_trees


@dataclass(frozen=True)
class Terrain:
    trees: int = 0
    level: int = 0
    upper_level: int | None = None
    hill: str | None = None
    building: str | None = None
    footprint: Footprint | None = None
    marsh: bool = False
    gully: bool = False
    road: bool = False
    bridge: bool = False

    @property
    def is_woods(self) -> bool:
        """A Woods (tree) hex: at least the chart's `woods_min_trees` Tree symbols (8.54: "2 or more";
        errata: one Tree is not a tree hex)."""
        return self.trees >= _woods_min_trees()

    @property
    def elevation(self) -> int:
        """The hex's level for LOS and movement: a hex holding two elevations counts as the lower (10.34)."""
        return self.level

    @property
    def is_clear(self) -> bool:
        return (
            self.trees == 0
            and self.building is None
            and not (self.marsh or self.gully or self.road)
            and self.level == 0
            and self.upper_level is None
        )

    def changed(self, values: dict[str, Any]) -> Terrain:
        """A copy with hex keys set; None removes a key (back to its default)."""
        defaults: dict[str, Any] = {f.name: f.default for f in fields(self)}
        updates: dict[str, Any] = {
            key: defaults[key] if value is None else coerce(key, value) for key, value in values.items()
        }
        return replace(self, **updates)

    def as_hex_keys(self) -> dict[str, Any]:
        """The keys a map file would hold for this hex (defaults left out)."""
        out: dict[str, Any] = {}
        for key in HEX_KEYS:
            value = getattr(self, key)
            if value != Terrain.__dataclass_fields__[key].default:
                out[key] = [list(p) for p in value] if key == "footprint" else value
        return out


CLEAR = Terrain()


def coerce(key: str, value: Any) -> Any:
    """A value from a file to the model's type (building ids are strings, footprints tuples)."""
    if key == "building":
        return str(value)
    if key == "footprint":
        return tuple((float(x), float(y)) for x, y in value)
    return value


def terrain_from_keys(keys: dict[str, Any] | None) -> Terrain:
    return CLEAR.changed({k: v for k, v in (keys or {}).items() if v is not None})
