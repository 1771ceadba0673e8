"""Deployments and entries, the Zones panel's second page: where each group starts, one row per
deployment, entry option (zone, turn, phase, 24.1) and the infiltration (24.3), added, removed and
edited here, the chosen row's hexes shown on the map (entry zones lie on map edges). A deployment or
entry of a list of units (`units:` rather than a group) has its units listed under the table, added
from the side's order of battle and removed there. A group or unit with no deployment and no entry
(`unit-not-placed`) has a row of its own: choosing its zone deploys it there.
"""

from __future__ import annotations

import copy
import io
import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from ruamel.yaml import YAML

from engine.geometry.zones import resolve, resolve_named
from engine.model.counters import SIDES
from engine.problems import Problem

from .mapview import HexSetItem
from .marks import MarksBox
from .panel_widgets import DeletableTable, Message, fit_rows
from .panel_widgets import row as buttons_row
from .scenario_data import (
    DataPath,
    Edit,
    block,
    find,
    flow,
    like_siblings,
    node,
    parse_pointer,
    sequence,
    typed_yaml,
)
from .scenario_panels import ScenarioPanels, show_dock
from .unit_list import UnitList, describe, placement_key
from .window import MainWindow

if TYPE_CHECKING:
    from .features.zone_editor import ZonePanel

START = QColor(230, 120, 20, 110)
START_OUTLINE = QColor("#a04a00")
PHASES = ("movement", "reaction_movement")
CHOOSE = ("at_entry", "before_setup", "before_play")  # when the owner picks among an entry's options (24.1)
SIDE, GROUP, WHERE, TURN, PHASE, CAP = range(6)
NOT_PLACED = "(not placed: choose a zone)"
START_ROWS = 6  # the starts table's rows in view; more scroll (at 1366x768 the dock shows about 7)


class StartsPage(QWidget):
    """The Zones panel's Deployments and entries page: the starts table, a `units:` row's units,
    and the chosen row's marks; its zone lists and zone resolution are the panel's."""

    def __init__(self, window: MainWindow, shared: ScenarioPanels, panel: ZonePanel) -> None:
        super().__init__()
        self.window, self.shared, self.panel = window, shared, panel
        self.start_hexes = HexSetItem(window.scene.layers["zones"], START, START_OUTLINE)
        self.start_hexes.setZValue(1)
        layout = QVBoxLayout(self)
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

    def refresh(self) -> None:
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
        names = [str(n) for n in self.panel.zones()]
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
        names = [str(n) for n in self.panel.zones()]
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
            self.refresh()

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
            QTimer.singleShot(0, self.refresh)
            return
        if cap is not None and not isinstance(cap, dict):
            self.start_message.setText("Cap: a mapping, e.g. members: {LMG: 1, R: 2} (24.1)")
            QTimer.singleShot(0, self.refresh)
            return
        where = "/".join(str(p) for p in owner[1:])
        holder: Any = self.shared.data
        for key in owner:
            holder = holder[key]
        if cap is None:
            edit = Edit(f"{where}: no cap").remove(owner, "limit") if "limit" in holder else Edit("")
        else:
            edit = Edit(f"{where}: cap {text}").set(owner, "limit", cap, after="zone")
        QTimer.singleShot(0, lambda: (edit and self._push(edit, path)) or self.refresh())

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
        owner, zones = self._chosen_owner(), [str(n) for n in self.panel.zones()]
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
        return self._push(edit, (*side_path, kind, index) + (("options", 0) if kind == "entries" else ()))

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
        return self._push(edit, (*options, len(node(self.shared.data, options))))

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
        return self._push(edit, None)

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
        QTimer.singleShot(0, lambda: self._push(edit, ("sides", side, "deployment", len(existing or []))))

    def _choose_chosen(self, value: str) -> None:
        row = self.starts.currentRow()
        path = self.start_paths[row] if 0 <= row < len(self.start_paths) else None
        if path is None or "options" not in path:
            return
        entry = path[:4]
        if str(node(self.shared.data, entry).get("choose", CHOOSE[0])) != value:
            self._push(Edit(f"{path[1]} entry {path[3]}: chosen {value}").set(entry, "choose", value), path)

    def _push(self, edit: Edit, select: DataPath | None) -> bool:
        if not self.shared.push_told(edit, self.start_message):
            return False
        self.refresh()
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
            QTimer.singleShot(0, self.refresh)
            return
        edit = Edit(f"{'/'.join(str(p) for p in path[1:])}: zone {item.text().strip()}").set(path, "zone", zone)
        QTimer.singleShot(0, lambda: self._push(edit, path) or self.refresh())

    def _set(self, path: DataPath, key: str, value: Any) -> None:
        where = "/".join(str(p) for p in path[1:])
        edit = Edit(f"{where}: {key} {value}").set(path, key, value, after="turn")
        # After the cell's signal returns: the edit rebuilds the table, and with it the cell's widget.
        QTimer.singleShot(0, lambda: self._push(edit, path) or self.refresh())

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
            ctx = self.panel.context()
            expression = json.loads(json.dumps(zone.get("zone")))
            hexes = resolve_named(expression, ctx) if isinstance(expression, str) else resolve(expression, ctx)
        except ValueError:  # a ZoneError, or no north indicator: zone-empty reports it
            hexes = frozenset()
        self.start_hexes.set_hexes(hexes)

    def select_unplaced(self, problem: Problem) -> bool:
        """`unit-not-placed` leads to the group's (or unit's) row here, where its zone is chosen."""
        if problem.code != "unit-not-placed" or not problem.pointer:
            return False
        self.panel.catch_up()
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
        show_dock(self.panel)
        self.panel.pages.setCurrentIndex(1)

    def select(self, path: DataPath) -> bool:
        """A problem at a deployment's, entry's or infiltration's path: its row, chosen."""
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
