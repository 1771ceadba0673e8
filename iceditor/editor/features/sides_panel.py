"""What each side gets besides its units (24.1): the SET-UP line and player notes as printed,
grenades (16.0), hidden hexes (24.2), improved positions (IPn x c, 18.0) and mine factors (19.1),
and the scenario's special rules: restrictions on movement ("may not move until Russian Player
Turn 2") and Russian infiltration (24.3). Every field is one undo step; the marks of the row
chosen (printed text, assumed, correction) are edited in the box below.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from engine.model.counters import SIDES

from ..marks import MarksBox
from ..panel_widgets import Message, narrow
from ..panel_widgets import fit_rows as _fit_rows
from ..panel_widgets import row as _row
from ..panel_widgets import table as _table
from ..scenario_data import DataPath, Edit, block, find, flow, like_siblings, sequence
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..unit_list import UnitList
from ..window import MainWindow

ORDER = 45
ANYWHERE = "(deployment)"  # an IP with no `zone`: wherever the side deploys (18.1)


class SidesPanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("sides")
        self.window, self.shared = window, shared
        layout = QVBoxLayout(self)
        top = QFormLayout()
        self.side = QComboBox(objectName="sides-side")
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(lambda _: self._side_chosen())
        top.addRow("Side", self.side)
        self.setup_line = QLineEdit(objectName="sides-printed", placeholderText="the SET-UP line as printed")
        self.setup_line.editingFinished.connect(lambda: self._text("printed", self.setup_line))
        top.addRow("SET-UP line", self.setup_line)
        self.notes = QLineEdit(objectName="sides-printed-notes", placeholderText="the player notes as printed")
        self.notes.editingFinished.connect(lambda: self._text("printed_notes", self.notes))
        top.addRow("Player notes", self.notes)
        self.grenades = _spin("sides-grenades", "Grenades (16.0): the side's grenade attacks")
        self.grenades.valueChanged.connect(lambda v: self._count("grenades", v))
        self.hidden = _spin("sides-hidden-hexes", "Hidden hexes the side may have (24.2)")
        self.hidden.valueChanged.connect(lambda v: self._count("hidden_hexes", v))
        top.addRow("Grenades", _row(self.grenades, QLabel("Hidden hexes"), self.hidden))
        self.ap_mines = _spin("sides-ap-mines", "AP mine factors (19.11)")
        self.at_mines = _spin("sides-at-mines", "AT mine factors (19.11)")
        self.ap_mines.valueChanged.connect(lambda v: self._mines("ap_factors", v))
        self.at_mines.valueChanged.connect(lambda v: self._mines("at_factors", v))
        self.owner = QComboBox(objectName="sides-owner")
        self.owner.setToolTip("Whose mines and IPs: the side's, or a group's (Scenario 6 gives them per group)")
        self.owner.activated.connect(lambda _: self.refresh())
        top.addRow("Given to", self.owner)
        top.addRow("Mines: AP", _row(self.ap_mines, QLabel("AT"), self.at_mines))
        layout.addLayout(top)
        layout.addWidget(self._ips_box())
        layout.addWidget(self._rules_box())
        self.marks = MarksBox(shared, "sides-marks")
        layout.addWidget(self.marks)
        self.message = Message("sides-message")
        layout.addWidget(self.message)
        layout.addStretch()
        self.ip_paths: list[DataPath] = []
        self.restriction_paths: list[DataPath] = []
        self.refresh()

    def _ips_box(self) -> QWidget:
        box = QGroupBox("Improved positions (18.0): IPn x count")
        layout = QVBoxLayout(box)
        self.ips = _table(["Points", "Count", "Where (18.1)", "Of"], "sides-ips")
        self.ips.currentCellChanged.connect(lambda row, *_: self._chosen(self.ip_paths, row))
        layout.addWidget(self.ips)
        add = QPushButton("Add", objectName="sides-add-ips", toolTip="IP1 x 1 for whom Given to names; edit its cells")
        add.clicked.connect(self.add_ips)
        remove = QPushButton("Remove", objectName="sides-remove-ips", toolTip="Remove the chosen IPs")
        remove.clicked.connect(self.remove_ips)
        layout.addLayout(_row(add, remove))
        return box

    def _rules_box(self) -> QWidget:
        box = QGroupBox("Special rules")
        layout = QVBoxLayout(box)
        layout.addWidget(QLabel("Units that may not move before a Player Turn"))
        self.restrictions = _table(["Side", "Group", "Not before", "Turn"], "sides-restrictions")
        self.restrictions.currentCellChanged.connect(lambda row, *_: self._restriction_chosen(row))
        layout.addWidget(self.restrictions)
        add = QPushButton(
            "Add", objectName="sides-add-restriction", toolTip="The side's first group may not move before turn 2"
        )
        add.clicked.connect(self.add_restriction)
        remove = QPushButton("Remove", objectName="sides-remove-restriction", toolTip="Remove the chosen restriction")
        remove.clicked.connect(self.remove_restriction)
        layout.addLayout(_row(add, remove))
        self.restriction_units = UnitList(self.shared, "sides-restriction-units")  # the chosen one's units
        layout.addWidget(self.restriction_units)
        self.infiltration = QCheckBox("Russian infiltration (24.3) in", objectName="sides-infiltration")
        self.infiltration.toggled.connect(self._infiltration_toggled)
        self.infiltration_zone = QComboBox(objectName="sides-infiltration-zone")
        narrow(self.infiltration_zone, 12)
        self.infiltration_zone.activated.connect(lambda _: self._infiltration_zone())
        layout.addLayout(_row(self.infiltration, self.infiltration_zone))
        self.infiltration_printed = QLineEdit(
            objectName="sides-infiltration-printed", placeholderText="the infiltration note as printed (required)"
        )
        self.infiltration_printed.editingFinished.connect(self._infiltration_printed)
        layout.addWidget(self.infiltration_printed)
        return box

    # -- showing ------------------------------------------------------------------------------------
    def side_path(self) -> DataPath:
        return ("sides", self.side.currentText())

    def side_data(self) -> Any:
        return find(self.shared.data, self.side_path()) or {}

    def owner_path(self) -> DataPath:
        """Who the mines and IPs edited are given to: the side, or one of its groups."""
        index = self.owner.currentIndex()
        groups = self.side_data().get("groups") or []
        return (*self.side_path(), "groups", index - 1) if 0 < index <= len(groups) else self.side_path()

    def _owner_after(self) -> dict[str, str]:
        """Where a new `mines:` or `improved_positions:` goes: a side's before its groups, a group's after its units."""
        return {"after": "units"} if "groups" in self.owner_path() else {"before": "groups"}

    def zones(self) -> list[str]:
        return [str(z) for z in self.shared.data.get("zones") or {}]

    def refresh(self) -> None:
        if not self.shared.active:
            return
        data = self.side_data()
        widgets = (self.grenades, self.hidden, self.ap_mines, self.at_mines, self.infiltration, self.owner)
        for widget in widgets:
            widget.blockSignals(True)
        for field, key in ((self.setup_line, "printed"), (self.notes, "printed_notes")):
            if not field.hasFocus():
                field.setText(str(data.get(key, "")))
                field.setCursorPosition(0)  # a long line shows its start
        self.grenades.setValue(int(data.get("grenades", 0)))
        self.hidden.setValue(int(data.get("hidden_hexes", 0)))
        chosen = self.owner.currentIndex()
        self.owner.clear()
        self.owner.addItems(["the side", *(f"group {g.get('name')}" for g in data.get("groups") or [])])
        self.owner.setCurrentIndex(chosen if 0 <= chosen < self.owner.count() else 0)
        mines = (find(self.shared.data, self.owner_path()) or {}).get("mines") or {}
        self.ap_mines.setValue(int(mines.get("ap_factors", 0)))
        self.at_mines.setValue(int(mines.get("at_factors", 0)))
        infiltration = self.shared.data.get("infiltration")
        self.infiltration.setChecked(bool(infiltration))
        for widget in widgets:
            widget.blockSignals(False)
        self.infiltration_zone.clear()
        zone = str((infiltration or {}).get("zone", ""))
        self.infiltration_zone.addItems(self.zones() if zone in self.zones() or not zone else [zone, *self.zones()])
        self.infiltration_zone.setCurrentText(zone)
        if not self.infiltration_printed.hasFocus():
            self.infiltration_printed.setText(str((infiltration or {}).get("printed", "")))
            self.infiltration_printed.setCursorPosition(0)
        self._show_ips()
        self._show_restrictions()
        if self.marks.path is None or find(self.shared.data, self.marks.path) is None:
            self._side_marks()

    def _show_ips(self) -> None:
        row = self.ips.currentRow()
        self.ips.blockSignals(True)
        self.ips.setRowCount(0)
        self.ip_paths = []
        data = self.side_data()
        owners: list[tuple[DataPath, str]] = [(self.side_path(), "side")]
        owners += [
            ((*self.side_path(), "groups", g), str(group.get("name")))
            for g, group in enumerate(data.get("groups") or [])
        ]
        for owner, name in owners:
            for i, ip in enumerate(find(self.shared.data, (*owner, "improved_positions")) or []):
                path = (*owner, "improved_positions", i)
                r = self.ips.rowCount()
                self.ips.insertRow(r)
                self.ip_paths.append(path)
                for column, key in ((0, "points"), (1, "count")):
                    spin = QSpinBox(minimum=1, maximum=999, value=int(ip.get(key, 1)), keyboardTracking=False)
                    spin.valueChanged.connect(lambda v, p=path, k=key: self._later(Edit(f"IPs: {k} {v}").set(p, k, v)))
                    self.ips.setCellWidget(r, column, spin)
                zone = ip.get("zone")
                where = QComboBox()
                names = self.zones()
                current = str(zone) if isinstance(zone, str) else ANYWHERE if zone is None else "(an expression)"
                where.addItems([ANYWHERE, *names] if current in (ANYWHERE, *names) else [current, ANYWHERE, *names])
                where.setCurrentText(current)
                where.setToolTip("where these IPs may be placed (18.1): the side's deployment area, or a zone")
                where.textActivated.connect(lambda v, p=path: self._ip_zone(p, v))
                self.ips.setCellWidget(r, 2, where)
                self.ips.setCellWidget(r, 3, QLabel(name))
        self.ips.blockSignals(False)
        if 0 <= row < self.ips.rowCount():
            self.ips.selectRow(row)
        _fit_rows(self.ips)

    def _show_restrictions(self) -> None:
        row = self.restrictions.currentRow()
        self.restrictions.blockSignals(True)
        self.restrictions.setRowCount(0)
        self.restriction_paths = []
        for i, restriction in enumerate(self.shared.data.get("restrictions") or []):
            path = ("restrictions", i)
            self.restriction_paths.append(path)
            self.restrictions.insertRow(i)
            side = str(restriction.get("side", SIDES[0]))
            self._combo(self.restrictions, i, 0, list(SIDES), side, lambda v, p=path: self._set(p, "side", v))
            groups = [str(g.get("name")) for g in (find(self.shared.data, ("sides", side, "groups")) or [])]
            if "group" in restriction:
                group = str(restriction["group"])
                self._combo(self.restrictions, i, 1, groups, group, lambda v, p=path: self._set(p, "group", v))
            else:
                self.restrictions.setCellWidget(i, 1, QLabel(f"{len(restriction.get('units') or [])} units"))
            before = restriction.get("may_not_move_before") or {}
            until = (*path, "may_not_move_before")
            self._combo(
                self.restrictions,
                i,
                2,
                list(SIDES),
                str(before.get("side")),
                lambda v, p=until: self._set(p, "side", v),
            )
            turn = QSpinBox(minimum=1, maximum=99, value=int(before.get("turn", 1)), keyboardTracking=False)
            turn.valueChanged.connect(lambda v, p=until: self._set(p, "turn", v))
            self.restrictions.setCellWidget(i, 3, turn)
        self.restrictions.blockSignals(False)
        if 0 <= row < self.restrictions.rowCount():
            self.restrictions.selectRow(row)
        _fit_rows(self.restrictions)

    def _combo(self, table: QTableWidget, row: int, column: int, choices: list[str], current: str, chosen: Any) -> None:
        combo = QComboBox()
        combo.addItems(choices if current in choices else [current, *choices])
        combo.setCurrentText(current)
        combo.textActivated.connect(chosen)
        table.setCellWidget(row, column, combo)

    def _side_chosen(self) -> None:
        self.owner.setCurrentIndex(0)
        self._side_marks()
        self.refresh()

    def _side_marks(self) -> None:
        """The side's marks, or its mines' (19.1: `mines` takes printed, assumed, correction)."""
        choices = [("the side", self.side_path())]
        if "mines" in self.side_data():
            choices.append(("its mines", (*self.side_path(), "mines")))
        self.marks.show_choices(choices)

    def _restriction_chosen(self, row: int) -> None:
        self._chosen(self.restriction_paths, row)
        self.restriction_units.show_path(
            self.restriction_paths[row] if 0 <= row < len(self.restriction_paths) else None
        )

    def _chosen(self, paths: list[DataPath], row: int) -> None:
        if 0 <= row < len(paths):
            self.marks.show_choices([("this row", paths[row]), ("the side", self.side_path())])

    # -- editing ------------------------------------------------------------------------------------
    def _text(self, key: str, field: QLineEdit) -> None:
        text = field.text().strip()
        data = self.side_data()
        if text == str(data.get(key, "")):
            return
        side = self.side.currentText().capitalize()
        if text:
            self._push(Edit(f"{side} {key.replace('_', ' ')}").set(self.side_path(), key, text, before="groups"))
        else:
            self._push(Edit(f"{side}: no {key.replace('_', ' ')}").remove(self.side_path(), key))

    def _count(self, key: str, value: int) -> None:
        if value == int(self.side_data().get(key, 0)) and key in self.side_data():
            return
        edit = Edit(f"{self.side.currentText().capitalize()} {key.replace('_', ' ')}: {value}")
        self._push(edit.set(self.side_path(), key, value, before="groups"))

    def _mines(self, key: str, value: int) -> None:
        owner = self.owner_path()
        mines = (find(self.shared.data, owner) or {}).get("mines")
        edit = Edit(f"{'/'.join(map(str, owner[1:]))} mines: {key.split('_')[0].upper()} {value}")
        if mines is None:
            values = {"ap_factors": 0, "at_factors": 0, key: value}
            edit.set(owner, "mines", flow(**values), **self._owner_after())
        else:
            edit.set((*owner, "mines"), key, value)
        self._push(edit)

    def _ip_zone(self, path: DataPath, value: str) -> None:
        ip = find(self.shared.data, path) or {}
        if value == ANYWHERE:
            edit = Edit("IPs: anywhere the side deploys").remove(path, "zone") if "zone" in ip else Edit("")
        else:
            edit = Edit(f"IPs: in {value}").set(path, "zone", value, after="count")
        if edit:
            self._later(edit)

    def add_ips(self) -> bool:
        """IP1 x 1 for whom "Given to" names."""
        owner = self.owner_path()
        path = (*owner, "improved_positions")
        ips = find(self.shared.data, path)
        ip = like_siblings({"points": 1, "count": 1}, ips or [])
        edit = Edit(f"{'/'.join(map(str, owner[1:]))} IP1 x 1")
        if ips is None:
            edit.set(owner, "improved_positions", sequence([ip], flow_style=True), **self._owner_after())
        else:
            edit.insert(path, None, ip)
        return self._push(edit)

    def remove_ips(self) -> bool:
        row = self.ips.currentRow()
        if not 0 <= row < len(self.ip_paths):
            self.message.setText("Select the IPs to remove")
            return False
        path = self.ip_paths[row]
        return self._push(Edit("Remove IPs").remove(path[:-1], path[-1]))

    def add_restriction(self) -> bool:
        side = self.side.currentText()
        groups = find(self.shared.data, ("sides", side, "groups")) or []
        if not groups:
            self.message.setText(f"The {side.capitalize()} side has no group to restrict: add one (Order of battle)")
            return False
        restriction = block(
            [
                ("side", side),
                ("group", str(groups[0].get("name"))),
                ("may_not_move_before", flow(side=side, turn=2)),
            ]
        )
        edit = Edit(f"{side.capitalize()} {groups[0].get('name')} may not move before turn 2")
        if "restrictions" in self.shared.data:
            edit.insert(("restrictions",), None, restriction)
        else:
            edit.set((), "restrictions", sequence([restriction]), after="infiltration")
        return self._push(edit)

    def remove_restriction(self) -> bool:
        row = self.restrictions.currentRow()
        if not 0 <= row < len(self.restriction_paths):
            self.message.setText("Select the restriction to remove")
            return False
        return self._push(Edit(f"Remove restriction {row + 1}").remove(("restrictions",), row))

    def _infiltration_toggled(self, on: bool) -> None:
        if not on:
            if "infiltration" in self.shared.data:
                self._push(Edit("No infiltration").remove((), "infiltration"))
            return
        zones, printed = self.zones(), self.infiltration_printed.text().strip()
        if not zones or not printed:
            self.message.setText(
                "Infiltration (24.3) needs a zone (Zones panel) and its printed note: write the note first"
            )
            QTimer.singleShot(0, self.refresh)
            return
        zone = self.infiltration_zone.currentText() or zones[0]
        value = block([("side", "russian"), ("zone", zone), ("printed", printed)])
        self._push(Edit(f"Russian infiltration in {zone}").set((), "infiltration", value, after="sides"))

    def _infiltration_zone(self) -> None:
        zone = self.infiltration_zone.currentText()
        if "infiltration" in self.shared.data and zone != str(self.shared.data["infiltration"].get("zone")):
            self._push(Edit(f"Infiltration in {zone}").set(("infiltration",), "zone", zone))

    def _infiltration_printed(self) -> None:
        infiltration = self.shared.data.get("infiltration")
        text = self.infiltration_printed.text().strip()
        if infiltration is not None and text and text != str(infiltration.get("printed", "")):
            self._push(Edit("Infiltration: printed").set(("infiltration",), "printed", text))

    def _set(self, path: DataPath, key: str, value: Any) -> None:
        if find(self.shared.data, (*path, key)) == value:
            return
        self._later(Edit(f"{'/'.join(map(str, path))}: {key} {value}").set(path, key, value))

    def _later(self, edit: Edit) -> None:
        """Push after the cell's signal returns: the edit rebuilds the table, and the cell with it."""
        QTimer.singleShot(0, lambda: self._push(edit))

    def _push(self, edit: Edit) -> bool:
        if self.shared.push_told(edit, self.message):
            return True
        self.refresh()
        return False

    # -- problems -------------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        """A problem in a side's own fields, its IPs or mines, a restriction, or the infiltration."""
        side_keys = ("printed", "printed_notes", "grenades", "hidden_hexes", "improved_positions", "mines")
        if len(path) >= 3 and path[0] == "sides" and path[2] in (*side_keys, "correction", "assumed", "note"):
            self.side.setCurrentText(str(path[1]))
        elif not (path and path[0] == "restrictions"):
            return False
        show_dock(self)
        self.refresh()
        chosen = [i for i, p in enumerate(self.ip_paths + self.restriction_paths) if path[: len(p)] == p]
        if chosen and chosen[0] < len(self.ip_paths):
            self.ips.selectRow(chosen[0])
        elif chosen:
            self.restrictions.selectRow(chosen[0] - len(self.ip_paths))
        elif len(path) >= 3 and path[2] in ("correction", "assumed", "note"):
            self._side_marks()
            self.marks.open()
        return True


def _spin(name: str, tip: str) -> QSpinBox:
    return QSpinBox(objectName=name, toolTip=tip, minimum=0, maximum=999, keyboardTracking=False)


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = SidesPanel(window, shared)
    shared.add_page("Sides", "Sides", panel)
    shared.on_pointer(panel.select)
    shared.data_changed.connect(panel.refresh)
