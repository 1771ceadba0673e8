"""Scenario play (24.1) and hidden hexes (24.2) in the rules engine, rule by rule: the open duel
(tests/fixtures/game/duel-open.yaml: the duel without its `setup:`, so the German player places
his units south of row 4), the duel with its set-up (one hidden hex, 1207, holding squad C's LMG),
and Scenario 6's limited entry (R15) and entries chosen before play."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.game import Action, IllegalAction, legal_actions, new_game, parse, play, setup
from engine.game.state import ENTRY_CHOICE, MORALE, MOVEMENT, SETUP, GameState
from engine.game.steps import open_entry_hexes
from engine.game.units import Unit
from engine.geometry.movement import Morale, State
from engine.hexgrid import DIRECTIONS, Hex
from engine.model.scenario import load_scenario
from engine.validate.checks import setup_deployment_cap
from tests.test_engine_rules import REPO, do, german_movement, start, texts, to_phase
from tests.test_scenario_format2 import example, problems

OPEN = load_scenario(REPO / "tests" / "fixtures" / "game" / "duel-open.yaml")
S6 = load_scenario(REPO / "scenarios" / "s6-spartakovka.yaml")


def label_set(game: GameState, hexes: Iterable[Hex]) -> set[str]:
    return {game.label_of(h) for h in hexes}


def first_or_done(game: GameState) -> None:
    actions = legal_actions(game)
    play(game, Action("done") if Action("done") in actions else actions[0])


# -- 24.1 the set-up -----------------------------------------------------------------------------------


def test_24_1_units_are_placed_only_in_their_deployment_area() -> None:
    """24.1: 'The set-up instructions for each side indicate which side places its units on the map
    first, whether there are any hidden hexes, unit deployment restrictions'. The duel: the German
    group deploys south of row 4."""
    game = new_game(OPEN, 1)
    assert game.phase == SETUP and game.to_act == "german"  # sets_up_first
    area = label_set(game, game.zone_hexes("german-area"))
    places = {a.arg for a in legal_actions(game) if a.verb == "place"}
    assert places == area and all(int(label[2:]) > 4 for label in places)
    with pytest.raises(IllegalAction, match=r"24\.1"):
        play(game, parse("place german/C/MP-PR9-1 1302"))
    assert Action("done") not in legal_actions(game)  # every deploying unit is placed first


def test_8_62_a_set_up_hex_is_offered_while_it_takes_the_unit() -> None:
    """8.62: 'a player may have no more than six men plus one AFV in a hex' (and two CWs, 8.63),
    in the set-up too. Scenario 6's units each placed in the first hex offered, so that hexes
    fill: the listing, which asks the limit only of the hexes units stand in, offers exactly the
    deployment hexes that take the unit when each is asked on its own."""
    game, refused = new_game(S6, 1), 0
    while (actions := legal_actions(game))[0].verb in ("place", "face"):
        if actions[0].verb == "place":
            unit = game.unit(actions[0].units[0])
            standing = setup._standing(game, unit)
            each = [game.label_of(h) for h in standing if setup._may_place(game, unit, h)]
            assert [a.arg for a in actions if a.verb == "place"] == each
            refused += len(each) < len(standing)
        play(game, actions[0])
    assert refused >= 10 and game.phase == SETUP


def test_24_1_a_unit_that_faces_a_hexside_is_placed_with_its_facing() -> None:
    """8.7: 'Only ATG's, MG's (both MMG and LMG) and AFV's must face a hexside': placed, it faces."""
    game = new_game(OPEN, 1)
    while not any(a.units == ("german/C/LMG-PR10-1",) for a in legal_actions(game)):
        first_or_done(game)
    play(game, parse("place german/C/LMG-PR10-1 1306"))
    assert {a.verb for a in legal_actions(game)} == {"face"} and len(legal_actions(game)) == 6


def setup_s6_russians(seed: int = 1) -> GameState:
    game = new_game(S6, seed)
    while game.to_act == "russian" and game.phase == SETUP:
        first_or_done(game)
    return game


HOLD = ("german/A/MP-PR10-1", "german/A/R-PR9-1", "german/PL-PR11", "german/MMG-1", "german/IIIe-1", "german/IIIe-2")


