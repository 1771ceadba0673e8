"""The tools built on the engine, driven as a user would: line of sight (L) with the Sighting
profile, viewshed and zone heatmap (V), movement reach and path (M), Esc; and the `snapshot`
and `render` commands. What they draw must be the engine's answer."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QImage, QPolygonF, QRegion
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from engine.geometry.los_kernel import SightKernel
from engine.geometry.movement import Mover, UnitClass, cheapest_path, reach
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex, hex_distance
from engine.model.terrain import Terrain
from iceditor.cli import main
from iceditor.editor.document import open_document
from iceditor.editor.features.movement_overlay import band_colour
from iceditor.editor.mapview import HEX_SIZE, centre
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]

# A small map: 1203+1204 hold four Trees on one line (10.31 b); Hill K (level 2) looks down
# column 14 over woods at 1403 (below the line) and 1407 (above it, 10.32 b); a marsh at 1606.
SMALL_MAP = """\
format: iron-cross-map/1
name: Overlay test map
grid: {columns: [10, 18], rows: [1, 9], offset: even-q}
hexes:
  "1203": {trees: 2}
  "1204": {trees: 2}
  "1401": {level: 2, hill: K}
  "1403": {trees: 2}
  "1407": {trees: 2}
  "1606": {marsh: true}
  "1105": {building: 1}
roads:
  - ["1001", "1101", "1202"]
"""


@pytest.fixture
def small_map(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL_MAP, encoding="utf-8")
    return path


@pytest.fixture
def scenario1(workspace: Path) -> Path:
    """Scenario 1, with its maps and errata, in the copies of the bundled data (conftest)."""
    return next((workspace / "scenarios").glob("s1-*.yaml"))


def open_window(qtbot, path: Path) -> MainWindow:
    window = MainWindow(open_document(path))
    qtbot.addWidget(window)
    with qtbot.waitActive(window):  # shortcuts reach the active window only
        window.show()
        window.activateWindow()
    window.fit()
    return window


def at(window: MainWindow, h: Hex):
    return window.view.mapFromScene(centre(h))


def click(qtbot, window: MainWindow, h: Hex) -> None:
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton, pos=at(window, h))


def hover(qtbot, window: MainWindow, h: Hex) -> None:
    qtbot.mouseMove(window.view.viewport(), at(window, h))


def key(qtbot, window: MainWindow, k: Qt.Key) -> None:
    """A shortcut typed with the map focused."""
    window.view.setFocus()
    qtbot.keyClick(window.view, k)


# -- line of sight ----------------------------------------------------------------------------


def test_10_31_b_los_tool_marks_the_blocking_hex_with_the_rule(qtbot, small_map: Path) -> None:
    """Click the firer's hex, hover (the line follows), click the target: four Trees along (10.31 b)."""
    window = open_window(qtbot, small_map)
    board = window.document.board
    key(qtbot, window, Qt.Key.Key_L)
    tool = window.tools["los"]
    assert window.tool is tool
    source, target = board.hex("1201"), board.hex("1206")
    click(qtbot, window, source)
    hover(qtbot, window, board.hex("1203"))
    assert tool.sight is not None and tool.sight.target == board.hex("1203") and not tool.sight.blocked
    hover(qtbot, window, target)
    click(qtbot, window, target)
    expected = SightKernel(board).sight(source, target)
    assert tool.sight == expected
    assert expected.blocked and expected.rule == "10.31 b" and expected.blocking_hex == board.hex("1204")
    assert set(tool.blocking.hexes) == {board.hex("1204")}
    assert tool.rule_tag.text.startswith("10.31 b")
    assert "blocked at 1204 (10.31 b)" in tool.summary.text() and "range 5" in tool.summary.text()
    assert "Trees/AFVs/Wrecks along 4" in tool.line.toolTip()
    assert set(tool.passed.hexes) == {board.hex(label) for label in ("1202", "1203", "1204", "1205")}
    assert tool.line.ends is not None and tool.line.ends[2] is not None  # dashed beyond the blocking hex
    assert "1201 → 1206: blocked at 1204" in window.statusBar().currentMessage()
    hover(qtbot, window, board.hex("1208"))  # the line stays once the target is chosen
    assert tool.sight.target == target


