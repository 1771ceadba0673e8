"""The last fields of format 2 a designer needed a text editor for (issue 20): a unit's printed
count and state in the Order of battle, an `erratum:` in the marks box, the `assertions:` on the
Source page and the units of a `units:` deployment. Each edited through its panel, saved, and undone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from engine.model.source import load_yaml
from iceditor.editor.document import open_document
from iceditor.editor.features.file_menu import FileMenu
from iceditor.editor.features.oob_editor import COUNT, STATE, OobPanel
from iceditor.editor.features.sides_panel import SidesPanel
from iceditor.editor.features.source_panel import SourcePanel
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow
from iceditor.editor.zone_starts import GROUP

S1 = "s1-demyansk-pocket.yaml"
GERMAN_UNITS = ("sides", "german", "groups", 0, "units")


def open_window(qtbot, path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)
    out = MainWindow(open_document(path))
    qtbot.addWidget(out)
    out.show()
    qtbot.waitExposed(out)
    return out


@pytest.fixture
def window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:  # type: ignore[no-untyped-def]
    return open_window(qtbot, workspace / "scenarios" / S1, monkeypatch)


def data(window: MainWindow) -> Any:
    assert window.document.scenario is not None
    return window.document.scenario.data


def shown(window: MainWindow, kind: type) -> Any:
    found = window.findChild(kind)
    show_dock(found)
    QApplication.processEvents()
    return found


def saved(window: MainWindow) -> Any:
    """The scenario as the saved file reads."""
    assert window.document.scenario is not None
    files = window.findChild(FileMenu)
    assert files is not None and files.save()
    return load_yaml(window.document.scenario.path).data


@pytest.mark.gui
def test_24_1_a_squads_count_and_a_units_state_edit_in_the_order_of_battle(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """24.1: "3 units" is the printed unit count, checked against the clause; 3.0: "All units will
    be in one of two combat states; UP or DOWN". Words are refused with the rule, visibly."""
    oob = shown(window, OobPanel)
    squad = data(window)["sides"]["german"]["groups"][0]["units"][0]
    item = oob.items[(*GERMAN_UNITS, 0)]
    item.setText(COUNT, "5")
    qtbot.waitUntil(lambda: squad.get("count") == 5)
    item = oob.items[(*GERMAN_UNITS, 0)]
    item.setText(STATE, "DOWN")
    qtbot.waitUntil(lambda: squad.get("state") == "down")
    on_disk = saved(window)["sides"]["german"]["groups"][0]["units"][0]
    assert on_disk["count"] == 5 and on_disk["state"] == "down"
    window.undo_stack.undo()
    assert "state" not in squad and squad["count"] == 5
    window.undo_stack.undo()
    assert "count" not in squad
    oob.items[(*GERMAN_UNITS, 0)].setText(COUNT, "five")
    qtbot.waitUntil(lambda: oob.items[(*GERMAN_UNITS, 0)].text(COUNT) == "")  # the cell shows the file again
    assert "not 'five'" in oob.message.text() and "(24.1)" in oob.message.text() and oob.message.isVisible()
    oob.items[(*GERMAN_UNITS, 1)].setText(STATE, "prone")
    qtbot.waitUntil(lambda: oob.items[(*GERMAN_UNITS, 1)].text(STATE) == "")
    assert "up or down (3.0), not 'prone'" in oob.message.text()
    oob.items[(*GERMAN_UNITS, 1)].setText(COUNT, "2")  # an MMG: only a squad states a unit count
    qtbot.waitUntil(lambda: "only a squad" in oob.message.text())
    assert "count" not in data(window)["sides"]["german"]["groups"][0]["units"][1]


