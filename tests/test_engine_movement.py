"""The rules engine's unit states (3.0), PCs (4.0), leaders (5.0) and movement (8.0), rule by rule:
each test is named after its rule and quotes it. The duel (tests/fixtures/game/duel.yaml) and the
guns (tests/fixtures/game/guns.yaml: German squad E with its two FTs, a 37AT, an MMG and two
IIIe; Russian squad B, a BT7m and a T34b entering on the north edge; the Germans move first)."""

from __future__ import annotations

import random

import pytest

from engine.game import Action, IllegalAction, legal_actions, new_game, parse, play
from engine.game.performance import Check, modifier
from engine.game.results import eliminate
from engine.game.stacks import over_stacked
from engine.game.state import MOVEMENT, REACTION, GameState
from engine.game.steps import budget, left
from engine.game.units import Unit
from engine.geometry.movement import ONE_HEX, Morale, State
from engine.hexgrid import DIRECTIONS
from engine.model.scenario import load_scenario
from tests.test_engine_rules import REPO, do, german_movement, start, texts, to_phase, with_dice

GUNS = load_scenario(REPO / "tests" / "fixtures" / "game" / "guns.yaml")


def guns(seed: int = 1, **options: object) -> GameState:
    """The guns at the German Movement Phase of turn 1."""
    game = new_game(GUNS, seed, dict(options))
    play(game, Action("done"))  # German set-up (given)
    play(game, Action("done"))  # Russian set-up: all enter
    return german_movement(game)


def reaction(game: GameState) -> GameState:
    """On to the German Reaction Movement Phase (the Russian Player Turn)."""
    while not (game.phasing == "russian" and game.phase == REACTION):
        play(game, Action("done"))
    game.caches = {}
    return game


def moves_of(game: GameState, unit: Unit) -> set[str]:
    return {a.arg for a in legal_actions(game) if a.verb == "move" and a.units == (unit.id,)}


def put(game: GameState, unit: Unit, label: str) -> Unit:
    game.relocate(unit, "on_map", game.board.hex(label))
    game.caches = {}
    return unit


def demoralize(unit: Unit, morale: str) -> Unit:
    unit.morale, unit.state = Morale(morale), State.DOWN  # 3.25
    return unit


# -- 3.0 unit states ---------------------------------------------------------------------------------


def test_3_11_3_12_a_unit_starts_the_game_or_enters_the_map_up_or_down() -> None:
    """3.12: 'A unit may start the game or enter the map in either state as desired by the owning
    player.' 3.11: 'a unit in the DOWN state is subject to movement and fire limitations'."""
    game = new_game(load_scenario(REPO / "tests" / "fixtures" / "game" / "duel.yaml"), 1)
    assert "state german/C/R-PR9-1 down" in texts(game)  # placed on the map: either state
    play(game, Action("done"))
    assert "state russian/PL-PR10 down" in texts(game)  # entering later: either state too
    do(game, "state russian/PL-PR10 down")
    play(game, Action("done"))
    to_phase(game, MOVEMENT)
    do(game, "move russian/PL-PR10 1201")  # clear: 2 MP DOWN (the chart's Clear row), 1 UP
    commander = game.unit("russian/PL-PR10")
    assert commander.state == State.DOWN and commander.mp_spent == 2
    do(game, "move russian/A/R-PR9-1 1101")
    assert game.unit("russian/A/R-PR9-1").mp_spent == 1


def test_3_22_pinned_units_move_less_and_suppressed_units_never() -> None:
    """3.22: 'PINNED units have a lower movement rate (see Movement Allowances 8.1) and SUPPRESSED
    units may not move at all.' 8.11: 'PINNED infantry units may spend up to THREE MP's in the
    Movement Phase. They may move ONE HEX, regardless of terrain costs, in the Reaction Movement
    Phase.' 8.15: 'Suppressed units of any type may not move.'"""
    game = guns()
    pinned = demoralize(game.unit("german/E/R-PR10-1"), "pinned")
    suppressed = demoralize(game.unit("german/E/R-PR8-1"), "suppressed")
    assert budget(game, pinned) == 3 and budget(game, suppressed) == 0
    assert moves_of(game, pinned) and not moves_of(game, suppressed)
    assert not any(suppressed.id in a.units for a in legal_actions(game))  # no turn, no state change either
    game = reaction(guns())
    pinned = demoralize(game.unit("german/E/R-PR10-1"), "pinned")
    assert budget(game, pinned) == ONE_HEX
    do(game, f"move {pinned.id} 1006")  # marsh-free, clear; one hex regardless of its cost
    assert moves_of(game, pinned) == set()


def test_3_25_3_26_pinned_and_suppressed_units_are_down_and_stay_down() -> None:
    """3.25: 'When a unit becomes PINNED or SUPPRESSED it must immediately go into the DOWN combat
    state'; 3.26: 'PINNED and SUPPRESSED units must remain in the DOWN state until the units return
    to a NORMAL morale status'. 7.0 b: a failed recovery replaces the 'S' with a 'P'."""
    game = guns()
    pinned = demoralize(game.unit("german/E/R-PR10-1"), "pinned")
    assert f"state {pinned.id} up" not in texts(game)  # 3.26, 3.27: no change in a movement phase
    to_phase(game, "free_state_change")
    assert f"state {pinned.id} up" not in texts(game)  # nor free in phase H
    suppressed = demoralize(game.unit("german/E/R-PR8-1"), "suppressed")
    with_dice(game, 6, 6)  # 12 + 2 against PR 8: stays demoralized, PINNED
    while game.phase != "morale":
        play(game, Action("done"))
    assert suppressed.morale == Morale.PINNED and suppressed.state == State.DOWN
    assert pinned.morale == Morale.NORMAL and pinned.state == State.DOWN  # NORMAL again, still DOWN
    to_phase(game, REACTION)  # the German Reaction Movement Phase of the Russian Player Turn
    assert f"state {pinned.id} up" in texts(game)  # now it may stand up (3.13)


