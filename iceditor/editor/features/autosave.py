"""Autosave: while the document has unsaved edits, its edited files are copied every `seconds`
(and after `edits` edits) to a folder of their own, never over the user's files:
`<AppDataLocation>/autosave/<hash of the document's path>/`, with `autosave.json` naming the
file each copy stands for. Saving, or closing the window with the user's agreement, removes it.

The copies of one autosave are one set, written so that a kill at any moment leaves the last
whole set: each round's copies have names of their own, the manifest (with each copy's SHA-256)
is written last, atomically, and only then are the previous round's copies removed. A set whose
copies do not match its manifest is never restored: the user is told, and it is moved aside.

When the user opens a file (at start or File > Open) whose autosave is newer than its files
(the editor did not close cleanly), the editor offers to restore it. Restoring opens the
autosaved text as the document's initial state, marked unsaved: the history starts there, but
its clean state is the file on disk (undoing back to the start leaves it unsaved), and the file
on disk stays as it was until Save (Discard on closing gives the restored edits up).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

from engine.file_writing import atomic_write, remove_stale_temps_in

from ..app import OpenFailed, load
from ..document import EditorDocument
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
    """Copy the document's unsaved files into `folder` as one set (see the module's docstring)."""
    round_name = f"{time.time_ns():x}"
    files = {}
    for i, f in enumerate(document.files()):
        text = f.text() if f.dirty else f.on_disk
        if text == f.on_disk:
            continue
        assert text is not None
        copy = folder / f"{round_name}-{i}-{f.path.name}"
        atomic_write(copy, text)
        files[str(f.path.resolve())] = {"copy": copy.name, "sha256": _checksum(text)}
    if not files:  # every edit undone: nothing to restore
        shutil.rmtree(folder, ignore_errors=True)
        return
    manifest = {"document": str(document.path.resolve()), "time": time.time(), "files": files}
    atomic_write(folder / MANIFEST, json.dumps(manifest, indent=2) + "\n")
    kept = {entry["copy"] for entry in files.values()}
    for old in folder.iterdir():
        if COPY.fullmatch(old.name) and old.name not in kept:
            old.unlink(missing_ok=True)
    remove_stale_temps_in(folder)  # a round killed mid-write


COPY = re.compile(r"[0-9a-f]+-\d+-.+")  # a round's copy: `<round>-<index in the document>-<name>`


def _checksum(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class DamagedAutosave(Exception):
    """An autosave whose copies do not match its manifest (cut short, or changed since)."""


@dataclass(frozen=True)
class Autosaved:
    """An autosave found on disk."""

    folder: Path
    time: float
    files: dict[Path, tuple[Path, str]]  # the user's file -> its autosaved copy and the copy's SHA-256

    @classmethod
    def find(cls, document_path: Path) -> Autosaved | None:
        folder = autosave_folder(document_path)
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            files = {Path(k): (folder / v["copy"], str(v["sha256"])) for k, v in manifest["files"].items()}
            return cls(folder, float(manifest["time"]), files)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError):  # a manifest that cannot be read: no set to trust
            return cls(folder, float("inf"), {})

    def newer(self) -> bool:
        """Written after every file it stands for was last saved: edits that were never saved."""
        return all(not f.exists() or f.stat().st_mtime < self.time for f in self.files)

    def texts(self) -> dict[Path, str]:
        """The autosaved text of each file; DamagedAutosave unless every copy matches the manifest."""
        if not self.files:
            raise DamagedAutosave(f"its manifest {self.folder / MANIFEST} cannot be read")
        texts = {}
        for f, (copy, checksum) in self.files.items():
            try:
                text = copy.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise DamagedAutosave(f"the copy of {f.name} cannot be read ({exc})") from None
            if _checksum(text) != checksum:
                raise DamagedAutosave(f"the copy of {f.name} is not the one its manifest names (its SHA-256 differs)")
            texts[f] = text
        return texts

    def put_aside(self) -> Path:
        """Move the set out of the way (it is never offered again); where it went."""
        aside = self.folder.with_name(f"{self.folder.name}-damaged-{time.time_ns():x}")
        self.folder.rename(aside)
        return aside


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
        try:
            texts = found.texts()
        except DamagedAutosave as exc:
            try:
                where = f"it was moved to {found.put_aside()}"
            except OSError as error:
                where = f"it stays in {found.folder} ({error.strerror or error})"
            QMessageBox.warning(
                self.window,
                "Autosave not restored",
                f"An autosave of {path.name} was found, but it is not whole: {exc}. Restoring it could "
                f"give a state the editor never had, so it was not restored; {where}.",
            )
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
            document = load(path, texts)
        except OpenFailed as exc:
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
