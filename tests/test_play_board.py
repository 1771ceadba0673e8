"""The board in play (issue 19): drawn from one side's view and nothing else, every counter with
its face, UP or DOWN (3.0), P and S markers (3.21), facing (8.7), moved and fired marks (4.0,
10.11); Wrecks (12.4), IPs (18.0), mines (19.11), hidden hexes (24.21), Assault markers (17.0),
mortar targets and impacts (14.0, 14.3); a stack that opens to pick a unit; and `iceditor
snapshot GAME.jsonl`."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from engine.game import new_game
from engine.game.log import log_text
from engine.game.play import legal_actions, play
from engine.game.state import GameState
from engine.game.victory import objectives
from engine.game.views import player_view
from engine.hexgrid import Hex, hex_distance
from engine.model.scenario import load_scenario
from engine.players import make_player
from iceditor.cli import main
from iceditor.editor.counter_drawing import INK, WHITE, side_colour
from iceditor.editor.hex_layout import centre
from iceditor.editor.mapview import MapScene, MapView
from iceditor.editor.play.board_items import PLAY_ZOOM, PlayBoardLayer, StackItem, mortar_fire
from iceditor.editor.play.counter_items import MORALE_MARKERS, CounterItem
from iceditor.editor.play.faces import printed_faces
from iceditor.editor.play.markers import AssaultMarkerItem, ChitItem, HiddenHexItem, MortarItem
from iceditor.editor.setup_items import FAN, FIRST

from .test_map_drawing import Recording, pixels, render

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parent.parent
S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")  # two German hidden hexes in its set-up
S4 = load_scenario(REPO / "scenarios" / "s4-tula.yaml")  # Russian hidden hexes and AT mines


def played(scenario: Any, seed: int, until: Any) -> GameState:
    """A random game played until `until(game)` holds."""
    game = new_game(scenario, seed)
    player = make_player("random", seed)
    while not until(game):
        play(game, player.choose(player_view(game, game.to_act), legal_actions(game)))
    return game


@pytest.fixture(scope="module")
def s4_after_setup() -> GameState:
    """Scenario 4 when both set-ups are done: the Russian mines and hidden hexes are laid."""
    return played(S4, 1, lambda g: g.phase != "setup")


@pytest.fixture(scope="module")
def s1_mid_play() -> GameState:
    return played(S1, 3, lambda g: len(g.log) > 120)


def layer_of(qtbot, game: GameState) -> tuple[MapScene, PlayBoardLayer]:  # type: ignore[no-untyped-def]
    scene = MapScene(game.board)
    return scene, PlayBoardLayer(scene, printed_faces(game.scenario, game.counters))


def drawn(scene: MapScene) -> list[QGraphicsItem]:
    return list(scene.items())


def texts(item: QGraphicsItem) -> list[str]:
    """What an item writes when painted (its print), at the play zoom."""
    image = QImage(300, 300, QImage.Format.Format_RGB32)
    painter = Recording(image)
    painter.scale(PLAY_ZOOM, PLAY_ZOOM)
    item.paint(painter, QStyleOptionGraphicsItem())
    painter.end()
    return painter.texts


def test_the_layer_draws_the_views_units_as_counters_with_their_faces(qtbot, s1_mid_play: GameState) -> None:
    """2.21: each counter its unit; the layer's counters are the view's units on the map, each in its
    hex, printed with its unit, its values and its PR."""
    game = s1_mid_play
    scene, layer = layer_of(qtbot, game)
    view = player_view(game, "russian")
    layer.show(view.data, view.log)
    on_map = {u["id"]: u["hex"] for u in view.data["units"] if u["hex"] is not None}
    counters = {i.uid: i for i in drawn(scene) if isinstance(i, CounterItem)}
    assert {uid: game.board.label(i.hex) for uid, i in counters.items()} == on_map
    lmg = counters["russian/A/LMG-PR9-1"]
    assert texts(lmg)[:3] == ["A LMG", "7-10", "PR9"]  # counters.yaml: Russian LMG AP 7, range 7... PR9
    assert "Russian Squad A LMG PR9" in lmg.toolTip()
    for h, ids in layer.stacks.items():
        assert layer.units_at(h) == ids and all(layer.unit_item(uid).hex == h for uid in ids)  # type: ignore[union-attr]


def test_24_21_19_11_what_the_view_leaves_out_is_not_on_the_scene(qtbot, s4_after_setup: GameState) -> None:
    """24.21: hidden hexes and their units are recorded secretly; 19.11: mines are written down
    secretly. Shown from the German view, no item of the scene is a Russian hidden unit, a Russian
    mine or hidden hex, and no item's tooltip names a hidden unit; shown from the Russian view, they
    are all there (its hidden units marked H, its mines as chits, its hidden hexes outlined)."""
    game = s4_after_setup
    hidden = {u.id for u in game.side_units("russian") if u.hidden}
    mines = game.secrets["russian"].mines
    assert hidden and mines
    scene, layer = layer_of(qtbot, game)
    layer.show(player_view(game, "german").data)
    items = drawn(scene)
    assert not hidden & {i.uid for i in items if isinstance(i, CounterItem)}
    assert not [i for i in items if isinstance(i, ChitItem) and i.kind == "mines"]
    assert not [i for i in items if isinstance(i, HiddenHexItem)]
    assert not [i for i in items if any(uid in i.toolTip() for uid in hidden)]
    assert not {i.hex for i in items if isinstance(i, ChitItem)} & set(mines)

    layer.show(player_view(game, "russian").data)
    items = drawn(scene)
    counters = {i.uid: i for i in items if isinstance(i, CounterItem)}
    assert hidden <= set(counters) and all(counters[uid].unit["hidden"] for uid in hidden)
    assert {i.hex for i in items if isinstance(i, ChitItem) and i.kind == "mines"} == set(mines)
    assert {i.hex for i in items if isinstance(i, HiddenHexItem)} == game.secrets["russian"].hidden_hexes
    chit = next(i for i in items if isinstance(i, ChitItem) and i.kind == "mines")
    assert texts(chit) == [f"{mines[chit.hex]['ap']}/{mines[chit.hex]['at']}"]


def one_unit(view_data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of the view data with its first unit on the map changed."""
    data = copy.deepcopy(view_data)
    unit = next(u for u in data["units"] if u["hex"] is not None)
    unit.update(changes)
    return data


