"""Play > Balance test...: a batch of AI games of the scenario as saved, run in the background by
`iceditor playtest` (a process of its own, with its own Dask cluster: the editor stays free), its
progress and running tally read from the games it writes, and its report opened when it is done
(docs/balance.md). Cancel interrupts the batch: what finished is kept, and the same test resumes.
The game engine and its players are imported when the dialog opens, not with the window (issue 22)."""

from __future__ import annotations

import json
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QProcess, QTimer, QUrl
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.model.counters import SIDES

if TYPE_CHECKING:
    from ..window import MainWindow

ORDER = 85  # after the Play menu's own feature (play_menu.py, 80), which makes the menu
POLL_MS = 500


def play_menu(window: MainWindow) -> QMenu:
    """The window's Play menu, found by its title or made before Help: features that add to it do
    not depend on which of them is installed first."""
    if "Play" in window.menus:
        return window.menus["Play"]
    for action in window.menuBar().actions():
        if action.menu() is not None and action.text().replace("&", "") == "Play":
            window.menus["Play"] = action.menu()
            return action.menu()
    menu = QMenu("&Play", window)
    window.menuBar().insertMenu(window.menus["Help"].menuAction(), menu)
    window.menus["Play"] = menu
    return menu


@dataclass(frozen=True)
class BalanceOptions:
    games: int
    players: tuple[str, str]  # by side
    swap: bool
    workers: int
    out: Path
    advanced: bool = False  # the advanced rules (R319)

    def command(self, scenario: Path) -> list[str]:
        argv = [sys.executable, "-m", "iceditor", "playtest", str(scenario), "--games", str(self.games)]
        argv += ["--players", ",".join(self.players), "--workers", str(self.workers), "--out", str(self.out)]
        argv += ["--swap"] if self.swap else []
        return [*argv, "--no-progress", "--format", "json"] + (["--advanced"] if self.advanced else [])


class BalanceDialog(QDialog):
    """How many games, which players, where the report goes."""

    def __init__(self, parent: QWidget, scenario: Path) -> None:
        from engine.players import PLAYERS

        from ..play.players_dialog import advanced_rules_box

        super().__init__(parent)
        self.setWindowTitle("Balance test")
        form = QFormLayout(self)
        self.games = QSpinBox(minimum=1, maximum=100_000, value=100)
        form.addRow("Games", self.games)
        self.players = []
        names = sorted(PLAYERS)
        for side in SIDES:
            box = QComboBox()
            box.addItems(names)
            box.setCurrentText("heuristic" if "heuristic" in PLAYERS else names[0])
            form.addRow(f"{side.title()} player", box)
            self.players.append(box)
        self.swap = QCheckBox("Swap the players every second game")
        form.addRow("", self.swap)
        self.advanced = advanced_rules_box()
        form.addRow("", self.advanced)
        self.workers = QSpinBox(minimum=1, maximum=256, value=os.cpu_count() or 1)
        form.addRow("Worker processes", self.workers)
        self.out = QLineEdit(str(scenario.parent / f"playtest-{scenario.stem}"))
        self.out.setMinimumWidth(self.out.fontMetrics().horizontalAdvance(self.out.text()) + 24)  # the whole path
        browse = QPushButton("Browse...")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.out)
        row.addWidget(browse)
        form.addRow("Report folder", row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Run")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Report folder", self.out.text())
        if chosen:
            self.out.setText(chosen)

    def options(self) -> BalanceOptions:
        german, russian = (box.currentText() for box in self.players)
        return BalanceOptions(
            self.games.value(),
            (german, russian),
            self.swap.isChecked(),
            self.workers.value(),
            Path(self.out.text()),
            self.advanced.isChecked(),
        )


class BalanceRun(QObject):
    """One batch in the background: the process, its progress dialog, the report opened at the end."""

    def __init__(self, window: MainWindow, scenario: Path, options: BalanceOptions) -> None:
        super().__init__(window)
        self.window, self.options = window, options
        self.seen: set[str] = set()
        self.tally: dict[str, int] = {}
        self.process = QProcess(self)
        self.process.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        self.process.finished.connect(self._finished)
        self.progress = QProgressDialog("Starting the workers...", "Stop", 0, options.games, window)
        self.progress.setWindowTitle(f"Balance test: {scenario.name}")
        self.progress.setMinimumDuration(0)
        self.progress.setAutoClose(False)
        self.progress.setAutoReset(False)
        self.progress.canceled.connect(self.stop)
        self.timer = QTimer(self, interval=POLL_MS)
        self.timer.timeout.connect(self._poll)
        program, *arguments = options.command(scenario)
        self.process.start(program, arguments)
        self.timer.start()
        self.progress.show()

    def _poll(self) -> None:
        """The games finished so far (their summaries, written last) and who won them."""
        from engine.batch.games import GAMES_FOLDER

        folder = self.options.out / GAMES_FOLDER
        for path in folder.glob("g*.json"):
            if path.name in self.seen or path.name.endswith(".error.json"):
                continue
            try:
                winner = str(json.loads(path.read_text(encoding="utf-8"))["winner"])
            except (OSError, ValueError, KeyError):
                continue  # being replaced: read at the next poll
            self.seen.add(path.name)
            self.tally[winner] = self.tally.get(winner, 0) + 1
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.tally.items()))
        self.progress.setValue(min(len(self.seen), self.options.games))
        self.progress.setLabelText(
            f"{len(self.seen)} of {self.options.games} games" + (f": {counts}" if counts else "")
        )

    def stop(self) -> None:
        """Interrupt the batch as Ctrl+C does: its cluster closes, the finished games stay."""
        if self.process.state() != QProcess.ProcessState.NotRunning:
            os.kill(int(self.process.processId()), signal.SIGINT)

    def _finished(self, code: int, status: QProcess.ExitStatus) -> None:
        self.timer.stop()
        self._poll()
        self.progress.close()
        report = self.options.out / "report.html"
        errors = bytes(self.process.readAllStandardError().data()).decode("utf-8", "replace").strip()
        if code in (0, 1, 130) and report.is_file():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(report.resolve())))
            self.window.statusBar().showMessage(f"Balance test: {len(self.seen)} games; report {report}", 10_000)
        else:
            QMessageBox.warning(self.window, "Balance test", errors or f"iceditor playtest ended with exit code {code}")
        self.deleteLater()


class BalanceTest:
    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.run: BalanceRun | None = None
        self.action = QAction("&Balance test...", window)
        self.action.setStatusTip("Play many AI games of the saved scenario and open their balance report")
        self.action.triggered.connect(lambda checked=False: self.ask())
        menu = play_menu(window)
        menu.addSeparator()
        menu.addAction(self.action)
        menu.aboutToShow.connect(self._update)

    def _update(self) -> None:
        self.action.setEnabled(self.window.document.scenario is not None and self.run is None)

    def ask(self) -> None:
        document = self.window.document
        if document.scenario is None:
            QMessageBox.information(self.window, "Balance test", "Open a scenario: a balance test plays a scenario.")
            return
        if document.dirty:
            QMessageBox.information(
                self.window, "Balance test", "Save the scenario first: a balance test plays the file as saved."
            )
            return
        dialog = BalanceDialog(self.window, document.path)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.start(dialog.options())

    def start(self, options: BalanceOptions) -> BalanceRun:
        self.run = BalanceRun(self.window, self.window.document.path, options)
        self.run.destroyed.connect(lambda: setattr(self, "run", None))
        return self.run


def install(window: MainWindow) -> None:
    window.balance_test = BalanceTest(window)  # type: ignore[attr-defined]
