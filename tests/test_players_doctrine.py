"""The heuristic's doctrine where the rules give it a choice a wargamer weighs: overrunning a hex
with guns in it (9.0, 9.2 A), pushing a Wreck out of the way (8.65), and the search's rule for
overruling the doctrine (R330), its evaluation's weighing of losses (R372), what it weighs for a
side that must only clear a zone (R374) and when a side with less to lose searches (R375),
infiltrating clear of where hidden hexes may be (24.35), keeping the fire of units that should
move on (8.21, R360), hunting hidden units in a zone to clear (24.22, R361), and moving the DOWN
units a leader led (8.3 B)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from engine.game import Action, legal_actions, new_game, play
from engine.game.determinize import determinize
from engine.game.firing import FIRE_PHASES
from engine.game.infiltration import INFILTRATION
from engine.game.state import MOVEMENT, MOVING_FIRE, SUPPORT_FIRE, GameState, other
from engine.game.units import ON_MAP
from engine.game.views import View, player_view
from engine.geometry.movement import Morale, State
from engine.hexgrid import hex_distance, parse_label
from engine.model.counters import SIDES
from engine.model.scenario import Scenario, load_scenario
from engine.players import HeuristicPlayer, SearchPlayer, heuristic, search
from engine.players.heuristic import Knobs
from engine.players.knowledge import FAR, hiding_hexes
from engine.players.match import play_out
from engine.players.search import _keyed_play
from tests.test_engine_fire import FIRE, away, game_at, put
from tests.test_engine_overrun import OVERRUN_SCENARIO, T34, defenders, start, tank
from tests.test_engine_rules import german_movement, with_dice
from tests.test_engine_rules import start as duel
from tests.test_engine_wrecks import AFV, wrecked

REPO = Path(__file__).resolve().parent.parent


def russian_choice(game: GameState) -> Action:
    player = HeuristicPlayer(1)
    player.begin(OVERRUN_SCENARIO, "russian")
    return player.decide(game, "russian", legal_actions(game))


def heuristics_at(
    name: str, seed: int, given_setup: bool = True
) -> tuple[Scenario, GameState, dict[str, HeuristicPlayer]]:
    """A bundled scenario's new game (without its test `setup:` unless `given_setup`: the players
    set up, R265) and a heuristic for each side, told the scenario."""
    scenario = load_scenario(REPO / "scenarios" / f"{name}.yaml")
    if not given_setup:
        scenario = dataclasses.replace(scenario, data={k: v for k, v in scenario.data.items() if k != "setup"})
    players = {side: HeuristicPlayer(n) for n, side in enumerate(SIDES)}
    for side, player in players.items():
        player.begin(scenario, side)
    return scenario, new_game(scenario, seed), players


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


def test_r372_the_search_weighs_a_loss_by_the_share_of_its_sides_force() -> None:
    """R372: a rifle of a side weighs, in the search's evaluation, the mean of both forces over its
    own at the start. Scenario 1's German starts with 10.5 rifles of worth, the Russian with 26: a
    German rifle PINNED (3.22: worth 0.8 of itself) costs the German 26 / 10.5 times what a Russian
    rifle PINNED gains him, and the Russian the same."""
    scenario = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")
    game = new_game(scenario, 1)
    search = SearchPlayer(1)
    search.begin(scenario, "german")
    rifle = {s: next(u for u in game.side_units(s) if u.kind == "infantry") for s in SIDES}
    start = {s: search.evaluate(game, s) for s in SIDES}
    change = {}
    for side, unit in rifle.items():
        unit.morale = Morale.PINNED
        change[side] = {s: search.evaluate(game, s) - start[s] for s in SIDES}
        unit.morale = Morale.NORMAL
    assert change["german"]["german"] < 0 < change["russian"]["german"]
    assert -change["german"]["german"] / change["russian"]["german"] == pytest.approx(26 / 10.5)
    assert change["german"]["russian"] == pytest.approx(-change["german"]["german"])
    assert search.share["german"] * 10.5 == pytest.approx(search.share["russian"] * 26)


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
    _, game, players = heuristics_at("s2-khristishche", 3, given_setup=False)
    while game.phase != INFILTRATION:
        play(game, players[game.to_act].decide(game, game.to_act, legal_actions(game)))
    actions = legal_actions(game)
    hiding = hiding_hexes(game, "german")
    assert any(parse_label(a.arg, game.board.offset) in hiding for a in actions if a.verb == "infiltrate")
    choice = players["russian"].choose(player_view(game, "russian"), actions)
    assert choice.verb == "infiltrate" and parse_label(choice.arg, game.board.offset) not in hiding


def s5_german() -> tuple[GameState, HeuristicPlayer]:
    """Scenario 5 before its set-up (the players set up, R265), and the German heuristic."""
    scenario = load_scenario(REPO / "scenarios" / "s5-through-the-marshes.yaml")
    scenario = dataclasses.replace(scenario, data={k: v for k, v in scenario.data.items() if k != "setup"})
    player = HeuristicPlayer(1)
    player.begin(scenario, "german")
    return new_game(scenario, 1), player


def test_r361_the_heuristic_hunts_where_hidden_units_may_be_in_a_zone_it_must_clear() -> None:
    """24.8, Scenario 5: the German wins if 'no Russian units on any of the bridge hexes ... and no
    Russian units on any of the Hills'; 24.22: hidden units are revealed to a NORMAL enemy unit next
    to them (or one entering). Seeing no Russian there, the German goes for the zone's hexes where a
    hidden hex may be (the Russian's deployment area, 24.21) that none of his units stands in or
    next to yet (R361), not for the nearest hex of the zone to hold it; a Russian seen there is the
    goal before any of them."""
    game, player = s5_german()
    know = player._know()
    hill, far = game.board.hex("6020"), game.board.hex("5901")
    assert {hill, far} <= know.hunt
    assert know.goals(game)[hill] == know.goals(game)[far] == 0
    game.relocate(game.unit("german/A/R-PR8-1"), ON_MAP, hill)
    game.caches = {}
    goals = know.goals(game)
    assert goals[hill] > 0 and all(goals[n] > 0 for n in game.board.neighbours(hill))
    assert goals[far] == 0
    game.relocate(game.unit("russian/BT7m-1"), ON_MAP, game.board.hex("6804"))
    game.caches = {}
    goals = know.goals(game)
    assert goals[game.board.hex("6804")] == 0 and goals[far] > 0


def test_r360_a_unit_that_should_move_on_keeps_its_fire_in_the_support_fire_phase() -> None:
    """8.21: 'Any of the Phasing Player's units that fired in the Support Fire Phase may not move in
    the Movement Phase' (R360): the Russian rifle in 1210 fires at the German in 1212 when its goal is
    next to it (1209), but keeps its fire to move on when its goal is far (1225); in the Moving Fire
    Phase, after moving, it fires either way."""
    for phase, goal, fires in (
        (SUPPORT_FIRE, "1209", True),
        (SUPPORT_FIRE, "1225", False),
        (MOVING_FIRE, "1225", True),
    ):
        game = game_at("russian", phase)
        away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
        rifle = put(game, "russian/A/R-PR9-1", "1210", toward="1212")
        put(game, "german/D/R-PR9-1", "1212")
        player = HeuristicPlayer(1)
        player.begin(FIRE, "russian")
        know = player._know()
        target = game.board.hex(goal)
        know.occupy = know.objectives = frozenset({target})
        know.to_objective = {h: hex_distance(h, target) for h in game.board.hexes}
        assert player._keeps_fire(game, rifle) != fires, (phase, goal)
        if phase == SUPPORT_FIRE:
            chosen = player.decide(game, "russian", legal_actions(game))
            assert (chosen.verb == "aim" and chosen.units == (rifle.id,)) == fires, (goal, chosen)


def test_8_3_b_the_heuristic_moves_the_down_units_its_leader_led() -> None:
    """8.3 B: 'If he passes, he may move and any other units stacked with him may move provided they
    remain with the leader'. The duel's PL leads squad C's men out of 1107, DOWN as they are (a unit
    the leader's PC was for has MOVED, 4.0, and standing up alone would leave the leader's stack)."""
    game = german_movement(duel())
    game.first_shot = True  # 8.22: PCs to move (and leaders' for them) since the first shot
    stack = [u for u in game.at(game.board.hex("1107")) if u.side == "german"]
    for unit in stack:
        unit.state = State.DOWN
    game.caches = {}
    player = HeuristicPlayer(1)
    player.begin(game.scenario, "german")
    know = player._know()
    goal = game.board.hex("1103")
    know.occupy = know.objectives = frozenset({goal})
    know.to_objective = {h: hex_distance(h, goal) for h in game.board.hexes}
    with_dice(game, *[1] * 40)  # every PC passes
    while game.phasing == "german" and game.phase == MOVEMENT:
        play(game, player.decide(game, "german", legal_actions(game)))
    assert any(e["rule"] == "8.3 A" for line in game.log for e in line["events"] if e["event"] == "pc")
    left = {u.hex for u in stack}
    assert game.board.hex("1107") not in left


def test_a_heuristics_thresholds_are_its_own_knobs() -> None:
    """8.21 (R360): 'Any of the Phasing Player's units that fired in the Support Fire Phase may not
    move in the Movement Phase': the Russian rifle in 1210, its goal far off (1225), keeps its fire
    to move on; a heuristic whose knobs let units at any distance fire there does not. The knobs
    are the player's own: the module's defaults stay as they are."""
    keeps = {}
    for knobs in (Knobs(), Knobs(support_from=FAR)):
        game = game_at("russian", SUPPORT_FIRE)
        away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
        rifle = put(game, "russian/A/R-PR9-1", "1210", toward="1212")
        put(game, "german/D/R-PR9-1", "1212")
        player = HeuristicPlayer(1, knobs)
        player.begin(FIRE, "russian")
        know = player._know()
        target = game.board.hex("1225")
        know.occupy = know.objectives = frozenset({target})
        know.to_objective = {h: hex_distance(h, target) for h in game.board.hexes}
        keeps[knobs.support_from] = player._keeps_fire(game, rifle)
    assert keeps == {1: True, FAR: False}
    assert HeuristicPlayer(1).knobs == Knobs() and heuristic.SUPPORT_FROM == 1


def test_r330_every_look_ahead_starts_from_a_clean_slate() -> None:
    """R330: every choice is played out in the same draw with the same dice, so the same choice
    played out twice is judged alike: the look-ahead's players carry no stack of one playout over
    as moved (or judged to hold) into the next of the same phase."""
    scenario, game, players = heuristics_at("s1-demyansk-pocket", 2)
    while not (game.phase == MOVEMENT and game.to_act == game.phasing == "russian"):
        play(game, players[game.to_act].choose(player_view(game, game.to_act), legal_actions(game)))
    search = SearchPlayer(3)
    search.begin(scenario, "russian")
    sample = determinize(player_view(game, "russian"), scenario, random.Random(4))
    move = next(a for a in legal_actions(sample) if a.verb == "move")  # the phase goes on after it
    values = [search._value(sample.copy(seed=5), move, "russian", 5) for _ in range(2)]
    assert values[0] == values[1]


def test_r373_a_look_ahead_rolls_alike_wherever_it_plays_alike() -> None:
    """R373: the dice of a look-ahead's action come from the playout's seed and the action itself
    (its Game Turn, phase and side, and how often it was played so), not from one stream: two
    choices' playouts that rolled different dice before it roll the same for it, and the same
    action played again rolls its own. Scenario 1's first action that rolls dice (the Russian's
    infiltration, 24.33), after one playout has rolled three dice more."""
    _, game, players = heuristics_at("s1-demyansk-pocket", 2, given_setup=False)
    while True:
        action = players[game.to_act].decide(game, game.to_act, legal_actions(game))
        trial = game.copy(seed=1)
        play(trial, action)
        if len(trial.dice.rolled) > len(game.dice.rolled):
            break
        play(game, action)
    rolled = []
    for extra, played in ((0, {}), (3, {}), (0, {}), (0, {})):
        twin = game.copy(seed=5)
        twin.dice.roll(extra)
        before = len(twin.dice.rolled)
        if len(rolled) == 3:
            _keyed_play(twin.copy(), action, 7, played)  # played once already in this playout
        _keyed_play(twin, action, 7, played)
        rolled.append(twin.dice.rolled[before:])
    assert len(rolled[0]) >= 2 and rolled[0] == rolled[1] == rolled[2]
    assert rolled[3] != rolled[0]


def _searched_where(monkeypatch: pytest.MonkeyPatch, key: str, what: str) -> dict[str, tuple[SearchPlayer, set[Any]]]:
    """Scenario KEY cut to two Game Turns, played with the search on each side in turn against the
    heuristic: each side's search, and `what` (a View's "phase" or "turn") of each decision it searched."""
    searched: set[Any] = set()

    def drawing(view: View, scenario: Scenario, rng: random.Random) -> GameState:
        searched.add(view.data[what])
        return determinize(view, scenario, rng)

    monkeypatch.setattr(search, "determinize", drawing)
    scenario, _, _ = heuristics_at(key, 1, given_setup=False)
    scenario = dataclasses.replace(scenario, data={**scenario.data, "game_length": 2})
    found = {}
    for side in SIDES:
        searched.clear()
        player = SearchPlayer(3, samples=1, horizon=2)
        play_out(new_game(scenario, 4), {side: player, other(side): HeuristicPlayer(5)})
        found[side] = (player, set(searched))
    return found


def test_r374_a_side_that_must_only_clear_a_zone_weighs_only_its_fire(monkeypatch: pytest.MonkeyPatch) -> None:
    """R374: a side that must only clear the enemy from a zone (24.9: Scenario 3's German, who wins
    if no Russian unit is on Hills J and K) weighs only the choices of its fire phases (6.0 B, E,
    F); a side that goes to stand somewhere (Scenario 3's Russian, both of Scenario 1's) weighs
    every choice the heuristic ranks (Scenario 3's Russian in the game's second half only: R375).
    Two Game Turns of Scenario 3 with the search German, then Russian: the phases of the decisions
    each searched."""
    phases = _searched_where(monkeypatch, "s3-closing-the-ring", "phase")
    german, russian = phases["german"], phases["russian"]
    assert german[0].phases == FIRE_PHASES and german[1] and german[1] <= set(FIRE_PHASES)
    assert russian[0].phases is None and MOVEMENT in russian[1]
    s1, _, _ = heuristics_at("s1-demyansk-pocket", 1)
    for side in SIDES:
        player = SearchPlayer(3)
        player.begin(s1, side)
        assert player.phases is None


def test_r375_a_side_with_less_to_lose_searches_only_in_the_games_second_half(monkeypatch: pytest.MonkeyPatch) -> None:
    """R375: a side whose rifle weighs more than one (R372: Scenario 1's German, 1.74: less to lose
    than the Russian) weighs its choices only in the game's second half; the other side (Scenario
    1's Russian, 0.70) from the first Game Turn. Scenario 1 cut to two Game Turns, the search on
    each side: the Game Turns of the decisions each searched."""
    turns = _searched_where(monkeypatch, "s1-demyansk-pocket", "turn")
    german, russian = turns["german"], turns["russian"]
    assert (german[0].late, round(german[0].share["german"], 2), german[1]) == (True, 1.74, {2})
    assert (russian[0].late, round(russian[0].share["russian"], 2)) == (False, 0.7) and 1 in russian[1]