# -- 4.0 performance checks ----------------------------------------------------------------------------


def test_4_0_a_pc_passes_at_or_under_the_pr() -> None:
    """4.0: 'If the result is less than or equal to the PR of the unit in question, the PC has been
    passed.'"""
    assert Check((4, 5), 0, 9).passed and Check((4, 4), 0, 9).passed
    assert not Check((5, 5), 0, 9).passed
    assert not Check((4, 4), 2, 9).passed and Check((3, 4), 2, 9).passed  # 4.12: the modifier is added


def test_4_0_a_unit_that_took_a_pc_has_moved_whatever_the_roll() -> None:
    """4.0: 'Anytime a unit takes a PC, regardless of the result, IT IS CONSIDERED TO HAVE PERFORMED
    THAT ACTION ... If the PC is not passed, the unit cannot perform the action and cannot do
    anything else in that phase.'"""
    for faces, passed in (((1, 1), True), ((6, 6), False)):
        game = guns(first_shot=True)
        unit = game.unit("german/E/R-PR10-1")
        with_dice(game, *faces)
        play(game, parse(f"move {unit.id} 1006"))
        assert unit.moved
        assert (game.label(unit.hex) == "1006") is passed
        if not passed:
            assert not any(unit.id in a.units for a in legal_actions(game))  # nothing else this phase


def test_4_12_modified_pcs_add_the_tables_modifiers() -> None:
    """4.12: 'Morale Recovery (7.0) +2, Leader Directed Movement (8.3) +2, Opportunity Fire (13.17)
    +1, Grenade Attacks (15.3) +2, Assault (17.12) +1'; 4.11: a regular PC adds nothing."""
    assert modifier(None) == 0
    assert modifier("morale_recovery") == 2
    assert modifier("leader_directed_movement") == 2
    assert modifier("opportunity_fire") == 1
    assert modifier("grenade_attack") == 2
    assert modifier("assault") == 1


# -- 5.0 leaders ---------------------------------------------------------------------------------------


def without_commander(seed: int = 1) -> GameState:
    """The duel's German Movement Phase after the first shot, the commander gone from squad C's hex."""
    game = german_movement(start(seed, first_shot=True))
    put(game, game.unit("german/PL-PR11"), "1008")
    return game


def test_5_2_an_acting_leader_is_normal_infantry_of_pr_9_or_more() -> None:
    """5.2: 'Any other infantry unit (not CW, FT, or AFV unit) with a Performance Rating (PR) of 9
    or greater and in NORMAL status may function as a leader'."""
    game = without_commander()
    leads = {a.units[0] for a in legal_actions(game) if a.verb == "lead"}
    assert leads == {"german/C/MP-PR9-1", "german/C/R-PR9-1", "german/PL-PR11"} - {"german/PL-PR11"}
    demoralize(game.unit("german/C/R-PR9-1"), "pinned")
    game.caches = {}
    assert {a.units[0] for a in legal_actions(game) if a.verb == "lead"} == {"german/C/MP-PR9-1"}
    g = guns(first_shot=True)  # squad E's FT PR9 stacked with its squad: an FT never leads
    assert "lead german/E/FT-PR9-1" not in texts(g) and "lead german/E/MP-PR10-1" in texts(g)


def test_5_1_5_2_8_31_an_acting_leader_leads_his_squad_and_one_cw_a_commander_anyone() -> None:
    """5.2: 'An acting leader may only affect the units belonging to his own squad plus any one CW
    unit.' 5.1 / 8.31: 'A commander may lead any infantry and CW units.'"""
    game = without_commander()
    h = game.unit("german/C/R-PR9-1").hex
    atr = put(game, game.unit("german/ATR-1"), game.label_of(h))
    stranger = game.unit("german/C/R-PR8-2")
    stranger.squad = "D"  # one man of another squad in the hex
    with_dice(game, 1, 1)
    do(game, "lead german/C/R-PR9-1")
    assert atr.led_by == "german/C/R-PR9-1" and game.unit("german/C/R-PR8-1").led_by == "german/C/R-PR9-1"
    assert stranger.led_by is None and stranger.moved  # 8.3 A: the leader's PC moved the whole hex
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    game.unit("german/C/R-PR8-2").squad = "D"
    with_dice(game, 1, 1)
    do(game, f"lead {commander.id}")
    assert all(u.led_by == commander.id for u in game.at(commander.hex))


def test_5_3_8_64_different_squads_move_together_only_with_a_commander() -> None:
    """5.3: 'Units from different squads that are stacked together may not move together or combine
    fire unless the stack also contains a commander.' 8.64: 'Units from different squads may stack
    together but may not move together'."""
    game = german_movement(start())
    game.unit("german/C/R-PR8-2").squad = "D"
    stacks = [a for a in legal_actions(game) if a.verb == "move" and len(a.units) > 1]
    assert any("german/C/R-PR8-2" in a.units and "german/C/R-PR9-1" in a.units for a in stacks)  # the commander's
    put(game, game.unit("german/PL-PR11"), "1008")
    stacks = [a for a in legal_actions(game) if a.verb == "move" and len(a.units) > 1]
    assert stacks and not any("german/C/R-PR8-2" in a.units for a in stacks)
    assert any(set(a.units) == {"german/C/MP-PR9-1", "german/C/R-PR9-1", "german/C/R-PR8-1"} for a in stacks)


# -- 8.1 movement allowances ---------------------------------------------------------------------------


