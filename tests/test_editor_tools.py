"""The map-editing tools driven as a user drives them: brushes, erase, fill, roads, selection with
copy, paste and delete, the Properties panel; undo and redo; the map file saved (comments kept)
and read back to the same board."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QImage, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QRadioButton,
    QSpinBox,
)

from engine.model.terrain import CLEAR, Terrain
from iceditor.editor.document import Roads, open_document
from iceditor.editor.features.road_tool import add_chain
from iceditor.editor.mapview import HILL, ROAD, centre
from iceditor.editor.window import MainWindow

from .conftest import SPEC_MAP

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]

# The format spec's map with a road that is a chain under even-q (the spec's own example is
# not: ruling R25) and a comment on the road.
MAP = SPEC_MAP.replace('  - ["1001", "1101", "1202"]\n', '  - ["1001", "1102", "1202"]  # the village road\n')


@pytest.fixture(autouse=True)
def discard_on_close(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window closed with unsaved edits asks; a test answers Discard instead of waiting for a user."""
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:
    path = tmp_path / "test-map.yaml"
    path.write_text(MAP, encoding="utf-8")
    w = MainWindow(open_document(path))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.fit()
    QApplication.processEvents()
    return w


# -- driving the window ---------------------------------------------------------------------------


def at(window: MainWindow, label: str) -> QPoint:
    QApplication.processEvents()  # the layout settled: the map where the user sees it
    return window.view.mapFromScene(centre(window.document.board.hex(label)))


def drag(window: MainWindow, *labels: str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Press on the first hex, move over the others, release on the last (a user's stroke)."""
    drag_through(window, [centre(window.document.board.hex(label)) for label in labels], modifier)


def drag_through(window: MainWindow, points: list[QPointF], modifier: Qt.KeyboardModifier) -> None:
    QApplication.processEvents()
    viewport, on_screen = window.view.viewport(), [window.view.mapFromScene(p) for p in points]
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, modifier, on_screen[0])
    for point in on_screen[1:]:
        QTest.mouseMove(viewport, point)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, modifier, on_screen[-1])


def click(window: MainWindow, label: str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    drag(window, label, modifier=modifier)


def key(window: MainWindow, keys: str) -> None:
    """Type a shortcut with the map focused."""
    window.view.setFocus()
    sequence = keys.split("+")
    modifiers = Qt.KeyboardModifier.NoModifier
    for name in sequence[:-1]:
        modifiers |= {"Ctrl": Qt.KeyboardModifier.ControlModifier, "Shift": Qt.KeyboardModifier.ShiftModifier}[name]
    last = sequence[-1]
    code = getattr(Qt.Key, f"Key_{last}")
    QTest.keyClick(window.view, code, modifiers)
    QApplication.processEvents()


def hover(window: MainWindow, label: str) -> None:
    """Move the mouse onto a hex, no button down. The move event is sent to the map itself: QTest's
    mouseMove drops a move after a release, and one to where it believes the mouse already is (which
    an earlier test in the same process may have left there)."""
    viewport = window.view.viewport()
    point = QPointF(at(window, label))
    for target in (point + QPointF(1, 0), point):
        move = QMouseEvent(
            QEvent.Type.MouseMove,
            target,
            QPointF(viewport.mapToGlobal(target.toPoint())),
            Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        )
        QApplication.sendEvent(viewport, move)
    QApplication.processEvents()


def option(window: MainWindow, kind: type, name: str):  # type: ignore[no-untyped-def]
    found = window.findChild(kind, name)
    assert found is not None, name
    return found


def terrain(window: MainWindow, label: str) -> Terrain:
    return window.document.printed(window.document.board.hex(label))


def labels_of(window: MainWindow) -> list[str]:
    stack = window.undo_stack
    return [stack.text(i) for i in range(stack.count())]


def saved(window: MainWindow) -> tuple[str, dict]:  # type: ignore[type-arg]
    """Save, check that every comment is still there, and that a reload gives the same board."""
    window.document.save()
    path = window.document.path
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for line in MAP.splitlines():
        hex_entry = line.startswith('  "') and line[3:7].isdigit()
        if "#" in line and not (hex_entry and line[3:7] not in data["hexes"]):  # a cleared hex goes with its line
            assert line[line.index("#") :] in text, line
    reloaded = open_document(path).board
    board = window.document.board
    assert reloaded.terrain_map == board.terrain_map
    assert reloaded.roads == board.roads and reloaded.bridges == board.bridges
    return text, data


def shot(window: MainWindow, tmp_path: Path, name: str) -> QImage:
    """The window as the user sees it, saved to look at (pytest's tmp_path)."""
    QApplication.processEvents()
    image = window.grab().toImage()
    image.save(str(tmp_path / f"{name}.png"))
    return image


def colour_at(window: MainWindow, label: str, dx: float = 0.0, dy: float = 0.0) -> QColor:
    """The colour drawn on the map at a point of a hex (offset from its centre, in scene pixels)."""
    QApplication.processEvents()
    c = centre(window.document.board.hex(label))
    c.setX(c.x() + dx)
    c.setY(c.y() + dy)
    return window.view.viewport().grab().toImage().pixelColor(window.view.mapFromScene(c))


def close(a: QColor, b: QColor, tolerance: int = 30) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a.getRgb()[:3], b.getRgb()[:3], strict=True))


