"""Starting the editor: a QApplication, the document opened, the main window shown."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from engine.model.mapsheet import LoadError
from engine.model.source import SourceError

from .document import EditorDocument, open_document
from .window import MainWindow


def application() -> QApplication:
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    app = QApplication(sys.argv[:1])
    app.setApplicationName("iceditor")
    app.setOrganizationName("iceditor")
    return app


def load(path: Path, texts: Mapping[Path, str] | None = None) -> EditorDocument:
    """Open a file (`texts`: see open_document), or raise OpenFailed with every problem that prevents it."""
    try:
        return open_document(path, texts)
    except SourceError as exc:
        raise OpenFailed(f"{exc.file}:{exc.line}:{exc.column}: {exc.message}") from None
    except LoadError as exc:
        raise OpenFailed("\n".join(p.text() for p in exc.problems)) from None
    except (FileNotFoundError, ValueError) as exc:
        raise OpenFailed(f"{path}: {exc}") from None


class OpenFailed(Exception):
    """A file the editor cannot open; the message lists why (file, line, rule)."""


def run(path: Path) -> int:
    """Open `path` in a new window and run until it is closed."""
    app = application()
    try:
        document = load(path)
    except OpenFailed as exc:
        print(f"iceditor: cannot open {path}:\n{exc}", file=sys.stderr)
        if app.platformName() != "offscreen":  # nobody would see the dialog (scripts, CI)
            QMessageBox.critical(None, "Cannot open", str(exc))
        return 2
    window = MainWindow(document)
    window.show()
    window.fit()
    window.file_opened.emit(path)
    return app.exec()