def test_3_0_the_up_face_prints_black_the_down_face_white(qtbot, s1_mid_play: GameState) -> None:
    """3.0: 'The front of a combat unit counter (black print) represents its UP state and the back
    (white print) the DOWN state'."""
    scene, layer = layer_of(qtbot, s1_mid_play)
    base = s1_mid_play.view(None)
    for state, body, ink in (("up", side_colour("german"), INK), ("down", side_colour("german", True), WHITE)):
        data = one_unit(base, state=state, side="german", morale="normal", facing=None)
        layer.show(data)
        item = next(i for i in layer.counters.values() if i.unit["state"] == state and i.unit["side"] == "german")
        image = render(scene, item.rect(), 4.0)
        assert pixels(image, body, 4) > image.width() * image.height() * 0.25, state
        assert pixels(image, ink, 30) > 40, state  # its print


def test_3_21_pinned_and_suppressed_units_carry_a_p_or_s_marker(qtbot, s1_mid_play: GameState) -> None:
    """3.21: 'A unit stacked with a 'P' marker is in a PINNED morale status. A unit stacked with an
    'S' marker is in a SUPPRESSED morale status.'"""
    scene, layer = layer_of(qtbot, s1_mid_play)
    for morale, letter in (("pinned", "P"), ("suppressed", "S"), ("normal", None)):
        data = one_unit(s1_mid_play.view(None), morale=morale, state="down")
        layer.show(data)
        uid = next(u["id"] for u in data["units"] if u["hex"] is not None)
        item = layer.unit_item(uid)
        assert item is not None
        written = texts(item)
        assert (letter in written) if letter else not {"P", "S"} & set(written)
        if letter:
            marker = render(scene, item.boundingRect(), 4.0)
            assert pixels(marker, MORALE_MARKERS[morale][1], 20) > 100
        assert morale.upper() in item.toolTip()