class _Painted(QObject):
    """The regions of a widget's paint events."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.regions: list[QRegion] = []
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.regions.append(QRegion(event.region()))  # type: ignore[attr-defined]
        return False


def _on_screen(window: MainWindow) -> QImage:
    """The map as the screen shows it (what was painted, not the map drawn anew)."""
    viewport = window.view.viewport()
    corner = viewport.mapToGlobal(viewport.rect().topLeft())
    return window.screen().grabWindow(0, corner.x(), corner.y(), viewport.width(), viewport.height()).toImage()


def test_a_los_hover_repaints_what_changed_and_leaves_nothing_behind(qtbot, small_map: Path) -> None:
    """Issue 22 (the LOS hover under 16 ms): a hover repaints the hexes and the strips of line that
    changed, not the box of the old and the new line; the map shown is the map drawn anew."""
    window = open_window(qtbot, small_map)
    board = window.document.board
    window.use_tool("los")
    viewport = window.view.viewport()
    click(qtbot, window, board.hex("1001"))
    for label in ("1802", "1809"):  # the first line of all: the overlays' items take the map as their bounds
        hover(qtbot, window, board.hex(label))
        QApplication.processEvents()
    painted = _Painted(viewport)
    hover(qtbot, window, board.hex("1802"))
    QApplication.processEvents()
    assert window.tools["los"].sight.target == board.hex("1802")
    ends = QPolygonF([centre(board.hex(label)) for label in ("1001", "1809", "1802")]).boundingRect()
    box = window.view.mapFromScene(ends.adjusted(-HEX_SIZE, -HEX_SIZE, HEX_SIZE, HEX_SIZE)).boundingRect()
    area = sum(r.width() * r.height() for region in painted.regions for r in region)
    # main repainted more than that box: its items' bounds were each line's box
    assert 0 < area < box.width() * box.height() / 2
    shown = _on_screen(window)
    viewport.repaint()
    assert shown == _on_screen(window)


def test_roads_and_bridges_repainted_in_strips_are_the_roads_drawn_whole(qtbot, workspace: Path) -> None:
    """The roads are one item over the map that draws, at a repaint, the chains and bridges that
    meet the exposed strip: after LOS hovers across Scenario 5's roads and bridges (5806, 6410,
    6521, 6815) the map on screen is the map repainted whole."""
    window = open_window(qtbot, next((workspace / "scenarios").glob("s5-*.yaml")))
    board = window.document.board
    window.use_tool("los")
    window.view.centre_on(board.hex("6410"))
    click(qtbot, window, board.hex("6410"))
    for label in ("5806", "6521", "6815", "5403", "6527", "6410", "6723"):
        if window.view.viewport().rect().contains(at(window, board.hex(label))):
            hover(qtbot, window, board.hex(label))
            QApplication.processEvents()
    viewport = window.view.viewport()
    shown = _on_screen(window)
    viewport.repaint()
    assert shown == _on_screen(window)


def test_a_straight_road_is_drawn_where_a_repaint_crosses_it(qtbot, tmp_path: Path) -> None:
    """A road up a column is a path whose box has no width: it is drawn all the same, at the first
    paint and where a LOS hover's strip crosses it."""
    path = tmp_path / "straight.yaml"
    path.write_text(SMALL_MAP.replace('["1001", "1101", "1202"]', '["1502", "1503", "1504", "1505", "1506"]'))
    window = open_window(qtbot, path)
    board = window.document.board
    window.use_tool("los")
    click(qtbot, window, board.hex("1304"))
    for label in ("1704", "1804", "1703"):
        hover(qtbot, window, board.hex(label))
        QApplication.processEvents()
    shown = _on_screen(window)
    window.scene.set_layer_visible("roads", False)
    window.view.viewport().repaint()
    bare = _on_screen(window)
    for upper, lower in (("1502", "1503"), ("1504", "1505")):
        middle = window.view.mapFromScene((centre(board.hex(upper)) + centre(board.hex(lower))) / 2)
        assert shown.pixelColor(middle) != bare.pixelColor(middle)