def test_24_1_r15_units_held_for_a_limited_entry_instead_of_deploying() -> None:
    """Scenario 6: 'SPECIAL: One squad, one commander, one MMG and two AFV's from Group 1 may enter
    on the west mapedge of Map 2 on turn 1, instead of deploying as in 2 above.' (R15)"""
    game = setup_s6_russians()
    held: list[str] = []
    offered: dict[str, bool] = {}
    while game.phase == SETUP:
        actions = legal_actions(game)
        unit = actions[0].units[0] if actions[0].verb == "place" else None
        hold = next((a for a in actions if a.verb == "hold"), None)
        if unit is not None:
            offered[unit] = hold is not None
        if hold is not None and unit in HOLD:
            held.append(unit)
            play(game, hold)
        else:
            first_or_done(game)
    assert offered["german/A/R-PR9-1"]  # the rest of the squad held goes with it
    assert not offered["german/B/MP-PR10-1"] and not offered["german/C/MP-PR9-1"]  # one squad
    assert not offered["german/PS-PR10"] and not offered["german/MMG-2"]  # one commander, one MMG
    assert not offered["german/50AT-1"]  # an MMG only
    assert offered["german/IIIe-2"] and not offered["german/IVd-1"]  # two AFVs
    assert set(held) == game.held
    assert all(game.unit(i).where == "waiting" for i in held)
    assert game.phase == ENTRY_CHOICE
    play(game, parse("entry german 1 0"))
    german_movement(game)  # turn 1: the Germans move first
    special = label_set(game, game.zone_hexes("german-group-1-special-entry"))
    entering = {a.arg for a in legal_actions(game) if a.verb == "move" and a.units == ("german/MMG-1",)}
    assert entering and entering <= special
    assert game.unit("german/MMG-2").on_map  # not held: deployed
    assert not any(a.units == ("german/E/MP-PR10-1",) for a in legal_actions(game))  # group 2: turn 4


def test_24_1_an_entry_chosen_before_play_is_the_only_one_open() -> None:
    """Scenario 6: 'Group 2 enters on turn 4 on the north mapedge of Map 2 or on the south mapedge,
    west of hex 3901. Choose before the game begins.'"""
    game = setup_s6_russians()
    while game.phase == SETUP:
        first_or_done(game)
    assert game.phase == ENTRY_CHOICE and texts(game) == {"entry german 1 0", "entry german 1 1"}
    play(game, parse("entry german 1 1"))
    assert game.phase == MORALE and game.turn == 1
    unit = game.unit("german/E/MP-PR10-1")
    game.turn, game.phase, game.phasing = 4, MOVEMENT, "german"
    assert open_entry_hexes(game, unit) == game.zone_hexes("german-group-2-entry-south")
    game.entry_choice[("german", 1)] = 0
    assert open_entry_hexes(game, unit) == game.zone_hexes("german-group-2-entry-north")
    game.turn = 3
    assert open_entry_hexes(game, unit) == frozenset()  # 'on turn 4'


# -- 24.2 hidden hexes ---------------------------------------------------------------------------------


def placed_open(game: GameState, where: dict[str, str]) -> GameState:
    """The open duel's German set-up with units placed where `where` says (the rest first choice)."""
    while game.to_act == "german" and game.phase == SETUP:
        actions = legal_actions(game)
        if actions[0].verb == "place" and actions[0].units[0] in where:
            play(game, parse(f"place {actions[0].units[0]} {where[actions[0].units[0]]}"))
        elif actions[0].verb in ("place", "face"):
            play(game, actions[0])
        else:
            return game
    return game


def test_24_21_hidden_hexes_come_from_the_deployment_area_and_hold_no_afv() -> None:
    """24.21: 'Hidden hexes may only be selected from that area of the map in which the player is
    permitted to deploy. Stacking restrictions apply to the units deployed in the hidden hexes. AFV's
    may not be deployed in hidden hexes.'"""
    game = placed_open(new_game(OPEN, 1), {"german/IIIe-1": "1508", "german/ATR-1": "1108"})
    hides = {a.arg for a in legal_actions(game) if a.verb == "hide"}
    occupied = {game.label(u.hex) for u in game.side_units("german") if u.on_map}
    assert hides == occupied - {"1508"} and "1108" in hides
    assert hides <= label_set(game, game.zone_hexes("german-area"))
    play(game, parse("hide 1108"))
    assert game.unit("german/ATR-1").hidden
    assert not any(a.verb == "hide" for a in legal_actions(game))  # the scenario gives one
    assert "german" not in game.view("russian")["secrets"]


