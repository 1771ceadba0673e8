"""File menu: New scenario (Ctrl+Shift+N), New map (Ctrl+N), Open (Ctrl+O), Save (Ctrl+S), Save As
(Ctrl+Shift+S), Quit (Ctrl+Q).

Every way of leaving the open document (Open, New map, Quit, closing the window) asks first when
it has unsaved edits, naming every file (`MainWindow.confirm_discard`). A file that cannot be
opened is reported with its problems and the open document stays. A save names every file it
writes before writing (when it writes more than the file in the title) and in the status bar
after; Save As of a scenario with edited maps asks whether they go beside it as copies or over
the originals. Saves are atomic (file_writing.py): a save that fails leaves the file on disk as
it was, says why, and keeps the edits open. A new map lives in memory, untitled, until Save As
gives it a file; so does a new scenario (new_scenario.py), which opens half-made: its
problems are listed until the panels give it units and a victory.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from engine.file_writing import file_list
from engine.model.board import resolve_errata_path, resolve_map_path
from engine.model.schema import integer_range, schema_name
from engine.model.source import SourceError, load_yaml
from engine.resources import data_path, installed, is_bundled

from ..app import OpenFailed, load
from ..busy import busy
from ..document import EditorDocument, SaveFailed, SourceFile
from ..new_scenario import NORTH_CHOICES, SIDE_NAMES, MapChoice, NewScenario, join, map_choices
from ..scenario_data import renaming_maps
from ..window import MainWindow

ORDER = 10  # the File menu's entries come before any other feature's
YAML_FILES = "Iron Cross files (*.yaml *.yml);;All files (*)"


@dataclass(frozen=True)
class NewMap:
    """What the New map dialog asks: a name and the grid (docs/formats.md, 'The hex grid')."""

    name: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    offset: str = "even-q"

    def text(self) -> str:
        """The map file, with no hexes yet (all Clear, level 0)."""
        (c1, c2), (r1, r2) = self.columns, self.rows
        return (
            "format: iron-cross-map/1\n"
            f"name: {json.dumps(self.name, ensure_ascii=False)}\n"
            f"grid: {{columns: [{c1}, {c2}], rows: [{r1}, {r2}], offset: {self.offset}}}   # inclusive ranges\n"
            "hexes:                  # hexes not listed are Clear, level 0\n"
        )

    def file_name(self) -> str:
        return (re.sub(r"[^\w-]+", "-", self.name).strip("-").lower() or "map") + ".yaml"


class NewMapDialog(QDialog):
    """The name, the column and row ranges (inclusive, as printed) and which columns sit lower."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New map")
        self.name = QLineEdit("New map")
        self.ranges = [self._spin(first) for first in (10, 30, 1, 27)]  # Map 1's grid (docs/formats.md)
        self.offset = QComboBox()
        self.offset.addItem("even-q: even-numbered columns sit half a hex lower", "even-q")
        self.offset.addItem("odd-q: odd-numbered columns sit half a hex lower", "odd-q")
        form = QFormLayout(self)
        form.addRow("&Name", self.name)
        for label, (first, last) in (("&Columns", self.ranges[:2]), ("&Rows", self.ranges[2:])):
            row = QHBoxLayout()
            row.addWidget(first)
            row.addWidget(last)
            form.addRow(label, row)
        form.addRow("&Offset", self.offset)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.name.textChanged.connect(self._check)
        for spin in self.ranges:
            spin.valueChanged.connect(self._check)

    @staticmethod
    def _spin(value: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(0, 99)  # a label is XXYY: two digits each
        spin.setValue(value)
        return spin

    def _check(self) -> None:
        """OK only for a name and ranges that run first to last."""
        c1, c2, r1, r2 = (spin.value() for spin in self.ranges)
        ok = bool(self.name.text().strip()) and c1 <= c2 and r1 <= r2
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def new_map(self) -> NewMap:
        c1, c2, r1, r2 = (spin.value() for spin in self.ranges)
        return NewMap(self.name.text().strip(), (c1, c2), (r1, r2), self.offset.currentData())

    @classmethod
    def ask(cls, parent: QWidget) -> NewMap | None:
        dialog = cls(parent)
        return dialog.new_map() if dialog.exec() == QDialog.DialogCode.Accepted else None


class NewScenarioDialog(QDialog):
    """What a scenario states before its units (24.1): title and number, the maps and how they
    join, who sets up and who moves first, the game length, the NORTH indicator, the background."""

    def __init__(self, folder: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New scenario")
        self.choices = map_choices(folder)
        self.title = QLineEdit("New scenario")
        self.number = _ranged("number", 100)
        self.maps = [QComboBox(objectName="first-map"), QComboBox(objectName="second-map")]
        self.maps[1].addItem("(none: one map)", None)
        for combo in self.maps:
            for choice in self.choices:
                combo.addItem(choice.describe(), choice)
        self.joined = QLabel(objectName="join")
        self.joined.setWordWrap(True)
        self.sets_up, self.moves = QComboBox(), QComboBox()
        for combo, first in ((self.sets_up, "german"), (self.moves, "russian")):
            for side, name in SIDE_NAMES.items():
                combo.addItem(name, side)
            combo.setCurrentIndex(combo.findData(first))
        self.turns = _ranged("game_length", 10)
        self.north = QComboBox()
        for way, text in NORTH_CHOICES.items():
            self.north.addItem(f"North points {text}", way)
        self.background = QPlainTextEdit()
        self.background.setPlaceholderText("What the scenario's introduction tells the players (24.1)")
        self.background.setFixedHeight(self.fontMetrics().lineSpacing() * 5)
        form = QFormLayout(self)
        for label, widget in (
            ("&Title", self.title),
            ("N&umber", self.number),
            ("&Map", self.maps[0]),
            ("&Second map", self.maps[1]),
            ("", self.joined),
            ("Sets up &first", self.sets_up),
            ("Mo&ves first", self.moves),
            ("&Game length (turns)", self.turns),
            ("&North indicator", self.north),
            ("&Background", self.background),
        ):
            form.addRow(label, widget)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self.title.textChanged.connect(self._check)
        for combo in self.maps:
            combo.currentIndexChanged.connect(self._check)
        self._check()

    def chosen_maps(self) -> tuple[MapChoice, ...]:
        return tuple(m for m in (combo.currentData() for combo in self.maps) if m is not None)

    def _check(self) -> None:
        """Say how the maps join (the scenarios' MAP line); OK only for a title and maps that make one board."""
        maps = self.chosen_maps()
        try:
            if len({m.name for m in maps}) < len(maps):
                raise ValueError("the second map is the first one again")
            said, ok = join([m.sheet for m in maps]), True
        except ValueError as exc:
            said, ok = f"These maps cannot be used together: {exc}.", False
        self.joined.setText(said)
        self.joined.setStyleSheet("" if ok else "color: #b00020")
        ok = ok and bool(self.title.text().strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def new_scenario(self) -> NewScenario:
        return NewScenario(
            title=self.title.text().strip(),
            number=self.number.value(),
            maps=self.chosen_maps(),
            game_length=self.turns.value(),
            sets_up_first=self.sets_up.currentData(),
            moves_first=self.moves.currentData(),
            north=self.north.currentData(),
            background=self.background.toPlainText(),
        )

    @classmethod
    def ask(cls, folder: Path, parent: QWidget) -> NewScenario | None:
        dialog = cls(folder, parent)
        return dialog.new_scenario() if dialog.exec() == QDialog.DialogCode.Accepted else None


def _ranged(key: str, value: int) -> QSpinBox:
    """A spin box holding what the scenario schema allows for `key`."""
    spin = QSpinBox()
    low, high = integer_range("scenario", key)
    spin.setRange(low, high if high is not None else 999)
    spin.setValue(value)
    return spin


class FileMenu(QObject):
    """The File menu's actions, and whether the open document is a new map with no file yet."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("file-menu")
        self.window = window
        self.untitled = False
        menu = window.menus["File"]
        for label, keys, slot in (
            ("New &scenario...", QKeySequence("Ctrl+Shift+N"), self.new_scenario),
            ("&New map...", QKeySequence.StandardKey.New, self.new_map),
            ("&Open...", QKeySequence.StandardKey.Open, self.choose_and_open),
            ("&Save", QKeySequence.StandardKey.Save, self.save),
            ("Save &As...", QKeySequence.StandardKey.SaveAs, self.save_as),
        ):
            action = QAction(label, window, shortcut=QKeySequence(keys))
            action.triggered.connect(lambda checked=False, slot=slot: slot())
            menu.addAction(action)
        self.quit = QAction("&Quit", window, shortcut=QKeySequence("Ctrl+Q"), menuRole=QAction.MenuRole.QuitRole)
        self.quit.triggered.connect(window.close)
        self._separator = QAction(window)
        self._separator.setSeparator(True)
        menu.addActions([self._separator, self.quit])
        menu.aboutToShow.connect(self._quit_last)
        window.save_requested.connect(lambda: self.save(named=True))
        window.document_replaced.connect(self._replaced)

    def _replaced(self, document: EditorDocument) -> None:
        """A document that opens with unsaved edits (a new map, a restored autosave): no step of
        its history is the file on disk, so undoing back to its start keeps the title's mark."""
        if document.dirty:
            self.window.undo_stack.resetClean()

    def _quit_last(self) -> None:
        """Quit stays at the bottom, under whatever other features add to the File menu."""
        menu = self.window.menus["File"]
        if menu.actions()[-1:] != [self.quit]:
            menu.removeAction(self._separator)
            menu.removeAction(self.quit)
            menu.addActions([self._separator, self.quit])

    # -- opening ------------------------------------------------------------------------------
    def choose_and_open(self) -> bool:
        chosen, _ = QFileDialog.getOpenFileName(
            self.window, "Open a scenario or a map", str(self.window.document.path.parent), YAML_FILES
        )
        return bool(chosen) and self.open(Path(chosen))

    def open(self, path: Path) -> bool:
        """Show `path` in this window, once the edits open are saved or given up; False if nothing changed."""
        if not self.window.confirm_discard(f"opening {path.name}"):
            return False
        try:
            with busy():  # over the window: the file dialog is gone first
                document = load(path)
        except OpenFailed as exc:
            QMessageBox.critical(
                self.window, "Cannot open", f"{path.name} cannot be opened; nothing was changed.\n\n{exc}"
            )
            return False
        self.untitled = False
        with busy():  # drawn and validated (the validation is most of the wait) before the cursor returns
            self.window.set_document(document)
            self.window.refresh_problems()
        self.window.file_opened.emit(path)
        return True

    def new_map(self, spec: NewMap | None = None) -> bool:
        """A new, empty map in memory (the dialog asks what; `spec` answers instead), saved by Save As."""
        spec = spec or NewMapDialog.ask(self.window)
        if spec is None or not self.window.confirm_discard("starting a new map"):
            return False
        path = _unused(self.window.document.path.parent / spec.file_name())  # where Save As proposes it
        try:
            document = load(path, {path: spec.text()})
        except OpenFailed as exc:  # a grid the validator refuses
            QMessageBox.critical(self.window, "Cannot make this map", str(exc))
            return False
        self.untitled = True
        self.window.set_document(document)
        return True

    def new_scenario(self, spec: NewScenario | None = None) -> bool:
        """A new scenario in memory (the dialog asks for its maps, sides, turns and north; `spec`
        answers instead), beside the open file until Save As gives it one. It opens half-made:
        the Problems panel lists what it still lacks (units, a victory)."""
        folder = self.window.document.path.parent
        spec = spec or NewScenarioDialog.ask(folder, self.window)
        if spec is None or not self.window.confirm_discard("starting a new scenario"):
            return False
        path = _unused(folder / spec.file_name())
        try:
            document = load(path, {path: spec.text()})
        except OpenFailed as exc:
            QMessageBox.critical(self.window, "Cannot make this scenario", str(exc))
            return False
        self.untitled = True
        with busy():
            self.window.set_document(document)
            self.window.refresh_problems()
        return True

    # -- saving -------------------------------------------------------------------------------
    def save(self, named: bool = False) -> bool:
        """Write every file a save would change, in place (a new map asks where first); False if
        not all were written. A save that writes more than the file in the title (a scenario's
        maps) names them all first, unless they were named already (`named`: the close prompt)."""
        if self.untitled:
            return self.save_as()
        document = self.window.document
        unsaved = [f.path for f in document.unsaved_files()]
        maps = [p for p in unsaved if p != document.path or document.scenario is None]
        shared = any(scenarios_using(p, document.path) for p in maps)
        # a bundled file is never written without its warning, even after the close prompt named it
        if any(is_bundled(p) for p in unsaved) or (not named and (shared or any(p != document.path for p in unsaved))):
            answer = self._confirm("Save", unsaved)
            if answer == "Save a copy":
                return self.save_copies()
            if answer != "Save":
                return False
        return self._write() is not None

    def save_copies(self) -> bool:
        """Save a copy: a scenario in place, its edited maps as copies beside it (its `maps:` and
        zones naming them); a map on its own, or a bundled scenario, to a file Save As asks for."""
        document = self.window.document
        if document.scenario is None or is_bundled(document.path):
            return self.save_as()
        return self._save_scenario_as(document.path, copies=True)

    def save_as(self, path: Path | None = None) -> bool:
        """Write the scenario (or the map) to another file. A scenario's edited maps go where the
        user says: copies beside it (its `maps:` naming them) or over the originals."""
        document = self.window.document
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(self.window, "Save as", str(document.path), YAML_FILES)
            if not chosen:
                return False
            path = Path(chosen)
        if document.scenario is None:
            return self._write({document.maps[0]: path}) is not None
        edited = [m for m in document.maps if m.unsaved()]
        if not edited:
            return self._save_scenario_as(path, copies=False)
        beside = self._copies_beside(path)
        originals = [m.path for m in edited]
        answer = choose(
            self.window,
            "Save the edited maps",
            f"Save As writes the scenario to {path}. Its maps were edited too: save them as copies "
            "beside it (its maps: list and every zone naming a map name the copies), or over the originals?\n\n"
            f"Copies: {file_list([path, *beside.values()])}\n\n"
            f"Over the originals: {file_list([path, *originals])}\n\n{self._shared(originals)}",
            ["Save copies", "Save over the originals"],
            warn=any(is_bundled(p) for p in originals),
        )
        return answer is not None and self._save_scenario_as(path, copies=answer == "Save copies")

    def _copies_beside(self, path: Path) -> dict[int, Path]:
        """Where Save copies puts each edited map (by its index in `maps`) of the scenario saved at `path`."""
        maps = self.window.document.maps
        return {
            i: _unused(path.parent / f"{path.stem}-{m.path.stem}{m.path.suffix}")
            for i, m in enumerate(maps)
            if m.unsaved()
        }

    def _save_scenario_as(self, path: Path, *, copies: bool) -> bool:
        """Write the scenario to `path`, its edited maps as copies beside it (`copies`) or over the originals."""
        document = self.window.document
        scenario = document.scenario
        assert scenario is not None
        elsewhere: dict[SourceFile, Path] = {scenario: path}
        names = scenario.data.get("maps")
        renames: dict[int, str] = {}  # `maps:` entries that name a copy
        if copies:
            for i, copy in self._copies_beside(path).items():
                elsewhere[document.maps[i]] = copy
                renames[i] = copy.stem
        renamed = renaming_maps(scenario.data, {str(names[i]): name for i, name in renames.items()})
        renamed.apply(scenario.data)
        written = self._write(elsewhere) if self._maps_found_from(path.parent, skip=renames) else None
        if written is None:
            renamed.revert(scenario.data)
            return False
        # its problems now name the new file (and the copies)
        document.scenario_changed()
        scenario.dirty = False
        self.window.refresh_problems()
        self._say_saved(written)
        return True

    def _confirm(self, doing: str, paths: list[Path]) -> str | None:
        """Name the files a save writes, every scenario that uses a map among them and whether one
        is a bundled file: Save, Save a copy (the maps beside the scenario, or Save As for a map) or None."""
        document = self.window.document
        maps = [p for p in paths if p != document.path or document.scenario is None]
        copy = (
            "Save a copy: the scenario's edited maps go beside it as copies, which only it uses"
            if document.scenario
            else "Save a copy: the map goes to a file you name, which no scenario uses yet"
        )
        warnings = "".join(f"\nWarning: {p} is {_bundled_words()}." for p in paths if p not in maps and is_bundled(p))
        return choose(
            self.window,
            "Save these files?",
            f"{doing} writes {_count(paths, 'file')} {file_list(paths)}\n\n{self._shared(maps)}{warnings}\n\n{copy}.",
            ["Save", "Save a copy"],
            warn=any(is_bundled(p) for p in paths),
        )

    def _shared(self, maps: list[Path]) -> str:
        """Who else sees a change to these map files: every scenario that uses them (beside this
        one, beside the map, the bundled ones), and a plain warning for a bundled file."""
        lines = []
        for path in maps:
            others = scenarios_using(path, self.window.document.path)
            users = f"also the map of {', '.join(others)}" if others else "no other scenario uses it"
            lines.append(f"{path.name}: a map file; {users}.")
            if is_bundled(path):
                lines.append(f"Warning: {path} is {_bundled_words()}: saving over it changes it for every user.")
        return "\n".join(lines)

    def _write(self, elsewhere: dict[SourceFile, Path] | None = None) -> list[Path] | None:
        """Save the document (`elsewhere`: files written to another path); the files written, named
        in the status bar. None: a failure, reported, and whatever Save As changed goes back."""
        document = self.window.document
        before = [(f, f.path, f.dirty, f.on_disk) for f in document.files()]
        new = [p for p in (elsewhere or {}).values() if not p.exists()]
        try:
            with busy():  # the edited files made into text and written: over 1 s for maps with many hexes painted
                written = document.save(elsewhere)
        except SaveFailed as exc:
            for f, path, dirty, on_disk in before:
                if f.path == path and path in exc.written:  # saved in place before the failure: that stands
                    continue
                f.path, f.dirty, f.on_disk = path, dirty, on_disk
            for p in new:  # copies made for this Save As: nothing of it stays
                p.unlink(missing_ok=True)
            done = f"\n\nWritten before it, and kept: {file_list(exc.written)}" if set(exc.written) - set(new) else ""
            QMessageBox.critical(
                self.window,
                "Not saved",
                f"{exc.path} could not be written: {exc.reason}.\n\n"
                f"The file on disk is as it was, and your edits are still open.{done}",
            )
            return None
        self.untitled = False
        self.window.mark_saved()
        self._say_saved(written)
        return written

    def _say_saved(self, written: list[Path]) -> None:
        said = (
            f"Saved {file_list(written, one_line=True)}"
            if written
            else "Nothing to save: the files on disk hold these edits"
        )
        self.window.statusBar().showMessage(said, 10000)

    def _maps_found_from(self, folder: Path, skip: Iterable[int] = ()) -> bool:
        """A scenario names its maps and errata relative to its folder: saved in `folder`, would it
        open the same files (but the maps `skip`, copies made beside it)? If not, the user decides."""
        document = self.window.document
        assert document.scenario is not None
        data = document.scenario.data
        lost = []
        for i, (name, map_file) in enumerate(
            zip((str(n) for n in data.get("maps") or []), document.maps, strict=False)
        ):
            if i in skip:
                continue
            try:
                found: Path | None = resolve_map_path(name, folder)
            except FileNotFoundError:
                found = None
            if found is None or found.resolve() != map_file.path.resolve():
                lost.append(f"map {name}: {found or 'not found'} instead of {map_file.path}")
        errata = resolve_errata_path(data.get("errata", True), folder)
        if document.errata_path is not None and (errata is None or errata.resolve() != document.errata_path.resolve()):
            lost.append(f"errata: {errata or 'none'} instead of {document.errata_path}")
        if not lost:
            return True
        answer = QMessageBox.warning(
            self.window,
            "Other maps there",
            f"Saved in {folder}, the scenario would open other files:\n\n" + "\n".join(lost) + "\n\nSave there anyway?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
        )
        return answer == QMessageBox.StandardButton.Save


def scenarios_using(map_path: Path, scenario: Path) -> list[str]:
    """Every other scenario whose maps include `map_path`: those in the folder of `scenario` (the
    open file), beside the map and in the scenarios/ folder beside its maps/ folder, and the
    bundled ones (read as data, with the engine's limits; a file that cannot be read is passed over)."""
    folders = [scenario.parent, map_path.parent, map_path.parent.parent / "scenarios"]
    folders += [data_path("scenarios"), data_path("scenarios", "examples")]
    seen = {scenario.resolve()}
    found = []
    for folder in dict.fromkeys(f.resolve() for f in folders):
        for other in sorted(folder.glob("*.y*ml")):
            if other.resolve() in seen:
                continue
            seen.add(other.resolve())
            try:
                doc = load_yaml(other)
                names = doc.data.get("maps") if schema_name(doc) == "scenario" else None
                if any(resolve_map_path(str(n), other.parent).resolve() == map_path.resolve() for n in names or []):
                    found.append(_scenario_name(other, scenario.parent))
            except (SourceError, FileNotFoundError, AttributeError, TypeError):
                continue
    return found


def _scenario_name(path: Path, folder: Path) -> str:
    """A scenario as the prompt names it: by its name beside the open file, else with its folder."""
    if is_bundled(path):
        return f"{path.name} (bundled)"
    return path.name if path.parent.resolve() == folder.resolve() else str(path)


def _bundled_words() -> str:
    where = "in iceditor's installed package" if installed() else "in iceditor's own data folder"
    return f"a bundled file ({where})"


def _count(items: list[Path], noun: str) -> str:
    return f"{len(items)} {noun}{'s' if len(items) != 1 else ''}"


def choose(parent: QWidget, title: str, text: str, choices: list[str], *, warn: bool = False) -> str | None:
    """A question with a button for each choice (the first the default) and Cancel: the choice, or
    None. `warn`: a warning (a bundled file would be written), whose default is the last choice."""
    icon = QMessageBox.Icon.Warning if warn else QMessageBox.Icon.Question
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    buttons = [box.addButton(choice, QMessageBox.ButtonRole.AcceptRole) for choice in choices]
    box.setDefaultButton(buttons[-1] if warn else buttons[0])
    box.exec()
    return next((c for c, b in zip(choices, buttons, strict=True) if box.clickedButton() is b), None)


def _unused(path: Path) -> Path:
    """`path`, or `name-2.yaml`... if taken: a new map never stands for (nor is autosaved as) a file on disk."""
    numbered = (path.with_name(f"{path.stem}-{n}{path.suffix}") for n in itertools.count(2))
    return path if not path.exists() else next(p for p in numbered if not p.exists())


def install(window: MainWindow) -> None:
    FileMenu(window)
