"""The Play menu: Playtest (F5) plays the scenario as the window holds it, Back to editing keeps
the game, Restart with the edits, Save game and Open game (.jsonl logs), and the AI's Pause and
Step (iceditor/editor/play/, docs/editor.md "Playtest").

The play mode is built when first asked for (F5, Open game, the AI's keys): its modules import the
game engine, which the window does not need to show a scenario (issue 22: the editor's open)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

if TYPE_CHECKING:
    from ..play.play_mode import PlayMode
    from ..window import MainWindow

ORDER = 80  # the Play menu stands before Help
GAME_FILES = "Game logs (*.jsonl);;All files (*)"


class PlayMenu:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self._mode: PlayMode | None = None
        window.play_menu = self  # type: ignore[attr-defined]  # `iceditor edit GAME.jsonl` opens a game through it
        menu = QMenu("&Play", window)
        window.menuBar().insertMenu(window.menus["Help"].menuAction(), menu)
        window.menus["Play"] = menu
        self.playtest = self._add(menu, "&Playtest", "F5", self.start, "Play the scenario as it stands, edits included")
        self.back = self._add(
            menu, "&Back to editing", "Shift+F5", lambda: self.mode.leave(), "The game is kept: F5 goes on"
        )
        self.restart = self._add(
            menu, "&Restart with the edits", "", self.restart_game, "A new game of the scenario now"
        )
        menu.addSeparator()
        self.save = self._add(menu, "&Save game...", "Ctrl+Alt+S", self.save_game, "Write the game's log (.jsonl)")
        self._add(menu, "&Open game...", "Ctrl+Alt+O", self.open_game, "Open a saved game at its last event")
        menu.addSeparator()
        self.pause = self._add(
            menu, "Pause the &AI", "F6", lambda: self.mode.phase_bar.pause.toggle(), "Hold or run the AI"
        )
        self.step = self._add(
            menu, "S&tep the AI", "F7", lambda: self.mode.phase_bar.step.emit(), "One AI decision (paused)"
        )
        menu.aboutToShow.connect(self._update)
        self._update()

    @property
    def mode(self) -> PlayMode:
        if self._mode is None:
            from ..play.play_mode import PlayMode

            self._mode = PlayMode(self.window)
        return self._mode

    def _add(self, menu: QMenu, text: str, keys: str, slot: object, tip: str) -> QAction:
        action = QAction(text, self.window)
        if keys:
            action.setShortcut(QKeySequence(keys))
        action.setStatusTip(tip)
        action.triggered.connect(lambda checked=False: slot())  # type: ignore[operator]
        menu.addAction(action)
        return action

    def _update(self) -> None:
        mode = self._mode  # a menu shown builds no play mode
        playing = mode is not None and mode.session is not None
        self.back.setEnabled(mode is not None and mode.active)
        self.restart.setEnabled(playing)
        self.save.setEnabled(playing)

    def start(self) -> None:
        """A game goes on where it was left; edited since, the user may restart it with the edits."""
        mode = self.mode
        if mode.active:
            return
        if mode.session is not None:
            if mode.edited_since():
                answer = QMessageBox.question(
                    self.window,
                    "Playtest",
                    "The scenario was edited since this game started. Restart the game with the edits?\n"
                    "(No: go on with the game as it was.)",
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No | QMessageBox.StandardButton.Cancel,
                )
                if answer == QMessageBox.StandardButton.Cancel:
                    return
                if answer == QMessageBox.StandardButton.Yes:
                    self.restart_game()
                    return
            mode.enter()
            return
        from ..play.players_dialog import PlayersDialog

        dialog = PlayersDialog(self.window, f"Playtest {self.window.document.path.name}")
        if dialog.exec():
            mode.start(dialog.players(), dialog.seed.value(), dialog.options())
        self._update()

    def restart_game(self) -> None:
        mode = self.mode
        if mode.session is None:
            self.start()
            return
        game = mode.session.game
        from ..play.players_dialog import PlayersDialog

        dialog = PlayersDialog(self.window, "Restart with the edits", mode.session.players, game.seed, game.options)
        if dialog.exec():
            mode.leave()
            mode.start(dialog.players(), dialog.seed.value(), dialog.options())

    def save_game(self) -> None:
        if self._mode is None or self._mode.session is None:
            return
        suggested = self.window.document.path.with_suffix(".jsonl")
        chosen, _ = QFileDialog.getSaveFileName(self.window, "Save game", str(suggested), GAME_FILES)
        if chosen:
            path = Path(chosen)
            self.mode.save_game(path if path.suffix else path.with_suffix(".jsonl"))

    def open_game(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(
            self.window, "Open game", str(self.window.document.path.parent), GAME_FILES
        )
        if chosen:
            self.mode.open_game(Path(chosen))
        self._update()


def install(window: MainWindow) -> None:
    PlayMenu(window)
