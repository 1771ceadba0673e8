"""Autosave: while the document has unsaved edits, its edited files are copied every `seconds`
(and after `edits` edits) to a folder of their own, never over the user's files:
`<AppDataLocation>/autosave/<hash of the document's path>/`, with `autosave.json` naming the
file each copy stands for. Saving, or closing the window with the user's agreement, removes it.

When the user opens a file (at start or File > Open) whose autosave is newer than its files
(the editor did not close cleanly), the editor offers to restore it. Restoring opens the
autosaved text as the document's initial state, marked unsaved: the history starts there, and
the file on disk stays as it was until Save (Discard on closing gives the restored edits up).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

from ..app import OpenFailed, load
from ..document import EditorDocument, atomic_write
from ..window import MainWindow

MANIFEST = "autosave.json"


@dataclass
class AutosaveSettings:
    """Where and how often (tests set their own)."""

    folder: Path | None = None  # None: the platform's application data folder, `autosave/` in it
    seconds: float = 60.0
    edits: int = 20


SETTINGS = AutosaveSettings()


def autosave_folder(document_path: Path) -> Path:
    root = SETTINGS.folder or Path(
        QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation), "autosave"
    )
    return root / hashlib.sha256(str(document_path.resolve()).encode()).hexdigest()[:16]


def write_autosave(document: EditorDocument, folder: Path) -> None:
    """Copy the document's edited files into `folder`; the manifest goes last, so a copy cut short
    is never taken for a whole autosave."""
    files = {}
    for i, f in enumerate(document.files()):
        if f.dirty:
            copy = folder / f"{i}-{f.path.name}"
            atomic_write(copy, f.text())
            files[str(f.path.resolve())] = copy.name
    manifest = {"document": str(document.path.resolve()), "time": time.time(), "files": files}
    atomic_write(folder / MANIFEST, json.dumps(manifest, indent=2) + "\n")


@dataclass(frozen=True)
class Autosaved:
    """An autosave found on disk."""

    folder: Path
    time: float
    files: dict[Path, Path]  # the user's file -> its autosaved copy

    @classmethod
    def find(cls, document_path: Path) -> Autosaved | None:
        folder = autosave_folder(document_path)
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            return cls(folder, float(manifest["time"]), {Path(k): folder / v for k, v in manifest["files"].items()})
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def newer(self) -> bool:
        """Written after every file it stands for was last saved: edits that were never saved."""
        return all(not f.exists() or f.stat().st_mtime < self.time for f in self.files)

    def texts(self) -> dict[Path, str]:
        return {f: copy.read_text(encoding="utf-8") for f, copy in self.files.items()}


class Autosave(QObject):
    """Writes the window's autosave and offers one back when a file is opened."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("autosave")
        self.window = window
        self.folder = autosave_folder(window.document.path)
        self.written = False  # this window wrote `folder` (an autosave it found is not its to remove)
        self.edits = 0  # edits since the last autosave
        self.timer = QTimer(self, interval=int(SETTINGS.seconds * 1000))
        self.timer.timeout.connect(self._tick)
        self.timer.start()
        window.undo_stack.indexChanged.connect(self._edited)
        window.saved.connect(self._saved)
        window.closed.connect(self._closed)
        window.document_replaced.connect(self._replaced)
        window.file_opened.connect(self.offer)

    def write(self) -> None:
        document = self.window.document
        if not document.dirty:
            return
        try:
            write_autosave(document, self.folder)
        except OSError as exc:  # never in the way of editing: say so and try again later
            self.window.statusBar().showMessage(f"Autosave failed: {exc.strerror or exc}", 5000)
            return
        self.written, self.edits = True, 0

    def _edited(self) -> None:
        self.edits += 1
        if self.edits >= SETTINGS.edits:
            self.write()

    def _tick(self) -> None:
        if self.edits:
            self.write()

    def _remove(self, folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        self.written, self.edits = False, 0

    def _saved(self) -> None:
        """Saved: no autosave is needed, under the old name (before Save As) or the new one."""
        self._remove(self.folder)
        self.folder = autosave_folder(self.window.document.path)
        self._remove(self.folder)

    def _closed(self) -> None:
        if self.written:
            self._remove(self.folder)

    def _replaced(self, document: EditorDocument) -> None:
        """Another document: the edits given up with the old one leave no autosave; a document that
        opens with unsaved edits (a new map, a restored autosave) is autosaved at once."""
        if self.written:
            self._remove(self.folder)
        self.folder = autosave_folder(document.path)
        self.edits = 0
        self.write()

    def offer(self, path: Path) -> bool:
        """After opening `path`: if it has edits autosaved and never saved, offer them back; True if restored."""
        found = Autosaved.find(path)
        if found is None or not found.newer():
            return False
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(found.time))
        names = ", ".join(sorted(f.name for f in found.files))
        answer = QMessageBox.question(
            self.window,
            "Restore unsaved edits?",
            f"The editor did not close cleanly: edits to {names} autosaved at {when} were never saved.\n\n"
            "Restore them as unsaved edits? Discard deletes the autosave.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard,
            QMessageBox.StandardButton.Yes,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self._remove(found.folder)
            return False
        try:
            texts = found.texts()
            document = load(path, texts)
        except (OSError, OpenFailed) as exc:
            QMessageBox.critical(self.window, "Cannot restore", f"The autosave {found.folder} cannot be read:\n\n{exc}")
            return False
        missing = set(texts) - {f.path.resolve() for f in document.files()}
        if missing:  # all or nothing: the scenario no longer opens those files
            QMessageBox.critical(
                self.window,
                "Cannot restore",
                f"{path.name} no longer opens {', '.join(sorted(map(str, missing)))}; the autosave stays in "
                f"{found.folder}",
            )
            return False
        self.window.set_document(document)
        return True


def install(window: MainWindow) -> None:
    Autosave(window)
