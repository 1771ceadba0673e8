"""What a designer sees when a map opens, and what the editor remembers (issue 20): the map opens
at a zoom where hex numbers and hill names read, keeps the zoom chosen when another file opens,
and the zoom and the docks' places last from one run to the next (QSettings, here a file in
tmp_path: tests never read or write the user's settings)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from iceditor.editor.document import open_document
from iceditor.editor.mapview import LEGIBLE_PX, NUMBER_SIZE
from iceditor.editor.view_settings import ViewSettings
from iceditor.editor.window import READABLE_ZOOM, MainWindow

pytestmark = pytest.mark.gui


def shown(qtbot, path: Path, settings: ViewSettings | None = None) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(open_document(path), settings=settings)
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.show_map()
    return window


def zoom(window: MainWindow) -> float:
    return window.view.transform().m11()


def test_a_map_opens_where_its_numbers_and_hill_names_read(qtbot, workspace: Path) -> None:
    """Fitted whole at 1366x768, Map 2 was 14 px a hex and its hex numbers hidden."""
    window = shown(qtbot, workspace / "maps" / "map2.yaml")
    assert zoom(window) == pytest.approx(READABLE_ZOOM)
    assert NUMBER_SIZE * zoom(window) >= LEGIBLE_PX + 2 and window.scene.labels.size_at(zoom(window)) is not None
    window.fit()  # Ctrl+0 still shows the whole map
    assert window.scene.labels.size_at(zoom(window)) is None


def test_opening_another_file_keeps_the_zoom_chosen(qtbot, workspace: Path) -> None:
    window = shown(qtbot, workspace / "maps" / "map2.yaml")
    window.view.zoom(0.5)
    window.set_document(open_document(next((workspace / "scenarios").glob("s6-*.yaml"))))
    assert zoom(window) == pytest.approx(READABLE_ZOOM * 0.5)


def test_a_small_map_is_fitted_and_does_not_make_the_next_one_open_as_large(qtbot, workspace: Path, write) -> None:
    small = write("small.yaml", "format: iron-cross-map/1\nname: Small\ngrid: {columns: [10, 12], rows: [1, 3]}\n")
    window = shown(qtbot, small)
    assert zoom(window) > READABLE_ZOOM  # the view holds it whole, larger
    window.set_document(open_document(workspace / "maps" / "map2.yaml"))
    assert zoom(window) == pytest.approx(READABLE_ZOOM)


def test_the_zoom_and_the_docks_last_from_one_run_to_the_next(qtbot, workspace: Path, tmp_path: Path) -> None:
    settings = tmp_path / "settings" / "iceditor.ini"
    first = shown(qtbot, workspace / "maps" / "map2.yaml", ViewSettings(settings))
    first.view.zoom(0.8)
    history = first.findChild(type(first.problems_dock), "history")
    assert history is not None
    history.close()
    first.close()
    assert settings.is_file()
    again = shown(qtbot, workspace / "maps" / "map2.yaml", ViewSettings(settings))
    assert zoom(again) == pytest.approx(READABLE_ZOOM * 0.8)
    assert not again.findChild(type(again.problems_dock), "history").isVisible()
    assert again.findChild(type(again.problems_dock), "problems").isVisible()


def test_a_window_without_settings_remembers_nothing(qtbot, workspace: Path, tmp_path: Path) -> None:
    window = shown(qtbot, workspace / "maps" / "map2.yaml")
    window.view.zoom(0.5)
    window.close()
    assert window.settings is None and zoom(shown(qtbot, workspace / "maps" / "map2.yaml")) == pytest.approx(
        READABLE_ZOOM
    )


def test_a_settings_file_edited_by_hand_is_ignored(qtbot, workspace: Path, tmp_path: Path) -> None:
    settings = tmp_path / "iceditor.ini"
    settings.write_text("[view]\nzoom=large\n[window]\nstate=nonsense\n", encoding="utf-8")
    window = shown(qtbot, workspace / "maps" / "map2.yaml", ViewSettings(settings))
    assert zoom(window) == pytest.approx(READABLE_ZOOM) and window.problems_dock.isVisible()
    assert Qt.DockWidgetArea.BottomDockWidgetArea == window.dockWidgetArea(window.problems_dock)
