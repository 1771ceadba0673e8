"""Never losing work in the editor: File menu (new map, open, save, save as, quit), atomic saves
that fail cleanly, autosave and its recovery after a crash, asking before unsaved edits are lost,
broken files reported whole, and errata previewed, applied, undone and redone.

Every test works on copies in tmp_path, with the autosave folder there too."""

from __future__ import annotations

import difflib
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import shiboken6
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox

from engine import file_writing
from engine.model.terrain import CLEAR, Terrain
from engine.validate.errata_impact import ErrataImpact
from engine.validate.runner import map_problems
from iceditor.editor import app as app_module
from iceditor.editor import document as document_module
from iceditor.editor.commands import DataCommand
from iceditor.editor.document import Roads, open_document
from iceditor.editor.features import autosave, file_menu
from iceditor.editor.features.autosave import MANIFEST, Autosave, AutosaveSettings, autosave_folder
from iceditor.editor.features.errata_panel import ErrataPanel
from iceditor.editor.features.file_menu import FileMenu, NewMap, NewMapDialog
from iceditor.editor.window import MainWindow

from .conftest import SPEC_MAP

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]
Button = QMessageBox.StandardButton


@pytest.fixture
def workspace(workspace: Path) -> Path:
    """The copies of the bundled data (conftest), and the spec's small map with its comments."""
    (workspace / "small.yaml").write_text(SPEC_MAP, encoding="utf-8")
    return workspace


@pytest.fixture(autouse=True)
def autosave_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AutosaveSettings:
    """Autosaves go to tmp_path, and only when a test asks for them."""
    settings = AutosaveSettings(folder=tmp_path / "autosave", seconds=3600, edits=1000)
    monkeypatch.setattr(autosave, "SETTINGS", settings)
    return settings


class Dialogs:
    """QMessageBox answered as a script says (Discard once the script runs out; a question with
    choices of its own, `file_menu.choose`, is answered by the choice's text, Cancel once the
    script runs out), every text kept."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answers: list[QMessageBox.StandardButton | str] = []
        self.shown: list[tuple[str, str, str]] = []  # (kind, title, text)
        self.warned: list[bool] = []  # for each `choose`: shown as a warning (a bundled file)
        for kind in ("question", "warning", "critical", "information"):
            monkeypatch.setattr(QMessageBox, kind, self._box(kind))
        monkeypatch.setattr(file_menu, "choose", self._choose)

    def _choose(self, parent: object, title: str, text: str, choices: list[str], warn: bool = False) -> str | None:
        self.shown.append(("choose", title, text))
        self.warned.append(warn)
        answer = self.answers.pop(0) if self.answers else None
        assert answer is None or answer in choices, (answer, choices)
        return answer

    def _box(self, kind: str) -> Callable[..., QMessageBox.StandardButton]:
        def box(parent: object, title: str, text: str, *args: object) -> QMessageBox.StandardButton:
            self.shown.append((kind, title, text))
            return self.answers.pop(0) if self.answers else Button.Discard

        return box

    def texts(self, kind: str) -> list[str]:
        return [text for k, _, text in self.shown if k == kind]


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Dialogs:
    return Dialogs(monkeypatch)


@pytest.fixture
def window_on(qtbot, dialogs: Dialogs) -> Callable[..., MainWindow]:
    """A window shown on a file; `crashes=True`: not closed at the end (the test deletes it)."""

    def make(path: Path, crashes: bool = False) -> MainWindow:
        window = MainWindow(open_document(path))
        if not crashes:
            qtbot.addWidget(window)
        with qtbot.waitActive(window):  # shortcuts reach the active window only
            window.show()
            window.activateWindow()
        return window

    return make


def files(window: MainWindow) -> FileMenu:
    found = window.findChild(FileMenu)
    assert found is not None
    return found


def choose_file(monkeypatch: pytest.MonkeyPatch, dialog: str, path: Path | None) -> None:
    """The file dialog answers `path` (None: the user cancels)."""
    monkeypatch.setattr(QFileDialog, dialog, lambda *args, **kwargs: (str(path) if path else "", ""))


def press(
    window: MainWindow, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.ControlModifier
) -> None:
    QTest.keyClick(window.view, key, modifiers)


def scenario(workspace: Path, number: int) -> Path:
    return next((workspace / "scenarios").glob(f"s{number}-*.yaml"))


def comments(text: str) -> list[str]:
    return [line[line.index("#") :] for line in text.splitlines() if "#" in line]


# -- save, reload, save as -------------------------------------------------------------------


def test_save_keeps_comments_and_key_order_and_reloads_the_same_board(workspace: Path, window_on) -> None:
    path = workspace / "small.yaml"
    window = window_on(path)
    board = window.document.board
    window.paint("Trees", {board.hex("1102"): Terrain(trees=3), board.hex("1204"): Terrain(level=2, hill="K")})
    assert window.windowTitle().startswith("*small.yaml")
    press(window, Qt.Key.Key_S)
    assert window.windowTitle() == "small.yaml - iceditor"
    assert window.undo_stack.isClean() and not window.document.dirty
    text = path.read_text(encoding="utf-8")
    assert comments(text) == comments(SPEC_MAP)  # every comment, in its place
    assert list(yaml.safe_load(text)) == ["format", "name", "grid", "hexes", "roads"]
    assert '"1102": {trees: 3}' in text and '"1204": {level: 2, hill: K}' in text
    reloaded = open_document(path).board
    assert {h: reloaded.terrain(h) for h in reloaded.hexes} == {h: board.terrain(h) for h in board.hexes}


def test_a_scenarios_maps_are_parsed_for_writing_only_when_first_written(workspace: Path, monkeypatch) -> None:
    """Opening Scenario 6 builds the round-trip data of the scenario alone (its panels edit it);
    a map's is built when its text is first asked for, and the edit is written over it as ever."""
    parsed: list[str] = []
    make = document_module._yaml

    def counting(width: int = 4096) -> Any:
        made = make(width)
        load = made.load
        made.load = lambda text: (parsed.append(text[:40]), load(text))[1]
        return made

    monkeypatch.setattr(document_module, "_yaml", counting)
    document = open_document(workspace / "scenarios" / "s6-spartakovka.yaml")
    assert len(parsed) == 1 and len(document.maps) == 2
    first = document.maps[0]
    h = next(h for h in document.board.hexes if first.holds(h) and document.printed(h) == CLEAR)
    document.set_printed({h: Terrain(trees=2)})
    text = first.text()
    assert len(parsed) == 2 and f'"{first.sheet.label(h)}": {{trees: 2}}' in text
    assert first.text() == text and len(parsed) == 2  # parsed once


