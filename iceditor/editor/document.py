"""What the editor has open: a scenario (with its maps and errata) or a single map, as files.

The files are kept as round-trip YAML (ruamel.yaml), so saving keeps the user's comments,
key order and quoting; edits change both that YAML and the engine's model. The board shown
and validated is the maps with the errata applied, exactly as `iceditor validate` builds it:
painting a hex changes the map file (the printed sheet) and the board shows that hex with its
erratum, if any, applied on top. Nothing here imports Qt.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from engine.hexgrid import Hex
from engine.model.board import Board, assemble, resolve_errata_path, resolve_map_path
from engine.model.errata import Errata, errata_from_document
from engine.model.mapsheet import LoadError, MapSheet, map_from_document
from engine.model.schema import schema_name
from engine.model.source import SourceDocument, SourceError, load_yaml, parse_yaml
from engine.model.terrain import CLEAR, HEX_KEYS, Terrain
from engine.problems import Problem
from engine.validate.runner import map_problems
from engine.validate.session import ValidationSession


def _yaml() -> YAML:
    # The round-trip loader builds only mappings, sequences and scalars (tags are kept as
    # tagged values, never turned into objects): files stay data.
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 100  # the width the bundled files are written to
    y.indent(mapping=2, sequence=4, offset=2)
    return y


@dataclass
class SourceFile:
    """One YAML file as the user wrote it, and whether it has unsaved edits."""

    path: Path
    data: Any
    dirty: bool = False

    @classmethod
    def read(cls, path: Path) -> SourceFile:
        return cls(path, _yaml().load(path.read_text(encoding="utf-8")))

    def text(self) -> str:
        out = io.StringIO()
        _yaml().dump(self.data, out)
        return out.getvalue()

    def document(self) -> SourceDocument:
        """The file as the engine reads it (positions for problems), from the current edits."""
        return parse_yaml(self.text(), str(self.path))

    def save(self, path: Path | None = None) -> None:
        """Write atomically: a temporary file in the same folder, flushed, then renamed over."""
        target = path or self.path
        atomic_write(target, self.text())
        self.path, self.dirty = target, False


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


@dataclass
class MapFile(SourceFile):
    sheet: MapSheet | None = None

    def set_terrain(self, h: Hex, terrain: Terrain) -> None:
        """Write a hex's terrain into the file (its `hexes:` entry, flow style like the rest)."""
        assert self.sheet is not None
        label = self.sheet.label(h)
        hexes = self.data.get("hexes")
        if hexes is None:
            hexes = self.data["hexes"] = CommentedMap()
        keys = terrain.as_hex_keys()
        if not keys:
            hexes.pop(label, None)
        else:
            entry = hexes.get(label)
            if not isinstance(entry, CommentedMap):
                entry = CommentedMap()
                entry.fa.set_flow_style()
                hexes[DoubleQuotedScalarString(label)] = entry
            for key in HEX_KEYS:
                if key in keys:
                    entry[key] = keys[key]
                else:
                    entry.pop(key, None)
        if terrain == CLEAR:
            self.sheet.terrain.pop(h, None)
        else:
            self.sheet.terrain[h] = terrain
        self.dirty = True