def test_24_22_the_owner_may_reveal_a_hidden_hex_in_the_morale_phase() -> None:
    """24.22: 'Units deployed in hidden hexes are not revealed until ... They are voluntarily
    revealed by the owning player.'"""
    game = start()
    lmg = game.unit("german/C/LMG-PR10-1")
    while not (game.phase == MORALE and game.to_act == "german"):
        play(game, Action("done"))
    do(game, "reveal 1207")
    assert not lmg.hidden and game.secrets["german"].hidden_hexes == set()
    assert "german/C/LMG-PR10-1" in {u["id"] for u in game.view("russian")["units"]}


def test_24_22_a_friendly_unit_moving_into_the_hidden_hex_reveals_it() -> None:
    """24.22: 'If any unit (friendly or enemy) moves into or out of the hidden hex, all units in the
    hex are revealed.'"""
    game = german_movement(start())
    do(game, "move german/C/R-PR9-1 1207")
    assert not game.unit("german/C/LMG-PR10-1").hidden
    assert game.secrets["german"].hidden_hexes == set()


@pytest.mark.parametrize(("morale", "revealed"), [("normal", True), ("pinned", False)])
def test_24_22_a_normal_enemy_unit_adjacent_at_the_morale_phase_reveals_it(morale: str, revealed: bool) -> None:
    """24.22: 'If a NORMAL status enemy unit begins its Morale Phase in a hex adjacent to a hidden
    hex, all units in the hex are revealed.'"""
    game = to_phase(start(), MOVEMENT)
    russian = game.unit("russian/PL-PR10")
    game.relocate(russian, "on_map", game.board.hex("1206"))  # next to 1207
    russian.morale = Morale(morale)
    if morale != "normal":
        russian.state = State.DOWN
    while game.phase != MORALE:
        play(game, Action("done"))
    assert game.unit("german/C/LMG-PR10-1").hidden is not revealed
    events = [e for e in game.log[-1]["events"] if e.get("event") == "revealed"]
    assert bool(events) is revealed


def test_24_23_an_enemy_about_to_enter_reveals_the_hidden_hex_and_does_not_enter_r88() -> None:
    """24.23: 'If an enemy unit is about to enter a hidden hex, the units hidden there are
    immediately placed on the map.' R88: the move is not made; the mover keeps its MPs."""
    game = to_phase(start(), MOVEMENT)
    russian = game.unit("russian/PL-PR10")
    game.relocate(russian, "on_map", game.board.hex("1206"))
    game.caches = {}
    assert "move russian/PL-PR10 1207" in texts(game)  # the Russian cannot know
    do(game, "move russian/PL-PR10 1207")
    assert game.label(russian.hex) == "1206" and russian.mp_spent == 0
    assert not game.unit("german/C/LMG-PR10-1").hidden
    assert "move russian/PL-PR10 1207" not in texts(game)  # 8.23: now a visible enemy's hex
    assert any(a.units == (russian.id,) and a.verb == "move" for a in legal_actions(game))  # and it goes on


# -- 24.1 a deployment's cap (R83) ---------------------------------------------------------------------


HILL_P = load_scenario(REPO / "scenarios" / "examples" / "hill-p-counterattack.yaml")


