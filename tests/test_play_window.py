"""Playtest in the window (issue 19), offscreen, played by clicking: the duel (tests/fixtures/game/duel.yaml)
in hot seat, its German LMG in a hidden hex (24.21)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QAction, QContextMenuEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QListWidget, QMenu, QMessageBox

from iceditor.editor.document import open_document
from iceditor.editor.hex_layout import centre
from iceditor.editor.play import board_clicks
from iceditor.editor.play.board_items import PLAY_ZOOM
from iceditor.editor.play.play_mode import PlayMode
from iceditor.editor.play.players_dialog import PlayersDialog
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]
SCREEN = QRect(0, 0, 1366, 768)
HIDDEN = "german/C/LMG-PR10-1"  # in the German's hidden hex 1207
HOT_SEAT = {"german": "human", "russian": "human"}


@pytest.fixture(autouse=True)
def answers(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The boxes a test would have to click: a question is agreed to, a warning is kept to be read."""
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: warned.append(text))
    return warned


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(REPO / "tests" / "fixtures" / "game" / name, tmp_path / name)
    w = MainWindow(open_document(tmp_path / "duel.yaml"))
    qtbot.addWidget(w)
    w.fit_screen(SCREEN)
    w.show()
    settle()
    return w


def mode_of(window: MainWindow) -> PlayMode:
    mode = window.play_menu.mode  # type: ignore[attr-defined]
    assert isinstance(mode, PlayMode)
    return mode


def hand_over(mode: PlayMode, side: str) -> None:
    assert mode.handover.isVisible() and mode.handover.side == side
    mode.handover.button.click()
    settle()


def done(mode: PlayMode) -> None:
    mode.phase_bar.done_button.click()
    settle()


def to_russian_movement(window: MainWindow) -> PlayMode:
    """Hot seat, through both set-ups (the German's given, 24.1) to the Russian Movement Phase."""
    mode = mode_of(window)
    assert mode.start(HOT_SEAT, seed=3)
    settle()
    hand_over(mode, "german")
    done(mode)  # the German set-up
    hand_over(mode, "russian")
    done(mode)  # the Russian's: its units enter later (24.1)
    hand_over(mode, "german")
    done(mode)  # the German Morale Phase: he may reveal his hidden hex (24.22), he does not
    hand_over(mode, "russian")
    assert mode.session is not None and mode.session.game.phase == "movement"
    return mode


def scene_texts(window: MainWindow) -> str:
    return "\n".join(item.toolTip() for item in window.scene.items())


def front_docks(window: MainWindow) -> dict[str, QSize]:
    """Each dock shown (not a tab behind another) and its size."""
    return {d.objectName(): d.size() for d in window.findChildren(QDockWidget) if not d.visibleRegion().isEmpty()}