def test_4_0_10_11_moved_and_fired_marks_and_8_7_facing(qtbot, s1_mid_play: GameState) -> None:
    """4.0, 10.11: a unit that moved or fired this Player Turn is marked M or F; 8.7: a unit that
    faces a hexside has its wedge on that side."""
    scene, layer = layer_of(qtbot, s1_mid_play)
    data = one_unit(s1_mid_play.view(None), moved=True, fired=True)
    layer.show(data)
    uid = next(u["id"] for u in data["units"] if u["hex"] is not None)
    item = layer.unit_item(uid)
    assert item is not None and {"M", "F"} <= set(texts(item)) and "moved, fired" in item.toolTip()
    faced = next(i for i in layer.counters.values() if i.unit["facing"])
    assert faced.facing == s1_mid_play.board.hex(faced.unit["facing"])
    assert pixels(render(scene, faced.boundingRect(), 4.0), INK, 20) > 60


def test_12_4_18_0_17_0_wrecks_ips_and_assault_markers(qtbot, s1_mid_play: GameState) -> None:
    """12.4: a destroyed AFV leaves a Wreck (drawn as the bottom of its hex's stack); 18.0: IPs;
    17.0: an Assault marker points at the hex its stack assaults. Each is an item of the scene, in
    its hex, from the view's data."""
    scene, layer = layer_of(qtbot, s1_mid_play)
    data = copy.deepcopy(s1_mid_play.view(None))
    data["wrecks"] = ["4310"]
    data["improved_positions"] = {"4307": 2}
    data["assault_markers"] = [{"hex": "4309", "side": "russian", "toward": "4308"}]
    layer.show(data)
    board = s1_mid_play.board
    chits = {(i.kind, board.label(i.hex)): i for i in drawn(scene) if isinstance(i, ChitItem)}
    assert texts(chits[("wreck", "4310")]) == ["WRECK"]
    assert texts(chits[("improved_position", "4307")]) == ["IP2"]
    (marker,) = [i for i in drawn(scene) if isinstance(i, AssaultMarkerItem)]
    assert (marker.hex, marker.toward, marker.side) == (board.hex("4309"), board.hex("4308"), "russian")
    assert pixels(render(scene, chits[("wreck", "4310")].boundingRect(), 4.0), QColor("#4a4a4a"), 8) > 100
    stack = next(h for h, ids in layer.stacks.items() if len(ids) == 1)  # a Wreck under a unit: the stack's bottom
    data["wrecks"] = [board.label(stack)]
    layer.show(data)
    (wreck,) = [i for i in drawn(scene) if isinstance(i, ChitItem) and i.kind == "wreck"]
    unit = layer.unit_item(layer.units_at(stack)[0])
    assert unit is not None and unit.zValue() > wreck.zValue()
    assert unit.at == centre(stack) + FIRST + FAN and wreck.boundingRect().contains(centre(stack) + FIRST)


def test_14_0_14_3_this_player_turns_mortar_targets_and_impacts() -> None:
    """14.0 a: a mortar's target hex is declared; 14.3: each round lands where its scatter says.
    The marks are those of the log's last Player Turn (its phases A-H in order)."""

    def entry(turn: int, phase: str, *events: dict[str, Any]) -> dict[str, Any]:
        return {"turn": turn, "phase": phase, "events": list(events)}

    declared = {"event": "mortar declared", "unit": "german/MOR-1", "target": "2010", "rounds": 2}
    hit = {"event": "mortar round", "unit": "german/MOR-1", "round": 1, "hits": "2011", "result": "1"}
    lost = {"event": "mortar round", "unit": "german/MOR-1", "round": 2, "hits": None, "result": "2"}
    earlier = {**declared, "target": "3030"}
    log = [entry(2, "support_fire", earlier), entry(2, "morale"), entry(2, "support_fire", declared, hit, lost)]
    assert [(k, h, t) for k, h, t, _ in mortar_fire(log, 2)] == [("mortar_target", "2010", ""), ("impact", "2011", "1")]
    assert mortar_fire([*log, entry(3, "morale")], 3) == []


