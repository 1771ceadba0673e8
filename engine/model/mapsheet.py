"""One map file: its grid and the terrain, roads and bridges painted on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from engine.hexgrid import Hex, Offset, hex_label, offset_to_hex, parse_label
from engine.problems import count_errors

from .load_errors import LoadError
from .schema import schema_problems
from .source import SourceDocument, SourceError, load_yaml
from .terrain import Terrain, terrain_from_keys


@dataclass(frozen=True)
class Grid:
    """Inclusive column and row ranges, and which columns sit half a hex lower."""

    columns: tuple[int, int]
    rows: tuple[int, int]
    offset: Offset = Offset.EVEN_Q

    def contains(self, column: int, row: int) -> bool:
        return self.columns[0] <= column <= self.columns[1] and self.rows[0] <= row <= self.rows[1]

    def hexes(self) -> frozenset[Hex]:
        return self._hexes

    @cached_property
    def _hexes(self) -> frozenset[Hex]:
        # worked out once: checks ask for a map's hexes after every edit (a frozen grid never changes)
        return frozenset(
            offset_to_hex(c, r, self.offset)
            for c in range(self.columns[0], self.columns[1] + 1)
            for r in range(self.rows[0], self.rows[1] + 1)
        )

    def describe(self) -> str:
        return f"columns {self.columns[0]}-{self.columns[1]}, rows {self.rows[0]}-{self.rows[1]}"


@dataclass
class MapSheet:
    """A map as its file describes it (before any errata)."""

    name: str
    grid: Grid
    terrain: dict[Hex, Terrain]
    roads: list[list[Hex]]
    bridges: list[Hex]
    file: str = "<memory>"
    provenance: dict[str, str] | None = None
    doc: SourceDocument | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        """The name scenarios use for this map: its file name without `.yaml`."""
        return Path(self.file).stem

    def label(self, h: Hex) -> str:
        return hex_label(h, self.grid.offset)

    def hexes(self) -> frozenset[Hex]:
        return self.grid.hexes()


def map_from_document(doc: SourceDocument) -> MapSheet:
    """Build a map from a schema-valid document; raise LoadError with every schema problem otherwise."""
    problems = list(schema_problems(doc, "map"))
    if count_errors(problems):
        raise LoadError(doc.file, problems)
    data: dict[str, Any] = doc.data
    grid_data = data["grid"]
    grid = Grid(
        (grid_data["columns"][0], grid_data["columns"][1]),
        (grid_data["rows"][0], grid_data["rows"][1]),
        Offset(grid_data.get("offset", "even-q")),
    )
    terrain = {
        parse_label(label, grid.offset): terrain_from_keys(keys) for label, keys in (data.get("hexes") or {}).items()
    }
    roads = [[parse_label(label, grid.offset) for label in road] for road in data.get("roads") or []]
    bridges = [parse_label(label, grid.offset) for label in data.get("bridges") or []]
    return MapSheet(data["name"], grid, terrain, roads, bridges, doc.file, data.get("provenance"), doc)


def load_map(path: Path | str) -> MapSheet:
    """Read a map file. SourceError: unreadable or not YAML; LoadError: not a valid map."""
    return map_from_document(load_yaml(path))


__all__ = [
    "Grid",
    "MapSheet",
    "SourceError",
    "load_map",
    "map_from_document",
]
