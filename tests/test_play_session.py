"""The playtest's session (iceditor/editor/play/session.py, no Qt): players, automatic decisions,
take back (R215), the board at an earlier moment, saving and opening a game."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from engine.file_writing import WriteRefused
from engine.game import legal_actions, parse
from engine.game.log import read_log, replay
from engine.model.scenario import load_scenario
from iceditor.editor.play.collector import REFROZEN_EVERY, Collector
from iceditor.editor.play.session import HUMAN, PlaySession, SaveRefused, player_names, session_of_log, whole_view

REPO = Path(__file__).resolve().parents[1]
DUEL = REPO / "tests" / "fixtures" / "game" / "duel.yaml"


def duel(players: dict[str, str] | None = None) -> PlaySession:
    return PlaySession.start(load_scenario(DUEL), players or {"german": HUMAN, "russian": HUMAN}, seed=3)


def first_actions(session: PlaySession, count: int) -> None:
    for _ in range(count):
        session.play(session.actions()[0])


def russians_walk_in(session: PlaySession) -> None:
    """One decision of a game where the Russians move whenever they may and the Germans hold fire."""
    actions = session.actions()
    moves = [a for a in actions if a.verb == "move"] if session.game.to_act == "russian" else []
    session.play(next(iter(moves), None) or next((a for a in actions if a.verb in ("done", "pass")), actions[0]))


def test_the_players_are_a_person_and_every_registered_ai() -> None:
    assert player_names()[0] == HUMAN
    assert "random" in player_names()
    with pytest.raises(ValueError, match="human, heuristic, random, search"):
        duel({"german": "nobody", "russian": HUMAN})


def test_r215_take_back_returns_to_the_decision_and_the_same_dice_come_again() -> None:
    """R215: a take back is the game's actions played again up to the decision taken back."""
    session = duel()
    first_actions(session, 40)
    log = [dict(e) for e in session.game.log]
    session.take_back(25)
    assert session.played == 24
    assert session.game.log == log[:25]
    assert session.game.to_act == log[25]["side"]
    again = parse(log[25]["action"])
    assert again in session.actions()
    for entry in log[25:]:
        session.play(parse(entry["action"]))
    assert session.game.log == log  # the same decisions roll the same dice (R215)


def test_the_board_at_an_earlier_moment_is_a_copy_and_the_game_goes_on() -> None:
    session = duel()
    first_actions(session, 60)
    digest = session.game.digest()
    earlier = session.state_at(10)
    assert len(earlier.log) == 11
    assert earlier.log == session.game.log[:11]
    assert session.game.digest() == digest


def test_6_0_only_done_passes_by_itself_for_a_person_never_for_an_ai() -> None:
    """6.0: a phase where the side to act may only end it passes without asking."""
    session = duel()
    while session.automatic() is None:
        session.play(session.actions()[0])
    assert [a.text() for a in session.actions()] in (["done"], ["pass"])
    ai = duel({"german": "random", "russian": "random"})
    assert ai.automatic() is None


def test_r216_a_pass_is_asked_when_the_answering_side_has_hidden_units() -> None:
    """R216: at a hex entered (13.0) a side with hidden units is asked even when it may only pass."""
    session = duel()
    for _ in range(2000):
        game = session.game
        if game.interrupt is not None and [a.text() for a in session.actions()] == ["pass"]:
            hidden = any(u.hidden and u.side == game.to_act for u in game.units.values())
            assert (session.automatic() is None) == hidden
            if hidden:
                return
        if game.is_over:
            break
        russians_walk_in(session)
    pytest.fail("no answer with only a pass while the German hid units")


def test_a_saved_game_opens_at_its_last_event_with_its_players(tmp_path: Path) -> None:
    session = duel({"german": HUMAN, "russian": "random"})
    first_actions(session, 30)
    written = session.save(tmp_path / "game.jsonl")
    log = read_log(written.read_text(encoding="utf-8"))
    opened = session_of_log(replay(log, load_scenario(DUEL)), log.header)
    assert opened.players == {"german": HUMAN, "russian": "random"}
    assert opened.game.digest() == session.game.digest()
    assert legal_actions(opened.game) == session.actions()
    opened.take_back(5)  # an opened game has no kept copies: it is played again from its start
    assert opened.game.log == session.game.log[:5]


def test_r218_a_game_of_unsaved_edits_is_not_saved_against_other_files(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text("a: 1\n", encoding="utf-8")
    session = duel()
    session.texts = {scenario: "a: 2\n"}  # R218: the game started from edits the file does not hold
    with pytest.raises(SaveRefused, match="File > Save"):
        session.save(tmp_path / "game.jsonl")
    assert not (tmp_path / "game.jsonl").exists()


def test_save_game_refuses_to_write_over_the_games_own_scenario(tmp_path: Path) -> None:
    """Issue 24: Save game over the scenario (here through a link) would destroy it: refused."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "game.jsonl").symlink_to(scenario)
    session = duel()
    session.texts = {scenario: "a: 1\n"}
    with pytest.raises(WriteRefused, match="not written: it is a file of the game's scenario"):
        session.save(tmp_path / "game.jsonl")
    assert scenario.read_text(encoding="utf-8") == "a: 1\n"


def test_r217_the_whole_board_holds_both_sides_secrets_and_hidden_units() -> None:
    """R217: the game over (and between two AIs) the board is every unit and both sides' secrets."""
    session = duel()
    while session.game.phase == "setup":
        session.play(session.actions()[-1])
    data, log = whole_view(session.game)
    ids = {u["id"] for u in data["units"]}
    assert "german/C/LMG-PR10-1" in ids  # hidden in 1207 (24.21)
    assert "german/C/LMG-PR10-1" not in {u["id"] for u in session.view("russian").data["units"]}
    assert set(data["secrets"]) == {"german", "russian"}
    assert data["secrets"]["german"]["hidden_hexes"] == ["1207"]
    assert log == session.game.log


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_every_registered_ai_decides_in_a_session_once_told_its_scenario(name: str) -> None:
    """The heuristic and search players choose only once told the scenario and their side
    (begin_game): the session tells each AI side once, before its first decision."""
    session = duel({"german": name, "russian": name})
    for _ in range(6):
        side = session.game.to_act
        session.ai_begin(side)
        session.play(session.ai_player(side).choose(session.view(side), session.actions()))
    assert session.played == 6


def test_the_collector_freezes_a_game_and_refreezes_it_every_so_many_actions() -> None:
    """play/collector.py: no full collection walks the editor's objects in a click."""
    collector = Collector()
    try:
        collector.begin(0)
        frozen = gc.get_freeze_count()
        assert frozen > 0
        collector.settle(REFROZEN_EVERY - 1)
        assert collector.frozen_at == 0
        kept = [[n] for n in range(1000)]  # what the game made since: collected, then frozen too
        collector.settle(REFROZEN_EVERY)
        assert collector.frozen_at == REFROZEN_EVERY and gc.get_freeze_count() >= frozen + len(kept)
    finally:
        collector.release()
    assert gc.get_freeze_count() == 0 and collector.frozen_at is None
