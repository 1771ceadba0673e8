"""The phase bar of a playtest: the game turn of the scenario's length, the Player Turn, the phase
(6.0 A-H), the side to act and what it may do, Done; and the AI's controls (speed, pause, step,
Stop) with its busy indication."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QSizePolicy, QWidget

from engine.game import Action
from engine.game.actions import DONE, PASS

# 6.0: the sequence of play's phases by letter; the phases before play by their rule
PHASES = {
    "setup": "Set-up (24.1)",
    "infiltration": "Infiltration (24.3)",
    "entry_choice": "Entry options (24.1)",
    "morale": "A Morale Phase",
    "support_fire": "B Support Fire Phase",
    "movement": "C Movement Phase",
    "reaction_movement": "D Reaction Movement Phase",
    "defensive_fire": "E Defensive Fire Phase",
    "moving_fire": "F Moving Fire Phase",
    "assault": "G Assault Phase",
    "free_state_change": "H Free State Change Phase",
    "over": "the game is over",
}
SPEEDS = {
    "slow (1 s)": 1000,
    "normal (0.3 s)": 300,
    "fast (0.05 s)": 50,
    "at once": 0,
}  # an AI's pause between decisions


def may_do(actions: Sequence[Action]) -> str:
    """The verbs open now, in the engine's order, each once."""
    verbs = list(dict.fromkeys(a.verb for a in actions))
    return ", ".join(verbs) if verbs else "nothing"


class PhaseBar(QWidget):
    done = Signal(object)  # the Action the button plays: `done` or `pass`
    pause_toggled = Signal(bool)  # True: the AIs wait
    step = Signal()
    stop = Signal()
    speed_changed = Signal(int)  # ms between an AI's decisions

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("phase-bar")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        self.where = QLabel(objectName="phase-where")
        self.where.setTextFormat(Qt.TextFormat.RichText)
        self.actor = QLabel(objectName="phase-actor")
        self.actor.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # cut, never widening
        self.done_button = QPushButton("Done", objectName="phase-done")
        self.done_button.setToolTip("End this phase (6.0), or let the move go on without opportunity fire (13.0)")
        self.done_button.clicked.connect(self._done)
        self.busy = QProgressBar(objectName="ai-busy", maximumWidth=70, textVisible=False)
        self.busy.setRange(0, 0)  # a busy indication while an AI thinks
        self.busy.hide()
        self.speed = QComboBox(objectName="ai-speed")
        self.speed.addItems(list(SPEEDS))
        self.speed.setCurrentIndex(1)
        self.speed.setToolTip("How fast an AI plays: its pause between decisions")
        self.speed.currentTextChanged.connect(lambda text: self.speed_changed.emit(SPEEDS[text]))
        self.pause = QPushButton("Pause", objectName="ai-pause", checkable=True)
        self.pause.setToolTip("Hold the AI players after their current decision; Step plays one")
        self.pause.toggled.connect(self._paused)
        self.step_button = QPushButton("Step", objectName="ai-step", enabled=False)
        self.step_button.clicked.connect(self.step)
        self.stop_button = QPushButton("Stop", objectName="ai-stop", enabled=False)
        self.stop_button.setToolTip("Stop the AI's thinking now (it is paused; Step or Pause again goes on)")
        self.stop_button.clicked.connect(self.stop)
        for w in (self.where, self.actor):
            row.addWidget(w)
        row.setStretch(1, 1)
        for w in (self.done_button, self.busy, self.speed, self.pause, self.step_button, self.stop_button):
            row.addWidget(w)
        self._action: Action | None = None

    def show_state(
        self, turn: int, length: int, phasing: str | None, phase: str, to_act: str | None, actions: Sequence[Action]
    ) -> None:
        player_turn = f"{phasing.capitalize()} Player Turn" if phasing else "before play"
        turn_text = f"Turn {turn} of {length}" if turn else f"before turn 1 of {length}"
        self.where.setText(f"<b>{turn_text}</b> &middot; {player_turn} &middot; <b>{PHASES.get(phase, phase)}</b>")
        doing = may_do(actions)
        self.actor.setText(f"  {to_act.capitalize() if to_act else 'Nobody'} to act: {doing}")
        self.actor.setToolTip(f"What the side to act may do now: {doing}")
        self._action = next((a for a in actions if a.verb in (DONE, PASS) and not a.units), None)
        self.done_button.setText("Pass" if self._action is not None and self._action.verb == PASS else "Done")
        self.done_button.setEnabled(self._action is not None)

    def _done(self) -> None:
        if self._action is not None:
            self.done.emit(self._action)

    def game_over(self, text: str) -> None:
        self.actor.setText(f"  {text}")
        self.done_button.setEnabled(False)
        self.set_busy(False)

    def set_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)
        self.stop_button.setEnabled(busy)

    def set_ai(self, playing: bool) -> None:
        """The AI controls are shown only when an AI plays a side."""
        for w in (self.speed, self.pause, self.step_button, self.stop_button):
            w.setVisible(playing)

    def _paused(self, paused: bool) -> None:
        self.pause.setText("Run" if paused else "Pause")
        self.step_button.setEnabled(paused)
        self.pause_toggled.emit(paused)
