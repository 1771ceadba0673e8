"""The rules engine, rule by rule (engine/game): each test quotes the rule it checks, on the small
scenario tests/fixtures/game/duel.yaml (German squad C, a commander, an ATR and a IIIe set up
south of row 4; Russian squad A and a commander entering on the north edge on turn 1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, legal_actions, new_game, parse, play
from engine.game.dice import Dice
from engine.game.stacks import over_stacked
from engine.game.state import MORALE, MOVEMENT, PLAYER_TURN, REACTION, GameState
from engine.game.steps import left
from engine.geometry.movement import Morale, State
from engine.hexgrid import DIRECTIONS
from engine.model.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
DUEL = load_scenario(REPO / "tests" / "fixtures" / "game" / "duel.yaml")


def start(seed: int = 1, **options: object) -> GameState:
    """The duel after both set-ups: the Russian Movement Phase of turn 1 (after the Morale and
    Support Fire Phases, where nothing is to decide)."""
    game = new_game(DUEL, seed, dict(options))
    play(game, Action("done"))  # German set-up (given by the scenario's setup:)
    play(game, Action("done"))  # Russian set-up: nothing deploys, all enter
    return game


def to_phase(game: GameState, phase: str) -> GameState:
    while game.phase != phase:
        play(game, Action("done"))
    return game


def do(game: GameState, text: str) -> None:
    action = parse(text)
    assert action in legal_actions(game), f"{text} not in {[a.text() for a in legal_actions(game)][:30]}"
    play(game, action)
    while game.interrupt is not None:  # nothing reacts yet (opportunity fire: the next issue)
        play(game, Action("pass"))


def texts(game: GameState) -> set[str]:
    return {a.text() for a in legal_actions(game)}


def german_movement(game: GameState) -> GameState:
    """On to the German Movement Phase (the duel's second Player Turn, the guns' first)."""
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    game.caches = {}  # a test moves units by hand: what legal_actions kept is stale
    return game


def with_dice(game: GameState, *faces: int) -> None:
    """The next rolls are `faces` (a test's, or the book's, dice)."""
    rolled = list(game.dice.rolled)
    game.dice = Dice.replaying(game.seed, [*rolled, *faces])
    game.dice.rolled = rolled  # the log's record goes on from where it was


# -- 6.0 the sequence of play ------------------------------------------------------------------------


def test_6_0_each_player_turn_runs_phases_a_to_h_with_the_right_side_acting() -> None:
    """6.0: 'Each Player Turn consists of seven phases which must be performed in the following
    sequence' (A Morale ... H Free Up/Down State Change); both players in A, G and H."""
    game = start()
    seen = []
    while game.turn == 1 and not game.is_over:
        if not game.closing:  # a movement phase's end (17.0 markers, 20.1 replacements) is no phase
            seen.append((game.phasing, game.phase, game.to_act))
        play(game, Action("done"))
    phases = [p for _, p, _ in seen]
    assert phases[: len(PLAYER_TURN) + 3] == [
        "morale",
        "morale",
        "support_fire",
        "movement",
        "reaction_movement",
        "defensive_fire",
        "moving_fire",
        "assault",
        "assault",
        "free_state_change",
        "free_state_change",
    ]
    assert ("russian", "reaction_movement", "german") in seen  # D: the non-phasing player moves
    assert ("german", "movement", "german") in seen  # the second Player Turn
    assert seen[0][0] == "russian"  # moves_first


def test_6_0_the_game_ends_after_its_last_turn_with_a_result() -> None:
    game = start()
    while not game.is_over:
        play(game, Action("done"))
    assert game.turn == 2 and game.result is not None
    # no German unit stands in the objective 1206 (the LMG is beside it, in 1207): the result otherwise
    assert game.result == {"winner": "draw", "by": "no condition holds: the result otherwise", "condition": None}


# -- 24.1 set-up and entries, 24.2 hidden hexes -------------------------------------------------------


def test_24_1_units_enter_on_their_entry_zone_and_turn() -> None:
    """24.1: units enter as the scenario says: Russian squad A on the north map edge on turn 1."""
    game = to_phase(start(), MOVEMENT)
    entering = {a.arg for a in legal_actions(game) if a.verb == "move" and a.units == ("russian/PL-PR10",)}
    assert entering and all(label.endswith("01") for label in entering)  # row 01: the north edge (north 1002 -> 1001)
    do(game, "move russian/PL-PR10 1301")
    assert game.unit("russian/PL-PR10").on_map and game.label(game.unit("russian/PL-PR10").hex) == "1301"


