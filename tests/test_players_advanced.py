"""The heuristic under the advanced rules (engine/players/advanced_doctrine.py): in set positions on
tests/fixtures/game/fire.yaml it chooses the MG modes a wargamer would (21.41), rations its ammo
(22.0) and prefers the target it is likelier to observe (23.2, 23.32); it decides from its side's
view only (a secret mode and the enemy's ammo change none of its choices); and it plays Scenario 1
to the end keeping every invariant."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Action, legal_actions, new_game, play
from engine.game.determinize import determinize
from engine.game.fire_odds import fire_odds
from engine.game.mg_modes import DF, FL, SP, lane, mode_of, reach, set_mode
from engine.game.state import DEFENSIVE_FIRE, MORALE, SUPPORT_FIRE, GameState
from engine.game.views import SideLog, player_view
from engine.players import HeuristicPlayer, SearchPlayer
from engine.players.advanced_doctrine import LAST_POINTS_AT_LEAST
from engine.players.heuristic import FIRE_AT_LEAST
from engine.players.match import play_out
from tests.test_engine_advanced import ADVANCED, _ammo_kept, _unmoved, pool
from tests.test_engine_fire import FIRE, away, put
from tests.test_engine_play import SCENARIOS
from tests.test_engine_random_play import random_game
from tests.test_players import same_choices, short

MMG = "german/MMG-1"
RIFLES = ("russian/A/R-PR9-1", "russian/A/R-PR8-1", "russian/PL-PR10")

# The fire fixture with a Russian who must reach the German area (24.9): his way runs north to south
CROSSING = dataclasses.replace(
    FIRE,
    data={
        **FIRE.data,
        "victory": {
            "results": [{"winner": "russian", "when": {"units_in": {"side": "russian", "zone": "german-area"}}}],
            "otherwise": "german",
        },
    },
)


def at(phasing: str, phase: str, scenario: object = FIRE) -> GameState:
    """The advanced game on to `phasing`'s `phase` of turn 1, the German to act."""
    game = new_game(scenario, 1, ADVANCED)  # type: ignore[arg-type]
    while not (game.phasing == phasing and game.phase == phase and game.to_act == "german"):
        play(game, Action("done"))
    return game


def german(game: GameState, scenario: object = FIRE) -> HeuristicPlayer:
    player = HeuristicPlayer(1)
    player.begin(scenario, "german")  # type: ignore[arg-type]
    return player


def choice(game: GameState, scenario: object = FIRE) -> Action:
    return german(game, scenario).decide(game, "german", legal_actions(game))


def only_the_mmg_fires(game: GameState) -> None:
    """Every German unit but the MMG has fired this Player Turn (10.11), and the Russians `away` put
    in the north are behind it, in the south: the MMG's shots at the test's targets alone are open."""
    for unit in game.side_units("german"):
        if unit.id != MMG:
            game.changing(unit).fired = True
    behind = iter(f"{column}{row}" for column in (10, 11, 13, 14) for row in (28, 29, 30))
    for unit in game.side_units("russian"):
        if unit.hex is not None and game.label_of(unit.hex)[2:] in ("01", "02"):
            put(game, unit.id, next(behind))


# -- 21.41: the modes ---------------------------------------------------------------------------------


def test_21_41_the_heuristic_sprays_where_several_enemy_hexes_lie_in_its_spray_fire_area() -> None:
    """21.3: 'The MG in the SP mode may attack any or all hexes in its spray fire area': three Russian
    hexes four hexes before the German MMG: it changes to SP at the end of the Morale Phase."""
    game = at("german", MORALE)
    away(game, MMG, *RIFLES)
    put(game, MMG, "1220", toward="1219")
    for rifle, label in zip(RIFLES, ("1216", "1316", "1116"), strict=True):
        put(game, rifle, label)
    assert choice(game) == Action("mode", (MMG,), SP)


