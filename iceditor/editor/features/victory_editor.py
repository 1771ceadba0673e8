"""Victory conditions (24.1, 24.9): the results checked in order and the result otherwise, or the
victory points: the awards with the most they can give on the board (engine/model/victory.py),
and the schedule of results by VP total, edited in a table (Add band, Remove band). Results are
added from templates (Add result: occupies, no units in, units in, sole occupant, controls) and
edited as YAML; control (what it means, who holds which zone at the start: R82) in its own box."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.model.counters import SIDES
from engine.model.victory import maximum_points

from ..scenario_data import DataPath, Edit, block, find, flow, like_siblings, sequence, typed_yaml
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..window import MainWindow
from .zone_editor import yaml_text

ORDER = 44
RESULTS = ("german", "russian", "draw")
POINTS: DataPath = ("victory", "points")
CONTROL: DataPath = ("victory", "control")
NO_CONTROL = "(not defined)"
# Add result: each kind of condition, for the side chosen, on the scenario's first zone.
TEMPLATES = {
    "occupies each hex of": "occupies_each",
    "no units in": "no_units_in",
    "at least 1 unit in": "units_in",
    "controls all of": "controls",
}


class VictoryPanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("victory")
        self.window, self.shared = window, shared
        layout = QVBoxLayout(self)
        self.printed = QPlainTextEdit(readOnly=True, objectName="victory-printed")
        self.printed.setMaximumHeight(56)
        self.printed.setStyleSheet("color: #5a5446; font-style: italic")
        layout.addWidget(self.printed)
        layout.addWidget(self._results_box())
        layout.addWidget(self._control_box())
        layout.addWidget(self._points_box(), 1)
        self.message = QLabel(wordWrap=True, objectName="victory-message")
        self.message.setStyleSheet("color: #a02020")
        layout.addWidget(self.message)
        shared.rejected.connect(self.message.setText)
        self.refresh()

    def _results_box(self) -> QWidget:
        self.results_box = QGroupBox("Results, checked in order")
        layout = QVBoxLayout(self.results_box)
        self.results_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.results = _table(["Winner", "When (double-click to edit)"], "victory-results")
        self.results.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.results.setColumnWidth(0, 100)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.results.itemChanged.connect(self._condition_edited)
        layout.addWidget(self.results)
        otherwise = QFormLayout()
        self.otherwise = QComboBox(objectName="victory-otherwise")
        self.otherwise.addItems(RESULTS)
        self.otherwise.currentTextChanged.connect(self._otherwise_chosen)
        otherwise.addRow("Otherwise", self.otherwise)
        layout.addLayout(otherwise)
        self.template_side = QComboBox(objectName="victory-template-side")
        self.template_side.addItems(SIDES)
        self.template = QComboBox(objectName="victory-template")
        self.template.addItems(list(TEMPLATES))
        add = QPushButton(
            "Add result",
            objectName="victory-add-result",
            toolTip="A result for the side chosen, on "
            "the scenario's first zone: edit its zone by double-clicking the condition",
        )
        add.clicked.connect(self.add_result)
        remove = QPushButton("Remove result", objectName="victory-remove-result")
        remove.clicked.connect(self.remove_result)
        layout.addLayout(_row(self.template_side, self.template, add, remove))
        return self.results_box

    def _control_box(self) -> QWidget:
        self.control_box = QGroupBox("Control (24.9)")
        self.control_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        layout = QVBoxLayout(self.control_box)
        means = QFormLayout()
        self.means = QComboBox(objectName="victory-control-means")
        self.means.addItems([NO_CONTROL, "last_to_occupy"])
        self.means.setToolTip("What control of a hex means for 'controls' results: the last side to occupy it")
        self.means.currentTextChanged.connect(self._means_chosen)
        means.addRow("Control is", self.means)
        layout.addLayout(means)
        self.at_start = _table(["Side", "Controls at the start"], "victory-control-at-start")
        self.at_start.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        self.at_start.setColumnWidth(0, 100)
        layout.addWidget(self.at_start)
        add = QPushButton(
            "Add holder", objectName="victory-add-holder", toolTip="A zone a side controls before any unit moves (R82)"
        )
        add.clicked.connect(self.add_holder)
        remove = QPushButton("Remove holder", objectName="victory-remove-holder")
        remove.clicked.connect(self.remove_holder)
        layout.addLayout(_row(add, remove))
        return self.control_box

    def _points_box(self) -> QWidget:
        self.points_box = QGroupBox("Victory points")
        layout = QVBoxLayout(self.points_box)
        side = QFormLayout()
        self.side = QComboBox(objectName="victory-side")
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(lambda v: self._push(Edit(f"VPs scored by {v}").set(POINTS, "side", v)))
        side.addRow("Scored by", self.side)
        layout.addLayout(side)
        self.awards = _table(["Award", "VP each"], "victory-awards")
        layout.addWidget(self.awards)
        self.maximum = QLabel(wordWrap=True, objectName="victory-maximum")
        bold = QFont()
        bold.setBold(True)
        self.maximum.setFont(bold)
        layout.addWidget(self.maximum)
        self.schedule = _table(["From VP", "To VP", "Result"], "victory-schedule")
        layout.addWidget(self.schedule, 1)
        add = QPushButton("Add band", toolTip="A band after the last, from the total after its top")
        add.clicked.connect(self.add_band)
        remove = QPushButton("Remove band")
        remove.clicked.connect(self.remove_band)
        layout.addLayout(_row(add, remove))
        return self.points_box

    # -- showing ------------------------------------------------------------------------------------
    def victory(self) -> Any:
        return self.shared.data.get("victory") or {}

    def refresh(self) -> None:
        if not self.shared.active:
            return
        victory = self.victory()
        self.printed.setPlainText(str(victory.get("printed", "")))
        self.results_box.setVisible("results" in victory)
        self.control_box.setVisible("results" in victory)
        self.points_box.setVisible("points" in victory)
        if "results" in victory:
            self._show_results(victory)
            self._show_control(victory.get("control"))
        if "points" in victory:
            self._show_points(victory["points"])

    def _show_results(self, victory: Any) -> None:
        row = self.results.currentRow()
        self.results.blockSignals(True)
        self.results.setRowCount(0)
        for i, result in enumerate(victory["results"]):
            self.results.insertRow(i)
            path = ("victory", "results", i)
            self._combo(self.results, i, 0, list(RESULTS), str(result.get("winner")), path, "winner")
            when = QTableWidgetItem(yaml_text(result.get("when")).strip())
            when.setToolTip(when.text() + (f"\n{result['printed']}" if "printed" in result else ""))
            self.results.setItem(i, 1, when)
        self.results.blockSignals(False)
        self.results.selectRow(row)
        _fit_rows(self.results)
        otherwise = victory.get("otherwise")
        self.otherwise.blockSignals(True)
        self.otherwise.setCurrentText(str(otherwise.get("value") if isinstance(otherwise, dict) else otherwise))
        self.otherwise.blockSignals(False)

    def _show_control(self, control: Any) -> None:
        self.means.blockSignals(True)
        self.means.setCurrentText(str(control["means"]) if control else NO_CONTROL)
        self.means.blockSignals(False)
        self.at_start.setRowCount(0)
        zones = [str(z) for z in self.shared.data.get("zones") or {}]
        for i, holder in enumerate((control or {}).get("at_start") or []):
            self.at_start.insertRow(i)
            path = (*CONTROL, "at_start", i)
            self._combo(self.at_start, i, 0, list(SIDES), str(holder["side"]), path, "side")
            zone = holder["zone"]
            if isinstance(zone, str):
                self._combo(self.at_start, i, 1, zones, zone, path, "zone")
            else:
                self.at_start.setItem(i, 1, QTableWidgetItem(yaml_text(zone).strip()))
        _fit_rows(self.at_start)
        self.at_start.setEnabled(bool(control))

    def _show_points(self, points: Any) -> None:
        self.side.blockSignals(True)
        self.side.setCurrentText(str(points.get("side")))
        self.side.blockSignals(False)
        self.awards.setRowCount(0)
        board = self.window.document.board
        scenario = self.shared.scenario
        plain = scenario.data["victory"]["points"]
        most = maximum_points(plain, board, dict(zip(scenario.maps, board.maps, strict=False)))
        for i, award in enumerate(most.awards):
            self.awards.insertRow(i)
            item = QTableWidgetItem(award.describe().split(" x ", 1)[-1])
            item.setToolTip(str(points["awards"][i].get("printed", "")))
            self.awards.setItem(i, 0, item)
            vp = QSpinBox(minimum=1, maximum=99, value=award.vp, keyboardTracking=False)
            vp.valueChanged.connect(
                lambda v, i=i: self._later(Edit(f"Award {i + 1}: {v} VP").set((*POINTS, "awards", i), "vp", v))
            )
            self.awards.setCellWidget(i, 1, vp)
        _fit_rows(self.awards)
        self.maximum.setText(f"Maximum: {most.describe()}")
        row = self.schedule.currentRow()
        self.schedule.setRowCount(0)
        for i, band in enumerate(points.get("schedule") or []):
            self.schedule.insertRow(i)
            low, high = band["vp"]
            for column, value in ((0, low), (1, high)):
                spin = QSpinBox(minimum=0, maximum=999, value=int(value), keyboardTracking=False)
                spin.valueChanged.connect(lambda v, i=i, c=column: self.set_band(i, c, v))
                self.schedule.setCellWidget(i, column, spin)
            self._combo(self.schedule, i, 2, list(RESULTS), str(band["result"]), (*POINTS, "schedule", i), "result")
        self.schedule.selectRow(row)
        self.show_problems()

    def show_problems(self) -> None:
        """The schedule's rows a problem points into: their tooltips say what is wrong."""
        for i in range(self.schedule.rowCount()):
            found = self.shared.problems_under((*POINTS, "schedule", i))
            tip = "\n".join(f"{p.message} [{p.code}]" for p in found)
            for column in range(3):
                widget = self.schedule.cellWidget(i, column)
                if widget is not None:
                    widget.setToolTip(tip)
                    widget.setStyleSheet("background: #f6d5d0" if found else "")

    def _combo(
        self, table: QTableWidget, row: int, column: int, choices: list[str], current: str, path: DataPath, key: str
    ) -> None:
        combo = QComboBox()
        combo.addItems(choices if current in choices else [current, *choices])
        combo.setCurrentText(current)
        combo.currentTextChanged.connect(
            lambda v: self._later(Edit(f"{'/'.join(map(str, path[1:]))}: {key} {v}").set(path, key, v))
        )
        table.setCellWidget(row, column, combo)

    # -- editing --------------------------------------------------------------------------------------
    def set_band(self, index: int, end: int, value: int) -> None:
        """Change one end of a schedule band ([low, high] VP)."""
        path = (*POINTS, "schedule", index, "vp")
        if find(self.shared.data, (*path, end)) == value:
            return
        self._later(Edit(f"VP band {index + 1}: {'from' if end == 0 else 'to'} {value}").set(path, end, value))

    def add_band(self) -> bool:
        schedule = find(self.shared.data, (*POINTS, "schedule"))
        if schedule is None:
            return False
        top = max((int(b["vp"][1]) for b in schedule), default=-1) + 1
        band = like_siblings({"vp": sequence([top, top], flow_style=True), "result": "draw"}, schedule)
        return self._push(Edit(f"Add VP band {top}").insert((*POINTS, "schedule"), None, band))

    def remove_band(self) -> bool:
        row = self.schedule.currentRow()
        schedule = find(self.shared.data, (*POINTS, "schedule")) or []
        if not 0 <= row < len(schedule) or len(schedule) == 1:
            self.message.setText("Select a band to remove; a schedule keeps one band at least")
            return False
        return self._push(Edit(f"Remove VP band {row + 1}").remove((*POINTS, "schedule"), row))

    def add_result(self) -> bool:
        zones = list(self.shared.data.get("zones") or {})
        if not zones:
            self.message.setText("Add a zone first (Zones panel): a result names the zone it is about")
            return False
        side, kind = self.template_side.currentText(), TEMPLATES[self.template.currentText()]
        arg: dict[str, Any] = {"side": side, "zone": zones[0]}
        if kind == "units_in":
            arg["at_least"] = 1
        when = {kind: flow(**arg)}
        result = block([("winner", side), ("when", when)])
        edit = Edit(f"Add result: {side} {self.template.currentText()} {zones[0]}")
        edit.insert(("victory", "results"), None, result)
        if kind == "controls" and "control" not in self.victory():
            edit.set(("victory",), "control", block([("means", "last_to_occupy")]), after="results")
        return self._push(edit)

    def remove_result(self) -> bool:
        row = self.results.currentRow()
        results = self.victory().get("results") or []
        if not 0 <= row < len(results) or len(results) == 1:
            self.message.setText("Select a result to remove; the conditions keep one result at least")
            return False
        return self._push(Edit(f"Remove result {row + 1}").remove(("victory", "results"), row))

    def _means_chosen(self, value: str) -> None:
        if value == NO_CONTROL:
            self._push(Edit("Control not defined").remove(("victory",), "control"))
        elif "control" in self.victory():
            self._push(Edit(f"Control is {value}").set(CONTROL, "means", value))
        else:
            self._push(Edit(f"Control is {value}").set(("victory",), "control", block([("means", value)])))

    def add_holder(self) -> bool:
        zones = list(self.shared.data.get("zones") or {})
        if "control" not in self.victory() or not zones:
            self.message.setText("Choose what control is, and add a zone, first")
            return False
        holder = flow(side=SIDES[0], zone=zones[0])
        edit = Edit(f"{SIDES[0]} controls {zones[0]} at the start")
        if "at_start" in self.victory()["control"]:
            edit.insert((*CONTROL, "at_start"), None, holder)
        else:
            edit.set(CONTROL, "at_start", sequence([holder]))
        return self._push(edit)

    def remove_holder(self) -> bool:
        row = self.at_start.currentRow()
        holders = (self.victory().get("control") or {}).get("at_start") or []
        if not 0 <= row < len(holders):
            self.message.setText("Select the holder to remove")
            return False
        if len(holders) == 1:
            return self._push(Edit("No one controls a hex at the start").remove(CONTROL, "at_start"))
        return self._push(Edit(f"Remove holder {row + 1}").remove((*CONTROL, "at_start"), row))

    def _condition_edited(self, item: QTableWidgetItem) -> None:
        i = item.row()
        try:
            when = typed_yaml(item.text(), f"result {i + 1}'s condition")
        except ValueError as exc:
            self.message.setText(f"Result {i + 1}: {exc}")
            QTimer.singleShot(0, self.refresh)
            return
        self._later(Edit(f"Result {i + 1}: when {item.text()}").set(("victory", "results", i), "when", when))

    def _otherwise_chosen(self, value: str) -> None:
        otherwise = self.victory().get("otherwise")
        edit = Edit(f"Otherwise {value}")
        if isinstance(otherwise, dict):
            edit.set(("victory", "otherwise"), "value", value)
        else:
            edit.set(("victory",), "otherwise", value)
        self._push(edit)

    def _later(self, edit: Edit) -> None:
        """Push after the cell's signal returns: the edit rebuilds the table, and the cell with it."""
        QTimer.singleShot(0, lambda: self._push(edit))

    def _push(self, edit: Edit) -> bool:
        self.message.clear()
        if self.shared.push(edit):
            return True
        self.refresh()
        return False

    # -- problems -------------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        if not path or path[0] != "victory":
            return False
        show_dock(self)
        tables = {"schedule": self.schedule, "awards": self.awards}
        if len(path) >= 4 and path[1] == "points" and path[2] in tables and isinstance(path[3], int):
            tables[str(path[2])].selectRow(path[3])
            tables[str(path[2])].setFocus()
        elif len(path) >= 3 and path[1] == "results" and isinstance(path[2], int):
            self.results.selectRow(path[2])
            self.results.setFocus()
        return True


def _table(headers: list[str], name: str) -> QTableWidget:
    table = QTableWidget(0, len(headers), objectName=name)
    table.setHorizontalHeaderLabels(headers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    return table


def _row(*widgets: QWidget) -> QHBoxLayout:
    """Widgets side by side, the room left after them."""
    row = QHBoxLayout()
    for widget in widgets:
        row.addWidget(widget)
    row.addStretch()
    return row


def _fit_rows(table: QTableWidget) -> None:
    """As tall as its rows: the schedule below gets the room."""
    table.resizeRowsToContents()
    rows = sum(table.rowHeight(i) for i in range(table.rowCount()))
    table.setFixedHeight(table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth())


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = VictoryPanel(window, shared)
    shared.add_dock("Victory", panel)
    shared.on_pointer(panel.select)
    window.document_changed.connect(panel.refresh)
    window.problems_changed.connect(lambda problems: panel.show_problems())
