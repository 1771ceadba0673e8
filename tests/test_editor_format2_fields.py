"""Every field of format 2 (docs/formats.md) edited in the panels (issue 20): each edit one undo
step that undoes and redoes, and text a field does not take refused with its reason in view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QSpinBox

from engine.hexgrid import parse_label
from engine.model.provenance import count_sourced, sourced_values
from engine.model.schema import keys_at
from iceditor.editor.document import open_document
from iceditor.editor.features.oob_editor import AMMO, OobPanel
from iceditor.editor.features.sides_panel import SidesPanel
from iceditor.editor.features.source_panel import SourcePanel
from iceditor.editor.features.victory_editor import VictoryPanel
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.map_edge_tool import toggled_edge
from iceditor.editor.mapview import centre
from iceditor.editor.scenario_data import flow
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow
from iceditor.editor.zone_starts import WHERE

S1 = "s1-demyansk-pocket.yaml"
S5 = "s5-through-the-marshes.yaml"
EXAMPLE = "examples/hill-p-counterattack.yaml"


def test_keys_at_gives_the_keys_the_schema_takes_where_the_path_leads() -> None:
    """Format 2's marks: `assumed` on a deployment, an entry option and a control; `correction` on
    a deployment but not on an option (docs/formats.md, "Your own scenarios")."""
    assert {"assumed", "correction", "limit", "printed"} <= keys_at("scenario", ("sides", "german", "deployment", 0))
    option = keys_at("scenario", ("sides", "russian", "entries", 0, "options", 0))
    assert "assumed" in option and "correction" not in option
    assert "publication" in keys_at("scenario", ("source",))
    assert "assumed" in keys_at("scenario", ("victory", "control"))
    assert keys_at("scenario", ("title",)) == frozenset()


def test_an_edge_toggles_in_and_out_of_the_zone() -> None:
    north = toggled_edge(None, "north")
    assert dict(north) == {"map_edge": "north"}
    both = toggled_edge(north, "east")
    assert [dict(p) for p in both["any_of"]] == [{"map_edge": "north"}, {"map_edge": "east"}]
    assert dict(toggled_edge(both, "north")) == {"map_edge": "east"}
    assert toggled_edge(flow(map_edge="east"), "east") is None
    assert dict(toggled_edge({"hexes": ["4307"]}, "west")) == {"map_edge": "west"}  # not edges: replaced


@pytest.fixture
def open_window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)

    def _open(name: str) -> MainWindow:
        window = MainWindow(open_document(workspace / "scenarios" / name))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.fit()
        QApplication.processEvents()
        return window

    return _open


def data(window: MainWindow) -> Any:
    assert window.document.scenario is not None
    return window.document.scenario.data


def settle(window: MainWindow, qtbot) -> list[str]:  # type: ignore[no-untyped-def]
    for _ in range(3):
        QApplication.processEvents()
    qtbot.waitUntil(lambda: not window._revalidate.isActive())
    return [p.code for p in window.problems]


def shown(window: MainWindow, kind: type) -> Any:
    found = window.findChild(kind)
    show_dock(found)
    QApplication.processEvents()
    return found


def undo_redo(window: MainWindow, check_before: Any, check_after: Any) -> None:
    """The last edit undoes to `check_before` and redoes to `check_after`."""
    assert check_after()
    window.undo_stack.undo()
    assert check_before()
    window.undo_stack.redo()
    assert check_after()


@pytest.mark.gui
def test_ammo_takes_what_the_problems_panel_suggests_and_refuses_other_text_in_view(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """R81 (`ammo-pool-or-each`): the Problems panel suggests `{each: 12}`; the cell takes it."""
    window = open_window(EXAMPLE)
    oob = shown(window, OobPanel)
    path = ("sides", "russian", "groups", 0, "units", 0)
    squad = data(window)["sides"]["russian"]["groups"][0]["units"]
    oob.items[path].setText(AMMO, "{pool: 12}")
    qtbot.waitUntil(lambda: dict(squad[0]["ammo"]) == {"pool": 12})
    oob.items[path].setText(AMMO, "{each: 10}")
    qtbot.waitUntil(lambda: dict(squad[0]["ammo"]) == {"each": 10})
    undo_redo(window, lambda: dict(squad[0]["ammo"]) == {"pool": 12}, lambda: dict(squad[0]["ammo"]) == {"each": 10})
    oob.items[path].setText(AMMO, "lots")
    qtbot.waitUntil(lambda: oob.items[path].text(AMMO) == "10 each")  # the cell shows the file again
    assert "not 'lots'" in oob.message.text() and "{each: 20}" in oob.message.text()
    assert oob.message.isVisible() and oob.message.visibleRegion().boundingRect().height() > 0
    assert oob.message.geometry().bottom() < oob.tree.geometry().top()  # above the tree: never scrolled away
    assert "not 'lots'" in window.statusBar().currentMessage()
    assert dict(squad[0]["ammo"]) == {"each": 10}


@pytest.mark.gui
def test_deployments_and_entries_are_added_edited_and_removed(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(S1)
    zones = shown(window, ZonePanel)
    german = data(window)["sides"]["german"]
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.add_start("deployment")
    assert [dict(d) for d in german["deployment"]][-1] == {"group": "main", "zone": "german-deployment"}
    undo_redo(window, lambda: len(german["deployment"]) == 1, lambda: len(german["deployment"]) == 2)
    row = zones.starts_page.start_paths.index(("sides", "german", "deployment", 1))
    combo = zones.starts_page.starts.cellWidget(row, WHERE)
    assert isinstance(combo, QComboBox)
    combo.setCurrentText("objectives")
    qtbot.waitUntil(lambda: german["deployment"][1]["zone"] == "objectives")
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 1)))
    assert zones.starts_page.remove_start()
    assert len(german["deployment"]) == 1
    # an entry for the Germans, another option, when the option is picked
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.add_start("entries")
    entry = german["entries"][0]
    first = {"zone": "german-deployment", "turn": 1, "phase": "movement"}  # the first zone: its row chooses another
    assert entry["group"] == "main" and dict(entry["options"][0]) == first
    assert zones.starts_page.add_option()
    assert [int(o["turn"]) for o in entry["options"]] == [1, 2]
    zones.starts_page.choose.setCurrentText("before_play")
    zones.starts_page.choose.textActivated.emit("before_play")
    assert entry["choose"] == "before_play"
    undo_redo(window, lambda: entry["choose"] == "at_entry", lambda: entry["choose"] == "before_play")
    zones.starts_page.starts.selectRow(
        zones.starts_page.start_paths.index(("sides", "german", "entries", 0, "options", 1))
    )
    assert zones.starts_page.remove_start() and len(entry["options"]) == 1
    zones.starts_page.starts.selectRow(
        zones.starts_page.start_paths.index(("sides", "german", "entries", 0, "options", 0))
    )
    zones.starts_page.starts.setFocus()
    QTest.keyClick(zones.starts_page.starts, Qt.Key.Key_Delete)  # Del removes the row, not the map's hexes
    assert len(german["entries"]) == 0


@pytest.mark.gui
def test_a_unit_not_placed_is_fixed_in_the_zones_panel_the_problem_leads_to(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """24.1: every unit deploys or enters. With the German deployment removed, `unit-not-placed`
    leads to the group's row, where choosing its zone deploys it: no text editor needed."""
    window = open_window(S1)
    zones = shown(window, ZonePanel)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    assert zones.starts_page.remove_start()
    assert "unit-not-placed" in settle(window, qtbot)
    problem = next(p for p in window.problems if p.code == "unit-not-placed")
    window.problem_chosen.emit(problem)  # as a click on it in the Problems panel
    QApplication.processEvents()
    row = zones.starts_page.starts.currentRow()
    assert zones.starts_page.start_paths[row] == ("sides", "german", "groups", 0)
    assert zones.starts_page.starts.item(row, 1).text() == "main"
    combo = zones.starts_page.starts.cellWidget(row, WHERE)
    combo.setCurrentText("german-deployment")
    qtbot.waitUntil(lambda: "unit-not-placed" not in settle(window, qtbot))
    assert [dict(d) for d in data(window)["sides"]["german"]["deployment"]] == [
        {"group": "main", "zone": "german-deployment"}
    ]


