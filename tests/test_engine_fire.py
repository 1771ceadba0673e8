"""Fire combat in play (10.0-13.0), rule by rule, with the book's worked examples and its numbers,
on tests/fixtures/game/fire.yaml (units are moved where a test needs them) and fire-map.yaml."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, legal_actions, new_game, play
from engine.game.combining import may_combine
from engine.game.fire import fire_actions
from engine.game.firing import ap_dice, may_fire
from engine.game.shot import ap_shot, at_shot, attenuated, in_frontal_area, may_aim
from engine.game.sightlines import line_open, sight
from engine.game.state import DEFENSIVE_FIRE, MOVEMENT, MOVING_FIRE, SUPPORT_FIRE, GameState
from engine.game.units import ON_MAP, Unit
from engine.geometry.movement import Morale, State
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex
from engine.model.scenario import load_scenario
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
FIRE = load_scenario(REPO / "tests" / "fixtures" / "game" / "fire.yaml")


def game_at(phasing: str, phase: str, seed: int = 1) -> GameState:
    """The fire scenario after both set-ups, on to `phasing`'s `phase` of turn 1."""
    game = new_game(FIRE, seed)
    while not (game.phasing == phasing and game.phase == phase):
        play(game, Action("done"))
    return game


def put(game: GameState, unit_id: str, label: str, *, state: str = "up", toward: str | None = None) -> Unit:
    """Move a unit by hand (a test's set-up), UP or DOWN, facing the hex `toward` if given."""
    unit = game.unit(unit_id)
    h = game.board.hex(label)
    game.relocate(unit, ON_MAP, h)
    unit.state = State(state)
    if toward is not None:
        unit.facing = facing_to(h, game.board.hex(toward))
    game.caches = {}
    return unit


def facing_to(origin: Hex, target: Hex) -> int:
    """A facing whose frontal area holds target (the test's aiming)."""
    return next(i for i in range(6) if in_frontal_area(origin, i, target))


def away(game: GameState, *keep: str) -> None:
    """Every unit not named is taken off to a far corner (out of the way of a test's lines)."""
    spots = {
        "german": iter(["1830", "1829", "1828", "1827", "1826", "1825", "1730", "1729", "1728", "1727", "1726"]),
        "russian": iter(["1001", "1002", "1101", "1102", "1201", "1202", "1301", "1302", "1401", "1402", "1501"]),
    }
    for unit in game.units.values():
        if unit.id not in keep:
            game.relocate(unit, ON_MAP, game.board.hex(next(spots[unit.side])))
    game.caches = {}


def do(game: GameState, text: str) -> None:
    from engine.game import parse

    action = parse(text)
    assert action in legal_actions(game), f"{text} not in {[a.text() for a in legal_actions(game)][:40]}"
    play(game, action)


def events(game: GameState, kind: str) -> list[dict[str, object]]:
    return [e for line in game.log for e in line.get("events", []) if e.get("event") == kind]


# -- the book's worked examples -------------------------------------------------------------------


def test_10_31_example_three_trees_and_an_afv_block_the_line() -> None:
    """10.31 b Example: 'The LOS passes through one hex containing two Tree symbols, a Clear hex, a
    hex with an AFV and a Tree. The LOS is blocked as per (b) (3 Trees and an AFV).' In play the AFV
    is a unit on the map: 1710 to 1714 passes 1711 (two Trees), 1712 (clear), 1713 (one Tree)."""
    game = game_at("german", SUPPORT_FIRE)
    away(game)
    source, target = game.board.hex("1710"), game.board.hex("1714")
    line = sight(game, source, target, FirerState.UP)
    assert [game.board.label(h) for h in line.hexes] == ["1711", "1712", "1713"]
    assert (line.trees_along, line.blocked) == (3, False) and line_open(game, source, target, FirerState.UP)
    put(game, "german/IIIe-1", "1713", toward="1712")
    line = sight(game, source, target, FirerState.UP)
    assert (line.trees_along, line.blocked, line.rule) == (4, True, "10.31 b")
    assert not line_open(game, source, target, FirerState.UP)


