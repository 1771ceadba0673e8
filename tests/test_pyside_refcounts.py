"""PySide6 6.12.0 on Python 3.11 drops a reference to True/False on every bool signal and to
None on every void call; the editor died after about 1,300 actions (iceditor/editor/pyside_refcounts.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gui

LONG_SESSION = textwrap.dedent(
    """
    import iceditor.editor  # the guard, as the editor imports it
    from PySide6.QtGui import QAction, QUndoStack, QUndoCommand
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication([])
    seen = []
    action = QAction("toggle")
    action.setCheckable(True)
    action.toggled.connect(lambda checked: seen.append(checked))
    stack = QUndoStack()
    stack.cleanChanged.connect(lambda clean: seen.append(clean))
    label = QLabel()
    for i in range(20_000):
        action.setChecked(not action.isChecked())
        label.setText(str(i))
    for _ in range(2_000):
        stack.push(QUndoCommand("edit"))
        stack.undo()
    assert len(seen) >= 20_000
    print("clean exit")
    """
)


def test_20000_bool_signals_and_void_calls_then_a_clean_exit() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", LONG_SESSION], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert "dealloc" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("clean exit")