def test_21_41_one_enemy_hex_and_an_mg_that_goes_on_keeps_direct_fire() -> None:
    """21.0: DF is the mode for one target; a lane is lost when its MG moves (R309), and the German
    moves this Player Turn with the MMG on no goal: it stays in DF (no mode action, then `done`)."""
    game = at("german", MORALE)
    away(game, MMG, RIFLES[0])
    put(game, MMG, "1220", toward="1219")
    put(game, RIFLES[0], "1216")
    player = german(game)
    assert player.decide(game, "german", legal_actions(game)) == Action("done")
    assert player.doctrine is not None and player.doctrine.mode_for(game, "german", game.unit(MMG)) == DF


def crossing(friend: bool) -> GameState:
    """The Russian Player Turn's Morale Phase: the German MMG in 1220 facing north, no Russian in
    its reach, the Russians north of it bound for the German area south of it; with `friend` a
    German squad in 1218, in front of the MMG."""
    game = at("russian", MORALE, CROSSING)
    away(game, MMG, *(["german/D/R-PR9-1"] if friend else []))
    put(game, MMG, "1220", toward="1219")
    if friend:
        put(game, "german/D/R-PR9-1", "1218")
    assert not any(u.side == "russian" for h in reach(game, game.unit(MMG)) for u in game.at(h))
    return game


@pytest.mark.parametrize("friend", [False, True])
def test_21_41_a_fire_lane_across_the_enemys_way_and_clear_of_friends(friend: bool) -> None:
    """21.2: 'The MG may fire at ANY and ALL units that enter or are in its fire lane'; 21.23: 'each
    of those units (including friendly ones) must undergo a separate FL attack'. With no enemy in
    its arc and the Russians to move across its front toward their goal, the MMG sets a Fire Lane
    across their way; with a German squad in 1218, a lane that leaves it out."""
    game = crossing(friend)
    chosen = choice(game, CROSSING)
    assert chosen.verb == "mode" and chosen.arg.split()[0] == FL
    lane_hexes = {game.label_of(h) for h in lane(game, game.unit(MMG), game.hex(chosen.arg.split()[1]))}
    assert len(lane_hexes) >= 3 and all(int(h[2:]) < 20 for h in lane_hexes)  # toward the Russians, north
    if friend:
        assert "1218" not in lane_hexes


# -- 21.2, 21.3, 21.42 in the fire phases ----------------------------------------------------------


def test_21_23_a_lane_with_a_friend_in_it_is_fired_only_where_the_enemy_is_worth_more() -> None:
    """21.23: the lane attacks friends too: the MMG's lane over a German squad (1218) and one Russian
    rifle (1216) is a loss; over three Russian rifles, a gain, and it fires."""
    game = at("german", SUPPORT_FIRE)
    away(game, MMG, *RIFLES, "german/D/R-PR9-1", "german/D/R-PR8-1")
    put(game, MMG, "1220", toward="1219")
    put(game, "german/D/R-PR9-1", "1218")
    put(game, "german/D/R-PR8-1", "1218")
    put(game, RIFLES[0], "1216")
    set_mode(game, game.unit(MMG), FL, "1216")
    assert f"lane {MMG}" in [a.text() for a in legal_actions(game)]
    assert choice(game) != Action("lane", (MMG,))
    game = at("german", SUPPORT_FIRE)
    away(game, MMG, *RIFLES)
    put(game, MMG, "1220", toward="1219")
    for rifle in RIFLES:
        put(game, rifle, "1216")
    set_mode(game, game.unit(MMG), FL, "1214")
    assert choice(game) == Action("lane", (MMG,))


# -- 22.0: ammo ------------------------------------------------------------------------------------


