"""The Playtest pictures of docs/editor.md, made under Xvfb at 1366x768 (the window as it opens).

    Xvfb :13 -screen 0 1366x768x24 &
    DISPLAY=:13 PYTHONPATH=. python3 docs/images/play_pictures.py

Each picture is the whole window (`QWidget.grab`); the games are made here with the session's own
calls (a seed, the players' decisions) so that the pictures can be made again.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from engine.model.scenario import load_scenario
from engine.resources import given_or_bundled
from iceditor.editor.app import application, load
from iceditor.editor.play.session import PlaySession
from iceditor.editor.window import MainWindow

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "docs" / "images"
app = application()


def settle(seconds: float = 0.6) -> None:
    end = time.time() + seconds
    while time.time() < end:
        app.processEvents()


def saved_game(folder: Path, seed: int, turn: int, phase: str, players: dict[str, str]) -> Path:
    """A Scenario 1 game played at random to the German's decision in `phase` of `turn`."""
    session = PlaySession.start(load_scenario(given_or_bundled("s1")), players, seed=seed)
    chooser, game = random.Random(seed), session.game
    while not (game.turn >= turn and game.phase == phase and game.to_act == "german" and not game.interrupt):
        actions = session.actions()
        moves = [a for a in actions if a.verb in ("move", "place", "aim", "shoot")]
        session.play(chooser.choice(moves) if moves and chooser.random() < 0.7 else chooser.choice(actions))
        game = session.game
    return session.save(folder / f"s1-{seed}-{phase}.jsonl")


def window_of(path: Path) -> MainWindow:
    window = MainWindow(load(path))
    window.fit_screen()
    window.show()
    window.fit_screen()
    settle(1.0)
    return window


def main() -> None:
    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Yes  # type: ignore[method-assign]
    folder = Path(tempfile.mkdtemp(prefix="play-pictures-"))
    s1 = given_or_bundled("s1")
    window = window_of(s1)
    mode = window.play_menu.mode  # type: ignore[attr-defined]

    # a move: a unit selected, its reach with the MP costs, the cheapest path under the cursor
    assert mode.open_game(saved_game(folder, 4, 2, "movement", {"german": "human", "russian": "random"}))
    settle()
    mode.pick_unit("german/C/MP-PR9-1")
    mode._hovered(mode.session.game.board.hex("4506"))
    settle()
    window.grab().save(str(OUT / "play-s1-move.png"))

    # the odds of a shot before its roll: a stack's, one of its firers' box cleared (11.13)
    assert mode.open_game(saved_game(folder, 5, 2, "moving_fire", {"german": "human", "russian": "random"}))
    settle()
    game = mode.session.game
    aims = [a for a in mode.session.actions() if a.verb == "aim"]
    aim = max(aims, key=lambda a: len(game.at(game.unit(a.units[0]).hex)))  # from the largest stack
    mode.pick_unit(aim.units[0])
    mode.click_hex(game.board.hex(aim.arg))
    settle()
    if len(mode.odds.boxes) > 1:
        list(mode.odds.boxes.values())[-1].click()
        settle()
    window.grab().save(str(OUT / "play-s1-odds.png"))

    # hot seat on the duel: the hand-over, then the German's opportunity fire prompt with its odds
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(REPO / "tests" / "fixtures" / "game" / name, folder / name)
    duel = window_of(folder / "duel.yaml")
    play = duel.play_menu.mode  # type: ignore[attr-defined]
    assert play.start({"german": "human", "russian": "human"}, seed=3)
    for side in ("german", "russian", "german", "russian"):
        settle(0.2)
        play.handover.button.click()
        settle(0.2)
        if side != "russian" or play.session.game.phase == "setup":
            play.phase_bar.done_button.click()
    settle()
    play.actions_panel.unit_chosen.emit("russian/A/R-PR9-1")
    play.board.hex_clicked.emit(play.session.game.board.hex("1204"))
    settle()
    duel.grab().save(str(OUT / "play-duel-handover.png"))
    play.handover.button.click()
    settle()
    while play.session.game.interrupt["hex"] != "1204":  # passed until the stack in 1107 sees it (13.0)
        play.phase_bar.done_button.click()
        settle(0.2)
        if play.handover.isVisible():
            play.handover.button.click()
            settle(0.2)
    stack = play.session.game.board.hex("1107")  # the stack's odds, the last of its firers left out (11.13)
    aim = next(a for a in play.session.actions() if a.verb == "aim" and play.session.game.unit(a.units[0]).hex == stack)
    play.actions_panel.list.setCurrentItem(play.actions_panel.item_of(aim))
    settle()
    list(play.odds.boxes.values())[-1].click()
    settle()
    duel.grab().save(str(OUT / "play-duel-opportunity-fire.png"))
    duel.close()

    # the advanced rules: the Ammo tab, the German's roster once his MGs have fired (22.3)
    for seed in range(3, 20):  # the first game whose German spends three points
        assert mode.start({"german": "human", "russian": "human"}, seed=seed, options={"advanced": True})
        session, chooser = mode.session, random.Random(seed)
        full = {k: v for k, v in session.game.ammo.items() if k.startswith("german/")}
        while not session.game.is_over:
            if mode.handover.isVisible():
                mode.handover.button.click()
                settle(0.1)
                continue
            if sum(full.values()) - sum(session.game.ammo[k] for k in full) >= 3 and mode.shown == "german":
                break
            actions = session.actions()
            fire = [a for a in actions if a.verb in ("aim", "join", "shoot", "intensive", "lane", "spray")]
            mode.play(chooser.choice(fire or actions))
            settle(0.05)
        if not session.game.is_over:
            break
    mode.tabs.setCurrentWidget(mode.roster)
    settle()
    window.grab().save(str(OUT / "play-s1-ammo-roster.png"))

    # the end: a whole game of two random players, opened at its last event
    end = PlaySession.start(load_scenario(s1), {"german": "random", "russian": "random"}, seed=3)
    while not end.game.is_over:
        end.play(end.ai_player(end.game.to_act).choose(end.view(end.game.to_act), end.actions()))
    assert mode.open_game(end.save(folder / "s1-end.jsonl"))
    settle(1.0)
    window.grab().save(str(OUT / "play-s1-end.png"))
    window.close()
    print("written:", *sorted(p.name for p in OUT.glob("play-*.png")), file=sys.stderr)


if __name__ == "__main__":
    main()
