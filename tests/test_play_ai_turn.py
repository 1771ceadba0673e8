"""An AI player's turn in the window (issue 19's Must show): 'An AI player's turn never freezes the
window: it runs off the GUI thread, with a busy indication and a Stop.' Scenario 6, the heuristic
player on both sides: its first decision reads the whole board's lines of sight (seconds), its
others weigh every stack's routes; a 10 ms timer of the GUI thread keeps ticking meanwhile."""

from __future__ import annotations

import time
from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QTimer
from PySide6.QtWidgets import QApplication

from iceditor.editor.document import open_document
from iceditor.editor.window import MainWindow

pytestmark = [pytest.mark.gui, pytest.mark.slow]  # Scenario 6 opened and the heuristic's first decisions

REPO = Path(__file__).resolve().parents[1]
LONGEST_TICK_GAP = 0.3  # s: the GUI thread's timer while the AI thinks (10 ms when idle; a loaded CI machine)


def test_an_ai_turn_on_scenario_6_leaves_the_window_responsive_busy_shown_and_stopped(qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(open_document(next((REPO / "scenarios").glob("s6-*.yaml"))))
    qtbot.addWidget(window)
    window.fit_screen(QRect(0, 0, 1366, 768))
    window.show()
    mode = window.play_menu.mode  # type: ignore[attr-defined]
    mode.delay = 0
    ticks: list[tuple[float, bool]] = []  # when the timer ticked, and whether the AI was thinking
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), mode.worker.busy)))
    busy_shown: list[bool] = []
    mode.worker.busy_changed.connect(lambda busy: busy_shown.append(mode.phase_bar.busy.isVisible() == busy))
    assert mode.start({"german": "heuristic", "russian": "heuristic"}, seed=6)
    timer.start()
    session = mode.session

    def thinking() -> list[float]:
        return [b - a for (a, busy_a), (b, busy_b) in pairwise(ticks) if busy_a and busy_b]

    # Half a second of thinking watched, however many decisions that takes: with the lines of sight
    # read from the cache folder (a warm CI machine), the first decisions take some 10 ms each.
    qtbot.waitUntil(lambda: session.played >= 4 and sum(thinking()) > 0.5, timeout=180_000)

    watched = thinking()
    assert max(watched) < LONGEST_TICK_GAP, f"the GUI thread waited {max(watched):.3f} s while the AI thought"
    assert busy_shown and all(busy_shown)  # the phase bar's busy indication follows the AI's thinking

    qtbot.waitUntil(lambda: mode.worker.busy, timeout=60_000)
    assert mode.phase_bar.stop_button.isEnabled()
    played = session.played
    mode.phase_bar.stop_button.click()
    assert not mode.worker.busy and not mode.phase_bar.busy.isVisible() and mode.phase_bar.pause.isChecked()
    mode.worker.wait()  # the stopped decision's thread ends by itself; its answer is dropped
    for _ in range(20):
        QApplication.processEvents()
    assert session.played == played
    timer.stop()