def test_10_23_an_mg_entering_the_map_chooses_its_facing_before_the_answer_r161() -> None:
    """10.23: 'ATG's, MG's and German Stugs may only fire through their frontal hexsides at target
    hexes in their frontal area'; 8.7: 'Only ATG's, MG's (both MMG and LMG) and AFV's must face a
    hexside.' An LMG entering the map chooses one of its six facings, with no PC and no MP (R161),
    before anything else: then the other side answers the hex entered (13.0)."""
    game = to_phase(start(), MOVEMENT)
    lmg = game.unit("russian/A/LMG-PR8-1")
    play(game, parse("move russian/A/LMG-PR8-1 1301"))
    assert lmg.on_map and lmg.facing is None and game.to_act == "russian"
    assert lmg.hex is not None
    assert texts(game) == {f"face {lmg.id} {game.label_of(lmg.hex + d)}" for d in DIRECTIONS}
    with pytest.raises(IllegalAction, match=r"is on the map and faces first \(10\.23\)"):
        play(game, Action("pass"))
    spent, dice = lmg.mp_spent, len(game.dice.rolled)
    play(game, parse("face russian/A/LMG-PR8-1 1302"))
    assert lmg.facing == DIRECTIONS.index(game.board.hex("1302") - lmg.hex)
    assert (lmg.mp_spent, len(game.dice.rolled)) == (spent, dice)
    assert game.to_act == "german" and game.interrupt is not None and "pass" in texts(game)  # 13.0
    play(game, Action("pass"))
    assert game.to_act == "russian" and f"move {lmg.id} 1302" in texts(game)


def test_24_21_hidden_units_are_absent_from_the_other_sides_view() -> None:
    """24.21: 'secretly chooses and records the hex numbers of his hidden hexes and the ID's of the units in them'."""
    game = start()
    russian = {u["id"] for u in game.view("russian")["units"]}
    german = {u["id"] for u in game.view("german")["units"]}
    assert "german/C/LMG-PR10-1" in german and "german/C/LMG-PR10-1" not in russian
    assert "german" not in game.view("russian")["secrets"]


def test_24_22_a_unit_moving_out_of_a_hidden_hex_reveals_it() -> None:
    """24.22: 'If any unit (friendly or enemy) moves into or out of the hidden hex, all units in the
    hex are revealed.'"""
    game = to_phase(start(), MOVEMENT)
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    do(game, "move german/C/LMG-PR10-1 1206")
    assert not game.unit("german/C/LMG-PR10-1").hidden
    assert any(e.get("event") == "revealed" for e in game.log[-2]["events"])


# -- 3.0 unit states, 7.0 morale ---------------------------------------------------------------------


def test_3_13_a_state_change_costs_2_mp_and_5_for_an_afv_and_8_0_afvs_move_first() -> None:
    """3.13: 'Infantry and CW units pay 2 MP's per change. AFV's pay 5 MP's per change.' 8.0: 'First:
    All AFV's moving alone ... Third: All other infantry and CW units.'"""
    game = start()
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    do(game, "state german/IIIe-1 down")
    assert game.unit("german/IIIe-1").mp_spent == 5
    do(game, "state german/C/MP-PR9-1 down")
    assert game.unit("german/C/MP-PR9-1").mp_spent == 2 and game.unit("german/C/MP-PR9-1").state == State.DOWN
    assert not any("german/IIIe-1" in a.units for a in legal_actions(game))  # infantry has moved: too late


def test_3_27_only_a_normal_unit_changes_state_and_7_0_morale_recovery() -> None:
    """3.27: 'Only a NORMAL status unit may change its combat state voluntarily.' 7.0 a: PINNED
    markers are removed; b: SUPPRESSED units roll two dice + 2 against their PR."""
    game = start()
    pinned, suppressed = game.unit("german/C/R-PR8-1"), game.unit("german/C/R-PR9-1")
    pinned.morale, pinned.state = Morale.PINNED, State.DOWN
    suppressed.morale, suppressed.state = Morale.SUPPRESSED, State.DOWN
    to_phase(game, "free_state_change")
    while game.to_act != "german":
        play(game, Action("done"))
    assert not any(a.units == (pinned.id,) for a in legal_actions(game))
    game.dice = Dice.replaying(1, [*game.dice.rolled, 3, 4])  # 3 + 4 + 2 = 9 against PR 9: recovers
    while game.phase != MORALE:
        play(game, Action("done"))
    assert pinned.morale == Morale.NORMAL  # 7.0 a
    assert suppressed.morale == Morale.NORMAL  # 7.0 b: 9 <= PR 9
    (roll,) = [e for e in game.log[-1]["events"] if e.get("event") == "morale_roll"]
    assert roll["check"] == "3+4 + 2 = 9 against PR 9: passed"


