"""What a designer felt in the window (issue 20): Esc clears the selection, a new zone takes the
selection and an applied zone scrolls into view, a tool's answer does not outlive its document,
and Properties says "mixed" only for hexes that differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QMessageBox, QPushButton, QTreeWidget

from engine.model.terrain import Terrain
from iceditor.editor.document import open_document
from iceditor.editor.features.oob_editor import OobPanel
from iceditor.editor.features.property_panel import MIXED, PropertyPanel
from iceditor.editor.features.selection import set_selection
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.mapview import hex_polygon
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:  # type: ignore[no-untyped-def]
    """Scenario 1 (a copy) in a window of the smallest laptop screen's size."""
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)
    shown = MainWindow(open_document(next((workspace / "scenarios").glob("s1-*.yaml"))))
    qtbot.addWidget(shown)
    shown.resize(1366, 768)
    shown.show()
    qtbot.waitExposed(shown)
    shown.show_map()
    return shown


def test_esc_clears_the_selection(window: MainWindow) -> None:
    board = window.document.board
    set_selection(window, {board.hex("3818"), board.hex("3819")})
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_Escape)
    assert window.selected == set()


def test_a_new_zone_takes_the_selection_and_the_next_asks_for_hexes(window: MainWindow) -> None:
    """Before, a second "New zone" silently took the same 16 hexes again."""
    zones = window.findChild(ZonePanel)
    assert zones is not None
    show_dock(zones)
    board = window.document.board
    set_selection(window, {board.hex("3818"), board.hex("3819")})
    new = zones.findChild(QPushButton, "zone-new")
    zones.new_name.setText("first")
    new.click()
    assert "first" in window.document.scenario.data["zones"] and window.selected == set()
    zones.new_name.setText("second")
    new.click()
    assert zones.status.text() == "Select the new zone's hexes on the map first"
    assert "second" not in window.document.scenario.data["zones"]


