"""The editor window as a user meets it: it fits a 1366x768 screen in every state, the map stays
put when another tool is chosen, the status bar's messages show, the tool bar has icons in
groups, the Problems panel sorts, counts, filters, searches and groups, the Help menu, the redo
keys, the Building hint, the Number box, and `iceditor` without a display."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QLineEdit,
    QMessageBox,
    QScrollArea,
    QTabBar,
    QTableWidget,
    QTextBrowser,
    QToolButton,
    QTreeWidgetItem,
)

from engine.problems import Problem, Severity
from engine.validate.registry import all_checks
from iceditor.editor.document import open_document
from iceditor.editor.features.scenario_panel import MetadataPanel
from iceditor.editor.problems_panel import ProblemsPanel
from iceditor.editor.window import GROUPS, MainWindow

from .conftest import SPEC_MAP

pytestmark = pytest.mark.gui

SCREEN = QRect(0, 0, 1366, 768)


@pytest.fixture(autouse=True)
def discard_on_close(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture
def window(qtbot, workspace: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    """Scenario 1 (every panel) in a window fitted to a 1366x768 screen, as `iceditor` opens it."""
    w = MainWindow(open_document(next((workspace / "scenarios").glob("s1-*.yaml"))))
    qtbot.addWidget(w)
    w.fit_screen(SCREEN)
    with qtbot.waitActive(w):  # shortcuts reach the active window only
        w.show()
        w.activateWindow()
    w.fit_screen(SCREEN)  # again with the borders known, as `iceditor` does once the window is shown
    settle()
    return w


def inside(window: MainWindow) -> None:
    """The window and its status bar are on the 1366x768 screen, the status bar inside the window."""
    assert SCREEN.contains(window.frameGeometry()), window.frameGeometry()
    assert window.minimumSizeHint().width() <= SCREEN.width()
    assert window.minimumSizeHint().height() <= SCREEN.height()
    bar = window.statusBar()
    assert bar.isVisible() and window.rect().contains(bar.geometry()), bar.geometry()


# -- fitting the screen ------------------------------------------------------------------------------


def test_fit_screen_shrinks_and_moves_the_window_onto_the_screen(window: MainWindow) -> None:
    window.resize(1600, 1000)
    window.move(300, 200)
    window.fit_screen(SCREEN)
    assert SCREEN.contains(window.frameGeometry())
    assert window.frameGeometry().width() == 1366


def test_every_tool_and_every_panel_fits_1366x768(window: MainWindow) -> None:
    """The reporter's window grew to 946-973 px high with Movement or Line of sight chosen."""
    inside(window)
    for name in window.tools:
        window.use_tool(name)
        settle()
        inside(window)
    for dock in window.findChildren(QDockWidget):
        if dock.toggleViewAction().isVisible():
            dock.show()
            dock.raise_()
            settle()
            inside(window)
    profile = window.findChild(QDockWidget, "sighting-profile")
    window.use_tool("los")
    settle()
    # a tab of the Problems panel's place, the window's width: the Sighting Chart is not squeezed
    assert profile.isVisible() and profile in window.tabifiedDockWidgets(window.problems_dock)
    assert profile.width() > 0.9 * window.width()


def test_no_panel_scrolls_sideways_at_1366x768(window: MainWindow) -> None:
    """Under Xvfb at 1366x768 the Victory panel scrolled sideways by 19 px: its result's side, kind
    and two buttons in one row were wider than the dock. Each panel fits its dock's width."""
    wide = {}
    for dock in window.findChildren(QDockWidget):
        if not dock.toggleViewAction().isVisible():
            continue
        dock.show()
        dock.raise_()
        settle()
        for area in dock.findChildren(QScrollArea):
            if area.isVisible() and area.horizontalScrollBar().maximum() > 0:
                wide[dock.windowTitle()] = area.horizontalScrollBar().maximum()
    assert not wide, wide


