"""Zones (docs/formats.md, Zones): the scenario's named zones, each expression edited as YAML text
with its hexes highlighted on the map as you type (or the ZoneError saying why it names none);
Apply (Ctrl+Return) makes the edit one undo step. Below, where each group starts: its
deployment zone, its entry options (zone, turn, phase, 24.1) and the infiltration zone (24.3),
editable, the chosen row's hexes shown on the map (entry zones lie on map edges).
"""

from __future__ import annotations

import io
import json
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.geometry.zones import ZoneContext, ZoneError, resolve, resolve_named
from engine.hexgrid import Hex
from engine.model.counters import SIDES

from ..document import _yaml
from ..mapview import HexSetItem
from ..scenario_data import DataPath, Edit, block, flow, quoted, sequence, typed_yaml
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..tool_options import hexes_text
from ..window import MainWindow
from .selection import set_selection

ORDER = 42
ZONE = QColor(60, 120, 216, 90)
ZONE_OUTLINE = QColor("#1f4e9c")
START = QColor(230, 120, 20, 110)
START_OUTLINE = QColor("#a04a00")
PHASES = ("movement", "reaction_movement")
SIDE, GROUP, WHERE, TURN, PHASE, CAP = range(6)


def yaml_text(value: Any) -> str:
    """A zone expression as the file writes it (comments and flow style kept)."""
    out = io.StringIO()
    _yaml().dump(value, out)
    return out.getvalue()


class ZonePanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("zones")
        self.window, self.shared = window, shared
        self.name: str | None = None  # the zone in the editor
        self.loaded = ""  # its text as last loaded from the data (to tell the user's edits)
        self.zone_hexes = HexSetItem(window.scene.layers["zones"], ZONE, ZONE_OUTLINE)
        self.start_hexes = HexSetItem(window.scene.layers["zones"], START, START_OUTLINE)
        self.start_hexes.setZValue(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        QVBoxLayout(self).addWidget(splitter)
        splitter.addWidget(self._zones_box())
        splitter.addWidget(self._starts_box())
        self._preview_timer = QTimer(self, singleShot=True, interval=120)
        self._preview_timer.timeout.connect(self.preview)
        self.in_view = True  # until its tab goes behind another (set_shown)
        self._stale = False  # edits came while out of view
        self.refresh()

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
        QShortcut(QKeySequence("Ctrl+Return"), self.editor, self.apply)
        return box

    def _starts_box(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Deployments, entries and infiltration"))
        self.starts = QTableWidget(0, 6, objectName="starts")
        self.starts.setHorizontalHeaderLabels(["Side", "Group", "Zone", "Turn", "Phase", "Cap"])
        self.starts.horizontalHeaderItem(CAP).setToolTip(
            "What may use this deployment or entry at most (24.1), double-click to edit: "
            "members: {LMG: 1, R: 2}, units: 3, squads: 1, commanders: 1, crew_weapons: 1, afvs: 2"
        )
        header = self.starts.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(WHERE, QHeaderView.ResizeMode.Stretch)
        for column, width in ((SIDE, 60), (GROUP, 80), (TURN, 50), (PHASE, 115), (CAP, 150)):
            self.starts.setColumnWidth(column, width)
        self.starts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.starts.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.starts.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.starts.verticalHeader().hide()
        self.starts.currentCellChanged.connect(lambda *args: self.show_start())
        self.starts.itemChanged.connect(self._cap_edited)
        layout.addWidget(self.starts)
        self.start_paths: list[DataPath] = []
        return box

    def set_shown(self, shown: bool) -> None:
        """The highlights are on the map while the panel is in view (another tab hides them)."""
        for item in (self.zone_hexes, self.start_hexes):
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
            self.start_hexes.set_hexes([])
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
        self.refresh_starts()

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

    # -- where groups start ---------------------------------------------------------------------
    def refresh_starts(self) -> None:
        """One row per deployment, entry option and infiltration; cells edit the scenario."""
        row = self.starts.currentRow()
        self.starts.blockSignals(True)
        self.starts.setRowCount(0)
        self.start_paths = []
        data = self.shared.data
        for side in SIDES:
            side_data = (data.get("sides") or {}).get(side) or {}
            for d, deployment in enumerate(side_data.get("deployment") or []):
                self._start_row(side, ("sides", side, "deployment", d), deployment, deployment, None)
            for e, entry in enumerate(side_data.get("entries") or []):
                for o, option in enumerate(entry.get("options") or []):
                    self._start_row(side, ("sides", side, "entries", e, "options", o), entry, option, option)
        infiltration = data.get("infiltration")
        if infiltration:
            self._start_row(str(infiltration.get("side")), ("infiltration",), None, infiltration, None)
        self.starts.blockSignals(False)
        if 0 <= row < self.starts.rowCount():
            self.starts.selectRow(row)
        self.show_start()

    def _start_row(self, side: str, path: DataPath, who: Any, where: Any, option: Any) -> None:
        row = self.starts.rowCount()
        self.starts.insertRow(row)
        self.start_paths.append(path)
        self.starts.setItem(row, SIDE, _fixed(side))
        owner = path[:4] if "options" in path else path
        if who is not None:  # a deployment's or an entry's cap (docs/formats.md, R83, R15)
            cap = QTableWidgetItem(_flow_text(who.get("limit")))
            cap.setToolTip(self.starts.horizontalHeaderItem(CAP).toolTip())
            self.starts.setItem(row, CAP, cap)
        if who is None:
            self.starts.setItem(row, GROUP, _fixed("(infiltrates)"))
        elif "group" in who:
            groups = [str(g.get("name")) for g in self.shared.data["sides"][side].get("groups") or []]
            self._combo(row, GROUP, groups, str(who["group"]), lambda v, p=owner: self._set(p, "group", v))
        else:
            self.starts.setItem(row, GROUP, _fixed(f"{len(who.get('units') or [])} units"))
        zone = where.get("zone")
        names = [str(n) for n in self.zones()]
        if isinstance(zone, str):
            self._combo(row, WHERE, names, zone, lambda v, p=path: self._set(p, "zone", v))
        else:
            item = _fixed(yaml_text(zone).strip())
            item.setToolTip("an expression written in place; the file's text edits it")
            self.starts.setItem(row, WHERE, item)
        if option is None:
            self.starts.setItem(row, TURN, _fixed("set-up" if who is not None else "24.3"))
            return
        turn = QSpinBox(minimum=1, maximum=99, value=int(option.get("turn", 1)), keyboardTracking=False)
        turn.valueChanged.connect(lambda v, p=path: self._set(p, "turn", v))
        self.starts.setCellWidget(row, TURN, turn)
        phase = str(option.get("phase", "movement"))
        self._combo(row, PHASE, list(PHASES), phase, lambda v, p=path: self._set(p, "phase", v))

    def _combo(self, row: int, column: int, choices: list[str], current: str, chosen: Any) -> None:
        combo = QComboBox()
        combo.addItems(choices if current in choices else [current, *choices])
        combo.setCurrentText(current)
        combo.currentTextChanged.connect(chosen)
        self.starts.setCellWidget(row, column, combo)

    def _cap_edited(self, item: QTableWidgetItem) -> None:
        """A cap typed as YAML (`members: {LMG: 1, R: 2}`); empty removes it. The schema and
        setup-deployment-cap check it, as they check the file."""
        if item.column() != CAP:
            return
        path = self.start_paths[item.row()]
        owner = path[:4] if "options" in path else path
        text = item.text().strip()
        try:
            cap = typed_yaml(text, "the cap") if text else None
        except ValueError as exc:
            self.status.setText(f"Cap: {exc}")
            QTimer.singleShot(0, self.refresh_starts)
            return
        if cap is not None and not isinstance(cap, dict):
            self.status.setText("Cap: a mapping, e.g. members: {LMG: 1, R: 2} (24.1)")
            QTimer.singleShot(0, self.refresh_starts)
            return
        where = "/".join(str(p) for p in owner[1:])
        holder: Any = self.shared.data
        for key in owner:
            holder = holder[key]
        if cap is None:
            edit = Edit(f"{where}: no cap").remove(owner, "limit") if "limit" in holder else Edit("")
        else:
            edit = Edit(f"{where}: cap {text}").set(owner, "limit", cap, after="zone")
        QTimer.singleShot(0, lambda: (edit and self.shared.push(edit)) or self.refresh_starts())

    def _set(self, path: DataPath, key: str, value: Any) -> None:
        where = "/".join(str(p) for p in path[1:])
        edit = Edit(f"{where}: {key} {value}").set(path, key, value, after="turn")
        # After the cell's signal returns: the edit rebuilds the table, and with it the cell's widget.
        QTimer.singleShot(0, lambda: self.shared.push(edit))

    def show_start(self) -> None:
        """The chosen row's zone on the map."""
        row = self.starts.currentRow()
        if not (0 <= row < len(self.start_paths)):
            self.start_hexes.set_hexes([])
            return
        path = self.start_paths[row]
        zone: Any = self.shared.data
        for key in path:
            zone = zone[key]
        try:
            ctx = self.context()
            expression = json.loads(json.dumps(zone.get("zone")))
            hexes = resolve_named(expression, ctx) if isinstance(expression, str) else resolve(expression, ctx)
        except ValueError:  # a ZoneError, or no north indicator: zone-empty reports it
            hexes = frozenset()
        self.start_hexes.set_hexes(hexes)

    # -- problems -------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        self.catch_up()  # the names and starts as the data has them now
        if len(path) >= 2 and path[0] == "zones":
            show_dock(self)
            self.select_zone(str(path[1]))
            self.editor.setFocus()
            return True
        starts = [i for i, p in enumerate(self.start_paths) if path[: len(p)] == p]
        if not starts and len(path) >= 4 and path[2] == "entries":  # the entry itself: its first option
            starts = [i for i, p in enumerate(self.start_paths) if p[:4] == path[:4]]
        if not starts:
            return False
        show_dock(self)
        self.starts.selectRow(starts[0])
        return True


def _fixed(text: str) -> QTableWidgetItem:
    """A cell that shows and does not edit (the Cap column edits)."""
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


def _flow_text(value: Any) -> str:
    """A cap as one line of YAML, `members: {LMG: 1, R: 2}`; empty for none."""
    if not value:
        return ""
    return ", ".join(f"{k}: {_flow(v)}" for k, v in value.items())


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = ZonePanel(window, shared)
    dock = shared.add_dock("Zones", panel)
    dock.visibilityChanged.connect(panel.set_shown)
    shared.on_pointer(panel.select)
    window.document_changed.connect(panel.edited)
