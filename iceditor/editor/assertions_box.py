"""A scenario's `assertions:` (docs/formats.md, Assertions): facts its design relies on, a line of
sight (10.3), a reach in one phase (8.1, 8.5) or the turns a unit needs (8.1), which `iceditor
validate` checks as errors when false. One row each: the fact's kind, the fact as one line of YAML
and its note, both edited in place; Add writes a fact of the chosen kind between the two hexes
selected on the map (or the board's first two) to be edited; every change is one undo step.
"""

from __future__ import annotations

import copy
import io
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QGroupBox, QPushButton, QTableWidgetItem, QVBoxLayout

from .panel_widgets import DeletableTable, Message, fit_rows, row
from .scenario_data import Edit, block, flow, quoted, sequence, typed_yaml
from .scenario_panels import ScenarioPanels

KINDS = ("los", "reach", "turns")  # schemas/assertions.schema.json: exactly one of them a fact
KIND, FACT, NOTE = range(3)


def one_line(value: Any) -> str:
    """A fact as one line of YAML, written as the file writes it (`{from: "4307", to: ...}`)."""
    from .document import _yaml  # the document's writer: one YAML configuration for the editor

    shown = copy.deepcopy(value)
    if hasattr(shown, "fa"):
        shown.fa.set_flow_style()
    out = io.StringIO()
    _yaml(width=4096).dump(shown, out)
    return out.getvalue().strip()


