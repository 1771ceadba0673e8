"""The log of a playtest as the screen's side saw it (its SideLog: nothing the other side keeps
secret): every action with its events in words, rule and dice (`describe_event`). Clicking an
entry shows the board at that moment; Take back returns to one of the side's own decisions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from engine.game.describe import describe_event

ENTRY = Qt.ItemDataRole.UserRole  # an item's log entry number (n)


def entry_heading(entry: dict[str, Any]) -> str:
    n = entry.get("n", 0)
    if not n:
        return "0. the game starts"
    side = str(entry.get("side", "")).capitalize()
    action = entry.get("action") or "(a decision it cannot see)"
    turn = f"T{entry['turn']} " if entry.get("turn") else ""
    return f"{n}. {turn}{str(entry.get('phase', '')).replace('_', ' ')}: {side} {action}"


class LogPanel(QWidget):
    moment_chosen = Signal(int)  # show the board after entry n
    now_chosen = Signal()  # back to the board as it is
    take_back = Signal(int)  # return to the decision of entry n

    def __init__(self) -> None:
        super().__init__()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.tree = QTreeWidget(objectName="play-log")
        self.tree.setHeaderHidden(True)
        self.tree.setWordWrap(True)
        self.tree.itemClicked.connect(self._clicked)
        self.showing = QLabel(objectName="play-log-showing")
        self.showing.setWordWrap(True)
        self.showing.hide()
        buttons = QHBoxLayout()
        self.now_button = QPushButton("Now", objectName="play-log-now", enabled=False)
        self.now_button.setToolTip("Show the board as it is now")
        self.now_button.clicked.connect(self._now)
        self.back_button = QPushButton("Take back", objectName="play-log-take-back", enabled=False)
        self.back_button.setToolTip("Return the game to the chosen decision of yours: it is decided again (R215)")
        self.back_button.clicked.connect(self._take_back)
        buttons.addWidget(self.now_button)
        buttons.addWidget(self.back_button)
        column.addWidget(self.showing)
        column.addWidget(self.tree, 1)
        column.addLayout(buttons)
        self._own: set[int] = set()  # the entries a take back may return to
        self._shown = 0

    def set_entries(self, entries: Sequence[dict[str, Any]], own: set[int]) -> None:
        """The side's log; `own`: the numbers of the decisions it may take back. New entries are
        added at the end (a log only grows); a shorter log (a take back) is listed again."""
        if len(entries) < self._shown:
            self.tree.clear()
            self._shown = 0
        for entry in entries[self._shown :]:
            heading = entry_heading(entry)
            item = QTreeWidgetItem([heading])
            item.setData(0, ENTRY, int(entry.get("n", 0)))
            item.setToolTip(0, heading + (f"\ndice {entry['dice']}" if entry.get("dice") else ""))
            for event in entry.get("events", ()):
                child = QTreeWidgetItem([describe_event(event)])
                child.setData(0, ENTRY, int(entry.get("n", 0)))
                child.setToolTip(0, describe_event(event))
                item.addChild(child)
            self.tree.addTopLevelItem(item)
        self._shown = len(entries)
        self._own = own
        last = self.tree.topLevelItem(self.tree.topLevelItemCount() - 1)
        if last is not None:
            self.tree.scrollToItem(last)
        self._update_buttons()

    def clear(self) -> None:
        self.tree.clear()
        self._shown = 0
        self._now()

    def chosen_entry(self) -> int | None:
        item = self.tree.currentItem()
        return None if item is None else int(item.data(0, ENTRY))

    def lines(self) -> list[str]:
        """Every line shown, headings and events (for a reader or a test)."""
        found: list[str] = []
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is not None:
                found.append(item.text(0))
                found += [child.text(0) for k in range(item.childCount()) if (child := item.child(k)) is not None]
        return found

    def _clicked(self, item: QTreeWidgetItem) -> None:
        n = int(item.data(0, ENTRY))
        self.showing.setText(f"Showing the board after action {n}: Now returns to the game as it is.")
        self.showing.show()
        self.now_button.setEnabled(True)
        self._update_buttons()
        self.moment_chosen.emit(n)

    def _now(self) -> None:
        self.showing.hide()
        self.now_button.setEnabled(False)
        self.tree.setCurrentItem(None)
        self._update_buttons()
        self.now_chosen.emit()

    def _take_back(self) -> None:
        n = self.chosen_entry()
        if n is not None and n in self._own:
            self._now()
            self.take_back.emit(n)

    def _update_buttons(self) -> None:
        n = self.chosen_entry()
        self.back_button.setEnabled(n is not None and n in self._own)