# -- brushes ----------------------------------------------------------------------------------------


def test_trees_brush_a_drag_is_one_undo_step_each_hex_once(window: MainWindow, tmp_path: Path) -> None:
    key(window, "T")
    assert window.tool is window.tools["trees-add"]
    summary = option(window, QLabel, "summary-trees-add")
    assert "adds 1 Tree symbol" in summary.text()
    drag(window, "1101", "1102", "1103", "1102")  # back over 1102: still once
    assert [terrain(window, h).trees for h in ("1101", "1102", "1103")] == [1, 1, 1]
    assert labels_of(window) == ["Trees + (3 hexes)"]
    assert terrain(window, "1102") == Terrain(trees=1)
    assert window.document.board.terrain(window.document.board.hex("1102")).road  # the road stays on the board
    drag(window, "1301", "1305")  # a fast drag: the hexes between the two events are painted too
    assert [terrain(window, f"130{r}").trees for r in range(1, 6)] == [1] * 5
    option(window, QSpinBox, "trees-add-amount").setValue(3)
    drag(window, "1203")
    assert terrain(window, "1203").trees == 5
    key(window, "Shift+T")
    option(window, QSpinBox, "trees-remove-amount").setValue(9)
    drag(window, "1203")
    assert terrain(window, "1203").trees == 0
    assert labels_of(window)[-2:] == ["Trees + (1 hex)", "Trees - (1 hex)"]
    window.undo_stack.undo()
    assert terrain(window, "1203").trees == 5
    shot(window, tmp_path, "trees")
    text, data = saved(window)
    assert data["hexes"]["1101"] == {"trees": 1} and data["hexes"]["1203"] == {"trees": 5}
    assert '"1101": {trees: 1}' in text


def test_choosing_another_tool_mid_stroke_ends_the_stroke(window: MainWindow) -> None:
    key(window, "G")
    viewport = window.view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at(window, "1401"))
    QTest.mouseMove(viewport, at(window, "1402"))
    key(window, "E")
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at(window, "1402"))
    assert labels_of(window) == ["Gully (2 hexes)"]
    window.undo_stack.undo()
    assert terrain(window, "1401") == CLEAR == terrain(window, "1402")