def test_24_1_a_deployment_cap_holds_in_play_as_in_the_validator(tmp_path: Path) -> None:
    """24.1: 'unit deployment restrictions'; the example's 'No more than one LMG and any two Rifle
    units of Squad E may deploy on Hill P; the rest deploy beside it' (R83). Each member is placed on
    the hill while the engine offers it: one LMG, both R and the MP go there; the other LMG is not
    offered the hill and is refused it with the rule; the validator, counting with the same
    function, finds the engine's set-up within the cap and one more LMG on the hill over it."""
    game = new_game(HILL_P, 1)
    hill = game.zone_hexes("hill-p")
    assert setup.cap_excess is setup_deployment_cap.cap_excess
    placed, refused = [], []
    while any(a.verb in ("place", "face") for a in legal_actions(game)):
        actions = legal_actions(game)
        if actions[0].verb == "face":
            play(game, actions[0])
            continue
        unit = game.unit(actions[0].units[0])
        on_hill = [a for a in actions if a.verb == "place" and game.board.hex(a.arg) in hill]
        if unit.squad == "E" and not on_hill:
            label = next(game.label_of(h) for h in sorted(hill) if not game.at(h))
            with pytest.raises(IllegalAction, match=r"in hill-p: the deployment's limit allows \d \(24\.1, R83\)"):
                play(game, parse(f"place {unit.id} {label}"))
            refused.append(unit.type)
        play(game, (on_hill or actions)[0])
        placed.append(unit.id)
    members = [game.unit(i) for i in placed if game.unit(i).squad == "E"]
    assert sorted(u.type for u in members if u.hex in hill) == ["LMG", "MP", "R", "R"]
    assert [u.type for u in members if u.hex not in hill] == refused == ["LMG"]

    def entry(unit: Unit) -> dict[str, Any]:
        assert unit.hex is not None
        facing = {"facing": game.label_of(unit.hex + DIRECTIONS[unit.facing])} if unit.facing is not None else {}
        return {"squad": "E", "member": f"{unit.type} PR{unit.pr}", "hex": game.label_of(unit.hex), **facing}

    data = example()
    data["setup"] = {"german": {"units": [entry(u) for u in members]}}
    assert [p for p in problems(data, tmp_path) if p.code == "setup-deployment-cap"] == []
    lmg = next(
        e
        for e in data["setup"]["german"]["units"]
        if e["member"].startswith("LMG") and game.board.hex(e["hex"]) not in hill
    )
    lmg["hex"] = next(e["hex"] for e in data["setup"]["german"]["units"] if e["member"].startswith("MP"))
    found = [p.message for p in problems(data, tmp_path) if p.code == "setup-deployment-cap"]
    assert [m.split(" deploy")[0] for m in found] == ["2 LMG units"]


def at_the_mines(tmp_path: Path, ap_factors: int, at_factors: int) -> GameState:
    """A game of the example with the German's mine allowance given, at his first mine decision (19.11)."""
    data = example()
    data["sides"]["german"]["mines"] = {"ap_factors": ap_factors, "at_factors": at_factors}
    path = tmp_path / "mined.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    game = new_game(load_scenario(path), 1)
    while not any(a.verb == "mine" for a in legal_actions(game)):
        play(game, legal_actions(game)[0])
    return game


def test_19_12_no_at_placement_leaves_a_last_factor_no_hex_may_take(tmp_path: Path) -> None:
    """19.12: 'A maximum of four AP and seven AT factors may be placed in a mined hex. A hex mined
    with AT factors must have AT LEAST two factors in the hex.' With 15 AT factors, 7 in one hex and
    6 in another, a seventh there would leave one that no hex may take: it is not offered, a new
    hex (two factors) is, and all 15 are laid."""
    game = at_the_mines(tmp_path, ap_factors=0, at_factors=15)
    for label, times in (("6001", 6), ("6002", 5)):  # 2 + 5 = 7; 2 + 4 = 6
        for _ in range(times):
            play(game, parse(f"mine at {label}"))
    offered = texts(game)
    assert "mine at 6002" not in offered and "mine at 6003" in offered
    with pytest.raises(IllegalAction, match=r"leave 1 AT factor that no mined hex has room for \(19\.12\)"):
        play(game, parse("mine at 6002"))
    while any(a.verb == "mine" for a in legal_actions(game)):
        play(game, next(a for a in legal_actions(game) if a.verb == "mine"))
    assert sum(m["at"] for m in game.secrets["german"].mines.values()) == 15


def test_19_12_mine_factors_laid_on_a_copy_leave_the_originals_hex_as_it_was(tmp_path: Path) -> None:
    """19.12: 'A hex mined with AT factors must have AT LEAST two factors in the hex.' A copy shares
    the original's mined hexes (docs/engine.md, Speed): factors laid in one of them on the copy are
    counted on the copy only."""
    game = at_the_mines(tmp_path, ap_factors=2, at_factors=4)
    play(game, parse("mine at 6001"))
    twin = game.copy()
    play(twin, parse("mine at 6001"))
    play(twin, parse("mine ap 6001"))
    h = game.board.hex("6001")
    assert game.secrets["german"].mines[h] == {"ap": 0, "at": 2}
    assert twin.secrets["german"].mines[h] == {"ap": 1, "at": 3}
