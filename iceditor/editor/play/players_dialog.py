"""The dialog that starts a playtest: who plays each side (a person or a registered AI player: new
players appear by themselves) and the game's seed (its dice)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

from engine.model.counters import SIDES

from .session import HUMAN, player_names


class PlayersDialog(QDialog):
    def __init__(
        self, parent: QWidget | None, title: str, players: dict[str, str] | None = None, seed: int = 0
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
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Play")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def players(self) -> dict[str, str]:
        return {side: choice.currentText() for side, choice in self.choices.items()}
