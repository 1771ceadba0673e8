"""The AI players (engine/players): registered by name, each finishes games of every scenario,
each decides from its side's view only (states that differ in what it may not see give it the
same choices), and `heuristic` beats `random`."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from engine.game import legal_actions, new_game, play
from engine.game.state import GameState
from engine.game.views import player_view
from engine.model.scenario import Scenario, load_scenario
from engine.players import PLAYERS, HeuristicPlayer, SearchPlayer, make_player
from engine.players.coverage import RULES, rule_events
from engine.players.knowledge import objective_hexes
from engine.players.match import play_out
from tests.test_engine_views import played

REPO = Path(__file__).resolve().parents[1]
FILES = sorted((REPO / "scenarios").glob("s[1-6]-*.yaml"))
S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")
S4 = load_scenario(REPO / "scenarios" / "s4-tula.yaml")  # Russian hidden hexes and AT mines


def short(scenario: Scenario, turns: int) -> Scenario:
    """The scenario ended after `turns` Game Turns (its `game_length`), to keep a test fast."""
    return dataclasses.replace(scenario, data={**scenario.data, "game_length": turns})


def test_the_players_are_registered_by_name() -> None:
    assert {"random", "heuristic", "search"} <= set(PLAYERS)
    for name in ("heuristic", "search"):
        player = make_player(name, 3)
        assert player.name == name and callable(player.choose)
    with pytest.raises(ValueError, match="players: heuristic, random, search"):
        make_player("grandmaster", 1)


@pytest.mark.parametrize(
    "path",
    [p if p.name[:2] in ("s1", "s2", "s3", "s5") else pytest.param(p, marks=pytest.mark.slow) for p in FILES],
    ids=lambda p: p.name[:2],
)
def test_heuristic_and_search_finish_a_game_of_every_scenario(path: Path) -> None:
    """Each scenario cut to its first Game Turn: the set-up (24.1), infiltration (24.3), entries
    and every phase of a turn (6.0), played to a result by the two players against each other."""
    game = new_game(short(load_scenario(path), 1), 5)
    search = SearchPlayer(2, samples=1, horizon=2)
    play_out(game, {"german": HeuristicPlayer(1), "russian": search})
    assert game.is_over and game.result is not None
    assert search.searched > 0  # it had choices to weigh


def test_a_heuristic_needs_the_scenario_first() -> None:
    game = new_game(S1, 1)
    with pytest.raises(RuntimeError, match="begin"):
        HeuristicPlayer(1).choose(player_view(game, game.to_act), [*legal_actions(game)][:2])


def test_24_9_the_objectives_are_the_victory_conditions_hexes() -> None:
    """Scenario 1: both sides go for 4307 and 4308 (R11). Scenario 4: the German must clear the
    Russians from south of the road (R19), the Russian stand there."""
    game = new_game(S1, 1)
    labels = {side: {game.label_of(h) for h in objective_hexes(game, side)[0]} for side in ("german", "russian")}
    assert labels == {"german": {"4307", "4308"}, "russian": {"4307", "4308"}}
    tula = new_game(S4, 1)
    occupy, clear = objective_hexes(tula, "german")
    assert clear and not clear & occupy
    assert objective_hexes(tula, "russian")[0] >= clear


def hidden_twin(game: GameState, seed: int | None) -> GameState:
    """The game with what the German may not see changed: a Russian hidden unit in another of the
    Russian hidden hexes (24.21), a Russian mine in another hex (19.11), and with a `seed` other
    dice to come."""
    twin = game.copy(seed=seed)
    secrets = twin.secrets["russian"]
    unit = next(u for u in twin.side_units("russian") if u.hidden)
    others = sorted(secrets.hidden_hexes - {unit.hex})
    twin.relocate(unit, "on_map", others[0])
    (h, mined), *_ = sorted(secrets.mines.items())
    del secrets.mines[h]
    secrets.mines[next(n for n in twin.neighbours(h) if n not in secrets.mines and not twin.at(n))] = mined
    assert twin.digest() != game.digest()
    return twin


@pytest.mark.parametrize(
    ("name", "seed", "least"),
    [
        pytest.param("heuristic", None, 10, marks=pytest.mark.slow),
        ("search", None, 3),
        ("heuristic", 99, 2),
        ("search", 99, 2),
    ],
)
def test_fair_a_player_chooses_alike_in_states_that_differ_only_in_what_it_may_not_see(
    name: str, seed: int | None, least: int
) -> None:
    """House rule, R181: Scenario 4 games alike but for a Russian hidden unit's hex, a Russian
    mine's hex (and, with a seed, the dice to come) give the German player the same view, and so
    the same choices, decision after decision (each player fresh, with the same seed, for each
    game), until what differs shows (a roll's result, a hidden unit revealed: then the views differ)."""
    game, _ = played(S4, 2, 102)  # random set-ups just over: three Russian hidden hexes
    twin = hidden_twin(game, seed)
    players = []
    for _state in (game, twin):
        player = HeuristicPlayer(7) if name == "heuristic" else SearchPlayer(7, samples=1, horizon=4)
        player.begin(S4, "german")
        players.append(player)
    assert same_choices(game, twin, players, 200) >= least


def same_choices(game: GameState, twin: GameState, players: list[Any], steps: int) -> int:
    """The German `players` (one a state) choose alike in `game` and `twin`, decision after decision
    while their views agree (the Russian ending his phase, or letting the mover pass, in both); the
    decisions with more than one choice compared."""
    compared = 0
    for _ in range(steps):
        if game.is_over or twin.is_over:
            break
        if game.to_act != "german":
            last = legal_actions(game)[-1]
            if last not in legal_actions(twin):
                break
            for state in (game, twin):
                play(state, last)
            continue
        views = [player_view(state, "german") for state in (game, twin)]
        if views[0].data != views[1].data or views[0].log != views[1].log:
            break
        choices = []
        for state, player, view in zip((game, twin), players, views, strict=True):
            actions = legal_actions(state)
            choices.append((player.choose(view, actions), actions))
        assert choices[0] == choices[1]
        compared += len(choices[0][1]) > 1
        for state in (game, twin):
            play(state, choices[0][0])
    return compared


@pytest.mark.slow
def test_heuristic_beats_random_in_scenario_1() -> None:
    """A small fixed sample: the heuristic wins Scenario 1 on either side against random."""
    wins = 0
    for seed, side in ((1, "german"), (2, "russian"), (3, "german"), (4, "russian")):
        game = new_game(S1, seed)
        enemy = "russian" if side == "german" else "german"
        play_out(game, {side: make_player("heuristic", seed), enemy: make_player("random", seed)})
        wins += game.result is not None and game.result["winner"] == side
    assert wins >= 3


def test_coverage_counts_each_rules_events_in_a_log() -> None:
    log = [
        {"action": "lead russian/PL-PR10", "phase": "movement", "events": [{"event": "pc"}]},
        {"action": "pass", "phase": "movement", "events": [{"event": "attack"}, {"event": "join"}]},
        {"action": "shoot", "phase": "support_fire", "events": [{"event": "attack"}]},
    ]
    found = rule_events(log)
    assert found["leader directed movement"] == 1
    assert found["opportunity fire"] == 1 and found["AP attack"] == 2 and found["combined fire"] == 1
    assert {label for label, _, _ in RULES} >= set(found)
