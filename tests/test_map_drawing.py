"""How the map reads: hex numbers sized to the zoom, Trees against Woods, buildings and their
numbers clear of the hex numbers, counters that say what they are, the legend (View > Legend
and beside `iceditor render`'s map), and the LOS blocking highlight over a building's number."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QDockWidget, QStyleOptionGraphicsItem

import engine.model.tables as tables
from engine.hexgrid import Hex
from engine.model import terrain
from engine.model.mapsheet import load_map
from engine.model.terrain import Terrain
from iceditor.cli import main
from iceditor.editor import map_symbols
from iceditor.editor.document import open_document
from iceditor.editor.legend import entries
from iceditor.editor.map_symbols import PAINTERS, TREE, paint_terrain, terrain_symbols
from iceditor.editor.mapview import LEGIBLE_PX, NUMBER, NUMBER_SIZE, MapScene, hex_polygon, number_rect
from iceditor.editor.setup_items import INK, PieceItem
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]


def window_on(qtbot, path: Path) -> MainWindow:
    window = MainWindow(open_document(path))
    qtbot.addWidget(window)
    return window


def render(scene, rect: QRectF, scale: float) -> QImage:
    """The scene's `rect` drawn at `scale` pixels per scene unit."""
    image = QImage(round(rect.width() * scale), round(rect.height() * scale), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, image.width(), image.height()), rect)
    painter.end()
    return image


def pixels(image: QImage, near: QColor, tolerance: int = 40) -> int:
    """How many pixels are within `tolerance` of a colour in every channel."""
    found = 0
    for y in range(image.height()):
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if all(abs(a - b) <= tolerance for a, b in zip(c.getRgb()[:3], near.getRgb()[:3], strict=True)):
                found += 1
    return found


# -- hex numbers follow the zoom ---------------------------------------------------------------------


def test_hex_numbers_follow_the_zoom_and_hide_below_a_legible_size(qtbot) -> None:
    scene = MapScene(open_document(REPO / "maps" / "map2.yaml").board)
    labels = scene.labels
    fit = 0.45  # about "fit the map" in a 1366x768 window
    assert NUMBER_SIZE * fit < LEGIBLE_PX and labels.size_at(fit) is None
    assert labels.size_at(1.5) == NUMBER_SIZE  # 10.5 px on screen
    assert labels.size_at(4.0) * 4.0 == pytest.approx(12.0)  # zoomed in: no larger than 12 px
    labels.zoom_aware = False  # print: the size on the sheet at any scale
    assert labels.size_at(fit) == labels.size_at(4.0) == NUMBER_SIZE
    labels.zoom_aware = True
    number = number_rect(scene.board.hex("4004"))
    assert pixels(render(scene, number, fit), NUMBER, 30) == 0
    assert pixels(render(scene, number, 2.0), NUMBER, 30) > 20


def test_a_repaint_across_a_hex_number_draws_it_again(qtbot) -> None:
    """An overlay repainting the top of a hex (not its centre) gets the number back over the hex."""
    scene = MapScene(open_document(REPO / "maps" / "map2.yaml").board)
    number = number_rect(scene.board.hex("4004"))
    option = QStyleOptionGraphicsItem()
    option.exposedRect = number.adjusted(2, 1, -2, -1)  # type: ignore[attr-defined]
    assert not option.exposedRect.contains(map_symbols.centre(scene.board.hex("4004")))  # type: ignore[attr-defined]
    image = QImage(100, 100, QImage.Format.Format_RGB32)  # kept while it is painted on
    painter = Recording(image)
    painter.scale(2, 2)
    scene.labels.paint(painter, option)
    painter.end()
    assert "4004" in painter.texts


# -- Trees and Woods -----------------------------------------------------------------------------