@dataclass
class EditorDocument:
    """A scenario and its maps, or one map file."""

    maps: list[MapFile]
    board: Board
    scenario: SourceFile | None = None
    errata: Errata | None = None
    errata_path: Path | None = None
    session: ValidationSession | None = field(default=None, repr=False)

    @property
    def path(self) -> Path:
        return self.scenario.path if self.scenario else self.maps[0].path

    @property
    def dirty(self) -> bool:
        return any(f.dirty for f in self.files())

    def files(self) -> list[SourceFile]:
        return ([self.scenario] if self.scenario else []) + list(self.maps)

    # -- terrain --------------------------------------------------------------------------
    def printed(self, h: Hex) -> Terrain:
        """A hex as the map file has it, before errata (what a brush paints)."""
        for m in self.maps:
            assert m.sheet is not None
            if h in m.sheet.hexes():
                return m.sheet.terrain.get(h, CLEAR)
        return CLEAR

    def set_printed(self, changes: Mapping[Hex, Terrain]) -> None:
        """Paint hexes of the map files; the board shows them with their errata, and every
        watcher of the board (validation, views) learns which hexes changed."""
        shown: dict[Hex, Terrain] = {}
        for h, terrain in changes.items():
            for m in self.maps:  # a seam hex is on two maps: both files change
                assert m.sheet is not None
                if h in m.sheet.hexes():
                    m.set_terrain(h, terrain)
            shown[h] = self._with_errata(h, terrain)
        self.board.set_terrain(shown)

    def _with_errata(self, h: Hex, terrain: Terrain) -> Terrain:
        if self.errata is None:
            return terrain
        label = self.board.label(h)
        for change in self.errata.changes:
            if label in change.hexes:
                terrain = terrain.changed(change.values)
        return terrain

    # -- validation -----------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """The problems of what is open: the scenario's checks (incremental) and each map's."""
        found = [p for m in self.maps if m.sheet is not None for p in map_problems(m.sheet)]
        if self.session is not None:
            found += self.session.problems()
        return found

    def scenario_changed(self) -> None:
        """The scenario file's own data changed (not terrain): validate it afresh."""
        if self.scenario is not None:
            self.scenario.dirty = True
            self.session = ValidationSession(self.scenario.document(), board=self.board)

    # -- saving ---------------------------------------------------------------------------
    def save(self) -> list[Path]:
        """Save every file with unsaved edits (each atomically); the paths written."""
        written = []
        for f in self.files():
            if f.dirty:
                f.save()
                written.append(f.path)
        return written


def open_document(path: Path, texts: Mapping[Path, str] | None = None) -> EditorDocument:
    """Open a scenario or a map file. SourceError/LoadError with every problem if it cannot be
    used: a file that fails to load is reported, never half-loaded.

    `texts`: the text of some of its files, read instead of the disk (an autosave restored, a new
    map); those files open with unsaved edits."""
    given = _GivenTexts({p.resolve(): text for p, text in (texts or {}).items()})
    doc = given.load(path)
    kind = schema_name(doc)
    if kind == "scenario":
        return _open_scenario(path, doc, given)
    if kind == "map":
        sheet = map_from_document(doc)
        map_file = _map_file(path, sheet, given)
        return EditorDocument([map_file], assemble([sheet]))
    raise LoadError(str(path), [_not_editable(doc, kind)])


class _GivenTexts(dict[Path, str]):
    """Files' text by resolved path, used instead of what is on disk."""

    def load(self, path: Path) -> SourceDocument:
        text = self.get(path.resolve())
        return load_yaml(path) if text is None else parse_yaml(text, str(path))

    def source(self, path: Path) -> tuple[Any, bool]:
        """The file's round-trip data, and whether it differs from the disk (its text was given)."""
        text = self.get(path.resolve())
        return _yaml().load(path.read_text(encoding="utf-8") if text is None else text), text is not None


def _open_scenario(path: Path, doc: SourceDocument, given: _GivenTexts) -> EditorDocument:
    from engine.model.scenario import scenario_from_document

    scenario = scenario_from_document(doc)  # LoadError if the schema is not met
    maps = []
    for name in scenario.maps:
        map_path = resolve_map_path(name, scenario.folder)
        maps.append(_map_file(map_path, map_from_document(given.load(map_path)), given))
    errata_path = resolve_errata_path(scenario.errata, scenario.folder)
    errata = errata_from_document(load_yaml(errata_path)) if errata_path else None
    board = assemble([m.sheet for m in maps if m.sheet is not None], errata)
    document = EditorDocument(maps, board, SourceFile(path, *given.source(path)), errata, errata_path)
    document.session = ValidationSession(doc, board=board)
    return document


def _map_file(path: Path, sheet: MapSheet, given: _GivenTexts) -> MapFile:
    data, edited = given.source(path)
    return MapFile(path, data, edited, sheet=sheet)


def _not_editable(doc: SourceDocument, kind: str | None) -> Problem:
    from engine.validate.checks.file_format import UNKNOWN_FORMAT

    what = f"a {kind} file" if kind else "not an iceditor file"
    return UNKNOWN_FORMAT.problem(doc, ("format",), f"{what}: the editor opens scenarios and maps")


__all__ = ["EditorDocument", "LoadError", "MapFile", "SourceError", "SourceFile", "atomic_write", "open_document"]