def test_8_12_a_cw_moves_by_its_counter_and_never_short_of_crew() -> None:
    """8.12: 'NORMAL status, full strength CW units may spend up to the number of MP's listed on their
    counters in the Movement Phase. They may move ONE HEX, regardless of terrain costs, in the Reaction
    Movement Phase. CW units with a Movement Allowance of zero and units without a full crew may never
    move. PINNED full strength CW units may move ONE HEX, regardless of terrain costs, in the Movement
    Phase. They may not move in the Reaction Movement Phase.'"""
    game = guns()
    gun, mg = game.unit("german/37AT-1"), game.unit("german/MMG-1")
    assert budget(game, gun) == 3 and budget(game, mg) == 4  # their counters' Movement Factors
    gun.men = 3  # a crew man lost: never moves again
    assert budget(game, gun) == 0 and moves_of(game, gun) == set()
    demoralize(mg, "pinned")
    assert budget(game, mg) == ONE_HEX
    do(game, f"move {mg.id} 1207")
    assert moves_of(game, mg) == set()
    game = reaction(guns())
    gun, mg = game.unit("german/37AT-1"), game.unit("german/MMG-1")
    assert budget(game, gun) == ONE_HEX
    assert budget(game, demoralize(mg, "pinned")) == 0


def test_8_13_afvs_have_ten_mps_and_five_in_reaction_the_bt7m_twelve_and_six() -> None:
    """8.13: 'NORMAL status AFV units may spend up to TEN MP's in the Movement Phase and up to FIVE
    MP's in the Reaction Movement Phase. EXCEPTION: The Russian BT7M AFV has TWELVE MP's in the
    Movement Phase and SIX MP's in the Reaction Movement Phase.'"""
    game = guns()
    assert budget(game, game.unit("german/IIIe-1")) == 10
    game = reaction(game)
    assert budget(game, game.unit("german/IIIe-1")) == 5
    for phase, mp in ((MOVEMENT, 12), (REACTION, 6)):
        game.phase = phase
        assert budget(game, game.unit("russian/BT7m-1")) == mp
        assert budget(game, game.unit("russian/T34b-1")) == (10 if phase == MOVEMENT else 5)


def test_8_14_flamethrowers_have_four_mps_and_two_in_reaction() -> None:
    """8.14: 'NORMAL status flamethrower units may spend FOUR MP's in the Movement Phase and TWO MP's
    in the Reaction Movement Phase. PINNED flamethrower units may move ONE HEX, regardless of
    terrain costs, in the Movement Phase. They may not move in the Reaction Movement Phase.'"""
    game = guns()
    ft = game.unit("german/E/FT-PR9-1")
    assert budget(game, ft) == 4
    assert budget(game, demoralize(game.unit("german/E/FT-PR8-1"), "pinned")) == ONE_HEX
    game = reaction(guns())
    assert budget(game, game.unit("german/E/FT-PR9-1")) == 2
    pinned = demoralize(game.unit("german/E/FT-PR8-1"), "pinned")
    assert budget(game, pinned) == 0 and moves_of(game, pinned) == set()


def test_8_16_up_or_down_changes_the_terrain_cost_not_the_allowance() -> None:
    """8.16: 'The UP/DOWN states of units do not affect their Movement Allowances. These states
    determine the terrain costs to move into a hex'."""
    game = guns()
    up, down = game.unit("german/E/R-PR10-1"), game.unit("german/E/R-PR8-1")
    down.state = State.DOWN
    assert budget(game, up) == budget(game, down) == 6
    do(game, f"move {up.id} 1006")
    do(game, f"move {down.id} 1006")
    assert (up.mp_spent, down.mp_spent) == (1, 2)  # the chart's Clear row: UP 1, DOWN 2


# -- 8.2 movement restrictions -------------------------------------------------------------------------


def test_8_21_a_unit_that_fired_in_support_fire_does_not_move() -> None:
    """8.21: 'Any of the Phasing Player's units that fired in the Support Fire Phase may not move in
    the Movement Phase.'"""
    game = guns()
    fired = game.unit("german/E/R-PR10-1")
    fired.extra["support_fired"] = True  # fire combat comes in the next issue
    game.caches = {}
    assert not any(fired.id in a.units for a in legal_actions(game))
    assert moves_of(game, game.unit("german/E/R-PR8-1"))


def test_8_23_no_unit_enters_a_visible_enemy_units_hex() -> None:
    """8.23: 'Only friendly units performing an overrun (9.0) may move into an enemy occupied hex
    during the Movement Phase.'"""
    game = guns()
    unit = game.unit("german/E/R-PR10-1")
    assert "1005" in moves_of(game, unit)
    put(game, game.unit("russian/B/R-PR9-1"), "1005")
    assert "1005" not in moves_of(game, unit)
    with pytest.raises(IllegalAction, match=r"enemy occupied hex \(8\.23, 9\.0\)"):
        play(game, parse(f"move {unit.id} 1005"))


# -- 8.4 AFV/infantry movement -------------------------------------------------------------------------


def afv_stack(game: GameState) -> tuple[Unit, Unit, Unit]:
    afv = game.unit("german/IIIe-1")
    a, b = (put(game, game.unit(i), "1307") for i in ("german/E/R-PR10-1", "german/E/R-PR8-1"))
    return afv, a, b


