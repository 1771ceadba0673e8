"""The playtest's ammo roster (issue 23: "the roster of remaining ammo visible in the playtest").

22.3: "Each time a point is expended, one of the boxes on the roster next to the appropriate
firing unit is marked off. When the number of boxes marked off equals the unit's maximum ammo
points (as listed in the scenario instructions) it is out of ammo." The roster is its owner's
(R346): the Ammo tab shows the side on screen only, and nothing under the hand-over screen."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from iceditor.editor.document import open_document
from iceditor.editor.play.ammo_roster import AmmoRoster, boxes
from iceditor.editor.play.play_mode import PlayMode
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui

REPO = Path(__file__).resolve().parents[1]
HOT_SEAT = {"german": "human", "russian": "human"}


def settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:  # type: ignore[no-untyped-def]
    """The rules engine's duel, its German LMG given 3 points and the Russian squad's two LMGs one
    pool of 2 (24.1: the number in parentheses; R343)."""
    text = (REPO / "tests" / "fixtures" / "game" / "duel.yaml").read_text(encoding="utf-8")
    text = text.replace('{squad: C, less: ["R PR7"]}', '{squad: C, ammo: 3, less: ["R PR7"]}')
    text = text.replace("- {squad: A}", "- {squad: A, ammo: {pool: 2}}")
    (tmp_path / "duel.yaml").write_text(text, encoding="utf-8")
    shutil.copy(REPO / "tests" / "fixtures" / "game" / "duel-map.yaml", tmp_path / "duel-map.yaml")
    w = MainWindow(open_document(tmp_path / "duel.yaml"))
    qtbot.addWidget(w)
    w.fit_screen(QRect(0, 0, 1366, 768))
    w.show()
    settle()
    return w


def roster_shown(mode: PlayMode) -> bool:
    return mode.tabs.isTabVisible(mode.tabs.indexOf(mode.roster))


def hand_over_if_asked(mode: PlayMode) -> None:
    if mode.handover.isVisible():
        assert not mode.roster.rows()  # nothing of the last side's roster under the cover
        mode.handover.button.click()
        settle()


def test_22_3_the_roster_marks_off_a_box_a_point_spent_for_the_side_on_screen_only(window: MainWindow) -> None:
    mode = window.play_menu.mode  # type: ignore[attr-defined]
    assert mode.start(HOT_SEAT, seed=0, options={"advanced": True})
    settle()
    hand_over_if_asked(mode)
    assert mode.shown == "german" and roster_shown(mode)
    assert mode.roster.rows() == [("C/LMG-PR10-1", "☐☐☐", "3")]  # the Russian's roster is not his
    session = mode.session
    assert session is not None
    choose = random.Random(3)
    fire = ("aim", "join", "shoot", "spray")
    while session.game.ammo == {"german/C/LMG-PR10-1": 3, "russian/A/LMG-PR8-1 pool": 2}:
        assert session.played < 400 and not session.game.is_over
        actions = session.actions()
        assert mode.play(choose.choice([a for a in actions if a.verb in fire] or actions))
        settle()
        hand_over_if_asked(mode)
    assert session.game.ammo == {"german/C/LMG-PR10-1": 2, "russian/A/LMG-PR8-1 pool": 2}  # a German fire
    seen: dict[str, list[tuple[str, str, str]]] = {}
    while len(seen) < 2:  # each side's screen once more, as the game goes on
        if mode.shown in ("german", "russian"):
            seen.setdefault(mode.shown, mode.roster.rows())
        assert mode.play(choose.choice(session.actions()))
        settle()
        hand_over_if_asked(mode)
    assert seen["german"] == [("C/LMG-PR10-1", "☒☐☐", "2")]
    assert seen["russian"] == [("A/LMG-PR8-1 +\nA/LMG-PR9-1", "☐☐", "2")]  # one pool, one line (R343)
    assert "1 roster line of the side on screen" in mode.roster.heading.text()


def test_22_3_the_basic_game_has_no_roster(window: MainWindow) -> None:
    mode = window.play_menu.mode  # type: ignore[attr-defined]
    assert mode.start(HOT_SEAT, seed=0)
    settle()
    hand_over_if_asked(mode)
    assert not roster_shown(mode)


def test_22_1_a_unit_out_of_ammo_is_marked_so(qtbot) -> None:  # type: ignore[no-untyped-def]
    """22.1: "When this number is expended the unit is out of ammo and may fire no more in the game."."""
    roster = AmmoRoster()
    qtbot.addWidget(roster)
    given = {"german/C/LMG-PR10-1": 3, "german/MMG-1": 12}
    roster.show_roster({"german/C/LMG-PR10-1": 0, "german/MMG-1": 4}, given, {})
    assert roster.rows() == [("C/LMG-PR10-1", "☒☒☒", "0"), ("MMG-1", boxes(4, 12), "4")]
    assert "1 out of ammo" in roster.heading.text()
    assert "fire no more" in roster.tree.topLevelItem(0).toolTip(0)  # type: ignore[union-attr]