def test_14_0_the_layer_draws_the_mortar_fire_of_the_log_it_is_given(qtbot, s1_mid_play: GameState) -> None:
    scene, layer = layer_of(qtbot, s1_mid_play)
    data = s1_mid_play.view(None)
    turn = data["turn"]
    fire = [
        {"event": "mortar declared", "unit": "german/MOR-1", "target": "4010", "rounds": 1},
        {"event": "mortar round", "unit": "german/MOR-1", "round": 1, "hits": "4011", "result": "S1"},
    ]
    layer.show(data, [{"turn": turn, "phase": "support_fire", "events": fire}])
    board = s1_mid_play.board
    marks = {(i.kind, board.label(i.hex)) for i in drawn(scene) if isinstance(i, MortarItem)}
    assert marks == {("mortar_target", "4010"), ("impact", "4011")}
    layer.clear()
    assert not [i for i in drawn(scene) if isinstance(i, (MortarItem, CounterItem, HiddenHexItem))]


def test_a_stack_opens_to_pick_each_unit_and_a_click_elsewhere_is_a_hex(qtbot, s1_mid_play: GameState) -> None:
    """Clicking a stack opens it (each unit at full size with its state); clicking one of them picks
    it; a lone counter is picked at once; a click on the map away from any counter is a hex."""
    game = s1_mid_play
    scene = MapScene(game.board)
    view = MapView(scene)
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    view.scale(PLAY_ZOOM, PLAY_ZOOM)
    layer = PlayBoardLayer(scene, printed_faces(game.scenario, game.counters))
    layer.show(player_view(game, "german").data)
    stack_hex = next(h for h, ids in layer.stacks.items() if len(ids) > 1)
    lone_hex = next(h for h, ids in layer.stacks.items() if len(ids) == 1)
    picked: list[str] = []
    hexes: list[Hex] = []
    layer.unit_picked.connect(picked.append)
    layer.hex_clicked.connect(hexes.append)

    def click(at: QPointF) -> None:
        view.centerOn(at)
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.mapFromScene(at))

    top = layer.unit_item(layer.units_at(stack_hex)[-1])
    assert top is not None
    with qtbot.waitSignal(layer.stack_opened, check_params_cb=lambda h: h == stack_hex):
        click(top.rect().center())
    assert picked == [] and isinstance(layer.opened, StackItem)
    assert [i.uid for i in layer.opened.counters] == layer.units_at(stack_hex)
    assert all(i.isVisible() for i in layer.opened.counters)
    bottom = layer.opened.counters[0]  # the bottom unit of the stack, hidden under the others on the map
    click(bottom.mapToScene(bottom.rect().center()))
    assert picked == [layer.units_at(stack_hex)[0]] and layer.opened is None
    lone = layer.unit_item(layer.units_at(lone_hex)[0])
    assert lone is not None
    click(lone.rect().center())
    assert picked[-1] == lone.uid and hexes == []
    empty = next(h for h in sorted(game.board.hexes) if all(hex_distance(h, s) > 1 for s in layer.stacks))
    click(centre(empty))
    assert hexes == [empty]
    layer.set_selected([lone.uid])
    assert lone.selected and not top.selected


def test_reach_path_target_and_objectives_are_drawn(qtbot, s1_mid_play: GameState) -> None:
    """The play session's marks: reachable hexes shaded with their MP cost (8.4), the path, the
    target hex, and at the end the objective hexes with who holds them (R210)."""
    game = s1_mid_play
    _, layer = layer_of(qtbot, game)
    board = game.board
    layer.show(game.view(None))
    a, b = board.hex("3520"), board.hex("3521")
    layer.set_reach({a: 1, b: 2.5})
    layer.set_path([a, b])
    layer.set_target(b)
    held = objectives(game)
    assert set(held) == {board.hex("4307"), board.hex("4308")}  # Scenario 1's objectives zone
    layer.set_objectives(held)
    assert {"1", "2.5"} <= set(texts(layer.marks))
    assert any(t.startswith("held") for t in texts(layer.marks))
    assert layer.marks.boundingRect().contains(centre(a)) and layer.marks.boundingRect().contains(centre(b))
    layer.set_reach({})
    layer.set_path([])
    layer.set_target(None)
    layer.set_objectives({})
    assert layer.marks.boundingRect().isEmpty()


