"""The board: the scenario's maps assembled into one grid, with the errata applied.

Maps 1 and 2 share column 30 and Maps 2 and 3 column 50: an assembled board holds each
seam hex once. Everything that asks about terrain (zones, LOS, movement, validation) asks
the board, never a map file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import Any

from engine.file_reads import file_exists
from engine.hexgrid import (
    Hex,
    LabelError,
    Offset,
    are_adjacent,
    hex_label,
    hex_to_offset,
    neighbours,
    parse_label,
)
from engine.resources import data_path
from engine.terminal_text import shown

from .errata import Change, Errata, load_errata
from .map_folders import MapPathError, allowed_file, extra_folders
from .mapsheet import MapSheet, load_map
from .terrain import CLEAR, Terrain


@dataclass(frozen=True)
class AppliedChange:
    """What an erratum did to one hex."""

    change: Change
    hex: Hex
    before: Terrain
    after: Terrain


@dataclass(frozen=True)
class SeamConflict:
    """A seam hex that two map files describe differently; the first map's description is kept."""

    hex: Hex
    kept: MapSheet
    other: MapSheet


class UnknownHexError(LabelError):
    """A label that names no hex of the board."""


@dataclass
class Board:
    maps: list[MapSheet]
    offset: Offset
    terrain_map: dict[Hex, Terrain]
    roads: list[list[Hex]]
    bridges: frozenset[Hex]
    hexes: frozenset[Hex]
    applied: list[AppliedChange] = field(default_factory=list)
    seam_conflicts: list[SeamConflict] = field(default_factory=list)
    errata: Errata | None = None
    # Called with the hexes of every terrain edit, so derived data (movement graphs,
    # viewsheds, zones) follows the edit instead of being rebuilt.
    watchers: list[Callable[[frozenset[Hex]], None]] = field(default_factory=list, repr=False, compare=False)
    caches: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    previous: dict[Hex, Terrain] = field(default_factory=dict, repr=False, compare=False)  # before the last edit

    # -- labels -------------------------------------------------------------------------
    def label(self, h: Hex) -> str:
        return hex_label(h, self.offset)

    def hex(self, label: str) -> Hex:
        """The hex a printed label names; UnknownHexError if it is not on this board."""
        h = parse_label(label, self.offset)
        if h not in self.hexes:
            raise UnknownHexError(f"hex {label} is not on {self.describe()}")
        return h

    def describe(self) -> str:
        columns = [c for m in self.maps for c in m.grid.columns]
        rows = [r for m in self.maps for r in m.grid.rows]
        names = " + ".join(shown(m.name) for m in self.maps)
        return f"{names} (columns {min(columns)}-{max(columns)}, rows {min(rows)}-{max(rows)})"

    # -- terrain ------------------------------------------------------------------------
    def terrain(self, h: Hex) -> Terrain:
        return self.terrain_map.get(h, CLEAR)

    def set_terrain(self, changes: Mapping[Hex, Terrain]) -> None:
        """Edit hexes (an editor's brush stroke, an erratum); watchers learn which hexes changed.

        Road chains are not terrain: a hex's `road` and `bridge` flags follow `roads`.
        """
        outside = next((h for h in changes if h not in self.hexes), None)
        if outside is not None:  # before any change: the kept buildings and hills stay true
            raise UnknownHexError(f"hex {outside} is not on {self.describe()}")
        self.previous = {h: self.terrain(h) for h in changes}
        for h, t in changes.items():
            if t == CLEAR:
                self.terrain_map.pop(h, None)
            else:
                self.terrain_map[h] = t
        self.__dict__.pop("gully_neighbours", None)
        for key in ("building", "hill"):
            if f"{key} hexes" in self.caches:
                self._rename(key, self.previous)
        hexes = frozenset(changes)
        for watch in list(self.watchers):
            watch(hexes)

    def neighbours(self, h: Hex) -> list[Hex]:
        """The hexes of the board sharing a hexside with h."""
        return [n for n in neighbours(h) if n in self.hexes]

    def maps_of(self, h: Hex) -> list[MapSheet]:
        column, row = hex_to_offset(h, self.offset)
        return [m for m in self.maps if m.grid.contains(column, row)]

    def buildings(self) -> dict[str, frozenset[Hex]]:
        """Building id -> its hexes; hexes sharing an id form one multi-hex building."""
        return dict(self._named("building"))

    def hills(self) -> dict[str, frozenset[Hex]]:
        return dict(self._named("hill"))

    def _named(self, key: str) -> dict[str, frozenset[Hex]]:
        """Each name of a building or hill (`key`) and its hexes, in the names' order; kept in
        `caches` and patched at each edit's hexes (set_terrain), not worked out from the board."""
        if f"{key} hexes" not in self.caches:
            out: dict[str, set[Hex]] = {}
            for h, t in self.terrain_map.items():
                if (name := getattr(t, key)) is not None:
                    out.setdefault(name, set()).add(h)
            self.caches[f"{key} hexes"] = {k: frozenset(v) for k, v in sorted(out.items())}
        named: dict[str, frozenset[Hex]] = self.caches[f"{key} hexes"]
        return named

    def _rename(self, key: str, before: Mapping[Hex, Terrain]) -> None:
        named: dict[str, frozenset[Hex]] = self.caches[f"{key} hexes"]
        changed: dict[str, set[Hex]] = {}
        for h, old in before.items():
            was, now = getattr(old, key), getattr(self.terrain(h), key)
            if was != now:
                if was is not None:
                    changed.setdefault(was, set(named.get(was, ()))).discard(h)
                if now is not None:
                    changed.setdefault(now, set(named.get(now, ()))).add(h)
        if changed:
            named |= {name: frozenset(hexes) for name, hexes in changed.items()}
            self.caches[f"{key} hexes"] = {k: v for k, v in sorted(named.items()) if v}

    # -- roads and gullies ----------------------------------------------------------------
    @cached_property
    def road_neighbours(self) -> dict[Hex, dict[Hex, None]]:
        """Each road hex and the road hexes a road chain joins it to across their shared hexside
        (the keys of a dict: in the order the chains give them). Movement costs ask it at every step."""
        joined: dict[Hex, dict[Hex, None]] = {}
        for road in self.roads:
            for h in road:
                joined.setdefault(h, {})
            for a, b in pairwise(road):
                if are_adjacent(a, b):
                    joined[a][b] = joined[b][a] = None
        return joined

    def roads_changed(self) -> None:
        """Forget what was derived from `roads` (an editor replaced them): it is built again when asked."""
        self.__dict__.pop("road_neighbours", None)

    @cached_property
    def gully_neighbours(self) -> dict[Hex, dict[Hex, None]]:
        """Each gully hex and the gully hexes next to it."""
        joined: dict[Hex, dict[Hex, None]] = {h: {} for h, t in self.terrain_map.items() if t.gully}
        for a in list(joined):
            for b in neighbours(a):
                if b in joined:
                    joined[a][b] = joined[b][a] = None
        return joined

    def road_path(self, waypoints: Sequence[str]) -> list[Hex]:
        """The road hexes from waypoint to waypoint, along the roads (shortest way between each pair)."""
        return self._path(self.road_neighbours, waypoints, "road")

    def gully_path(self, waypoints: Sequence[str]) -> list[Hex]:
        return self._path(self.gully_neighbours, waypoints, "gully")

    def _path(self, joined: Mapping[Hex, Mapping[Hex, None]], waypoints: Sequence[str], what: str) -> list[Hex]:
        hexes = [self.hex(w) for w in waypoints]
        for label, h in zip(waypoints, hexes, strict=True):
            if h not in joined:
                raise NoPathError(f"hex {label} is not a {what} hex")
        path = [hexes[0]]
        for (la, a), (lb, b) in pairwise(zip(waypoints, hexes, strict=True)):
            leg = shortest_path(joined, a, b)
            if leg is None:
                raise NoPathError(f"no {what} joins {la} to {lb}")
            path.extend(leg[1:])
        return path


