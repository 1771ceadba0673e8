"""Mines in play (19.0-19.27, 24.37: engine/game/mines.py), rule by rule with exact dice, on
tests/fixtures/game/overrun.yaml (Russian squad B, a commander, a T34b and a BT7m enter on turn 1
against German infantry, a 37AT, an ATR and a IIIe; no mines: each test lays its own by hand and
puts the units where it needs them, the T34b in 1303 facing down the road to 1304 and 1305), and
random play of tests/fixtures/game/minefield.yaml (the same forces, German minefields on the
Russian way in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.game import Action, legal_actions, new_game, parse, play
from engine.game.dice import ReplayMismatch
from engine.game.mines import ap_result, assault_detonation, infiltration_attack, overrun_detonation
from engine.game.state import MOVEMENT, GameState
from engine.game.views import SideLog, player_view
from engine.geometry.movement import Morale, State
from engine.hexgrid import DIRECTIONS
from engine.model.scenario import load_scenario
from engine.players import make_player
from tests.test_engine_overrun import place, start  # the Russian Movement Phase of turn 1, units by hand
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "game"
OVERRUN = load_scenario(FIXTURES / "overrun.yaml")
MINEFIELD = load_scenario(FIXTURES / "minefield.yaml")
T34 = "russian/T34b-1"
R9, R8, R7, R6 = (f"russian/B/R-PR{pr}-1" for pr in (9, 8, 7, 6))
DOWN_THE_ROAD = 3  # DIRECTIONS[3]: from 1303 toward 1304 and 1305


def mine(game: GameState, side: str, label: str, ap: int = 0, at: int = 0) -> None:
    game.secrets[side].mines[game.board.hex(label)] = {"ap": ap, "at": at}


def move(game: GameState, text: str) -> list[dict[str, Any]]:
    """Play one move; the events it made (the other side's answer, `pass`, after them)."""
    action = parse(text)
    assert action in legal_actions(game), f"{text} not in {[a.text() for a in legal_actions(game)][:30]}"
    play(game, action)
    events: list[dict[str, Any]] = game.log[-1]["events"]
    while game.interrupt is not None:
        play(game, Action("pass"))
    return events


def no_more_dice(game: GameState) -> None:
    with pytest.raises(ReplayMismatch):  # the dice given were all the dice rolled
        game.dice.roll(1)


def attacks(events: list[dict[str, Any]]) -> list[tuple[str, str, list[int], str]]:
    return [(e["unit"], e["type"], e["dice"], e["result"]) for e in events if e["event"] == "mine_attack"]


def stack(*ids: str) -> str:
    return "+".join(ids)


# -- 19.2 the instant a unit enters -----------------------------------------------------------


def test_19_2_a_unit_entering_from_off_the_map_detonates_before_the_other_side_answers() -> None:
    """19.2: 'During movement a mine detonation occurs the instant a player's unit (or stack) enters
    a mined hex.' A unit entering the map onto a mined entry hex detonates it on its entry; the
    detonation comes before the other side's answer to the move (the interrupt), and 8.22: 'Mine
    detonations (see MINES 19.0) do not count as combat for this purpose' (no first shot)."""
    game = start()
    mine(game, "german", "1201", ap=4)
    with_dice(game, 2)
    play(game, parse(f"move {R9} 1201"))
    events = game.log[-1]["events"]
    kinds = [e["event"] for e in events]
    assert kinds.index("entered_map") < kinds.index("mines") < kinds.index("mine_attack")
    assert attacks(events) == [(R9, "ap", [2], "S")]  # 2 <= 1/2 of 4
    assert game.interrupt is not None and game.to_act == "german"  # the answer comes after the mines
    no_more_dice(game)
    unit = game.unit(R9)
    assert (unit.morale, unit.state, unit.move_done) == (Morale.SUPPRESSED, State.DOWN, True)
    assert not game.first_shot and not game.shot_fired


def test_19_21_infantry_neither_detonate_nor_reveal_at_mines_the_enemys_or_their_own() -> None:
    """19.21: 'If enemy Infantry/CW units enter a friendly AT mined hex, the number of AT factors is
    NOT revealed to the enemy player NOR do they detonate. Infantry/CW units do not reveal their own
    AT mined hexes when they enter them.'"""
    game = start()
    mine(game, "german", "1304", at=7)
    mine(game, "russian", "1305", at=5)
    place(game, R9, "1303")
    with_dice(game)  # no dice at all
    events = move(game, f"move {R9} 1304") + move(game, f"move {R9} 1305")
    assert not [e for e in events if e["event"] in ("mines", "mine_attack")]
    assert game.revealed_mines == {}
    assert game.view("russian")["revealed_mines"] == {} == game.view("german")["revealed_mines"]
    assert "german" not in game.view("russian")["secrets"] and "russian" not in game.view("german")["secrets"]
    assert game.unit(R9).morale == Morale.NORMAL and not game.unit(R9).move_done


def test_19_22_any_unit_of_either_side_reveals_and_detonates_ap_mines() -> None:
    """19.22: 'If any type of unit belonging to either side enters ANY AP mined hex the number of
    factors is revealed and they are detonated': the enemy's and the mover's own."""
    game = start()
    mine(game, "german", "1304", ap=1)
    mine(game, "russian", "1305", ap=3, at=4)
    place(game, R9, "1303")
    place(game, R8, "1304")
    with_dice(game, 6, 3)
    first = move(game, f"move {R9} 1304")
    assert attacks(first) == [(R9, "ap", [6], "NE")]
    assert game.revealed_mines == {game.board.hex("1304"): {"ap": 1}}
    second = move(game, f"move {R8} 1305")
    assert attacks(second) == [(R8, "ap", [3], "P")]  # their own mines: 3 <= 3 factors
    assert game.revealed_mines[game.board.hex("1305")] == {"ap": 3}  # the AT factors stay secret (19.21)
    no_more_dice(game)


def test_19_23_an_afv_of_either_side_reveals_and_detonates_at_mines() -> None:
    """19.23: 'If an AFV unit belonging to either side enters ANY AT mined hex the number of factors
    is revealed and they are detonated.'"""
    game = start()
    mine(game, "german", "1304", at=7)
    mine(game, "russian", "1305", at=3)
    place(game, T34, "1303", DOWN_THE_ROAD)
    with_dice(game, 3, 5, 2, 1)
    first = move(game, f"move {T34} 1304")
    assert attacks(first) == [(T34, "at", [3, 5], "NE")]  # 8 > 7 factors
    assert game.view("russian")["revealed_mines"] == {"1304": {"at": 7}}
    assert game.view("german")["revealed_mines"] == {"1304": {"at": 7}}
    second = move(game, f"move {T34} 1305")  # its own side's mines
    assert attacks(second) == [(T34, "at", [2, 1], "destroyed")]
    assert game.unit(T34).where == "eliminated" and game.board.hex("1305") in game.wrecks
    no_more_dice(game)


@pytest.mark.parametrize(
    ("factors", "results"),
    [
        (1, ["E", "NE", "NE", "NE", "NE", "NE"]),
        (2, ["E", "P", "NE", "NE", "NE", "NE"]),
        (3, ["E", "S", "P", "NE", "NE", "NE"]),
        (4, ["E", "S", "P", "P", "NE", "NE"]),
    ],
)
def test_19_24_ap_results_by_fractions_of_the_factors_rounded_up(factors: int, results: list[str]) -> None:
    """19.24: 'a) 1/4 the number of AP mine factors or less, that unit is ELIMINATED. b) greater than
    1/4, but less than or equal to 1/2 the number of factors, the unit is SUPPRESSED. c) greater than
    1/2, but less than or equal to the number of factors, the unit is PINNED. d) more than the number
    of factors, the unit is not affected. All fractions are rounded up.'"""
    assert [ap_result(die, factors) for die in range(1, 7)] == results


def test_19_24_one_die_for_each_unit_of_the_stack_not_for_those_already_there() -> None:
    """19.24: 'If an Infantry/CW unit detonates an AP mined hex, one die is rolled for EACH
    Infantry/CW unit in the hex' (R113: each unit of the stack that enters; a unit already standing
    in the hex took its attack when it entered). Results as AP fire results (11.4)."""
    game = start()
    mine(game, "german", "1304", ap=4)
    for unit_id in (R9, R8, R7, R6):
        place(game, unit_id, "1303")
    standing = place(game, "russian/B/R-PR5-1", "1304")
    with_dice(game, 1, 2, 4, 5)
    events = move(game, f"move {stack(R9, R8, R7, R6)} 1304")
    assert attacks(events) == [(R9, "ap", [1], "E"), (R8, "ap", [2], "S"), (R7, "ap", [4], "P"), (R6, "ap", [5], "NE")]
    no_more_dice(game)
    assert game.unit(R9).where == "eliminated"
    assert [game.unit(i).morale for i in (R8, R7, R6)] == [Morale.SUPPRESSED, Morale.PINNED, Morale.NORMAL]
    assert standing.morale == Morale.NORMAL


def test_19_24_a_cw_eliminated_by_ap_mines_rolls_for_its_crew() -> None:
    """19.24: 'These results are applied to units in the same manner as in AP Fire Combat Results
    (11.4)': an E on a CW is its crew roll (11.43: two dice per crew member, 8 or less kills him)."""
    game = start()
    mine(game, "russian", "1208", ap=4)  # the German ATR's own hex, Russian mines (an assault's end)
    atr = game.unit("german/ATR-1")
    with_dice(game, 1, 5, 5, 1, 1)  # the mine die, then two dice for each of the two crew
    events = assault_detonation(game, game.board.hex("1208"), [atr])
    assert attacks(events) == [(atr.id, "ap", [1], "E")]
    assert atr.men == 1 and atr.morale == Morale.SUPPRESSED  # 5+5 survives, 1+1 is killed
    no_more_dice(game)


def test_19_25_an_at_attack_destroys_the_afv_and_suppresses_the_infantry_with_it() -> None:
    """19.25: 'If an AFV unit detonates an AT mined hex, two dice are rolled. If the result is equal
    to or less than the number of AT factors, the AFV is destroyed and replaced with a Wreck counter.
    Any infantry accompanying the destroyed AFV are immediately SUPPRESSED.'"""
    game = start()
    mine(game, "german", "1304", at=7)
    place(game, T34, "1303", DOWN_THE_ROAD)
    place(game, R9, "1303")
    place(game, R8, "1303")
    with_dice(game, 3, 4)
    events = move(game, f"move {stack(T34, R9, R8)} 1304")
    assert attacks(events) == [(T34, "at", [3, 4], "destroyed")]  # 7 <= 7
    no_more_dice(game)
    assert game.unit(T34).where == "eliminated" and game.board.hex("1304") in game.wrecks
    for unit_id in (R9, R8):
        unit = game.unit(unit_id)
        assert (unit.hex, unit.morale, unit.move_done) == (game.board.hex("1304"), Morale.SUPPRESSED, True)
    assert game.active == ()


def test_19_26_an_afv_on_ap_mines_rolls_nothing_its_infantry_are_attacked() -> None:
    """19.26: 'If an AFV detonates an AP mined hex, no dice are rolled. The number of AP factors is
    simply revealed. If infantry are moving with the AFV, they undergo an AP Mine Attack (19.24).'"""
    game = start()
    mine(game, "german", "1304", ap=4)
    place(game, T34, "1303", DOWN_THE_ROAD)
    with_dice(game)
    alone = move(game, f"move {T34} 1304")
    assert attacks(alone) == [] and game.revealed_mines == {game.board.hex("1304"): {"ap": 4}}
    assert game.active == (T34,)  # not attacked: it moves on
    play(game, Action("stop", (T34,)))
    bt7 = place(game, "russian/BT7m-1", "1204", DOWN_THE_ROAD)
    place(game, R9, "1204")
    assert bt7.hex is not None
    target = game.label_of(bt7.hex + DIRECTIONS[DOWN_THE_ROAD])
    mine(game, "german", target, ap=2)
    with_dice(game, 1)
    events = move(game, f"move {stack(bt7.id, R9)} {target}")
    assert attacks(events) == [(R9, "ap", [1], "E")]  # one die, the infantry's
    no_more_dice(game)
    assert game.active == (bt7.id,)  # the AFV goes on (19.27)


def test_19_27_only_units_normal_after_a_mine_attack_move_on() -> None:
    """19.27: 'Only units in NORMAL status after a mine attack may continue moving.' (R115)"""
    game = start()
    mine(game, "german", "1304", ap=4)
    for unit_id in (R9, R8):
        place(game, unit_id, "1303")
    with_dice(game, 3, 6)
    events = move(game, f"move {stack(R9, R8)} 1304")
    assert [e["unit"] for e in events if e["event"] == "stopped" and e.get("rule") == "19.27"] == [R9]
    assert game.active == (R8,)
    assert f"move {R8} 1305" in {a.text() for a in legal_actions(game)}
    assert not any(R9 in a.units for a in legal_actions(game))


def test_19_15_mines_are_never_depleted_every_entry_detonates_again() -> None:
    """19.15: 'Mines are never eliminated. The number of factors deployed in a hex is never depleted
    throughout the game regardless of whether they are detonated or not.'"""
    game = start()
    mine(game, "german", "1304", ap=4)
    place(game, R9, "1303")
    place(game, R8, "1303")
    with_dice(game, 6, 5)
    first = move(game, f"move {R9} 1304")
    play(game, Action("stop", (R9,)))
    second = move(game, f"move {R8} 1304")
    assert attacks(first) == [(R9, "ap", [6], "NE")] and attacks(second) == [(R8, "ap", [5], "NE")]
    assert game.secrets["german"].mines[game.board.hex("1304")] == {"ap": 4, "at": 0}
    no_more_dice(game)


# -- what a side knows --------------------------------------------------------------------------


def test_19_11_unrevealed_mines_stay_out_of_the_other_sides_view_and_legal_actions() -> None:
    """19.11: the mines are written down 'secretly': the mover's view and legal actions are the same
    with or without enemy mines until one detonates (R116: then both views show its factors)."""
    plain, mined = start(), start()
    for game in (plain, mined):
        place(game, R9, "1303")
        place(game, T34, "1203", DOWN_THE_ROAD)
    mine(mined, "german", "1304", ap=3, at=6)
    mine(mined, "german", "1204", at=4)
    assert mined.view("russian") == plain.view("russian")
    assert [a.text() for a in legal_actions(mined)] == [a.text() for a in legal_actions(plain)]
    with_dice(mined, 6)
    move(mined, f"move {R9} 1304")  # AP revealed, AT not (19.21)
    assert mined.view("russian")["revealed_mines"] == {"1304": {"ap": 3}} == mined.view("german")["revealed_mines"]
    assert "german" not in mined.view("russian")["secrets"]
    assert mined.view("german")["secrets"]["german"]["mines"]["1204"] == {"ap": 0, "at": 4}


# -- the other rules' detonations ------------------------------------------------------------------


def test_19_2_in_an_assault_ap_mines_attack_the_assaulting_units_after_the_resolution() -> None:
    """19.2: 'In an assault, the mine detonation occurs after the completion of the assault
    resolution' (assault.py calls assault_detonation): AP factors revealed and each unit attacked;
    AT factors stay hidden (19.21)."""
    game = start()
    mine(game, "german", "1304", ap=4, at=7)
    units = [place(game, R9, "1304"), place(game, R8, "1304")]
    with_dice(game, 1, 6)
    events = assault_detonation(game, game.board.hex("1304"), units)
    assert attacks(events) == [(R9, "ap", [1], "E"), (R8, "ap", [6], "NE")]
    assert game.revealed_mines == {game.board.hex("1304"): {"ap": 4}}
    no_more_dice(game)
    assert assault_detonation(game, game.board.hex("1305"), units) == []  # no mines there


def test_19_2_in_an_overrun_at_mines_attack_the_afv_after_the_resolution() -> None:
    """19.2: 'In an overrun, AT factors attack the AFV after the overrun resolution and before the AFV
    leaves the hex': an AFV entering to overrun (`extra["overrunning"]`) is not attacked as it enters;
    overrun_detonation attacks it."""
    game = start()
    mine(game, "german", "1304", at=5)
    afv = place(game, T34, "1303", DOWN_THE_ROAD)
    afv.extra["overrunning"] = True
    with_dice(game)
    assert attacks(move(game, f"move {T34} 1304")) == []
    with_dice(game, 2, 3)
    events = overrun_detonation(game, afv, game.board.hex("1304"))
    assert attacks(events) == [(T34, "at", [2, 3], "destroyed")]
    no_more_dice(game)


def test_24_37_infiltrators_on_ap_mines_undergo_a_normal_mine_attack_on_top_of_their_status() -> None:
    """24.37: 'Any infiltrating units placed on AP (only) mined hexes ... reveal the presence of the
    mine AFTER any hidden German units are revealed. Each Russian unit on such a hex is subject to a
    normal mine attack and any status result is in addition to the Infiltration Result' (11.45: a
    PINNED unit PINNED again is SUPPRESSED); AT factors play no part."""
    game = start()
    mine(game, "german", "1304", ap=4, at=7)
    mine(game, "german", "1305", at=7)
    pinned = place(game, R9, "1304")
    pinned.morale, pinned.state = Morale.PINNED, State.DOWN
    with_dice(game, 3)
    events = infiltration_attack(game, game.board.hex("1304"), [pinned])
    assert attacks(events) == [(R9, "ap", [3], "P")] and pinned.morale == Morale.SUPPRESSED
    assert infiltration_attack(game, game.board.hex("1305"), [place(game, R8, "1305")]) == []
    assert game.revealed_mines == {game.board.hex("1304"): {"ap": 4}}
    no_more_dice(game)


# -- whole games ---------------------------------------------------------------------------------


def test_random_play_of_a_scenario_with_minefields_never_crashes_nor_depletes_or_shows_them() -> None:
    """Random games of minefield.yaml end with a result; the mines stay as laid (19.15), the Russian
    view never holds a German mine not revealed, and mines do go off in some of them."""
    detonations = 0
    for seed in range(8):
        game = new_game(MINEFIELD, seed)
        laid = {h: dict(m) for h, m in game.secrets["german"].mines.items()}
        players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
        logs = {side: SideLog(side) for side in players}
        while not game.is_over:
            side = game.to_act
            play(game, players[side].choose(player_view(game, side, logs[side]), legal_actions(game)))
            view = game.view("russian")
            assert "german" not in view["secrets"]
            for label, shown in view["revealed_mines"].items():
                assert all(laid[game.board.hex(label)][kind] == n for kind, n in shown.items())
        assert game.result is not None
        assert game.secrets["german"].mines == laid
        detonations += sum(1 for line in game.log for e in line.get("events", []) if e["event"] == "mine_attack")
    assert detonations > 0


@pytest.mark.parametrize(("leader_die", "goes_on"), [(3, False), (1, True)])
def test_19_27_units_led_stop_with_their_leader_but_not_when_he_falls(leader_die: int, goes_on: bool) -> None:
    """19.27 with 8.3 B (units led 'remain with the leader throughout the entire movement') and 8.33
    ('If a leader moving with a stack becomes a casualty ... the group may continue its movement
    without him'), R115: a leader PINNED in the minefield holds his men there; one killed does not."""
    game = new_game(OVERRUN, 1, {"first_shot": True})
    while game.phase != MOVEMENT:
        play(game, Action("done"))
    leader = "russian/PL-PR10"
    place(game, leader, "1303")
    place(game, R9, "1303")
    mine(game, "german", "1304", ap=4)
    with_dice(game, 1, 1, leader_die, 6)  # the leader's PC (8.3 A), then a die for each of the two
    play(game, parse(f"lead {leader}"))
    events = move(game, f"move {stack(leader, R9)} 1304")
    no_more_dice(game)
    assert attacks(events)[1] == (R9, "ap", [6], "NE")
    assert game.unit(R9).move_done is not goes_on
    assert game.active == ((R9,) if goes_on else ())


def test_19_27_a_unit_stopped_in_a_hex_it_over_fills_does_not_hold_the_phase_for_ever() -> None:
    """19.27 against 8.62 ('At the end of any friendly Movement Phase ... no more than six men plus
    one AFV in a hex'), R115: a unit PINNED by mines in a hex it was passing through (R89) stays
    there; `done` is refused while a unit in that hex may still move out, and offered once none may."""
    game = start()
    standing = ["russian/B/LMG-PR8-1", "russian/B/LMG-PR7-1", R8, R7, R6, "russian/B/R-PR5-1"]
    for unit_id in standing:
        place(game, unit_id, "1304")
    place(game, R9, "1303")
    mine(game, "german", "1304", ap=4)
    with_dice(game, 3)
    move(game, f"move {R9} 1304")
    assert game.unit(R9).move_done and game.unit(R9).morale == Morale.PINNED
    assert Action("done") not in legal_actions(game)  # the six standing there may still move out
    for unit_id in standing:
        game.unit(unit_id).move_done = True
    game.caches = {}
    assert Action("done") in legal_actions(game)
