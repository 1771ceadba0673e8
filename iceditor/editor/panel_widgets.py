"""Widgets the scenario panels build alike: a table of rows chosen one at a time, a row of
buttons, a choice as narrow as a few letters, a table as tall as its rows (so the boxes below it
stay in view), and the red line saying why an edit was not done."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QTableWidget, QWidget

from .scenario_panels import delete_pressed


def table(headers: list[str], name: str) -> QTableWidget:
    """A table whose cells do not edit (its cell widgets do), chosen a row at a time."""
    out = QTableWidget(0, len(headers), objectName=name)
    out.setHorizontalHeaderLabels(headers)
    out.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    out.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    out.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    out.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    out.verticalHeader().hide()
    return out


def row(*widgets: QWidget) -> QHBoxLayout:
    """Widgets side by side, the room left after them."""
    out = QHBoxLayout()
    for widget in widgets:
        out.addWidget(widget)
    out.addStretch()
    return out


def narrow(box: QComboBox, letters: int) -> None:
    """As wide as `letters` letters, not as its longest item: a row of them fits the dock at
    1366x768 (the list still opens as wide as its items)."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(letters)


def fit_rows(table: QTableWidget, most: int | None = None) -> None:
    """As tall as its rows (an empty table as tall as one; at most `most` of them, the rest
    scrolled to): the boxes below get the room."""
    table.resizeRowsToContents()
    shown = range(min(table.rowCount(), most if most is not None else table.rowCount()))
    rows = sum(table.rowHeight(i) for i in shown) or table.verticalHeader().defaultSectionSize()
    table.setFixedHeight(table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth())


class Message(QLabel):
    """Why an edit was not done, in red; no room taken while there is nothing to say."""

    def __init__(self, name: str) -> None:
        super().__init__(objectName=name, wordWrap=True)
        self.setStyleSheet("color: #a02020")
        self.hide()

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setVisible(bool(text))

    def clear(self) -> None:
        self.setText("")


class DeletableTable(QTableWidget):
    """Del removes the chosen row (`deleted`): taken here, before the window's Delete shortcut,
    which deletes hexes."""

    deleted = Signal()

    def event(self, event: QEvent) -> bool:
        if delete_pressed(self, event):
            if event.type() == QEvent.Type.KeyPress:
                self.deleted.emit()
            event.accept()
            return True
        return super().event(event)
