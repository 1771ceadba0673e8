"""The wait cursor over an action that can take longer than a moment (0.2 s): opening, saving,
a fill, a big undo or redo, the errata preview, a heatmap.

    with busy():
        document = load(path)

The cursor is set and the pending events are processed first, so it shows at once and a
dialog just closed is repainted away instead of standing over the window; it is restored when
the block ends, also when it raises. Blocks nest (Qt keeps a stack of override cursors).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QEventLoop, Qt
from PySide6.QtWidgets import QApplication

# A terrain edit of this many hexes or more (a fill, a paste, an erratum) shows the wait cursor
# while it is applied, undone or redone: it takes about 0.1 s on Scenario 6 (docs/editor.md, "Speed").
BIG_EDIT = 200


@contextmanager
def busy() -> Iterator[None]:
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        # user input waits: a click now must not start another edit inside this one
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
        yield
    finally:
        QApplication.restoreOverrideCursor()
