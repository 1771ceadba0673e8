"""The New-to-valid test (issue 20): a scenario like Scenario 1 (24.4) made from File > New
scenario to zero errors through the panels only, as a user clicks and types them, saved, and the
saved file validates (`iceditor validate`) and plays (`iceditor play`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMenu, QSpinBox, QTreeWidgetItem

from engine.model.mapsheet import load_map
from engine.problems import Severity
from engine.resources import data_path
from iceditor.editor.features.oob_editor import AMMO, CLAUSE, UNIT, OobPanel
from iceditor.editor.features.sides_panel import SidesPanel
from iceditor.editor.features.source_panel import SourcePanel
from iceditor.editor.features.victory_editor import VictoryPanel
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.mapview import centre
from iceditor.editor.new_scenario import MapChoice, NewScenario
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow
from iceditor.editor.zone_starts import WHERE

from .test_editor_files import Dialogs, autosave_here, dialogs, files, scenario, window_on  # noqa: F401

pytestmark = pytest.mark.gui
REPO = Path(__file__).resolve().parents[1]
MAP2 = MapChoice("map2", load_map(data_path("maps", "map2.yaml")), True)
BACKGROUND = (
    "During the last week of February, 1942 units of the Russian 34th Army attempted to penetrate the "
    "northeast sector of the German line around the Demyansk pocket."
)
GERMAN_DEPLOYMENT = """\
any_of:
  - all_of:
      - any_of: [{terrain: building}, {terrain: woods}]
      - adjacent_to: {road: ["4001", "5014"]}
  - {hill: K}
"""


def settle(window: MainWindow, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    """Let the panels' deferred edits run and the window revalidate; the errors left."""
    for _ in range(3):
        QApplication.processEvents()
    qtbot.waitUntil(lambda: not window._revalidate.isActive())
    QApplication.processEvents()
    return [f"{p.code}: {p.message}" for p in window.problems if p.severity is Severity.ERROR]


def select_hexes(window: MainWindow, *labels: str) -> None:
    """Select hexes with the Select tool (S): a click on the first, Ctrl+click... as the tool takes
    them; here one press-drag-release over each hex of a row, a rectangle around them."""
    window.use_tool("select")
    viewport = window.view.viewport()
    board = window.document.board
    for i, label in enumerate(labels):
        window.view.centre_on(board.hex(label))
        QApplication.processEvents()
        point = window.view.mapFromScene(centre(board.hex(label)))
        modifier = Qt.KeyboardModifier.NoModifier if i == 0 else Qt.KeyboardModifier.ShiftModifier
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, modifier, point)
        QTest.mouseMove(viewport, point + QPoint(2, 2))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier, point + QPoint(2, 2))
    QApplication.processEvents()


def click_hex(window: MainWindow, label: str) -> None:
    board = window.document.board
    window.view.centre_on(board.hex(label))
    QApplication.processEvents()
    point = window.view.mapFromScene(centre(board.hex(label)))
    QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    QApplication.processEvents()


def menu_action(menu: QMenu, *path: str) -> None:
    """Open the menu (it fills itself as it is shown) and trigger the action down `path`."""
    menu.aboutToShow.emit()
    for title in path[:-1]:
        menu = next(a.menu() for a in menu.actions() if a.menu() is not None and a.text() == title)
    action = next(a for a in menu.actions() if a.text() == path[-1])
    assert action.isEnabled(), f"{path[-1]} is greyed out"
    action.trigger()


def new_zone(zones: ZonePanel, window: MainWindow, name: str, *hexes: str, text: str | None = None) -> None:
    show_dock(zones)
    zones.pages.setCurrentIndex(0)  # the Zones page
    select_hexes(window, *hexes)
    QTest.keyClicks(zones.new_name, name)
    QTest.mouseClick(window.findChild(type(zones.apply_button), "zone-new"), Qt.MouseButton.LeftButton)
    assert zones.name == name
    if text is not None:
        zones.editor.selectAll()
        zones.editor.insertPlainText(text)
        QTest.mouseClick(zones.apply_button, Qt.MouseButton.LeftButton)