class AssertionsBox(QGroupBox):
    def __init__(self, shared: ScenarioPanels) -> None:
        super().__init__("Assertions: facts the design relies on, checked by iceditor validate")
        self.setObjectName("assertions")
        self.shared = shared
        layout = QVBoxLayout(self)
        self.table = DeletableTable(0, 3, objectName="assertions-table")
        self.table.setHorizontalHeaderLabels(["Fact", "As YAML (double-click to edit)", "Note"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(KIND, 44)
        self.table.setColumnWidth(FACT, 240)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked)
        self.table.verticalHeader().hide()
        self.table.itemChanged.connect(self._edited)
        self.table.deleted.connect(self.remove)
        layout.addWidget(self.table)
        self.kind = QComboBox(objectName="assertions-kind")
        self.kind.addItems(KINDS)
        self.kind.setToolTip(
            "los: a line of sight (10.3); reach: one phase's move (8.1, 8.5); turns: turns to a zone (8.1)"
        )
        add = QPushButton(
            "Add", objectName="assertions-add", toolTip="A fact between the two hexes selected on the map"
        )
        add.clicked.connect(lambda: self.add(self.kind.currentText()))
        remove = QPushButton("Remove", objectName="assertions-remove", toolTip="Remove the chosen fact (Del)")
        remove.clicked.connect(self.remove)
        layout.addLayout(row(self.kind, add, remove))
        self.message = Message("assertions-message")
        layout.addWidget(self.message)

    def facts(self) -> list[Any]:
        return list(self.shared.data.get("assertions") or [])

    def refresh(self) -> None:
        chosen = self.table.currentRow()
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for i, fact in enumerate(self.facts()):
            self.table.insertRow(i)
            kind = next((k for k in KINDS if k in fact), "")
            shown = QTableWidgetItem(kind or "none")
            shown.setFlags(shown.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(i, KIND, shown)
            if kind:
                text = one_line(fact[kind])
                self.table.setItem(i, FACT, QTableWidgetItem(text))
                self.table.item(i, FACT).setToolTip(text)
            else:
                self._no_kind(i, fact)
            self.table.setItem(i, NOTE, QTableWidgetItem(str(fact.get("note", ""))))
            self.table.item(i, NOTE).setToolTip(str(fact.get("note", "")))
        self.table.blockSignals(False)
        if 0 <= chosen < self.table.rowCount():
            self.table.selectRow(chosen)
        fit_rows(self.table)

    def _no_kind(self, i: int, fact: Any) -> None:
        """A row that states no fact (a note alone, or a key the schema does not know): its kind
        chosen in place of the fact writes one of that kind, as Add does, over what is there."""
        stray = {k: v for k, v in fact.items() if k != "note"}
        why = f"{one_line(block(stray.items()))} is no fact: " if stray else "No fact, a note alone: "
        why += "choose its kind (los 10.3, reach 8.1 and 8.5, turns 8.1), then edit it"
        self.table.item(i, KIND).setForeground(QColor("#a02020"))
        self.table.item(i, KIND).setToolTip(why)
        choice = QComboBox(objectName=f"assertions-kind-{i}", toolTip=why)
        choice.addItem("no fact: choose its kind...", None)
        for kind in KINDS:
            choice.addItem(kind, kind)
        choice.activated.connect(lambda index, i=i, c=choice: self.set_kind(i, c.itemData(index)))
        self.table.setCellWidget(i, FACT, choice)

    # -- editing ----------------------------------------------------------------------------------
    def _two_hexes(self) -> tuple[str, str]:
        """The two hexes a new fact names: the map's selection, else the board's first two."""
        window = self.shared.window
        chosen = sorted(window.selected) or sorted(window.document.board.hexes)
        first, second = chosen[0], chosen[1] if len(chosen) > 1 else chosen[0]
        return self.shared.label(first), self.shared.label(second)

    def _new_fact(self, kind: str) -> Any:
        """A fact of `kind` between the two hexes `_two_hexes` gives, to be edited."""
        a, b = self._two_hexes()
        return {
            "los": lambda: flow(**{"from": quoted(a), "to": quoted(b), "expect": "clear"}),
            "reach": lambda: flow(unit="infantry", **{"from": quoted(a), "to": quoted(b)}),
            "turns": lambda: flow(
                unit="infantry",
                **{"from": flow(hexes=sequence([quoted(a)], flow_style=True))},
                to=flow(hexes=sequence([quoted(b)], flow_style=True)),
                at_most=1,
            ),
        }[kind]()

    def add(self, kind: str) -> bool:
        a, b = self._two_hexes()
        item = block([(kind, self._new_fact(kind))])
        data = self.shared.data
        edit = Edit(f"Assertion: {kind} {a} to {b}")
        if "assertions" in data:
            edit.insert(("assertions",), None, item)
        else:
            edit.set((), "assertions", sequence([item]), before="setup")
        if not self._push(edit):
            return False
        self.table.selectRow(len(self.facts()) - 1)
        return True

    def set_kind(self, i: int, kind: str | None) -> bool:
        """The fact of row `i`, which states none, becomes one of `kind` (its other keys replaced, its note kept)."""
        facts = self.facts()
        if kind is None or not 0 <= i < len(facts):
            return False
        path = ("assertions", i)
        edit = Edit(f"Assertion {i + 1}: a {kind} fact")
        for key in [k for k in facts[i] if k != "note"]:
            edit.remove(path, key)
        edit.set(path, kind, self._new_fact(kind), before="note")
        # After the combo's signal returns: the edit rebuilds the table, and with it the combo.
        QTimer.singleShot(0, lambda: self._push(edit) and self.table.selectRow(i))
        return True

    def remove(self) -> bool:
        i, facts = self.table.currentRow(), self.facts()
        if not 0 <= i < len(facts):
            self.message.setText("Choose the fact to remove")
            return False
        if len(facts) == 1:
            return self._push(Edit("No assertions").remove((), "assertions"))
        return self._push(Edit(f"Remove assertion {i + 1}").remove(("assertions",), i))

    def _edited(self, item: QTableWidgetItem) -> None:
        i, text = item.row(), item.text().strip()
        fact = self.facts()[i]
        path = ("assertions", i)
        if item.column() == NOTE:
            if text == str(fact.get("note", "")):
                return
            if text:
                edit = Edit(f"Assertion {i + 1}: note").set(path, "note", text)
            else:
                edit = Edit(f"Assertion {i + 1}: no note").remove(path, "note")
        else:
            kind = next((k for k in KINDS if k in fact), KINDS[0])
            edit = self._fact_edit(i, kind, text)
        # After the item's signal returns: the edit rebuilds the table, and with it the item.
        QTimer.singleShot(0, lambda: (edit and self._push(edit)) or self.refresh())

    def _fact_edit(self, i: int, kind: str, text: str) -> Edit:
        fact = self.facts()[i]
        if text == one_line(fact.get(kind)):
            return Edit("")
        try:
            value = typed_yaml(text, "the fact") if text else None
        except ValueError as exc:
            self.message.setText(f"Assertion {i + 1}: {exc}")
            return Edit("")
        if not isinstance(value, dict):
            self.message.setText(
                f"Assertion {i + 1}: a {kind} fact is a mapping: "
                + {
                    "los": '{from: "4307", to: "4308", expect: clear} (10.3)',
                    "reach": '{unit: infantry, from: "3014", to: "3810", within_mp: 4} (8.1)',
                    "turns": "{unit: infantry, from: {entry: main}, to: objectives, exactly: 2} (8.1)",
                }[kind]
            )
            return Edit("")
        value.fa.set_flow_style()
        return Edit(f"Assertion {i + 1}: {kind}").set(("assertions", i), kind, value)

    def _push(self, edit: Edit) -> bool:
        if self.shared.push_told(edit, self.message):
            return True
        self.refresh()
        return False