def test_level_crest_and_hill_brushes(window: MainWindow, tmp_path: Path) -> None:
    key(window, "H")
    option(window, QComboBox, "level-choice").setCurrentIndex(2)
    assert not option(window, QCheckBox, "level-crest").isEnabled()  # no level above 2
    drag(window, "1304", "1305")
    option(window, QComboBox, "level-choice").setCurrentIndex(1)
    option(window, QCheckBox, "level-crest").setChecked(True)
    assert "levels 1 and 2" in option(window, QLabel, "summary-level").text()
    drag(window, "1306")
    assert terrain(window, "1304") == Terrain(level=2)
    assert terrain(window, "1306") == Terrain(level=1, upper_level=2)
    assert close(colour_at(window, "1304", dx=-15), HILL[2])
    option(window, QComboBox, "level-choice").setCurrentIndex(0)
    option(window, QCheckBox, "level-crest").setChecked(False)
    drag(window, "1204")  # level 0: the hex leaves Hill K
    assert terrain(window, "1204") == CLEAR
    key(window, "Shift+H")
    hill = option(window, QComboBox, "hill-choice")
    hill.setCurrentText("M")
    drag(window, "1304", "1404")  # 1404 is level 0: it becomes a Level 1 Hill hex
    assert terrain(window, "1304") == Terrain(level=2, hill="M")
    assert terrain(window, "1404") == Terrain(level=1, hill="M")
    assert labels_of(window) == ["Level 2 (2 hexes)", "Crest 1/2 (1 hex)", "Level 0 (1 hex)", "Hill M (2 hexes)"]
    assert "M" in [hill.itemText(i) for i in range(hill.count())]
    shot(window, tmp_path, "levels")
    _, data = saved(window)
    assert data["hexes"]["1306"] == {"level": 1, "upper_level": 2}
    assert data["hexes"]["1404"] == {"level": 1, "hill": "M"}
    assert "1204" not in data["hexes"]
    assert not [p for p in window.document.problems() if p.code in ("two-levels", "terrain-impossible")]


def test_building_brush_new_building_and_chosen_id(window: MainWindow, tmp_path: Path) -> None:
    key(window, "B")
    building = option(window, QComboBox, "building-choice")
    assert building.currentText() == "New building"
    assert "next id 2" in option(window, QLabel, "summary-building").text()
    drag(window, "1402", "1403")
    assert terrain(window, "1402") == Terrain(building="2") == terrain(window, "1403")
    building.setCurrentText("1")
    drag(window, "1305")  # joins Building 1 (1205) across the hexside
    assert terrain(window, "1305") == Terrain(building="1")
    assert terrain(window, "1305").footprint is None  # the table's symbol
    assert labels_of(window) == ["Building 2 (2 hexes)", "Building 1 (1 hex)"]
    board = window.document.board
    assert board.buildings()["1"] == {board.hex("1205"), board.hex("1305")}
    shot(window, tmp_path, "building")
    _, data = saved(window)
    assert data["hexes"]["1402"] == {"building": "2"}


def test_marsh_and_gully_toggle_from_the_first_hex(window: MainWindow, tmp_path: Path) -> None:
    key(window, "Shift+M")
    drag(window, "1106", "1206")  # starts on a clear hex: adds marsh (1206 already has it)
    assert terrain(window, "1106").marsh and terrain(window, "1206").marsh
    drag(window, "1206", "1106")  # starts on a marsh hex: removes it
    assert not terrain(window, "1106").marsh and not terrain(window, "1206").marsh
    key(window, "G")
    drag(window, "1307", "1308")
    assert terrain(window, "1308").gully
    assert labels_of(window) == ["Marsh (1 hex)", "Remove marsh (2 hexes)", "Gully (2 hexes)"]
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert terrain(window, "1206").marsh and terrain(window, "1106").marsh and not terrain(window, "1308").gully
    window.undo_stack.redo()
    assert not terrain(window, "1206").marsh
    shot(window, tmp_path, "marsh-gully")
    _, data = saved(window)
    assert "1206" not in data["hexes"] and "1106" not in data["hexes"]


def test_erase_and_flood_fill(window: MainWindow, tmp_path: Path) -> None:
    key(window, "E")
    drag(window, "1203", "1204", "1205")
    assert all(terrain(window, h) == CLEAR for h in ("1203", "1204", "1205"))
    assert labels_of(window) == ["Erase (3 hexes)"]
    key(window, "Shift+M")  # the fill paints with the last brush chosen
    key(window, "F")
    assert option(window, QComboBox, "fill-brush").currentText() == "Marsh"
    clear = {h for h in window.document.board.hexes if window.document.printed(h) == CLEAR}
    click(window, "1409")
    assert labels_of(window)[-1] == f"Fill marsh ({len(clear)} hexes)"
    board = window.document.board
    assert {h for h in board.hexes if window.document.printed(h) == Terrain(marsh=True)} == clear | {board.hex("1206")}
    assert terrain(window, "1207") == Terrain(gully=True)  # another terrain: not filled
    shot(window, tmp_path, "fill-marsh")
    window.undo_stack.undo()
    assert terrain(window, "1409") == CLEAR
    option(window, QComboBox, "fill-brush").setCurrentText("Trees +")
    click(window, "1206")  # the marsh hex alone holds marsh
    assert terrain(window, "1206") == Terrain(trees=1, marsh=True)
    assert labels_of(window)[-1] == "Fill trees + (1 hex)"
    saved(window)