def test_playtest_gives_the_map_the_window_and_back_to_editing_brings_the_docks_back(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    docks = {d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()}
    sizes = front_docks(window)
    zoom = window.view.transform().m11()
    monkeypatch.setattr(PlayersDialog, "exec", lambda self: True)
    play = next(a for a in window.menus["Play"].actions() if a.text() == "&Playtest")
    assert play.shortcut().toString() == "F5"
    play.trigger()
    settle()
    mode = mode_of(window)
    assert mode.active and mode.session is not None and mode.session.humans == ["german", "russian"]
    assert [d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()] == ["play-dock"]
    assert not window.tool_bar.isVisible() and mode.bar.isVisible()
    assert not window.menus["Edit"].isEnabled()
    map_area = window.view.width() * window.view.height()
    assert map_area > 0.6 * window.width() * window.height()
    mode.leave()
    settle()
    assert {d.objectName() for d in window.findChildren(QDockWidget) if d.isVisible()} == docks
    # as they were: each dock's size (seen under Xvfb: the left docks had changed places), the map's zoom
    assert front_docks(window) == sizes
    assert window.view.transform().m11() == zoom != PLAY_ZOOM
    assert window.tool_bar.isVisible() and window.menus["Edit"].isEnabled()
    assert mode.session is not None  # the game is kept
    played = mode.session.played
    mode.enter()
    assert mode.session.played == played
    assert window.view.transform().m11() == PLAY_ZOOM  # back in play at the play zoom


def test_a_hot_seat_game_by_clicking(window: MainWindow, tmp_path: Path) -> None:
    """The hand-over with no hidden unit of the other side on the scene (24.21), a path move with its
    MP cost (8.1), the opportunity fire prompt with the odds (13.0), the shot and its result (11.43),
    a take back (R215), saving and reopening the game (R201)."""
    mode = to_russian_movement(window)
    session = mode.session
    assert session is not None
    # the Russian's screen: the German's hidden LMG is nowhere, not on the map, in a tooltip or the log
    assert mode.board is not None and HIDDEN not in mode.board.counters
    assert "LMG-PR10" not in scene_texts(window)
    assert not any("LMG-PR10" in line for line in mode.log_panel.lines())
    assert "C Movement Phase" in mode.phase_bar.where.text() and "Turn 1 of 2" in mode.phase_bar.where.text()

    # a path move: pick the rifleman off the map, its reach is shaded with the MP cost, click 1203
    mode.actions_panel.unit_chosen.emit("russian/A/R-PR9-1")
    board = session.game.board
    assert mode.board.marks.reach[board.hex("1203")] == 3  # onto the map at 1201, then two Clear hexes (8.5)
    mode.board.hex_clicked.emit(board.hex("1203"))
    settle()
    assert session.game.log[-1]["action"] == "move russian/A/R-PR9-1 1201 1202 1203"

    # the German may answer at 1201: the hand-over covers the map, nothing of either side drawn under it
    assert mode.handover.isVisible() and not mode.board.counters
    hand_over(mode, "german")
    assert mode.actions_panel.prompt.isVisible() and "Opportunity fire (13.0)" in mode.actions_panel.prompt.text()
    assert "1201" in mode.actions_panel.prompt.text()
    aim = next(
        i for i in range(mode.actions_panel.list.count()) if "ATR-1 opens an AP attack" in mode.actions_panel.texts()[i]
    )
    mode.actions_panel.list.setCurrentRow(aim)
    odds = mode.odds.text.text()
    assert "german/ATR-1: PC 83%" in odds and "(11.2)" in odds and "russian/A/R-PR9-1: 1 die" in odds
    before = session.played
    mode.odds.roll_button.click()
    settle()
    assert [e["action"] for e in session.game.log[before + 1 :]] == ["aim german/ATR-1 1201", "shoot"]
    assert any("A/R-PR9-1 AP roll" in line and "(11.43)" in line for line in mode.log_panel.lines())

    # take back the shot: the German decides again (the Russian agrees: R215)
    back_to = before + 1
    mode.log_panel.tree.setCurrentItem(mode.log_panel.tree.topLevelItem(back_to - 0))
    assert mode.take_back(back_to)
    assert session.played == back_to - 1 and session.game.to_act == "german"
    assert session.game.interrupt is not None and not mode.handover.isVisible()

    # save the game and open it in a new window: the same state, at its last event
    written = mode.save_game(tmp_path / "game.jsonl")
    assert written is not None and "Saved the game" in mode.last_message
    other = MainWindow(open_document(tmp_path / "duel.yaml"))
    other.show()
    reopened = mode_of(other)
    assert reopened.open_game(tmp_path / "game.jsonl")
    settle()
    assert reopened.session is not None and reopened.session.game.digest() == session.game.digest()
    assert reopened.session.players == HOT_SEAT
    hand_over(reopened, "german")
    assert reopened.actions_panel.prompt.isVisible()
    other.close()


def test_an_illegal_click_says_why_with_the_rule(window: MainWindow) -> None:
    mode = to_russian_movement(window)
    assert mode.session is not None and mode.board is not None
    mode.actions_panel.unit_chosen.emit("russian/A/R-PR9-1")
    mode.board.hex_clicked.emit(mode.session.game.board.hex("1108"))  # beyond its 6 MP
    settle()
    assert mode.last_message.startswith("Refused: ") and "not one of its entry hexes now (24.1)" in mode.last_message
    assert mode.session.game.log[-1]["action"] == "done"


def test_a_path_dragged_hex_by_hex_and_the_board_at_a_past_moment(window: MainWindow) -> None:
    """R190: a path dragged from the unit's hex (back over the last hex takes it off); a log entry
    clicked shows the board after it, Now the game as it is."""
    mode = to_russian_movement(window)
    session, board = mode.session, mode.board
    assert session is not None and board is not None
    uid, hexes = "russian/A/R-PR9-1", {label: session.game.board.hex(label) for label in ("1201", "1202", "1203")}
    mode.actions_panel.unit_chosen.emit(uid)
    board.hex_clicked.emit(hexes["1201"])  # onto the map, one hex
    settle()
    entered = session.played
    hand_over(mode, "german")
    assert mode.phase_bar.done_button.text() == "Pass"
    done(mode)
    hand_over(mode, "russian")
    board.unit_picked.emit(uid)
    mode._pressed(hexes["1201"], None)
    for label in ("1202", "1203", "1202", "1203"):
        window.scene.hex_moved.emit(hexes[label], None)
    assert board.marks.path == [hexes["1201"], hexes["1202"], hexes["1203"]]
    window.scene.hex_released.emit(hexes["1203"], None)
    settle()
    assert session.game.log[-1]["action"] == f"move {uid} 1202 1203"
    while session.game.to_act == "german":  # 13.0: the German passes at 1202, then at 1203
        if mode.handover.isVisible():
            hand_over(mode, "german")
        done(mode)
    hand_over(mode, "russian")
    assert board.hex_of_unit(uid) == hexes["1203"]
    item = next(
        mode.log_panel.tree.topLevelItem(i)
        for i in range(mode.log_panel.tree.topLevelItemCount())
        if mode.log_panel.tree.topLevelItem(i).data(0, 256) == entered
    )
    mode.log_panel.tree.setCurrentItem(item)
    mode.log_panel._clicked(item)
    assert mode.moment == entered and board.hex_of_unit(uid) == hexes["1201"]
    assert mode.log_panel.showing.isVisible()
    mode.pick_unit(uid)  # a past moment takes no decision
    assert "earlier moment" in mode.last_message
    mode.log_panel.now_button.click()
    assert mode.moment is None and board.hex_of_unit(uid) == hexes["1203"]


@pytest.mark.slow
def test_r217_ai_against_ai_is_watched_to_the_end_screen_the_whole_board_shown(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The AIs think off the GUI thread; the end shows the result, its condition and the losses,
    and the whole board (R217)."""
    mode = mode_of(window)
    mode.delay = 0
    assert mode.start({"german": "random", "russian": "random"}, seed=5)
    assert mode.phase_bar.pause.isVisible()
    qtbot.waitUntil(lambda: mode.session is not None and mode.session.game.is_over, timeout=120_000)
    settle()
    assert mode.end.isVisible()
    text = mode.end.text.text()
    assert "German losses" in text and "Russian losses" in text and "Objective hexes (24.9)" in text
    assert mode.board is not None and mode.board.marks.objectives  # 1206, outlined with its holder
    assert mode.shown is None and mode.board.side is None  # R217: every unit, both sides' secrets


def test_a_scenario_edited_since_offers_a_restart(window: MainWindow) -> None:
    mode = mode_of(window)
    assert mode.start(HOT_SEAT, seed=1)
    mode.leave()
    assert not mode.edited_since()
    h = window.document.board.hex("1504")
    window.paint("trees", {h: window.document.printed(h).changed({"trees": 2})})
    assert mode.edited_since()


def test_iceditor_play_with_a_human_says_a_person_plays_in_the_editor() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "iceditor", "play", "s1", "--players", "human,random"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 2
    assert "iceditor edit" in run.stderr and "Play > Playtest" in run.stderr
    assert "no player 'human'" not in run.stderr


def test_iceditor_edit_a_corrupt_game_log_says_its_line(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text('{"format": "iron-cross-game/1"\n', encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "iceditor", "edit", str(log)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen"},
    )
    assert run.returncode == 2
    assert f"{log}:1: error" in run.stderr


@pytest.mark.slow
def test_another_file_opened_in_the_window_ends_the_game(window: MainWindow, tmp_path: Path) -> None:
    mode = mode_of(window)
    assert mode.start(HOT_SEAT, seed=1)
    window.set_document(open_document(tmp_path / "duel.yaml"))
    settle()
    assert mode.session is None and not mode.active and mode.board is None
    assert window.tool_bar.isVisible() and not mode.dock.isVisible()


def test_fire_at_a_hex_the_unit_may_not_fire_at_is_refused_with_the_rule(window: MainWindow) -> None:
    mode = to_russian_movement(window)
    assert mode.session is not None and mode.board is not None
    mode.actions_panel.unit_chosen.emit("russian/A/R-PR9-1")
    mode.board.hex_clicked.emit(mode.session.game.board.hex("1201"))
    settle()
    hand_over(mode, "german")
    mode.board.unit_picked.emit("german/PL-PR11")  # a commander has no AP fire of his own
    mode.board.hex_clicked.emit(mode.session.game.board.hex("1408"))  # no Russian there
    settle()
    assert mode.last_message.startswith("Refused: aim german/PL-PR11 1408") and "(1" in mode.last_message
    assert mode.session.game.log[-1]["action"] == "move russian/A/R-PR9-1 1201"


def test_the_firers_picked_by_their_boxes_are_the_odds_and_the_roll(window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    """11.13: 'Infantry units may combine their AP factors into one total AP firepower strength':
    the stack's units that may fire are ticked; a box cleared by a click takes its unit out of the
    odds, and Roll plays the aim, joins and shot of exactly the units still ticked."""
    mode = to_russian_movement(window)
    session, board = mode.session, mode.board
    assert session is not None and board is not None
    mode.actions_panel.unit_chosen.emit("russian/A/R-PR9-1")
    board.hex_clicked.emit(session.game.board.hex("1204"))
    settle()
    while session.game.interrupt is not None and session.game.interrupt["hex"] != "1204":  # 13.0: pass
        if mode.handover.isVisible():
            hand_over(mode, "german")
        done(mode)
    if mode.handover.isVisible():
        hand_over(mode, "german")
    board.unit_picked.emit("german/C/R-PR9-1")  # one of the stack in 1107
    mode.show_fire(session.game.board.hex("1204"))
    assert mode.odds.odds is not None and mode.odds.odds["ap"] is not None
    whole = mode.odds.odds["ap"]
    assert len(whole["firers"]) > 1 and all(u.split("/", 1)[-1] in mode.odds.heading.text() for u in whole["firers"])
    assert mode.odds.picked() == [u["unit"] for u in mode.odds.odds["units"] if u["fires"]]
    left_out = whole["firers"][-1]
    box = mode.odds.boxes[left_out]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on its tick
    settle()
    picked = mode.odds.odds["ap"]["firers"]
    assert not box.isChecked() and left_out not in picked and picked == whole["firers"][:-1]
    assert mode.odds.odds["ap"]["firepower"] < whole["firepower"]
    assert left_out.split("/", 1)[-1] not in mode.odds.heading.text()
    before = session.played
    mode.odds.roll_button.click()
    settle()
    played = [e["action"] for e in session.game.log[before + 1 :]]
    assert played[0] == f"aim {picked[0]} 1204" and played[-1] == "shoot"
    assert [a.split()[1] for a in played[:-1]] == picked
    shot = mode.log_panel.lines()[before + 1 :]
    assert any("AP roll" in line for line in shot) and not any(left_out.split("/", 1)[-1] in line for line in shot)


def click_at(qtbot, window: MainWindow, label: str, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:  # type: ignore[no-untyped-def]
    """A click on hex `label` of the map, the view brought to it first."""
    view, mode = window.view, mode_of(window)
    assert mode.session is not None
    h = mode.session.game.board.hex(label)
    view.centre_on(h)
    settle()
    qtbot.mouseClick(view.viewport(), button, pos=view.mapFromScene(centre(h)))
    settle()


def right_click_at(window: MainWindow, label: str) -> None:
    """A right click on hex `label`: its context menu (the decisions at the hex)."""
    view, mode = window.view, mode_of(window)
    assert mode.session is not None
    h = mode.session.game.board.hex(label)
    view.centre_on(h)
    settle()
    at = view.mapFromScene(centre(h))
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    settle()


def click_item(qtbot, items: QListWidget, row: int) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(items.viewport(), Qt.MouseButton.LeftButton, pos=items.visualItemRect(items.item(row)).center())
    settle()


def test_a_game_without_a_setup_is_set_up_and_entered_on_the_map_by_clicking(  # type: ignore[no-untyped-def]
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """24.1: 'the side that sets up first places its units in their deployment zones', then its
    hidden hexes (24.21); then the other side, whose group enters (24.1). Each by clicking: a unit
    off the map, then its hex (on friendly counters too: a stack), the hex it faces (8.7), a hidden
    hex from the hex's context menu."""
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(REPO / "tests" / "fixtures" / "game" / name, tmp_path / name)
    text = (tmp_path / "duel.yaml").read_text()
    (tmp_path / "duel.yaml").write_text(text[: text.index("\nsetup:")])  # no test set-up: the players set up
    window = MainWindow(open_document(tmp_path / "duel.yaml"))
    qtbot.addWidget(window)
    window.fit_screen(SCREEN)
    window.show()
    settle()
    mode = mode_of(window)
    assert mode.start(HOT_SEAT, seed=3)
    settle()
    session, off_map = mode.session, mode.actions_panel.off_map
    assert session is not None and mode.board is not None
    hand_over(mode, "german")
    placed: dict[str, str] = {}
    while any(a.verb in ("place", "face") for a in session.actions()):
        faces = [a for a in session.actions() if a.verb == "face"]
        if faces:  # 8.7: the unit just placed faces the hex clicked
            assert "the hex across the hexside it is to face (8.7)" in mode.last_message
            click_at(qtbot, window, "1206")
            assert session.game.log[-1]["action"] == f"face {faces[0].units[0]} 1206"
            continue
        assert off_map.isVisible() and off_map.count() == 1
        uid = off_map.item(0).data(Qt.ItemDataRole.UserRole)
        click_item(qtbot, off_map, 0)
        assert mode.selected == [uid] and "click a shaded hex to place it there (24.1)" in mode.last_message
        where = [a.arg for a in session.actions() if a.verb == "place" and a.units[0] == uid]
        target = "1107" if "1107" in where else where[0]  # into one hex while stacking allows (6.0)
        click_at(qtbot, window, target)  # on the counters placed there before
        assert session.game.unit(uid).on_map and session.game.label_of(session.game.unit(uid).hex) == target
        placed[uid] = target
    assert len(placed) == 8 and list(placed.values()).count("1107") > 1
    hide = next(a for a in session.actions() if a.verb == "hide")
    menus: list[list[str]] = []

    class Menu(QMenu):
        def exec(self, *args: object) -> QAction:  # type: ignore[override]  # the item clicked: the hidden hex
            menus.append([item.text() for item in self.actions()])
            return next(item for item in self.actions() if "hidden hex (24.21)" in item.text())

    monkeypatch.setattr(board_clicks, "QMenu", Menu)
    right_click_at(window, hide.arg)
    assert menus and session.game.log[-1]["action"] == hide.text()
    done(mode)
    hand_over(mode, "russian")
    assert not any(uid in mode.board.counters for uid, at in placed.items() if at == hide.arg)  # 24.21
    assert hide.arg not in scene_texts(window)
    done(mode)  # the Russian set-up: its group enters in turn 1 (24.1)
    while session.game.phase != "movement" or session.game.to_act != "russian":
        if mode.handover.isVisible():
            hand_over(mode, mode.handover.side)
        else:
            done(mode)
    if mode.handover.isVisible():
        hand_over(mode, "russian")
    uid = off_map.item(0).data(Qt.ItemDataRole.UserRole)
    click_item(qtbot, off_map, 0)
    assert mode.selected == [uid] and mode.routes and "click a shaded hex to move there" in mode.last_message
    route = mode.routes["1303"]  # 8.1: the cheapest path from the map edge, its MP cost shown
    click_at(qtbot, window, "1303")
    entered = session.game.log[-1]
    assert entered["action"] == route.action([uid]).text() and route.mp == 2
    assert {"event": "entered_map", "unit": uid, "hex": route.hexes[0], "rule": "24.1"} in entered["events"]
    at = session.game.label_of(session.game.unit(uid).hex)  # 1303, or where opportunity fire may answer it
    assert at == "1303" or (session.game.interrupt is not None and session.game.interrupt["hex"] == at)


def test_r319_the_advanced_rules_box_starts_an_advanced_game_and_a_restart_keeps_it(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: "a checkbox when a playtest starts"; the basic game stays the default (R319)."""
    ticked: list[bool] = []

    def tick(self: PlayersDialog) -> bool:
        ticked.append(self.advanced.isChecked())
        self.advanced.setChecked(True)
        return True

    monkeypatch.setattr(PlayersDialog, "exec", tick)
    play = next(a for a in window.menus["Play"].actions() if a.text() == "&Playtest")
    play.trigger()
    settle()
    mode = mode_of(window)
    assert mode.session is not None and mode.session.game.options == {"advanced": True}
    restart = next(a for a in window.menus["Play"].actions() if a.text() == "&Restart with the edits")
    restart.trigger()
    settle()
    assert ticked == [False, True]  # off at first; a restart offers the game's own options
    assert mode.session.game.options == {"advanced": True}
    assert PlayersDialog(window, "basic").options() == {}