def test_11_16_example_22_reduced_by_7_to_15() -> None:
    """11.16 Example: 'The AP firepower of units in hex A is 12 and of hex B, 10. The units in A fire
    through a hex with 1 Tree symbol into a higher level target hex with 2 Tree symbols. The units
    in B fire through a hex with 3 Tree symbols at the same target hex. The combined AP firepower
    total is 22 (12+10) reduced by 7 (6 Trees + 1 for higher level) resulting in a final AP
    firepower total of 15.' A: the German MMG (12) in 1203; B: squad D's R, MP and MP (4 + 3 + 3)
    in 1303; the target 1405 (Level 1, 2 Trees); 1305 (1 Tree) and 1404 (3 Trees) on the lines."""
    game = game_at("german", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1")
    target = "1405"
    put(game, "russian/A/R-PR9-1", target)
    mmg = put(game, "german/MMG-1", "1203", toward=target)
    b = [put(game, i, "1303") for i in ("german/D/R-PR9-1", "german/D/MP-PR9-1", "german/D/MP-PR8-1")]
    assert all(may_aim(game, u, game.board.hex(target)) for u in [mmg, *b])
    assert may_combine(game, [mmg, *b])  # 11.14: an MMG adjacent to infantry; 11.13 a: one squad stacked
    shot = ap_shot(game, [mmg, *b], game.board.hex(target))
    assert sum(p.value for p in shot.parts if p.rule == "11.2") == 22
    assert {p.rule: p.value for p in shot.parts if p.rule.startswith("11.16")} == {"11.16 a": -2, "11.16 c": -1} | {
        "11.16 b": -3
    }
    assert [p.value for p in shot.parts if p.rule == "11.16 b"] == [-1, -3]
    assert shot.firepower == 15
    # and the same through the actions: aim, join, join, join, shoot
    do(game, f"aim german/MMG-1 {target}")
    for unit in b:
        do(game, f"join {unit.id}")
    with_dice(game, 1, 1, 1, 1, 1, 1, 1, 1, 6, 6)  # four PCs of 2, then 2 dice (Trees hex) of 12: no effect
    do(game, "shoot")
    attack = events(game, "attack")[-1]
    assert attack["firepower"] == 15 and attack["levels"] == {"P": 15, "S": 8, "E": 4}


@pytest.mark.parametrize(("distance", "strength"), [(1, 4), (7, 4), (8, 3), (14, 3), (15, 2), (21, 2), (22, 1)])
def test_11_2_example_4_3_2_by_range(distance: int, strength: int) -> None:
    """11.2 Example: 'A Russian infantry unit has an AP factor of 4 and an initial range of 7. Its AP
    firepower strength against any target within 7 hexes would be 4 ... within 8 to 14 hexes would be
    3; within 15 to 21 hexes, 2 and so forth.'"""
    assert attenuated(4, 7, distance) == strength


def test_11_2_range_attenuation_in_play_counts_the_target_hex_not_the_firer() -> None:
    """11.2: 'When counting, include the target hex but exclude the firing unit's hex': a Russian
    rifle (AP 4, range 7) in 1202 firing down column 12 at 1216 (14 hexes) has 3; at 1217, 2."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    rifle = put(game, "russian/A/R-PR9-1", "1202")
    for label, strength in (("1209", 4), ("1216", 3), ("1217", 2)):
        put(game, "german/D/R-PR9-1", label)
        shot = ap_shot(game, [rifle], game.board.hex(label))
        assert shot.parts[0].value == strength, label


def test_11_32_example_four_dice_against_a_down_unit_in_marsh() -> None:
    """11.32 Example: 'An attack against a DOWN unit in a Marsh hex by 2 units (1 of which has moved
    this Player Turn) would require 4 dice to be rolled.'"""
    game = game_at("german", MOVING_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1", "german/D/R-PR8-1")
    target = put(game, "russian/A/R-PR9-1", "1620", state="down")
    firers = [put(game, "german/D/R-PR9-1", "1622"), put(game, "german/D/R-PR8-1", "1622")]
    firers[0].moved = True
    shot = ap_shot(game, firers, game.board.hex("1620"))
    assert shot.dice[0].count == 4
    assert ap_dice(game, target, moved=False)[0] == 3  # 2 for Marsh + 1 DOWN


def test_11_42_11_43_example_8_4_2_and_a_roll_of_5_pins() -> None:
    """11.43 Example: 'A unit fires with an AP firepower total of 8. Its possible result levels are:
    Pinned: 8; Suppressed: 4; Eliminated: 2. Its fire dice result is a 5 and its target is Pinned.'
    Two Russian LMGs (7 each) would be 14; two rifles of squad A (4 + 4) make the book's 8."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "russian/A/R-PR8-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "russian/A/R-PR8-1", "1210")
    target = put(game, "german/D/R-PR9-1", "1213", state="down")  # clear, DOWN: 2 dice
    do(game, "aim russian/A/R-PR9-1 1213")
    do(game, "join russian/A/R-PR8-1")
    with_dice(game, 2, 2, 2, 2, 2, 3)  # PCs 4 and 4 pass; the dice 2 + 3 = 5
    do(game, "shoot")
    attack = events(game, "attack")[-1]
    assert attack["firepower"] == 8 and attack["levels"] == {"P": 8, "S": 4, "E": 2}
    roll = events(game, "ap roll")[-1]
    assert roll["dice"] == [2, 3] and roll["result"] == "P"
    assert (target.morale, target.state) == (Morale.PINNED, State.DOWN)


# -- 10.1 which units can fire ---------------------------------------------------------------------


def test_10_11_pinned_units_and_units_that_fired_may_not_fire() -> None:
    """10.11: 'PINNED/SUPPRESSED units are not eligible to fire. Units that have already attempted to
    fire in the Player Turn are not eligible to fire.'"""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    rifle = put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    assert "aim russian/A/R-PR9-1 1213" in {a.text() for a in fire_actions(game)}
    with_dice(game, 6, 6)  # the PC fails: 12 against PR 9
    do(game, "aim russian/A/R-PR9-1 1213")
    do(game, "shoot")
    assert rifle.fired and not may_fire(game, rifle)  # 4.0: attempted is fired
    assert "aim russian/A/R-PR9-1 1213" not in {a.text() for a in fire_actions(game)}
    other = game.unit("russian/A/R-PR8-1")
    put(game, other.id, "1210")
    other.morale, other.state = Morale.PINNED, State.DOWN
    assert not may_fire(game, other)


def test_10_12_a_failed_pc_means_no_fire_and_no_dice_for_the_target() -> None:
    """10.12: 'Any unit which attempts to fire must pass a PC'; 10.0 c: 'Only those that pass the PC
    will participate in the combat resolution.'"""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    do(game, "aim russian/A/R-PR9-1 1213")
    with_dice(game, 5, 5)
    do(game, "shoot")
    assert events(game, "no fire") and not events(game, "ap roll")
    assert not game.shot_fired  # 8.22: no dice were rolled to resolve combat


def test_8_22_the_first_shot_brings_movement_pcs_from_the_next_player_turn() -> None:
    """8.22: 'no units are required to pass a PC for movement until either side rolls the dice to
    resolve combat (the first shot). PC's for movement must be taken by the next Phasing Player.'"""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    do(game, "aim russian/A/R-PR9-1 1213")
    with_dice(game, 1, 1, 6)
    do(game, "shoot")
    assert game.shot_fired and not game.first_shot  # the Russian Movement Phase still moves freely
    while game.phasing == "russian":
        play(game, Action("done"))
    assert game.first_shot  # the next Phasing Player takes PCs to move


def test_10_13_defensive_fire_is_the_non_phasing_players_and_not_for_units_that_moved() -> None:
    """10.13: 'Defensive Fire Phase: the Non-phasing Player may attempt to fire with any eligible units
    that did not move in the Reaction Movement Phase or use Opportunity Fire.'"""
    game = game_at("russian", DEFENSIVE_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1", "german/D/R-PR8-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    moved = put(game, "german/D/R-PR8-1", "1213")
    moved.moved = True
    assert game.to_act == "german"
    offered = {a.text() for a in fire_actions(game)}
    assert "aim german/D/R-PR9-1 1210" in offered and "aim german/D/R-PR8-1 1210" not in offered


def test_10_13_cws_that_moved_may_not_fire_in_the_moving_fire_phase() -> None:
    """10.13: 'CW units that moved in the Movement Phase may not fire.'"""
    game = game_at("german", MOVING_FIRE)
    away(game, "german/MMG-1", "russian/A/R-PR9-1")
    mmg = put(game, "german/MMG-1", "1220", toward="1215")
    put(game, "russian/A/R-PR9-1", "1215")
    assert may_fire(game, mmg)
    mmg.moved = True
    assert not may_fire(game, mmg)


def test_10_14_a_stug_that_moved_may_not_fire_one_that_turned_rolls_three_dice() -> None:
    """10.14: 'A German Stug that moved earlier in the Player Turn may not fire in that turn. If it
    changed facing only, it may still fire but with a penalty'; 12.2: 'German Stug units that have
    changed facing without moving out of the hex roll three dice.'"""
    game = game_at("german", MOVING_FIRE)
    away(game, "german/StugIIIb-1", "russian/T34b-1")
    stug = put(game, "german/StugIIIb-1", "1220", toward="1215")
    put(game, "russian/T34b-1", "1215", toward="1216")
    stug.moved = True  # it turned in its hex
    assert may_fire(game, stug)
    assert at_shot(game, stug, game.board.hex("1215")).dice[0].count == 3
    stug.extra["left_hex_turn"] = game.player_turns
    assert not may_fire(game, stug)


def test_10_15_an_atg_with_one_or_two_crew_fires_once_a_game_turn() -> None:
    """10.15: 'An ATG with a reduced crew strength of only 1 or 2 may fire only ONCE in a GAME TURN.'"""
    game = game_at("german", SUPPORT_FIRE)
    gun = put(game, "german/37AT-1", "1220", toward="1215")
    gun.men = 2
    assert may_fire(game, gun)
    gun.extra["fired_game_turn"] = game.turn  # it fired in the Russian Player Turn of this Game Turn
    assert not may_fire(game, gun)


def test_10_16_an_atr_without_its_full_crew_may_not_fire() -> None:
    """10.16: 'An ATR without a full crew may not fire at all.'"""
    game = game_at("russian", SUPPORT_FIRE)
    atr = game.unit("russian/ATR-1")
    assert may_fire(game, atr)
    atr.men -= 1
    assert not may_fire(game, atr)


# -- 10.2 target hexes ---------------------------------------------------------------------------


def test_10_21_no_target_without_an_unblocked_line() -> None:
    """10.21: 'Units which cannot trace an unblocked LOS may not fire at that target hex.' A building
    symbol at 1026 stands between 1025 and 1027 on column 10 (level 0: 10.31 a)."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    rifle = put(game, "russian/A/R-PR9-1", "1025")
    put(game, "german/D/R-PR9-1", "1027")
    assert not line_open(game, rifle.hex, game.board.hex("1027"), FirerState.UP)  # type: ignore[arg-type]
    assert not may_aim(game, rifle, game.board.hex("1027"))


def test_10_23_mgs_atgs_and_stugs_fire_only_into_their_frontal_area() -> None:
    """10.23: 'ATG's, MG's and German Stugs may only fire through their frontal hexsides at target
    hexes in their frontal area. An AFV (except Stugs) may fire through any hexside.'"""
    game = game_at("german", SUPPORT_FIRE)
    away(game, "german/MMG-1", "german/IIIe-1", "russian/A/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1215")
    mmg = put(game, "german/MMG-1", "1220", toward="1219")  # facing up column 12: 1215 ahead
    tank = put(game, "german/IIIe-1", "1320", toward="1321")  # facing away
    assert may_aim(game, mmg, game.board.hex("1215")) and may_aim(game, tank, game.board.hex("1215"))
    put(game, "german/MMG-1", "1220", toward="1221")
    assert not may_aim(game, mmg, game.board.hex("1215"))


def test_10_24_every_enemy_unit_in_the_target_hex_is_attacked_with_its_own_dice() -> None:
    """10.24: 'Every enemy unit in the target hex is subject to AP fire combat'; 11.41: 'Determine and
    roll the required number of dice for each unit in the target hex separately.'"""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1", "german/D/R-PR8-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    put(game, "german/D/R-PR8-1", "1213", state="down")
    shot = ap_shot(game, [game.unit("russian/A/R-PR9-1")], game.board.hex("1213"))
    assert [(u.id, d.count) for u, d in zip(shot.targets, shot.dice, strict=True)] == [
        ("german/D/R-PR9-1", 1),
        ("german/D/R-PR8-1", 2),
    ]


# -- 11.1 combining -------------------------------------------------------------------------------


def test_11_12_afvs_and_atgs_never_combine_their_ap_factors() -> None:
    """11.12: 'AFV's and ATG's firing their AP factors may NOT combine them with any other unit's AP factors.'"""
    game = game_at("german", SUPPORT_FIRE)
    tank, rifle, gun = game.unit("german/IIIe-1"), game.unit("german/D/R-PR9-1"), game.unit("german/37AT-1")
    put(game, tank.id, "1220", toward="1219")
    put(game, rifle.id, "1220")
    put(game, gun.id, "1221", toward="1220")
    assert not may_combine(game, [tank, rifle]) and not may_combine(game, [rifle, gun])


def test_11_13_infantry_combine_in_a_squad_with_a_commander_or_by_group_fire() -> None:
    """11.13: 'a) infantry units of the same squad stacked together; b) infantry units of different
    squads stacked together with a commander in NORMAL status; c) GROUP FIRE: infantry units of the
    same squad in two adjacent hexes with a NORMAL status leader in one of the hexes. GROUP FIRE may
    ONLY be performed during the Support Fire and Defensive Fire Phases.'"""
    game = game_at("german", SUPPORT_FIRE)
    away(game)
    r9, r8, r7 = (game.unit(f"german/D/{i}") for i in ("R-PR9-1", "R-PR8-1", "R-PR7-1"))
    put(game, r8.id, "1220")
    put(game, r7.id, "1220")
    assert may_combine(game, [r8, r7])  # a
    put(game, r9.id, "1221")  # PR 9: an acting leader (5.2) in the other hex
    assert may_combine(game, [r9, r8, r7])  # c, in the Support Fire Phase
    game.phase = MOVING_FIRE
    assert not may_combine(game, [r9, r8, r7])  # c only in B and E
    game.phase = SUPPORT_FIRE
    r9.morale = Morale.PINNED
    r9.state = State.DOWN
    put(game, "german/D/MP-PR8-1", "1221")
    assert not may_combine(game, [game.unit("german/D/MP-PR8-1"), r8, r7])  # no NORMAL leader with PR 9 or more there
    ru = game.unit("russian/A/R-PR9-1")
    put(game, ru.id, "1220")
    ru.side = "german"  # a unit of another squad (a test's stand-in)
    assert not may_combine(game, [r8, ru])
    put(game, "german/PL-PR11", "1220")
    assert may_combine(game, [r8, ru])  # b


def test_11_14_an_mmg_combines_with_infantry_stacked_or_adjacent() -> None:
    """11.14: 'MMG units stacked with or adjacent to infantry units and/or other MG units may combine
    their AP factors into one total AP firepower strength.'"""
    game = game_at("german", MOVING_FIRE)
    mmg, rifle = game.unit("german/MMG-1"), game.unit("german/D/R-PR8-1")
    put(game, mmg.id, "1220", toward="1219")
    put(game, rifle.id, "1221")
    assert may_combine(game, [mmg, rifle])  # adjacent, in any fire phase
    put(game, rifle.id, "1222")
    assert not may_combine(game, [mmg, rifle])


def test_11_15_intensive_fire_doubles_an_mg_and_may_jam_it() -> None:
    """11.15: 'MG (MMG & LMG) units may fire double their AP factors ... After each use of Intensive
    Fire the firing player rolls two dice and applies the result from the Intensive Fire Table';
    '2-4, 10-12 = Weapon Jammed: may not fire during the remainder of this player turn and the next
    player turn'."""
    game = game_at("german", SUPPORT_FIRE)
    away(game, "german/MMG-1", "russian/A/R-PR9-1")
    mmg = put(game, "german/MMG-1", "1220", toward="1219")
    put(game, "russian/A/R-PR9-1", "1216")
    do(game, "aim german/MMG-1 1216")
    do(game, "intensive german/MMG-1")
    with_dice(game, 1, 1, 6, 1, 1)  # PC 2; the attack's die 6; the Intensive Fire Table: 2 = jammed
    do(game, "shoot")
    assert events(game, "attack")[-1]["firepower"] == 24  # 12 doubled
    assert events(game, "intensive roll")[-1]["result"] == "jammed"
    turn = game.player_turns
    mmg.fired = False  # the next Player Turn, as far as 10.11 goes
    game.player_turns = turn + 1
    assert not may_fire(game, mmg)
    game.player_turns = turn + 2
    assert may_fire(game, mmg)


def test_11_16_d_an_mmg_short_of_crew_fires_half() -> None:
    """11.16 d: 'MMG's that are not fully crewed have their AP factors halved' (rounded up: R95)."""
    game = game_at("german", SUPPORT_FIRE)
    away(game, "german/MMG-1", "russian/A/R-PR9-1")
    mmg = put(game, "german/MMG-1", "1220", toward="1219")
    put(game, "russian/A/R-PR9-1", "1216")
    mmg.men = 2
    assert ap_shot(game, [mmg], game.board.hex("1216")).firepower == 6


# -- 11.3 dice, 11.4 results -------------------------------------------------------------------


def test_11_33_an_afv_that_has_not_moved_covers_infantry_but_not_a_cw() -> None:
    """11.33: 'the AFV/Wrecks will provide the infantry cover (1 extra die rolled) ... a) if the
    AFV/Wreck has not moved in the Player Turn'; 'CW units never receive cover benefits'."""
    game = game_at("russian", SUPPORT_FIRE)
    rifle = put(game, "german/D/R-PR9-1", "1220")
    put(game, "german/IIIe-1", "1220", toward="1219")
    assert ap_dice(game, rifle, moved=False)[0] == 2
    game.unit("german/IIIe-1").moved = True
    assert ap_dice(game, rifle, moved=False)[0] == 1
    game.wrecks.add(game.board.hex("1221"))
    gun = put(game, "german/37AT-1", "1221", toward="1220")
    assert ap_dice(game, gun, moved=False)[0] == 1


def test_11_34_ap_fire_at_an_afv_two_dice_up_four_down() -> None:
    """11.34: 'If the target AFV is in an UP state, two dice are rolled. If it is in a DOWN state four
    dice are rolled. An additional die is added if any of the firing units moved'."""
    game = game_at("russian", SUPPORT_FIRE)
    tank = put(game, "german/IIIe-1", "1220", toward="1219")
    assert ap_dice(game, tank, moved=False)[0] == 2
    tank.state = State.DOWN
    assert ap_dice(game, tank, moved=True)[0] == 5


def test_11_44_all_ones_eliminate_whatever_the_firepower() -> None:
    """11.44: 'If more than one die is rolled and all "1's" are rolled the result is an automatic
    ELIMINATED, regardless of the AP firepower total.'"""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1202")
    target = put(game, "german/D/R-PR9-1", "1222", state="down")  # 20 hexes: AP 2, levels 2/1/1
    do(game, "aim russian/A/R-PR9-1 1222")
    with_dice(game, 1, 1, 1, 1)
    do(game, "shoot")
    assert events(game, "ap roll")[-1]["result"] == "E" and target.where == "eliminated"


def test_11_45_pinned_then_pinned_is_suppressed() -> None:
    """11.45 / Cumulative Combat Results Table: 'Pinned+Pinned = Suppressed'."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "russian/A/R-PR8-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "russian/A/R-PR8-1", "1211")
    target = put(game, "german/D/R-PR9-1", "1213", state="down")
    target.morale = Morale.PINNED
    do(game, "aim russian/A/R-PR8-1 1213")
    with_dice(game, 1, 1, 2, 2)  # firepower 4: P 4, S 2, E 1; 2 + 2 = 4 pins
    do(game, "shoot")
    assert target.morale == Morale.SUPPRESSED


# -- 12.0 AT fire ------------------------------------------------------------------------------


def test_12_31_frontal_or_flank_armor_and_one_more_for_a_higher_target() -> None:
    """12.31: 'If the firing unit is in the target AFV's frontal area, add the target AFV's frontal
    armor factor to the dice total. Otherwise, add the target AFV's flank armor factor'; 'If the
    target AFV is on a level higher than the firing unit, add one'."""
    game = game_at("german", SUPPORT_FIRE)
    gun = put(game, "german/37AT-1", "1220", toward="1219")
    t34 = put(game, "russian/T34b-1", "1215", toward="1216")  # facing the gun
    shot = at_shot(game, gun, game.board.hex("1215"))
    assert (shot.armor, shot.higher) == (int(t34.value("frontal")), False)
    put(game, "russian/T34b-1", "1215", toward="1214")  # its back to the gun
    assert at_shot(game, gun, game.board.hex("1215")).armor == int(t34.value("flank"))
    put(game, "russian/T34b-1", "1405", toward="1404")
    put(game, "german/37AT-1", "1409", toward="1408")
    assert at_shot(game, gun, game.board.hex("1405")).higher


def test_12_32_12_33_12_34_a_destroyed_afv_leaves_a_wreck_and_suppresses_its_infantry() -> None:
    """12.32: 'If the final result is equal to or less than the AT firepower total ... the AFV is
    destroyed ... replaced with a Wreck marker'; 12.33: 'On a dice roll of all "1's" ... the AFV is
    automatically destroyed'; 12.34: 'the infantry are immediately SUPPRESSED'."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/45AT-1", "german/IIIe-1", "german/D/R-PR9-1")
    put(game, "russian/45AT-1", "1210", toward="1211")
    tank = put(game, "german/IIIe-1", "1220", toward="1219")
    rider = put(game, "german/D/R-PR9-1", "1220")
    with_dice(game, 1, 1, 1, 1)  # the PC 2; the AT dice 1 + 1
    do(game, "antitank russian/45AT-1 1220")
    assert tank.where == "eliminated" and game.board.hex("1220") in game.wrecks
    assert events(game, "at roll")[-1]["rule"] == "12.33"
    assert rider.morale == Morale.SUPPRESSED


def test_12_4_a_wreck_counts_on_the_line_and_bars_afvs() -> None:
    """12.4: 'AFV's may not enter a hex containing a Wreck marker. Wreck markers affect LOS.'"""
    game = game_at("german", SUPPORT_FIRE)
    away(game)
    game.wrecks.add(game.board.hex("1305"))
    game.units_changed()
    assert sight(game, game.board.hex("1203"), game.board.hex("1405"), FirerState.UP).trees_along == 2


# -- 13.0 opportunity fire ------------------------------------------------------------------------


def opportunity(seed: int = 1) -> GameState:
    """The German Movement Phase with a German rifle about to move toward the Russians."""
    game = game_at("german", MOVEMENT, seed)
    away(game, "german/D/R-PR9-1", "russian/A/R-PR9-1", "russian/A/LMG-PR8-1", "russian/45AT-1")
    put(game, "german/D/R-PR9-1", "1216")
    put(game, "russian/A/R-PR9-1", "1212")
    put(game, "russian/A/LMG-PR8-1", "1211", toward="1212")
    put(game, "russian/45AT-1", "1311", toward="1312")
    game.first_shot = False
    return game


def test_13_13_only_the_hex_entered_is_a_target_and_13_2_infantry_reach_three_hexes() -> None:
    """13.13: 'Only hexes into which enemy units are moving may be designated as target hexes for
    opportunity fire'; 13.2: 'Infantry: three hexes'; 'MG's: initial range'."""
    game = opportunity()
    put(game, "german/D/R-PR9-1", "1217")
    do(game, "move german/D/R-PR9-1 1216")  # four hexes from the rifle: only the LMG may fire
    offered = {a.text() for a in legal_actions(game)}
    assert game.to_act == "russian" and "pass" in offered
    assert "aim russian/A/R-PR9-1 1216" not in offered and "aim russian/A/LMG-PR8-1 1216" in offered
    assert all(a.arg == "1216" for a in legal_actions(game) if a.verb == "aim")
    play(game, Action("pass"))
    do(game, "move german/D/R-PR9-1 1215")  # three hexes
    assert "aim russian/A/R-PR9-1 1215" in {a.text() for a in legal_actions(game)}


def test_13_17_opportunity_pc_modifiers() -> None:
    """13.17: 'Infantry units and AFV's attempting opportunity fire in the Movement Phase have their PC
    dieroll modified by +1. MG's, ATR's and ATG's do NOT'."""
    game = opportunity()
    do(game, "move german/D/R-PR9-1 1215")
    do(game, "aim russian/A/R-PR9-1 1215")
    with_dice(game, 4, 4, 6)  # 4 + 4 + 1 = 9 against PR 9: passes; the die 6 misses
    do(game, "shoot")
    pc = events(game, "pc")[-1]
    assert pc["check"] == "4+4 + 1 = 9 against PR 9: passed"


def test_13_17_the_odds_of_opportunity_fire_are_the_engines() -> None:
    """13.17: 'Infantry units and AFV's attempting opportunity fire in the Movement Phase have their PC
    dieroll modified by +1. MG's, ATR's and ATG's do NOT': `odds fire` at the interrupt gives the
    chance the engine's dice give (every roll of the PC played), by the same modifier function."""
    from engine.game import fire, fire_odds, shot

    assert fire.fire_pc_modifier is fire_odds.fire_pc_modifier is shot.fire_pc_modifier
    game = opportunity()
    do(game, "move german/D/R-PR9-1 1215")
    rifle, mg = game.unit("russian/A/R-PR9-1"), game.unit("russian/A/LMG-PR8-1")
    odds = fire_odds.fire_odds(game, [game.board.hex("1212"), game.board.hex("1211")], game.board.hex("1215"))
    calculated = {u["unit"]: u["pc"] for u in odds["units"]}
    for unit in (rifle, mg):
        passed = 0
        for first in range(1, 7):
            for second in range(1, 7):
                twin = game.copy()
                do(twin, f"aim {unit.id} 1215")
                with_dice(twin, first, second, 6, 6)
                do(twin, "shoot")
                passed += events(twin, "pc")[-1]["check"].endswith("passed")
        assert calculated[unit.id] == passed / 36
    assert calculated == {rifle.id: 26 / 36, mg.id: 26 / 36}  # PR 9 with +1; PR 8 without


def test_13_18_a_mover_pinned_by_opportunity_fire_moves_no_further() -> None:
    """13.18: 'Moving units which become PINNED may move no further in that phase. Moving units
    unaffected by opportunity fire may continue to move.'"""
    game = opportunity()
    mover = game.unit("german/D/R-PR9-1")
    do(game, "move german/D/R-PR9-1 1215")
    do(game, "aim russian/A/LMG-PR8-1 1215")
    with_dice(game, 1, 1, 5)  # the PC 2 (an MG: no +1); LMG 7 at 4 hexes: P 7, S 4, E 2; a 5 pins
    do(game, "shoot")
    assert mover.morale == Morale.PINNED and mover.move_done
    play(game, Action("pass"))
    assert not any(a.verb == "move" and a.units == (mover.id,) for a in legal_actions(game))


def test_13_15_a_unit_opportunity_fires_once_a_player_turn() -> None:
    """13.15: 'A unit may perform opportunity fire only once in a Player Turn regardless of the number
    of targets with which it may be presented.'"""
    game = opportunity()
    do(game, "move german/D/R-PR9-1 1215")
    do(game, "aim russian/A/R-PR9-1 1215")
    with_dice(game, 6, 6)
    do(game, "shoot")
    play(game, Action("pass"))
    do(game, "move german/D/R-PR9-1 1214")
    assert not any(a.units == ("russian/A/R-PR9-1",) for a in legal_actions(game))


def test_13_14_an_afv_opportunity_fires_only_into_its_frontal_area() -> None:
    """13.14: 'AFV's may only opportunity fire (AT or AP) into hexes within their frontal area.'"""
    game = opportunity()
    put(game, "russian/T34b-1", "1312", toward="1313")
    do(game, "move german/D/R-PR9-1 1215")
    assert "aim russian/T34b-1 1215" in {a.text() for a in legal_actions(game)}
    play(game, Action("pass"))
    put(game, "russian/T34b-1", "1312", toward="1311")
    do(game, "move german/D/R-PR9-1 1214")
    assert "aim russian/T34b-1 1214" not in {a.text() for a in legal_actions(game)}


def test_illegal_fire_is_refused_with_the_rule() -> None:
    """A fire action the rules do not allow is refused with its rule number."""
    game = game_at("russian", SUPPORT_FIRE)
    with pytest.raises(IllegalAction, match=r"\(10\.2\)"):
        play(game, Action("aim", ("russian/A/R-PR9-1",), "1830"))


def test_7_0_b_an_afv_that_fails_to_recover_stays_suppressed() -> None:
    """7.0 b: 'Otherwise, the "S" marker is replaced with a "P" marker'; 11.43: 'AFV: Pinned has no
    effect': an AFV never becomes PINNED (R99)."""
    from engine.game.morale import morale_phase

    game = game_at("russian", SUPPORT_FIRE)
    tank, rifle = game.unit("german/IIIe-1"), game.unit("german/D/R-PR9-1")
    for unit in (tank, rifle):
        unit.morale, unit.state = Morale.SUPPRESSED, State.DOWN
    with_dice(game, 6, 6, 6, 6)  # both fail: 12 + 2 against PR 9
    morale_phase(game)
    assert (tank.morale, rifle.morale) == (Morale.SUPPRESSED, Morale.PINNED)


def test_11_43_an_afv_eliminated_result_kills_its_commander_and_keeps_it_down() -> None:
    """11.43: 'AFV: Treat as a SUPPRESSED result; in addition the AFV must remain in the DOWN state
    for the remainder of the game (the tank commander has been killed).'"""
    from engine.game.results import apply_result

    game = game_at("german", MOVEMENT)
    tank = game.unit("german/IIIe-1")
    apply_result(game, tank, "E", "11.43")
    assert (tank.morale, tank.state, tank.on_map) == (Morale.SUPPRESSED, State.DOWN, True)
    tank.morale = Morale.NORMAL  # recovered (7.0 b): still DOWN for good
    game.caches = {}
    assert not any(a.verb == "state" and a.units == (tank.id,) for a in legal_actions(game))


def test_11_45_suppressed_on_suppressed_is_the_special_roll() -> None:
    """Cumulative Combat Results Table: 'Suppressed+Suppressed = Special Roll': 'Make a PC for the
    unit, if it fails it is eliminated; if it passes it remains SUPPRESSED.'"""
    from engine.game.results import apply_result

    game = game_at("german", SUPPORT_FIRE)
    lucky, unlucky = game.unit("german/D/R-PR9-1"), game.unit("german/D/R-PR8-1")
    for unit in (lucky, unlucky):
        unit.morale, unit.state = Morale.SUPPRESSED, State.DOWN
    with_dice(game, 4, 5, 5, 5)  # 9 against PR 9 passes; 10 against PR 8 fails
    apply_result(game, lucky, "S", "11.43")
    apply_result(game, unlucky, "S", "11.43")
    assert lucky.morale == Morale.SUPPRESSED and lucky.on_map
    assert unlucky.where == "eliminated"


def test_10_0_ap_fire_on_a_suppressed_afv_never_destroys_it_r160() -> None:
    """10.0: 'AP fire will not destroy an AFV but it may render it ineffective for a time': an S on
    a SUPPRESSED AFV takes no Special Roll (11.45), whatever the dice; it stays SUPPRESSED, on the
    map, and no Wreck appears (R160)."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/LMG-PR8-1", "german/IIIe-1")
    put(game, "russian/A/LMG-PR8-1", "1220", toward="1218")
    tank = put(game, "german/IIIe-1", "1218", toward="1219")
    tank.morale, tank.state = Morale.SUPPRESSED, State.DOWN
    with_dice(game, 1, 1, 1, 1, 1, 1, 6, 6, 6, 6)  # the PC, all ones on four dice (11.44: E), then 6s
    do(game, "aim russian/A/LMG-PR8-1 1218")
    do(game, "shoot")
    assert (tank.where, tank.morale, tank.state) == (ON_MAP, Morale.SUPPRESSED, State.DOWN)
    assert game.board.hex("1218") not in game.wrecks and not events(game, "eliminated")
    assert any("no Special Roll" in str(e["detail"]) for e in events(game, "result"))


def test_10_17_12_14_at_factors_are_never_combined() -> None:
    """10.17: 'The AT fire factors of different units may never be combined'; 12.14: 'All AT fire is
    resolved separately, unit by unit': an AT shot is one unit's (`antitank UNIT HEX`), no `join`."""
    game = game_at("german", SUPPORT_FIRE)
    away(game, "german/37AT-1", "german/IIIe-1", "russian/T34b-1")
    put(game, "german/37AT-1", "1220", toward="1215")
    put(game, "german/IIIe-1", "1320", toward="1215")
    put(game, "russian/T34b-1", "1215", toward="1216")
    offered = {a.text() for a in fire_actions(game)}
    assert {"antitank german/37AT-1 1215", "antitank german/IIIe-1 1215"} <= offered
    with_dice(game, 1, 1, 6, 6)
    do(game, "antitank german/37AT-1 1215")
    assert game.attack is None and len(events(game, "at roll")) == 1


def test_12_15_12_16_at_fire_ignores_terrain_and_range_but_an_atrs() -> None:
    """12.15: 'An AT firepower total is never modified for terrain'; 12.16: 'All AT fire, except by
    ATR's, has an unlimited range. Only ATR's are subject to range attenuation'."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/45AT-1", "russian/ATR-1", "german/IIIe-1")
    gun = put(game, "russian/45AT-1", "1201", toward="1202")
    atr = put(game, "russian/ATR-1", "1101", toward="1102")
    put(game, "german/IIIe-1", "1228", toward="1227")  # 27 hexes down the column, Trees on no line
    assert at_shot(game, gun, game.board.hex("1228")).firepower == int(gun.value("at_factor"))
    increment = int(atr.value("initial_range"))
    put(game, "german/IIIe-1", "1101", toward="1102")
    put(game, "russian/ATR-1", "1110", toward="1101")  # nine hexes up column 11
    shot = at_shot(game, atr, game.board.hex("1101"))
    assert shot.firepower == attenuated(int(atr.value("at_factor")), increment, 9)


def test_12_2_two_dice_three_if_the_firer_moved() -> None:
    """12.2: 'If the firing unit has not moved during the Player Turn two dice are rolled. If it
    moved, three dice are rolled.'"""
    game = game_at("german", MOVING_FIRE)
    away(game, "german/IIIe-1", "russian/T34b-1")
    tank = put(game, "german/IIIe-1", "1220", toward="1215")
    put(game, "russian/T34b-1", "1215", toward="1216")
    assert at_shot(game, tank, game.board.hex("1215")).dice[0].count == 2
    tank.moved = True
    assert at_shot(game, tank, game.board.hex("1215")).dice[0].count == 3


def test_13_12_in_the_reaction_phase_only_atrs_and_atgs_that_did_not_move() -> None:
    """13.12: 'During the Reaction Movement Phase all Phasing ATR and ATG units which are eligible to
    fire (see 10.1) and have not moved in the preceding Movement Phase may perform opportunity fire.'"""
    game = game_at("german", "reaction_movement")
    away(game, "german/37AT-1", "german/D/R-PR9-1", "russian/A/R-PR9-1", "russian/T34b-1")
    put(game, "german/37AT-1", "1220", toward="1215")
    put(game, "german/D/R-PR9-1", "1219")
    put(game, "russian/T34b-1", "1213", toward="1214")
    put(game, "russian/A/R-PR9-1", "1216")
    assert game.to_act == "russian"
    do(game, "move russian/A/R-PR9-1 1217")
    offered = {a.text() for a in legal_actions(game)}
    assert "aim german/37AT-1 1217" in offered and "aim german/D/R-PR9-1 1217" not in offered
    play(game, Action("pass"))
    game.unit("german/37AT-1").moved = True
    do(game, "move russian/A/R-PR9-1 1218")
    assert not any(a.units == ("german/37AT-1",) for a in legal_actions(game))


def test_13_2_an_afv_opportunity_fires_four_ap_factors_at_most_to_ten_hexes() -> None:
    """13.2: 'AFV's: ... AP factors (4 factors maximum) up to a maximum range of ten hexes. Range
    attenuation applies.'"""
    game = opportunity()
    t34 = put(game, "russian/T34b-1", "1205", toward="1206")
    put(game, "german/D/R-PR9-1", "1217")
    do(game, "move german/D/R-PR9-1 1216")  # 11 hexes: too far
    assert "aim russian/T34b-1 1216" not in {a.text() for a in legal_actions(game)}
    play(game, Action("pass"))
    do(game, "move german/D/R-PR9-1 1215")  # 10 hexes
    assert "aim russian/T34b-1 1215" in {a.text() for a in legal_actions(game)}
    shot = ap_shot(game, [t34], game.board.hex("1215"))
    assert shot.parts[0].value == attenuated(min(int(t34.value("ap_factor")), 4), int(t34.value("ap_range")), 10)


# -- iceditor odds fire ----------------------------------------------------------------------------


def test_odds_fire_in_a_set_up_and_in_a_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`iceditor odds fire FILE --from HEX --to HEX`: every eligible firer, every modifier with its
    rule, the firepower, each target unit's dice and chances, PCs included (issue 13)."""
    import json

    from engine.game.log import log_text
    from engine.players import make_player
    from engine.players.match import play_out
    from iceditor.entry import main

    path = REPO / "tests" / "fixtures" / "game" / "fire.yaml"
    assert main(["odds", "fire", str(path), "--from", "1324", "--to", "1303", "--format", "json"]) == 0
    odds = json.loads(capsys.readouterr().out)
    assert odds["side"] == "german" and odds["units"] == [{"unit": "german/MMG-1", "fires": True, "pc": 30 / 36}]
    assert odds["ap"]["firepower"] == 10 and [p["rule"] for p in odds["ap"]["parts"]] == ["11.2", "11.16 b"]
    target = odds["ap"]["targets"][0]
    assert target["unit"] == "russian/ATR-1" and abs(sum(target["p"].values()) - 1) < 1e-9
    assert target["p"]["none"] == pytest.approx(6 / 36)  # one die always hits P 10 or better: only a failed PC misses
    assert main(["odds", "fire", str(path), "--from", "1324", "--to", "1303"]) == 0
    assert "AP firepower 10" in capsys.readouterr().out
    assert main(["odds", "fire", str(path), "--from", "1010", "--to", "1303"]) == 2
    assert "no units in 1010" in capsys.readouterr().err
    assert main(["odds", "fire", str(path), "--from", "9999", "--to", "1303"]) == 2
    assert "9999" in capsys.readouterr().err
    game = new_game(FIRE, 3)
    play_out(game, {"german": make_player("random", 3), "russian": make_player("random", 4)})
    log = tmp_path / "fire.jsonl"
    log.write_text(log_text(game, ["random", "random"]), encoding="utf-8")
    for name in ("fire.yaml", "fire-map.yaml"):
        shutil.copy(REPO / "tests" / "fixtures" / "game" / name, tmp_path / name)
    on_map = next(u for u in game.units.values() if u.on_map and u.side == "german")
    assert on_map.hex is not None
    enemy = next(u for u in game.units.values() if u.on_map and u.side == "russian")
    assert enemy.hex is not None
    label, to = game.board.label(on_map.hex), game.board.label(enemy.hex)
    assert main(["odds", "fire", str(log), "--from", label, "--to", to, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["target"] == to
    log.write_text("not a log\n", encoding="utf-8")
    assert main(["odds", "fire", str(log), "--from", label, "--to", to]) == 2
    assert f"{log}:1: error" in capsys.readouterr().err


def test_11_16_a_r171_a_lone_afv_reduces_the_ap_fire_aimed_at_it() -> None:
    """11.16 a: 'minus one for each Tree symbol, AFV unit and Wreck marker in the target hex'; 10.0:
    AP fire 'may also be used against AFV's'. R171: the AFV attacked counts, alone in its hex too:
    the rifle's 4 at three hexes is 3 at the IIIe, and its dice are 11.34's two (UP)."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/IIIe-1")
    rifle = put(game, "russian/A/R-PR9-1", "1210")
    put(game, "german/IIIe-1", "1213", toward="1212")
    shot = ap_shot(game, [rifle], game.board.hex("1213"))
    assert [(p.rule, p.value) for p in shot.parts] == [("11.2", 4), ("11.16 a", -1)]
    assert shot.firepower == 3 and [d.count for d in shot.dice] == [2]
    do(game, "aim russian/A/R-PR9-1 1213")
    with_dice(game, 1, 1, 6, 6)  # the PC, then 12: no effect
    do(game, "shoot")
    assert events(game, "attack")[-1]["firepower"] == 3


def test_11_13_the_odds_of_the_firers_picked_are_the_attack_they_make() -> None:
    """11.13: 'Infantry units may combine their AP factors into one total AP firepower strength':
    the player picks which units fire; the odds are of exactly that attack (the engine's own
    ap_shot) and every unit of the hexes is still listed, with whether it was picked. (Here the
    two hexes may not combine in opportunity fire, R94: the rifle alone, or the MG alone.)"""
    from engine.game import fire_odds, shot

    game = opportunity()
    do(game, "move german/D/R-PR9-1 1215")
    sources, target = [game.board.hex("1212"), game.board.hex("1211")], game.board.hex("1215")
    rifle, mg = game.unit("russian/A/R-PR9-1"), game.unit("russian/A/LMG-PR8-1")
    whole = fire_odds.fire_odds(game, sources, target)
    picked = fire_odds.fire_odds(game, sources, target, picked=[mg.id])
    assert whole["ap"]["firers"] == [rifle.id] and picked["ap"]["firers"] == [mg.id]
    assert picked["ap"]["firepower"] == shot.ap_shot(game, [mg], target).firepower
    assert [u["unit"] for u in picked["units"]] == [u["unit"] for u in whole["units"]]
    assert {u["unit"]: u["picked"] for u in picked["units"]} == {rifle.id: False, mg.id: True}
    assert "not picked to fire" in fire_odds.describe_odds(picked)
    assert fire_odds.fire_odds(game, sources, target, picked=[])["ap"] is None


@pytest.mark.parametrize(
    ("scenario", "seed", "decisions"),
    [("s1-demyansk-pocket", 1, 1500), pytest.param("s6-spartakovka", 1, 2500, marks=pytest.mark.slow)],
)
def test_10_21_a_listing_offers_every_opening_with_an_unblocked_line_and_no_other(
    scenario: str, seed: int, decisions: int
) -> None:
    """10.21: 'A unit may fire at any enemy-occupied hex to which it has an unblocked LOS (10.3)'.
    A fire listing sieves the lines with the bare terrain's matrix before the rules' checks (an AFV
    or a Wreck only adds blocks, 10.31 b); it offers exactly the `aim` and `antitank` that each unit
    of the firing side may make at each hex, checked one by one (`may_aim`, `may_antitank`), in
    random play with AFVs and Wrecks on the lines (Scenario 6) and without (Scenario 1)."""
    from engine.game.fire import AIM, ANTITANK, _legal
    from engine.game.firing import firing_side
    from engine.game.shot import opening_hexes
    from engine.players import make_player

    game = new_game(load_scenario(REPO / "scenarios" / f"{scenario}.yaml"), seed)
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    checked = 0
    fire_phases = (SUPPORT_FIRE, DEFENSIVE_FIRE, MOVING_FIRE)
    for _ in range(decisions):
        if game.is_over:
            break
        actions = legal_actions(game)
        side = firing_side(game)
        if game.to_act == side and game.attack is None and (game.phase in fire_phases or game.interrupt is not None):
            hexes = [game.label_of(h) for h in opening_hexes(game, side)]
            units = [u.id for u in game.side_units(side) if u.on_map]
            each = [Action(verb, (u,), h) for u in units for h in hexes for verb in (AIM, ANTITANK)]
            offered = [a for a in actions if a.verb in (AIM, ANTITANK)]
            assert sorted(offered) == sorted(a for a in each if _legal(game, a))
            checked += bool(offered)
        play(game, players[game.to_act].choose(None, actions))
    assert checked > 50