# -- roads ------------------------------------------------------------------------------------------


def test_road_tool_draws_removes_and_bridges(window: MainWindow, tmp_path: Path) -> None:
    key(window, "R")
    board = window.document.board
    drag(window, "1104", "1105", "1106")
    assert labels_of(window) == ["Road 1104-1106 (3 hexes)"]
    assert [board.label(h) for h in board.roads[-1]] == ["1104", "1105", "1106"]
    assert board.terrain(board.hex("1105")).road
    road_colour = colour_at(window, "1105")
    assert close(road_colour, ROAD, 40)
    text, data = saved(window)
    assert data["roads"] == [["1001", "1102", "1202"], ["1104", "1105", "1106"]]
    assert '  - ["1104", "1105", "1106"]' in text
    window.undo_stack.undo()
    assert len(board.roads) == 1 and not board.terrain(board.hex("1105")).road
    window.undo_stack.redo()
    # Over the gully: a bridge; along an existing link: nothing added twice.
    drag(window, "1106", "1107", "1207", "1208")
    assert board.terrain(board.hex("1207")).bridge
    drag(window, "1104", "1105")
    assert labels_of(window) == ["Road 1104-1106 (3 hexes)", "Road 1106-1208 (4 hexes)"]
    shot(window, tmp_path, "roads")
    text, data = saved(window)
    assert data["bridges"] == ["1207"]
    assert not [p for p in window.document.problems() if p.code in ("road-not-adjacent", "bridge-placement")]
    # Alt-drag removes the links it runs along; Alt-click every road through a hex.
    drag(window, "1102", "1202", modifier=Qt.KeyboardModifier.AltModifier)
    assert [board.label(h) for h in board.roads[0]] == ["1001", "1102"]
    click(window, "1207", modifier=Qt.KeyboardModifier.AltModifier)
    assert board.hex("1207") not in board.bridges and not board.terrain(board.hex("1207")).road
    assert labels_of(window)[-2:] == ["Remove road 1102-1202", "Remove roads through 1207"]
    text, data = saved(window)
    assert data["roads"] == [["1001", "1102"], ["1104", "1105", "1106"]]
    assert "# the village road" in text
    assert data.get("bridges") is None  # the bridge went with its road
    # Bridge mode: only a road hex in a gully takes a bridge.
    for _ in range(2):
        window.undo_stack.undo()
    option(window, QRadioButton, "road-bridge").setChecked(True)
    click(window, "1207")
    assert board.hex("1207") not in board.bridges
    assert labels_of(window)[-1] == "Remove bridge 1207"
    click(window, "1105")
    assert labels_of(window)[-1] == "Remove bridge 1207"  # 1105 is no gully hex: refused
    window.undo_stack.undo()
    assert board.hex("1207") in board.bridges
    text, _ = saved(window)
    assert text == window.document.maps[0].text()


def test_roads_split_at_a_map_seam_and_keep_the_file_comments(workspace: Path) -> None:
    """Maps 1 and 2 share column 30: a road drawn across it goes into both files, each its part."""
    document = open_document(next((workspace / "scenarios").glob("s6-*.yaml")))
    board = document.board
    before = document.roads()
    path = [board.hex(x) for x in ("2910", "3010", "3110")]
    after = add_chain(before, path, lambda h: {i for i, m in enumerate(document.maps) if m.holds(h)}, set())
    document.set_roads(after)
    assert [board.label(h) for h in document.roads()[0].chains[-1]] == ["2910", "3010"]
    assert [board.label(h) for h in document.roads()[1].chains[-1]] == ["3010", "3110"]
    original = document.maps[0].path.read_text(encoding="utf-8")
    document.save()
    text = document.maps[0].path.read_text(encoding="utf-8")
    assert [line for line in original.splitlines() if line.lstrip().startswith("#")] == [
        line for line in text.splitlines() if line.lstrip().startswith("#")
    ]
    assert '  - ["2910", "3010"]' in text
    document.set_roads(before)
    assert yaml.safe_load(document.maps[0].text()) == yaml.safe_load(original)