def hex_image(t: Terrain, scale: float) -> QImage:
    h = Hex(0, 0)
    rect = hex_polygon(h).boundingRect()
    image = QImage(round(rect.width() * scale), round(rect.height() * scale), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.scale(scale, scale)
    painter.translate(-rect.topLeft())
    paint_terrain(painter, h, t, lambda n: None)
    painter.end()
    return image


@pytest.mark.parametrize("scale", [0.45, 2.0])
def test_8_54_a_woods_hex_reads_apart_from_a_single_tree_at_every_zoom(qtbot, scale: float) -> None:
    woods = tables.terrain_effects().woods_min_trees
    tree, wood = Terrain(trees=1), Terrain(trees=woods)
    assert terrain_symbols(Hex(0, 0), tree, lambda n: None) == ["ground", "tree"]
    assert terrain_symbols(Hex(0, 0), wood, lambda n: None) == ["ground", "woods", "tree"]
    green = QColor(150, 190, 120)  # the woods shade over the ground
    assert pixels(hex_image(wood, scale), green, 30) > 6 * pixels(hex_image(tree, scale), green, 30) + 10
    assert pixels(hex_image(tree, scale), TREE, 40) > 0  # the Tree itself is drawn


def test_the_woods_threshold_is_the_chart_s_woods_min_trees(qtbot, monkeypatch) -> None:
    effects = dataclasses.replace(tables.terrain_effects(), woods_min_trees=3)
    monkeypatch.setattr(tables, "terrain_effects", lambda path=None: effects)
    monkeypatch.setattr(map_symbols, "terrain_effects", lambda path=None: effects)
    monkeypatch.setattr(terrain, "terrain_effects", lambda path=None: effects)
    terrain._woods_min_trees.cache_clear()  # the engine reads the chart once
    try:
        assert "woods" not in terrain_symbols(Hex(0, 0), Terrain(trees=2), lambda n: None)
        assert "woods" in terrain_symbols(Hex(0, 0), Terrain(trees=3), lambda n: None)
        assert next(e for e in entries() if e.key == "woods").meaning.startswith("3 or more Tree symbols (8.54)")
    finally:
        monkeypatch.undo()
        terrain._woods_min_trees.cache_clear()


# -- buildings and names ---------------------------------------------------------------------------


def test_building_numbers_keep_off_the_hex_numbers(qtbot) -> None:
    """Buildings 24 (3211, 3311), 22 (4104, 4105) and 23 (4307, 4308) of Map 2, as Scenario 6 shows them."""
    scene = MapScene(open_document(REPO / "scenarios" / "s6-spartakovka.yaml").board)
    board = scene.board
    names = {name.text: name.rect for name in scene.names.names()}
    for building, hexes in (("24", ("3211", "3311")), ("22", ("4104", "4105")), ("23", ("4307", "4308"))):
        assert names[building].intersects(hex_polygon(board.hex(hexes[0])).boundingRect()) or names[
            building
        ].intersects(hex_polygon(board.hex(hexes[1])).boundingRect())
        for label in hexes:
            assert not names[building].intersects(number_rect(board.hex(label))), (building, label)
    covered = [
        (text, board.label(h)) for text, rect in names.items() for h in board.hexes if rect.intersects(number_rect(h))
    ]
    assert covered == []  # no hill name or building number over any hex number


def test_a_long_building_id_stays_on_its_roof(qtbot) -> None:
    """Map 1's one-hex building 2513 (named by its hex): the id is written smaller, inside the roof."""
    scene = MapScene(open_document(REPO / "maps" / "map1.yaml").board)
    name = next(n for n in scene.names.names() if n.text == "2513")
    xs = [x for x, _ in tables.terrain_effects().footprint]
    roof = (max(xs) - min(xs)) * map_symbols.HEX_SIZE
    assert name.size < 11 and name.rect.width() <= roof
    assert next(n for n in scene.names.names() if n.text == "1").size == 11  # a short id keeps its size


def test_10_31_a_a_building_is_one_solid_roof_across_its_hexes(qtbot) -> None:
    """Building 22 (4104, 4105): roof red all along the line between the centres, no white holes
    (the old drawing left the footprints hollow where the joining band overlapped them)."""
    scene = MapScene(open_document(REPO / "scenarios" / "s6-spartakovka.yaml").board)
    board = scene.board
    a, b = (map_symbols.centre(board.hex(x)) for x in ("4104", "4105"))
    image = render(scene, QRectF(a.x() - 30, a.y() - 30, 60, b.y() - a.y() + 60), 3.0)
    plate = number_rect(board.hex("4105")).adjusted(0, -1, 0, 1)  # 4105's number on its pale plate
    beside = [a + (b - a) * (i / 40) + QPointF(2, 0) for i in range(41)]  # beside the ridge line
    name = next(n.rect for n in scene.names.names() if n.text == "22").adjusted(-2, -2, 2, 2)  # white on the roof
    beside = [p for p in beside if not plate.contains(p) and not name.contains(p)]
    assert len(beside) > 20
    light = [
        p
        for p in beside
        if image.pixelColor(round((p.x() - a.x() + 30) * 3), round((p.y() - a.y() + 30) * 3)).lightness() > 200
    ]
    assert light == []


# -- the legend ---------------------------------------------------------------------------------------


def test_the_legend_explains_every_symbol_the_map_draws(qtbot) -> None:
    keys = {e.key for e in entries()}
    drawn = {"road", "bridge", "hex-number", "hill-name", "building-id", "north"}
    for name in ("map1", "map2", "map3"):
        sheet = load_map(REPO / "maps" / f"{name}.yaml")
        for h, t in sheet.terrain.items():
            drawn.update(terrain_symbols(h, t, lambda n, s=sheet: s.terrain.get(n)))
    crest = Terrain(level=0, upper_level=1)  # a hex holding two levels (10.34), bundled or painted
    drawn.update(terrain_symbols(Hex(0, 0), crest, lambda n: Terrain(level=1)))
    assert {"crest", "woods", "tree", "building", "level-2", "hill-edge"} <= drawn
    assert set(PAINTERS) <= keys and drawn <= keys
    assert {"unit", "down", "facing", "improved_position", "mines", "hidden", "infiltration"} <= keys
    assert {"los-line", "los-hexes", "los-blocking", "viewshed", "reach", "zone", "selection"} <= keys
    assert {e.key for e in entries(overlays=False)} == keys - {e.key for e in entries()[len(entries(False)) :]}
    crest = next(e for e in entries() if e.key == "crest")
    assert "10.34" in crest.meaning and "two levels" in crest.meaning


def test_view_legend_shows_the_legend_panel(qtbot) -> None:
    window = window_on(qtbot, REPO / "maps" / "map2.yaml")
    dock = next(d for d in window.findChildren(QDockWidget) if d.windowTitle() == "Legend")
    action = next(a for a in window.menus["View"].actions() if a.text() == "Legend")
    assert dock.isHidden()
    window.show()
    action.trigger()
    assert dock.isVisible() and dock.widget().widget().height() > 900  # every entry, scrolled


def test_render_svg_holds_the_title_north_arrow_and_legend(qtbot, tmp_path: Path, capsys) -> None:
    svg = tmp_path / "s1.svg"
    assert main(["render", str(REPO / "scenarios" / "s1-demyansk-pocket.yaml"), "--out", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert "Scenario 1: Demyansk" in text
    assert "North: the NORTH indicator in 5001" in text and "points to 5002 (24.1)" in text
    for name in ("Woods hex", "Tree symbol", "Crest hex", "Building", "Counters", "DOWN", "Hex number"):
        assert f">{name}<" in text.replace("\n", ""), name
    assert ">Viewshed<" not in text.replace("\n", "")  # a print has no tool overlays to explain


# -- counters and the LOS highlight ---------------------------------------------------------------------


class Recording(QPainter):
    """A painter that keeps the texts written with it."""

    def __init__(self, device: QImage) -> None:
        super().__init__(device)
        self.texts: list[str] = []

    def drawText(self, *args) -> None:  # type: ignore[no-untyped-def, override]
        self.texts.append(args[-1])
        super().drawText(*args)


def test_3_0_a_placed_counter_shows_its_unit_and_state(qtbot) -> None:
    window = window_on(qtbot, REPO / "scenarios" / "s1-demyansk-pocket.yaml")
    board = window.document.board
    pieces = {
        (board.label(i.piece.hex), i.piece.text): i
        for i in window.scene.layers["units"].childItems()
        if isinstance(i, PieceItem)
    }
    image = QImage(400, 400, QImage.Format.Format_RGB32)
    for (label, text), down in ((("4309", ("Sq C", "x3")), True), (("4307", ("PL", "")), False)):
        item = pieces[(label, text)]
        painter = Recording(image)
        painter.scale(3, 3)
        painter.translate(-item.anchor() + QPointF(60, 60))
        item.paint(painter, QStyleOptionGraphicsItem())
        painter.end()
        assert [t for t in painter.texts if t] == [t for t in (*text, "DOWN" if down else "UP") if t]
    far = Recording(image)
    far.scale(0.3, 0.3)
    pieces[("4309", ("Sq C", "x3"))].paint(far, QStyleOptionGraphicsItem())
    far.end()
    assert far.texts == []  # too small to read: the colours and the DOWN strip only
    facing = pieces[("4307", ("C LMG", "PR10"))]  # faces 4207 (8.7): the wedge on that side
    assert facing.piece.facing == board.hex("4207")
    wedge = render(window.scene, facing.sceneBoundingRect(), 4.0)
    assert pixels(wedge, INK, 20) > 30


def test_10_33_the_blocking_highlight_leaves_the_building_number_readable(qtbot) -> None:
    """Blocked at 4307, Building 23's number: the red highlight is an outline round the hex, not over it."""
    window = window_on(qtbot, REPO / "scenarios" / "s6-spartakovka.yaml")
    board = window.document.board
    los = window.tools["los"]
    sight = los.show_line(board.hex("4314"), board.hex("4305"))  # type: ignore[attr-defined]
    assert sight is not None and sight.blocking_hex == board.hex("4307")
    rect = next(n.rect for n in window.scene.names.names() if n.text == "23")
    shown = render(window.scene, rect, 4.0)
    los.blocking.setVisible(False)  # type: ignore[attr-defined]
    assert render(window.scene, rect, 4.0) == shown
    los.blocking.setVisible(True)  # type: ignore[attr-defined]
    outline = render(window.scene, hex_polygon(board.hex("4307")).boundingRect(), 1.5)
    assert pixels(outline, QColor("#c62828"), 40) > 40  # the hex is still marked, round its edge


def test_snapshot_frame_and_legend(qtbot, tmp_path: Path, capsys) -> None:
    """--frame FROM:TO shows those hexes (close enough to read the counters), --legend the panel."""
    out = tmp_path / "frame.png"
    s1 = str(REPO / "scenarios" / "s1-demyansk-pocket.yaml")
    assert main(["snapshot", s1, "--out", str(out), "--size", "900x640", "--frame", "4307:4309", "--legend"]) == 0
    assert QImage(str(out)).size().toTuple() == (900, 640)
    assert main(["snapshot", s1, "--out", str(out), "--frame", "4307"]) == 2
    assert "--frame '4307': expected FROM:TO, two hexes" in capsys.readouterr().err
    assert main(["snapshot", s1, "--out", str(out), "--frame", "4307:9999"]) == 2
    assert "9999" in capsys.readouterr().err