def _fire_line(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The fire fixture open in a window, the LOS tool's line from the German MMG (1324, facing
    north) to the Russian ATR (1303) chosen."""
    import shutil

    folder = REPO / "tests" / "fixtures" / "game"
    for name in ("fire.yaml", "fire-map.yaml"):
        shutil.copy(folder / name, tmp_path / name)
    window = open_window(qtbot, tmp_path / "fire.yaml")
    board = window.document.board
    tool = window.tools["los"]
    window.use_tool("los")
    tool.press(board.hex("1324"), None)
    tool.press(board.hex("1303"), None)
    return window, tool


def test_los_tool_shows_the_exact_odds_of_the_set_ups_fire(qtbot, tmp_path: Path) -> None:
    """Issue 13: 'The editor's LOS tool and the AI players use the same function' (fire_odds): a line
    from the German MMG of the fire fixture's set-up (1324, facing north) to the Russian ATR (1303)
    shows its PC, the terms of its firepower with their rules and the ATR's chances."""
    from engine.game import new_game
    from engine.game.fire_odds import describe_odds, fire_odds
    from engine.model.scenario import load_scenario

    window, tool = _fire_line(qtbot, tmp_path)
    board = window.document.board
    text = tool.summary.text()
    game = new_game(load_scenario(tmp_path / "fire.yaml"), 0)
    expected = describe_odds(fire_odds(game, [game.board.hex("1324")], game.board.hex("1303")))
    assert text.endswith(expected)
    assert "german/MMG-1: PC 83%" in text and "(11.2)" in text and "russian/ATR-1:" in text
    tool.press(board.hex("1010"), None)  # an empty hex: no odds
    tool.press(board.hex("1303"), None)
    assert "Fire by" not in tool.summary.text()


def test_23_2_los_tool_shows_the_observation_chance_and_modifiers_when_advanced(qtbot, tmp_path: Path) -> None:
    """Issue 23: 'the editor's LOS tool shows the observation chance and modifiers between the two
    hexes': with "Advanced rules" ticked, the MMG's observation of the ATR 21 hexes off, each 23.2
    modifier with its side, then the advanced odds; the numbers are the engine's own."""
    from engine.game import new_game
    from engine.game.fire_odds import describe_observation, describe_odds, fire_odds
    from engine.model.scenario import load_scenario

    _, tool = _fire_line(qtbot, tmp_path)
    assert "Observation of" not in tool.summary.text()  # the basic game: no observation
    tool.advanced.setChecked(True)
    text = tool.summary.text()
    game = new_game(load_scenario(tmp_path / "fire.yaml"), 0, {"advanced": True})
    source, target = game.board.hex("1324"), game.board.hex("1303")
    assert describe_observation(game, source, target) in text
    assert text.endswith(describe_odds(fire_odds(game, [source], target)))
    assert "+3 for the target: range beyond five hexes (23.2 a)" in text and "observed 41.7% (23.2)" in text


def test_dragging_from_firer_to_target_draws_the_line(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    window.use_tool("los")
    tool = window.tools["los"]
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=at(window, board.hex("1601")))
    qtbot.mouseMove(viewport, at(window, board.hex("1604")))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=at(window, board.hex("1608")))
    assert tool.fixed and tool.sight is not None
    assert (tool.sight.source, tool.sight.target) == (board.hex("1601"), board.hex("1608"))
    assert not tool.sight.blocked and tool.line.ends is not None and tool.line.ends[2] is None


