"""File > New scenario and half-made scenarios (issue 20): what the dialog asks (24.1) becomes a
scenario file that opens in the editor with the problems that remain listed, and a skeleton
file opens with its problems instead of being refused; only a file that cannot be read at all
is refused, with its file and line."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from engine import resources
from engine.hexgrid import neighbours
from engine.model import map_folders
from engine.model.mapsheet import load_map
from engine.model.schema import schema_problems
from engine.model.source import parse_yaml
from engine.model.terrain import Terrain
from engine.problems import Problem, Severity
from engine.resources import DATA_DIRS, data_path
from iceditor.editor.app import OpenFailed, load
from iceditor.editor.document import open_document
from iceditor.editor.features.file_menu import NewScenarioDialog
from iceditor.editor.features.oob_editor import OobPanel
from iceditor.editor.features.scenario_panel import MetadataPanel
from iceditor.editor.features.setup_editor import SetupPanel
from iceditor.editor.features.victory_editor import VictoryPanel
from iceditor.editor.features.zone_editor import ZonePanel
from iceditor.editor.new_scenario import MapChoice, NewScenario, join, map_choices, north_indicator
from iceditor.editor.scenario_data import Edit
from iceditor.editor.scenario_panels import panels, show_dock

# the window's fixtures: the editor's files tests' own (a window on a file, scripted dialogs, autosaves in tmp_path)
from .test_editor_files import REPO, Dialogs, autosave_here, dialogs, files, press, scenario, window_on  # noqa: F401

MAP1, MAP2, MAP3 = (MapChoice(f"map{n}", load_map(data_path("maps", f"map{n}.yaml")), True) for n in (1, 2, 3))


def test_two_maps_join_along_the_column_both_print() -> None:
    """24.9: "MAP: Maps 1 and 2 (hex columns 1001/1027 to 5001/5027) are used." """
    said = join([MAP1.sheet, MAP2.sheet])
    assert said.startswith("hex columns 1001/1027 to 5001/5027") and "share column 30" in said
    assert join([MAP1.sheet]) == "hex columns 1001/1027 to 3001/3027"  # 24.5's MAP line
    with pytest.raises(ValueError, match="share no hex"):
        join([MAP1.sheet, MAP3.sheet])


def test_the_north_indicator_points_along_a_column() -> None:
    """24.1 places the NORTH indicator in a hex pointing to an adjacent one: up as in Scenario 2
    ("Place in hex 1002 pointing to hex 1001"), down as in Scenario 6 ("hex 5001 pointing to hex 5002")."""
    assert north_indicator(MAP1.sheet, "up") == ("1002", "1001")
    assert north_indicator(MAP2.sheet, "down") == ("3001", "3002")


def test_map_choices_are_the_bundled_maps_and_the_maps_beside_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "ground.yaml").write_text(
        "format: iron-cross-map/1\nname: Ground\ngrid: {columns: [10, 14], rows: [1, 9]}\n", encoding="utf-8"
    )
    (tmp_path / "notes.yaml").write_text("just: notes\n", encoding="utf-8")  # not a map: passed over
    choices = map_choices(tmp_path)
    assert [(c.name, c.bundled) for c in choices] == [("map1", True), ("map2", True), ("map3", True), ("ground", False)]


def test_a_new_scenario_states_what_was_asked_and_lacks_only_units_and_victory() -> None:
    spec = NewScenario("Hill 112", 7, (MAP1, MAP2), 9, "russian", "german", "down", "Late October.\n  A suburb.")
    data = yaml.safe_load(spec.text())
    assert (
        data["maps"] == ["map1", "map2"]
        and data["game_length"] == 9
        and data["background"] == "Late October. A suburb."
    )
    assert data["north"] == {"hex": "1001", "toward": "1002"}
    assert (data["sets_up_first"], data["moves_first"]) == ("russian", "german")
    left = {p.pointer for p in schema_problems(parse_yaml(spec.text(), "new.yaml"), "scenario")}
    assert left == {"", "/sides/german/groups", "/sides/russian/groups"}  # the document lacks `victory`
    assert spec.file_name() == "s7-hill-112.yaml"


SKELETON = """\
format: iron-cross-scenario/2
number: 7
title: Skeleton
maps: [map2]
game_length: 6
sets_up_first: german
moves_first: russian
sides:
  german:
    groups: [{name: a}]
