"""Errata > Load errata file...: preview what an errata file (iron-cross-errata/1) would change,
then apply it as one undoable step or cancel.

The preview highlights the hexes whose printed terrain the errata change, lists them, and for
a scenario shows the impact measured by engine/validate/errata_impact.py (LOS pairs, named
zones, objectives, turn counts), on the maps as edited, in a background thread. Applying
writes each changed hex's result into the map files ("Apply errata <name>", one undo step):
the printed terrain becomes the erratum's.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.hexgrid import Hex
from engine.model.board import Board, UnknownHexError, assemble, default_errata_path, resolve_errata_path
from engine.model.errata import Errata, load_errata
from engine.model.load_errors import LOAD_FAILURES, LoadError
from engine.model.mapsheet import MapSheet
from engine.model.scenario import Scenario, scenario_from_document
from engine.model.source import SourceError
from engine.model.terrain import Terrain

from ..busy import busy
from ..document import EditorDocument
from ..mapview import HexSetItem
from ..window import MainWindow, describe_terrain

if TYPE_CHECKING:  # imported when an impact is measured (numpy with it): the window opens without
    from engine.validate.errata_impact import ErrataImpact

HIGHLIGHT = QColor(255, 120, 0, 120)
OUTLINE = QColor("#b33c00")


def errata_changes(document: EditorDocument, errata: Errata) -> dict[Hex, Terrain]:
    """The printed terrain of each hex the errata change, after them: the changes in file order,
    hexes on none of the document's maps skipped (as `apply_errata` does)."""
    after: dict[Hex, Terrain] = {}
    for change in errata.changes:
        for label in change.hexes:
            try:
                h = document.board.hex(label)
            except UnknownHexError:
                continue
            after[h] = after.get(h, document.printed(h)).changed(change.values)
    return {h: t for h, t in after.items() if t != document.printed(h)}


@dataclass
class EditedScenario(Scenario):
    """The scenario on its maps as the editor holds them, unsaved edits included (copies, so that
    the impact can be measured in another thread while the user edits)."""

    sheets: tuple[MapSheet, ...] = ()

    def load_board(self) -> Board:
        path = resolve_errata_path(self.errata, self.folder)
        return assemble(self.sheets, load_errata(path) if path else None)


def edited_scenario(document: EditorDocument) -> EditedScenario:
    """LoadError if the scenario's data is not valid as it stands."""
    assert document.scenario is not None
    scenario = scenario_from_document(document.scenario.document())
    sheets = tuple(
        replace(m.sheet, terrain=dict(m.sheet.terrain), roads=[list(r) for r in m.sheet.roads])
        for m in document.maps
        if m.sheet is not None
    )
    return EditedScenario(**{f.name: getattr(scenario, f.name) for f in fields(Scenario)}, sheets=sheets)


class _Measured(QObject):
    """Brings the impact back from its thread: (request number, ErrataImpact or why it failed)."""

    done = Signal(int, object)


@dataclass
class Preview:
    errata: Errata
    path: Path
    changes: dict[Hex, Terrain]