def test_save_as_moves_the_document_and_leaves_the_old_file(workspace: Path, window_on, monkeypatch) -> None:
    path, other = workspace / "small.yaml", workspace / "copies" / "small-2.yaml"
    window = window_on(path)
    window.paint("Marsh", {window.document.board.hex("1301"): Terrain(marsh=True)})
    choose_file(monkeypatch, "getSaveFileName", other)
    press(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.document.path == other and window.windowTitle() == "small-2.yaml - iceditor"
    assert path.read_text(encoding="utf-8") == SPEC_MAP
    assert '"1301": {marsh: true}' in other.read_text(encoding="utf-8")
    assert comments(other.read_text(encoding="utf-8"))[:3] == comments(SPEC_MAP)[:3]


def test_save_as_of_a_scenario_warns_when_its_maps_would_not_follow(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    """A scenario names its maps (`map2`) relative to its folder (formats.md): saved beside them it
    finds the same files; saved elsewhere, the user is told which files it would open instead."""
    original = scenario(workspace, 1)
    window = window_on(original)
    window.paint("Trees", {window.document.board.hex("4307"): Terrain(trees=2)})
    menu = files(window)
    dialogs.answers = ["Save over the originals", Button.Cancel]
    assert not menu.save_as(workspace / "far" / "away" / "s1.yaml")  # map2 there: the bundled one
    assert "map map2" in dialogs.texts("warning")[0] and not (workspace / "far").exists()
    assert window.document.dirty
    target = workspace / "scenarios" / "s1-copy.yaml"
    dialogs.answers = ["Save over the originals"]
    assert menu.save_as(target)
    assert window.document.scenario is not None and window.document.scenario.path == target
    assert not window.document.dirty and window.undo_stack.isClean() and len(dialogs.texts("warning")) == 1
    named = {p.file for p in window.problems}
    assert str(target) in named and str(original) not in named  # problems name the new file
    reopened = open_document(target)
    assert reopened.board.terrain(reopened.board.hex("4307")).trees == 2


def test_new_map_then_save_as_then_open(workspace: Path, window_on, monkeypatch) -> None:
    window = window_on(scenario(workspace, 1))
    menu = files(window)
    assert menu.new_map(NewMap("Test Ground", (10, 14), (1, 9), "odd-q"))
    document = window.document
    assert len(document.board.hexes) == 5 * 9 and document.board.offset.value == "odd-q"
    assert len(window.scene.items_by_hex) == 45 and window.undo_stack.count() == 0
    assert len(window.scene.layers["terrain"].childItems()) == 45  # Scenario 1's hexes are gone
    assert window.windowTitle() == "*test-ground.yaml - iceditor" and menu.untitled
    assert not (workspace / "scenarios" / "test-ground.yaml").exists()  # in memory only
    window.paint("Trees", {document.board.hex("1203"): Terrain(trees=2)})
    target = workspace / "new" / "ground.yaml"
    choose_file(monkeypatch, "getSaveFileName", target)
    press(window, Qt.Key.Key_S)  # Save on a new map asks where: Save As
    assert target.is_file() and not menu.untitled and window.windowTitle() == "ground.yaml - iceditor"
    text = target.read_text(encoding="utf-8")
    assert "offset: odd-q" in text and '"1203": {trees: 2}' in text and "# hexes not listed" in text
    saved = open_document(target)
    assert not [p for p in map_problems(saved.maps[0].sheet) if p.severity.name == "ERROR"]
    choose_file(monkeypatch, "getOpenFileName", workspace / "small.yaml")
    press(window, Qt.Key.Key_O)
    assert window.document.path == workspace / "small.yaml"
    choose_file(monkeypatch, "getOpenFileName", target)
    press(window, Qt.Key.Key_O)
    reopened = window.document
    assert reopened.path == target and reopened.board.terrain(reopened.board.hex("1203")) == Terrain(trees=2)
    assert len(window.scene.items_by_hex) == 45


def test_a_new_map_named_like_a_file_there_gets_a_name_of_its_own(workspace: Path, window_on) -> None:
    window = window_on(workspace / "small.yaml")
    assert files(window).new_map(NewMap("Small", (1, 2), (1, 2)))
    assert window.document.path == workspace / "small-2.yaml" and not window.document.path.exists()


def test_the_new_map_dialog_refuses_an_empty_name_or_a_range_backwards(qtbot) -> None:
    dialog = NewMapDialog()
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    dialog.name.setText("Ridge")
    dialog.ranges[0].setValue(20)
    dialog.ranges[1].setValue(12)
    assert not ok.isEnabled()
    dialog.ranges[1].setValue(24)
    dialog.offset.setCurrentIndex(1)
    assert ok.isEnabled()
    assert dialog.new_map() == NewMap("Ridge", (20, 24), (1, 27), "odd-q")
    dialog.name.setText("  ")
    assert not ok.isEnabled()


# -- a save that fails -----------------------------------------------------------------------


def test_a_save_that_fails_midway_leaves_the_file_intact_and_says_why(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch
) -> None:
    path = workspace / "small.yaml"
    window = window_on(path)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    real_fdopen = os.fdopen

    def half_then_full(fd: int, *args: object, **kwargs: object):  # the disk fills up halfway through
        out = real_fdopen(fd, *args, **kwargs)
        real_write = out.write

        def write(text: str) -> int:
            real_write(text[: len(text) // 2])
            out.flush()
            raise OSError(28, "No space left on device")

        out.write = write
        return out

    monkeypatch.setattr(file_writing.os, "fdopen", half_then_full)
    press(window, Qt.Key.Key_S)
    assert path.read_text(encoding="utf-8") == SPEC_MAP
    assert sorted(p.name for p in workspace.iterdir()) == ["autosave", "maps", "scenarios", "small.yaml"] or sorted(
        p.name for p in workspace.iterdir()
    ) == ["maps", "scenarios", "small.yaml"]  # no temporary file left behind
    assert "No space left on device" in dialogs.texts("critical")[0] and "small.yaml" in dialogs.texts("critical")[0]
    assert window.document.dirty and not window.undo_stack.isClean() and window.windowTitle().startswith("*")
    monkeypatch.setattr(file_writing.os, "fdopen", real_fdopen)
    press(window, Qt.Key.Key_S)
    assert '"1102": {trees: 3}' in path.read_text(encoding="utf-8") and not window.document.dirty


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_save_into_a_read_only_folder_fails_cleanly(workspace: Path, window_on, dialogs: Dialogs) -> None:
    folder = workspace / "locked"
    folder.mkdir()
    path = folder / "small.yaml"
    path.write_text(SPEC_MAP, encoding="utf-8")
    window = window_on(path)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    folder.chmod(0o555)
    try:
        assert not files(window).save()
    finally:
        folder.chmod(0o755)
    assert path.read_text(encoding="utf-8") == SPEC_MAP and [p.name for p in folder.iterdir()] == ["small.yaml"]
    assert "could not be written" in dialogs.texts("critical")[0] and window.document.dirty


# -- asking before edits are lost ------------------------------------------------------------


def test_closing_asks_cancel_keeps_discard_closes_save_saves(workspace: Path, window_on, dialogs: Dialogs) -> None:
    path = workspace / "small.yaml"
    window = window_on(path)
    h = window.document.board.hex("1102")
    window.paint("Trees", {h: Terrain(trees=3)})
    dialogs.answers = [Button.Cancel]
    assert not window.close()
    assert window.isVisible() and window.document.printed(h).trees == 3
    assert dialogs.texts("question")[0] == f"Unsaved changes in {workspace}:\n  small.yaml\n\nSave them before closing?"
    dialogs.answers = [Button.Save]
    assert window.close()
    assert '"1102": {trees: 3}' in path.read_text(encoding="utf-8")

    other = window_on(path)
    other.paint("Trees", {other.document.board.hex("1301"): Terrain(trees=4)})
    dialogs.answers = [Button.Discard]
    press(other, Qt.Key.Key_Q)  # Quit asks too
    assert not other.isVisible() and '"1301"' not in path.read_text(encoding="utf-8")


def test_open_and_new_map_ask_first_and_cancel_keeps_everything(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch
) -> None:
    window = window_on(workspace / "small.yaml")
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    before = window.document
    dialogs.answers = [Button.Cancel, Button.Cancel]
    choose_file(monkeypatch, "getOpenFileName", scenario(workspace, 1))
    press(window, Qt.Key.Key_O)
    assert not files(window).new_map(NewMap("Other", (1, 3), (1, 3)))
    assert window.document is before and window.undo_stack.count() == 1
    assert [t.split("Save them")[1] for t in dialogs.texts("question")] == [
        " before opening s1-demyansk-pocket.yaml?",
        " before starting a new map?",
    ]


def test_a_save_asked_for_on_closing_a_new_map_asks_where_and_cancel_keeps_it_open(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch
) -> None:
    window = window_on(workspace / "small.yaml")
    files(window).new_map(NewMap("Fresh", (1, 4), (1, 4)))
    choose_file(monkeypatch, "getSaveFileName", None)
    dialogs.answers = [Button.Save]
    assert not window.close() and window.isVisible()
    choose_file(monkeypatch, "getSaveFileName", workspace / "fresh.yaml")
    dialogs.answers = [Button.Save]
    assert window.close() and (workspace / "fresh.yaml").is_file()


# -- a file that fails to load ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("broken", "expected"),
    [
        (
            "format: iron-cross-map/1\nname: Bad\ngrid: {columns: [10, 14], rows: [1, 9]\n",
            ":4:1: error: not valid YAML",
        ),
        (
            "format: iron-cross-map/1\nname: Bad\ngrid: {columns: [10, 14], rows: [1, 9]}\n"
            'hexes:\n  "1203": {trees: 12}\n',
            "broken.yaml:5:",
        ),
        ("format: iron-cross-counters/1\nsquads: []\n", "the editor opens scenarios and maps"),
    ],
    ids=["not-yaml", "schema", "not-a-map"],
)
def test_a_file_that_fails_to_load_is_reported_and_nothing_changes(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch, broken: str, expected: str
) -> None:
    window = window_on(workspace / "small.yaml")
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    before, title, items = window.document, window.windowTitle(), len(window.scene.items_by_hex)
    bad = workspace / "broken.yaml"
    bad.write_text(broken, encoding="utf-8")
    dialogs.answers = [Button.Discard]  # even when the edits are given up, they stay until the file loads
    choose_file(monkeypatch, "getOpenFileName", bad)
    press(window, Qt.Key.Key_O)
    report = dialogs.texts("critical")[0]
    assert "broken.yaml cannot be opened; nothing was changed" in report and expected in report
    assert window.document is before and window.windowTitle() == title and len(window.scene.items_by_hex) == items
    assert window.undo_stack.count() == 1


def test_a_scenario_whose_map_is_broken_names_the_map_and_its_rule(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    target = scenario(workspace, 1)
    window = window_on(workspace / "small.yaml")
    map2 = workspace / "maps" / "map2.yaml"
    map2.write_text(map2.read_text(encoding="utf-8").replace("offset: even-q", "offset: sideways"), encoding="utf-8")
    assert not files(window).open(target)
    report = dialogs.texts("critical")[0]
    assert "map2.yaml:" in report and "sideways" in report and "[" in report  # file, line, check code
    assert window.document.path == workspace / "small.yaml"


# -- autosave ---------------------------------------------------------------------------------


def test_autosave_while_dirty_then_recovered_after_a_crash(
    workspace: Path, window_on, dialogs: Dialogs, autosave_here: AutosaveSettings
) -> None:
    autosave_here.edits = 3
    path = scenario(workspace, 1)
    map2 = workspace / "maps" / "map2.yaml"
    on_disk = {p: p.read_bytes() for p in (path, map2)}
    window = window_on(path, crashes=True)
    board = window.document.board
    a, b = board.hex("4307"), board.hex("4512")
    data = window.document.scenario.data

    def retitle(title: str) -> None:
        data["title"] = title
        window.document.scenario_changed()

    window.undo_stack.push(DataCommand("Title", lambda: retitle("Demyansk"), lambda: retitle("Demyansk Pocket")))
    window.paint("Trees", {a: Terrain(trees=3)})
    folder = autosave_folder(path)
    assert not folder.exists()  # two edits: not yet
    window.paint("Marsh", {b: Terrain(marsh=True)})
    copies = {p.name.split("-", 1)[1]: p for p in folder.iterdir() if p.name != MANIFEST}  # `<round>-<index>-<name>`
    assert sorted(copies) == ["0-s1-demyansk-pocket.yaml", "1-map2.yaml"] and (folder / MANIFEST).is_file()
    assert '"4512": {marsh: true}' in copies["1-map2.yaml"].read_text(encoding="utf-8")
    assert "title: Demyansk\n" in copies["0-s1-demyansk-pocket.yaml"].read_text(encoding="utf-8")
    assert {p: p.read_bytes() for p in on_disk} == on_disk  # never over the user's files

    window.hide()
    shiboken6.delete(window)  # a crash: no close, no question, no clean-up

    again = window_on(workspace / "small.yaml")
    dialogs.answers = [Button.Yes]
    assert files(again).open(path)
    assert "autosaved at" in dialogs.texts("question")[0] and "map2.yaml" in dialogs.texts("question")[0]
    restored = again.document
    assert restored.path == path and restored.printed(a) == Terrain(trees=3) and restored.printed(b).marsh
    assert restored.board.terrain(b).marsh and again.windowTitle().startswith("*")
    assert again.undo_stack.count() == 0  # the restored edits are where the history starts
    assert restored.maps[0].dirty and restored.scenario.dirty and restored.scenario.data["title"] == "Demyansk"
    assert {p: p.read_bytes() for p in on_disk} == on_disk
    assert (folder / MANIFEST).is_file()  # still unsaved: still autosaved
    dialogs.answers = ["Save"]  # Save names both files first: the scenario and its map
    press(again, Qt.Key.Key_S)
    assert dialogs.texts("choose")[-1].startswith(f"Save writes 2 files in {workspace}:\n")
    assert not folder.exists() and '"4512": {marsh: true}' in map2.read_text(encoding="utf-8")
    assert "title: Demyansk\n" in path.read_text(encoding="utf-8")


def test_autosave_on_the_timer_and_removed_by_a_clean_close(
    workspace: Path, window_on, dialogs: Dialogs, autosave_here: AutosaveSettings, qtbot
) -> None:
    autosave_here.seconds = 0.05
    path = workspace / "small.yaml"
    window = window_on(path)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    folder = autosave_folder(path)
    qtbot.waitUntil(lambda: (folder / MANIFEST).is_file(), timeout=3000)
    dialogs.answers = [Button.Discard]
    assert window.close()
    assert not folder.exists() and path.read_text(encoding="utf-8") == SPEC_MAP


def test_a_declined_restore_deletes_the_autosave_and_a_stale_one_is_not_offered(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    path = workspace / "small.yaml"
    window = window_on(path, crashes=True)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    window.findChild(Autosave).write()
    window.hide()
    shiboken6.delete(window)
    folder = autosave_folder(path)
    again = window_on(scenario(workspace, 1))
    dialogs.answers = [Button.Discard]
    assert files(again).open(path) and not again.document.dirty and not folder.exists()

    again.paint("Trees", {again.document.board.hex("1102"): Terrain(trees=3)})
    again.findChild(Autosave).write()
    os.utime(path, (os.path.getmtime(folder / MANIFEST) + 5,) * 2)  # the file was saved after the autosave
    questions = len(dialogs.texts("question"))
    assert not again.findChild(Autosave).offer(path)
    assert len(dialogs.texts("question")) == questions


# -- errata -----------------------------------------------------------------------------------

ERRATA = """\
format: iron-cross-errata/1
name: Test errata
changes:
  - hexes: ["4307", "1307"]     # 1307 is on Map 1: not on Scenario 1's board, skipped
    set: {trees: 3}
    printed: "Hex 4307 has three trees."
  - hexes: ["4512"]
    set: {level: 1, hill: Q}
    printed: "4512 is level 1."
  - hexes: ["4001"]
    set: {marsh: false}
    printed: "4001 is not marsh (it never was: changes nothing)."
"""


def test_errata_preview_apply_undo_redo(workspace: Path, window_on, dialogs: Dialogs, monkeypatch, qtbot) -> None:
    window = window_on(scenario(workspace, 1))
    panel = window.findChild(ErrataPanel)
    errata_file = workspace / "test-errata.yaml"
    errata_file.write_text(ERRATA, encoding="utf-8")
    board = window.document.board
    a, b = board.hex("4307"), board.hex("4512")
    before = {h: window.document.printed(h) for h in (a, b)}
    choose_file(monkeypatch, "getOpenFileName", errata_file)
    load = next(x for x in window.menus["Errata"].actions() if x.text() == "&Load errata file...")
    load.trigger()
    assert panel.dock.isVisible() and set(panel.highlight.hexes) == {a, b}
    assert panel.highlight.parentItem() is window.scene.layers["overlays"]
    assert "2 hexes of these maps change" in panel.heading.text()
    qtbot.waitUntil(lambda: isinstance(panel.impact, ErrataImpact), timeout=30000)
    impact = panel.impact
    assert {board.hex(c.hex) for c in impact.hexes} == {a, b}  # the engine's count is the preview's
    sections = [panel.report.topLevelItem(i).text(0) for i in range(panel.report.topLevelItemCount())]
    assert sections[0].startswith("LOS, both ends UP: ") and sections[-1] == "Hexes (2)"
    assert f"{impact.sight_changes:,} of {impact.pairs:,} pairs change" in sections[0]
    assert any(s.startswith("Named zones:") for s in sections) and any(s.startswith("Turn counts") for s in sections)
    assert window.undo_stack.count() == 0 and window.document.printed(a) == before[a]  # a preview changes nothing

    panel.apply_button.click()
    assert window.undo_stack.count() == 1 and window.undo_stack.text(0) == "Apply errata Test errata"
    assert window.document.printed(a).trees == 3 and window.document.printed(b) == before[b].changed(
        {"level": 1, "hill": "Q"}
    )
    assert board.terrain(b).level == 1 and not panel.highlight.hexes and window.document.maps[0].dirty
    window.undo_stack.undo()
    assert {h: window.document.printed(h) for h in (a, b)} == before and board.terrain(b).level == 0
    window.undo_stack.redo()
    assert window.document.printed(a).trees == 3 and board.terrain(b).level == 1


def test_errata_cancelled_broken_or_left_by_opening_change_nothing(
    workspace: Path, window_on, dialogs: Dialogs, qtbot
) -> None:
    window = window_on(workspace / "small.yaml")
    panel = window.findChild(ErrataPanel)
    errata_file = workspace / "e.yaml"
    errata_file.write_text(ERRATA.replace('"4307", "1307"', '"1203", "4307"'), encoding="utf-8")
    assert panel.load(errata_file)
    h = window.document.board.hex("1203")
    assert set(panel.highlight.hexes) == {h} and "measured for a scenario" in panel.report.topLevelItem(0).text(0)
    panel.cancel_button.click()
    assert not panel.highlight.hexes and window.undo_stack.count() == 0 and not panel.apply_button.isEnabled()
    errata_file.write_text(ERRATA.replace("set: {trees: 3}", "set: {trees: many}"), encoding="utf-8")
    assert not panel.load(errata_file)
    assert "e.yaml:5:18: error: /changes/0/set/trees" in dialogs.texts("critical")[0] and panel.preview is None
    errata_file.write_text(ERRATA, encoding="utf-8")
    assert panel.load(errata_file) and panel.highlight.hexes
    assert files(window).open(scenario(workspace, 1))  # another document: the preview goes
    assert panel.preview is None and not panel.highlight.hexes
    assert panel.highlight.scene() is window.scene and panel.load(errata_file) and len(panel.highlight.hexes) == 2
    qtbot.waitUntil(lambda: panel.impact is not None, timeout=30000)  # no thread left running


# -- saving writes what the user chose, and only what changed ---------------------------------


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines `after` dropped from `before`, and the lines it added."""
    diff = list(difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True)))
    return [d[2:] for d in diff if d.startswith("- ")], [d[2:] for d in diff if d.startswith("+ ")]


def snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and "autosave" not in p.parts}


def status(window: MainWindow) -> str:
    return window.statusBar().currentMessage()


@pytest.mark.parametrize(
    "answer",
    [pytest.param("Save copies", marks=pytest.mark.slow), "Save over the originals", None],
    ids=["copies", "over", "cancel"],
)
def test_save_as_of_scenario_6_with_an_edited_map_asks_where_the_maps_go(
    workspace: Path, window_on, dialogs: Dialogs, answer: str | None
) -> None:
    """Painting a hex in column 31 edits Map 2, which Scenarios 1 and 3 use too: Save As asks,
    naming every file each answer writes, and writes exactly those."""
    original = scenario(workspace, 6)
    map1, map2 = workspace / "maps" / "map1.yaml", workspace / "maps" / "map2.yaml"
    before = snapshot(workspace)
    window = window_on(original)
    window.paint("Trees", {window.document.board.hex("3105"): Terrain(trees=2)})
    target = workspace / "scenarios" / "s6-copy.yaml"
    copy = workspace / "scenarios" / "s6-copy-map2.yaml"
    dialogs.answers = [answer]
    assert files(window).save_as(target) is (answer is not None)
    asked = dialogs.texts("choose")[0]
    assert f"Copies: in {workspace / 'scenarios'}:\n  s6-copy.yaml\n  s6-copy-map2.yaml" in asked
    assert f"Over the originals: in {workspace}:\n  scenarios/s6-copy.yaml\n  maps/map2.yaml" in asked
    assert "map2.yaml: a map file; also the map of s1-demyansk-pocket.yaml, s3-closing-the-ring.yaml." in asked
    after = snapshot(workspace)
    if answer is None:
        assert after == before and window.document.dirty and window.document.path == original
        return
    assert {p for p in after if after[p] != before.get(p)} == (
        {target, copy} if answer == "Save copies" else {target, map2}
    )
    assert after[map1] == before[map1] and after[original] == before[original]
    edited_map = copy if answer == "Save copies" else map2
    dropped, added = changed_lines(before[map2].decode(), after[edited_map].decode())
    assert dropped == [] and added == ['  "3105": {trees: 2}\n']  # provenance line and road lists kept as written
    dropped, added = changed_lines(before[original].decode(), after[target].decode())
    if answer == "Save copies":  # `maps:` and each zone naming Map 2 name the copy; Map 1 stays
        assert dropped[0] == "maps: [map1, map2]\n" and len(dropped) == 4 and all("map2" in line for line in dropped)
        assert added == [line.replace("map2", "s6-copy-map2") for line in dropped]
    else:
        assert (dropped, added) == ([], [])
    assert f"Saved in {workspace}" in status(window) and edited_map.name in status(window)
    assert not window.document.unsaved_files() and window.windowTitle() == "s6-copy.yaml - iceditor"
    reopened = open_document(target)
    assert [m.path.resolve() for m in reopened.maps] == [map1, edited_map]
    assert reopened.board.terrain(reopened.board.hex("3105")).trees == 2
    scenario_1 = open_document(scenario(workspace, 1))
    assert scenario_1.maps[0].path.resolve() == map2  # the copy shadows nothing
    assert scenario_1.board.terrain(scenario_1.board.hex("3105")).trees == (2 if answer != "Save copies" else 0)


def test_save_of_a_scenario_names_its_maps_first_and_cancel_writes_nothing(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    window = window_on(scenario(workspace, 6))
    window.paint("Trees", {window.document.board.hex("3105"): Terrain(trees=2)})
    before = snapshot(workspace)
    dialogs.answers = []  # Cancel
    press(window, Qt.Key.Key_S)
    assert snapshot(workspace) == before and window.windowTitle().startswith("*")
    assert dialogs.texts("choose")[0].startswith(
        f"Save writes 1 file in {workspace / 'maps'}:\n  map2.yaml\n\n"
        "map2.yaml: a map file; also the map of s1-demyansk-pocket.yaml, s3-closing-the-ring.yaml.\n\nSave a copy:"
    )
    dialogs.answers = ["Save"]
    press(window, Qt.Key.Key_S)
    after = snapshot(workspace)
    assert {p for p in after if after[p] != before[p]} == {workspace / "maps" / "map2.yaml"}
    assert status(window) == f"Saved in {workspace / 'maps'}: map2.yaml"


def test_the_close_prompt_lists_every_unsaved_file_and_an_undone_edit_asks_nothing(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    path = scenario(workspace, 6)
    window = window_on(path)
    data = window.document.scenario.data

    def retitle(title: str) -> None:
        data["title"] = title
        window.document.scenario_changed()

    window.undo_stack.push(DataCommand("Title", lambda: retitle("Spartakovka 2"), lambda: retitle("Spartakovka")))
    window.paint("Trees", {window.document.board.hex("3105"): Terrain(trees=2)})
    dialogs.answers = [Button.Cancel]
    assert not window.close()
    assert dialogs.texts("question")[0] == (
        f"Unsaved changes in {workspace}:\n  scenarios/s6-spartakovka.yaml\n  maps/map2.yaml\n\n"
        "Save them before closing?"
    )
    window.undo_stack.undo()
    dialogs.answers = [Button.Cancel]
    assert not window.close()
    assert dialogs.texts("question")[1].startswith(
        f"Unsaved changes in {path.parent}:\n  {path.name}\n\n"
    )  # not the map
    window.undo_stack.undo()
    before = snapshot(workspace)
    assert window.windowTitle() == "s6-spartakovka.yaml - iceditor"
    assert files(window).save() and status(window) == "Nothing to save: the files on disk hold these edits"
    assert window.close() and len(dialogs.texts("question")) == 2 and snapshot(workspace) == before


def test_a_save_keeps_the_mode_and_writes_through_a_link(workspace: Path, window_on) -> None:
    target = workspace / "small.yaml"
    target.chmod(0o640)
    link = workspace / "maps" / "linked.yaml"
    link.symlink_to(target)
    window = window_on(link)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    assert files(window).save()
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and '"1102": {trees: 3}' in target.read_text(encoding="utf-8")
    fresh = workspace / "fresh.yaml"
    assert files(window).save_as(fresh)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # a new file: as any new file (not 0600)


def test_stale_temporary_files_of_a_killed_save_are_removed_on_open_and_save(workspace: Path, window_on) -> None:
    """Only our pattern, and only stale ones: another live process's write in progress stays."""
    maps = workspace / "maps"
    dead = maps / ".map2.yaml.999999999.k3jd8a2q.tmp"  # a pid no process has
    live = maps / f".map2.yaml.{os.getppid()}.a8fj2k1z.tmp"  # a live editor, writing now
    legacy_fresh, legacy_old = maps / ".map2.yaml.x8d7f6g5.tmp", maps / ".map2.yaml.q1w2e3r4.tmp"
    others = [maps / ".map2.yaml.notes.tmp", maps / "map2.yaml.999999999.k3jd8a2q.tmp", maps / ".map1.yaml.tmp"]
    for p in [dead, live, legacy_fresh, legacy_old, *others]:
        p.write_text("half a map", encoding="utf-8")
    os.utime(legacy_old, (time.time() - 3600,) * 2)  # older than any write takes
    window = window_on(scenario(workspace, 1))
    assert not dead.exists() and not legacy_old.exists()
    assert live.exists() and legacy_fresh.exists() and all(p.exists() for p in others)
    os.utime(live, (time.time() - 3600,) * 2)  # its pid reused since: the age tells
    window.paint("Trees", {window.document.board.hex("4307"): Terrain(trees=2)})
    assert files(window).save(named=True)
    assert not live.exists() and legacy_fresh.exists() and all(p.exists() for p in others)


@pytest.mark.parametrize(
    "text",
    [
        "format: iron-cross-map/1\nname: Deep\nhexes: " + "[" * 5000 + "]" * 5000 + "\n",
        "format: iron-cross-map/1\nname: Loop\ngrid: &g {columns: [10, 14], rows: [1, 9], more: *g}\n",
    ],
    ids=["nested-5000-deep", "recursive-alias"],
)
def test_a_file_nested_thousands_deep_or_with_a_recursive_alias_is_reported_on_open(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch, text: str
) -> None:
    window = window_on(workspace / "small.yaml")
    bad = workspace / "hostile.yaml"
    bad.write_text(text, encoding="utf-8")
    choose_file(monkeypatch, "getOpenFileName", bad)
    press(window, Qt.Key.Key_O)
    assert "hostile.yaml cannot be opened; nothing was changed" in dialogs.texts("critical")[0]
    assert f"{bad}:3:" in dialogs.texts("critical")[0]
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})  # the editor keeps working
    assert window.document.path == workspace / "small.yaml" and window.undo_stack.count() == 1


def test_a_recursion_error_while_opening_is_reported_like_a_broken_file(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch
) -> None:
    """Whatever loader meets nesting past Python's recursion limit, File > Open says which file."""
    window = window_on(workspace / "small.yaml")

    def too_deep(*args: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(app_module, "open_document", too_deep)
    assert not files(window).open(scenario(workspace, 1))
    assert f"{scenario(workspace, 1)}: error: lists and mappings nested too deeply" in dialogs.texts("critical")[0]
    assert window.document.path == workspace / "small.yaml"


# -- autosave: the clean state is the disk, and a set is restored whole or not at all -----------


def crash_with_an_autosave(window_on, path: Path, paint: dict[str, Terrain]) -> Path:
    window = window_on(path, crashes=True)
    window.paint("Paint", {window.document.board.hex(label): t for label, t in paint.items()})
    window.findChild(Autosave).write()
    window.hide()
    shiboken6.delete(window)
    return autosave_folder(path)


def test_after_restoring_an_autosave_an_undo_never_makes_it_look_saved(
    workspace: Path, window_on, dialogs: Dialogs
) -> None:
    path = scenario(workspace, 1)
    crash_with_an_autosave(window_on, path, {"4307": Terrain(trees=3)})
    window = window_on(workspace / "small.yaml")
    dialogs.answers = [Button.Yes]
    assert files(window).open(path) and window.windowTitle().startswith("*")
    window.paint("Marsh", {window.document.board.hex("4512"): Terrain(marsh=True)})
    window.undo_stack.undo()
    assert window.windowTitle() == "*s1-demyansk-pocket.yaml - iceditor" and not window.undo_stack.isClean()
    dialogs.answers = [Button.Cancel]
    assert not window.close()
    assert (
        dialogs.texts("question")[-1]
        == f"Unsaved changes in {workspace / 'maps'}:\n  map2.yaml\n\nSave them before closing?"
    )
    dialogs.answers = ["Save"]  # Map 2 is Scenario 3's and 6's too: Save names them
    press(window, Qt.Key.Key_S)
    assert window.windowTitle() == "s1-demyansk-pocket.yaml - iceditor"
    window.paint("Marsh", {window.document.board.hex("4512"): Terrain(marsh=True)})
    window.undo_stack.undo()  # back to the saved state: now that is the disk
    assert window.windowTitle() == "s1-demyansk-pocket.yaml - iceditor"


def test_an_autosave_cut_short_restores_the_last_whole_set(
    workspace: Path, window_on, dialogs: Dialogs, monkeypatch
) -> None:
    """Killed after a round's copies but before its manifest: the previous round comes back,
    scenario and map from the same moment."""
    path = scenario(workspace, 1)
    window = window_on(path, crashes=True)
    board = window.document.board
    window.paint("Round 1", {board.hex("4307"): Terrain(trees=3)})
    saver = window.findChild(Autosave)
    saver.write()
    folder = autosave_folder(path)
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    window.paint("Round 2", {board.hex("4512"): Terrain(marsh=True)})
    real = autosave.atomic_write

    def killed_at_the_manifest(target: Path, text: str) -> Path:
        if target.name == MANIFEST:
            raise KeyboardInterrupt  # the process ends here
        return real(target, text)

    monkeypatch.setattr(autosave, "atomic_write", killed_at_the_manifest)
    with pytest.raises(KeyboardInterrupt):
        autosave.write_autosave(window.document, folder)
    monkeypatch.setattr(autosave, "atomic_write", real)
    assert len(list(folder.iterdir())) == len(first) + 1  # the new round's copy of map2, no manifest for it
    window.hide()
    shiboken6.delete(window)
    again = window_on(workspace / "small.yaml")
    dialogs.answers = [Button.Yes]
    assert files(again).open(path)
    restored = again.document
    assert (
        restored.printed(restored.board.hex("4307")).trees == 3
        and not restored.printed(restored.board.hex("4512")).marsh
    )


@pytest.mark.parametrize("damage", ["copy-changed", "copy-missing", "manifest-broken"])
def test_an_autosave_that_does_not_match_its_manifest_is_refused_with_a_message(
    workspace: Path, window_on, dialogs: Dialogs, damage: str
) -> None:
    path = scenario(workspace, 1)
    folder = crash_with_an_autosave(window_on, path, {"4307": Terrain(trees=3)})
    copy = next(p for p in folder.iterdir() if p.name.endswith("map2.yaml"))
    if damage == "copy-changed":  # a copy from another round than its manifest's
        copy.write_text(copy.read_text(encoding="utf-8").replace("{trees: 3}", "{trees: 4}"), encoding="utf-8")
    elif damage == "copy-missing":
        copy.unlink()
    else:
        (folder / MANIFEST).write_text('{"files": {', encoding="utf-8")
    before = snapshot(workspace)
    window = window_on(workspace / "small.yaml")
    dialogs.answers = [Button.Yes]
    assert files(window).open(path)
    warned = dialogs.texts("warning")[0]
    assert "it is not whole" in warned and "it was not restored" in warned and "moved to" in warned
    assert not dialogs.texts("question")  # never offered
    document = window.document
    assert not document.dirty and document.printed(document.board.hex("4307")) == Terrain(building="23")
    assert not folder.exists() and list(folder.parent.glob(f"{folder.name}-damaged-*"))
    assert snapshot(workspace) == before
    assert not window.findChild(Autosave).offer(path)  # put aside: not found again


# -- undo gives the file back -----------------------------------------------------------------

S6_HEXES = ["3105", "4109", "3615", "3517", "4307", "3904", "5024", "3014", "3010", "2125", "1203", "3718"]
TERRAINS = st.sampled_from(
    [
        CLEAR,
        Terrain(trees=2),
        Terrain(level=1, hill="J"),
        Terrain(building="23"),
        Terrain(marsh=True),
        Terrain(level=0, upper_level=1, hill="J"),
    ]
)
STEPS = st.lists(
    st.one_of(st.tuples(st.just("paint"), st.sampled_from(S6_HEXES), TERRAINS), st.tuples(st.just("undo"))),
    min_size=1,
    max_size=12,
)


@pytest.fixture
def s6_window(workspace: Path, window_on) -> MainWindow:
    return window_on(scenario(workspace, 6))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_random_paints_erases_and_undos_then_undo_all_saves_the_original_bytes(s6_window: MainWindow, steps) -> None:
    """Scenario 6 (Maps 1 and 2, the seam column 30 on both): hexes with comments, an empty entry,
    explicit level 0, the first and last entries; each edit changes only its own hex's line."""
    window = s6_window
    window.undo_stack.setIndex(0)
    window.undo_stack.clear()
    document = window.document
    on_disk = {f.path: f.path.read_text(encoding="utf-8") for f in document.files()}
    board = document.board
    for step in steps:
        if step[0] == "undo":
            window.undo_stack.undo()
        else:
            window.paint("Paint", {board.hex(step[1]): step[2]})
    for m in document.maps:
        dropped, added = changed_lines(on_disk[m.path], m.text())
        changed = {label for label in S6_HEXES if any(f'"{label}"' in line for line in dropped + added)}
        assert all(any(f'"{label}"' in line for label in changed) for line in dropped + added if line.strip()), (
            dropped,
            added,
        )
    window.undo_stack.setIndex(0)
    assert {m.path: m.text() for m in document.maps} == {m.path: on_disk[m.path] for m in document.maps}
    assert not document.unsaved_files() and window.windowTitle() == "s6-spartakovka.yaml - iceditor"
    assert files(window).save()
    assert {p: p.read_text(encoding="utf-8") for p in on_disk} == on_disk


def test_a_killed_autosave_round_leaves_no_temporary_file_after_the_next(
    workspace: Path, window_on, autosave_here: AutosaveSettings
) -> None:
    """An autosave's copies change names each round: its folder is cleaned whole, a dead writer's
    temporary file and an old one removed, a live writer's fresh one kept."""
    path = workspace / "small.yaml"
    window = window_on(path)
    window.paint("Trees", {window.document.board.hex("1102"): Terrain(trees=3)})
    folder = autosave_folder(path)
    folder.mkdir(parents=True)
    dead = folder / ".18c2f0a9-1-small.yaml.999999999.0a1b2c3d.tmp"
    live = folder / f".18c2f0a9-1-small.yaml.{os.getppid()}.4e5f6a7b.tmp"
    for p in (dead, live):
        p.write_text("half a copy", encoding="utf-8")
    window.findChild(Autosave).write()
    assert not dead.exists() and live.exists() and (folder / MANIFEST).is_file()


def test_the_question_with_choices_answers_the_button_pressed(qtbot) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    def press_second() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        next(b for b in box.buttons() if b.text() == "Save over the originals").click()

    QTimer.singleShot(0, press_second)
    assert file_menu.choose(None, "Where", "Which?", ["Save copies", "Save over the originals"]) == (
        "Save over the originals"
    )
    QTimer.singleShot(0, lambda: QApplication.activeModalWidget().reject())
    assert file_menu.choose(None, "Where", "Which?", ["Save copies", "Save over the originals"]) is None


def test_a_road_edit_rewrites_only_its_own_chain_and_undo_gives_the_bytes_back(workspace: Path) -> None:
    map2 = workspace / "maps" / "map2.yaml"
    on_disk = map2.read_text(encoding="utf-8")
    document = open_document(scenario(workspace, 1))
    roads = document.roads()
    chains = roads[0].chains
    document.set_roads([Roads((chains[0], chains[1][:-1]), roads[0].bridges)])  # 4210 off the second chain
    dropped, added = changed_lines(on_disk, document.maps[0].text())
    assert dropped == [
        '  - ["3014", "3114", "3213", "3313", "3412", "3512", "3611", "3711", "3810", "3910", "4010", "4110",\n',
        '     "4210"]\n',
    ]
    assert added == [
        '  - ["3014", "3114", "3213", "3313", "3412", "3512", "3611", "3711", "3810", "3910", "4010", "4110"]\n'
    ]
    document.set_roads(roads)
    assert document.maps[0].text() == on_disk and not document.unsaved_files()


def test_a_file_with_windows_line_ends_keeps_them(workspace: Path) -> None:
    path = workspace / "small.yaml"
    path.write_bytes(SPEC_MAP.replace("\n", "\r\n").encode())
    document = open_document(path)
    document.set_printed({document.board.hex("1102"): Terrain(trees=3)})
    assert document.save() == [path]
    expected = SPEC_MAP.replace('  "1207": {gully: true}\n', '  "1207": {gully: true}\n  "1102": {trees: 3}\n')
    assert path.read_bytes() == expected.replace("\n", "\r\n").encode()