def test_8_41_an_afv_moves_with_the_infantry_it_begins_stacked_with_each_after_its_pc() -> None:
    """8.41: 'If an AFV begins its movement stacked with infantry units the owning player may attempt
    to move the entire stack together. The regular movement PC is made for each infantry unit to
    accompany the AFV. Those units that pass the PC may move with the AFV.'"""
    game = guns(first_shot=True)
    afv, a, b = afv_stack(game)
    stack = f"{afv.id}+{a.id}+{b.id}"
    assert f"move {stack} 1306" in texts(game)  # no commander needed
    with_dice(game, 2, 2, 3, 3, 6, 6)  # the AFV passes, R PR10 passes (6), R PR8 fails (12)
    do(game, f"move {stack} 1306")
    assert [e["unit"] for e in game.log[-1]["events"] if e.get("event") == "pc"] == [afv.id, a.id, b.id]
    assert b.moved and b.move_done and game.active == (afv.id, a.id)  # the PCs first: who goes
    do(game, f"move {afv.id}+{a.id} 1306")
    assert {game.label(u.hex) for u in (afv, a)} == {"1306"} and game.label(b.hex) == "1307"


def test_8_43_infantry_may_cease_while_the_afv_goes_on_and_stop_when_it_stops() -> None:
    """8.43: 'The infantry units may cease movement in any hex either voluntarily or when they
    exhaust their MP's (the AFV may continue its movement). If an AFV ceases its movement all
    infantry accompanying it must end their movement also.'"""
    game = guns()
    afv, a, b = afv_stack(game)
    do(game, f"move {afv.id}+{a.id}+{b.id} 1306")
    do(game, f"stop {a.id}")
    assert a.move_done and game.active == (afv.id, b.id)
    do(game, f"move {afv.id}+{b.id} 1305")
    assert game.label(a.hex) == "1306" and game.label(b.hex) == "1305"
    do(game, f"stop {afv.id}+{b.id}")
    assert afv.move_done and b.move_done
    assert not any(b.id in x.units for x in legal_actions(game))


def test_8_41_a_failed_afv_pc_keeps_its_stack_still() -> None:
    """8.43: 'If an AFV ceases its movement all infantry accompanying it must end their movement also.'"""
    game = guns(first_shot=True)
    afv, a, b = afv_stack(game)
    with_dice(game, 6, 6, 1, 1, 1, 1)
    play(game, parse(f"move {afv.id}+{a.id}+{b.id} 1306"))
    assert all(game.label(u.hex) == "1307" and u.move_done for u in (afv, a, b))


# -- 8.5 terrain -----------------------------------------------------------------------------------------


def test_8_53_moving_uphill_costs_one_more_mp() -> None:
    """8.53: 'When a unit moves uphill (i.e., from a non-Hill hex to a Level 1 Hill ...) it must
    expend one additional MP in addition to all other costs for entering the hex. This additional
    MP applies only if the unit is moving uphill.'"""
    game = guns()
    unit = put(game, game.unit("german/E/R-PR10-1"), "1503")
    do(game, f"move {unit.id} 1502")  # a bare Level 1 hill: as clear (1), + 1 uphill
    assert unit.mp_spent == 2
    do(game, f"move {unit.id} 1501")  # downhill: clear, no extra
    assert unit.mp_spent == 3


@pytest.mark.parametrize(("faces", "stuck"), [((2, 2), True), ((1, 3), True), ((2, 3), False), ((6, 6), False)])
def test_8_55_an_afv_entering_marsh_is_immobilized_on_two_dice_of_at_most_4(
    faces: tuple[int, int], stuck: bool
) -> None:
    """8.55: 'When an AFV enters a Marsh hex, 2 dice are rolled. If the sum is greater than 4, the
    AFV may continue moving. If it is equal to or less than 4, the AFV must end its movement there.
    It is immobilized for the remainder of the game. It may not change facing'."""
    game = guns()
    afv = put(game, game.unit("german/IIIe-1"), "1106")
    afv.facing = 0  # toward 1105, the marsh
    with_dice(game, *faces)
    do(game, f"move {afv.id} 1105")
    (roll,) = [e for e in game.log[-2]["events"] if e.get("event") == "bog_roll"]
    assert roll["rule"] == "8.55" and roll["dice"] == list(faces) and roll["at_most"] == 4
    assert afv.immobilized is stuck
    assert any(a.verb == "face" and afv.id in a.units for a in legal_actions(game)) is not stuck


# -- 8.6 stacking ---------------------------------------------------------------------------------------


def test_8_61_no_afv_enters_an_afvs_hex_infantry_moves_through_friends() -> None:
    """8.61: 'CW and infantry units may move through other friendly units without penalty. AFV units
    may not enter a hex containing another AFV unit.'"""
    game = guns()
    afv, other = game.unit("german/IIIe-1"), put(game, game.unit("german/IIIe-2"), "1306")
    assert moves_of(game, afv) == set()
    unit = put(game, game.unit("german/E/R-PR10-1"), "1406")
    do(game, f"move {unit.id} 1306")  # into the AFV's hex, off the road: as clear, no penalty
    assert unit.mp_spent == 1 and other.hex == unit.hex
    do(game, f"move {unit.id} 1307")  # and on, into the other AFV's hex
    assert unit.mp_spent == 1.5  # along the road


def test_8_63_a_cw_counts_its_crew_and_one_cw_a_hex() -> None:
    """8.63: 'Each infantry unit counts as one man and each CW represents two to four men. The exact
    number of men in a CW is indicated on its counter ... Only one CW counter may be in a hex'."""
    game = guns()
    gun, mg = game.unit("german/37AT-1"), game.unit("german/MMG-1")
    h = game.unit("german/E/MP-PR10-1").hex  # five men of squad E
    assert h is not None and not over_stacked(game, "german", h, [game.unit("german/E/LMG-PR9-1")])
    assert over_stacked(game, "german", h, [mg])  # 5 + 3 men
    gun.men = 1
    assert not over_stacked(game, "german", h, [gun])  # 5 + 1: the crew left counts
    put(game, gun, "1107")
    assert over_stacked(game, "german", gun.hex, [mg]) if gun.hex else False  # two CWs