def tree_item(oob: OobPanel, text: str, parent: QTreeWidgetItem | None = None) -> QTreeWidgetItem:
    found = oob.tree.findItems(text, Qt.MatchFlag.MatchStartsWith | Qt.MatchFlag.MatchRecursive)
    found = [i for i in found if parent is None or i.parent() is parent]
    assert found, f"no row {text!r}"
    return found[0]


def add_group(oob: OobPanel, side: str, first: tuple[str, str], name: str) -> QTreeWidgetItem:
    oob.tree.setCurrentItem(tree_item(oob, side.capitalize()))
    menu_action(oob.add_group, *first)
    group = tree_item(oob, "group-", tree_item(oob, side.capitalize()))
    group.setText(UNIT, name)  # a double-click on the name, typed over
    QApplication.processEvents()
    return tree_item(oob, name, tree_item(oob, side.capitalize()))


def add_unit(oob: OobPanel, group: QTreeWidgetItem, *path: str) -> None:
    oob.tree.setCurrentItem(group)
    menu_action(oob.add_unit, *path)


def set_cell(oob: OobPanel, side: str, unit: str, column: int, text: str) -> None:
    item = tree_item(oob, unit, tree_item(oob, "main", tree_item(oob, side.capitalize())))
    item.setText(column, text)
    QApplication.processEvents()


