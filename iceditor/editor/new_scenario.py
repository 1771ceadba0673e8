"""File > New scenario without Qt: the maps a new scenario may use, how two of them join, where
its NORTH indicator goes, and the scenario file it starts as.

A new scenario states what the dialog asked (24.1: the maps, north, the game length, who sets up
and moves first, the background) and nothing else: it has no units and no victory yet, so it
opens half-made, its schema problems listed until the panels fill them in. Nothing here imports Qt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.hexgrid import Hex, hex_label, offset_to_hex
from engine.model.board import resolve_map_path
from engine.model.load_errors import LOAD_FAILURES
from engine.model.mapsheet import MapSheet, load_map
from engine.model.scenario import LATEST_FORMAT
from engine.resources import bundled_maps, data_path

SIDE_NAMES = {"german": "German", "russian": "Russian"}
# Which way the NORTH indicator points on the sheet. A hex grid of columns has neighbours straight
# up and down a column only; a diagonal north would leave the map edges ambiguous (R1).
NORTH_CHOICES = {"up": "toward row 01 (the top of the sheet)", "down": "toward the last row (the bottom)"}


@dataclass(frozen=True)
class MapChoice:
    """A map a scenario in a folder can name: `name` as its `maps:` writes it."""

    name: str
    sheet: MapSheet
    bundled: bool

    def describe(self) -> str:
        where = "bundled" if self.bundled else Path(self.sheet.file).name
        return f"{self.sheet.name} ({where}; {self.sheet.grid.describe()})"


def map_choices(folder: Path) -> list[MapChoice]:
    """The maps a scenario saved in `folder` can name: the bundled ones, then the map files in
    `folder`, each as the scenario would find it (a file `map1.yaml` beside it hides the bundled
    Map 1, resolve_map_path); a file that is not a valid map is passed over."""
    names = [p.stem for p in bundled_maps()] + [p.stem for p in sorted(folder.glob("*.y*ml")) if folder.is_dir()]
    bundled = data_path("maps").resolve()
    found = []
    for name in dict.fromkeys(names):
        try:
            path = resolve_map_path(name, folder)
            found.append(MapChoice(name, load_map(path), path.resolve().parent == bundled))
        except (*LOAD_FAILURES, RecursionError):
            continue
    return found


def join(sheets: Sequence[MapSheet]) -> str:
    """How the maps make one board, as the scenarios print it ("hex columns 1001/1027 to
    5001/5027"); ValueError saying why they cannot (different offsets, no hexside in common)."""
    grids = [s.grid for s in sheets]
    if len({g.offset for g in grids}) > 1:
        raise ValueError("their grids place the columns differently (even-q and odd-q): they cannot be joined")
    c1, c2 = min(g.columns[0] for g in grids), max(g.columns[1] for g in grids)
    r1, r2 = min(g.rows[0] for g in grids), max(g.rows[1] for g in grids)
    span = f"hex columns {c1:02d}{r1:02d}/{c1:02d}{r2:02d} to {c2:02d}{r1:02d}/{c2:02d}{r2:02d}"
    if len(sheets) == 1:
        return span
    a, b = grids
    shared = a.hexes() & b.hexes()
    if not shared:
        raise ValueError(
            f"{sheets[0].name} ({a.describe()}) and {sheets[1].name} ({b.describe()}) share no hex: "
            "two maps join along a column (or row) both print, as Maps 1 and 2 share column 30"
        )
    seam = _seam(a.columns, b.columns, "column") or _seam(a.rows, b.rows, "row") or f"{len(shared)} hexes"
    return f"{span}; {sheets[0].name} and {sheets[1].name} share {seam}, drawn as {sheets[0].name} prints it"


def _seam(first: tuple[int, int], second: tuple[int, int], what: str) -> str | None:
    low, high = max(first[0], second[0]), min(first[1], second[1])
    if low > high:
        return None
    return f"{what} {low:02d}" if low == high else f"{what}s {low:02d}-{high:02d}"


def north_indicator(sheet: MapSheet, way: str) -> tuple[str, str]:
    """The NORTH indicator's hex and the hex it points to (24.1) on the first map's first column:
    `up` from row 02 to row 01, as in Scenario 2; `down` from row 01 to row 02, as in Scenario 6."""
    column, (first, _) = sheet.grid.columns[0], sheet.grid.rows
    at, toward = (first + 1, first) if way == "up" else (first, first + 1)
    offset = sheet.grid.offset
    hexes: list[Hex] = [offset_to_hex(column, row, offset) for row in (at, toward)]
    return hex_label(hexes[0], offset), hex_label(hexes[1], offset)


@dataclass(frozen=True)
class NewScenario:
    """What the New scenario dialog asks."""

    title: str
    number: int
    maps: tuple[MapChoice, ...]
    game_length: int
    sets_up_first: str = "german"
    moves_first: str = "russian"
    north: str = "up"
    background: str = ""

    def text(self) -> str:
        """The scenario file: every field asked, each side with no group yet, no victory yet."""
        at, toward = north_indicator(self.maps[0].sheet, self.north)
        q = json.dumps  # YAML reads a JSON string as the same string
        lines = [
            f"format: {LATEST_FORMAT}",
            f"number: {self.number}",
            f"title: {q(self.title, ensure_ascii=False)}",
        ]
        if self.background.strip():
            lines.append(f"background: {q(' '.join(self.background.split()), ensure_ascii=False)}")
        lines += [
            f"maps: [{', '.join(q(m.name) for m in self.maps)}]",
            "errata: true",
            f"north: {{hex: {q(at)}, toward: {q(toward)}}}",
            f"game_length: {self.game_length}",
            f"sets_up_first: {self.sets_up_first}",
            f"moves_first: {self.moves_first}",
            "",
            "sides:",
        ]
        for side in SIDE_NAMES:
            lines += [f"  {side}:", "    groups: []"]
        return "\n".join(lines) + "\n"

    def file_name(self) -> str:
        slug = "".join(c if c.isalnum() else "-" for c in self.title.lower()).strip("-")
        return f"s{self.number}-{'-'.join(filter(None, slug.split('-'))) or 'new'}.yaml"