# -- 8.7 facing -----------------------------------------------------------------------------------------


def faces_of(game: GameState, unit: Unit) -> set[str]:
    return {a.arg for a in legal_actions(game) if a.verb == "face" and a.units == (unit.id,)}


def test_8_71_a_facing_change_is_movement_with_its_pc() -> None:
    """8.71: 'A facing change is considered movement and a PC is required by the unit before the
    facing change can be made ... Any unit that changes facing is considered to have moved for all
    purposes.'"""
    game = guns(first_shot=True)
    gun = game.unit("german/37AT-1")
    with_dice(game, 1, 2)
    do(game, f"face {gun.id} 1208")
    assert game.log[-1]["events"][0]["event"] == "pc" and gun.moved
    assert gun.hex is not None and gun.facing == DIRECTIONS.index(game.board.hex("1208") - gun.hex)
    assert game.interrupt is None  # 'A facing change does NOT trigger opportunity fire'


def test_8_72_an_atg_with_three_or_four_crew_turns_with_one_or_two_never() -> None:
    """8.72: 'ATG's with a crew strength of 3 or 4 may change facing to any hexside ... ATG's with a
    crew strength of 1 or 2 may never change facing.'"""
    game = guns()
    gun = game.unit("german/37AT-1")
    assert len(faces_of(game, gun)) == 5
    gun.men = 3
    game.caches = {}
    assert len(faces_of(game, gun)) == 5
    gun.men = 2
    game.caches = {}
    assert faces_of(game, gun) == set()


def test_8_73_mgs_turn_whatever_their_crew() -> None:
    """8.73: 'MG's may change facing to any hexside and fire, in any order, within the same Player
    Turn regardless of their crew strength.'"""
    game = guns()
    mg = game.unit("german/MMG-1")
    mg.men = 1
    game.caches = {}
    assert len(faces_of(game, mg)) == 5
    lmg = game.unit("german/E/LMG-PR9-1")
    assert len(faces_of(game, lmg)) == 5


def test_8_73_r150_an_mg_turns_once_in_each_hex_it_stands_in() -> None:
    """8.73: 'MG's may change facing to any hexside'; 8.71: 'A facing change is considered
    movement'. One change reaches any hexside: a second in the same hex would only undo the first,
    and offered for ever it would let a phase never end (R150). After a hex entered, it turns again."""
    game = guns()
    lmg = game.unit("german/E/LMG-PR9-1")
    assert lmg.hex is not None
    first = sorted(faces_of(game, lmg))[0]
    do(game, f"face {lmg.id} {first}")
    assert faces_of(game, lmg) == set() and moves_of(game, lmg)
    do(game, f"move {lmg.id} {sorted(moves_of(game, lmg))[0]}")
    assert len(faces_of(game, lmg)) == 5


def test_3_13_r156_a_unit_moving_one_hex_changes_its_state_once() -> None:
    """3.13: units 'may change their combat states voluntarily during their Movement and Reaction
    Movement Phases at a cost in movement points'; 8.12: a NORMAL CW 'may move ONE HEX, regardless
    of terrain costs, in the Reaction Movement Phase'. With no MPs to count, one change (R156): else
    down, up, down... for ever."""
    game = reaction(guns())
    mg = game.unit("german/MMG-1")
    assert budget(game, mg) == ONE_HEX
    do(game, f"state {mg.id} down")
    assert not any(a.verb == "state" and a.units == (mg.id,) for a in legal_actions(game))
    assert refused(game, f"state {mg.id} up").rule == "3.13, R156"
    assert moves_of(game, mg)  # its one hex is still to move


def test_8_75_an_afv_turning_in_its_hex_takes_the_pc_and_pays_after_the_first_hexside() -> None:
    """8.75: 'AFV's that wish to change facing without leaving the hex must still take the PC and pay
    the MP costs for each hexside after the first one.'"""
    game = guns(first_shot=True)
    afv = game.unit("german/IIIe-1")
    assert afv.hex is not None
    with_dice(game, 2, 2)
    do(game, f"face {afv.id} {game.label_of(afv.hex + DIRECTIONS[2])}")  # two hexsides round
    assert game.log[-1]["events"][0]["event"] == "pc" and afv.moved
    assert afv.mp_spent == 1  # the first hexside free, the second 1 MP
    do(game, f"face {afv.id} {game.label_of(afv.hex + DIRECTIONS[3])}")
    assert afv.mp_spent == 2 and left(game, afv) == 8


def test_8_62_r89_a_unit_passing_through_a_full_hex_keeps_the_mps_to_leave_it() -> None:
    """8.62: 'At the end of any friendly Movement Phase ... no more than six men plus one AFV in a
    hex'; 8.63: 'Only one CW counter may be in a hex'. R89: a unit enters a hex it over-fills only
    with the MPs to leave it again, and may not spend them there (a state change, a turn)."""
    game = guns()
    mg = game.unit("german/MMG-1")
    do(game, f"move {mg.id} 1108")  # the 37AT's hex: two CWs, on the way through only
    assert left(game, mg) == 3
    assert {a.verb for a in legal_actions(game) if a.units == (mg.id,)} == {"move"}
    with pytest.raises(IllegalAction):
        play(game, parse(f"state {mg.id} down"))