def test_a_scenario_like_scenario_1_from_new_to_valid_through_the_panels(  # type: ignore[no-untyped-def]
    workspace: Path,
    window_on,  # noqa: F811 (the fixture imported above)
    dialogs: Dialogs,  # noqa: F811
    qtbot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_on(scenario(workspace, 1))
    window.resize(1366, 768)
    # File > New scenario: Map 2, 7 turns, the Germans set up first, the Russians move first, north
    # toward the last row ("NORTH INDICATOR: Place in hex 5001 pointing to hex 5002": that way too)
    assert files(window).new_scenario(
        NewScenario("Demyansk Pocket", 1, (MAP2,), 7, "german", "russian", "down", BACKGROUND)
    )
    assert any("groups" in e for e in settle(window, qtbot))  # half-made: no units, no victory yet

    # Source page: it is a designer's own; the errata apply
    source = window.findChild(SourcePanel)
    show_dock(source)
    source.source["publication"].setText("own design")
    source.source["publication"].editingFinished.emit()

    # Zones, each from hexes selected on the map, then typed or picked on the map
    zones = window.findChild(ZonePanel)
    new_zone(zones, window, "objectives", "4307", "4308")
    new_zone(zones, window, "german-deployment", "4307", text=GERMAN_DEPLOYMENT)
    new_zone(
        zones,
        window,
        "russian-infiltration",
        "4010",
        text='side_of: {side: northeast, road: ["4001", "5014"], boundary: exclude}\n',
    )
    new_zone(zones, window, "russian-entry", "3027")
    window.use_tool("map-edge")  # the Map edge tool (D): a click on a north-edge hex
    click_hex(window, "4027")
    assert zones.editor.toPlainText().strip() == "{map_edge: north}"
    QTest.mouseClick(zones.apply_button, Qt.MouseButton.LeftButton)
    assert settle(window, qtbot)  # still half-made

    # Order of battle: "GERMAN SET-UP: Squad C (10); MMG #1 (12); PL"
    oob = window.findChild(OobPanel)
    show_dock(oob)
    german = add_group(oob, "german", ("Squads", "Squad C"), "main")
    add_unit(oob, german, "Crew weapons", "MMG #1")
    add_unit(oob, tree_item(oob, "main", tree_item(oob, "German")), "Commanders", "PL PR11")
    set_cell(oob, "german", "Squad C", AMMO, "10")
    set_cell(oob, "german", "MMG #1", AMMO, "12")
    # "RUSSIAN SET-UP: Squad A (8) less LMG PR8; Squad B (8) less LMG PR8; Squad C (8) less R PR9;
    # MMG #'s 1 & 2 (14 each); PL PR10; APL PR9"
    russian = add_group(oob, "russian", ("Squads", "Squad A"), "main")
    for path in (("Squads", "Squad B"), ("Squads", "Squad C"), ("Crew weapons", "MMG #1"), ("Crew weapons", "MMG #2")):
        add_unit(oob, tree_item(oob, "main", tree_item(oob, "Russian")), *path)
    for path in (("Commanders", "PL PR10"), ("Commanders", "APL PR9")):
        add_unit(oob, tree_item(oob, "main", tree_item(oob, "Russian")), *path)
    for unit, clause in (("Squad A", "less LMG PR8"), ("Squad B", "less LMG PR8"), ("Squad C", "less R PR9")):
        set_cell(oob, "russian", unit, AMMO, "8")
        set_cell(oob, "russian", unit, CLAUSE, clause)
    for unit in ("MMG #1", "MMG #2"):
        set_cell(oob, "russian", unit, AMMO, "14")
    assert russian is not None

    # Where they start: the rows of the groups no deployment or entry names (unit-not-placed)
    settle(window, qtbot)
    zones.starts_page.show_starts()  # the Deployments and entries page
    german_row = zones.starts_page.start_paths.index(("sides", "german", "groups", 0))
    combo = zones.starts_page.starts.cellWidget(german_row, WHERE)
    assert isinstance(combo, QComboBox)
    combo.setCurrentText("german-deployment")  # "Deploy in any building or tree hex ... or on Hill K"
    settle(window, qtbot)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "russian", "groups", 0)))
    QTest.mouseClick(window.findChild(type(zones.apply_button), "starts-add-entry"), Qt.MouseButton.LeftButton)
    entry_row = zones.starts_page.start_paths.index(("sides", "russian", "entries", 0, "options", 0))
    combo = zones.starts_page.starts.cellWidget(entry_row, WHERE)
    combo.setCurrentText("russian-entry")  # "enter on turn 1 on the north mapedge"
    errors = settle(window, qtbot)
    assert not any("unit-not-placed" in e for e in errors)

    # Sides: grenades, hidden hexes, IP1 x 2; the Russians' infiltration (24.3)
    sides = window.findChild(SidesPanel)
    show_dock(sides)
    sides.side.setCurrentText("german")
    sides.grenades.setValue(6)
    sides.hidden.setValue(2)
    QTest.mouseClick(window.findChild(type(zones.apply_button), "sides-add-ips"), Qt.MouseButton.LeftButton)
    count = sides.ips.cellWidget(0, 1)
    assert isinstance(count, QSpinBox)
    count.setValue(2)
    settle(window, qtbot)
    sides.side.setCurrentText("russian")
    sides.grenades.setValue(10)
    QTest.keyClicks(sides.infiltration_printed, "2. May infiltrate any hex north and east of road 4001-5014.")
    sides.infiltration_zone.setCurrentText("russian-infiltration")
    sides.infiltration.setChecked(True)

    # Victory: "at least one unit in both hex 4307 and hex 4308 ... Any other result is a draw."
    victory = window.findChild(VictoryPanel)
    show_dock(victory)
    victory.otherwise.setCurrentText("draw")
    for side in ("german", "russian"):
        victory.template_side.setCurrentText(side)
        victory.template.setCurrentText("occupies each hex of")
        QTest.mouseClick(window.findChild(type(zones.apply_button), "victory-add-result"), Qt.MouseButton.LeftButton)

    assert settle(window, qtbot) == []
    target = workspace / "scenarios" / "demyansk-again.yaml"
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), ""))
    assert files(window).save()
    saved = yaml.safe_load(target.read_text(encoding="utf-8"))
    assert saved["sides"]["russian"]["groups"][0]["units"][0] == {"squad": "A", "ammo": 8, "less": ["LMG PR8"]}
    assert saved["infiltration"]["zone"] == "russian-infiltration"
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    validated = subprocess.run(
        [sys.executable, "-m", "iceditor", "validate", str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
    played = subprocess.run(
        [sys.executable, "-m", "iceditor", "play", "--seed", "1", str(target)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    assert "draw" in played.stdout.lower() or "wins" in played.stdout.lower()
