"""An AI player's decision off the GUI thread (QThreadPool): it is handed its side's View and the
legal actions only, never the game; the window stays responsive, shows it busy, and may Stop it
(the answer of a stopped decision is dropped)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from engine.game import Action
from engine.game.views import View
from engine.players import Player


class _Answer(QObject):
    chosen = Signal(int, object)  # ticket, the Action
    failed = Signal(int, str)  # ticket, the player's error


class _Decision(QRunnable):
    def __init__(
        self,
        ticket: int,
        player: Player,
        view: View,
        actions: Sequence[Action],
        answer: _Answer,
        first: Callable[[], None] | None,
    ) -> None:
        super().__init__()
        self.ticket, self.player, self.view, self.actions, self.answer = ticket, player, view, list(actions), answer
        self.first = first

    def run(self) -> None:
        try:
            if self.first is not None:
                self.first()
            action = self.player.choose(self.view, self.actions)
        except Exception as exc:  # a player's bug is reported in the window, not a crash of it
            self.answer.failed.emit(self.ticket, f"{self.player.name}: {type(exc).__name__}: {exc}")
        else:
            self.answer.chosen.emit(self.ticket, action)


class AiWorker(QObject):
    decided = Signal(object)  # the Action the AI chose
    failed = Signal(str)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(1)  # one decision at a time: a player's own state is never shared
        self._answer = _Answer(self)
        self._answer.chosen.connect(self._chosen)
        self._answer.failed.connect(self._failed)
        self._ticket = 0
        self.busy = False

    def think(
        self, player: Player, view: View, actions: Sequence[Action], first: Callable[[], None] | None = None
    ) -> None:
        """The player's choice, in the pool's thread; `first`: run there before it (its begin)."""
        self._ticket += 1
        self._set_busy(True)
        self.pool.start(_Decision(self._ticket, player, view, actions, self._answer, first))

    def stop(self) -> None:
        """Drop the decision under way (its thread ends by itself; its answer is not played)."""
        self._ticket += 1
        self._set_busy(False)

    def wait(self) -> None:
        """Until no decision runs (leaving the window: no thread outlives it)."""
        self.pool.waitForDone()

    def _chosen(self, ticket: int, action: Action) -> None:
        if ticket == self._ticket:
            self._set_busy(False)
            self.decided.emit(action)

    def _failed(self, ticket: int, message: str) -> None:
        if ticket == self._ticket:
            self._set_busy(False)
            self.failed.emit(message)

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)
