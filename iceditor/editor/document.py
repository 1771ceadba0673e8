"""What the editor has open: a scenario (with its maps and errata) or a single map, as files.

The files are kept as round-trip YAML (ruamel.yaml), so saving keeps the user's comments,
key order and quoting; edits change both that YAML and the engine's model. The board shown
and validated is the maps with the errata applied, exactly as `iceditor validate` builds it:
painting a hex changes the map file (the printed sheet) and the board shows that hex with its
erratum, if any, applied on top. Nothing here imports Qt.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, NamedTuple

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from engine.file_writing import atomic_write, remove_stale_temps
from engine.hexgrid import Hex, LabelError, hex_to_offset
from engine.model.board import Board, assemble, resolve_errata_path, resolve_map_path
from engine.model.errata import Errata, errata_from_document
from engine.model.load_errors import LoadError
from engine.model.mapsheet import MapSheet, map_from_document
from engine.model.schema import schema_name, schema_problems
from engine.model.source import SourceDocument, SourceError, check_yaml, load_yaml, parse_yaml, read_text
from engine.model.terrain import CLEAR, HEX_KEYS, Terrain, coerce, terrain_from_keys
from engine.problems import Problem, Severity
from engine.validate.runner import map_problems
from engine.validate.session import ValidationSession

from .kept_lines import keep_unedited_lines


def _yaml(width: int = 100) -> YAML:
    # The round-trip loader builds only mappings, sequences and scalars (tags are kept as
    # tagged values, never turned into objects): files stay data.
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = width
    y.indent(mapping=2, sequence=4, offset=2)
    y.brace_single_entry_mapping_in_flow_sequence = True  # keep `[{hill: J}, {hill: K}]` as written
    return y


@dataclass(eq=False)  # a file is itself: compared and hashed by identity
class SourceFile:
    """One YAML file as the user wrote it, its edits, and what the file on disk holds.

    A save writes the edits over the file as it was read, keeping every line not edited byte for
    byte (kept_lines.py): a document edited back to how it was read saves the original bytes,
    and a file whose text would not change is not written."""

    path: Path
    data: Any
    dirty: bool = False  # edited since opened or saved (its text may still be the disk's: `unsaved`)
    # Scenarios hold long quoted sentences: never re-wrapped. Maps wrap their road lists at
    # the width the bundled maps are written to.
    width: int = 4096
    original: str | None = None  # the file's text when opened (None: not on disk yet)
    on_disk: str | None = None  # its text on disk now: `original`, or what the editor last wrote
    newline: str = "\n"  # how its lines end on disk (the texts here end them with `\n`)
    read_as: Any = field(default=None, repr=False)  # the data of `original`, never edited (None: parsed when needed)
    _baseline: str | None = field(default=None, repr=False)

    def current(self) -> Any:
        """The round-trip data of the file as edited."""
        return self.data

    def text(self) -> str:
        """The file as a save writes it."""
        edited = self._dump(self.current())
        if self.original is None:
            return edited
        if self._baseline is None:  # the writer's own text of the file as read
            self._baseline = self._dump(self.read_as if self.read_as is not None else _yaml().load(self.original))
        return keep_unedited_lines(self.original, self._baseline, edited)

    def _dump(self, data: Any) -> str:
        out = io.StringIO()
        _yaml(self.width).dump(data, out)
        return out.getvalue()

    def document(self) -> SourceDocument:
        """The file as the engine reads it (positions for problems), from the current edits."""
        return parse_yaml(self.text(), str(self.path))

    def unsaved(self) -> bool:
        """Whether saving would change the file on disk (an edit undone leaves nothing to save)."""
        return self.dirty and self.text() != self.on_disk

    def save(self, path: Path | None = None) -> Path:
        """Write atomically (file_writing.py); the file written (a link's target)."""
        target = path or self.path
        text = self.text()
        written = atomic_write(target, text, self.newline)
        self.path, self.dirty, self.on_disk = target, False, text
        return written


@dataclass(eq=False)
class MapFile(SourceFile):
    """A map file: its edits live in `sheet`, and are written over a copy of `data`, the file as
    read, when the file's text is asked for (`current`): an edit undone leaves no trace in it.
    `data` is parsed from `unparsed` then, not as the file opens (40 ms for Scenario 6's maps)."""

    sheet: MapSheet | None = None
    unparsed: str | None = field(default=None, repr=False)  # the text `data` is parsed from when first needed
    width: int = 100
    edits: int = 0  # changes made to the file so far (its map checks are kept until the next)
    _checked: tuple[int, list[Problem]] | None = field(default=None, repr=False)
    _text: tuple[int, str] | None = field(default=None, repr=False)  # `text()` as of an edit count

    def text(self) -> str:
        if self._text is None or self._text[0] != self.edits:
            self._text = (self.edits, super().text())
        return self._text[1]

    def _parsed(self) -> Any:
        """The file's round-trip data, parsed at the first call (a map's data is never edited)."""
        if self.unparsed is not None:
            self.data, self.unparsed = _yaml().load(self.unparsed), None
            if self.original is not None:
                self.read_as = self.data
        return self.data

    def holds(self, h: Hex) -> bool:
        """Whether the hex is on this map's grid (without building the grid's set of hexes)."""
        assert self.sheet is not None
        return self.sheet.grid.contains(*hex_to_offset(h, self.sheet.grid.offset))

    def problems(self) -> list[Problem]:
        """The map checks' problems of this file, worked out again only after it changes."""
        if self._checked is None or self._checked[0] != self.edits:
            self._checked = (self.edits, map_problems(self.sheet) if self.sheet is not None else [])
        return self._checked[1]

    def set_terrain(self, h: Hex, terrain: Terrain) -> None:
        """Paint a hex of the map (the file's `hexes:` entry follows when it is written)."""
        assert self.sheet is not None
        if terrain == CLEAR:
            self.sheet.terrain.pop(h, None)
        else:
            self.sheet.terrain[h] = terrain
        self.dirty = True
        self.edits += 1

    def set_roads(self, roads: Roads) -> None:
        """Give the map its road chains and bridges (`roads:`, `bridges:` follow when it is written)."""
        assert self.sheet is not None
        self.sheet.roads = [list(chain) for chain in roads.chains]
        self.sheet.bridges = list(roads.bridges)
        self.dirty = True
        self.edits += 1

    def current(self) -> Any:
        """The file as read with the sheet's changes written in: only the hexes whose terrain
        differs from the file's entry, and the road and bridge lists if they differ."""
        assert self.sheet is not None
        data = copy.deepcopy(self._parsed())
        label = self.sheet.label
        hexes = data.get("hexes")
        written = {str(key): _entry_terrain(entry) for key, entry in (hexes or {}).items()}
        painted = {label(h): terrain for h, terrain in self.sheet.terrain.items()}
        changed = [(name, t) for name, t in painted.items() if written.get(name, CLEAR) != t]
        changed += [(name, CLEAR) for name, t in written.items() if name not in painted and t != CLEAR]
        if changed and hexes is None:
            hexes = data["hexes"] = CommentedMap()
        for name, terrain in changed:
            _write_hex(hexes, name, terrain)
        chains = [_flow(label(h) for h in chain) for chain in self.sheet.roads]
        if chains != [[str(x) for x in chain] for chain in data.get("roads") or []]:
            _set_list(data, "roads", chains)
        bridges = [DoubleQuotedScalarString(label(h)) for h in self.sheet.bridges]
        if bridges != [str(x) for x in data.get("bridges") or []]:
            _set_list(data, "bridges", bridges, flow=True)
        return data


def _entry_terrain(entry: Any) -> Terrain | None:
    """The terrain a `hexes:` entry gives (None: an entry the editor cannot read, always rewritten)."""
    try:
        return terrain_from_keys(dict(entry) if entry is not None else None)
    except (TypeError, ValueError):
        return None


def _write_hex(hexes: CommentedMap, label: str, terrain: Terrain) -> None:
    """Make a hex's entry say `terrain` (flow style like the rest). Keys that still hold keep the
    form they are written in, a default written out (`level: 0`) included; a hex made Clear loses
    its entry, and the comment lines above it go to the next entry (a group's heading stays)."""
    key = next((k for k in hexes if str(k) == label), None)
    keys = terrain.as_hex_keys()
    if not keys:
        if key is not None:
            _pass_comment_on(hexes, key)
            del hexes[key]
        return
    entry = hexes.get(key) if key is not None else None
    if not isinstance(entry, CommentedMap):
        entry = CommentedMap()
        hexes[key if key is not None else DoubleQuotedScalarString(label)] = entry
    if not entry:  # new, or `{}`: flow style like the rest
        entry.fa.set_flow_style()
    for name in HEX_KEYS:
        if name not in keys:
            if name in entry and _holds_default(name, entry[name]):
                continue
            entry.pop(name, None)
        elif name not in entry or coerce(name, entry[name]) != coerce(name, keys[name]):
            # a new building id is quoted as the maps write them ("2")
            entry[name] = DoubleQuotedScalarString(keys[name]) if name == "building" else keys[name]


def _holds_default(name: str, value: Any) -> bool:
    try:
        return CLEAR.changed({name: value}) == CLEAR
    except (TypeError, ValueError):
        return False


def _pass_comment_on(hexes: CommentedMap, key: Any) -> None:
    """The comment lines above `key` (ruamel keeps them with it) go above the entry after it."""
    above = hexes.ca.items.get(key, [None, None])[1]
    if not above:
        return
    keys = list(hexes)
    following = keys[keys.index(key) + 1] if keys.index(key) + 1 < len(keys) else None
    if following is None:
        return
    slot = hexes.ca.items.setdefault(following, [None, None, None, None])
    slot[1] = list(above) + list(slot[1] or [])


class Roads(NamedTuple):
    """One map's road chains (each a list of adjacent hexes, 8.52) and its bridge hexes."""

    chains: tuple[tuple[Hex, ...], ...]
    bridges: tuple[Hex, ...]


def _flow(labels: Iterable[str]) -> CommentedSeq:
    seq = CommentedSeq(DoubleQuotedScalarString(x) for x in labels)
    seq.fa.set_flow_style()
    return seq


def _set_list(data: CommentedMap, key: str, items: list[Any], *, flow: bool = False) -> None:
    """Make `data[key]` hold `items`, changing only the entries that differ (ruamel moves the
    comments of the later entries with them; an entry moved takes its comment along)."""
    dropped: dict[Any, Any] = {}
    seq = data.get(key)
    if seq is None:
        if items:
            data[key] = _flow(items) if flow else CommentedSeq(items)
        return
    if not items and not seq.ca.comment and key not in data.ca.items:
        del data[key]
        return
    old = [tuple(x) if isinstance(x, list) else x for x in seq]
    new = [tuple(x) if isinstance(x, list) else x for x in items]
    for op, i1, i2, j1, j2 in reversed(SequenceMatcher(None, old, new, autojunk=False).get_opcodes()):
        if op == "equal":
            continue
        kept = min(i2 - i1, j2 - j1)
        for k in range(kept):  # an entry changed in place keeps its comment
            seq[i1 + k] = items[j1 + k]
        for i in range(i2 - 1, i1 + kept - 1, -1):
            if i in seq.ca.items:
                dropped[old[i]] = seq.ca.items[i]
            del seq[i]
        for k in range(kept, j2 - j1):
            seq.insert(i1 + k, items[j1 + k])
            if new[j1 + k] in dropped:
                seq.ca.items[i1 + k] = dropped.pop(new[j1 + k])
    if not seq:
        seq.fa.set_flow_style()  # `key: []`, the comment kept beside it
    elif not flow and not old:
        seq.fa.set_block_style()


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
        """Edited since opened or saved (`unsaved_files` says whether anything would change on disk)."""
        return any(f.dirty for f in self.files())

    def files(self) -> list[SourceFile]:
        return ([self.scenario] if self.scenario else []) + list(self.maps)

    def unsaved_files(self) -> list[SourceFile]:
        """The files a save would change on disk: edited, and not edited back to what they hold."""
        return [f for f in self.files() if f.unsaved()]

    # -- terrain --------------------------------------------------------------------------
    def printed(self, h: Hex) -> Terrain:
        """A hex as the map file has it, before errata (what a brush paints)."""
        for m in self.maps:
            assert m.sheet is not None
            if m.holds(h):
                return m.sheet.terrain.get(h, CLEAR)
        return CLEAR

    def set_printed(self, changes: Mapping[Hex, Terrain]) -> None:
        """Paint hexes of the map files; the board shows them with their errata, and every
        watcher of the board (validation, views) learns which hexes changed."""
        shown: dict[Hex, Terrain] = {}
        for h, terrain in changes.items():
            for m in self.maps:  # a seam hex is on two maps: both files change
                assert m.sheet is not None
                if m.holds(h):
                    m.set_terrain(h, terrain)
            shown[h] = self._with_roads(h, self._with_errata(h, terrain))
        self.board.set_terrain(shown)

    def _with_roads(self, h: Hex, terrain: Terrain) -> Terrain:
        """Road chains are not painted: a hex's road and bridge flags follow the board's roads (as `assemble`)."""
        road = h in self.board.road_neighbours
        return replace(terrain, road=road, bridge=road and h in self.board.bridges)

    def _with_errata(self, h: Hex, terrain: Terrain) -> Terrain:
        if self.errata is None:
            return terrain
        label = self.board.label(h)
        for change in self.errata.changes:
            if label in change.hexes:
                terrain = terrain.changed(change.values)
        return terrain

    # -- roads ----------------------------------------------------------------------------
    def roads(self) -> list[Roads]:
        """Each map file's road chains and bridges, in the order of `maps`."""
        return [
            Roads(tuple(tuple(chain) for chain in m.sheet.roads), tuple(m.sheet.bridges))
            for m in self.maps
            if m.sheet is not None
        ]

    def set_roads(self, roads: Sequence[Roads]) -> None:
        """Give each map file its road chains and bridges (in the order of `maps`); the board's
        roads, road graph and the road and bridge flags of its hexes follow, its watchers learn
        the hexes whose road links changed, and the scenario is validated afresh (zones may
        follow a road)."""
        links_before, bridges_before = _links(self.board), self.board.bridges
        for m, old, new in zip(self.maps, self.roads(), roads, strict=True):
            if new != old:
                m.set_roads(new)
        sheets = [m.sheet for m in self.maps if m.sheet is not None]
        self.board.roads = [chain for sheet in sheets for chain in sheet.roads]
        self.board.bridges = frozenset(b for sheet in sheets for b in sheet.bridges)
        self.board.roads_changed()
        changed = {h for link in links_before ^ _links(self.board) for h in link} | bridges_before ^ self.board.bridges
        self.board.set_terrain({h: self._with_roads(h, self.board.terrain(h)) for h in changed & self.board.hexes})
        self._validate_afresh()

    # -- validation -----------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """The problems of what is open: the scenario's checks (incremental) and each map's."""
        found = [p for m in self.maps for p in m.problems()]
        if self.session is not None:
            found += self.session.problems()
        return found

    def scenario_changed(self) -> None:
        """The scenario file's own data changed (not terrain): validate it afresh."""
        if self.scenario is not None:
            self.scenario.dirty = True
            self._follow_errata()
            self._validate_afresh()

    def _follow_errata(self) -> None:
        """The scenario's `errata:` edited (or undone): the board shows the maps with the errata it
        names now, as opening the file would. A file that cannot be read stays as it was (the
        validation reports it)."""
        assert self.scenario is not None
        wanted = self.scenario.data.get("errata", True) if isinstance(self.scenario.data, dict) else True
        try:
            path = resolve_errata_path(wanted, self.scenario.path.parent)
            errata = errata_from_document(load_yaml(path)) if path else None
        except (LoadError, SourceError, ValueError, TypeError):
            return
        if path == self.errata_path:
            return
        labels = {label for e in (self.errata, errata) if e for c in e.changes for label in c.hexes}
        self.errata, self.errata_path = errata, path
        self.board.errata = errata
        shown: dict[Hex, Terrain] = {}
        for label in labels:
            try:
                h = self.board.hex(label)
            except LabelError:
                continue
            if h in self.board.hexes:
                shown[h] = self._with_roads(h, self._with_errata(h, self.printed(h)))
        self.board.set_terrain(shown)

    def _validate_afresh(self) -> None:
        """A new validation session on the board; the old one stops following its edits."""
        if self.scenario is None:
            return
        previous = self.session
        if previous is not None:
            previous.close()
        self.session = ValidationSession(self.scenario.document(), board=self.board)
        if previous is not None:
            self.session.context.keep_geometry(previous.context)

    # -- saving ---------------------------------------------------------------------------
    def save(self, elsewhere: Mapping[SourceFile, Path] | None = None) -> list[Path]:
        """Save every file a save would change, in place, and each file of `elsewhere` to its
        path (Save As); the paths written. Each is written atomically, the maps before the
        scenario that names them; a file edited back to what is on disk is not written.
        SaveFailed: a file could not be written (those before it were)."""
        targets = {f: f.path for f in self.unsaved_files()} | dict(elsewhere or {})
        for f in self.files():
            if f not in targets:
                f.dirty = False
        written: list[Path] = []
        for f, target in sorted(targets.items(), key=lambda item: item[0] is self.scenario):
            try:
                f.save(target)
            except OSError as exc:
                raise SaveFailed(target, written, exc) from exc
            written.append(target)
        return written


class SaveFailed(Exception):
    """A save stopped at a file that could not be written (left on disk as it was)."""

    def __init__(self, path: Path, written: list[Path], error: OSError) -> None:
        super().__init__(f"{path}: {error.strerror or error}")
        self.path, self.written, self.reason = path, written, error.strerror or str(error)


def _links(board: Board) -> set[frozenset[Hex]]:
    """The board's road links (pairs of hexes joined by a road), and each road hex alone."""
    joined = board.road_neighbours
    return {frozenset((a, b)) for a, heads in joined.items() for b in heads} | {frozenset([h]) for h in joined}


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
        return EditorDocument([given.map_file(path, sheet)], assemble([sheet]))
    raise LoadError(str(path), [_not_editable(doc, kind)])


class _GivenTexts(dict[Path, str]):
    """Files' text by resolved path, used instead of what is on disk."""

    def load(self, path: Path) -> SourceDocument:
        text = self.get(path.resolve())
        return load_yaml(path) if text is None else parse_yaml(text, str(path))

    def source(self, path: Path) -> SourceFile:
        """The file as opened: its round-trip data, and whether that differs from the disk, with
        a copy of the data as read (to be edited: a scenario's)."""
        text, disk, newline = self._read(path)
        data = _yaml().load(text)
        read_as = copy.deepcopy(data) if text == disk else None  # far cheaper than a second parse
        return SourceFile(path, data, text != disk, original=disk, on_disk=disk, newline=newline, read_as=read_as)

    def map_file(self, path: Path, sheet: MapSheet) -> MapFile:
        """A map file as opened: the sheet from its text, the data as on disk (an edit is written
        over the file as read, `MapFile.current`), parsed when first written."""
        text, disk, newline = self._read(path)
        original, data = disk, None
        if disk is not None and text != disk:
            try:
                check_yaml(disk, str(path))  # the engine's limits before ruamel builds it
                data = _yaml().load(disk)
            except (YAMLError, SourceError):  # the disk's copy is broken: the given text stands for the whole file
                original = None
        return MapFile(
            path,
            data,
            text != disk,
            original=original,
            on_disk=disk,
            newline=newline,
            read_as=data,
            sheet=sheet,
            unparsed=None if data is not None else original if original is not None else text,
        )

    def _read(self, path: Path) -> tuple[str, str | None, str]:
        """The file's text as opened (given, or the disk's), the disk's text (None: no file yet)
        and how its lines end on disk. What a save cut short left beside it goes (file_writing.py)."""
        remove_stale_temps(path)
        disk = _disk_text(path)
        newline = "\r\n" if disk is not None and "\r\n" in disk else "\n"
        if disk is not None:
            disk = disk.replace("\r\n", "\n")
        text = self.get(path.resolve(), disk)
        assert text is not None  # the engine has read it (`load`)
        return text, disk, newline


def _disk_text(path: Path) -> str | None:
    """The file's text on disk (None: no file there yet, a new map)."""
    try:
        return read_text(path)
    except SourceError:
        if path.exists():
            raise
        return None


def _open_scenario(path: Path, doc: SourceDocument, given: _GivenTexts) -> EditorDocument:
    from engine.model.scenario import partial_scenario

    # A half-made scenario opens with its schema problems listed (the session's): only its maps
    # must be there to be drawn.
    scenario = partial_scenario(doc)
    if not scenario.maps:
        raise LoadError(str(path), [_no_maps(doc)])
    maps = []
    for name in scenario.maps:
        map_path = resolve_map_path(name, scenario.folder)
        maps.append(given.map_file(map_path, map_from_document(given.load(map_path))))
    errata_path = resolve_errata_path(scenario.errata, scenario.folder)
    errata = errata_from_document(load_yaml(errata_path)) if errata_path else None
    board = assemble([m.sheet for m in maps if m.sheet is not None], errata)
    document = EditorDocument(maps, board, given.source(path), errata, errata_path)
    document.session = ValidationSession(doc, board=board)
    return document


def _no_maps(doc: SourceDocument) -> Problem:
    at = doc.position(("maps",))
    return Problem(
        "schema",
        Severity.ERROR,
        "/maps: the scenario names no maps, so the editor has nothing to draw: add `maps: [map1]` "
        "(File > New scenario asks for them)",
        rule="24.1",
        file=doc.file,
        line=at.line,
        column=at.column,
        pointer="/maps",
    )


def _not_editable(doc: SourceDocument, kind: str | None) -> Problem:
    from engine.validate.checks.file_format import UNKNOWN_FORMAT

    if kind is None:  # the schema says why: not a mapping, no `format:`, a format it does not know
        refused = next(p for p in schema_problems(doc) if p.code == "unknown-format")
        return replace(refused, message=f"{refused.message}: the editor opens scenarios and maps")
    return UNKNOWN_FORMAT.problem(doc, ("format",), f"a {kind} file: the editor opens scenarios and maps")


__all__ = [
    "EditorDocument",
    "LoadError",
    "MapFile",
    "Roads",
    "SaveFailed",
    "SourceError",
    "SourceFile",
    "open_document",
]
