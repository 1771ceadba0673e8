"""The editor's core: the document model (round-trip files, errata on top of painting, seams,
atomic saves) and the main window (map, problems, layers, status bar, undo of a stroke)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import Qt

from engine.file_writing import atomic_write
from engine.hexgrid import Hex
from engine.model.terrain import Terrain
from iceditor.editor.commands import Stroke
from iceditor.editor.document import EditorDocument, open_document
from iceditor.editor.mapview import centre
from iceditor.editor.window import MainWindow, describe_terrain

REPO = Path(__file__).resolve().parents[1]


def scenario(workspace: Path, number: int) -> Path:
    return next((workspace / "scenarios").glob(f"s{number}-*.yaml"))


def test_an_unedited_save_keeps_every_comment_and_value(workspace: Path) -> None:
    document = open_document(scenario(workspace, 6))
    for f in document.files():
        before = f.path.read_text(encoding="utf-8")
        f.save()
        after = f.path.read_text(encoding="utf-8")
        assert yaml.safe_load(after) == yaml.safe_load(before)
        comments = [line.strip() for line in before.splitlines() if line.strip().startswith("#")]
        assert all(c in after for c in comments)


def test_painting_writes_the_map_file_and_the_board_shows_the_erratum_on_top(workspace: Path) -> None:
    """1307 has one Tree by erratum ('should only have ONE tree'): painting it writes the map
    file, and the board still shows the erratum's value, as the scenario is loaded."""
    document = open_document(scenario(workspace, 6))
    h = document.board.hex("1307")
    assert document.board.terrain(h).trees == 1
    document.set_printed({h: Terrain(trees=4)})
    assert document.printed(h).trees == 4 and document.board.terrain(h).trees == 1
    other = document.board.hex("1510")
    document.set_printed({other: Terrain(trees=3, marsh=True)})
    assert document.board.terrain(other) == Terrain(trees=3, marsh=True)
    assert document.dirty and document.maps[0].dirty and not document.maps[1].dirty
    document.save()
    reopened = open_document(scenario(workspace, 6))
    assert reopened.board.terrain(other) == Terrain(trees=3, marsh=True)
    assert reopened.printed(h).trees == 4
    text = document.maps[0].path.read_text(encoding="utf-8")
    assert '"1510": {trees: 3, marsh: true}' in text


def test_a_seam_hex_is_painted_on_both_maps(workspace: Path) -> None:
    """Maps 1 and 2 share column 30 (2.1): both files hold the seam hex."""
    document = open_document(scenario(workspace, 6))
    seam = document.board.hex("3010")
    document.set_printed({seam: Terrain(trees=2)})
    assert all(m.sheet is not None and m.sheet.terrain[seam] == Terrain(trees=2) for m in document.maps)


def test_atomic_write_never_leaves_a_half_written_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "m.yaml"
    target.write_text("old\n", encoding="utf-8")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", broken_replace)
    with pytest.raises(OSError):
        atomic_write(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert list(tmp_path.iterdir()) == [target]  # the temporary file is gone


def test_opening_a_non_editable_file_is_refused(workspace: Path) -> None:
    from engine.model.load_errors import LoadError

    with pytest.raises(LoadError) as raised:
        open_document(workspace / "maps" / "errata.yaml")
    assert "opens scenarios and maps" in raised.value.problems[0].message


@pytest.fixture
def window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    # closing with unsaved edits asks; the tests' windows discard them
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    w = MainWindow(open_document(scenario(workspace, 1)))
    qtbot.addWidget(w)
    w.show()
    return w


def test_the_window_shows_the_board_and_its_problems(window: MainWindow) -> None:
    document: EditorDocument = window.document
    assert len(window.scene.items_by_hex) == len(document.board.hexes) == 21 * 27
    assert len(window.problems_panel.rows()) == len(document.problems()) > 0
    assert window.windowTitle() == "s1-demyansk-pocket.yaml - iceditor"


def test_hovering_a_hex_names_it_and_its_terrain(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    h = window.document.board.hex("4307")
    window.scene.hovered.emit(h)
    assert window._status.text() == f"4307  {describe_terrain(window.document.board.terrain(h))}"
    assert "Building" in window._status.text()


def test_a_stroke_is_one_undo_step_and_the_title_marks_it(window: MainWindow) -> None:
    board = window.document.board
    hexes = [board.hex(label) for label in ("3105", "3106", "3107")]
    before = [board.terrain(h) for h in hexes]
    stroke = Stroke(window.document, "Trees +")
    for h in hexes:
        stroke.paint(h, Terrain(trees=2))
    command = stroke.command()
    assert command is not None
    window.undo_stack.push(command)
    assert window.undo_stack.count() == 1 and window.undo_stack.undoText() == "Trees + (3 hexes)"
    assert all(board.terrain(h).trees == 2 for h in hexes)
    assert window.windowTitle().startswith("*")
    window.undo_stack.undo()
    assert [board.terrain(h) for h in hexes] == before
    window.undo_stack.redo()
    assert all(board.terrain(h).trees == 2 for h in hexes)


def test_problems_follow_edits_and_a_click_centres_the_hex(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Blanking the objectives (4307, 4308: Building 23) breaks the designer's assertions."""
    board = window.document.board
    window.paint("Clear objectives", {board.hex("4307"): Terrain(), board.hex("4308"): Terrain()})
    qtbot.waitUntil(lambda: any(p.code == "assertion-failed" for p in window.problems))
    item = next(r for r in window.problems_panel.rows() if r.data(0, Qt.ItemDataRole.UserRole).hex)
    window.problem_list.itemClicked.emit(item, 0)
    problem = item.data(0, Qt.ItemDataRole.UserRole)
    assert window.selected == {board.hex(problem.hex)}


def test_layers_can_be_hidden(window: MainWindow) -> None:
    item = window.layer_list.item(2)
    assert item.text() == "Labels"
    item.setCheckState(Qt.CheckState.Unchecked)
    assert not window.scene.layers["labels"].isVisible()
    item.setCheckState(Qt.CheckState.Checked)
    assert window.scene.layers["labels"].isVisible()


def test_painting_repaints_the_hex_where_it_is_drawn(window: MainWindow) -> None:
    h: Hex = window.document.board.hex("3105")
    item = window.scene.items_by_hex[h]
    assert item.boundingRect().contains(centre(h))


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 6])
def test_a_scenario_saved_unedited_is_byte_for_byte_the_same(workspace: Path, number: int) -> None:
    """Saving keeps the user's file as written: comments, key order, quoting, flow style."""
    document = open_document(scenario(workspace, number))
    assert document.scenario is not None
    assert document.scenario.text() == document.scenario.path.read_text(encoding="utf-8")


def test_the_status_bar_follows_an_edit_of_the_hex_under_the_cursor(window: MainWindow) -> None:
    h = window.document.board.hex("3105")
    window.scene.hovered.emit(h)
    window.paint("Trees", {h: Terrain(trees=3)})
    assert window._status.text() == "3105  3 trees (woods)"