@pytest.mark.gui
def test_the_map_edge_tool_picks_the_zones_edges_on_the_map(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """R1: Scenario 1's north is toward higher rows, so row 27 is its north map edge."""
    window = open_window(S1)
    zones = shown(window, ZonePanel)
    zones.select_zone("russian-entry")
    window.use_tool("map-edge")
    board = window.document.board
    for label in ("4027", "4001"):
        window.view.centre_on(board.hex(label))
        QApplication.processEvents()
        point = window.view.mapFromScene(centre(board.hex(label)))
        QTest.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert [dict(p) for p in zones.parsed()["any_of"]] == [{"map_edge": "north"}, {"map_edge": "south"}]
    assert "(not applied)" in zones.status.text()
    assert zones.apply()
    undo_redo(
        window,
        lambda: "all_of" in str(data(window)["zones"]["russian-entry"]["area"]),
        lambda: "south" in str(data(window)["zones"]["russian-entry"]["area"]),
    )


@pytest.mark.gui
def test_the_zones_panel_is_filled_when_first_shown_and_the_map_edge_tool_fills_it(open_window) -> None:  # type: ignore[no-untyped-def]
    """Behind Order of battle as a window opens, the Zones panel resolves no zone before its tab is
    shown; the Map edge tool clicked before then edits the first zone all the same."""
    window = open_window(S1)
    zones = window.findChild(ZonePanel)
    assert zones.visibleRegion().isEmpty() and zones.name is None and zones.zone_list.count() == 0
    window.use_tool("map-edge")
    window.tool.press(window.document.board.hex("4027"), None)
    first = next(iter(data(window)["zones"]))
    assert zones.name == first and zones.zone_list.currentItem().text() == first
    assert {"map_edge": "north"} in [dict(p) for p in [zones.parsed(), *zones.parsed().get("any_of", [])]]


@pytest.mark.gui
def test_side_fields_ips_mines_restrictions_and_infiltration(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(S1)
    sides = shown(window, SidesPanel)
    german = data(window)["sides"]["german"]
    sides.side.setCurrentText("german")
    sides.grenades.setValue(4)
    undo_redo(window, lambda: german["grenades"] == 6, lambda: german["grenades"] == 4)
    sides.at_mines.setValue(3)
    assert dict(german["mines"]) == {"ap_factors": 0, "at_factors": 3}
    assert sides.add_ips() and [dict(i) for i in german["improved_positions"]][-1] == {"points": 1, "count": 1}
    points = sides.ips.cellWidget(1, 0)
    assert isinstance(points, QSpinBox)
    points.setValue(2)
    qtbot.waitUntil(lambda: german["improved_positions"][1]["points"] == 2)
    sides.ips.selectRow(1)
    assert sides.remove_ips() and len(german["improved_positions"]) == 1
    assert sides.add_restriction()
    restriction = data(window)["restrictions"][0]
    assert restriction["group"] == "main" and dict(restriction["may_not_move_before"]) == {"side": "german", "turn": 2}
    turn = sides.restrictions.cellWidget(0, 3)
    turn.setValue(3)
    qtbot.waitUntil(lambda: data(window)["restrictions"][0]["may_not_move_before"]["turn"] == 3)
    # infiltration (24.3): off, then on again only with its printed note
    sides.infiltration.setChecked(False)
    assert "infiltration" not in data(window)
    sides.infiltration_printed.clear()
    sides.infiltration.setChecked(True)
    assert "infiltration" not in data(window) and "printed note" in sides.message.text()
    window.undo_stack.undo()
    assert data(window)["infiltration"]["zone"] == "russian-infiltration"


@pytest.mark.gui
def test_source_and_top_level_assumed_marks(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(S1)
    source = shown(window, SourcePanel)
    source.source["author"].setText("A. Designer")
    source.source["author"].editingFinished.emit()
    assert "source" not in data(window) and "publication first" in source.message.text()
    for key, text in (("publication", "own design"), ("author", "A. Designer"), ("page", "12")):
        source.source[key].setText(text)
        source.source[key].editingFinished.emit()
    assert dict(data(window)["source"]) == {"publication": "own design", "author": "A. Designer", "page": 12}
    source.assumed_field.setCurrentText("game_length")
    assert not source.mark_assumed() and "Say why" in source.message.text()
    source.assumed_reason.setText("the page is torn")
    assert source.mark_assumed()
    assert dict(data(window)["assumed"]) == {"game_length": "the page is torn"}
    counted = count_sourced(sourced_values(window.document.scenario.document()))  # what validate counts
    assert counted["assumed"] == 1
    source.assumed.selectRow(0)
    assert source.remove_mark() and "assumed" not in data(window)
    window.undo_stack.undo()
    assert "assumed" in data(window)
    source.background.setPlainText("A new background.")
    source.apply_background()
    undo_redo(
        window,
        lambda: str(data(window)["background"]).startswith("During"),
        lambda: data(window)["background"] == "A new background.",
    )


@pytest.mark.gui
def test_marks_assumed_and_correction_of_a_deployment(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A correction says what was printed, how it reads and why (docs/formats.md): a partial one
    is refused with the fields it lacks, and the typed fields stay."""
    window = open_window(S1)
    zones = shown(window, ZonePanel)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(("sides", "german", "deployment", 0)))
    marks = zones.starts_page.marks
    marks.open()
    assert marks.path == ("sides", "german", "deployment", 0)
    deployment = data(window)["sides"]["german"]["deployment"][0]
    marks.fields["assumed"].setText("the zone's words are smudged")
    marks.fields["assumed"].editingFinished.emit()
    undo_redo(
        window, lambda: "assumed" not in deployment, lambda: deployment["assumed"] == "the zone's words are smudged"
    )
    marks.correction["printed"].setText("Hill J")
    marks.correction["printed"].editingFinished.emit()
    assert "correction" not in deployment and "reads, why" in marks.message.text()
    assert marks.correction["printed"].text() == "Hill J"
    marks.correction["reads"].setText("Hill K")
    marks.correction["why"].setText("Hill J is off Map 2")
    marks.correction["why"].editingFinished.emit()
    assert dict(deployment["correction"]) == {"printed": "Hill J", "reads": "Hill K", "why": "Hill J is off Map 2"}
    marks.fields["ruling"].setText("not a ruling")
    marks.fields["ruling"].editingFinished.emit()
    assert "ruling" not in deployment and "R and its number" in marks.message.text()
    # an entry option takes `assumed` but no correction: the box offers only what the schema takes
    option = ("sides", "russian", "entries", 0, "options", 0)
    zones.starts_page.starts.selectRow(zones.starts_page.start_paths.index(option))
    assert marks.path == option and marks.of.isVisibleTo(marks)
    assert marks.fields["assumed"].isVisibleTo(marks) and not marks.correction["printed"].isVisibleTo(marks)
    marks.of.setCurrentIndex(1)
    marks.of.activated.emit(1)  # Of: the entry, which takes a correction too
    assert marks.path == option[:4] and marks.correction["printed"].isVisibleTo(marks)


@pytest.mark.gui
def test_a_new_scenarios_first_result_writes_its_victory(open_window, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = open_window(S5)
    victory = shown(window, VictoryPanel)
    victory.template_side.setCurrentText("german")
    victory.template.setCurrentText("controls all of")
    before = len(data(window)["victory"]["results"])
    assert victory.add_result()
    assert len(data(window)["victory"]["results"]) == before + 1
    assert data(window)["victory"]["control"]["means"] == "last_to_occupy"  # 24.9, R82: controls needs it
    window.undo_stack.undo()
    assert "control" not in data(window)["victory"]


@pytest.mark.gui
def test_turning_the_errata_off_shows_the_maps_as_printed_and_undo_brings_them_back(open_window) -> None:  # type: ignore[no-untyped-def]
    """`errata: false`: the board is the maps as printed, as `iceditor validate` builds it."""
    window = open_window(S1)
    document = window.document
    assert document.errata is not None
    board = document.board
    on_board = [
        (parse_label(label, board.offset), change) for change in document.errata.changes for label in change.hexes
    ]
    on_board = [(h, change) for h, change in on_board if h in board.hexes]
    h = next(h for h, change in on_board if document.printed(h).changed(change.values) != document.printed(h))
    with_errata = board.terrain(h)
    source = shown(window, SourcePanel)
    source.errata.setChecked(False)
    assert data(window)["errata"] is False and document.errata is None
    assert board.terrain(h) != with_errata and board.terrain(h).trees == document.printed(h).trees
    window.undo_stack.undo()
    assert document.errata is not None and board.terrain(h) == with_errata


@pytest.mark.gui
def test_mines_and_ips_given_to_a_group(open_window) -> None:  # type: ignore[no-untyped-def]
    """Scenario 6 gives mines and IPs per group (the side's total is their sum, docs/formats.md)."""
    window = open_window("s6-spartakovka.yaml")
    sides = shown(window, SidesPanel)
    side, g = next(
        (side, g)
        for side in ("german", "russian")
        for g, group in enumerate(data(window)["sides"][side]["groups"])
        if int((group.get("mines") or {}).get("ap_factors", 0)) == 38
    )
    sides.side.setCurrentText(side)
    sides.owner.setCurrentIndex(g + 1)
    sides.owner.activated.emit(g + 1)
    assert sides.ap_mines.value() == 38
    sides.ap_mines.setValue(30)
    group = data(window)["sides"][side]["groups"][g]
    assert group["mines"]["ap_factors"] == 30 and group["mines"]["at_factors"] == 38
    window.undo_stack.undo()
    assert group["mines"]["ap_factors"] == 38
    ips = len(group.get("improved_positions") or [])
    assert sides.add_ips()
    assert len(group["improved_positions"]) == ips + 1


@pytest.mark.gui
def test_a_zone_written_in_place_is_edited_in_its_row(open_window, workspace: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    text = (workspace / "scenarios" / S1).read_text(encoding="utf-8")
    inline = text.replace(
        "    deployment:\n      - group: main\n        zone: german-deployment\n",
        "    deployment:\n      - group: main\n        zone: {hill: K}\n",
    )
    assert inline != text
    (workspace / "scenarios" / "s1-inline.yaml").write_text(inline, encoding="utf-8")
    window = open_window("s1-inline.yaml")
    zones = shown(window, ZonePanel)
    row = zones.starts_page.start_paths.index(("sides", "german", "deployment", 0))
    cell = zones.starts_page.starts.item(row, WHERE)
    assert cell.text() == "{hill: K}" and cell.flags() & Qt.ItemFlag.ItemIsEditable
    cell.setText("{hexes: ['4307', '4308']}")
    deployment = data(window)["sides"]["german"]["deployment"][0]
    qtbot.waitUntil(lambda: dict(deployment["zone"]) == {"hexes": ["4307", "4308"]})
    row = zones.starts_page.start_paths.index(("sides", "german", "deployment", 0))
    zones.starts_page.starts.item(row, WHERE).setText("[4307]")  # a list, not an expression: refused, with why
    qtbot.waitUntil(lambda: "a mapping with one key" in zones.starts_page.start_message.text())
    assert dict(deployment["zone"]) == {"hexes": ["4307", "4308"]}
    window.undo_stack.undo()
    assert dict(data(window)["sides"]["german"]["deployment"][0]["zone"]) == {"hill": "K"}