class ErrataPanel(QWidget):
    """The Errata dock: the errata loaded, the hexes they change, their impact; Apply or Cancel."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.setObjectName("errata-panel")
        self.window = window
        self.preview: Preview | None = None
        self.impact: ErrataImpact | str | None = None  # the impact measured, or why not
        self._request = 0
        self._measured = _Measured(self)
        self._measured.done.connect(self._impact_measured)
        self.highlight = HexSetItem(window.scene.layers["overlays"], HIGHLIGHT, OUTLINE)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.report = QTreeWidget()
        self.report.setHeaderHidden(True)
        self.report.itemClicked.connect(self._item_chosen)
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setToolTip("Write the errata's changes into the map files (one undo step)")
        self.apply_button.clicked.connect(self.apply)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.report, 1)
        layout.addLayout(buttons)
        # A tab of the Problems panel's place: a report with long lines, read across the window's width
        self.dock = window.add_dock("Errata", self, Qt.DockWidgetArea.BottomDockWidgetArea)
        window.tab_with_problems(self.dock)
        self.dock.hide()
        window.document_changed.connect(self._refresh)
        window.document_replaced.connect(lambda document: self.cancel())
        self._show()

    # -- loading ------------------------------------------------------------------------------
    def choose(self) -> bool:
        document = self.window.document
        folder = (document.errata_path or default_errata_path()).parent
        chosen, _ = QFileDialog.getOpenFileName(
            self.window, "Load errata file", str(folder), "Errata files (*.yaml *.yml);;All files (*)"
        )
        return bool(chosen) and self.load(Path(chosen))

    def load(self, path: Path) -> bool:
        """Preview the errata in `path`; a file that cannot be loaded is reported and changes nothing."""
        try:
            with busy():  # over the window: the file dialog is gone first
                errata = load_errata(path)
        except SourceError as exc:
            return self._cannot_load(path, f"{exc.file}:{exc.line}:{exc.column}: {exc.message}")
        except LoadError as exc:
            return self._cannot_load(path, "\n".join(p.text() for p in exc.problems))
        with busy():  # the scenario read as it stands, for the impact measured in its thread: 0.8 s on Scenario 6
            self.preview = Preview(errata, path, errata_changes(self.window.document, errata))
            self._measure()
            self._show()
        self.dock.show()
        self.dock.raise_()
        self.window.resizeDocks([self.dock], [280], Qt.Orientation.Vertical)
        return True

    def _cannot_load(self, path: Path, why: str) -> bool:
        QMessageBox.critical(self.window, "Cannot load errata", f"{path.name} is not a usable errata file.\n\n{why}")
        return False

    def _measure(self) -> None:
        """Start measuring the impact (a scenario's only: zones and turns need one)."""
        self._request += 1
        document = self.window.document
        if self.preview is None or document.scenario is None:
            self.impact = None
            return
        try:
            scenario = edited_scenario(document)
        except LoadError as exc:
            self.impact = f"The scenario has errors ({len(exc.problems)}): fix them to measure the impact."
            return
        self.impact = None
        request, path, measured = self._request, self.preview.path.resolve(), self._measured
        from engine.validate.errata_impact import ErrataImpactError, errata_impact

        def measure() -> None:
            try:
                result: ErrataImpact | str = errata_impact(scenario, path)
            except (ErrataImpactError, *LOAD_FAILURES) as exc:  # a map refused or gone meanwhile too
                result = f"The impact cannot be measured: {exc}"
            with contextlib.suppress(RuntimeError):  # the window closed meanwhile
                measured.done.emit(request, result)

        threading.Thread(target=measure, name="errata-impact", daemon=True).start()

    def _impact_measured(self, request: int, result: ErrataImpact | str) -> None:
        if request == self._request:
            self.impact = result
            self._show()

    # -- applying -----------------------------------------------------------------------------
    def apply(self) -> None:
        """The errata's results into the map files, as one undo step."""
        if self.preview is None:
            return
        errata = self.preview.errata
        changes = errata_changes(self.window.document, errata)  # on the terrain as it is now
        self.window.paint(f"Apply errata {errata.name}", changes)
        self.cancel()
        self.heading.setText(
            f"Applied {errata.name}: {len(changes)} hex{'es' if len(changes) != 1 else ''} changed "
            "(Edit > Undo takes it back)."
        )

    def cancel(self) -> None:
        self.preview, self.impact = None, None
        self._request += 1
        self._show()

    def _refresh(self) -> None:
        """An edit while previewing: the hexes that would change follow it."""
        if self.preview is not None:
            self.preview.changes = errata_changes(self.window.document, self.preview.errata)
            self._show()

    # -- showing ------------------------------------------------------------------------------
    def _show(self) -> None:
        preview = self.preview
        self.highlight.set_hexes(list(preview.changes) if preview else [])
        self.apply_button.setEnabled(bool(preview and preview.changes))
        self.cancel_button.setEnabled(preview is not None)
        self.report.clear()
        if preview is None:
            self.heading.setText("No errata loaded.\nErrata > Load errata file... previews one here.")
            return
        board, n = self.window.document.board, len(preview.changes)
        own = self.window.document.errata_path
        self.heading.setText(
            f"<b>{preview.errata.name}</b> ({preview.path.name}): "
            + (f"{n} hex{'es' if n != 1 else ''} of these maps change." if n else "no hex of these maps changes.")
            + (
                "<br>The scenario already applies this file when it loads its maps: applying it writes the same "
                "changes into the map files."
                if own is not None and own.resolve() == preview.path.resolve()
                else ""
            )
        )
        impact = self.impact  # first: what the errata do to the game, then hex by hex
        if impact is not None and not isinstance(impact, str):
            self._impact_rows(impact)
        elif self.window.document.scenario is None:
            self._section("LOS, zones and turn counts are measured for a scenario: open one to see them.")
        else:
            self._section(impact or "Measuring LOS, zones and turn counts…")
        hexes = self._section(f"Hexes ({n})")
        for h in sorted(preview.changes, key=board.label):
            before, after = describe_terrain(self.window.document.printed(h)), describe_terrain(preview.changes[h])
            self._row(hexes, f"{board.label(h)}: {before} → {after}", [board.label(h)])
        self.report.expandAll()

    def _impact_rows(self, r: ErrataImpact) -> None:
        from engine.validate.errata_impact import MOVER

        los = self._section(
            f"LOS, both ends UP: {r.sight_changes:,} of {r.pairs:,} pairs change "
            f"({r.now_blocked:,} now blocked, {r.now_clear:,} now clear)"
        )
        for e in r.examples:
            how = f"now blocked at {e.blocking_hex}" if e.now_blocked else f"now clear, was blocked at {e.blocking_hex}"
            self._row(los, f"{e.source} → {e.target} (range {e.range}): {how} ({e.rule})", [e.source, e.target])
        zones = self._section(f"Named zones: {len(r.zones)} of {r.zones_compared} change")
        for z in r.zones:
            self._row(zones, f"{z.name}: {z.problem or _delta(z.added, z.removed)}", [*z.added, *z.removed])
        objectives = self._section(f"Objectives: {len(r.objectives)} of {r.objectives_compared} change")
        for o in r.objectives:
            self._row(objectives, f"{o.name}: {_delta(o.added, o.removed)}", [*o.added, *o.removed])
        turns = self._section(f"Turn counts ({MOVER.describe()}): {len(r.turns)} of {r.turns_compared} change")
        for t in r.turns:
            self._row(turns, f"{t.start} → {t.objective}: {_turns(t.before)} → {_turns(t.after)}", [])

    def _section(self, text: str) -> QTreeWidgetItem:
        return QTreeWidgetItem(self.report, [text])

    def _row(self, parent: QTreeWidgetItem, text: str, labels: list[str]) -> None:
        """A line of the report; choosing it selects the hexes it names."""
        item = QTreeWidgetItem(parent, [text])
        item.setData(0, Qt.ItemDataRole.UserRole, [self.window.document.board.hex(label) for label in labels])

    def _item_chosen(self, item: QTreeWidgetItem) -> None:
        """A row naming hexes: they are selected, the first centred."""
        hexes = item.data(0, Qt.ItemDataRole.UserRole) or []
        if hexes:
            self.window.view.centre_on(hexes[0])
            self.window.selected = set(hexes)
            self.window.selection_changed.emit(self.window.selected)


def _delta(added: tuple[str, ...], removed: tuple[str, ...]) -> str:
    return " ".join([*(f"+{h}" for h in added), *(f"-{h}" for h in removed)])


def _turns(n: int | None) -> str:
    return "never" if n is None else str(n)


def install(window: MainWindow) -> None:
    panel = ErrataPanel(window)
    menu = window.menus.get("Errata")
    if menu is None:  # before Help, where a user looks for it
        menu = window.menus["Errata"] = QMenu("E&rrata", window)
        window.menuBar().insertMenu(window.menus["Help"].menuAction(), menu)
    load = QAction("&Load errata file...", window)
    load.setToolTip("Preview what an errata file changes, then apply it as one undo step")
    load.triggered.connect(panel.choose)
    menu.addAction(load)
