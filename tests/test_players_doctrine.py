"""The heuristic's doctrine where the rules give it a choice a wargamer weighs: overrunning a hex
with guns in it (9.0, 9.2 A), pushing a Wreck out of the way (8.65), and the search's rule for
overruling the doctrine (R330), and infiltrating clear of where hidden hexes may be (24.35)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.game import Action, legal_actions, new_game, play
from engine.game.infiltration import INFILTRATION
from engine.game.state import GameState
from engine.game.views import player_view
from engine.geometry.movement import Morale
from engine.hexgrid import hex_distance, parse_label
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.players import HeuristicPlayer, SearchPlayer, heuristic
from engine.players.knowledge import hiding_hexes
from tests.test_engine_overrun import OVERRUN_SCENARIO, T34, defenders, start, tank
from tests.test_engine_rules import german_movement
from tests.test_engine_rules import start as duel
from tests.test_engine_wrecks import AFV, wrecked

REPO = Path(__file__).resolve().parent.parent


def russian_choice(game: GameState) -> Action:
    player = HeuristicPlayer(1)
    player.begin(OVERRUN_SCENARIO, "russian")
    return player.decide(game, "russian", legal_actions(game))


def test_9_2_a_the_heuristic_overruns_infantry_and_an_atr_but_not_a_gun_that_would_kill_it() -> None:
    """9.2 A: 'all NORMAL status ATR and ATG units in the hex may fire at the AFV unit ... directed
    at the AFV's frontal armor' (R331: a chance of 10% at most): the T34b (front 7) overruns squad E
    with the ATR (AT 8: 2 dice + 7 <= 8 one time in 36, its PC passed 5 times in 6: 2%), not the
    37AT (AT 11: 2 dice + 7 <= 11 one time in six: 14%), unless the gun is PINNED and may not fire."""
    overrun = Action("overrun", (T34,), "1304")
    game = start()
    tank(game)
    defenders(game, "E/R-PR8-1", "ATR-1")
    assert russian_choice(game) == overrun
    game = start()
    tank(game)
    gun, _ = defenders(game, "37AT-1", "E/R-PR8-1")
    assert russian_choice(game) != overrun
    gun.morale = Morale.PINNED
    game.caches = {}
    assert russian_choice(game) == overrun


def test_9_2_a_the_heuristic_defender_fires_its_guns_at_the_overrunning_afv() -> None:
    """9.2 A: the guns 'may fire at the AFV unit ... regardless of the firing unit's facing or if it
    has already fired' (R331): the German heuristic fires the ATR, a 2% chance against the T34b's
    front, rather than let the AFV in unopposed (it attacks every defender next, 9.2 C)."""
    game = start()
    tank(game)
    defenders(game, "ATR-1", "E/R-PR8-1")
    play(game, Action("overrun", (T34,), "1304"))
    player = HeuristicPlayer(1)
    player.begin(OVERRUN_SCENARIO, "german")
    assert player.decide(game, "german", legal_actions(game)) == Action("antitank", ("german/ATR-1",), "1303")


def test_r330_the_search_overrules_the_heuristic_only_where_every_draw_agrees_by_the_margin() -> None:
    """R330: with few draws most of a difference is the dice of the horizon; the heuristic's own
    choice stands unless another is better in every draw and by MARGIN on average."""
    own, other, third = Action("done"), Action("pass"), Action("move", ("x",), "0101")
    settle = SearchPlayer._settle
    assert settle(own, {own: [0.0, 0.0], other: [5.0, -0.1]}) == own  # better on average, not in every draw
    assert settle(own, {own: [0.0, 0.0], other: [0.5, 0.5]}) == own  # better in each, by less than the margin
    assert settle(own, {own: [0.0, 0.0], other: [1.5, 1.0], third: [3.0, 2.0]}) == third


def test_8_65_the_heuristic_pushes_a_wreck_only_where_no_move_brings_the_afv_nearer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8.65: 'To push a Wreck, an AFV must spend its entire Movement Phase ... in a hex adjacent to
    the Wreck' (R332): worth it only where the Wreck stands between the AFV and its goal and no
    move brings it nearer. The duel's IIIe in 1307 faces the Wreck in 1306, its goal 1305 beyond."""
    game = wrecked(german_movement(duel()))
    player = HeuristicPlayer(1)
    player.begin(game.scenario, "german")
    know = player._know()
    know.occupy = know.objectives = frozenset({game.board.hex("1305")})
    know.to_objective = {h: hex_distance(h, game.board.hex("1305")) for h in game.board.hexes}
    push = Action("push", (AFV,), "1306")
    assert push in legal_actions(game)
    assert not player._blocked(game, push)  # it may drive round the Wreck
    monkeypatch.setattr(heuristic, "paths", lambda game, stack: {})  # now no way round
    assert player._blocked(game, push)
    assert player.decide(game, "german", [push, Action("done")]) == push


@pytest.mark.slow  # two Knowledges of Scenario 2 and its set-up: some 2-5 s
def test_24_35_the_heuristic_does_not_infiltrate_where_a_german_hidden_hex_may_be() -> None:
    """24.35: 'If the Infiltration Hex is also a German hidden hex ... the infiltration mission
    automatically fails'; 24.21: hidden hexes 'may only be selected from that area of the map in
    which the player is permitted to deploy'. Scenario 2's Russian may infiltrate the German's
    buildings south of the road (the nearest hexes to the objectives), but does not: it picks a
    hex outside the German's deployment zones, public knowledge, whatever the German hid."""
    scenario = load_scenario(REPO / "scenarios" / "s2-khristishche.yaml")
    scenario = dataclasses.replace(scenario, data={k: v for k, v in scenario.data.items() if k != "setup"})
    game = new_game(scenario, 3)
    players = {side: HeuristicPlayer(n) for n, side in enumerate(SIDES)}
    for side, player in players.items():
        player.begin(scenario, side)
    while game.phase != INFILTRATION:
        play(game, players[game.to_act].decide(game, game.to_act, legal_actions(game)))
    actions = legal_actions(game)
    hiding = hiding_hexes(game, "german")
    assert any(parse_label(a.arg, game.board.offset) in hiding for a in actions if a.verb == "infiltrate")
    choice = players["russian"].choose(player_view(game, "russian"), actions)
    assert choice.verb == "infiltrate" and parse_label(choice.arg, game.board.offset) not in hiding
