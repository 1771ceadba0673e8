"""Overrun (9.0-9.34) and Improved Positions in it (18.3, 18.4), rule by rule, with exact dice, on
tests/fixtures/game/overrun.yaml: the Russians (squad B, a commander, a T34b of Overrun 7 and
frontal armor 7, a BT7m) move first; the Germans hold squad E, a 37AT (AT 11, crew 4), an ATR and a
IIIe. Each test puts the units where it needs them: the T34b in 1303 facing down the road to 1304,
the hex it overruns, and on to 1305."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, legal_actions, new_game, parse, play
from engine.game.assault import eligible
from engine.game.dice import ReplayMismatch
from engine.game.overrun import frontal_shot, infantry_fire_number, overrun_actions
from engine.game.state import MOVEMENT, REACTION, GameState
from engine.game.units import Unit
from engine.geometry.movement import Morale, State
from engine.model.scenario import load_scenario
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
OVERRUN_SCENARIO = load_scenario(REPO / "tests" / "fixtures" / "game" / "overrun.yaml")
T34 = "russian/T34b-1"
BT7 = "russian/BT7m-1"
DOWN_THE_ROAD = 3  # DIRECTIONS[3]: from 1303 toward 1304


def start(seed: int = 1) -> GameState:
    """The Russian Movement Phase of turn 1 (nothing to decide in the Morale and Support Fire Phases)."""
    game = new_game(OVERRUN_SCENARIO, seed)
    while game.phase != MOVEMENT:
        play(game, Action("done"))
    return game


def place(game: GameState, unit_id: str, label: str, facing: int | None = None) -> Unit:
    unit = game.unit(unit_id)
    game.relocate(unit, "on_map", game.board.hex(label))
    if facing is not None:
        unit.facing = facing
    game.units_changed()
    game.caches = {}  # a test moves units by hand: what legal_actions kept is stale
    return unit


def all_rolled(game: GameState) -> None:
    with pytest.raises(ReplayMismatch):  # no roll was left over: the resolution used exactly the dice given
        game.dice.roll(1)


def texts(game: GameState) -> set[str]:
    return {a.text() for a in legal_actions(game)}


def do(game: GameState, text: str) -> None:
    assert parse(text) in legal_actions(game), f"{text} not in {sorted(texts(game))}"
    play(game, parse(text))


def tank(game: GameState, unit_id: str = T34, label: str = "1303") -> Unit:
    return place(game, unit_id, label, DOWN_THE_ROAD)


def defenders(game: GameState, *ids: str, label: str = "1304") -> list[Unit]:
    return [place(game, f"german/{i}", label) for i in ids]


def combined(game: GameState) -> str:
    """The overrun of the T34 with the most infantry (8.4: the AFV and the squad it is stacked with)."""
    overruns = [a for a in legal_actions(game) if a.verb == "overrun" and a.units[0] == T34]
    return max(overruns, key=lambda a: len(a.units)).text()


def events(game: GameState, name: str) -> list[dict[str, object]]:
    return [e for e in game.log[-1]["events"] if e["event"] == name]


# -- 9.0, 9.1 ------------------------------------------------------------------------------------


def test_9_0_an_afv_overruns_with_the_mps_to_enter_one_more_and_to_exit() -> None:
    """9.0: 'An AFV may overrun enemy units by moving into the enemy occupied hex, expending one
    extra MP in addition to the terrain cost of the hex, and exiting the hex. An enemy occupied hex
    may only be overrun if the AFV has sufficient MP's to enter and exit the overrun hex ... If
    there are insufficient MP's the overrun may not be performed.'"""
    game = start()
    afv = tank(game)
    defenders(game, "E/R-PR10-1")
    assert f"overrun {T34} 1304" in texts(game)
    assert f"move {T34} 1304" not in texts(game)  # 8.23: only an overrun enters an enemy hex
    afv.mp_spent = 8.1  # 10 MPs: the road in (1/2) + 1 + the road out (1/2) need 2
    game.caches = {}
    assert f"overrun {T34} 1304" not in texts(game)
    afv.mp_spent = 8.0
    game.caches = {}
    assert f"overrun {T34} 1304" in texts(game)


def test_9_0_the_afv_must_exit_the_hex_and_9_12_may_then_go_on_moving() -> None:
    """9.0: 'and exiting the hex'; 9.12: 'After resolving the overrun and the AFV exits the overrun
    hex it may continue to move if capable of doing so.'"""
    game = start()
    afv = tank(game)
    defenders(game, "E/R-PR8-1")
    with_dice(game, 6, 6, 6, 6)  # 9.2 B: the PC fails; 9.2 C: 12 > 7, SUPPRESSED
    do(game, f"overrun {T34} 1304")
    assert game.label(afv.hex) == "1304" and afv.mp_spent == 1.5  # 1/2 by the road + 1 (9.0)
    assert game.interrupt is None  # R143: no opportunity fire at the hex overrun
    choices = texts(game)
    assert f"move {T34} 1305" in choices
    assert not any(c.startswith(("stop", "done", "state")) for c in choices)
    assert all(c.startswith(("move", "face")) for c in choices)
    with pytest.raises(IllegalAction):
        play(game, Action("done"))
    do(game, f"move {T34} 1305")
    play(game, Action("pass"))  # the interrupt after the hex entered: opportunity fire is the other side's
    assert f"move {T34} 1306" in texts(game) and f"stop {T34}" in texts(game)  # 9.12


