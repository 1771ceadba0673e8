"""Hot seat: the screen that covers the map while the side to act passes from one person to the
other. Under it nothing of either side is drawn; the next side's view is drawn only once its
player says he alone sees the screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class HandOver(QWidget):
    """A cover over `parent` (the map's viewport), always at its size."""

    accepted = Signal(str)  # the side whose player now has the screen

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.covered = parent
        self.setObjectName("hand-over")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)  # the cover is opaque
        self.setStyleSheet("#hand-over { background: #2f3b2f; } QLabel { color: #f4efe0; }")
        column = QVBoxLayout(self)
        column.addStretch(1)
        self.title = QLabel(objectName="hand-over-title", alignment=Qt.AlignmentFlag.AlignCenter)
        self.title.setStyleSheet("font-size: 22pt; font-weight: bold")
        self.text = QLabel(objectName="hand-over-text", alignment=Qt.AlignmentFlag.AlignCenter)
        self.text.setWordWrap(True)
        self.button = QPushButton(objectName="hand-over-continue")
        self.button.clicked.connect(self._accept)
        for w in (self.title, self.text):
            column.addWidget(w)
        column.addWidget(self.button, 0, Qt.AlignmentFlag.AlignCenter)
        column.addStretch(1)
        self.side = ""
        parent.installEventFilter(self)
        self.hide()

    def cover(self, side: str, why: str) -> None:
        self.side = side
        self.title.setText(f"Hand over to the {side.capitalize()} player")
        self.text.setText(f"{why}\nThe other player looks away. Only the {side.capitalize()} player goes on.")
        self.button.setText(f"I am the {side.capitalize()} player: show my side")
        self.setGeometry(self.covered.rect())
        self.show()
        self.raise_()
        self.button.setFocus()

    def _accept(self) -> None:
        self.hide()
        self.accepted.emit(self.side)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self.covered.rect())
        return False