def rifle_before_the_mmg(state: str, points: int) -> GameState:
    """The Russian Player Turn's Defensive Fire Phase: a Russian rifle `state` in 1216 before the
    German MMG alone (its `points` of ammo), every other German unit having fired. (Not the German's
    Support Fire Phase: there an MMG far from its goals keeps its fire to move on, R360.)"""
    game = at("russian", DEFENSIVE_FIRE)
    away(game, MMG, RIFLES[0])
    put(game, MMG, "1220", toward="1219")
    put(game, RIFLES[0], "1216", state=state)
    pool(game, MMG, points)
    only_the_mmg_fires(game)
    return game


def test_22_1_the_last_points_only_on_a_good_shot() -> None:
    """22.1: 'When this number is expended the unit is out of ammo and may fire no more in the game.'
    The MMG fires at a DOWN rifle (a poor shot, worth between FIRE_AT_LEAST and
    LAST_POINTS_AT_LEAST of a unit) with ten points; with its last point it keeps it for a better
    one, and spends it on the rifle UP (a good shot)."""
    aim = Action("aim", (MMG,), "1216")
    game = rifle_before_the_mmg("down", 10)
    player = german(game)
    value = player._attack_value(game, game.hex("1216"), [game.unit(MMG)])
    assert FIRE_AT_LEAST <= value < LAST_POINTS_AT_LEAST
    assert player.decide(game, "german", legal_actions(game)) == aim
    game = rifle_before_the_mmg("down", 1)
    assert choice(game) == Action("done")
    game = rifle_before_the_mmg("up", 1)
    assert choice(game) == aim


def test_22_2_intensive_fire_only_while_the_points_can_spare_three() -> None:
    """22.2: 'MG in DF mode (intensive fire): 3 points': at a DOWN rifle with 30 points the MMG fires
    intensive (11.15); with 4 points, in a game of three turns that has five more fire chances for
    it, the poor shot is not worth three of them, and it fires plainly (one point)."""
    for points, intensive in ((30, True), (4, False)):
        game = rifle_before_the_mmg("down", points)
        play(game, Action("aim", (MMG,), "1216"))
        assert choice(game) == Action("intensive" if intensive else "shoot", (MMG,) if intensive else ())


# -- 23.0: observation -------------------------------------------------------------------------------


@pytest.mark.parametrize("moved", RIFLES[:2])
def test_23_32_the_heuristic_prefers_the_target_it_is_likelier_to_observe(moved: str) -> None:
    """23.32: 'AP fire directed at an unobserved target hex is halved'; 23.2 observer c: '-2 if any
    unit in the target hex moved within the last three phases'. Two like rifles six hexes before
    the MMG: it aims at the one that moved (the likelier observed), whichever it is (in the Defensive
    Fire Phase: R360)."""
    game = at("russian", DEFENSIVE_FIRE)
    away(game, MMG, *RIFLES[:2])
    put(game, MMG, "1220", toward="1219")
    put(game, RIFLES[0], "1214")
    put(game, RIFLES[1], "1314")
    only_the_mmg_fires(_unmoved(game))
    game.changing(game.unit(moved)).extra["moved_at"] = game.phase_count()
    where = game.label_of(game.unit(moved).hex)
    seen = {
        label: fire_odds(game, [game.hex("1220")], game.hex(label))["ap"]["observation"]["p_observed"]
        for label in ("1214", "1314")
    }
    assert seen[where] > seen[({"1214", "1314"} - {where}).pop()]
    assert choice(game) == Action("aim", (MMG,), where)


# -- fair by construction ----------------------------------------------------------------------------


