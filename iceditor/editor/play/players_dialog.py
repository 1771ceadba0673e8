"""The dialog that starts a playtest: who plays each side (a person or a registered AI player: new
players appear by themselves), the game's seed (its dice) and whether the advanced rules are played."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

from engine.model.counters import SIDES

from .session import HUMAN, player_names


def advanced_rules_box(checked: bool = False) -> QCheckBox:
    """The one switch of the advanced rules (R319), as a playtest and a balance test offer it."""
    box = QCheckBox("Advanced rules (21.0-23.0)", objectName="advanced-rules", checked=checked)
    box.setToolTip("Machine gun modes (21.0), ammo depletion (22.0) and observation (23.0), played together")
    return box


class PlayersDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        title: str,
        players: dict[str, str] | None = None,
        seed: int = 0,
        options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Playtest")
        form = QFormLayout(self)
        form.addRow(QLabel(f"<b>{title}</b>"))
        self.choices: dict[str, QComboBox] = {}
        for side in SIDES:
            choice = QComboBox(objectName=f"player-{side}")
            choice.addItems(player_names())
            choice.setCurrentText((players or {}).get(side, HUMAN))
            choice.setToolTip(f"{HUMAN}: a person at this screen (two persons: hot seat, with a hand-over screen)")
            self.choices[side] = choice
            form.addRow(f"{side.capitalize()}:", choice)
        self.seed = QSpinBox(objectName="play-seed", maximum=2**31 - 1, value=seed)
        self.seed.setToolTip("The game's dice: the same seed and decisions give the same game")
        form.addRow("Seed:", self.seed)
        self.advanced = advanced_rules_box(bool((options or {}).get("advanced")))
        form.addRow("", self.advanced)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Play")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def players(self) -> dict[str, str]:
        return {side: choice.currentText() for side, choice in self.choices.items()}

    def options(self) -> dict[str, Any]:
        """The game's options (engine/game/log.py OPTIONS): the basic game has none."""
        return {"advanced": True} if self.advanced.isChecked() else {}