def test_a_road_edit_revalidates_the_zones_along_roads(workspace: Path) -> None:
    """Scenario 1's zones follow road 4001-5014: cut it and they no longer resolve; undo, they do."""
    document = open_document(next((workspace / "scenarios").glob("s1-*.yaml")))
    board = document.board
    assert not [p for p in document.problems() if p.code == "zone-empty"]
    watchers = len(board.watchers)
    before = document.roads()
    cut = [Roads(tuple(c for c in r.chains if board.hex("4106") not in c), r.bridges) for r in before]
    document.set_roads(cut)
    assert [p for p in document.problems() if p.code == "zone-empty"]
    document.set_roads(before)
    assert not [p for p in document.problems() if p.code == "zone-empty"]
    assert len(board.watchers) == watchers  # the old validation stops following the board


# -- selection, copy, paste, delete ------------------------------------------------------------------


def test_rectangle_and_lasso_selection(window: MainWindow, tmp_path: Path) -> None:
    key(window, "S")
    board = window.document.board
    drag(window, "1102", "1204")
    assert {board.label(h) for h in window.selected} == {"1102", "1103", "1104", "1202", "1203", "1204"}
    shot(window, tmp_path, "select-rectangle")
    assert colour_at(window, "1103") != colour_at(window, "1303")  # highlighted
    # A lasso (Ctrl): a triangle drawn a little outside the centres of three hexes.
    centres = [centre(board.hex(label)) for label in ("1305", "1405", "1406")]
    middle = sum(centres, QPointF()) / 3
    drag_through(window, [c + (c - middle) * 0.4 for c in centres], Qt.KeyboardModifier.ControlModifier)
    assert {board.label(h) for h in window.selected} == {"1305", "1405", "1406"}
    click(window, "1001", modifier=Qt.KeyboardModifier.ShiftModifier)
    assert {board.label(h) for h in window.selected} == {"1305", "1405", "1406", "1001"}
    click(window, "1009")
    assert {board.label(h) for h in window.selected} == {"1009"}
    assert window.undo_stack.count() == 0  # selecting is no edit


def test_copy_paste_keeps_the_shape_and_delete_clears(window: MainWindow, tmp_path: Path) -> None:
    key(window, "S")
    drag(window, "1203", "1205")  # trees, Hill K, Building 1
    key(window, "Ctrl+C")
    hover(window, "1303")  # an odd column: the shape is kept by axial offsets, not by labels
    key(window, "Ctrl+V")
    assert labels_of(window) == ["Paste 3 hexes"]
    board = window.document.board
    assert {board.label(h) for h in window.selected} == {"1303", "1304", "1305"}
    assert terrain(window, "1303") == Terrain(trees=2)
    assert terrain(window, "1304") == Terrain(level=1, hill="K")
    assert terrain(window, "1305") == Terrain(building="1")
    hover(window, "1408")  # partly off the map: the hexes on it are pasted
    key(window, "Ctrl+V")
    assert labels_of(window)[-1] == "Paste 2 hexes"
    assert terrain(window, "1408").trees == 2 and terrain(window, "1409").hill == "K"
    shot(window, tmp_path, "paste")
    drag(window, "1303", "1305")
    key(window, "Delete")
    assert labels_of(window)[-1] == "Delete 3 hexes"
    assert all(terrain(window, h) == CLEAR for h in ("1303", "1304", "1305"))
    window.undo_stack.undo()
    assert terrain(window, "1304") == Terrain(level=1, hill="K")
    _, data = saved(window)
    assert data["hexes"]["1303"] == {"trees": 2} and data["hexes"]["1409"] == {"level": 1, "hill": "K"}


# -- the Properties panel ----------------------------------------------------------------------------