def test_R210_an_objective_is_held_by_the_side_in_it_else_by_the_last_to_occupy_it(s1_mid_play: GameState) -> None:
    """R210 (24.9, R82): an objective hex with one side's units in it is that side's; empty, the last
    side to occupy it holds it; seen from a side, the other side's hidden units do not count."""
    game = s1_mid_play
    board = game.board
    h = board.hex("4307")
    held = objectives(game)
    occupants = {u.side for u in game.at(h)}
    assert held[h] == (occupants.pop() if len(occupants) == 1 else game.control.get(h))


# -- iceditor snapshot GAME.jsonl ------------------------------------------------------------------


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory, s1_mid_play: GameState) -> Path:
    path = tmp_path_factory.mktemp("games") / "s1.jsonl"
    path.write_text(log_text(s1_mid_play, ["random", "random"]), encoding="utf-8")
    return path


def test_snapshot_of_a_game_at_n_as_a_side_saw_it(qtbot, game_log: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "russian.png"
    assert main(["snapshot", str(game_log), "--at", "60", "--side", "russian", "--out", str(out), "--zoom", "0.5"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{out}: ") and "after action 60 of " in printed and "as the Russian saw it" in printed
    image = QImage(str(out))
    assert image.width() > 350 and image.height() > 550  # the whole map at a third of the play zoom
    whole = tmp_path / "whole.png"
    assert main(["snapshot", str(game_log), "--out", str(whole), "--frame", "4205:4410", "--zoom", "1"]) == 0
    assert "the whole board" in capsys.readouterr().out
    framed = QImage(str(whole))
    assert framed.width() < image.width()
    assert pixels(framed, side_colour("german"), 6) + pixels(framed, side_colour("german", True), 6) > 150


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--at", "99999"], "--at 99999: "),
        (["--at", "-1"], "--at -1: an action number"),
        (["--side", "french"], "--side 'french': one of german, russian"),
        (["--overlay", "los:4314:4305"], "--overlay draws a scenario or map in the editor, not a game log"),
        (["--frame", "4205"], "expected FROM:TO"),
        (["--frame", "4205:9999"], "9999"),
        (["--size", "800x600"], "--size draws a scenario or map in the editor, not a game log"),
        (["--zoom", "9"], "--zoom 9: 0.2-6"),
        (["--out", "x.jpg"], "the file name must end in .png"),
    ],
)
def test_snapshot_of_a_game_bad_input_exits_2(
    qtbot, game_log: Path, tmp_path: Path, capsys, arguments, message
) -> None:
    assert main(["snapshot", str(game_log), "--out", str(tmp_path / "x.png"), *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_snapshot_of_a_missing_or_corrupt_log_exits_2(qtbot, game_log: Path, tmp_path: Path, capsys) -> None:
    assert main(["snapshot", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "x.png")]) == 2
    assert "none.jsonl: no such file" in capsys.readouterr().err
    corrupt = tmp_path / "corrupt.jsonl"
    lines = game_log.read_text(encoding="utf-8").splitlines()
    corrupt.write_text("\n".join([*lines[:5], lines[5][:20], *lines[6:]]) + "\n", encoding="utf-8")
    assert main(["snapshot", str(corrupt), "--out", str(tmp_path / "x.png")]) == 2
    assert f"{corrupt}:6: error: not a JSON line" in capsys.readouterr().err
    scenario = REPO / "scenarios" / "s1-demyansk-pocket.yaml"
    assert main(["snapshot", str(scenario), "--side", "german", "--out", str(tmp_path / "x.png")]) == 2
    assert "--side is for a saved game (.jsonl)" in capsys.readouterr().err


def test_a_counter_or_marker_unchanged_since_the_last_view_is_kept(qtbot, s1_mid_play: GameState) -> None:
    """A decision changes a few counters: the others are the same items, the changed ones new; the
    set-up's pieces are hidden while the layer is on the scene, and shown again when it leaves."""
    scene, layer = layer_of(qtbot, s1_mid_play)
    assert not scene.layers["units"].isVisible()
    data = s1_mid_play.view(None)
    data["improved_positions"] = {"4307": 1}
    layer.show(data)
    before = dict(layer.counters)
    (ip,) = [m for m in layer.markers if isinstance(m, ChitItem)]
    others = [m for m in layer.markers if m is not ip]  # the German hidden hexes (the whole board's secrets)
    changed = one_unit(data, state="down" if data["units"][0]["state"] == "up" else "up")
    layer.show(changed)
    uid = next(u["id"] for u in changed["units"] if u["hex"] is not None)
    assert layer.counters[uid] is not before[uid] and layer.counters[uid].scene() is scene
    assert before[uid].scene() is None
    assert all(layer.counters[k] is item for k, item in before.items() if k != uid)
    assert layer.markers == [ip, *others]
    changed["improved_positions"] = {}
    layer.show(changed)
    assert layer.markers == others and ip.scene() is None
    layer.detach()
    assert scene.layers["units"].isVisible() and layer.scene() is None


def test_view_legend_explains_the_board_in_play(qtbot) -> None:
    """The map's legend (View > Legend) has the board in play's symbols, each drawn by its item."""
    from iceditor.editor.legend import entries

    keys = [e.key for e in entries()]
    play = ["play-counter", "pinned", "suppressed", "moved-fired", "hidden-unit", "wreck", "revealed-mines"]
    play += ["assault-marker", "mortar-target", "mortar-impact", "play-reach", "objective"]
    assert keys[-len(play) :] == play and not set(play) & {e.key for e in entries(overlays=False)}
    image = QImage(120, 120, QImage.Format.Format_RGB32)
    for entry in entries()[-len(play) :]:
        painter = Recording(image)
        painter.translate(60, 60)
        entry.sample(painter)
        painter.end()
    assert "3.21" in next(e.meaning for e in entries() if e.key == "pinned")


def test_the_layer_holds_no_game_state(qtbot, s4_after_setup: GameState) -> None:
    """House style: the board in play is drawn from the side's view, never from the game state.
    Nothing reachable from the layer and its items is a GameState, a Unit of the game, or an
    enemy hidden unit's id."""
    from engine.game.units import Unit

    from .test_engine_views import walk

    game = s4_after_setup
    hidden = {u.id for u in game.side_units("russian") if u.hidden}
    scene, layer = layer_of(qtbot, game)
    layer.show(player_view(game, "german").data)
    own = {k: v for k, v in layer.__dict__.items() if k != "scene_"}  # the editor's scene, its board
    found = walk([own, *(i.__dict__ for i in scene.items() if layer.isAncestorOf(i))])
    assert any(isinstance(o, dict) and o.get("id") in layer.counters for o in found)  # the units it drew
    assert not [o for o in found if isinstance(o, (GameState, Unit))]
    assert not hidden & {o for o in found if isinstance(o, str) and o not in layer.faces}


def test_22_3_with_the_advanced_rules_a_counter_shows_its_own_sides_ammo_left(qtbot) -> None:  # type: ignore[no-untyped-def]
    """22.3: "Each time a point is expended, one of the boxes on the roster next to the appropriate
    firing unit is marked off." The roster is the owner's: the other side's counters show none (R346)."""
    game = new_game(S1, 3, {"advanced": True})
    while game.phase == "setup":
        play(game, legal_actions(game)[-1])
    scene, layer = layer_of(qtbot, game)
    view = player_view(game, "german")
    layer.show(view.data, view.log)
    counters = {i.uid: i for i in drawn(scene) if isinstance(i, CounterItem)}
    left = view.data["ammo"]
    assert left and all(uid.startswith("german/") for uid in left)
    shown = [uid for uid in left if uid in counters]
    assert shown
    for uid in shown:
        assert f"{left[uid]} ammo points left (22.3)" in counters[uid].toolTip()
    assert not any("ammo" in c.toolTip() for uid, c in counters.items() if uid.startswith("russian/"))
