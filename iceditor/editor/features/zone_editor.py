"""Zones (docs/formats.md, Zones): the scenario's named zones, each expression edited as YAML text
with its hexes highlighted on the map as you type (or the ZoneError saying why it names none);
Apply (Ctrl+Return) makes the edit one undo step. A map edge is picked on the map with the Map
edge tool (D, map_edge_tool.py). The panel's second page, Deployments and entries, is where each
group starts (zone_starts.py).
"""

from __future__ import annotations

import json
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from engine.geometry.zones import ZoneContext, ZoneError, resolve_named
from engine.hexgrid import Hex

from ..map_edge_tool import MapEdgeTool
from ..mapview import HexSetItem
from ..marks import MarksBox
from ..scenario_data import DataPath, Edit, block, flow, quoted, sequence, typed_yaml, yaml_text
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..tool_options import hexes_text
from ..window import MainWindow
from ..zone_starts import StartsPage
from .selection import set_selection

ORDER = 42
ZONE = QColor(60, 120, 216, 90)
ZONE_OUTLINE = QColor("#1f4e9c")


class ZonePanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("zones")
        self.window, self.shared = window, shared
        self.name: str | None = None  # the zone in the editor
        self.loaded = ""  # its text as last loaded from the data (to tell the user's edits)
        self.zone_hexes = HexSetItem(window.scene.layers["zones"], ZONE, ZONE_OUTLINE)
        # two pages, each the dock's whole height (at 1366x768 the two one above the other scroll)
        self.pages = QTabWidget(objectName="zones-pages")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.pages)
        self.pages.addTab(self._zones_box(), "Zones")
        self.starts_page = StartsPage(window, shared, self)
        self.pages.addTab(self.starts_page, "Deployments and entries")
        self._preview_timer = QTimer(self, singleShot=True, interval=120)
        self._preview_timer.timeout.connect(self.preview)
        # filled when its tab first comes into view (set_shown): behind Order of battle as a window
        # opens, it would resolve its first zone for nothing before the window is shown (40 ms, S6)
        self.in_view = False
        self._stale = True  # edits came while out of view

    def _zones_box(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        self.zone_list = QListWidget(objectName="zone-list")
        self.zone_list.setMaximumHeight(90)
        self.zone_list.currentTextChanged.connect(self.load)
        layout.addWidget(self.zone_list)
        adding = QHBoxLayout()
        self.new_name = QLineEdit(placeholderText="new-zone-name", objectName="zone-name")
        add = QPushButton("New zone", toolTip="A zone of the hexes selected on the map", objectName="zone-new")
        add.clicked.connect(self.add_zone)
        remove = QPushButton("Remove zone")
        remove.clicked.connect(self.remove_zone)
        adding.addWidget(self.new_name, 1)
        adding.addWidget(add)
        adding.addWidget(remove)
        layout.addLayout(adding)
        self.printed = QLabel(wordWrap=True, objectName="zone-printed")
        self.printed.setStyleSheet("color: #5a5446; font-style: italic")
        layout.addWidget(self.printed)
        self.editor = QPlainTextEdit(objectName="zone-expression")
        self.editor.setFont(QFont("DejaVu Sans Mono", 9))
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setPlaceholderText('a zone expression: {hexes: ["4307"]}, {map_edge: north}, {any_of: [...]}')
        self.editor.textChanged.connect(self._preview_timer_start)
        layout.addWidget(self.editor, 1)
        self.status = QLabel(wordWrap=True, objectName="zone-status")
        buttons = QHBoxLayout()
        self.apply_button = QPushButton("Apply", toolTip="Make the edit one undo step (Ctrl+Return)")
        self.apply_button.clicked.connect(self.apply)
        revert = QPushButton("Revert", toolTip="Back to the zone as the scenario has it")
        revert.clicked.connect(lambda: self.load(self.name, force=True))
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(revert)
        layout.addLayout(buttons)
        # the zone's own marks (its printed text, erratum...): the other page's box follows its rows
        self.zone_marks = MarksBox(self.shared, "zone-marks")
        layout.addWidget(self.zone_marks)
        QShortcut(QKeySequence("Ctrl+Return"), self.editor, self.apply)
        return box

    def set_shown(self, shown: bool) -> None:
        """The highlights are on the map while the panel is in view (another tab hides them)."""
        for item in (self.zone_hexes, self.starts_page.start_hexes):
            if shiboken6.isValid(item):  # the scene goes first when the window closes
                item.setVisible(shown)
        self.in_view = shown
        if shown:
            self.catch_up()

    def edited(self) -> None:
        """After an edit, an undo or a redo: refreshed now while in view, else once it comes into
        view (the preview resolves the zone on the board again: 30 ms an edit on Scenario 6). A map
        shown instead clears the panel at once."""
        if self.in_view or not self.shared.active:
            self.refresh()
        else:
            self._stale = True

    def catch_up(self) -> None:
        if self._stale:
            self.refresh()

    # -- the zones ------------------------------------------------------------------------------
    def zones(self) -> Any:
        return self.shared.data.get("zones") or {}

    def refresh(self) -> None:
        """After an edit, an undo or a redo: the names, the zone's text (unless being edited), the starts."""
        self._stale = False
        if not self.shared.active:
            self.zone_list.clear()
            self.zone_hexes.set_hexes([])
            self.starts_page.start_hexes.set_hexes([])
            return
        names = [str(n) for n in self.zones()]
        if names != [self.zone_list.item(i).text() for i in range(self.zone_list.count())]:
            self.zone_list.blockSignals(True)
            self.zone_list.clear()
            self.zone_list.addItems(names)
            self.zone_list.blockSignals(False)
        name = self.name if self.name in names else (names[0] if names else None)
        self.zone_list.blockSignals(True)
        self.zone_list.setCurrentRow(names.index(name) if name is not None else -1)
        self.zone_list.blockSignals(False)
        self.load(name)
        self.starts_page.refresh()

    def load(self, name: str | None, *, force: bool = False) -> None:
        """Show a zone's expression; the user's unapplied text stays unless another zone is chosen."""
        zone = self.zones().get(name) if name else None
        text = yaml_text(zone["area"]) if zone is not None else ""
        if force or name != self.name or self.editor.toPlainText() == self.loaded:
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
            self.editor.blockSignals(False)
        self.name, self.loaded = name, text
        self.printed.setText(str(zone.get("printed", "")) if zone is not None else "")
        if name is not None:
            self.zone_marks.show_path(("zones", name))
        self.preview()

    def _preview_timer_start(self) -> None:
        self._preview_timer.start()

    def parsed(self) -> Any:
        """The editor's expression as round-trip data; ValueError saying why it is not one."""
        text = self.editor.toPlainText()
        if not text.strip():
            raise ValueError("empty: write a zone expression")
        value = typed_yaml(text, "the zone expression")
        if value is None:
            raise ValueError("empty: write a zone expression")
        return value

    def context(self, **override: Any) -> ZoneContext:
        """Zone resolution on the board with the scenario's compass; `override` replaces named zones."""
        ctx = self.shared.scenario.zone_context(self.window.document.board)
        ctx.named = {**ctx.named, **override}
        return ctx

    def preview(self) -> None:
        """Highlight the hexes the text names, or say why it names none."""
        if self.name is None:
            self.zone_hexes.set_hexes([])
            self.status.setText("")
            return
        session = self.window.document.session
        if self.editor.toPlainText() == self.loaded and session is not None:
            # the zone as the scenario has it: the validation's own answer (resolved once for both,
            # and kept across edits that cannot change it)
            known = session.context.zone(self.name)
            if known:
                self._show(known, hexes_text(len(known)))
                return
        try:
            expression = json.loads(json.dumps(self.parsed()))
            hexes = resolve_named(self.name, self.context(**{self.name: expression}))
        except ZoneError as exc:
            where = "/".join(str(p) for p in exc.path[3:])
            self._show(frozenset(), f"{where + ': ' if where else ''}{exc}", error=True)
        except ValueError as exc:  # not YAML, or no valid north indicator to take directions from
            self._show(frozenset(), str(exc), error=True)
        else:
            pending = " (not applied)" if self.editor.toPlainText() != self.loaded else ""
            self._show(hexes, hexes_text(len(hexes)) + pending)

    def _show(self, hexes: frozenset[Hex], message: str, *, error: bool = False) -> None:
        self.zone_hexes.set_hexes(hexes)
        self.status.setText(message)
        self.status.setStyleSheet("color: #a02020" if error else "color: #1f4e9c")

    def apply(self) -> bool:
        if self.name is None:
            return False
        try:
            value = self.parsed()
        except ValueError as exc:
            self._show(frozenset(), str(exc), error=True)
            return False
        if self.editor.toPlainText() == self.loaded:
            return False
        if not self.shared.push(Edit(f"Zone {self.name}").set(("zones", self.name), "area", value)):
            self.status.setText(self.window.statusBar().currentMessage())
            self.status.setStyleSheet("color: #a02020")
            return False
        self.load(self.name, force=True)  # the text as the file now writes it
        self.window.show_hexes(self.zone_hexes.hexes)  # where the zone now is
        return True

    def add_zone(self) -> bool:
        name = self.new_name.text().strip()
        board = self.window.document.board
        if not name or name in self.zones():
            self._show(frozenset(), "Give the new zone a name no other zone has", error=True)
            return False
        if not self.window.selected:
            self._show(frozenset(), "Select the new zone's hexes on the map first", error=True)
            return False
        labels = sequence((quoted(board.label(h)) for h in sorted(self.window.selected)), flow_style=True)
        zone = block([("area", flow(hexes=labels))])
        edit = Edit(f"New zone {name}")
        if "zones" in self.shared.data:
            edit.set(("zones",), name, zone)
        else:
            edit.set((), "zones", block([(name, zone)]), after="moves_first")
        if not self.shared.push(edit):
            return False
        self.new_name.clear()
        self.select_zone(name)
        set_selection(self.window, set())  # taken: the next New zone does not take the same hexes again unasked
        return True

    def remove_zone(self) -> bool:
        if self.name is None:
            return False
        return self.shared.push(Edit(f"Remove zone {self.name}").remove(("zones",), self.name))

    def select_zone(self, name: str) -> None:
        items = self.zone_list.findItems(name, Qt.MatchFlag.MatchExactly)
        if items:
            self.zone_list.setCurrentItem(items[0])

    # -- problems -------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        self.catch_up()  # the names and starts as the data has them now
        if len(path) >= 2 and path[0] == "zones":
            show_dock(self)
            self.pages.setCurrentIndex(0)
            self.select_zone(str(path[1]))
            self.editor.setFocus()
            return True
        return self.starts_page.select(path)


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = ZonePanel(window, shared)
    dock = shared.add_dock("Zones", panel)
    dock.visibilityChanged.connect(panel.set_shown)
    shared.on_problem(panel.starts_page.select_unplaced)
    shared.on_pointer(panel.select)
    window.document_changed.connect(panel.edited)
    window.problems_changed.connect(panel.starts_page.problems_changed)
    shared.add_tool(MapEdgeTool(window, shared, panel))