@pytest.mark.gui
def test_an_erratum_is_edited_in_the_marks_box_and_a_partial_one_is_refused(window) -> None:  # type: ignore[no-untyped-def]
    """An erratum gives its printed text, the words it changes and what they read (docs/formats.md)."""
    zones = shown(window, ZonePanel)
    zones.select_zone("objectives")
    marks = zones.zone_marks
    marks.open()
    zone = data(window)["zones"]["objectives"]
    assert marks.path == ("zones", "objectives") and marks.erratum["was"].isVisibleTo(marks)
    marks.erratum["printed"].setText("Scenario 1: the objective '4306' should read '4307'.")
    marks.erratum["printed"].editingFinished.emit()
    assert "erratum" not in zone and "was, now" in marks.message.text()
    marks.erratum["was"].setText("4306")
    marks.erratum["now"].setText("4307, 4308")
    marks.erratum["now"].editingFinished.emit()
    assert list(zone["erratum"]["now"]) == ["4307", "4308"]
    assert saved(window)["zones"]["objectives"]["erratum"]["was"] == ["4306"]
    assert marks.erratum["now"].text() == "4307, 4308"
    window.undo_stack.undo()
    assert "erratum" not in zone and marks.erratum["was"].text() == ""


@pytest.mark.gui
def test_assertions_are_added_edited_and_removed_on_the_source_page(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    source = shown(window, SourcePanel)
    box = source.assertions
    assert box.isVisibleTo(window)  # the Sides dock's Source page brought to the front
    facts = data(window)["assertions"]
    assert box.table.rowCount() == 5 and box.table.item(0, 0).text() == "los"
    assert box.table.item(0, 1).text() == '{from: "4307", to: "4308", expect: clear}'
    box.table.item(0, 1).setText('{from: "4307", to: "4308", expect: blocked}')  # false: 10.3, the two see each other
    qtbot.waitUntil(lambda: facts[0]["los"]["expect"] == "blocked")
    qtbot.waitUntil(lambda: "assertion-failed" in {p.code for p in window.problems})
    box.table.selectRow(3)
    window.problem_chosen.emit(next(p for p in window.problems if p.code == "assertion-failed"))
    assert box.table.currentRow() == 0  # the problem leads to its row
    window.undo_stack.undo()
    assert facts[0]["los"]["expect"] == "clear"
    window.selected = {window.document.board.hex("4307"), window.document.board.hex("4314")}
    assert box.add("los")
    assert dict(facts[5]["los"]) == {"from": "4307", "to": "4314", "expect": "clear"}
    box.table.item(5, 1).setText('{from: "4314", to: "4307", expect: blocked, rule: "10.32 b"}')
    qtbot.waitUntil(lambda: facts[5]["los"]["expect"] == "blocked")
    box.table.item(5, 2).setText("Hill K does not overlook 4307")
    qtbot.waitUntil(lambda: facts[5].get("note") == "Hill K does not overlook 4307")
    assert saved(window)["assertions"][5] == {
        "los": {"from": "4314", "to": "4307", "expect": "blocked", "rule": "10.32 b"},
        "note": "Hill K does not overlook 4307",
    }
    window.undo_stack.undo()
    assert "note" not in facts[5]
    box.table.item(5, 1).setText("{from: 4314, expect: maybe}")  # the schema refuses it: the row shows the file
    qtbot.waitUntil(lambda: "not done" in box.message.text())
    assert facts[5]["los"]["expect"] == "blocked" and box.table.item(5, 1).text().startswith('{from: "4314"')
    box.table.item(5, 1).setText("[4307")
    qtbot.waitUntil(lambda: "not YAML" in box.message.text())
    box.table.selectRow(5)
    assert box.remove() and len(facts) == 5
    window.undo_stack.undo()
    assert len(facts) == 6


@pytest.mark.gui
def test_24_1_a_deployments_units_are_named_removed_and_added_in_the_zones_panel(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """24.1: every unit deploys or enters. The German deployment names its group's units instead;
    the MMG taken out of the list is not placed (unit-not-placed), and is put back."""
    zones = shown(window, ZonePanel)
    zones.starts_page.show_starts()
    deployment = data(window)["sides"]["german"]["deployment"][0]
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.units.split.isVisibleTo(zones) and not zones.starts_page.units.units.isVisibleTo(zones)
    assert zones.starts_page.units.name_units()
    assert "group" not in deployment and list(deployment)[:2] == ["units", "zone"]
    assert [dict(u) for u in deployment["units"]] == [
        {"squad": "C"},
        {"crew_weapon": "MMG", "number": 1},
        {"commander": "PL"},
    ]
    assert zones.starts_page.starts.item(0, GROUP).toolTip().startswith("Squad C, MMG #1, PL:")
    zones.starts_page.units.units.setCurrentRow(1)
    assert zones.starts_page.units.remove()
    qtbot.waitUntil(lambda: "unit-not-placed" in {p.code for p in window.problems})
    assert zones.starts_page.units.choice.itemText(1) == "MMG #1 (main)"  # the side's units not in the list
    assert zones.starts_page.units.add(zones.starts_page.units.choice.itemData(1))
    assert len(saved(window)["sides"]["german"]["deployment"][0]["units"]) == 3
    window.undo_stack.undo()
    assert len(deployment["units"]) == 2
    for _ in range(2):
        window.undo_stack.undo()
    assert deployment["group"] == "main" and "units" not in deployment
    window.undo_stack.redo()
    for _ in range(2):
        zones.starts_page.units.units.setCurrentRow(0)
        assert zones.starts_page.units.remove()
    zones.starts_page.units.units.setCurrentRow(0)
    assert not zones.starts_page.units.remove() and "one unit at least (24.1)" in zones.starts_page.units.message.text()


@pytest.mark.gui
def test_a_restrictions_units_are_edited_in_the_sides_panel(window) -> None:  # type: ignore[no-untyped-def]
    """ "May not move until Russian Player Turn 2" for some of a group's units (docs/formats.md)."""
    sides = shown(window, SidesPanel)
    assert sides.add_restriction()
    sides.restrictions.selectRow(0)
    units = sides.restriction_units
    assert units.name_units()
    restriction = data(window)["restrictions"][0]
    assert len(restriction["units"]) == 3 and list(restriction)[:3] == ["side", "units", "may_not_move_before"]
    units.units.setCurrentRow(0)
    assert units.remove() and dict(restriction["units"][0]) == {"crew_weapon": "MMG", "number": 1}
    window.undo_stack.undo()
    assert len(restriction["units"]) == 3


@pytest.mark.gui
def test_24_1_a_units_list_names_a_group_again_in_zones_and_in_sides(window) -> None:  # type: ignore[no-untyped-def]
    """Scenario 1's Russian entry names its group; named as units, it can name the group again,
    in its place among the keys, one undo step (the Sides panel's restrictions alike)."""
    zones = shown(window, ZonePanel)
    zones.starts_page.show_starts()
    path = ("sides", "russian", "entries", 0)
    entry = data(window)["sides"]["russian"]["entries"][0]
    keys = list(entry)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index((*path, "options", 0)))
    assert zones.starts_page.units.name_units() and "group" not in entry
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index((*path, "options", 0)))
    group = zones.starts_page.units.group
    assert group.isVisibleTo(zones) and group.itemText(1) == "the group main"
    group.activated.emit(1)  # "the group main" chosen
    assert entry["group"] == "main" and "units" not in entry and list(entry) == keys
    assert zones.starts_page.units.split.isVisibleTo(zones) and not group.isVisibleTo(zones)
    window.undo_stack.undo()
    assert "group" not in entry and len(entry["units"]) == 7
    sides = shown(window, SidesPanel)
    assert sides.add_restriction()
    sides.restrictions.selectRow(0)
    assert sides.restriction_units.name_units()
    assert sides.restriction_units.name_group("main")
    assert list(data(window)["restrictions"][0]) == ["side", "group", "may_not_move_before"]


