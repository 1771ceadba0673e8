"""8.65 pushing Wrecks (engine/game/wrecks.py, R90), on the duel scenario: the German IIIe in 1307
faces 1306 (up the road); a Wreck is put in 1306 by hand (fire combat makes them in the next issue)."""

from __future__ import annotations

import pytest

from engine.game import Action, IllegalAction, legal_actions, parse, play
from engine.game.state import MOVEMENT, REACTION, GameState
from tests.test_engine_rules import do, german_movement, start, texts, with_dice


def wrecked(game: GameState, label: str = "1306") -> GameState:
    game.wrecks.add(game.board.hex(label))
    game.caches = {}
    return game


AFV = "german/IIIe-1"


def test_8_65_an_afv_that_has_not_moved_may_push_the_wreck_across_its_front() -> None:
    """8.65: 'To push a Wreck, an AFV must spend its entire Movement Phase (not Reaction Movement
    Phase) in a hex adjacent to the Wreck.' 8.61: 'An AFV may push a Wreck out of a hex (8.65).'"""
    game = wrecked(german_movement(start()))
    assert f"push {AFV} 1306" in texts(game)
    assert f"move {AFV} 1306" not in texts(game)  # 8.61: no AFV enters the Wreck's hex
    do(game, f"push {AFV} 1306")
    afv = game.unit(AFV)
    assert afv.moved and afv.move_done  # its whole Movement Phase: it moves no more
    assert not any(AFV in a.units for a in legal_actions(game))
    assert game.dice.rolled == []  # the PC comes at the end of the phase


def test_8_65_passed_the_owner_places_the_wreck_and_the_afv_enters_its_hex() -> None:
    """8.65: 'At the end of the Movement Phase, the AFV takes a PC. If it passes, the Wreck is placed
    in an adjacent hex and the AFV enters the hex previously occupied by the Wreck.'"""
    game = wrecked(german_movement(start()))
    do(game, f"push {AFV} 1306")
    with_dice(game, 3, 4)  # 7 against the IIIe's PR
    play(game, Action("done"))
    assert game.phase == MOVEMENT and game.to_act == "german"
    (pc,) = [e for e in game.log[-1]["events"] if e["event"] == "pc"]
    assert pc["rule"] == "8.65" and pc["check"].startswith("3+4 = 7") and pc["check"].endswith("passed")
    choices = {a.arg for a in legal_actions(game)}
    around = {game.label_of(h) for h in game.board.neighbours(game.board.hex("1306"))}
    assert choices == around - {"1307", "1206"}  # next to it, not the pusher's hex nor the building (R90)
    assert all(a.verb == "wreck" for a in legal_actions(game))  # nothing else moves now
    play(game, parse(f"wreck {AFV} 1305"))
    assert game.wrecks == {game.board.hex("1305")}
    assert game.label(game.unit(AFV).hex) == "1306"
    assert game.interrupt is not None and game.to_act == "russian"  # a hex entered: the other side may react
    play(game, Action("pass"))
    closing(game)
    assert game.phase == REACTION  # the Movement Phase is over
    assert game.view("russian")["wrecks"] == ["1305"]


def closing(game: GameState) -> None:
    """The Movement Phase's end (17.0): no Assault markers."""
    if game.closing:
        play(game, Action("done"))


def test_8_65_failed_nothing_moves() -> None:
    """8.65: 'If it fails, the Wreck does not move.'"""
    game = wrecked(german_movement(start()))
    do(game, f"push {AFV} 1306")
    with_dice(game, 6, 6)
    play(game, Action("done"))
    closing(game)
    assert game.phase == REACTION
    assert game.wrecks == {game.board.hex("1306")} and game.label(game.unit(AFV).hex) == "1307"
    assert any(e.get("check", "").endswith("failed") for line in game.log[-2:] for e in line["events"])


def test_8_65_the_push_pc_is_taken_before_the_first_shot_too() -> None:
    """8.65's PC is the push's own: 8.22's 'no PC until the first shot' is for movement."""
    game = wrecked(german_movement(start()))
    assert not game.first_shot
    do(game, f"push {AFV} 1306")
    play(game, Action("done"))
    assert len(game.dice.rolled) == 2


def test_8_65_not_in_the_reaction_movement_phase_nor_after_moving() -> None:
    """8.65: 'its entire Movement Phase (not Reaction Movement Phase)'."""
    game = wrecked(german_movement(start()))
    do(game, f"face {AFV} 1206")  # a turn is movement (8.71): the AFV has moved
    do(game, f"face {AFV} 1306")
    assert not any(a.verb == "push" for a in legal_actions(game))
    game = wrecked(german_movement(start()))
    game.phasing = "russian"  # the German side reacts in the Russian Player Turn
    while game.phase != REACTION:
        play(game, Action("done"))
    assert not any(a.verb == "push" for a in legal_actions(game))


def test_8_65_only_the_wreck_across_the_frontal_hexside_r90() -> None:
    """R90: the AFV enters the Wreck's hex as it moves, through its frontal hexside (8.74)."""
    game = wrecked(german_movement(start()), "1207")  # beside the IIIe, not in front of it
    assert not any(a.verb == "push" for a in legal_actions(game))
    with pytest.raises(IllegalAction, match=r"8\.65"):
        play(game, parse(f"push {AFV} 1207"))


def test_8_65_a_hidden_unit_in_the_wrecks_hex_is_revealed_and_stops_the_push() -> None:
    """24.23: 'If an enemy unit is about to enter a hidden hex, the units hidden there are immediately
    placed on the map'; R88: the move is not made."""
    game = german_movement(start())
    russian = game.unit("russian/PL-PR10")
    game.relocate(russian, "on_map", game.board.hex("1306"))
    russian.hidden = True
    game.secrets["russian"].hidden_hexes.add(game.board.hex("1306"))
    wrecked(game)
    do(game, f"push {AFV} 1306")
    with_dice(game, 1, 1)
    play(game, Action("done"))
    closing(game)
    assert not russian.hidden and game.phase == REACTION
    assert game.label(game.unit(AFV).hex) == "1307" and game.wrecks == {game.board.hex("1306")}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_8_65_random_play_with_wrecks_pushes_and_ends(seed: int) -> None:
    """Random legal play from the guns scenario with Wrecks before both IIIe: pushes declared and
    resolved in some games, every game ends, no Wreck shares a hex with an AFV (8.61)."""
    import random

    from tests.test_engine_movement import guns

    game = guns(seed)
    for label in ("1306", "1506"):
        game.wrecks.add(game.board.hex(label))
    chooser = random.Random(seed)
    pushes = 0
    while not game.is_over:
        actions = legal_actions(game)
        push = next((a for a in actions if a.verb == "push"), None)
        action = push if push is not None and chooser.random() < 0.5 else chooser.choice(actions)
        pushes += action.verb == "wreck"
        play(game, action)
        assert len(game.wrecks) >= 2  # pushed, never removed (AFVs destroyed by fire add theirs: 12.32)
        assert not any(u.is_afv and u.hex in game.wrecks for u in game.units.values() if u.on_map)
    assert game.result is not None
    assert pushes > 0  # a push passed and its owner placed the Wreck