# -- 8.0 movement ------------------------------------------------------------------------------------


def test_8_11_infantry_spends_six_mp_and_8_52_half_along_the_road() -> None:
    """8.11: 'NORMAL status infantry units may spend SIX MP's in the Movement Phase'; 8.52: 'only
    1/2 MP per hex ... along the road'."""
    game = to_phase(start(), MOVEMENT)
    do(game, "move russian/PL-PR10 1301")  # entering: the hex's own terrain (R44)
    spent = game.unit("russian/PL-PR10").mp_spent
    do(game, "move russian/PL-PR10 1302")
    assert game.unit("russian/PL-PR10").mp_spent == spent + 0.5
    assert left(game, game.unit("russian/PL-PR10")) == 6 - spent - 0.5


def test_8_22_no_pc_to_move_before_the_first_shot_then_a_pc() -> None:
    """8.22: 'At the beginning of a game no units are required to pass a PC for movement until
    either side rolls the dice to resolve combat (the first shot).'"""
    game = to_phase(start(), MOVEMENT)
    do(game, "move russian/PL-PR10 1301")
    assert game.dice.rolled == []
    game = to_phase(start(first_shot=True), MOVEMENT)
    game.dice = Dice.replaying(1, [6, 6])  # 12 against PR 10: fails
    play(game, parse("move russian/PL-PR10 1301"))
    unit = game.unit("russian/PL-PR10")
    assert not unit.on_map and unit.moved and unit.move_done  # 4.0: it has MOVED all the same
    assert not any(a.units == (unit.id,) for a in legal_actions(game))


