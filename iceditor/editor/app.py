"""Starting the editor: a QApplication, the document opened, the main window shown."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import QElapsedTimer, QEvent, QEventLoop, Qt, QTimer
from PySide6.QtGui import QColor, QPixmap, QPixmapCache
from PySide6.QtWidgets import QApplication, QMessageBox, QSplashScreen, QWidget

from engine.model.load_errors import LOAD_FAILURES, load_failure

from .busy import busy
from .document import EditorDocument, open_document
from .view_settings import ViewSettings
from .window import MainWindow

PIXMAP_CACHE_KB = 128 * 1024  # Qt's default is 10 MB
SPLASH_EXPOSED_MS = 1000  # the longest the splash is waited for to be on screen (Qt's own limit)


def application() -> QApplication:
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(sys.argv[:1])
    app.setApplicationName("iceditor")
    app.setOrganizationName("iceditor")
    # room for every hex's cached drawing (HexItem): at Qt's 10 MB a Scenario 6 map did not fit,
    # the cache evicted the hexes scrolled past and a scroll painted their terrain again
    QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)
    return app


def load(path: Path, texts: Mapping[Path, str] | None = None) -> EditorDocument:
    """Open a file (`texts`: see open_document), or raise OpenFailed with every problem that prevents it."""
    try:
        return open_document(path, texts)
    except LOAD_FAILURES as exc:
        raise OpenFailed(load_failure(path, exc)) from None
    except RecursionError:  # nesting past a limit the loaders did not catch: the file's fault, reported as such
        raise OpenFailed(
            f"{path}: error: lists and mappings nested too deeply to read (or a value that contains itself)"
        ) from None


class OpenFailed(Exception):
    """A file the editor cannot open; the message lists why (file, line, rule)."""


def run(path: Path) -> int:
    """Open `path` in a new window and run until it is closed; a game's log (.jsonl) opens its
    scenario, then the game at its last event, in play (docs/editor.md, Playtest)."""
    opened = None
    if path.suffix == ".jsonl":
        from ..boardarg import BadInput
        from ..cli_game import replayed, scenario_of

        try:
            opened = replayed(path)
            game_path, path = path, scenario_of(path, str(opened[1].header["scenario"]))
        except BadInput as exc:  # a corrupt log, another scenario file: its line and why
            print(f"iceditor: cannot open {path}:\n{exc}", file=sys.stderr)
            return 2
    app = application()
    splash = opening(path)
    try:
        with busy():
            document = load(path)
    except OpenFailed as exc:
        splash.close()
        print(f"iceditor: cannot open {path}:\n{exc}", file=sys.stderr)
        if app.platformName() != "offscreen":  # nobody would see the dialog (scripts, CI)
            QMessageBox.critical(None, "Cannot open", str(exc))
        return 2
    with busy():
        # shown first, then checked (the longest part); the zoom and docks as the user left them
        window = MainWindow(document, validate=False, settings=ViewSettings())
    window.fit_screen()
    window.show()
    splash.finish(window)
    window.show_map()

    def settled() -> None:  # again with the window manager's borders known
        window.fit_screen()
        window.show_map()

    QTimer.singleShot(0, settled)
    window.file_opened.emit(path)
    QTimer.singleShot(0, lambda: check_shown(window))
    if opened is not None:
        QTimer.singleShot(0, lambda: window.play_menu.mode.open_game(game_path, opened))  # type: ignore[attr-defined]
    return app.exec()


def opening(path: Path) -> QSplashScreen:
    """A small window saying what is being opened, shown at once: reading the files and building
    the window take a second or two before the window itself can be shown."""
    pixmap = QPixmap(520, 80)
    pixmap.fill(QColor("#efe8d0"))
    splash = Splash(pixmap)
    splash.showMessage(f"iceditor: opening {path.name}...", Qt.AlignmentFlag.AlignCenter, QColor("#303030"))
    splash.show()
    shown, waited = splash.windowHandle(), QElapsedTimer()
    waited.start()
    while not shown.isExposed() and not waited.hasExpired(SPLASH_EXPOSED_MS):
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents, 10)
    splash.repaint()  # drawn now, before the files are read
    return splash


class Splash(QSplashScreen):
    """A QSplashScreen whose show() returns at once. Qt 6's waits in the Show event for the window
    to be exposed, which it cannot be before the show that sent the event is done: every start
    waited the whole second of its limit (offscreen and under Xvfb alike). `opening` waits after
    the show instead, until the window is exposed (at once without a window manager)."""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show:
            return QWidget.event(self, event)
        return super().event(event)


def check_shown(window: MainWindow) -> None:
    """Validate what a window shows, under the wait cursor, saying so in the status bar."""
    window.statusBar().showMessage(f"Checking {window.document.path.name}...")
    with busy():
        window.refresh_problems()
    window.statusBar().clearMessage()  # done: the counts stand at the status bar's right