def shortest_path(joined: Mapping[Hex, Mapping[Hex, None]], source: Hex, target: Hex) -> list[Hex] | None:
    """A path with the fewest steps from source to target (None: there is none), by networkx's
    bidirectional breadth-first search (its `shortest_path` without weights), step for step: of
    equally short ways it chooses the same one, and needs no networkx (0.1 s to import)."""
    if source == target:
        return [source]
    before: dict[Hex, Hex | None] = {source: None}  # each hex reached from the source: the hex it came from
    after: dict[Hex, Hex | None] = {target: None}  # each reached from the target: the hex towards the target
    forward, backward = [source], [target]
    meeting = None
    while forward and backward and meeting is None:
        if len(forward) <= len(backward):
            level, forward = forward, []
            for v in level:
                for w in joined[v]:
                    if w not in before:
                        forward.append(w)
                        before[w] = v
                    if w in after:
                        meeting = w
                        break
                if meeting is not None:
                    break
        else:
            level, backward = backward, []
            for v in level:
                for w in joined[v]:
                    if w not in after:
                        after[w] = v
                        backward.append(w)
                    if w in before:
                        meeting = w
                        break
                if meeting is not None:
                    break
    if meeting is None:
        return None
    path: list[Hex] = []
    step: Hex | None = meeting
    while step is not None:
        path.append(step)
        step = before[step]
    path.reverse()
    step = after[path[-1]]
    while step is not None:
        path.append(step)
        step = after[step]
    return path


