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

from ..marks import MarksBox
from ..panel_widgets import fit_rows as _fit_rows
from ..panel_widgets import row as _row
from ..panel_widgets import table as _table
from ..scenario_data import (
    DataPath,
    Edit,
    block,
    find,
    flow,
    like_siblings,
    node,
    quoted,
    sequence,
    typed_yaml,
    yaml_text,
)
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..window import MainWindow

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
# Add award: VPs per hex of buildings controlled, or per building of a map controlled (24.9).
AWARDS = {"per hex of building": "per_hex_controlled", "per building of map": "per_building_controlled"}


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
        self.marks = MarksBox(shared, "victory-marks")  # the chosen result's, or the victory's own
        layout.addWidget(self.marks)
        self.results.currentCellChanged.connect(lambda row, *_: self._show_marks(row))
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
        # the result's side and kind above its buttons: in one row they were wider than the dock at 1366x768
        layout.addLayout(_row(self.template_side, self.template))
        layout.addLayout(_row(add, remove))
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
        self.points_box = QGroupBox("Victory points (Scenario 6)")
        layout = QVBoxLayout(self.points_box)
        side = QFormLayout()
        self.side = QComboBox(objectName="victory-side")
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(self._side_chosen)
        side.addRow("Scored by", self.side)
        layout.addLayout(side)
        self.awards = _table(["Award (double-click to edit)", "VP each"], "victory-awards")
        self.awards.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.awards.itemChanged.connect(self._award_edited)
        layout.addWidget(self.awards)
        self.award_kind = QComboBox(objectName="victory-award-kind")
        self.award_kind.addItems(list(AWARDS))
        add = QPushButton(
            "Add award",
            objectName="victory-add-award",
            toolTip="VPs for the side chosen above: the first one makes the victory one of points (24.1)",
        )
        add.clicked.connect(self.add_award)
        remove = QPushButton("Remove award", objectName="victory-remove-award")
        remove.clicked.connect(self.remove_award)
        layout.addLayout(_row(self.award_kind, add, remove))
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
        self.bands = _row(add, remove)
        layout.addLayout(self.bands)
        return self.points_box

    # -- showing ------------------------------------------------------------------------------------
    def victory(self) -> Any:
        return self.shared.data.get("victory") or {}

    def _show_marks(self, row: int) -> None:
        """The chosen result's marks, the victory's own, or its control's (R82)."""
        choices = [("this result", ("victory", "results", row))] if row >= 0 else []
        choices.append(("the victory", ("victory",)))
        if "control" in self.victory():
            choices.append(("its control", CONTROL))
        self.marks.show_choices(choices)

    def refresh(self) -> None:
        if not self.shared.active:
            return
        victory = self.victory()
        if self.marks.path is None and "victory" in self.shared.data:
            self._show_marks(-1)
        self.printed.setPlainText(str(victory.get("printed", "")))
        # no victory yet (a new scenario): the results box, whose Add result writes the first
        conditions = "results" in victory or "points" not in victory
        self.results_box.setVisible(conditions)
        self.control_box.setVisible(conditions)
        # no points yet: only the side and Add award, whose first award writes them
        for widget in (self.maximum, self.schedule, *(self.bands.itemAt(i).widget() for i in range(2))):
            widget.setVisible("points" in victory)
        if conditions:
            self._show_results(victory)
            self._show_control(victory.get("control"))
        if "points" in victory:
            self._show_points(victory["points"])
        else:
            self.awards.setRowCount(0)
            _fit_rows(self.awards)

    def _show_results(self, victory: Any) -> None:
        row = self.results.currentRow()
        self.results.blockSignals(True)
        self.results.setRowCount(0)
        for i, result in enumerate(victory.get("results") or []):
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
        self.awards.blockSignals(True)
        for i, award in enumerate(most.awards):
            self.awards.insertRow(i)
            item = QTableWidgetItem(award_text(points["awards"][i]))
            printed = points["awards"][i].get("printed")
            item.setToolTip(award.describe().split(" x ", 1)[-1] + (f"\n{printed}" if printed else ""))
            self.awards.setItem(i, 0, item)
            vp = QSpinBox(minimum=1, maximum=99, value=award.vp, keyboardTracking=False)
            vp.valueChanged.connect(
                lambda v, i=i: self._later(Edit(f"Award {i + 1}: {v} VP").set((*POINTS, "awards", i), "vp", v))
            )
            self.awards.setCellWidget(i, 1, vp)
        self.awards.blockSignals(False)
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

    def _side_chosen(self, side: str) -> None:
        if "points" in self.victory():
            self._push(Edit(f"VPs scored by {side}").set(POINTS, "side", side))

    def add_award(self) -> bool:
        """An award of the kind chosen, 1 VP: per hex of the buildings selected on the map (else the
        board's first), or per building of the first map. The first writes the points: the side
        chosen, control by the last to occupy (24.9), and one band to edit (0 to 0 VP, a draw)."""
        board = self.window.document.board
        chosen = {board.terrain(h).building for h in self.window.selected} - {None}
        buildings = sorted(chosen) or list(board.buildings())[:1]
        kind = AWARDS[self.award_kind.currentText()]
        if kind == "per_hex_controlled" and not buildings:
            self.message.setText("The map has no building: paint one (B) for a per-hex award")
            return False
        scope = (
            flow(building=sequence([quoted(str(b)) for b in buildings], flow_style=True))
            if kind == "per_hex_controlled"
            else flow(map=str(self.shared.data["maps"][0]))
        )
        award = flow(**{kind: scope, "vp": 1})
        edit = Edit(f"Award: 1 VP {self.award_kind.currentText()}")
        points = self.victory().get("points")
        if points is not None:
            edit.insert((*POINTS, "awards"), None, award)
        else:
            band = flow(vp=sequence([0, 0], flow_style=True), result="draw")
            value = block(
                [
                    ("side", self.side.currentText()),
                    ("control", "last_to_occupy"),
                    ("awards", sequence([award])),
                    ("schedule", sequence([band])),
                ]
            )
            if "victory" in self.shared.data:
                edit.set(("victory",), "points", value, after="printed")
            else:
                edit.set((), "victory", block([("points", value)]))
        return self._push(edit)

    def remove_award(self) -> bool:
        """The chosen award; the last takes the points with it (the results, if any, remain)."""
        row = self.awards.currentRow()
        awards = (self.victory().get("points") or {}).get("awards") or []
        if not 0 <= row < len(awards):
            self.message.setText("Select the award to remove")
            return False
        if len(awards) == 1:
            return self._push(Edit("No victory points").remove(("victory",), "points"))
        return self._push(Edit(f"Remove award {row + 1}").remove((*POINTS, "awards"), row))

    def _award_edited(self, item: QTableWidgetItem) -> None:
        """An award's scope typed as YAML (`per_hex_controlled: {building: ["1"]}`), its VP and
        printed text kept."""
        i = item.row()
        try:
            scope = typed_yaml(item.text(), f"award {i + 1}")
            if not isinstance(scope, dict) or len(scope) != 1:
                raise ValueError('one of per_hex_controlled: {building: ["1"]} or per_building_controlled: {map: map1}')
        except ValueError as exc:
            self.message.setText(f"Award {i + 1}: {exc}")
            QTimer.singleShot(0, self.refresh)
            return
        path = (*POINTS, "awards", i)
        award = node(self.shared.data, path)
        ((kind, value),) = scope.items()
        edit = Edit(f"Award {i + 1}: {item.text()}")
        for old in [k for k in award if k not in ("vp", "printed")]:
            edit.remove(path, old)
        edit.set(path, kind, value, before="vp")
        self._later(edit)

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
        if "victory" not in self.shared.data:  # the first result of a new scenario: otherwise as chosen
            otherwise = self.otherwise.currentText()
            edit.set((), "victory", block([("results", sequence([result])), ("otherwise", otherwise)]))
        elif "results" not in self.victory():
            edit.set(("victory",), "results", sequence([result]))
            if "otherwise" not in self.victory():
                edit.set(("victory",), "otherwise", self.otherwise.currentText())
        else:
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
        if "victory" not in self.shared.data:
            return  # the first Add result writes it
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


def award_text(award: Any) -> str:
    """An award's scope on one line, as it is edited: `per_hex_controlled: {building: ["1"]}`."""
    scope = {k: v for k, v in award.items() if k not in ("vp", "printed")}
    return yaml_text(flow(**scope)).strip().removeprefix("{").removesuffix("}")


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = VictoryPanel(window, shared)
    shared.add_dock("Victory", panel)
    shared.on_pointer(panel.select)
    window.document_changed.connect(panel.refresh)
    window.problems_changed.connect(lambda problems: panel.show_problems())