def test_9_11_one_overrun_per_player_turn_and_only_in_the_friendly_movement_phase() -> None:
    """9.11: 'An AFV may perform only one overrun per Player Turn and only in the friendly Movement
    Phase.'"""
    game = start()
    afv = tank(game)
    defenders(game, "E/R-PR8-1")
    defenders(game, "E/R-PR10-1", label="1306")
    with_dice(game, 6, 6, 6, 6)
    do(game, f"overrun {T34} 1304")
    do(game, f"move {T34} 1305")
    play(game, Action("pass"))
    assert not any(a.verb == "overrun" for a in legal_actions(game))  # 1306 ahead, but it overran once
    assert f"move {T34} 1306" not in texts(game)  # nor may it enter the enemy hex (8.23)
    game.phase = REACTION  # an AFV in the Reaction Movement Phase: no overrun
    afv.extra.pop("overran")
    assert overrun_actions(game) == []


def test_9_13_no_overrun_of_a_hex_with_an_enemy_afv_or_a_wreck() -> None:
    """9.13: 'Hexes containing enemy AFV's or any Wreck markers may not be overrun.'"""
    game = start()
    tank(game)
    defenders(game, "E/R-PR8-1", "IIIe-1")
    assert not any(a.verb == "overrun" for a in legal_actions(game))
    place(game, "german/IIIe-1", "1507")
    assert f"overrun {T34} 1304" in texts(game)
    game.wrecks.add(game.board.hex("1304"))
    game.caches = {}
    assert not any(a.verb == "overrun" for a in legal_actions(game))


def test_9_14_a_hex_overrun_twice_by_different_afvs_its_at_fire_only_at_the_first() -> None:
    """9.14: 'A hex may be overrun any number of times in a Movement Phase but each time by a
    different AFV.' 9.2 A: 'It may only occur ONCE in the Movement Phase and only at the FIRST AFV
    moving into the hex.' 9.2 B: 'Step B is performed for EVERY AFV that attempts to overrun the
    hex, not just the first one.'"""
    game = start()
    tank(game)
    defenders(game, "E/R-PR8-1", "37AT-1")
    do(game, f"overrun {T34} 1304")
    assert game.to_act == "german" and texts(game) == {"antitank german/37AT-1 1303", "pass"}
    with_dice(game, 6, 6, 6, 6, 6, 6)  # 9.2 B: the PC fails; C: both defenders SUPPRESSED
    do(game, "pass")
    do(game, f"move {T34} 1305")
    play(game, Action("pass"))
    gun = game.unit("german/37AT-1")
    gun.morale = Morale.NORMAL  # a NORMAL gun again: still no second AT fire this phase
    rifle = game.unit("german/E/R-PR8-1")
    rifle.morale = Morale.NORMAL
    tank(game, BT7)
    assert f"overrun {BT7} 1304" in texts(game)
    with_dice(game, 6, 6, 6, 6, 6, 6)  # straight to 9.2 B, the PC of the rifleman (PR 8): failed
    do(game, f"overrun {BT7} 1304")
    assert [e["unit"] for e in events(game, "pc")] == ["german/E/R-PR8-1"]  # B for the second AFV too
    assert not events(game, "overrun at fire")
    assert game.label(game.unit(BT7).hex) == "1304"