def test_8_62_r89_a_unit_over_the_limit_alone_enters_an_empty_hex_only_with_the_mps_to_leave_it() -> None:
    """8.62: 'no more than six men plus one AFV in a hex'; R89: a unit enters a hex it over-fills
    only with the MPs to leave it again. A unit of seven men over-fills even a hex no one stands in
    (the listing asks that once for all such hexes)."""
    game = guns()
    rifle = game.changing(next(u for u in game.at(game.board.hex("1106")) if u.kind == "infantry"))
    assert rifle.hex is not None
    empty = [h for h in game.board.neighbours(rifle.hex) if not game.at(h) and h not in game.wrecks]
    labels = {game.label_of(h) for h in empty}
    assert labels and labels <= moves_of(game, rifle)  # six men or fewer: every empty hex next to it
    rifle.men = 7
    game.caches = {}
    assert over_stacked(game, rifle.side, empty[0], [rifle])
    rifle.mp_spent = float(budget(game, rifle)) - 1  # 1 MP left: enough to enter a clear hex, not to leave it
    game.caches = {}
    assert not labels & moves_of(game, rifle)
    rifle.mp_spent = 0.0
    game.caches = {}
    assert moves_of(game, rifle) & labels


def test_8_42_a_leader_and_those_he_leads_go_with_the_afv() -> None:
    """8.42: 'A player may use leader directed movement (8.3) but the leader and any moving infantry
    must accompany the AFV.' The AFV takes its own PC (8.41); the led infantry none (8.3 B)."""
    game = german_movement(start(first_shot=True))
    commander, afv = game.unit("german/PL-PR11"), game.unit("german/IIIe-1")
    put(game, afv, game.label_of(commander.hex)).facing = 0  # 1107, facing 1106
    with_dice(game, 1, 1)
    do(game, f"lead {commander.id}")
    squad = [u.id for u in game.at(commander.hex) if u.squad == "C"]
    stack = f"move {'+'.join([afv.id, *squad, commander.id])} 1106"
    assert stack in texts(game)
    rolled = len(game.dice.rolled)
    with_dice(game, 2, 2)
    do(game, stack)
    assert len(game.dice.rolled) == rolled + 2  # the AFV's PC only
    assert all(game.label(game.unit(i).hex) == "1106" for i in [afv.id, commander.id, *squad])


def test_r89_a_unit_whose_ways_out_of_a_full_hex_are_all_barred_may_stop() -> None:
    """R89 and 8.23: with every hex around barred by enemy units since it entered, the unit stops
    (and 8.62 then holds the phase until the hex is put right)."""
    game = guns()
    mg = game.unit("german/MMG-1")
    do(game, f"move {mg.id} 1108")
    assert mg.hex is not None
    russians = iter(u for u in game.side_units("russian") if u.kind == "infantry")
    for h in game.board.neighbours(mg.hex):
        game.relocate(next(russians), "on_map", h)
    assert {a.text() for a in legal_actions(game) if mg.id in a.units} == {f"stop {mg.id}"}


def test_8_3_b_units_led_remain_with_the_leader_throughout() -> None:
    """8.3 B: 'he may move and any other units stacked with him may move provided they remain with
    the leader throughout the entire movement.' 8.43's 'may cease movement in any hex' is for
    infantry moving with an AFV on their own PCs."""
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    with_dice(game, 1, 1)
    do(game, f"lead {commander.id}")
    pair = f"{commander.id}+german/C/MP-PR9-1"
    do(game, f"move {pair} 1106")
    assert "stop german/C/MP-PR9-1" not in texts(game) and f"stop {pair}" in texts(game)


def books_stack(*faces: int) -> tuple[GameState, Unit, Unit]:
    """8.3's example: a commander (PR10), three infantrymen and an ATR in one hex, the next rolls
    `faces`; the German Movement Phase after the first shot."""
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    commander.pr = 10
    atr = put(game, game.unit("german/ATR-1"), game.label_of(commander.hex))
    put(game, game.unit("german/C/R-PR8-2"), "1108")  # three infantrymen, not four
    with_dice(game, *faces)
    return game, commander, atr