def test_no_stray_tab_bar_names_a_hidden_panel(qtbot, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    """The panels that open as tabs of the Problems panel's place join it when first shown: tabbed
    while hidden, Qt drew a "Problems | Errata" tab bar over the Order of battle (`iceditor snapshot`)."""
    window = MainWindow(open_document(next((workspace / "scenarios").glob("s1-*.yaml"))))
    qtbot.addWidget(window)
    window.show()  # no resize after: a snapshot is drawn so
    settle()
    hidden = {d.windowTitle() for d in window.findChildren(QDockWidget) if not d.isVisible()}
    assert {"Errata", "Sighting profile", "Viewshed", "Movement"} <= hidden
    for bar in window.findChildren(QTabBar):
        shown = {bar.tabText(i) for i in range(bar.count())}
        assert not (bar.isVisible() and shown & hidden), shown


def test_the_map_does_not_move_when_another_tool_is_chosen(window: MainWindow) -> None:
    """Each tool's options share one row of one height: the view keeps its place and its picture."""
    window.use_tool("select")
    settle()
    before = (window.view.geometry(), window.view.mapToScene(QPoint(0, 0)), window.options_bar.height())
    for name in [*window.tools, "fill", "trees-add", "road"]:
        window.use_tool(name)
        settle()
        now = (window.view.geometry(), window.view.mapToScene(QPoint(0, 0)), window.options_bar.height())
        assert now == before, name


# -- the status bar ----------------------------------------------------------------------------------


def message_visible(window: MainWindow) -> None:
    """The temporary message is drawn left of the permanent widgets: room for its words, and ink there."""
    bar = window.statusBar()
    message = bar.currentMessage()
    assert message
    left = min(w.geometry().left() for w in (window._status, window.problem_count) if w.isVisible())
    room = min(bar.fontMetrics().horizontalAdvance(message), 300)
    assert left > room + 8, (left, message)
    picture = bar.grab().toImage()
    background = picture.pixelColor(2, 2)
    ink = sum(
        1
        for x in range(4, room, 2)
        for y in range(picture.height() // 4, 3 * picture.height() // 4)
        if picture.pixelColor(x, y) != background
    )
    assert ink > 20


def test_the_status_bar_shows_the_tools_tip_and_the_los_answer(window: MainWindow) -> None:
    board = window.document.board
    window.scene.hovered.emit(board.hex("4307"))  # the hex under the cursor stays at the right
    window.use_tool("marsh")
    assert window.statusBar().currentMessage().startswith("Paint marsh hexes")
    message_visible(window)
    window.use_tool("los")
    tool = window.tools["los"]
    tool.press(board.hex("4512"), None)
    tool.press(board.hex("4918"), None)
    assert window.statusBar().currentMessage().startswith("LOS 4512 → 4918: blocked at 4613 (10.31 b)")
    message_visible(window)
    assert window._status.text().startswith("4307")
    assert window.problem_count.text() == "✖ 0  ▲ 0  ℹ 3"


def test_the_problem_counts_bring_the_problems_panel_to_the_front(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The overlay panels are tabs of the Problems panel's place: the counts, red with errors, bring it back."""
    window.use_tool("movement")
    settle()
    assert window.problems_panel.visibleRegion().isEmpty()  # behind the Movement tab
    assert window.problem_count.styleSheet() == ""
    board = window.document.board
    window.paint("Split Building 23", {board.hex("4308"): board.terrain(board.hex("4308")).changed({"building": None})})
    qtbot.waitUntil(lambda: window.problem_count.text().startswith("✖ 1") or "✖ 0" not in window.problem_count.text())
    assert "c62828" in window.problem_count.styleSheet()
    qtbot.mouseClick(window.problem_count, Qt.MouseButton.LeftButton)
    settle()
    assert not window.problems_panel.visibleRegion().isEmpty()


def test_after_the_start_up_check_the_counts_stand_and_no_message_stays(window: MainWindow) -> None:
    from iceditor.editor.app import check_shown

    window.problem_count.setText("")
    check_shown(window)
    assert window.statusBar().currentMessage() == "" and window.problem_count.text() == "✖ 0  ▲ 0  ℹ 3"


# -- the tool bar --------------------------------------------------------------------------------------


def test_the_tools_have_icons_in_groups_and_the_chosen_one_is_checked(window: MainWindow) -> None:
    bar = window.tool_bar
    groups = [a.property("group") for a in bar.actions() if not a.isSeparator()]
    assert len(groups) == len(window.tools) == 17  # the Map edge tool (D) of issue 20 the 17th
    assert groups == sorted(groups, key=list(GROUPS).index)  # each group together, in order
    assert set(groups) == set(GROUPS)
    kinds = ["|" if a.isSeparator() else a.property("group") for a in bar.actions()]
    for before, after in itertools.pairwise(kinds):  # a separator between two groups
        assert before == after or "|" in (before, after)
    pictures = set()
    for action in bar.actions():
        if action.isSeparator():
            continue
        assert not action.icon().isNull()
        button = bar.widgetForAction(action)
        assert isinstance(button, QToolButton) and button.isVisible()
        image = action.icon().pixmap(24, 24).toImage()
        pictures.add(bytes(image.constBits()))
        assert action.shortcut().toString() in action.toolTip()
    assert len(pictures) == 17  # no two tools look alike
    window.findChild(QAction, "tool-viewshed").trigger()
    checked = [a.objectName() for a in bar.actions() if a.isChecked()]
    assert checked == ["tool-viewshed"] and bar.widgetForAction(window.findChild(QAction, "tool-viewshed")).isChecked()
    titles = [a.text() for a in window.menus["Tools"].actions() if a.isSeparator()]
    assert titles == list(GROUPS.values())


# -- keys and hints ------------------------------------------------------------------------------------


def test_ctrl_y_and_the_platforms_redo_keys_redo(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    board = window.document.board
    h = board.hex("3105")
    trees = board.terrain(h).trees
    redo = next(a for a in window.menus["Edit"].actions() if a.text().startswith("&Redo"))
    keys = [*QKeySequence.keyBindings(QKeySequence.StandardKey.Redo), QKeySequence("Ctrl+Y")]
    assert all(k in redo.shortcuts() for k in keys)
    window.paint("Trees", {h: board.terrain(h).changed({"trees": trees + 2})})
    for sequence in keys:
        window.undo_stack.undo()
        assert board.terrain(h).trees == trees
        window.view.setFocus()
        QTest.keySequence(window.view, sequence)
        assert board.terrain(h).trees == trees + 2, sequence.toString()


def test_the_building_hint_follows_new_buildings(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The spec map has Building 1: after two strokes make Buildings 2 and 3, the next id is 4."""
    path = tmp_path / "m.yaml"
    path.write_text(SPEC_MAP, encoding="utf-8")
    window = MainWindow(open_document(path))
    qtbot.addWidget(window)
    window.show()
    window.use_tool("building")
    hint = window.findChild(QLabel, "summary-building")
    assert "next id 2" in hint.text()
    tool, board = window.tools["building"], window.document.board
    for label in ("1402", "1404"):
        tool.press(board.hex(label), None)
        tool.release(board.hex(label), None)
    assert board.terrain(board.hex("1404")).building == "3"
    assert "next id 4" in hint.text() and "next id 4" in hint.toolTip()
    window.undo_stack.undo()
    assert "next id 3" in hint.text()


# -- the Problems panel ---------------------------------------------------------------------------------


def problems() -> list[Problem]:
    long = "a message long enough to need more than one line of the panel, " * 4
    return [
        Problem("objective-turns", Severity.INFO, "German units first stand on 4307 turn 2", "8.1", "s.yaml", 52),
        Problem("level-jump", Severity.WARNING, "4105 level 2 beside 4106 level 0", "8.53", "m.yaml", 9, hex="4105"),
        Problem("building-split", Severity.ERROR, "Building 3 is in two parts", "24.9", "m.yaml", 12, hex="4307"),
        Problem("level-jump", Severity.WARNING, "4205 level 2 beside 4206 level 0", "8.53", "m.yaml", 11, hex="4205"),
        Problem("level-jump", Severity.WARNING, "4305 level 2 beside 4306 level 0", "8.53", "m.yaml", 10, hex="4305"),
        Problem("hex-outside-grid", Severity.ERROR, long, "2.1", "m.yaml", 30, hex="9999"),
        Problem("building-split", Severity.ERROR, "Building 5 is in two parts", "24.9", "m.yaml", 14, hex="4310"),
    ]


@pytest.fixture
def panel(qtbot) -> ProblemsPanel:  # type: ignore[no-untyped-def]
    shown = ProblemsPanel()
    qtbot.addWidget(shown)
    shown.resize(700, 300)
    shown.show()
    shown.set_problems(problems())
    return shown


def texts(panel: ProblemsPanel) -> list[str]:
    return [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]


def test_problems_errors_first_with_counts(panel: ProblemsPanel) -> None:
    severities = [p.severity for p in panel.visible_problems()]
    assert severities == [Severity.ERROR] * 3 + [Severity.WARNING] * 3 + [Severity.INFO]
    buttons = panel.severity_buttons
    assert [buttons[s].text() for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)] == [
        "✖ 3 errors",
        "▲ 3 warnings",
        "ℹ 1 info",
    ]
    assert texts(panel)[0].startswith("✖ 2 × ") and texts(panel)[0].endswith("[building-split]")
    group = panel.tree.topLevelItem(0)
    assert group.isExpanded()  # errors' groups start open
    assert group.child(0).text(0) == "✖ Building 3 is in two parts (24.9) [building-split]"
    assert texts(panel)[1].startswith("✖ a message long enough")


def warnings_group(panel: ProblemsPanel) -> QTreeWidgetItem:
    return next(panel.tree.topLevelItem(i) for i in range(4) if "[level-jump]" in panel.tree.topLevelItem(i).text(0))


def test_problems_of_one_check_are_grouped_and_long_lines_have_tooltips(panel: ProblemsPanel) -> None:
    group = warnings_group(panel)
    assert group.childCount() == 3 and group.text(0).startswith("▲ 3 × ") and "[level-jump]" in group.text(0)
    assert not group.isExpanded()
    assert [group.child(i).text(1) for i in range(3)] == ["m.yaml:9 [4105]", "m.yaml:10 [4305]", "m.yaml:11 [4205]"]
    group.setExpanded(True)
    panel.tree.topLevelItem(0).setExpanded(False)  # the errors' group
    panel.set_problems(problems())  # a revalidation keeps the groups as the user left them
    assert warnings_group(panel).isExpanded() and not panel.tree.topLevelItem(0).isExpanded()
    long = next(r for r in panel.rows() if r.data(0, Qt.ItemDataRole.UserRole).code == "hex-outside-grid")
    tip = long.toolTip(0)
    assert "m.yaml:30:1: error: a message long enough" in tip and tip.count("a message long enough") == 4
    fix = next(c for c in all_checks() if c.id == "hex-outside-grid").fix
    assert "How to fix it" in tip and fix.split()[0] in tip
    assert tip.startswith("<p>")  # rich text: Qt wraps it instead of one line across the screen


def test_problems_filter_by_severity_and_search(panel: ProblemsPanel, qtbot) -> None:  # type: ignore[no-untyped-def]
    panel.severity_buttons[Severity.WARNING].click()
    assert {p.severity for p in panel.visible_problems()} == {Severity.ERROR, Severity.INFO}
    assert panel.shown.text() == "4 of 7 shown"
    panel.severity_buttons[Severity.WARNING].click()
    qtbot.keyClicks(panel.search, "4205 LEVEL")
    assert [p.hex for p in panel.visible_problems()] == ["4205"]
    assert texts(panel) == ["▲ 4205 level 2 beside 4206 level 0 (8.53) [level-jump]"]  # one left: no group
    panel.search.setText("24.9")
    assert [p.code for p in panel.visible_problems()] == ["building-split"] * 2
    panel.search.clear()
    assert len(panel.rows()) == 7 and panel.shown.text() == ""


def test_choosing_a_problem_selects_its_hex(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    board = window.document.board
    window.paint("Clear objectives", {board.hex("4307"): board.terrain(board.hex("4307")).changed({"building": None})})
    qtbot.waitUntil(lambda: any(p.hex for p in window.problems))
    panel = window.problems_panel
    row = next(r for r in panel.rows() if r.data(0, Qt.ItemDataRole.UserRole).hex)
    problem = row.data(0, Qt.ItemDataRole.UserRole)
    if row.parent() is not None:
        row.parent().setExpanded(True)
    panel.tree.scrollToItem(row)
    QTest.mouseClick(panel.tree.viewport(), Qt.MouseButton.LeftButton, pos=panel.tree.visualItemRect(row).center())
    assert window.selected == {board.hex(problem.hex)}


# -- the Help menu -------------------------------------------------------------------------------------


def test_help_menu_guide_keys_checks_about(window: MainWindow) -> None:
    names = [a.objectName() for a in window.menus["Help"].actions() if not a.isSeparator()]
    assert names == ["help-guide", "help-keys", "help-checks", "help-about"]
    window.findChild(QAction, "help-guide").trigger()
    guide = window.findChild(QTextBrowser, "help-guide-text")
    assert guide.isVisible() and "Tools and their keys" in guide.toPlainText()
    window.findChild(QAction, "help-keys").trigger()
    keys = window.findChild(QTableWidget, "help-keys-table")
    rows = {keys.item(r, 1).text(): keys.item(r, 2).text() for r in range(keys.rowCount())}
    assert "Ctrl+Y" in rows["Redo"] and rows["Line of sight"] == "L" and rows["Trees -"] == "Shift+T"
    assert rows["User guide"] == "F1" and rows["Zoom"] == "mouse wheel"
    window.findChild(QAction, "help-checks").trigger()
    checks = window.findChild(QTableWidget, "help-checks-table")
    assert checks.rowCount() == len(all_checks())
    search = window.findChild(QLineEdit, "help-checks-table-search")
    search.setText("10.31")
    shown = [r for r in range(checks.rowCount()) if not checks.isRowHidden(r)]
    assert 0 < len(shown) < checks.rowCount()
    assert all("10.31" in " ".join(checks.item(r, c).text() for c in range(5)) for r in shown)
    window.findChild(QAction, "help-about").trigger()
    about = window.findChild(QMessageBox, "help-about-dialog")
    assert about.isVisible() and "iceditor 0." in about.text() and "Qt " in about.text()
    about.close()


# -- the scenario's number -------------------------------------------------------------------------------


def test_a_scenario_numbered_101_shows_101(qtbot, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    path = next((workspace / "scenarios").glob("s1-*.yaml"))
    path.write_text(path.read_text(encoding="utf-8").replace("\nnumber: 1\n", "\nnumber: 101\n"), encoding="utf-8")
    window = MainWindow(open_document(path))
    qtbot.addWidget(window)
    metadata = window.findChild(MetadataPanel)
    assert metadata.number.value() == 101
    assert metadata.number.maximum() == 999  # the schema's highest number
    metadata.number.setValue(250)
    assert window.document.scenario.data["number"] == 250


# -- no display ----------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="Linux and the BSDs need a display server")
@pytest.mark.parametrize("argv", [[], ["edit", "scenarios/s6-spartakovka.yaml"]])
def test_without_a_display_the_editor_says_so(argv: list[str]) -> None:
    """Qt's xcb plugin aborts (exit 134) without a display: iceditor says why and what to do instead."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "LANG")}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from iceditor.cli import main; sys.exit(main(sys.argv[1:]))", *argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 2, done.stderr
    assert "no display found" in done.stderr and "DISPLAY" in done.stderr
    assert "iceditor snapshot" in done.stderr and "QT_QPA_PLATFORM=offscreen" in done.stderr
    assert "Traceback" not in done.stderr and "xcb" not in done.stderr
    name = argv[-1] if argv else "s1-demyansk-pocket.yaml"
    assert name in done.stderr