"""


def test_a_skeleton_opens_with_its_schema_problems(tmp_path: Path) -> None:
    """No background, north, units or victory: it opens, and its problems are those `iceditor
    validate` lists (the schema's), each at its line."""
    path = tmp_path / "skeleton.yaml"
    path.write_text(SKELETON, encoding="utf-8")
    document = open_document(path)
    messages = {p.message for p in document.problems()}
    assert {
        "the document: 'background' is a required property",
        "the document: 'north' is a required property",
    } <= messages
    assert "the document: 'victory' is a required property" in messages
    assert any(p.pointer == "/sides/german/groups/0" and p.line == 10 for p in document.problems())
    assert document.session is not None and document.session.context.scenario.title == "Skeleton"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("format: iron-cross-scenario/2\nmaps: [\n", "skeleton.yaml:3:1: error: not valid YAML"),
        ("- a list\n", "not a mapping"),
        ("format: iron-cross-scenario/9\nmaps: [map1]\n", "iron-cross-scenario/9"),
        ("format: iron-cross-scenario/2\ntitle: No maps\n", "names no maps"),
        ("format: iron-cross-scenario/2\nmaps: [nowhere]\n", "map 'nowhere' not found"),
    ],
)
def test_only_a_file_that_cannot_be_read_is_refused(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "skeleton.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OpenFailed) as refused:
        load(path)
    assert said in str(refused.value) and "skeleton.yaml" in str(refused.value)


# -- in the window ---------------------------------------------------------------------------


@pytest.mark.gui
def test_the_dialog_says_how_the_maps_join_and_refuses_maps_that_do_not(qtbot, workspace: Path) -> None:
    dialog = NewScenarioDialog(workspace / "scenarios")
    qtbot.addWidget(dialog)
    second = dialog.maps[1]
    second.setCurrentIndex(2)  # (none), Map 1, Map 2, Map 3
    assert "share column 30" in dialog.joined.text()
    assert dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    second.setCurrentIndex(3)  # Map 3 does not touch Map 1
    assert "cannot be used together" in dialog.joined.text()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    second.setCurrentIndex(1)  # Map 1 twice
    assert "the first one again" in dialog.joined.text()
    second.setCurrentIndex(0)
    dialog.turns.setValue(12)
    spec = dialog.new_scenario()
    assert [m.name for m in spec.maps] == ["map1"] and spec.game_length == 12


@pytest.mark.gui
def test_new_scenario_opens_half_made_then_saves_where_asked(
    workspace: Path,
    window_on,  # noqa: F811 (the fixture imported above)
    dialogs: Dialogs,  # noqa: F811
    monkeypatch,
) -> None:
    window = window_on(scenario(workspace, 1))
    menu = files(window)
    assert menu.new_scenario(NewScenario("Hill 112", 7, (MAP1, MAP2), 9))
    document = window.document
    assert document.scenario is not None and menu.untitled and document.dirty
    assert window.windowTitle().startswith("*s7-hill-112.yaml")
    assert len(document.board.hexes) == 41 * 27  # columns 10 to 50, column 30 once
    pointers = {p.pointer for p in window.problems}
    assert {"", "/sides/german/groups", "/sides/russian/groups"} <= pointers
    assert not (workspace / "scenarios" / "s7-hill-112.yaml").exists()  # in memory until saved
    target = workspace / "scenarios" / "hill-112.yaml"
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getSaveFileName", lambda *a, **k: (str(target), ""))
    assert menu.save()
    assert yaml.safe_load(target.read_text(encoding="utf-8"))["title"] == "Hill 112" and not menu.untitled
    assert open_document(target).session is not None


# -- Save As > Save copies -------------------------------------------------------------------


def _findings(problems: list[Problem], renames: dict[str, str]) -> Counter[tuple[object, ...]]:
    """Problems as a multiset, the copies' names read as the originals' (`s6-copy-map2` as `map2`)
    and files by their names (a copy sits in the scenario's folder, the original in maps/)."""

    def named(text: str) -> str:
        text = re.sub(r"[^\s:]*/(?=[^/\s]+\.yaml)", "", text)
        for new, old in renames.items():
            text = text.replace(new, old)
        return text

    return Counter(
        (p.code, p.severity, p.line, p.hex, p.pointer, named(p.file or ""), named(p.message)) for p in problems
    )


@pytest.mark.gui
@pytest.mark.parametrize("number", [1, 2, 3, *(pytest.param(n, marks=pytest.mark.slow) for n in (4, 5, 6))])
def test_the_copy_of_each_bundled_scenario_validates_as_the_original(
    workspace: Path,
    window_on,  # noqa: F811 (the fixture imported above)
    dialogs: Dialogs,  # noqa: F811
    number: int,
) -> None:
    """Save As > Save copies renames the maps: `maps:` and every `{map: map1}` of its zones, map
    edges and victory follow, so the copy has exactly the original's problems (24.9 names Map 1's
    buildings and Map 2's west edge)."""
    original = scenario(workspace, number)
    names = yaml.safe_load(original.read_text(encoding="utf-8"))["maps"]
    window = window_on(original)
    document, painted = window.document, {}
    for m in document.maps:  # a Tree on each map, in a hex no other map holds: every map is edited
        others = [o for o in document.maps if o is not m]
        h = min(h for h in m.sheet.hexes() if not any(o.holds(h) for o in others) and h not in m.sheet.terrain)
        painted[h] = Terrain(trees=1)
    window.paint("Trees", painted)
    target = workspace / "scenarios" / f"s{number}-copy.yaml"
    dialogs.answers = ["Save copies"]
    assert files(window).save_as(target)
    copy = open_document(target)
    assert [m.path.name for m in copy.maps] == [f"s{number}-copy-{name}.yaml" for name in names]
    in_place = open_document(original)  # the same edit saved over the originals, for comparison
    in_place.set_printed(painted)
    in_place.save()
    expected = _findings(open_document(original).problems(), {})
    assert _findings(copy.problems(), {target.name: original.name, f"{target.stem}-": ""}) == expected
    assert "s1-copy" not in target.read_text(encoding="utf-8").split("maps:")[0]  # nothing above `maps:` renamed


# -- Ctrl+S on a shared or bundled map -------------------------------------------------------


@pytest.fixture
def installed_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled data as a wheel installs it (a package's `data/` folder), copied to tmp_path."""
    data = tmp_path / "site-packages" / "engine" / "data"
    for name in DATA_DIRS:
        shutil.copytree(REPO / name, data / name)
    monkeypatch.setattr(resources, "data_root", lambda: data)
    monkeypatch.setattr(map_folders, "data_root", lambda: data)
    return data


BUNDLED_USERS_OF_MAP2 = (
    "s1-demyansk-pocket.yaml (bundled), s3-closing-the-ring.yaml (bundled), s6-spartakovka.yaml (bundled)"
)


@pytest.mark.gui
def test_saving_a_bundled_map_names_every_scenario_using_it_and_warns(
    tmp_path: Path,
    installed_package: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
) -> None:
    """A scenario of the user's own names the bundled Map 2: Ctrl+S after painting it names the
    bundled Scenarios 1, 3 and 6 that the save would change too, warns that the file is in the
    installed package, and offers Save, Save a copy and Cancel."""
    mine = tmp_path / "mine" / "mine.yaml"
    mine.parent.mkdir()
    shutil.copy(installed_package / "scenarios" / "s1-demyansk-pocket.yaml", mine)
    map2 = installed_package / "maps" / "map2.yaml"
    before = map2.read_bytes()
    window = window_on(mine)
    window.paint("Marsh", {window.document.board.hex("4512"): Terrain(marsh=True)})
    press(window, Qt.Key.Key_S)  # answered Cancel
    asked = dialogs.texts("choose")[-1]
    assert f"map2.yaml: a map file; also the map of {BUNDLED_USERS_OF_MAP2}." in asked
    assert f"Warning: {map2} is a bundled file (in iceditor's installed package)" in asked
    assert dialogs.warned[-1] and map2.read_bytes() == before and window.windowTitle().startswith("*")
    dialogs.answers = ["Save a copy"]
    press(window, Qt.Key.Key_S)
    assert map2.read_bytes() == before and not window.document.dirty
    assert yaml.safe_load(mine.read_text(encoding="utf-8"))["maps"] == ["mine-map2"]
    reopened = open_document(mine)
    assert reopened.maps[0].path == mine.parent / "mine-map2.yaml"
    assert reopened.board.terrain(reopened.board.hex("4512")).marsh


@pytest.mark.gui
def test_saving_a_bundled_map_opened_alone_asks_and_saves_only_when_told(
    installed_package: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
) -> None:
    map2 = installed_package / "maps" / "map2.yaml"
    window = window_on(map2)
    window.paint("Marsh", {window.document.board.hex("4512"): Terrain(marsh=True)})
    press(window, Qt.Key.Key_S)
    assert f"also the map of {BUNDLED_USERS_OF_MAP2}." in dialogs.texts("choose")[-1] and dialogs.warned[-1]
    assert '"4512": {marsh: true}' not in map2.read_text(encoding="utf-8")
    dialogs.answers = ["Save"]
    press(window, Qt.Key.Key_S)
    assert '"4512": {marsh: true}' in map2.read_text(encoding="utf-8") and not window.document.dirty


@pytest.mark.gui
def test_the_panels_fill_a_half_made_scenario_and_refuse_only_an_edit_that_breaks_it(
    workspace: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
) -> None:
    """A new scenario has schema errors (no groups, no victory): adding a group is an edit that
    removes one, so it is made; an edit that makes a schema error of its own is still refused."""
    window = window_on(scenario(workspace, 1))
    assert files(window).new_scenario(NewScenario("Hill 112", 7, (MAP2,), 8, background="July 1943."))
    oob = window.findChild(OobPanel)
    assert oob is not None and oob.new_group("german", {"squad": "C"}) and oob.new_group("russian", {"squad": "A"})
    window.refresh_problems()
    assert [p.message for p in window.problems] == ["the document: 'victory' is a required property"]
    shared = panels(window)
    assert not shared.push(Edit("Break it").set((), "game_length", 0))  # 24.1: at least one Game Turn
    assert "game_length" in window.statusBar().currentMessage()
    assert window.document.scenario is not None and window.document.scenario.data["game_length"] == 8
    window.undo_stack.undo()
    assert [g["name"] for g in window.document.scenario.data["sides"]["german"]["groups"]] == ["group-1"]


# -- the test set-up -------------------------------------------------------------------------


@pytest.mark.gui
@pytest.mark.parametrize("answer", ["Spread", "Place all here", None])
def test_a_seven_man_squad_dropped_in_one_hex_is_offered_spread(
    workspace: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
    answer: str | None,
) -> None:
    """8.62: "no more than six men plus one AFV in a hex". Russian Squad A fields seven men: the
    editor offers to keep six in the hex and put the seventh beside it, in one undo step; the
    side's set-up starts partial (R230), so the units not placed yet are no errors."""
    window = window_on(scenario(workspace, 1))
    assert files(window).new_scenario(NewScenario("Hill 112", 7, (MAP2,), 8, background="July 1943."))
    oob = window.findChild(OobPanel)
    assert oob is not None and oob.new_group("russian", {"squad": "A"}) and oob.new_group("german", {"squad": "C"})
    assert oob.new_group("russian", {"commander": "PL"})
    victory = {
        "results": [{"winner": "russian", "when": {"occupies_each": {"side": "russian", "zone": {"hexes": ["4307"]}}}}]
    }
    assert panels(window).push(Edit("Victory").set((), "victory", {**victory, "otherwise": "draw"}))
    deploy = [{"group": name, "zone": {"map": "map2"}} for name in ("group-1", "group-2")]
    assert panels(window).push(Edit("Deploy").set(("sides", "russian"), "deployment", deploy))
    board = window.document.board
    dialogs.answers = [answer] if answer else []
    panel = window.findChild(SetupPanel)
    assert panel is not None
    assert panel.add("russian", "units", {"squad": "A"}, board.hex("4010")) is (answer is not None)
    asked = dialogs.texts("choose")[0]
    assert "Squad A does not fit in 4010: a hex holds at most 6 men of a side (8.62" in asked
    data = window.document.scenario.data
    if answer is None:
        assert "setup" not in data
        return
    units = [{k: v for k, v in u.items() if k != "facing"} for u in data["setup"]["russian"]["units"]]  # its LMG faces
    assert data["setup"]["russian"]["partial"] is True and panel.partial.isChecked()
    window.refresh_problems()
    stacking = [p for p in window.problems if p.code == "setup-stacking"]
    if answer == "Place all here":
        assert units == [{"squad": "A", "hex": "4010"}] and stacking
        return
    assert units[0] == {"squad": "A", "hex": "4010"} and len(units) == 2
    assert units[1]["member"] and board.hex(units[1]["hex"]) in set(neighbours(board.hex("4010")))
    assert not stacking and window.undo_stack.command(window.undo_stack.count() - 1).text().startswith(
        "Place russian Squad A in 4010 and"
    )
    missing = [p for p in window.problems if p.code == "setup-unit-missing"]
    assert missing and all(p.severity is Severity.INFO for p in missing)  # the PL, not placed yet
    panel.partial.setChecked(False)  # complete: the PL left out is an error now
    window.refresh_problems()
    assert "partial" not in data["setup"]["russian"]
    assert any(p.code == "setup-unit-missing" and p.severity is Severity.ERROR for p in window.problems)


@pytest.mark.gui
def test_a_skeleton_opens_in_the_window_and_every_panel_and_tool_copes(
    workspace: Path,
    window_on,  # noqa: F811
    dialogs: Dialogs,  # noqa: F811
) -> None:
    """No north (so no compass for its zones), no victory, a group without units: File > Open
    shows it with its problems, no "Cannot open", and the panels and tools show what there is."""
    skeleton = workspace / "scenarios" / "skeleton.yaml"
    skeleton.write_text(SKELETON + "zones:\n  edge: {area: {map_edge: south}}\n", encoding="utf-8")
    window = window_on(scenario(workspace, 1))
    assert files(window).open(skeleton) and not dialogs.texts("critical")
    assert {p.pointer for p in window.problems} >= {"", "/sides/german/groups/0"}
    board = window.document.board
    for kind in (MetadataPanel, OobPanel, ZonePanel, SetupPanel, VictoryPanel):
        shown = window.findChild(kind)
        assert shown is not None
        show_dock(shown)
        QApplication.processEvents()
    zones = window.findChild(ZonePanel)
    zones.select_zone("edge")
    assert zones.status.text()  # why it names no hexes: no north indicator to take south from
    for tool, hexes in (("los", ("3001", "3005")), ("viewshed", ("3001",)), ("movement", ("3001",))):
        window.use_tool(tool)
        for label in hexes:
            window.tools[tool].press(board.hex(label), None)
    QApplication.processEvents()