def test_8_3_c_example_in_the_books_order_units_left_behind_move_off_with_his_pr() -> None:
    """8.3 C: 'If there are units in the stack that wish to move, but not with the leader (either
    because the leader has moved to another hex or has chosen to remain stationary), each unit
    takes a modified PC (+2) using the leader's PR.' The example, in its order: 'On a roll of 7 the
    initial leader PC is passed ... The commander and the infantryman move together. The second
    infantryman takes a modified PC ... (die roll of 6 + 2 = 8 which passes) ... The ATR crew also
    takes a PC (9 + 2 = 11 which fails) and may not move. The infantryman that was not designated
    to move is unaffected.'"""
    game, commander, atr = books_stack(3, 4, 4, 2, 5, 4)
    do(game, f"lead {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "3+4 = 7 against PR 10: passed"
    do(game, f"move {commander.id}+german/C/MP-PR9-1 1106")
    do(game, f"stop {commander.id}+german/C/MP-PR9-1")
    assert {f"detach german/C/R-PR8-1 {commander.id}", f"detach {atr.id} {commander.id}"} <= texts(game)
    do(game, f"detach german/C/R-PR8-1 {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "4+2 + 2 = 8 against PR 10: passed"
    assert "move german/C/R-PR8-1 1108" in texts(game)
    do(game, f"detach {atr.id} {commander.id}")
    assert game.log[-1]["events"][0]["check"] == "5+4 + 2 = 11 against PR 10: failed"
    assert atr.moved and atr.move_done
    rifle = game.unit("german/C/R-PR9-1")  # 'not designated to move': no move of his own, no PC
    assert not rifle.move_done and {a.verb for a in legal_actions(game) if rifle.id in a.units} == {"detach"}


def test_8_3_c_example_a_commander_become_a_casualty_still_lends_his_pr() -> None:
    """8.3 example: 'Had the commander become a casualty during his movement due to opportunity
    fire, his PR would still be used by the other units in the original hex.'"""
    game, commander, atr = books_stack(3, 4, 4, 2)
    do(game, f"lead {commander.id}")
    do(game, f"move {commander.id}+german/C/MP-PR9-1 1106")
    eliminate(game, commander, "11.43")
    do(game, f"detach {atr.id} {commander.id}")
    assert game.log[-1]["events"][-1]["check"] == "4+2 + 2 = 8 against PR 10: passed"
    assert atr.allowance_cap == 4 and f"move {atr.id} 1108" in texts(game)


def test_8_3_b_8_32_the_leader_takes_none_one_some_or_all_of_those_he_leads() -> None:
    """8.32: 'Not all units in the stack are required to move nor are they required to move
    together.' 8.3 B: 'any other units stacked with him may move provided they remain with the
    leader' (R151): of four led units, any two or three as well as none, one or all four."""
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    with_dice(game, 1, 1)
    do(game, f"lead {commander.id}")
    stacks = {a.units for a in legal_actions(game) if a.verb == "move" and commander.id in a.units}
    assert {len(units) for units in stacks} == {1, 2, 3, 4, 5}
    assert len(stacks) == 2**4  # every choice of the four, each a stack with its leader
    do(game, f"move {commander.id}+german/C/R-PR8-1+german/C/R-PR8-2 1106")
    assert "stop german/C/R-PR8-1" not in texts(game)  # 8.3 B: they 'remain with the leader'


def test_8_3_c_several_units_moving_together_to_the_same_hex_take_a_single_modified_pc() -> None:
    """8.3 C: 'Several units moving together to the same hex take a single modified PC. A modified
    PC is taken for EACH and EVERY unit or group, even if some fail and others pass.' Units of one
    squad (8.64, R152)."""
    game, commander, atr = books_stack(1, 1)
    do(game, f"lead {commander.id}")
    pair = "german/C/R-PR9-1+german/C/R-PR8-1"
    assert f"detach {pair} {commander.id}" in texts(game)
    assert not any(a.verb == "detach" and atr.id in a.units and len(a.units) > 1 for a in legal_actions(game))
    with_dice(game, 2, 2)
    do(game, f"detach {pair} {commander.id}")
    assert [e["units"] for e in game.log[-1]["events"] if e["event"] == "pc"] == [pair.split("+")]
    assert len(game.log[-1]["dice"]) == 2  # one PC for the pair
    moves = {a.units for a in legal_actions(game) if a.verb == "move" and "german/C/R-PR8-1" in a.units}
    assert moves == {tuple(pair.split("+"))}  # they move together, capped at 4 MPs
    do(game, f"move {pair} 1106")
    assert f"stop {pair}" in texts(game) and "stop german/C/R-PR8-1" not in texts(game)
    assert all(game.unit(i).allowance_cap == 4 for i in pair.split("+"))


def test_8_34_a_unit_has_only_one_leader_take_the_pc_for_it() -> None:
    """8.34: 'If a stack contains multiple leaders, the owning player must designate ... which
    leaders will take the PC for which units. A unit may have only one leader take the PC for it.'
    A passed PC is for every unit its leader may lead; a later leader's PC only for the others, and
    its failure freezes only those (R153)."""
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    acting = "german/C/MP-PR9-1"  # 5.2: an acting leader of squad C
    assert {f"lead {commander.id}", f"lead {acting}"} <= texts(game)
    with_dice(game, 1, 1)
    do(game, f"lead {commander.id}")
    assert not any(a.verb == "lead" for a in legal_actions(game))  # no second PC for the same units
    game = german_movement(start(first_shot=True))
    commander = game.unit("german/PL-PR11")
    stranger = game.unit("german/C/R-PR8-2")
    stranger.squad = "D"  # one man the acting leader may not lead
    with_dice(game, 1, 1, 6, 6)
    do(game, f"lead {acting}")
    assert f"lead {commander.id}" in texts(game)  # for himself and the stranger only
    do(game, f"lead {commander.id}")
    assert commander.move_done and stranger.move_done
    squad = [u for u in game.at(commander.hex) if u.squad == "C"]
    assert all(u.led_by == acting and not u.move_done for u in squad)
    assert f"move {acting}+german/C/R-PR9-1 1106" in texts(game)


def test_8_43_infantry_riding_with_an_afv_stop_when_it_bogs_down() -> None:
    """8.43: 'If an AFV ceases its movement all infantry accompanying it must end their movement
    also': an AFV immobilized in a Marsh (8.55) ends its riders' move there."""
    game = guns()
    afv = put(game, game.unit("german/IIIe-1"), "1106")
    afv.facing = 0  # toward 1105, the marsh
    game.caches = {}
    riders = [u for u in game.at(afv.hex) if u.squad == "E"]  # squad E stands there: 8.41's stack
    with_dice(game, 2, 2)
    do(game, f"move {'+'.join([afv.id, *(u.id for u in riders)])} 1105")
    assert afv.immobilized and all(u.hex == afv.hex and u.move_done for u in riders) and not game.active
    assert not any(a.verb == "move" and set(a.units) & {u.id for u in riders} for a in legal_actions(game))


# -- refusals: the reason and the rule that refuses -------------------------------------------------------


def refused(game: GameState, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        play(game, parse(text))
    return caught.value


def test_3_22_8_15_a_suppressed_unit_is_refused_by_its_rule() -> None:
    """3.22: 'SUPPRESSED units may not move at all'; 8.15: 'Suppressed units of any type may not move.'"""
    game = guns()
    unit = demoralize(game.unit("german/E/R-PR10-1"), "suppressed")
    assert refused(game, f"move {unit.id} 1005").rule == "3.22, 8.15"
    assert refused(game, f"state {unit.id} up").rule == "3.22, 8.15"


def test_3_22_8_12_a_pinned_cw_does_not_move_in_reaction_movement() -> None:
    """8.12: 'PINNED full strength CW units may move ONE HEX ... in the Movement Phase. They may not
    move in the Reaction Movement Phase.' 3.27: 'Only a NORMAL status unit may change its combat
    state voluntarily.'"""
    game = reaction(guns())
    mg = demoralize(game.unit("german/MMG-1"), "pinned")
    assert mg.hex is not None
    assert refused(game, f"move {mg.id} {game.label_of(game.board.neighbours(mg.hex)[0])}").rule == "3.22, 8.12"
    game = guns()
    pinned = demoralize(game.unit("german/E/R-PR10-1"), "pinned")
    assert refused(game, f"state {pinned.id} up").rule == "3.27, 11.43"


def test_4_0_8_0_a_unit_whose_move_is_over_is_refused() -> None:
    """4.0: a unit that took its PC to move has MOVED; 8.0: starting another unit ends its move."""
    game = guns()
    do(game, "move german/E/R-PR10-1 1005")
    do(game, "move german/E/R-PR8-1 1005")
    refusal = refused(game, "move german/E/R-PR10-1 1004")
    assert refusal.rule == "4.0, 8.0" and "movement is over" in refusal.reason


def test_8_11_8_3_c_a_move_beyond_the_mps_left_names_the_allowance() -> None:
    """8.11: 'NORMAL status infantry units may spend SIX MP's in the Movement Phase'; 8.3 C: a unit
    led off on its own 'has its Movement Allowance reduced to 4 MP's'."""
    game = guns()
    unit = game.unit("german/E/R-PR10-1")
    unit.mp_spent = 5.5
    game.caches = {}
    refusal = refused(game, f"move {unit.id} 1005")
    assert refusal.rule == "8.11" and "0.5 MPs left" in refusal.reason
    unit.allowance_cap = 4.0
    game.caches = {}
    assert refused(game, f"move {unit.id} 1005").rule == "8.3 C"


def test_6_0_8_7_8_22_other_refusals_say_their_rule() -> None:
    """The side that moves (6.0 C, D), the phase (6.0), all round facing (8.7), no PC before the
    first shot (8.22), a hex next to the unit's (8.0), units led by a leader whose PC passed
    (8.3 C), the order of battle (24.1), a stop of a unit not moving (8.0)."""
    game = guns()
    cases = {
        "move russian/B/R-PR9-1 1005": "6.0 C",
        "face german/E/R-PR10-1 1005": "8.7",
        "lead german/E/R-PR10-1": "8.22",
        "move german/E/R-PR10-1 1507": "8.0",
        "detach german/E/R-PR8-1 german/E/R-PR10-1": "8.3 C",
        "move nobody/X 1005": "24.1",
        "stop german/E/R-PR10-1": "8.0",
        "state german/E/R-PR10-1 sideways": "3.1",
        "move german/E/R-PR10-1": "8.0",
    }
    assert {text: refused(game, text).rule for text in cases} == cases
    while game.phase != "moving_fire":
        play(game, Action("done"))
    assert refused(game, "move german/E/R-PR10-1 1005").rule == "6.0 C, D"
    assert refused(game, "overrun german/IIIe-1 1005").rule == "9.11"


def test_6_0_an_action_with_units_or_an_argument_its_verb_never_takes_is_refused() -> None:
    """`done extra`, `pass german/E/R-PR10-1`, `stop UNIT 1005`: parse and play refuse them, with
    the rule of the verb (6.0 done, 13.0 pass, 8.0 stop)."""
    with pytest.raises(IllegalAction, match=r"done takes no argument \(6\.0\)"):
        parse("done extra")
    game = guns()
    logged = len(game.log)
    for action, rule in [
        (Action("done", (), "extra"), "6.0"),
        (Action("pass", ("german/E/R-PR10-1",)), "13.0"),
        (Action("stop", ("german/E/R-PR10-1",), "1005"), "8.0"),
        (Action("shoot", (), "1005"), "10.0"),
    ]:
        with pytest.raises(IllegalAction) as caught:
            play(game, action)
        assert caught.value.rule == rule
    assert game.phase == MOVEMENT and len(game.log) == logged  # nothing was played


def test_8_0_every_refusal_in_a_movement_phase_says_its_own_reason() -> None:
    """Actions made up at random in the movement phases of a random game of Scenario 1 (other units,
    verbs, hexes and leaders than those offered) are refused, nothing played, each with the reason
    and the rule that refuses it, never a bare 'not a legal move'."""
    chance = random.Random(1)
    game = new_game(load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml"), 3)
    units, rules = sorted(game.units), set()
    while not game.is_over:
        actions = legal_actions(game)
        if game.phase in (MOVEMENT, REACTION) and game.interrupt is None and not game.closing:
            unit = game.unit(chance.choice(units))
            h = unit.hex if unit.hex is not None else chance.choice(sorted(game.board.hexes))
            verb = chance.choice(["move", "face", "state", "stop", "lead", "detach"])
            arg = {
                "move": game.label_of(chance.choice(game.neighbours(h))),
                "face": game.label_of(chance.choice(game.neighbours(h))),
                "state": chance.choice(["up", "down"]),
                "detach": chance.choice(units),
            }.get(verb, "")
            action, logged = Action(verb, (unit.id,), arg), len(game.log)
            if action not in actions:
                with pytest.raises(IllegalAction) as caught:
                    play(game, action)
                assert "not a legal move" not in caught.value.reason and len(game.log) == logged
                rules.add(caught.value.rule)
        play(game, chance.choice(actions))
    assert {"6.0 C", "6.0 D", "4.0, 8.0", "8.3 C", "24.1", "8.21"} <= rules
