"""The odds before a roll: a checkbox for each unit that may fire (the player picks the firers,
11.13), every firer's PC chance, each term of the firepower with its rule, the dice, and each target
unit's chance of each result (engine/game/fire_odds.py, the odds calculator's function) for exactly
the picked units, then Roll. Only what the firing side sees is listed (24.21)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.game.fire_odds import describe_odds


def seen_odds(odds: dict[str, Any], seen: set[str]) -> dict[str, Any]:
    """The odds with only the target units in `seen` (the firing side's view): the shot's numbers
    never tell a player of a hidden unit (24.21, R93)."""
    shown = dict(odds)
    if odds.get("ap") is not None:
        shown["ap"] = {**odds["ap"], "targets": [t for t in odds["ap"]["targets"] if t["unit"] in seen]}
    shown["at"] = [s for s in odds.get("at", []) if all(t["unit"] in seen for t in s["targets"])]
    shown["mortar"] = [{**m, "targets": [t for t in m["targets"] if t["unit"] in seen]} for m in odds.get("mortar", [])]
    return shown


class OddsPanel(QWidget):
    roll = Signal()
    cancel = Signal()
    picked_changed = Signal(list)  # the unit ids ticked, in the odds' order

    def __init__(self) -> None:
        super().__init__()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel("<b>Odds</b>: select your firing units, then click an enemy hex", objectName="odds-head")
        self.heading.setWordWrap(True)
        self.text = QLabel(objectName="odds-text")
        self.text.setFont(QFont("DejaVu Sans Mono", 8))
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text.setWordWrap(True)  # a target's chances run past the dock's width
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.firers = QWidget(objectName="odds-firers")  # one checkbox a unit that may fire
        self.firers.setLayout(QVBoxLayout())
        self.firers.layout().setContentsMargins(0, 0, 0, 0)
        self.firers.layout().setSpacing(0)
        self.boxes: dict[str, QCheckBox] = {}
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.text)
        buttons = QHBoxLayout()
        self.roll_button = QPushButton("Roll", objectName="odds-roll", enabled=False)
        self.roll_button.clicked.connect(self.roll)
        self.cancel_button = QPushButton("Cancel", objectName="odds-cancel", enabled=False)
        self.cancel_button.clicked.connect(self.cancel)
        buttons.addWidget(self.roll_button)
        buttons.addWidget(self.cancel_button)
        column.addWidget(self.heading)
        column.addWidget(self.firers)
        column.addWidget(scroll, 1)
        column.addLayout(buttons)
        self.odds: dict[str, Any] | None = None

    def show_odds(self, heading: str, odds: dict[str, Any], picked: list[str]) -> None:
        """The odds of the `picked` firers; a box for each unit of the firing hexes that may fire."""
        self.odds = odds
        self.heading.setText(heading)
        self.text.setText(describe_odds(odds))
        self._set_boxes([(u["unit"], u["pc"]) for u in odds["units"] if u["fires"]], picked)
        self.roll_button.setEnabled(bool(odds.get("ap") or odds.get("at")))
        self.cancel_button.setEnabled(True)

    def picked(self) -> list[str]:
        return [uid for uid, box in self.boxes.items() if box.isChecked()]

    def _set_boxes(self, eligible: list[tuple[str, float]], picked: list[str]) -> None:
        if [uid for uid, _ in eligible] != list(self.boxes):  # other firers: new boxes
            for box in self.boxes.values():
                self.firers.layout().removeWidget(box)
                box.hide()  # gone at once: deleteLater waits for the event loop
                box.deleteLater()
            self.boxes = {}
            for uid, pc in eligible:
                box = QCheckBox(f"{uid.split('/', 1)[-1]}  PC {pc:.0%}", objectName=f"odds-firer:{uid}")
                box.setToolTip(f"{uid} fires in this attack (11.13)")
                box.toggled.connect(lambda _on: self.picked_changed.emit(self.picked()))
                self.firers.layout().addWidget(box)
                self.boxes[uid] = box
        for uid, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(uid in picked)
            box.blockSignals(False)

    def clear(self, heading: str = "") -> None:
        self.odds = None
        self._set_boxes([], [])
        self.heading.setText(heading or "<b>Odds</b>: select your firing units, then click an enemy hex")
        self.text.setText("")
        self.roll_button.setEnabled(False)
        self.cancel_button.setEnabled(False)