@pytest.mark.slow  # some 8 s: two heuristics play Scenario 1's first Game Turn
def test_fair_a_secret_mode_and_the_enemys_ammo_change_none_of_the_heuristics_choices() -> None:
    """21.0: 'A unit's mode need not be revealed until the unit fires'; 22.3, R346: each side sees
    its own roster. Scenario 1 with the advanced rules, and its twin in which the Russian MMGs'
    modes and every Russian pool differ: the German heuristic chooses alike, decision after
    decision, until what differs shows in its view (a Russian MG fires)."""
    s1 = SCENARIOS["s1-demyansk-pocket"]
    game = new_game(s1, 5, ADVANCED)
    players = {"german": HeuristicPlayer(3), "russian": HeuristicPlayer(4)}
    for side, player in players.items():
        player.begin(s1, side)
    logs = {side: SideLog(side) for side in players}
    while game.turn < 2:  # on to the second Game Turn: MGs on the map, ammo spent
        side = game.to_act
        play(game, players[side].choose(player_view(game, side, logs[side]), legal_actions(game)))
    twin = game.copy()
    for unit in twin.side_units("russian"):
        if unit.type == "MMG" and unit.on_map and mode_of(twin, unit)[0] == DF:
            set_mode(twin, unit, SP)
    twin.ammo = {k: (v - 3 if k.startswith("russian") else v) for k, v in twin.ammo.items()}
    assert twin.digest() != game.digest()
    pair = []
    for _state in (game, twin):
        player = HeuristicPlayer(7)
        player.begin(s1, "german")
        pair.append(player)
    assert same_choices(game, twin, pair, 300) >= 10


def test_21_0_determinize_draws_a_secret_mode_and_keeps_a_shown_one() -> None:
    """21.0, R355: a search's drawn state gives an enemy MG the mode it showed since the last Morale
    Phase, else one drawn (DF, SP or a Fire Lane in its reach), and its ammo full as the scenario
    gives it; the side's own modes and points are its own."""
    game = at("german", SUPPORT_FIRE)
    away(game, MMG, RIFLES[0])
    put(game, MMG, "1220", toward="1219")
    put(game, RIFLES[0], "1216")
    set_mode(game, game.unit(MMG), FL, "1216")
    pool(game, MMG, 4)
    view = player_view(game, "russian")
    drawn = {mode_of(determinize(view, FIRE, random.Random(n)), game.unit(MMG))[0] for n in range(12)}
    assert drawn == {DF, SP, FL}
    play(game, Action("lane", (MMG,)))  # the MMG fires: its mode is shown
    view = player_view(game, "russian")
    assert {mode_of(determinize(view, FIRE, random.Random(n)), game.unit(MMG)) for n in range(6)} == {(FL, "1216")}
    own = determinize(player_view(game, "german"), FIRE, random.Random(1))
    assert own.ammo[MMG] == game.ammo[MMG] and mode_of(own, own.unit(MMG)) == (FL, "1216")


# -- whole games -----------------------------------------------------------------------------------


@pytest.mark.slow  # some 2-5 s with the checks
def test_a_heuristic_game_of_scenario_1_with_the_advanced_rules_keeps_every_invariant() -> None:
    """Scenario 1 between two heuristics with the advanced rules: every invariant of random play
    (tests/test_engine_random_play.py), ammo never below zero and no fire by a unit out of ammo
    (22.1); it ends, and the doctrine chose modes and fired lanes or sprays."""

    @settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(seed=st.integers(0, 2**31))
    def run(seed: int) -> None:
        game = random_game("s1-demyansk-pocket", seed, ADVANCED, _ammo_kept, player="heuristic")
        assert game.result is not None
        verbs = {str(line.get("action", "")).split(" ")[0] for line in game.log}
        assert "mode" in verbs and verbs & {"lane", "spray"}

    run()


@pytest.mark.slow  # some 3-6 s
def test_search_plays_the_advanced_game_with_the_heuristics_doctrine() -> None:
    """`search` inherits the doctrine through the heuristic it weighs, and searches on states whose
    enemy modes are drawn (R355): two Game Turns of Scenario 1, search German against the heuristic,
    end with a result, and the search's German set modes."""
    game = new_game(short(SCENARIOS["s1-demyansk-pocket"], 2), 3, ADVANCED)
    play_out(game, {"german": SearchPlayer(3, samples=1, horizon=6), "russian": HeuristicPlayer(4)})
    assert game.result is not None
    assert any(str(line.get("action", "")).startswith("mode german/") for line in game.log)