# -- 9.2 A, 9.31 -----------------------------------------------------------------------------


def test_9_2_a_the_defenders_guns_may_fire_at_the_frontal_armor_and_a_kill_wrecks_it_outside() -> None:
    """9.2 A: 'all NORMAL status ATR and ATG units in the hex may fire at the AFV unit. This special
    AT fire may be tried regardless of the firing unit's facing or if it has already fired during
    the Player Turn ... The AT fire is directed at the AFV's frontal armor ... If the AFV is
    destroyed place a Wreck marker in the hex adjacent to the defending units.'"""
    game = start()
    afv = tank(game)
    gun, _ = defenders(game, "37AT-1", "E/R-PR8-1")
    gun.facing = 3  # its front away from the tank
    gun.fired = True  # it has fired this Player Turn
    shot = frontal_shot(game, gun, afv)
    assert (shot.firepower, shot.armor, shot.dice[0].count) == (11, 7, 2)  # 12.1, 12.2: 2 dice + 7 <= 11
    do(game, f"overrun {T34} 1304")
    assert game.to_act == "german" and "antitank german/37AT-1 1303" in texts(game)
    with_dice(game, 1, 1, 2, 2)  # the PC (10.12), then 4 + 7 = 11: destroyed
    do(game, "antitank german/37AT-1 1303")
    all_rolled(game)
    (fire,) = events(game, "overrun at fire")
    assert fire["destroyed"] and fire["rule"] == "9.2 A"
    assert not afv.on_map and game.wrecks == {game.board.hex("1303")}
    assert game.shot_fired  # 8.22: the overrun's dice resolve combat
    assert game.to_act == "russian" and game.active == ()


def test_9_2_a_the_defender_may_hold_fire_and_a_miss_lets_the_afv_in() -> None:
    """9.2 A: the guns 'may fire' (R139: the defender decides gun by gun; `pass` ends the fire)."""
    game = start()
    afv = tank(game)
    defenders(game, "37AT-1", "ATR-1", "E/R-PR8-1")
    do(game, f"overrun {T34} 1304")
    assert texts(game) == {"antitank german/37AT-1 1303", "antitank german/ATR-1 1303", "pass"}
    with_dice(game, 1, 1, 3, 2)  # the PC, then 5 + 7 = 12 > 11: missed; the ATR may still fire
    do(game, "antitank german/37AT-1 1303")
    assert texts(game) == {"antitank german/ATR-1 1303", "pass"}
    with_dice(game, 6, 6, 6, 6, 6, 6, 6, 6)  # no ATR fire; B: PC failed; C: three units SUPPRESSED
    do(game, "pass")
    assert game.label(afv.hex) == "1304"
    assert all(game.unit(f"german/{i}").morale == Morale.SUPPRESSED for i in ("37AT-1", "ATR-1", "E/R-PR8-1"))


def test_9_2_a_the_defensive_at_fire_takes_its_pc_as_normal_at_fire_10_12() -> None:
    """9.2 A: 'This fire is resolved as normal anti-tank fire (see FIRE COMBAT 10.0)'; 10.12: 'Any
    unit which attempts to fire must pass a PC.' A gun that fails rolls no AT dice, but has fired."""
    game = start()
    afv = tank(game)
    gun, _ = defenders(game, "37AT-1", "E/R-PR8-1")
    do(game, f"overrun {T34} 1304")
    with_dice(game, *[6] * 12)  # the PC fails (12); then 9.2 B's PC fails, C's dice
    do(game, "antitank german/37AT-1 1303")
    (pc,) = [e for e in events(game, "pc") if e["unit"] == gun.id]
    assert pc["for"] == "fire" and pc["rule"] == "10.12" and pc["check"].endswith("failed")
    assert not events(game, "overrun at fire") and gun.fired
    assert afv.on_map and game.label(afv.hex) == "1304" and not game.wrecks  # in, by 9.2 B and C


