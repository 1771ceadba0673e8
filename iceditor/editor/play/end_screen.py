"""The end of a playtest: the result and the condition that decided it, each side's losses and the
objective hexes with who holds them (session.outcome), in a box over the map."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget


def outcome_text(outcome: dict[str, Any]) -> str:
    """The end in words (rich text)."""
    result = outcome["result"]
    winner = result.get("winner")
    head = "A draw" if winner == "draw" else f"{str(winner).capitalize()} victory"
    lines = [f"<h2>{head}</h2>", f"<p>{result.get('by', '')}</p>"]
    for side, lost in outcome["losses"].items():
        names = ", ".join(u.split("/", 1)[-1] for u in lost) or "none"
        lines.append(f"<p><b>{side.capitalize()} losses ({len(lost)}):</b> {names}</p>")
    held = outcome["objectives"]
    if held:
        parts = ", ".join(f"{h} {s or 'nobody'!s}" for h, s in held.items())
        lines.append(f"<p><b>Objective hexes (24.9):</b> {parts}</p>")
    return "".join(lines)


class EndScreen(QFrame):
    closed = Signal()

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.over = parent
        self.setObjectName("end-screen")
        self.setFrameShape(QFrame.Shape.Box)
        self.setAutoFillBackground(True)
        self.setStyleSheet("#end-screen { background: #fbf7ea; border: 2px solid #5b4215; }")
        column = QVBoxLayout(self)
        self.text = QLabel(objectName="end-text", textFormat=Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        close = QPushButton("Look at the board", objectName="end-close")
        close.clicked.connect(self._close)
        column.addWidget(self.text)
        column.addWidget(close, 0, Qt.AlignmentFlag.AlignRight)
        self.hide()

    def show_outcome(self, outcome: dict[str, Any]) -> None:
        self.text.setText(outcome_text(outcome))
        parent = self.over
        width = min(480, parent.width() - 40)
        self.setFixedWidth(max(width, 200))
        self.adjustSize()
        self.move((parent.width() - self.width()) // 2, max(10, (parent.height() - self.height()) // 3))
        self.show()
        self.raise_()

    def _close(self) -> None:
        self.hide()
        self.closed.emit()