def test_10_31_c_a_down_firer_is_blocked_by_the_marsh(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    tool = window.tools["los"]
    tool.show_line(board.hex("1601"), board.hex("1608"))
    assert not tool.sight.blocked
    tool.firer.setCurrentIndex(tool.firer.findData(FirerState.DOWN.value))
    assert tool.sight.blocked and tool.sight.rule == "10.31 c" and tool.sight.blocking_hex == board.hex("1606")
    assert tool.sight == SightKernel(board).sight(board.hex("1601"), board.hex("1608"), FirerState.DOWN)


def test_10_32_b_profile_dock_charts_units_on_different_levels(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    key(qtbot, window, Qt.Key.Key_L)
    tool = window.tools["los"]
    firer, target = board.hex("1401"), board.hex("1408")
    click(qtbot, window, firer)
    click(qtbot, window, target)
    expected = SightKernel(board).sight(firer, target)
    assert expected.rule == "10.32 b" and expected.blocking_hex == board.hex("1407")
    assert tool.dock.isVisible() and tool.dock.windowTitle() == "Sighting profile"
    chart = tool.chart
    assert chart.sight == expected and chart.lower_hex() == target
    # each obstacle at its range to the lower hex, as the engine measures it (10.32 b)
    bars = {window.document.board.label(p.hex): (d, p.height, p.blocks) for p, d in chart.bars()}
    assert bars["1403"] == (5, 0.5, False) and bars["1407"] == (1, 0.5, True)
    assert all(d == hex_distance(target, board.hex(label)) for label, (d, _, _) in bars.items())
    image = chart.grab().toImage()
    assert image.width() >= 420 and image.pixelColor(image.width() // 2, image.height() // 2).isValid()
    tool.show_line(board.hex("1201"), board.hex("1206"))  # the same level: 10.31, no chart
    assert chart.sight is None and "10.31" in chart.note


def test_the_line_follows_terrain_edits_and_their_undo(qtbot, small_map: Path, monkeypatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window = open_window(qtbot, small_map)
    board = window.document.board
    tool = window.tools["los"]
    tool.show_line(board.hex("1201"), board.hex("1206"))
    assert tool.sight.blocked
    window.paint("Clear 1204", {board.hex("1204"): Terrain()})
    assert not tool.sight.blocked and not tool.blocking.hexes
    window.undo_stack.undo()
    assert tool.sight.blocked and tool.sight.blocking_hex == board.hex("1204")


# -- viewshed and heatmap --------------------------------------------------------------------------


def test_viewshed_shades_exactly_the_hexes_the_engine_sees(qtbot, scenario1: Path) -> None:
    window = open_window(qtbot, scenario1)
    board = window.document.board
    key(qtbot, window, Qt.Key.Key_V)
    tool = window.tools["viewshed"]
    assert window.tool is tool and tool.dock.isVisible()
    source = board.hex("4314")
    click(qtbot, window, source)
    fan = SightKernel(board).fan(source)
    visible = {h for h, blocked in fan.items() if not blocked and h != source}
    assert set(tool.shade.hexes) == visible and len(tool.shade.hexes) == len(visible)
    assert f"4314 (UP) sees {len(visible)} of {len(board.hexes) - 1} hexes" == tool.result.text()
    tool.firer.setCurrentIndex(tool.firer.findData(FirerState.DOWN.value))
    fan_down = SightKernel(board).fan(source, FirerState.DOWN)
    assert set(tool.shade.hexes) == {h for h, blocked in fan_down.items() if not blocked and h != source}


def test_zone_heatmap_counts_the_watchers_seeing_each_hex(qtbot, scenario1: Path) -> None:
    window = open_window(qtbot, scenario1)
    tool = window.tools["viewshed"]
    context = window.document.session.context
    tool.watching.setCurrentText("german-deployment")
    tool.watched.setCurrentText("objectives")
    assert tool.zones_action in window.menus["Overlays"].actions()
    tool.zones_action.trigger()
    assert tool.dock.isVisible()
    qtbot.mouseClick(_heatmap_button(tool), Qt.MouseButton.LeftButton)
    seeing, seen = context.zone("german-deployment"), context.zone("objectives")
    kernel = SightKernel(window.document.board)
    fans = {w: kernel.fan(w) for w in seeing}
    expected = {h: sum(1 for w in seeing if not fans[w][h]) for h in seen}
    assert tool.counts == expected
    assert tool.numbers.texts == {h: str(n) for h, n in expected.items()}
    assert set(tool.shade.hexes) == set(seen) and set(tool.watchers.hexes) == set(seeing)
    assert f"of the {len(seen)} hexes of objectives" in tool.result.text()


def _heatmap_button(tool):
    from PySide6.QtWidgets import QPushButton

    return next(b for b in tool.dock.widget().findChildren(QPushButton) if b.text() == "Show heatmap")


# -- movement -------------------------------------------------------------------------------------


def test_movement_bands_are_the_reach_costs_and_the_path_the_cheapest(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    key(qtbot, window, Qt.Key.Key_M)
    tool = window.tools["movement"]
    assert window.tool is tool and tool.dock.isVisible()
    start = board.hex("1304")
    click(qtbot, window, start)
    found = reach(board, start, Mover(UnitClass.INFANTRY))
    costs = {h: mp for h, mp in found.costs.items() if h != start}
    top = max(found.costs.values())
    assert tool.reach == found
    assert tool.costs.texts == {h: f"{mp:g}" for h, mp in costs.items()}
    assert tool.bands.hexes == {h: band_colour(mp, top) for h, mp in costs.items()}
    assert "allowance 6 MP" in tool.result.text()
    goal = board.hex("1407")  # woods, inside the reach
    hover(qtbot, window, goal)
    path = cheapest_path(board, start, goal, Mover(UnitClass.INFANTRY))
    assert tool.path.isVisible() and tool.path.path().elementCount() == len(path.hexes)
    assert tool.path_tag.text == f"{path.cost:g} MP"
    far = board.hex("1809")
    hover(qtbot, window, far)
    far_path = cheapest_path(board, start, far, Mover(UnitClass.INFANTRY))
    assert tool.path_tag.text == f"{far_path.cost:g} MP" + ("" if far in found.costs else " (beyond this phase)")


def test_movement_options_change_the_mover_and_the_rules_refuse_a_pinned_afv(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    tool = window.tools["movement"]
    tool.show_reach(board.hex("1304"))
    tool.unit.setCurrentIndex(tool.unit.findData("afv"))
    assert tool.reach == reach(board, board.hex("1304"), Mover(UnitClass.AFV))
    tool.morale.setCurrentIndex(tool.morale.findData("pinned"))
    assert tool.state.currentData() == "down"  # 3.25: never UP when not NORMAL
    assert tool.reach is None and not tool.bands.hexes and "never PINNED" in tool.result.text()
    tool.unit.setCurrentIndex(tool.unit.findData("cw"))
    tool.mp.setValue(3)
    mover = tool.chosen_mover()
    assert (mover.unit, mover.morale, mover.mp) == (UnitClass.CW, "pinned", 3)
    assert tool.reach == reach(board, board.hex("1304"), mover) and tool.reach.allowance == "one hex"  # 8.12


# -- clearing and layers ----------------------------------------------------------------------------


def test_escape_clears_every_overlay_and_the_layer_can_be_hidden(qtbot, small_map: Path) -> None:
    window = open_window(qtbot, small_map)
    board = window.document.board
    los, movement, viewshed = window.tools["los"], window.tools["movement"], window.tools["viewshed"]
    los.show_line(board.hex("1201"), board.hex("1206"))
    movement.show_reach(board.hex("1304"))
    viewshed.show_from(board.hex("1401"))
    layer = window.scene.layers["overlays"]
    item = next(
        window.layer_list.item(i)
        for i in range(window.layer_list.count())
        if window.layer_list.item(i).data(Qt.ItemDataRole.UserRole) == "overlays"
    )
    item.setCheckState(Qt.CheckState.Unchecked)
    assert not layer.isVisible()
    item.setCheckState(Qt.CheckState.Checked)
    key(qtbot, window, Qt.Key.Key_Escape)
    assert los.sight is None and los.line.ends is None and not los.blocking.hexes
    assert movement.reach is None and not movement.bands.hexes and not movement.costs.texts
    assert not viewshed.shade.hexes and viewshed.source is None


# -- snapshot and render ------------------------------------------------------------------------------


def test_snapshot_draws_the_window_with_an_overlay(qtbot, scenario1: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "snap.png"
    assert main(["snapshot", str(scenario1), "--out", str(out), "--overlay", "los:4314:4305", "--size", "900x640"]) == 0
    assert capsys.readouterr().out == f"{out}: 900x640 px, the editor window with {scenario1}\n"  # as render says
    image = QImage(str(out))
    assert (image.width(), image.height()) == (900, 640) and out.stat().st_size > 10_000
    assert len({image.pixel(x, y) for x in range(0, 900, 30) for y in range(0, 640, 30)}) > 20
    out2 = tmp_path / "reach.png"
    overlays = [
        "--overlay",
        "zones:german-deployment:objectives",
        "--overlay",
        "reach:4314:infantry",
        "--hover",
        "4310",
    ]
    assert main(["snapshot", str(scenario1), "--out", str(out2), *overlays]) == 0
    assert QImage(str(out2)).size().toTuple() == (1400, 900)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--overlay", "los:4314"], "expected los:FROM:TO"),
        (["--overlay", "los:4314:9999"], "9999"),
        (["--overlay", "reach:4314:tank"], "UNIT is one of infantry, cw, afv, ft"),
        (["--overlay", "reach:4314:cw"], "Movement Factor"),
        (["--size", "big"], "expected WxH"),
        (["--overlay", "zones:german-deployment:nowhere"], "no zone 'nowhere' (zones: german-deployment, "),
    ],
)
def test_snapshot_bad_input_exits_2_with_a_message(
    qtbot, scenario1: Path, tmp_path: Path, capsys, arguments, message
) -> None:
    out = tmp_path / "bad.png"
    assert main(["snapshot", str(scenario1), "--out", str(out), *arguments]) == 2
    assert message in capsys.readouterr().err


def test_snapshot_of_an_unreadable_file_exits_2(qtbot, tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: iron-cross-map/1\ngrid: [\n", encoding="utf-8")
    assert main(["snapshot", str(broken), "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err.startswith(f"{broken}:3:1: error: ")  # the file's own line, as validate says
    assert main(["render", str(broken), "--out", str(tmp_path / "x.pdf")]) == 2
    assert "must end in .png or .svg" in capsys.readouterr().err


def test_render_exports_the_map_print_ready(qtbot, small_map: Path, tmp_path: Path) -> None:
    """PNG at the print resolution, SVG sized in millimetres: hexes 16 mm across the flats (the map
    alone; with the legend beside it, tests/test_map_drawing.py)."""
    png, svg = tmp_path / "map.png", tmp_path / "map.svg"
    assert main(["render", str(small_map), "--out", str(png), "--dpi", "150", "--no-legend"]) == 0
    assert main(["render", str(small_map), "--out", str(svg), "--no-legend"]) == 0
    # 9 columns of flat-topped hexes, 9 rows (+ half a hex of shift), half a hex of margin round
    width_units = (9 - 1) * 1.5 * HEX_SIZE + 2 * HEX_SIZE + HEX_SIZE
    height_units = 9.5 * math.sqrt(3) * HEX_SIZE + HEX_SIZE
    mm = 16.0 / (math.sqrt(3) * HEX_SIZE)
    image = QImage(str(png))
    assert image.width() == pytest.approx(width_units * mm / 25.4 * 150, rel=0.015)
    assert image.height() == pytest.approx(height_units * mm / 25.4 * 150, rel=0.015)
    assert round(image.dotsPerMeterX() * 0.0254) == 150
    text = svg.read_text(encoding="utf-8")
    width_mm = float(re.search(r'width="([\d.]+)mm"', text).group(1))
    assert width_mm == pytest.approx(width_units * mm, rel=0.015)
    assert "1203" in text and "<path" in text  # hex labels and terrain drawn as vectors


def test_snapshot_works_without_a_display_and_without_qt_platform_set(small_map: Path, tmp_path: Path) -> None:
    """The command picks the offscreen platform itself when there is no display."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    out = tmp_path / "headless.png"
    command = [sys.executable, "-m", "iceditor.cli", "snapshot", str(small_map), "--out", str(out), "--size", "640x480"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert QImage(str(out)).size().toTuple() == (640, 480)


def test_the_tools_follow_another_document_opened_in_the_window(
    qtbot, small_map: Path, scenario1: Path, monkeypatch
) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window = open_window(qtbot, small_map)
    los, viewshed, movement = window.tools["los"], window.tools["viewshed"], window.tools["movement"]
    los.show_line(window.document.board.hex("1201"), window.document.board.hex("1206"))
    movement.show_reach(window.document.board.hex("1304"))
    assert viewshed.watching.count() == 0 and not viewshed.heatmap.isEnabled()  # a map has no zones
    window.set_document(open_document(scenario1))
    board = window.document.board
    assert los.sight is None and movement.reach is None
    assert viewshed.watching.count() == len(window.document.session.context.scenario.zones)
    assert viewshed.heatmap.isEnabled()
    firer, target = board.hex("4314"), board.hex("4305")
    assert los.show_line(firer, target) == SightKernel(board).sight(firer, target)
    window.document.set_printed({board.hex("4307"): Terrain()})  # the woods that blocked it, cleared
    assert los.sight is not None and los.sight == SightKernel(board).sight(firer, target)
    assert los.sight.blocking_hex != board.hex("4307")


def test_the_user_guide_lists_every_tool_with_its_key_and_its_screenshots_exist(qtbot, small_map: Path) -> None:
    """docs/editor.md: a row `| KEY | Label |` for each tool the window has; every image it shows."""
    window = open_window(qtbot, small_map)
    guide = (REPO / "docs" / "editor.md").read_text(encoding="utf-8")
    missing = [
        f"| {t.shortcut} | {t.label} |" for t in window.tools.values() if f"| {t.shortcut} | {t.label} |" not in guide
    ]
    assert not missing, f"docs/editor.md, Tools and their keys: add {missing}"
    images = re.findall(r"\]\((images/[^)]+\.png)\)", guide)
    assert len(images) >= 6 and all((REPO / "docs" / image).is_file() for image in images)