def test_9_31_the_accompanying_infantry_go_down_beside_the_wreck_not_suppressed() -> None:
    """9.31: 'If the AFV is destroyed the accompanying infantry are immediately placed in the DOWN
    state in the adjacent hex (with the Wreck marker). They have completed their move. They may
    Assault (17.0) normally in that Player Turn. The infantry are not affected by the special AT
    fire.'"""
    game = start()
    tank(game)
    riders = [place(game, f"russian/B/{i}", "1303") for i in ("R-PR9-1", "R-PR8-1", "R-PR7-1", "R-PR6-1")]
    defenders(game, "37AT-1")  # four men: no more than the four riflemen (9.3)
    do(game, combined(game))
    with_dice(game, 1, 1, 1, 1)  # the PC, then 12.33: all ones destroy
    do(game, "antitank german/37AT-1 1303")
    assert game.wrecks == {game.board.hex("1303")}
    for unit in riders:
        assert game.label(unit.hex) == "1303" and unit.state == State.DOWN and unit.morale == Morale.NORMAL
        assert unit.move_done and eligible(game, unit, game.board.hex("1304"))  # 17.0 normally
    assert not any(a.units and a.units[0] in {u.id for u in riders} for a in legal_actions(game))


# -- 9.2 B, 18.3 -----------------------------------------------------------------------------


def test_9_2_b_defensive_infantry_fire_men_commanders_ip_points_three_dice_wreck_in_the_hex() -> None:
    """9.2 B: 'Take a PC for the highest PR NORMAL status infantry unit ... Total the number of MEN
    ... Add to this total 1 for: each Tree symbol; each IP point; each NORMAL status commander ...
    The defending player rolls three dice ... If the total is less than or equal to the number
    from (2), the AFV is destroyed and a Wreck marker is placed in the overrun hex ... with no loss
    to the defenders.' 18.3: 'Each IP point adds one to the defensive infantry fire number.'"""
    game = start()
    afv = tank(game)
    rifle, commander, gun = defenders(game, "E/R-PR8-1", "PL-PR11", "ATR-1")
    gun.morale = Morale.PINNED  # not NORMAL: neither fires (A) nor counts (B)
    h = game.board.hex("1304")
    game.improved_positions[h] = 2
    assert infantry_fire_number(game, h, "german") == 2 + 1 + 2  # two men, the commander again, 2 IP points
    with_dice(game, 5, 6, 1, 2, 2)  # the commander's PC: 11 passes; 1+2+2 = 5 <= 5
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    (pc,) = events(game, "pc")
    assert pc["unit"] == commander.id and pc["rule"] == "9.2 B"
    (fire,) = events(game, "overrun infantry fire")
    assert fire["number"] == 5 and fire["destroyed"]
    assert not afv.on_map and game.wrecks == {h}
    assert rifle.morale == Morale.NORMAL and commander.morale == Morale.NORMAL  # no loss to the defenders
    assert game.active == () and not events(game, "overrun attack")


def test_9_2_b_a_failed_pc_goes_on_to_c() -> None:
    """9.2 B: 'If it is failed or there is no NORMAL status infantry unit, go to (C) below.'"""
    game = start()
    tank(game)
    defenders(game, "E/R-PR10-1")
    with_dice(game, 6, 5, 6, 6)  # 11 > PR 10; then C
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    assert not events(game, "overrun infantry fire") and len(events(game, "overrun attack")) == 1


# -- 9.2 C, 18.3, 18.4 -----------------------------------------------------------------------------