def test_an_applied_zone_scrolls_into_view(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    zones = window.findChild(ZonePanel)
    assert zones is not None
    show_dock(zones)
    board = window.document.board
    window.view.centre_on(board.hex("3101"))  # the map's north-west corner in view
    zones.select_zone("objectives")
    zones.editor.setPlainText('{hexes: ["4926", "5027"]}')
    zones.apply()
    zone = hex_polygon(board.hex("4926")).boundingRect().united(hex_polygon(board.hex("5027")).boundingRect())
    assert window.view.mapToScene(window.view.viewport().rect()).boundingRect().contains(zone)


def test_the_line_of_sight_text_goes_when_another_scenario_opens(window: MainWindow, workspace: Path) -> None:
    board = window.document.board
    window.use_tool("los")
    tool = window.tools["los"]
    tool.press(board.hex("4307"), None)
    tool.press(board.hex("4315"), None)
    assert "4307" in window.statusBar().currentMessage()
    window.set_document(open_document(next((workspace / "scenarios").glob("s6-*.yaml"))))
    assert window.statusBar().currentMessage() == ""


def test_properties_say_mixed_only_while_hexes_that_differ_are_selected(window: MainWindow) -> None:
    panel = window.findChild(PropertyPanel)
    assert panel is not None
    board = window.document.board
    window.paint("Trees", {board.hex("3101"): Terrain(trees=2)})
    set_selection(window, {board.hex("3101"), board.hex("3102")})
    QApplication.processEvents()
    assert panel.trees.text() == MIXED and panel.marsh.checkState() == Qt.CheckState.Unchecked
    set_selection(window, set())
    QApplication.processEvents()
    assert panel.trees.text() == "0" and panel.level.currentText() == "0"
    assert MIXED not in (panel.hill.lineEdit().placeholderText(), panel.footprint.placeholderText())
    assert not panel.isEnabled() and "No hexes selected" in panel.heading.text()


def test_the_heatmap_drop_downs_name_the_zones_drawn(window: MainWindow) -> None:
    """`iceditor snapshot --overlay zones:german-deployment:russian-infiltration` drew those
    zones while the drop-downs named the first two of the file."""
    tool = window.tools["viewshed"]
    window.use_tool("viewshed")
    assert tool.show_zones("german-deployment", "russian-infiltration")
    assert (tool.watching.currentText(), tool.watched.currentText()) == ("german-deployment", "russian-infiltration")


@pytest.mark.slow
def test_the_sighting_profile_shows_the_whole_chart(window: MainWindow, workspace: Path) -> None:
    """At 1366x768 the Sighting Chart of a line between levels showed only its top strip (10.32 b)."""
    window.set_document(open_document(next((workspace / "scenarios").glob("s6-*.yaml"))))
    board = window.document.board
    window.use_tool("los")
    tool = window.tools["los"]
    tool.press(board.hex("4314"), None)  # the top of Hill K, level 2
    tool.press(board.hex("4305"), None)  # level 0
    QApplication.processEvents()
    assert tool.dock.isVisible() and tool.chart.isVisible()
    assert tool.chart.height() >= tool.chart.minimumHeight()
    assert tool.chart.visibleRegion().boundingRect().height() >= tool.chart.minimumHeight()


def test_the_order_of_battle_keeps_its_rows_after_a_map_then_a_scenario(
    window: MainWindow, workspace: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    tree = window.findChild(OobPanel).findChild(QTreeWidget)
    QApplication.processEvents()  # the docks laid out as the window starts
    rows = tree.viewport().height()
    assert rows >= 4 * tree.fontMetrics().lineSpacing()
    window.set_document(open_document(workspace / "maps" / "map2.yaml"))
    QApplication.processEvents()
    window.set_document(open_document(next((workspace / "scenarios").glob("s6-*.yaml"))))
    qtbot.waitUntil(lambda: tree.isVisible())
    QApplication.processEvents()
    assert tree.viewport().height() >= rows  # was two rows, under a stray tab bar


def test_a_window_opened_on_a_map_gives_a_scenario_opened_next_room(qtbot, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(open_document(workspace / "maps" / "map2.yaml"))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    window.set_document(open_document(next((workspace / "scenarios").glob("s6-*.yaml"))))
    tree = window.findChild(OobPanel).findChild(QTreeWidget)
    qtbot.waitUntil(lambda: tree.viewport().height() >= 4 * tree.fontMetrics().lineSpacing())
    squad = tree.topLevelItem(0).child(0).child(0)  # the columns fit the units, not the map's empty tree
    cell = tree.visualRect(tree.indexFromItem(squad, 0))  # after its indentation
    assert cell.width() >= tree.fontMetrics().horizontalAdvance(squad.text(0))


def test_at_1366x768_the_order_of_battle_has_five_rows_and_the_scenario_panel_no_blank(  # type: ignore[no-untyped-def]
    qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real window at 1366x768 (iceditor edit, under Xvfb) showed the tree two to four rows high:
    the Scenario panel kept 35 blank pixels when the window fitted the screen, and the counter's
    values took two fifths of the dock. A screen of 736 pixels, the task bar left out."""
    from PySide6.QtCore import QRect

    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)
    window = MainWindow(open_document(next((workspace / "scenarios").glob("s1-*.yaml"))))
    qtbot.addWidget(window)
    window.fit_screen(QRect(0, 0, 1366, 736))
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    window.fit_screen(QRect(0, 0, 1366, 736))  # again once shown, as `iceditor edit` does: 704 high
    for _ in range(3):
        QApplication.processEvents()
    tree = window.findChild(OobPanel).findChild(QTreeWidget)
    assert tree.viewport().height() >= 5 * tree.fontMetrics().lineSpacing()
    metadata = next(d for d in window.findChildren(QDockWidget) if d.windowTitle() == "Scenario")
    content = metadata.widget().widget()
    assert metadata.height() - content.height() <= 30, (metadata.height(), content.height())  # its title bar