def test_8_3_example_leader_directed_movement_with_the_books_dice() -> None:
    """8.3 example: 'On a roll of 7 the initial leader PC is passed ... The second infantryman takes
    a modified PC using the leader's PR (die roll of 6 + 2 = 8 which passes) ... The ATR crew also
    takes a PC (9 + 2 = 11 which fails) and may not move.' The commander is PR10."""
    game = start(first_shot=True)
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    commander = game.unit("german/PL-PR11")
    commander.pr = 10  # the example's commander
    atr = game.unit("german/ATR-1")
    game.relocate(atr, "on_map", commander.hex)
    game.dice = Dice.replaying(1, [*game.dice.rolled, 3, 4, 4, 2, 5, 4])
    do(game, f"lead {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "3+4 = 7 against PR 10: passed"
    do(game, f"detach german/C/R-PR8-1 {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "4+2 + 2 = 8 against PR 10: passed"
    assert game.unit("german/C/R-PR8-1").allowance_cap == 4  # 8.3 C: 'reduced to 4 MP's'
    do(game, f"detach german/ATR-1 {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "5+4 + 2 = 11 against PR 10: failed"
    assert atr.moved and atr.move_done  # 'may not move', and has MOVED (4.0)
    # 'The commander and the infantryman move together': the leader with one he leads, no PC
    pair = f"{commander.id}+german/C/MP-PR9-1"
    assert any(a.verb == "move" and a.text().startswith(f"move {pair} ") for a in legal_actions(game))
    rolled = len(game.dice.rolled)
    do(game, next(a.text() for a in legal_actions(game) if a.text().startswith(f"move {pair} ")))
    assert len(game.dice.rolled) == rolled  # 8.3 B: 'They do not take a PC'
    # 'The infantryman that was not designated to move is unaffected' (and may not move alone)
    assert not any(a.units == ("german/C/R-PR9-1",) for a in legal_actions(game) if a.verb == "move")


def test_8_3_a_a_failed_leader_pc_keeps_the_whole_hex_still() -> None:
    """8.3 A: 'If he fails no unit in the hex may move but ALL are considered to have moved.'"""
    game = start(first_shot=True)
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    commander = game.unit("german/PL-PR11")
    game.dice = Dice.replaying(1, [*game.dice.rolled, 6, 6])
    do(game, f"lead {commander.id}")
    assert all(u.moved and u.move_done for u in game.at(commander.hex))


def test_8_44_cws_do_not_move_with_afvs_and_5_3_squads_only_with_a_commander() -> None:
    """8.44: 'CW units may not move with AFV's.' 5.3: 'Units from different squads that are
    stacked together may not move together ... unless the stack also contains a commander.'"""
    game = start()
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    game.relocate(game.unit("german/ATR-1"), "on_map", game.unit("german/IIIe-1").hex)
    stacks = [a for a in legal_actions(game) if a.verb == "move" and len(a.units) > 1]
    assert not any("german/ATR-1" in a.units and "german/IIIe-1" in a.units for a in stacks)
    assert any("german/PL-PR11" in a.units for a in stacks)  # the commander's hex moves as one


def test_8_54_an_afv_entering_woods_rolls_to_be_immobilized() -> None:
    """8.54: 'When an AFV enters a Woods hex, 2 dice are rolled ... If it is equal to or less than
    the number of Trees, the AFV must end its movement there. It is immobilized.'"""
    game = start()
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    afv = game.unit("german/IIIe-1")
    game.relocate(afv, "on_map", game.board.hex("1405"))
    afv.facing = 0  # up: toward 1404, the woods (3 Trees)
    game.dice = Dice.replaying(1, [*game.dice.rolled, 1, 2])
    do(game, "move german/IIIe-1 1404")
    assert afv.immobilized and afv.move_done
    assert not any(afv.id in a.units for a in legal_actions(game))


def test_8_62_a_phase_does_not_end_with_more_than_six_men_in_a_hex() -> None:
    """8.62: 'At the end of any friendly Movement Phase or Reaction Movement Phase a player may have
    no more than six men plus one AFV in a hex.'"""
    game = start()
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    h = game.unit("german/PL-PR11").hex
    for unit in [game.unit("german/ATR-1"), game.unit("german/C/LMG-PR10-1")]:
        game.relocate(unit, "on_map", h)
    assert over_stacked(game, "german", h)
    assert Action("done") not in legal_actions(game)
    with pytest.raises(IllegalAction, match=r"8\.62"):
        play(game, Action("done"))


def test_8_74_an_afv_moves_through_its_frontal_hexside_and_pays_for_more_than_one_turn() -> None:
    """8.74: 'An AFV must maintain its current facing when moving from hex to hex. After it moves
    into EACH new hex it may freely change its facing ONE hexside left or right. It may then turn
    additional hexsides at a cost of 1 MP per hexside.'"""
    game = start()
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    afv = game.unit("german/IIIe-1")  # in 1307 facing 1306 (up)
    moves = {a.arg for a in legal_actions(game) if a.verb == "move" and a.units == (afv.id,)}
    assert moves == {"1306"}
    do(game, f"move {afv.id} 1306")
    spent = afv.mp_spent
    h = afv.hex
    do(game, f"face {afv.id} {game.label_of(h + DIRECTIONS[1])}")  # one hexside right: free
    assert afv.mp_spent == spent
    do(game, f"face {afv.id} {game.label_of(h + DIRECTIONS[3])}")  # two more (down): 2 MP
    assert afv.mp_spent == spent + 2


def test_illegal_actions_say_why_with_the_rule() -> None:
    game = to_phase(start(), MOVEMENT)
    with pytest.raises(IllegalAction) as caught:
        play(game, parse("move russian/PL-PR10 1308"))
    assert caught.value.rule == "24.1" and "not one of its entry hexes" in caught.value.reason
    assert game.unit("russian/PL-PR10").where == "waiting"


def test_24_1_restrictions_keep_units_still_until_their_turn() -> None:
    """Scenario 5: 'they may not move until Russian Player Turn 2' (24.1, R17)."""
    s5 = new_game(load_scenario(REPO / "scenarios" / "s5-through-the-marshes.yaml"), 1)
    while not (s5.turn == 1 and s5.phase == REACTION):
        play(s5, legal_actions(s5)[-1])  # done, or the last choice of a set-up
    assert not any("russian/BT7m-1" in a.units for a in legal_actions(s5))


def test_3_13_phase_h_changes_a_units_state_once() -> None:
    """3.13: 'Both players may change the combat states of any of their units once at the end of
    any Assault Phase at no MP cost' (6.0 H)."""
    game = to_phase(start(), "free_state_change")
    play(game, Action("done"))  # the Russians, phasing, have nobody on the map yet: the Germans next
    assert game.to_act == "german"
    unit = game.unit("german/C/R-PR9-1")
    do(game, f"state {unit.id} down")
    assert unit.state == State.DOWN and unit.mp_spent == 0
    assert not any(a.units == (unit.id,) for a in legal_actions(game))  # not back UP in the same phase