def test_9_2_c_at_most_the_overrun_factor_eliminates_else_suppressed_and_down() -> None:
    """9.2 C: 'For each defending unit the owning player rolls two dice ... If the total is less
    than or equal to the AFV's Overrun factor the unit is ELIMINATED. Otherwise, the unit is
    SUPPRESSED and placed in a DOWN state.'"""
    game = start()
    tank(game)
    first, second = defenders(game, "E/R-PR10-1", "E/R-PR8-1")
    with_dice(game, 6, 6, 3, 4, 4, 4)  # B: PC failed; C: 7 <= 7 eliminated, 8 > 7 SUPPRESSED
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    assert [e["total"] for e in events(game, "overrun attack")] == [7, 8]
    assert not first.on_map
    assert second.morale == Morale.SUPPRESSED and second.state == State.DOWN


def test_9_2_c_plus_one_if_all_pinned_or_suppressed_and_the_cumulative_table() -> None:
    """9.2 C: 'one if ALL the units in the hex are either PINNED or SUPPRESSED' (R141: as C begins);
    'The SUPPRESSED result is in addition to the current status of the unit' (11.45: S on S, the
    Special Roll). R142: a CW's E eliminates the whole unit."""
    game = start()
    tank(game)
    gun, pinned, suppressed = defenders(game, "37AT-1", "E/R-PR10-1", "E/R-PR8-1")
    gun.morale = pinned.morale = Morale.PINNED
    suppressed.morale = Morale.SUPPRESSED
    # no NORMAL gun (A) nor infantry (B); C: 6+1 = 7 the gun; 4+4+1 = 9 P -> S; 4+4+1, S on S: Special Roll
    with_dice(game, 3, 3, 4, 4, 4, 4, 6, 6)
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    assert [e["total"] for e in events(game, "overrun attack")] == [7, 9, 9]
    assert not gun.on_map and gun.men == 4  # eliminated whole, no crew rolls
    assert pinned.morale == Morale.SUPPRESSED
    assert not suppressed.on_map  # the Special Roll's PC (12 > 8) failed


def test_18_3_ip_points_and_trees_add_to_the_overrun_roll() -> None:
    """18.3: 'Each IP point adds ... one ... to the overrun resolution dice roll.' 9.2 C: 'one for
    each Tree symbol in the hex; one for each IP point in the hex'."""
    game = start()
    place(game, T34, "1405", 0)  # facing up, toward the woods of 1404 (3 Trees)
    (rifle,) = defenders(game, "E/R-PR8-1", label="1404")
    rifle.morale = Morale.SUPPRESSED  # no B; C: +1 all suppressed
    game.improved_positions[game.board.hex("1404")] = 1
    with_dice(game, 2, 2, 1, 1)  # 8.54: 4 > 3 Trees, not immobilized; C: 1+1 +3 Trees +1 IP +1 all suppressed
    do(game, f"overrun {T34} 1404")
    all_rolled(game)
    (attack,) = events(game, "overrun attack")
    assert attack["dice"] == [1, 1] and attack["total"] == 1 + 1 + 3 + 1 + 1 and attack["eliminated"]


def test_18_4_normal_units_in_an_ip_are_pinned_pinned_suppressed_suppressed_remain() -> None:
    """18.4: 'If a hex is overrun, NORMAL status units in IP's are not SUPPRESSED but are only PINNED
    instead. PINNED units are still SUPPRESSED and SUPPRESSED ones remain so.'"""
    game = start()
    tank(game)
    normal, pinned, suppressed = defenders(game, "E/R-PR10-1", "E/R-PR8-1", "E/MP-PR10-1")
    pinned.morale, suppressed.morale = Morale.PINNED, Morale.SUPPRESSED
    game.improved_positions[game.board.hex("1304")] = 1
    with_dice(game, 6, 6, 6, 6, 6, 6, 6, 6)  # B: the PC fails; C: three 13s; no Special Roll
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    assert normal.morale == Morale.PINNED and normal.state == State.DOWN
    assert pinned.morale == Morale.SUPPRESSED
    assert suppressed.on_map and suppressed.morale == Morale.SUPPRESSED and suppressed.state == State.DOWN


# -- 9.3, 9.32-9.34 ---------------------------------------------------------------------------------