class NoPathError(ValueError):
    """Waypoints that no road (or gully) joins."""


def assemble(maps: Sequence[MapSheet], errata: Errata | None = None) -> Board:
    """One board from several maps, seam columns once, with the errata applied if given."""
    if not maps:
        raise ValueError("a board needs at least one map")
    offsets = {m.grid.offset for m in maps}
    if len(offsets) > 1:
        raise ValueError("maps with different offsets cannot be assembled: " + ", ".join(m.name for m in maps))
    offset = maps[0].grid.offset
    terrain: dict[Hex, Terrain] = {}
    owner: dict[Hex, MapSheet] = {}
    conflicts: list[SeamConflict] = []
    hexes: set[Hex] = set()
    for sheet in maps:
        grid_hexes = sheet.hexes()
        for h in grid_hexes:
            t = sheet.terrain.get(h, CLEAR)
            if h in hexes:
                if t != terrain.get(h, CLEAR):
                    conflicts.append(SeamConflict(h, owner[h], sheet))
                continue
            hexes.add(h)
            owner[h] = sheet
            if t != CLEAR:
                terrain[h] = t
    roads = [road for sheet in maps for road in sheet.roads]
    bridges = frozenset(b for sheet in maps for b in sheet.bridges)
    road_hexes = {h for road in roads for h in road}
    for h in road_hexes & hexes:
        terrain[h] = replace(terrain.get(h, CLEAR), road=True, bridge=h in bridges)
    board = Board(list(maps), offset, terrain, roads, bridges, frozenset(hexes), seam_conflicts=conflicts)
    if errata is not None:
        apply_errata(board, errata)
    return board


def apply_errata(board: Board, errata: Errata) -> list[AppliedChange]:
    """Apply each change to the board's hexes; hexes on none of the board's maps are skipped."""
    applied: list[AppliedChange] = []
    for change in errata.changes:
        for label in change.hexes:
            h = parse_label(label, board.offset)
            if h not in board.hexes:
                continue
            before = board.terrain(h)
            after = before.changed(change.values)
            board.terrain_map[h] = after
            applied.append(AppliedChange(change, h, before, after))
    board.applied.extend(applied)
    board.errata = errata
    return applied


def resolve_map_path(name: str, relative_to: Path | None = None) -> Path:
    """A map named in a scenario: a bundled map name (`map2`), or a file (with or without
    `.yaml`) under the folders the scenario may read (engine/model/map_folders.py)."""
    folder = relative_to or Path.cwd()
    path = Path(name)
    candidates = [path, path.with_name(f"{path.name}.yaml")]
    if not path.is_absolute():
        candidates = [folder / c for c in candidates] + [folder / ".." / "maps" / f"{name}.yaml"]
        candidates += [extra / c for extra in extra_folders() for c in (path, Path(f"{name}.yaml"))]
        candidates.append(data_path("maps", f"{name}.yaml"))
    for candidate in candidates:
        try:
            found = file_exists(candidate)  # noted: a verdict kept on disk rests on it (engine/file_reads.py)
        except OSError as exc:  # ENAMETOOLONG: a name over 255 bytes is no file
            raise MapPathError(f"map {shown(repr(name))} cannot be a file: {exc.strerror}") from None
        if found:
            return allowed_file(candidate, folder, f"map {shown(repr(name))}")
    raise MapPathError(
        f"map {shown(repr(name))} not found: it is neither a bundled map (map1, map2, map3) nor a file in {folder}"
    )


def default_errata_path() -> Path:
    return data_path("maps", "errata.yaml")


def resolve_errata_path(errata: bool | str | Path, relative_to: Path | None = None) -> Path | None:
    """The errata file a scenario names: the printed errata for `true`, none for `false`, else a
    file under the folders the scenario may read."""
    if errata is True:
        return default_errata_path()
    if not errata:
        return None
    folder = relative_to or Path.cwd()
    return allowed_file(folder / errata, folder, f"errata file {str(errata)!r}")


def load_board(names: Iterable[str], errata: bool | str | Path = True, relative_to: Path | None = None) -> Board:
    """Load and assemble maps by name (`map1`) or path, applying the printed errata by default."""
    maps = [load_map(resolve_map_path(n, relative_to)) for n in names]
    errata_path = resolve_errata_path(errata, relative_to)
    return assemble(maps, load_errata(errata_path) if errata_path else None)
