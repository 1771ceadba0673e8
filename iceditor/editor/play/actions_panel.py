"""What the side to act may do now, in words (describe.py): the decisions naming the selected units
or hex, or all of them; the reaction prompt when the other side moves into a hex (13.0); the
units off the map (to place or to enter). Every item is one of `legal_actions`."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from engine.game import Action

ACTION = Qt.ItemDataRole.UserRole
MOST_SHOWN = 300  # a set-up's list runs to thousands: the rest by selecting a unit or a hex


class ActionsPanel(QWidget):
    chosen = Signal(object)  # an Action to play
    highlighted = Signal(object)  # an Action the user points at (its odds, its hex)
    unit_chosen = Signal(str)  # a unit off the map picked in its list

    def __init__(self) -> None:
        super().__init__()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.prompt = QLabel(objectName="reaction-prompt")
        self.prompt.setWordWrap(True)
        self.prompt.setStyleSheet("#reaction-prompt { background: #fff2c0; border: 1px solid #b08a00; padding: 4px; }")
        self.prompt.hide()
        self.heading = QLabel(objectName="actions-heading")
        self.heading.setWordWrap(True)
        self.list = QListWidget(objectName="play-actions")
        self.list.setWordWrap(True)
        self.list.itemActivated.connect(self._activated)
        self.list.currentItemChanged.connect(self._current)
        self.play_button = QPushButton("Do it", objectName="actions-play", enabled=False)
        self.play_button.setToolTip("Play the chosen decision (or double-click it)")
        self.play_button.clicked.connect(lambda: self._activated(self.list.currentItem()))
        self.off_map_heading = QLabel("<b>Off the map</b> (to place or to enter): pick one, then its hex")
        self.off_map_heading.setWordWrap(True)
        self.off_map = QListWidget(objectName="play-off-map")
        self.off_map.setMaximumHeight(110)
        self.off_map.itemClicked.connect(lambda item: self.unit_chosen.emit(item.data(ACTION)))
        # the prompt is the window's to place (over the odds too); the rest is this panel's
        for w in (self.heading, self.list, self.play_button, self.off_map_heading, self.off_map):
            column.addWidget(w)
        column.setStretch(1, 1)

    def show_actions(self, heading: str, actions: Sequence[tuple[Action, str]], prompt: str = "") -> None:
        """`actions`: each with its sentence; `prompt`: the reaction prompt (13.0), or none."""
        self.prompt.setText(prompt)
        self.prompt.setVisible(bool(prompt))
        shown = list(actions)[:MOST_SHOWN]
        more = len(actions) - len(shown)
        self.heading.setText(heading + (f" ({more} more: select a unit or a hex)" if more > 0 else ""))
        self.list.blockSignals(True)
        self.list.clear()
        for action, sentence in shown:
            item = QListWidgetItem(sentence)
            item.setToolTip(f"{sentence}\n{action.text()}")
            item.setData(ACTION, action)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.play_button.setEnabled(False)

    def show_off_map(self, units: Sequence[tuple[str, str]]) -> None:
        """The side's units not on the map that it may place or enter now (id, words)."""
        self.off_map.clear()
        for uid, words in units:
            item = QListWidgetItem(words)
            item.setData(ACTION, uid)
            self.off_map.addItem(item)
        self.off_map.setVisible(bool(units))
        self.off_map_heading.setVisible(bool(units))

    def texts(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def item_of(self, action: Action) -> QListWidgetItem | None:
        return next(
            (self.list.item(i) for i in range(self.list.count()) if self.list.item(i).data(ACTION) == action), None
        )

    def _current(self, item: QListWidgetItem | None) -> None:
        self.play_button.setEnabled(item is not None)
        if item is not None:
            self.highlighted.emit(item.data(ACTION))

    def _activated(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.chosen.emit(item.data(ACTION))
