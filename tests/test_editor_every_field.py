"""From File > New scenario to a scenario with no errors using every field of format 2 (issue 20),
through the panels only: the fields the Scenario 1-like test (test_editor_new_to_valid.py) leaves
out are set here too (source, assumed marks, corrections, errata, printed texts, notes, rulings,
caps, entry options and phases, units: lists, pools and clauses, mines, restrictions, a test
set-up, assertions, control), and the saved file is checked to hold every key the scenario schema
defines but those listed in NOT_HERE, each with the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox

from engine.model.source import load_yaml
from iceditor.editor.features.oob_editor import AMMO, CLAUSE, STATE, OobPanel
from iceditor.editor.features.setup_editor import SetupPanel
from iceditor.editor.features.sides_panel import SidesPanel
from iceditor.editor.features.source_panel import SourcePanel
from iceditor.editor.features.victory_editor import VictoryPanel
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.marks import MarksBox
from iceditor.editor.new_scenario import NewScenario
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.zone_starts import PHASE, WHERE

from .test_editor_files import Dialogs, autosave_here, dialogs, files, scenario, window_on  # noqa: F401
from .test_editor_new_to_valid import (
    BACKGROUND,
    GERMAN_DEPLOYMENT,
    MAP2,
    add_group,
    add_unit,
    click_hex,
    new_zone,
    settle,
    tree_item,
)

pytestmark = [pytest.mark.gui, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[1]
# Keys of the scenario schema a scenario of one map, won by results, does not hold, and why.
NOT_HERE = {
    # zone expressions are typed as YAML in the Zones panel: any of them is text like the others
    **dict.fromkeys(
        (
            "adjacent_to",
            "all_of",
            "boundary",
            "building",
            "column",
            "edge",
            "except",
            "gully",
            "line",
            "map",
            "minus",
            "road",
            "route",
            "row",
            "side_of",
            "straight",
            "terrain",
            "toward",
            "heading",
            "when",
            "hill",
        ),
        "a zone expression's operator, typed in the Zones panel",
    ),
    # the victory points: tests/test_editor_victory_points.py (a victory of points has no results)
    **dict.fromkeys(
        ("points", "awards", "schedule", "per_hex_controlled", "per_building_controlled", "sizes", "vp", "result"),
        "victory points, tests/test_editor_victory_points.py",
    ),
    # members of a cap, units of another kind, and the like: one of each kind is enough
    **dict.fromkeys(("FT", "MP", "R", "commanders", "crew_weapons", "squads", "afvs", "types", "count"), "one kind"),
    "sole_occupant": "a condition written as YAML, like occupies_each",
    "no_units_in": "a condition written as YAML, like occupies_each",
    "units_in": "a condition written as YAML, like occupies_each",
    "only": "the other clause (less) is set; both are the same cell",
    "unit": "a kept unit of an `only` clause, the same cell",
    "each": "the other form of a pool (16 pool): tests/test_editor_format2_fields.py sets {each: 10}",
    "at_least": "units_in's argument, a condition written as YAML",
    "afv": "an AFV is a unit of the countersheet as the others; Map 2's Scenario 1 fields none",
    "format": "written by New scenario",
    "german": "a side",
    "russian": "a side",
    "value": "otherwise with marks: the victory's marks instead",
}


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def schema_keys() -> set[str]:
    def walk(node: Any) -> set[str]:
        found: set[str] = set()
        if isinstance(node, dict):
            found |= set(node.get("properties") or {})
            for key, value in node.items():
                if key not in ("propertyNames",):
                    found |= walk(value)
        elif isinstance(node, list):
            for value in node:
                found |= walk(value)
        return found

    return walk(json.loads((REPO / "schemas" / "scenario.schema.json").read_text(encoding="utf-8")))


def type_into(field: Any, text: str) -> None:
    field.setFocus()
    field.clear()
    QTest.keyClicks(field, text)
    field.editingFinished.emit()
    QApplication.processEvents()


def marks(box: MarksBox, **values: str) -> None:
    """Typed into the marks box, then the focus elsewhere, as a click on another row moves it
    (a field left with the focus would be finished on the next row's marks)."""
    box.open()
    for key, text in values.items():
        type_into(box.fields[key], text)
    box.window().setFocus()
    QApplication.processEvents()


def correction(box: MarksBox, printed: str, reads: str, why: str) -> None:
    box.open()
    for key, text in (("printed", printed), ("reads", reads), ("why", why)):
        box.correction[key].setText(text)
    box.correction["why"].editingFinished.emit()
    QApplication.processEvents()


def test_every_field_of_format_2_from_new_scenario_to_no_errors(  # type: ignore[no-untyped-def]
    workspace: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
    qtbot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    window = window_on(scenario(workspace, 1))
    window.resize(1366, 768)
    assert files(window).new_scenario(
        NewScenario("Demyansk Again", 41, (MAP2,), 7, "german", "russian", "down", BACKGROUND)
    )
    settle(window, qtbot)
    data = window.document.scenario.data

    # Source page: the rule, the printed lines, the source, an assumed mark, the north's marks
    source = window.findChild(SourcePanel)
    show_dock(source)
    type_into(source.rule, "24.4")
    type_into(source.printed["heading"], "SCENARIO 41: DEMYANSK AGAIN")
    type_into(source.printed["map"], "MAP: Use Map 2")
    for key, text in (
        ("publication", "own design"),
        ("author", "A. Designer"),
        ("issue", "1"),
        ("date", "2026-12-03"),
        ("page", "3"),
        ("url", "https://example.org/s41"),
        ("note", "made in the editor"),
    ):
        type_into(source.source[key], text)
    source.assumed_field.setCurrentText("game_length")
    source.assumed_reason.setText("the length of Scenario 1, untested here")
    assert source.mark_assumed()
    marks(source.north_marks, printed="NORTH INDICATOR: Place in hex 1001 pointing to hex 1002.")

    # Zones: a zone's marks hold its printed text, ruling, assumed reason, correction and erratum
    zones = window.findChild(ZonePanel)
    new_zone(zones, window, "objectives", "4307", "4308")
    marks(zones.zone_marks, printed="hexes 4307 and 4308", ruling="R1", assumed="the objectives of Scenario 1")
    correction(zones.zone_marks, "hex 4306", "hex 4307", "4306 is not in Building 23")
    zones.zone_marks.erratum["printed"].setText("Objective 4306 should read 4307.")
    zones.zone_marks.erratum["was"].setText("4306")
    zones.zone_marks.erratum["now"].setText("4307")
    zones.zone_marks.erratum["now"].editingFinished.emit()
    new_zone(zones, window, "german-deployment", "4307", text=GERMAN_DEPLOYMENT)
    new_zone(zones, window, "german-reserve", "4309", "4310", "4311")
    new_zone(
        zones,
        window,
        "russian-infiltration",
        "4010",
        text='side_of: {side: northeast, road: ["4001", "5014"], boundary: exclude}\n',
    )
    new_zone(zones, window, "russian-entry", "3027")
    window.use_tool("map-edge")
    click_hex(window, "4027")
    QTest.mouseClick(zones.apply_button, Qt.MouseButton.LeftButton)
    assert "map_edge" in str(data["zones"]["russian-entry"]["area"])

    # Order of battle, each kind of unit, and each of its cells and marks
    oob = window.findChild(OobPanel)
    show_dock(oob)
    german = add_group(oob, "german", ("Squads", "Squad C"), "main")
    add_unit(oob, german, "Crew weapons", "MMG #1")
    add_unit(oob, tree_item(oob, "main", tree_item(oob, "German")), "Commanders", "PL PR11")
    add_group(oob, "german", ("Squads", "Squad D"), "reserve")

    def cell(side: str, group: str, unit: str, column: int, text: str) -> None:
        item = tree_item(oob, unit, tree_item(oob, group, tree_item(oob, side.capitalize())))
        item.setText(column, text)
        QApplication.processEvents()
        QApplication.processEvents()

    cell("german", "main", "Squad C", AMMO, "10")
    cell("german", "main", "MMG #1", AMMO, "12")
    cell("german", "main", "MMG #1", STATE, "down")
    add_group(oob, "russian", ("Squads", "Squad A"), "main")
    for path in (("Squads", "Squad B"), ("Commanders", "PL PR10"), ("Commanders", "APL PR9")):
        add_unit(oob, tree_item(oob, "main", tree_item(oob, "Russian")), *path)
    cell("russian", "main", "Squad A", AMMO, "8")
    cell("russian", "main", "Squad A", CLAUSE, "less LMG PR8")
    cell("russian", "main", "Squad B", AMMO, "16 pool")
    oob.tree.setCurrentItem(tree_item(oob, "main", tree_item(oob, "German")))
    marks(oob.marks, printed="GERMAN SET-UP: Squad C (10); MMG #1 (12); PL", note="the main force")
    oob.tree.setCurrentItem(tree_item(oob, "Squad C", tree_item(oob, "main", tree_item(oob, "German"))))
    marks(oob.marks, printed_as="Squad C (10)")
    assert settle(window, qtbot) is not None

    # Where they start: a deployment with a cap, one of units, an entry of two options
    settle(window, qtbot)
    zones.starts_page.show_starts()
    row = zones.starts_page.start_paths.index(("sides", "german", "groups", 0))
    zones.starts_page.starts.cellWidget(row, WHERE).setCurrentText("german-deployment")
    settle(window, qtbot)
    row = zones.starts_page.start_paths.index(("sides", "german", "groups", 1))
    zones.starts_page.starts.cellWidget(row, WHERE).setCurrentText("german-reserve")
    settle(window, qtbot)
    reserve = ("sides", "german", "deployment", 1)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(reserve))
    assert zones.starts_page.units.name_units()  # units: [{squad: D}]
    # "no more than one LMG of the group may deploy in the reserve" (R83): a capped deployment more
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.add_start("deployment")
    capped = zones.starts_page.start_paths.index(("sides", "german", "deployment", 2))
    zones.starts_page.starts.cellWidget(capped, WHERE).setCurrentText("german-reserve")
    settle(window, qtbot)
    capped = zones.starts_page.start_paths.index(("sides", "german", "deployment", 2))
    zones.starts_page.starts.item(capped, 5).setText("members: {LMG: 1}")  # the cap, double-clicked and typed
    qtbot.waitUntil(lambda: "limit" in data["sides"]["german"]["deployment"][2])
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    correction(zones.starts_page.marks, "any building", "any building or tree hex", "the printed line is cut")
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "russian", "groups", 0)))
    QTest.mouseClick(window.findChild(type(zones.apply_button), "starts-add-entry"), Qt.MouseButton.LeftButton)
    option = ("sides", "russian", "entries", 0, "options", 0)
    zones.starts_page.starts.cellWidget(zones.starts_page.start_paths.index(option), WHERE).setCurrentText(
        "russian-entry"
    )
    settle(window, qtbot)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(option))
    assert zones.starts_page.add_option()
    second = ("sides", "russian", "entries", 0, "options", 1)
    zones.starts_page.starts.cellWidget(zones.starts_page.start_paths.index(second), PHASE).setCurrentText(
        "reaction_movement"
    )
    settle(window, qtbot)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(second))
    zones.starts_page.choose.setCurrentText("before_play")
    zones.starts_page.choose.textActivated.emit("before_play")
    marks(zones.starts_page.marks, assumed="a later wave, untested")
    zones.starts_page.marks.of.setCurrentIndex(1)
    zones.starts_page.marks.of.activated.emit(1)  # the entry's own marks
    marks(
        zones.starts_page.marks,
        printed="Enter on the north map edge in the Movement Phase of turn 1 or the Reaction Movement Phase of turn 2.",
    )
    errors = settle(window, qtbot)
    assert not any("unit-not-placed" in e for e in errors), errors

    # Sides: the printed lines, grenades, hidden hexes, mines, IPs in a zone, a restriction of units
    sides = window.findChild(SidesPanel)
    show_dock(sides)
    sides.side.setCurrentText("german")
    type_into(sides.setup_line, "GERMAN SET-UP: Squad C (10); MMG #1 (12); PL; Squad D (12)")
    type_into(sides.notes, "Deploy first.")
    sides.grenades.setValue(6)
    sides.hidden.setValue(2)
    sides.ap_mines.setValue(4)
    sides.at_mines.setValue(2)
    QTest.mouseClick(window.findChild(type(zones.apply_button), "sides-add-ips"), Qt.MouseButton.LeftButton)
    sides.ips.cellWidget(0, 1).setValue(2)
    settle(window, qtbot)
    where = sides.ips.cellWidget(0, 2)
    assert isinstance(where, QComboBox)
    where.textActivated.emit("german-deployment")
    settle(window, qtbot)
    sides.side.setCurrentText("russian")
    sides.grenades.setValue(10)
    assert sides.add_restriction()
    sides.restrictions.selectRow(0)
    assert sides.restriction_units.name_units()
    sides.restriction_units.units.setCurrentRow(0)
    assert sides.restriction_units.remove()
    QTest.keyClicks(sides.infiltration_printed, "May infiltrate any hex north and east of road 4001-5014.")
    sides.infiltration_zone.setCurrentText("russian-infiltration")
    sides.infiltration.setChecked(True)

    # Victory: occupies each, controls (with control and who holds a zone at the start), otherwise
    victory = window.findChild(VictoryPanel)
    show_dock(victory)
    victory.otherwise.setCurrentText("draw")
    victory.template_side.setCurrentText("russian")
    victory.template.setCurrentText("occupies each hex of")
    assert victory.add_result()
    victory.template_side.setCurrentText("german")
    victory.template.setCurrentText("controls all of")
    assert victory.add_result()
    assert victory.add_holder()
    victory.results.selectRow(0)
    marks(victory.marks, printed="The Russians win with a unit in both 4307 and 4308.")

    # The test set-up: the Germans placed as the panel drops them, their IPs, mines and hidden hexes
    setup = window.findChild(SetupPanel)
    show_dock(setup)
    board = window.document.board
    for entry, label in (
        ({"squad": "C"}, "4307"),
        ({"crew_weapon": "MMG", "number": 1}, "4308"),
        ({"commander": "PL"}, "4308"),
        ({"squad": "D"}, "4309"),
    ):
        assert setup.add("german", "units", entry, board.hex(label)), entry
    assert setup.add("german", "improved_positions", {"points": 1}, board.hex("4307"))
    assert setup.add("german", "improved_positions", {"points": 1}, board.hex("4308"))
    assert setup.add("german", "mines", {"ap_factors": 4, "at_factors": 2}, board.hex("4310"))
    for label in ("4308", "4309"):
        assert setup.add("german", "hidden_hexes", {}, board.hex(label))

    # An assertion: the line of sight between the objectives (10.3)
    show_dock(source)
    window.selected = {board.hex("4307"), board.hex("4308")}
    assert source.assertions.add("los")
    source.assertions.table.item(0, 2).setText("The objectives see each other.")

    errors = settle(window, qtbot)
    assert errors == [], "\n".join(errors) + "\n" + window.document.scenario.text()
    target = workspace / "scenarios" / "s41-demyansk-again.yaml"
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), ""))
    assert files(window).save()
    saved = load_yaml(target).data
    missing = schema_keys() - keys_of(json.loads(json.dumps(saved))) - set(NOT_HERE)
    assert missing == set(), sorted(missing)