def test_9_3_no_combined_overrun_against_more_men_the_afv_goes_on_alone() -> None:
    """9.3: 'The combined overrun may not be attempted if, at the moment the AFV is about to enter
    the overrun hex, that hex contains more men (not units) than there are overrunning infantry. In
    this case the infantry ends its movement in the adjacent hex and the AFV proceeds with its
    overrun.'"""
    game = start()
    afv = tank(game)
    rider = place(game, "russian/B/R-PR9-1", "1303")
    defenders(game, "E/R-PR10-1", "E/R-PR8-1")
    assert f"overrun {T34}+{rider.id} 1304" in texts(game)
    with_dice(game, 6, 6, 6, 6, 6, 6)  # B is not skipped: PC failed; C: both SUPPRESSED
    do(game, f"overrun {T34}+{rider.id} 1304")
    assert events(game, "no combined overrun")[0]["rule"] == "9.3"
    assert game.label(rider.hex) == "1303" and rider.move_done
    assert game.label(afv.hex) == "1304" and events(game, "pc")


def test_9_32_and_9_33_infantry_skip_b_stay_in_the_hex_and_assault_at_once() -> None:
    """9.32: 'Defensive infantry fire (9.2.B) is skipped when infantry units accompany the AFV into
    the overrun hex.' 9.33: 'If the AFV succeeds in the overrun, accompanying infantry units do not
    exit with the AFV, they remain in the overrun hex. If any SUPPRESSED enemy units are still in
    the hex the overrunning infantry conduct an IMMEDIATE assault (17.0) and the attackers do not
    take a PC to do so.' 9.34: 'Infantry units that perform an assault as part of the overrun are
    considered to have completed their participation in this Player Turn'."""
    game = start()
    game.first_shot = True  # PCs to move: the stack's are taken as it starts, none for the assault
    afv = tank(game)
    rider = place(game, "russian/B/R-PR9-1", "1303")
    (rifle,) = defenders(game, "E/R-PR10-1")
    with_dice(game, 2, 2, 2, 2, 5, 5, 1)  # movement PCs; C: 10 > 7 SUPPRESSED; 17.21 b: the rider's 1 hits
    do(game, f"overrun {T34}+{rider.id} 1304")
    all_rolled(game)
    assert [e["for"] for e in events(game, "pc")] == ["movement", "movement"]  # no B, no assault PC
    assert not rifle.on_map  # one hit on the only defender: eliminated (17.23)
    assert game.label(rider.hex) == "1304" and rider.state == State.DOWN and rider.move_done
    assert not eligible(game, rider, game.board.hex("1305"))  # 9.34: no assault in the Assault Phase
    assert rider.fired  # R145: nor fire
    assert game.active == (afv.id,) and f"move {T34} 1305" in texts(game)  # the AFV exits alone
    assert game.assault == {}  # nothing of it left for the Assault Phase's 17.32


def test_9_33_the_immediate_assault_asks_the_owner_for_his_losses() -> None:
    """9.33 and 17.23: 'The owning player decides which of his units he will remove from play.'"""
    game = start()
    tank(game)
    for rider in ("R-PR9-1", "R-PR8-1"):
        place(game, f"russian/B/{rider}", "1303")
    first, second = defenders(game, "E/R-PR10-1", "E/R-PR8-1")
    assert len(parse(combined(game)).units) == 3
    with_dice(game, 6, 6, 6, 6, 1, 6)  # C: both SUPPRESSED; 17.21 b: the riders, one hit
    do(game, combined(game))
    assert game.to_act == "german" and texts(game) == {f"remove {first.id}", f"remove {second.id}"}
    with_dice(game, 6, 1, 6, 6)  # 17.21 c: the survivor misses; 17.22; round 2 (17.0 e): he hits
    do(game, f"remove {second.id}")
    assert game.to_act == "russian" and "remove" in {a.verb for a in legal_actions(game)}


