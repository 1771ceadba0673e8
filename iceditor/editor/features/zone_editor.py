"""Zones (docs/formats.md, Zones): the scenario's named zones, each expression edited as YAML text
with its hexes highlighted on the map as you type (or the ZoneError saying why it names none);
Apply (Ctrl+Return) makes the edit one undo step. A map edge is picked on the map with the Map
edge tool (D): a click on an edge hex adds that edge to the zone's expression (or takes it out).
Below, where each group starts: its deployment zones, its entry options (zone, turn, phase,
24.1) and the infiltration zone (24.3), added, removed and edited there, the chosen row's hexes
shown on the map (entry zones lie on map edges); a deployment or entry of a list of units (`units:`
rather than a group) has its units listed under the table, added from the side's order of battle
and removed there. A group or unit with no deployment and no entry (`unit-not-placed`) has a row
of its own: choosing its zone deploys it there.
"""

from __future__ import annotations

import copy
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
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from engine.geometry.zones import ZoneContext, ZoneError, resolve, resolve_named
from engine.hexgrid import Hex
from engine.model.counters import SIDES
from engine.problems import Problem

from ..document import _yaml
from ..mapview import HexSetItem
from ..marks import MarksBox
from ..panel_widgets import DeletableTable, Message, fit_rows
from ..panel_widgets import row as buttons_row
from ..scenario_data import (
    DataPath,
    Edit,
    block,
    find,
    flow,
    like_siblings,
    node,
    parse_pointer,
    quoted,
    sequence,
    typed_yaml,
)
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..tool_options import hexes_text
from ..unit_list import UnitList, describe, placement_key
from ..window import MainWindow, Tool
from .selection import set_selection