def test_property_panel_shows_mixed_values_and_edits_all_selected(window: MainWindow, tmp_path: Path) -> None:
    key(window, "S")
    drag(window, "1203", "1204")
    trees = option(window, QSpinBox, "property-trees")
    level = option(window, QComboBox, "property-level")
    hill = option(window, QComboBox, "property-hill")
    marsh = option(window, QCheckBox, "property-marsh")
    assert trees.text() == "mixed" and level.currentText() == "mixed"
    assert hill.lineEdit().placeholderText() == "mixed"
    assert marsh.checkState() == Qt.CheckState.Unchecked
    trees.setValue(4)
    assert terrain(window, "1203").trees == 4 == terrain(window, "1204").trees
    assert trees.text() == "4"
    marsh.click()
    assert terrain(window, "1203").marsh and terrain(window, "1204").marsh
    level.textActivated.emit("2")
    hill.setCurrentText("K")
    hill.lineEdit().editingFinished.emit()
    assert terrain(window, "1203") == Terrain(trees=4, level=2, hill="K", marsh=True)
    assert terrain(window, "1204") == Terrain(trees=4, level=2, hill="K", marsh=True)
    assert labels_of(window) == [
        "Set trees 4 (2 hexes)",
        "Set marsh (2 hexes)",
        "Set level 2 (2 hexes)",
        "Set hill K (1 hex)",
    ]
    # A building's footprint: the table's symbol unless set here.
    key(window, "S")
    click(window, "1205")
    footprint = option(window, QLineEdit, "property-footprint")
    assert footprint.text() == "" and footprint.placeholderText() == "the table's symbol"
    footprint.setText("-0.5,-0.4 0.5,-0.4 0.5,0.4 -0.5,0.4")
    footprint.editingFinished.emit()
    assert terrain(window, "1205").footprint == ((-0.5, -0.4), (0.5, -0.4), (0.5, 0.4), (-0.5, 0.4))
    footprint.setText("1,2 3")
    footprint.editingFinished.emit()
    assert labels_of(window)[-1] == "Set footprint (1 hex)"  # refused, nothing changed
    shot(window, tmp_path, "properties")
    window.undo_stack.undo()
    assert footprint.text() == ""  # the panel follows undo
    window.undo_stack.undo()
    _, data = saved(window)
    assert data["hexes"]["1203"] == {"trees": 4, "level": 2, "marsh": True}
    assert data["hexes"]["1204"] == {"trees": 4, "level": 2, "hill": "K", "marsh": True}
    assert data["hexes"]["1205"] == {"building": 1}


def test_property_panel_says_the_roads_and_errata(workspace: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(open_document(next((workspace / "scenarios").glob("s1-*.yaml"))))
    qtbot.addWidget(window)
    board = window.document.board
    window.selected = {board.hex("4109"), board.hex("4106")}
    window.selection_changed.emit(window.selected)
    assert "1 of 2 hexes on a road" in option(window, QLabel, "property-roads").text()
    assert "4109: building 26" in option(window, QLabel, "property-errata").text()
    assert option(window, QComboBox, "property-building").lineEdit().placeholderText() == "no building"


def test_every_tool_has_a_shortcut_in_the_tools_menu(window: MainWindow) -> None:
    shortcuts = {a.objectName(): a.shortcut().toString() for a in window.menus["Tools"].actions()}
    mine = {
        "tool-trees-add": "T",
        "tool-trees-remove": "Shift+T",
        "tool-level": "H",
        "tool-hill": "Shift+H",
        "tool-building": "B",
        "tool-marsh": "Shift+M",
        "tool-gully": "G",
        "tool-erase": "E",
        "tool-fill": "F",
        "tool-road": "R",
        "tool-select": "S",
    }
    assert {k: shortcuts[k] for k in mine} == mine
    assert len(set(shortcuts.values()) - {""}) == len([s for s in shortcuts.values() if s])  # no key twice
    edit = {a.objectName(): a.shortcut().toString() for a in window.menus["Edit"].actions() if a.objectName()}
    assert edit["hexes-copy"] == "Ctrl+C" and edit["hexes-paste"] == "Ctrl+V" and edit["hexes-delete"] == "Del"
    assert isinstance(window.findChild(QAction, "hexes-select-all"), QAction)
    marsh = window.findChild(QAction, "tool-marsh")
    assert "Paint marsh hexes (8.55)" in marsh.toolTip() and "(Shift+M)" in marsh.toolTip()
    marsh.trigger()
    assert window.statusBar().currentMessage().startswith("Paint marsh hexes")
    assert option(window, QLabel, "summary-marsh").text().startswith("paints marsh;")