@pytest.mark.gui
def test_the_units_of_a_chosen_row_show_whole_in_a_1366x768_window(qtbot, workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """At 1366x768 the Zones dock shows about 240 pixels: the unit list was under its buttons,
    below the fold. It sits under the table, which is as tall as its rows, in view with them."""
    from PySide6.QtCore import QRect

    window = open_window(qtbot, workspace / "scenarios" / S1, monkeypatch)
    window.fit_screen(QRect(0, 0, 1366, 768))
    zones = shown(window, ZonePanel)
    zones.starts_page.show_starts()
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.units.name_units()
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    qtbot.wait(20)  # the dock scrolls, if it must, once the list is laid out
    for widget in (
        zones.starts_page.starts,
        zones.starts_page.units.units,
        zones.starts_page.units.choice,
        zones.starts_page.units.group,
    ):
        seen = widget.visibleRegion().boundingRect()
        assert seen.size() == widget.size(), (widget.objectName(), seen, widget.size())
    selected = zones.starts_page.starts.visualRect(
        zones.starts_page.starts.model().index(zones.starts_page.starts.currentRow(), 0)
    )
    assert zones.starts_page.starts.viewport().rect().contains(selected)
    sides = shown(window, SidesPanel)  # a restriction's units, far down the Sides page: scrolled to
    assert sides.add_restriction()
    sides.restrictions.selectRow(0)
    assert sides.restriction_units.name_units()
    sides.restrictions.selectRow(0)
    qtbot.wait(20)
    for widget in (sides.restriction_units.units, sides.restriction_units.group):
        assert widget.visibleRegion().boundingRect().size() == widget.size(), widget.objectName()
    area = sides.parentWidget().parentWidget()  # the page's scroll area: scrolled down to the marks,
    bar = area.verticalScrollBar()
    bar.setValue(bar.maximum())
    sides.grenades.setValue(7)  # an edit while the same restriction is chosen: the dock stays put
    qtbot.wait(20)
    assert bar.value() == bar.maximum() > 0


@pytest.mark.gui
def test_a_fact_that_states_no_kind_says_so_and_takes_one(qtbot, workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A fact is exactly one of los, reach, turns (docs/formats.md): a note alone, or a key the
    schema does not know, showed two empty cells. The row says what it holds and takes a kind."""
    path = workspace / "scenarios" / S1
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        '  - los: {from: "4307", to: "4308", expect: clear}\n',
        '  - lso: {from: "4307", to: "4308", expect: clear}\n',
    ).replace(
        '  - reach: {unit: infantry, from: "3014", to: "3810", within_mp: 4}\n    note:',
        "  - note:",
    )
    path.write_text(text, encoding="utf-8")
    window = open_window(qtbot, path, monkeypatch)
    box = shown(window, SourcePanel).assertions
    facts = data(window)["assertions"]
    assert box.table.item(0, 0).text() == "none" and box.table.item(2, 0).text() == "none"
    stray = box.table.cellWidget(0, 1)
    assert stray.toolTip().startswith('{lso: {from: "4307", to: "4308", expect: clear}} is no fact')
    assert box.table.cellWidget(2, 1).toolTip().startswith("No fact, a note alone")
    window.selected = {window.document.board.hex("3014"), window.document.board.hex("3810")}
    box.table.cellWidget(2, 1).activated.emit(2)  # "reach" chosen
    qtbot.waitUntil(lambda: "reach" in facts[2])
    assert list(facts[2]) == ["reach", "note"]
    assert dict(facts[2]["reach"]) == {"unit": "infantry", "from": "3014", "to": "3810"}
    assert box.table.item(2, 0).text() == "reach" and box.table.item(2, 1).text().startswith("{unit: infantry")
    box.table.cellWidget(0, 1).activated.emit(1)  # "los": the stray key goes, the note stays
    qtbot.waitUntil(lambda: "los" in facts[0])
    assert "lso" not in facts[0] and facts[0]["note"].startswith("The two objective hexes")
    window.undo_stack.undo()
    assert "lso" in facts[0] and "los" not in facts[0]