ORDER = 42
ZONE = QColor(60, 120, 216, 90)
ZONE_OUTLINE = QColor("#1f4e9c")
START = QColor(230, 120, 20, 110)
START_OUTLINE = QColor("#a04a00")
PHASES = ("movement", "reaction_movement")
CHOOSE = ("at_entry", "before_setup", "before_play")  # when the owner picks among an entry's options (24.1)
SIDE, GROUP, WHERE, TURN, PHASE, CAP = range(6)
NOT_PLACED = "(not placed: choose a zone)"
START_ROWS = 6  # the starts table's rows in view; more scroll (at 1366x768 the dock shows about 7)
EDGES = ("north", "east", "south", "west")


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
        # two pages, each the dock's whole height (at 1366x768 the two one above the other scroll)
        self.pages = QTabWidget(objectName="zones-pages")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.pages)
        self.pages.addTab(self._zones_box(), "Zones")
        self.pages.addTab(self._starts_box(), "Deployments and entries")
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

    def _starts_box(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Where each group sets up or enters (24.1), and infiltrates (24.3)"))
        self.starts = DeletableTable(0, 6, objectName="starts")
        self.starts.deleted.connect(self.remove_start)
        self.starts.setHorizontalHeaderLabels(["Side", "Group", "Zone", "Turn", "Phase", "Cap"])
        self.starts.horizontalHeaderItem(CAP).setToolTip(
            "What may use this deployment or entry at most (24.1), double-click to edit: "
            "members: {LMG: 1, R: 2}, units: 3, squads: 1, commanders: 1, crew_weapons: 1, afvs: 2"
        )
        header = self.starts.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(WHERE, QHeaderView.ResizeMode.Stretch)
        for column, width in ((SIDE, 52), (GROUP, 72), (TURN, 46), (PHASE, 92), (CAP, 60)):
            self.starts.setColumnWidth(column, width)
        self.starts.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.starts.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.starts.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.starts.verticalHeader().hide()
        self.starts.currentCellChanged.connect(lambda *args: self.show_start())
        self.starts.itemChanged.connect(self._cap_edited)
        layout.addWidget(self.starts)  # as tall as its rows (START_ROWS at most): what is below stays in view
        self.units = UnitList(self.shared, "starts-units")  # a units: row's units, under its row
        layout.addWidget(self.units)
        self.start_paths: list[DataPath] = []
        self.unplaced: dict[DataPath, str] = {}  # a row's path (group or unit) -> its side, for unit-not-placed
        add_deployment = QPushButton("Add deployment", objectName="starts-add-deployment")
        add_deployment.setToolTip("The chosen row's group (or unit) deploys in a zone too (24.1)")
        add_deployment.clicked.connect(lambda: self.add_start("deployment"))
        add_entry = QPushButton("Add entry", objectName="starts-add-entry")
        add_entry.setToolTip("The chosen row's group (or unit) enters the map on turn 1 (24.1)")
        add_entry.clicked.connect(lambda: self.add_start("entries"))
        add_option = QPushButton("Add option", objectName="starts-add-option")
        add_option.setToolTip("Another zone or turn the chosen entry may use")
        add_option.clicked.connect(self.add_option)
        remove = QPushButton("Remove", objectName="starts-remove")
        remove.setToolTip("Remove the chosen deployment, entry option or infiltration (Del)")
        remove.clicked.connect(self.remove_start)
        layout.addLayout(buttons_row(add_deployment, add_entry))
        self.choose = QComboBox(objectName="starts-choose")
        self.choose.addItems(CHOOSE)
        self.choose.setToolTip("When the owner picks among the entry's options (24.1)")
        self.choose.textActivated.connect(self._choose_chosen)
        self.choose_label = QLabel("picked", toolTip=self.choose.toolTip())
        layout.addLayout(buttons_row(add_option, remove, self.choose_label, self.choose))
        self.start_message = Message("starts-message")
        layout.addWidget(self.start_message)
        self.marks = MarksBox(self.shared, "starts-marks")
        layout.addWidget(self.marks)
        layout.addStretch()
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
        for path, side in self.unplaced.items():
            if find(data, path) is not None:
                self._unplaced_row(side, path)
        self.starts.blockSignals(False)
        fit_rows(self.starts, START_ROWS)
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
            units = [describe(dict(u)) for u in who.get("units") or []]
            item = _fixed(f"{len(units)} units")
            item.setToolTip(", ".join(units) + ": listed under the table when the row is chosen")
            self.starts.setItem(row, GROUP, item)
        zone = where.get("zone")
        names = [str(n) for n in self.zones()]
        if isinstance(zone, str):
            self._combo(row, WHERE, names, zone, lambda v, p=path: self._set(p, "zone", v))
        else:
            item = QTableWidgetItem(_flow_text_of(zone))
            item.setToolTip("a zone expression written in place: double-click to edit it as YAML")
            self.starts.setItem(row, WHERE, item)
        if option is None:
            self.starts.setItem(row, TURN, _fixed("set-up" if who is not None else "24.3"))
            return
        turn = QSpinBox(minimum=1, maximum=99, value=int(option.get("turn", 1)), keyboardTracking=False)
        turn.valueChanged.connect(lambda v, p=path: self._set(p, "turn", v))
        self.starts.setCellWidget(row, TURN, turn)
        phase = str(option.get("phase", "movement"))
        self._combo(row, PHASE, list(PHASES), phase, lambda v, p=path: self._set(p, "phase", v))

    def _unplaced_row(self, side: str, path: DataPath) -> None:
        """A group (or a unit of a placed group) no deployment or entry names: its zone deploys it."""
        row = self.starts.rowCount()
        self.starts.insertRow(row)
        self.start_paths.append(path)
        self.starts.setItem(row, SIDE, _fixed(side))
        what = node(self.shared.data, path)
        name = str(what.get("name")) if len(path) == 4 else describe(what)
        item = _fixed(name)
        item.setForeground(QColor("#a02020"))
        item.setToolTip("no deployment and no entry (24.1): choose its zone, or Add entry")
        self.starts.setItem(row, GROUP, item)
        names = [str(n) for n in self.zones()]
        self._combo(row, WHERE, [NOT_PLACED, *names], NOT_PLACED, lambda v, p=path: self._deploy(p, v))
        self.starts.setItem(row, TURN, _fixed("-"))

    def problems_changed(self, problems: list[Problem]) -> None:
        """The groups and units `unit-not-placed` reports get rows of their own (the check's answer)."""
        unplaced: dict[DataPath, str] = {}
        session = self.window.document.session
        if self.shared.active and session is not None and session.half_made is not None:
            # a half-made scenario has only its schema problems: its groups no instruction names by name
            data = self.shared.data
            for side in SIDES:
                side_data = find(data, ("sides", side)) or {}
                named = {str(i.get("group")) for k in ("deployment", "entries") for i in side_data.get(k) or []}
                for g, group in enumerate(side_data.get("groups") or []):
                    if str(group.get("name")) not in named:
                        unplaced[("sides", side, "groups", g)] = side
        for p in problems:
            if p.code == "unit-not-placed" and p.pointer:
                path = parse_pointer(p.pointer)
                path = path[:4] if path[-1] == "name" else path[:6]
                unplaced[path] = str(path[1])
        if unplaced != self.unplaced:
            self.unplaced = unplaced
            self.refresh_starts()

    def _combo(self, row: int, column: int, choices: list[str], current: str, chosen: Any) -> None:
        combo = QComboBox()
        combo.addItems(choices if current in choices else [current, *choices])
        combo.setCurrentText(current)
        combo.currentTextChanged.connect(chosen)
        self.starts.setCellWidget(row, column, combo)

    def _cap_edited(self, item: QTableWidgetItem) -> None:
        """A cap typed as YAML (`members: {LMG: 1, R: 2}`); empty removes it. The schema and
        setup-deployment-cap check it, as they check the file."""
        if item.column() == WHERE:
            self._zone_typed(item)
            return
        if item.column() != CAP:
            return
        path = self.start_paths[item.row()]
        owner = path[:4] if "options" in path else path
        text = item.text().strip()
        try:
            cap = typed_yaml(text, "the cap") if text else None
        except ValueError as exc:  # said on this page, where the cap is typed
            self.start_message.setText(f"Cap: {exc}")
            QTimer.singleShot(0, self.refresh_starts)
            return
        if cap is not None and not isinstance(cap, dict):
            self.start_message.setText("Cap: a mapping, e.g. members: {LMG: 1, R: 2} (24.1)")
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
        QTimer.singleShot(0, lambda: (edit and self._push_start(edit, path)) or self.refresh_starts())

    def _chosen_owner(self) -> tuple[str, dict[str, Any]] | None:
        """Whom the chosen row is about, as a deployment or entry names them: (side, {group} or {units})."""
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        if path is None or path == ("infiltration",):
            first = next(iter(self.unplaced), None)  # nothing chosen: the first group not placed
            if first is None:
                return None
            path = first
        side = str(path[1])
        if path in self.unplaced and len(path) == 6:
            return side, {"units": sequence([flow(**placement_key(node(self.shared.data, path)))], flow_style=True)}
        if path in self.unplaced:
            return side, {"group": str(node(self.shared.data, path).get("name"))}
        owner = node(self.shared.data, path[:4])
        if "group" in owner:
            return side, {"group": str(owner["group"])}
        return side, {"units": copy.deepcopy(owner["units"])}

    def add_start(self, kind: str) -> bool:
        """A deployment (kind "deployment") or an entry ("entries") for the chosen row's group or
        units, on the first zone: choose its zone in the row."""
        owner, zones = self._chosen_owner(), [str(n) for n in self.zones()]
        if owner is None:
            self.start_message.setText("Choose the row of the group (or unit) that deploys or enters")
            return False
        if not zones:
            self.start_message.setText("Add a zone first (above): a deployment or entry names its zone")
            return False
        side, who = owner
        side_path = ("sides", side)
        existing = find(self.shared.data, (*side_path, kind))
        if kind == "deployment":
            item = like_siblings({**who, "zone": zones[0]}, existing or [])
            label = f"{side.capitalize()} deploys in {zones[0]}"
        else:
            option = flow(zone=zones[0], turn=1, phase=PHASES[0])
            item = block([*who.items(), ("options", sequence([option])), ("choose", CHOOSE[0])])
            label = f"{side.capitalize()} enters in {zones[0]} on turn 1"
        edit = Edit(label)
        if existing is None:
            edit.set(side_path, kind, sequence([item]), after="groups" if kind == "deployment" else "deployment")
        else:
            edit.insert((*side_path, kind), None, item)
        index = len(existing or [])
        return self._push_start(edit, (*side_path, kind, index) + (("options", 0) if kind == "entries" else ()))

    def add_option(self) -> bool:
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        if path is None or "options" not in path:
            self.start_message.setText("Choose an entry's row: the option is another zone or turn it may use")
            return False
        options = (*path[:4], "options")
        last = node(self.shared.data, path)
        siblings = node(self.shared.data, options)
        option = like_siblings({"zone": last["zone"], "turn": int(last.get("turn", 1)) + 1}, siblings)
        if "phase" in last:
            option["phase"] = last["phase"]
        edit = Edit(f"{path[1]} entry {path[3]}: an option on turn {option['turn']}").insert(options, None, option)
        return self._push_start(edit, (*options, len(node(self.shared.data, options))))

    def remove_start(self) -> bool:
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        if path is None or path in self.unplaced:
            self.start_message.setText("Choose the deployment, entry option or infiltration to remove")
            return False
        if path == ("infiltration",):
            edit = Edit("No infiltration").remove((), "infiltration")
        elif "options" in path and len(node(self.shared.data, path[:-1])) > 1:
            edit = Edit(f"Remove {path[1]} entry {path[3]}'s option {path[5] + 1}").remove(path[:-1], path[-1])
        else:
            kind = "entry" if "options" in path else "deployment"
            edit = Edit(f"Remove {path[1]} {kind} {path[3] + 1}").remove(path[:3], path[3])
        return self._push_start(edit, None)

    def _deploy(self, path: DataPath, zone: str) -> None:
        """An unplaced row's zone chosen: its group or unit deploys there."""
        if zone == NOT_PLACED:
            return
        row = self.start_paths.index(path)
        self.starts.setCurrentCell(row, WHERE)
        side = str(path[1])
        existing = find(self.shared.data, ("sides", side, "deployment"))
        owner = self._chosen_owner()
        assert owner is not None
        item = like_siblings({**owner[1], "zone": zone}, existing or [])
        edit = Edit(f"{side.capitalize()} {self.starts.item(row, GROUP).text()} deploys in {zone}")
        if existing is None:
            edit.set(("sides", side), "deployment", sequence([item]), after="groups")
        else:
            edit.insert(("sides", side, "deployment"), None, item)
        QTimer.singleShot(0, lambda: self._push_start(edit, ("sides", side, "deployment", len(existing or []))))

    def _choose_chosen(self, value: str) -> None:
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        if path is None or "options" not in path:
            return
        entry = path[:4]
        if str(node(self.shared.data, entry).get("choose", CHOOSE[0])) != value:
            self._push_start(Edit(f"{path[1]} entry {path[3]}: chosen {value}").set(entry, "choose", value), path)

    def _push_start(self, edit: Edit, select: DataPath | None) -> bool:
        if not self.shared.push_told(edit, self.start_message):
            return False
        self.refresh_starts()
        if select in self.start_paths:
            self.starts.selectRow(self.start_paths.index(select))
        return True

    def _zone_typed(self, item: QTableWidgetItem) -> None:
        """An expression typed in place of a row's zone (`{hill: K}`), checked as the file's is."""
        path = self.start_paths[item.row()]
        try:
            zone = typed_yaml(item.text(), "the zone")
            if not isinstance(zone, dict):
                raise ValueError("a zone expression is a mapping with one key: {hill: K}, {map_edge: north}")
        except ValueError as exc:
            self.start_message.setText(f"Zone: {exc}")
            QTimer.singleShot(0, self.refresh_starts)
            return
        edit = Edit(f"{'/'.join(str(p) for p in path[1:])}: zone {item.text().strip()}").set(path, "zone", zone)
        QTimer.singleShot(0, lambda: self._push_start(edit, path) or self.refresh_starts())

    def _set(self, path: DataPath, key: str, value: Any) -> None:
        where = "/".join(str(p) for p in path[1:])
        edit = Edit(f"{where}: {key} {value}").set(path, key, value, after="turn")
        # After the cell's signal returns: the edit rebuilds the table, and with it the cell's widget.
        QTimer.singleShot(0, lambda: self._push_start(edit, path) or self.refresh_starts())

    def show_start(self) -> None:
        """The chosen row's zone on the map, its marks below, and when an entry's option is picked."""
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        entry = path[:4] if path is not None and "options" in path else None
        self.choose.setEnabled(entry is not None)
        self.choose_label.setEnabled(entry is not None)
        if entry is not None:
            self.choose.setCurrentText(str(node(self.shared.data, entry).get("choose", CHOOSE[0])))
        # the deployment's or entry's own units, when it names units rather than a group
        owner = path[:4] if path is not None and path not in self.unplaced and path != ("infiltration",) else None
        self.units.show_path(owner)
        if path is None or path in self.unplaced:
            self.marks.show_path(None)
            self.start_hexes.set_hexes([])
            return
        if entry is not None:  # an option's row: the option's marks, or its entry's
            self.marks.show_choices([("this option", path), ("the entry", entry)])
        else:
            self.marks.show_path(path)
        zone: Any = node(self.shared.data, path)
        try:
            ctx = self.context()
            expression = json.loads(json.dumps(zone.get("zone")))
            hexes = resolve_named(expression, ctx) if isinstance(expression, str) else resolve(expression, ctx)
        except ValueError:  # a ZoneError, or no north indicator: zone-empty reports it
            hexes = frozenset()
        self.start_hexes.set_hexes(hexes)

    # -- problems -------------------------------------------------------------------------------
    def select_unplaced(self, problem: Problem) -> bool:
        """`unit-not-placed` leads to the group's (or unit's) row here, where its zone is chosen."""
        if problem.code != "unit-not-placed" or not problem.pointer:
            return False
        self.catch_up()
        self.problems_changed(self.window.problems)
        path = parse_pointer(problem.pointer)
        path = path[:4] if path[-1] == "name" else path[:6]
        if path not in self.start_paths:
            return False
        self.show_starts()
        self.starts.selectRow(self.start_paths.index(path))
        self.starts.setFocus()
        return True

    def show_starts(self) -> None:
        """The Deployments and entries page, in front."""
        show_dock(self)
        self.pages.setCurrentIndex(1)

    def select(self, path: DataPath) -> bool:
        self.catch_up()  # the names and starts as the data has them now
        if len(path) >= 2 and path[0] == "zones":
            show_dock(self)
            self.pages.setCurrentIndex(0)
            self.select_zone(str(path[1]))
            self.editor.setFocus()
            return True
        starts = [i for i, p in enumerate(self.start_paths) if path[: len(p)] == p]
        if not starts and len(path) >= 4 and path[2] == "entries":  # the entry itself: its first option
            starts = [i for i, p in enumerate(self.start_paths) if p[:4] == path[:4]]
        if not starts:
            return False
        self.show_starts()
        self.starts.selectRow(starts[0])
        return True


def _fixed(text: str) -> QTableWidgetItem:
    """A cell that shows and does not edit (the Cap column edits)."""
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


def _flow_text_of(expression: Any) -> str:
    """A zone expression on one line, as YAML reads it back: `{hill: K}`, `{hexes: ['4307']}`."""
    out = io.StringIO()
    writer = YAML(typ="safe", pure=True)
    writer.default_flow_style = True
    writer.width = 4096
    writer.dump(json.loads(json.dumps(expression)), out)
    return out.getvalue().strip()


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


def edges_at(h: Hex, ctx: ZoneContext, maps: list[str]) -> list[Any]:
    """The map-edge expressions whose hexes hold `h`: the assembled map's edges, else (a seam
    between two maps) the edges of the map it is on, `{edge, map}`."""
    found: list[Any] = [e for e in EDGES if h in resolve({"map_edge": e}, ctx)]
    if found or len(maps) < 2:
        return found
    return [flow(edge=e, map=m) for m in maps for e in EDGES if h in resolve({"map_edge": {"edge": e, "map": m}}, ctx)]


def toggled_edge(expression: Any, edge: Any) -> Any:
    """The expression with the map edge added (a lone edge, or `any_of` of edges), or taken out if
    it is there; anything but edges is replaced by the edge."""
    plain = json.loads(json.dumps(edge))
    parts: list[Any] = []
    if isinstance(expression, dict) and "map_edge" in expression:
        parts = [expression]
    elif isinstance(expression, dict) and "any_of" in expression:
        parts = list(expression["any_of"])
        if not all(isinstance(p, dict) and "map_edge" in p for p in parts):
            parts = []
    kept = [p for p in parts if json.loads(json.dumps(p["map_edge"])) != plain]
    if len(kept) == len(parts):
        kept.append(flow(map_edge=edge))
    if len(kept) == 1:
        return kept[0] if isinstance(kept[0], CommentedMap) else flow(**kept[0])
    return block([("any_of", sequence(kept))]) if kept else None


class MapEdgeTool(Tool):
    """Click a hex on a map edge: the zone in the Zones panel gets that edge (again: takes it out)."""

    name = "map-edge"
    label = "Map edge zone"
    shortcut = "D"
    group = "scenario"
    tip = "Pick map edges for the zone in the Zones panel: click a hex on an edge (again to take it out)"

    def __init__(self, window: MainWindow, shared: ScenarioPanels, panel: ZonePanel) -> None:
        super().__init__(window)
        self.shared, self.panel = shared, panel
        self._last: tuple[Hex, int] | None = None  # a corner hex clicked again: its other edge

    def press(self, h: Hex, event: Any) -> None:
        if not self.shared.active:
            return
        self.panel.catch_up()  # its first zone chosen, if its tab has not been shown yet
        if self.panel.name is None:
            self.window.statusBar().showMessage("Choose or add a zone in the Zones panel first", 5000)
            return
        try:
            ctx = self.panel.context()
            edges = edges_at(h, ctx, list(self.shared.scenario.maps))
        except ValueError as exc:  # no valid north indicator: the edges have no names yet
            self.window.statusBar().showMessage(f"Map edges: {exc}", 5000)
            return
        if not edges:
            self.window.statusBar().showMessage(f"{self.shared.label(h)} is on no map edge", 4000)
            return
        turn = self._last[1] + 1 if self._last is not None and self._last[0] == h else 0
        self._last = (h, turn)
        edge = edges[turn % len(edges)]
        try:
            current = self.panel.parsed()
        except ValueError:
            current = None
        expression = toggled_edge(current, edge)
        show_dock(self.panel)
        self.panel.pages.setCurrentIndex(0)
        self.panel.editor.setPlainText(yaml_text(expression) if expression is not None else "")
        self.panel.preview()
        shown = edge if isinstance(edge, str) else f"{edge['edge']} of {edge['map']}"
        self.window.statusBar().showMessage(f"Zone {self.panel.name}: {shown} edge; Apply makes it so", 5000)


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = ZonePanel(window, shared)
    dock = shared.add_dock("Zones", panel)
    dock.visibilityChanged.connect(panel.set_shown)
    shared.on_problem(panel.select_unplaced)
    shared.on_pointer(panel.select)
    window.document_changed.connect(panel.edited)
    window.problems_changed.connect(panel.problems_changed)
    shared.add_tool(MapEdgeTool(window, shared, panel))