def test_24_23_hidden_units_are_revealed_then_the_overrun_is_offered_if_still_legal() -> None:
    """24.23: hidden units are placed on the map as an enemy unit is about to enter their hex; an
    overrun needs enemy units the AFV sees (9.0), none of them an AFV (9.13)."""
    game = start()
    afv = tank(game)
    (rifle,) = defenders(game, "E/R-PR8-1")
    h = game.board.hex("1304")
    game.secrets["german"].hidden_hexes.add(h)
    rifle.hidden = True
    game.units_changed()
    assert not any(a.verb == "overrun" for a in legal_actions(game))
    do(game, f"move {T34} 1304")  # nothing seen there: an ordinary move, and the reveal
    assert game.label(afv.hex) == "1303" and not rifle.hidden
    game.caches = {}
    assert f"overrun {T34} 1304" in texts(game)


def test_19_2_at_mines_attack_the_afv_after_the_resolution_before_it_leaves() -> None:
    """19.2: 'In an overrun, AT factors attack the AFV after the overrun resolution and before the
    AFV leaves the hex.'"""
    game = start()
    afv = tank(game)
    (rifle,) = defenders(game, "E/R-PR8-1")
    game.secrets["german"].mines[game.board.hex("1304")] = {"at": 4}
    with_dice(game, 6, 6, 6, 6, 1, 2)  # B: PC failed; C: SUPPRESSED; the mines: 3 <= 4
    do(game, f"overrun {T34} 1304")
    all_rolled(game)
    names = [e["event"] for e in game.log[-1]["events"]]
    assert names.index("overrun attack") < names.index("mine_attack")
    assert not afv.on_map and game.wrecks == {game.board.hex("1304")}
    assert rifle.morale == Morale.SUPPRESSED and game.active == ()


@pytest.mark.parametrize("seed", [1, 3, 4, 5])  # 2: an infantry unit moves first and ends the AFVs' turn (8.0)
def test_9_0_random_play_with_overruns_ends_and_no_afv_stays_in_an_enemy_hex(seed: int) -> None:
    """Random legal play from a position with overruns at hand (both tanks, a squad riding, guns,
    an IP and mines in some games): every game ends, and an AFV stands with enemy units only while
    it must exit the hex it overran (9.0) or is immobilized there (8.54, 8.55)."""
    import random

    game = start(seed)
    game.first_shot = seed % 2 == 1
    tank(game)
    place(game, BT7, "1203", DOWN_THE_ROAD)
    for rider in ("R-PR9-1", "R-PR8-1", "R-PR7-1"):
        place(game, f"russian/B/{rider}", "1303")
    defenders(game, "E/R-PR10-1", "37AT-1")
    defenders(game, "E/R-PR8-1", "ATR-1", label="1204")
    game.improved_positions[game.board.hex("1204")] = 2
    if seed > 2:
        game.secrets["german"].mines[game.board.hex("1304")] = {"at": 5, "ap": 2}
    chooser = random.Random(seed)
    overruns = 0
    while not game.is_over:
        actions = legal_actions(game)
        found = [a for a in actions if a.verb == "overrun"]
        action = chooser.choice(found) if found and chooser.random() < 0.95 else chooser.choice(actions)
        overruns += action.verb == "overrun"
        play(game, action)
        for unit in game.units.values():
            if unit.on_map and unit.is_afv and any(u.side != unit.side for u in game.at(unit.hex)):
                assert unit.immobilized or unit.extra.get("must_exit") == game.player_turns
    assert overruns > 0


def test_18_2_only_infantry_and_cws_benefit_from_an_ip_and_18_3_a_die_a_point() -> None:
    """18.2: 'Only infantry and CW units may benefit from IP's.' 18.3: 'Each IP point adds one extra
    die to enemy fire combat attacks against the IP hex.' (firing.ap_dice)"""
    from engine.game.firing import ap_dice

    game = start()
    rifle, gun, afv = defenders(game, "E/R-PR8-1", "37AT-1", "IIIe-1")
    game.improved_positions[game.board.hex("1304")] = 2
    bare = {u.id: ap_dice(game, u, moved=False)[0] for u in (rifle, gun, afv)}
    game.improved_positions.clear()
    without = {u.id: ap_dice(game, u, moved=False)[0] for u in (rifle, gun, afv)}
    assert bare[rifle.id] == without[rifle.id] + 2 and bare[gun.id] == without[gun.id] + 2
    assert bare[afv.id] == without[afv.id]  # an AFV: 11.34's dice only
