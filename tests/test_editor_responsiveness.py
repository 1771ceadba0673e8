"""No freezes (docs/editor.md, "Speed"): a long action shows the wait cursor and gives it back,
also when it fails; a launch shows the window before it validates; a fill, its undo and its redo,
done as one board edit, leave the board, the problems and the map as a full rebuild has them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication, QMessageBox, QSplashScreen

from engine.geometry.viewshed import Viewsheds
from engine.model.terrain import Terrain
from engine.validate.registry import runners
from engine.validate.session import ValidationSession
from iceditor.editor import app as editor_app
from iceditor.editor.app import OpenFailed
from iceditor.editor.busy import BIG_EDIT, busy
from iceditor.editor.document import EditorDocument, open_document
from iceditor.editor.features import errata_panel, file_menu
from iceditor.editor.features.errata_panel import ErrataPanel
from iceditor.editor.features.file_menu import FileMenu
from iceditor.editor.features.oob_editor import OobPanel
from iceditor.editor.features.terrain_brushes import connected_same
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.mapview import MapScene
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui

S2 = "s2-khristishche.yaml"  # on Map 1 alone: the clear ground from 1001 is 492 connected hexes


def waiting() -> bool:
    cursor = QApplication.overrideCursor()
    return cursor is not None and cursor.shape() == Qt.CursorShape.WaitCursor


@pytest.fixture
def window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)
    w = MainWindow(open_document(workspace / "scenarios" / S2))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def observe(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[bool]:
    """Record, at each call of owner.name, whether the wait cursor is shown."""
    seen: list[bool] = []
    original = getattr(owner, name)

    def observed(*args: Any, **kwargs: Any) -> Any:
        seen.append(waiting())
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, observed)
    return seen


def fill(window: MainWindow, start: str, terrain: Terrain) -> set[Any]:
    document = window.document
    region = connected_same(document.board.neighbours, document.printed, document.board.hex(start))
    window.paint("Fill", dict.fromkeys(region, terrain))
    return region


def test_a_fill_its_undo_and_redo_show_the_wait_cursor_a_stroke_does_not(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    painted = observe(monkeypatch, EditorDocument, "set_printed")
    checked = observe(monkeypatch, EditorDocument, "problems")
    region = fill(window, "1001", Terrain(trees=2))
    assert len(region) >= BIG_EDIT
    window.undo_stack.undo()
    window.undo_stack.redo()
    assert painted == [True, True, True]
    assert checked and all(checked)  # the revalidation of each is under the cursor too
    assert not waiting()  # and the cursor is back
    window.paint("Trees", {window.document.board.hex("1001"): Terrain(trees=3)})
    assert painted[-1] is False  # a quick edit leaves the cursor alone


def test_saving_a_zone_heatmap_and_an_errata_preview_show_the_wait_cursor(window, workspace, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    saved = observe(monkeypatch, EditorDocument, "save")
    mapped = observe(monkeypatch, Viewsheds, "zones")
    previewed = observe(monkeypatch, errata_panel, "errata_changes")
    fill(window, "1001", Terrain(trees=2))
    assert window.findChild(FileMenu).save(named=True)
    tool = window.tools["viewshed"]
    names = tool.zone_names()
    assert tool.show_zones(names[0], names[1])
    assert window.findChild(ErrataPanel).load(workspace / "maps" / "errata.yaml")
    assert saved == [True] and mapped == [True] and previewed[0]
    assert not waiting()


def test_the_revalidation_after_an_edit_gives_the_event_loop_back_between_checks(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    session = window.document.session
    window.paint("Trees", {window.document.board.hex("1001"): Terrain(trees=3)})
    stale = len([c for c in runners("check_scenario") if c not in session._results])
    runs = session.runs
    QApplication.processEvents()
    assert stale > 1 and session.runs - runs == 1 and window._revalidate.isActive()
    qtbot.waitUntil(lambda: not window._revalidate.isActive())
    assert session.runs - runs == stale
    assert window.problems == window.document.problems()


def test_a_terrain_edit_leaves_the_order_of_battle_and_a_panel_out_of_view_for_later(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    zones, oob = window.findChild(ZonePanel), window.findChild(OobPanel)
    qtbot.waitUntil(lambda: not zones.in_view)  # a tab behind the first of the scenario panels
    tree = dict(oob.items)
    window.paint("Trees", {window.document.board.hex("1001"): Terrain(trees=3)})
    assert all(oob.items[path] is item for path, item in tree.items())  # not rebuilt
    assert zones._stale
    show_dock(zones)  # its tab chosen
    qtbot.waitUntil(lambda: zones.in_view and not zones._stale)
    session = window.document.session
    assert zones.name is not None and zones.zone_hexes.hexes.keys() == session.context.zone(zones.name)
    window.undo_stack.undo()
    window.undo_stack.redo()
    assert all(oob.items[path] is item for path, item in tree.items())


def test_the_wait_cursor_comes_back_when_the_action_fails(qtbot) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuntimeError), busy():
        assert waiting()
        with busy():  # nested: the outer one still waits after the inner one ends
            pass
        assert waiting()
        raise RuntimeError("failed")
    assert QApplication.overrideCursor() is None


def test_open_loads_and_validates_under_the_wait_cursor(window, workspace, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    loaded = observe(monkeypatch, file_menu, "load")
    validated = observe(monkeypatch, window, "refresh_problems")
    assert window.findChild(FileMenu).open(workspace / "scenarios" / "s6-spartakovka.yaml")
    assert loaded == [True] and validated and validated[0]
    assert window.document.path.name == "s6-spartakovka.yaml" and window.problems == window.document.problems()
    assert not waiting()


def test_a_file_that_cannot_be_opened_gives_the_cursor_back_before_saying_why(window, workspace, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def fails(path: Path, texts: Any = None) -> EditorDocument:
        assert waiting()
        raise OpenFailed(f"{path.name}:3:1: error: not a map")

    told: list[bool] = []
    monkeypatch.setattr(file_menu, "load", fails)
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: told.append(waiting()))
    assert not window.findChild(FileMenu).open(workspace / "scenarios" / "s6-spartakovka.yaml")
    assert told == [False]  # the message is not under a wait cursor
    assert not waiting() and window.document.path.name == S2


def test_a_launch_shows_the_window_before_it_validates(qtbot, workspace, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """iceditor edit FILE: a splash says what opens while the files are read, under the wait cursor;
    the window is on screen next, and the validation, the longest part of a start, runs after."""
    seen: list[tuple[bool, bool]] = []
    original = EditorDocument.problems
    read = editor_app.load
    splashed: list[tuple[bool, bool]] = []

    def load(path: Path, texts: Any = None) -> EditorDocument:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, QSplashScreen) and w.isVisible()]
        splashed.append((bool(shown), waiting()))
        return read(path, texts)

    def problems(document: EditorDocument) -> Any:
        shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        seen.append((bool(shown), waiting()))
        return original(document)

    def exec_once() -> int:  # the event loop runs until the pending start-up work is done
        qtbot.waitUntil(lambda: bool(seen))
        for w in QApplication.topLevelWidgets():
            if isinstance(w, MainWindow):
                w.undo_stack.setClean()
                w.close()
        return 0

    monkeypatch.setattr(EditorDocument, "problems", problems)
    monkeypatch.setattr(editor_app, "load", load)
    monkeypatch.setattr(QApplication, "exec", staticmethod(exec_once))
    assert editor_app.run(workspace / "scenarios" / S2) == 0
    assert splashed == [(True, True)] and seen[0] == (True, True)
    assert not any(w.isVisible() for w in QApplication.topLevelWidgets() if isinstance(w, QSplashScreen))


def test_the_splash_is_drawn_at_once(qtbot, workspace) -> None:  # type: ignore[no-untyped-def]
    """The splash is on screen and drawn when `opening` returns, without the whole second Qt's
    QSplashScreen waited in its Show event for an exposure that could not come before the show."""
    painted: list[bool] = []

    class Painted(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and isinstance(watched, QSplashScreen):
                painted.append(True)
            return False

    spy = Painted()
    QApplication.instance().installEventFilter(spy)
    began = time.perf_counter()
    splash = editor_app.opening(workspace / "scenarios" / S2)
    taken = time.perf_counter() - began
    QApplication.instance().removeEventFilter(spy)
    exposed = splash.windowHandle().isExposed()
    splash.close()
    assert exposed and painted
    assert taken < editor_app.SPLASH_EXPOSED_MS / 2e3  # Qt's wait took all of it: 1.01 s


# -- the batched edit equals a full rebuild ------------------------------------------------------


def picture(scene: MapScene) -> QImage:
    """The map as drawn: terrain, roads and labels (the layers every scene of a board has)."""
    hidden = [name for name in ("zones", "units", "overlays") if scene.layers[name].isVisible()]
    for name in hidden:
        scene.set_layer_visible(name, False)
    rect = scene.sceneRect()
    image = QImage(int(rect.width() / 2), int(rect.height() / 2), QImage.Format.Format_RGB32)
    painter = QPainter(image)
    scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    for name in hidden:
        scene.set_layer_visible(name, True)
    return image


def shown(document: EditorDocument) -> dict[Any, Terrain]:
    return {h: document.board.terrain(h) for h in document.board.hexes}


def from_scratch(document: EditorDocument) -> list[str]:
    """Every check run afresh, on the scenario's maps as loaded from disk painted like the board."""
    assert document.scenario is not None
    session = ValidationSession(document.scenario.document())
    assert session.board is not None
    session.edit({h: t for h, t in shown(document).items() if session.board.terrain(h) != t})
    return [p.text() for m in document.maps for p in m.problems()] + [p.text() for p in session.problems()]


@pytest.mark.parametrize(
    ("start", "terrain"),
    [
        ("1001", Terrain(trees=2)),  # 492 hexes, over BIG_EDIT: the viewsheds' fans worked whole
        ("1317", Terrain(building="7")),  # Building 1's 14 hexes renamed: its symbols join to new neighbours
        ("2715", Terrain(level=1, hill="Z")),
    ],
)
def test_fill_undo_redo_leave_board_problems_and_map_as_a_rebuild_has_them(window, start, terrain) -> None:  # type: ignore[no-untyped-def]
    """The map repainted hex by hex and the problems revalidated once per command match a map
    drawn afresh and a validation from scratch; undo gives back the map as it was."""
    document = window.document
    board, problems, image = shown(document), [p.text() for p in document.problems()], picture(window.scene)
    fill(window, start, terrain)
    filled = shown(document)
    assert filled != board
    assert [p.text() for p in document.problems()] == from_scratch(document)
    assert picture(window.scene) == picture(MapScene(document.board))
    window.undo_stack.undo()
    assert shown(document) == board and [p.text() for p in document.problems()] == problems
    assert picture(window.scene) == image
    window.undo_stack.redo()
    assert shown(document) == filled and picture(window.scene) == picture(MapScene(document.board))
