"""Copies of a game (docs/engine.md, Speed): a copy for a player's search draws its own dice (R200)
and a copy and its original never change each other, while the copy keeps what the original had
worked out of where the units stand."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import legal_actions, new_game, play
from engine.game.actions import Action
from engine.game.state import GameState
from engine.model.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")


def _played(seed: int, decisions: int) -> tuple[GameState, list[Action]]:
    rng, game, taken = random.Random(seed), new_game(S1, seed), []
    while not game.is_over and len(taken) < decisions:
        action = rng.choice(legal_actions(game))
        taken.append(action)
        play(game, action)
    return game, taken


def _rolling(game: GameState, rng: random.Random) -> Action:
    """Play on until an action rolls dice (a PC, a shot): that action, not played yet."""
    while True:
        action = rng.choice(legal_actions(game))
        twin = game.copy()
        play(twin, action)
        if len(twin.dice.rolled) > len(game.dice.rolled):
            return action
        play(game, action)


def _seen(game: GameState) -> tuple[Any, ...]:
    """The state as it is now (the view as text: it shares lists with the state)."""
    return (
        game.digest(),
        json.dumps(game.view(None)),
        [a.text() for a in legal_actions(game)],
        len(game.log),
        game.dice.rolled[:],
    )


def test_r200_a_copy_with_a_seed_does_not_predict_the_games_next_roll() -> None:
    """R200: 'Nothing a player holds can predict the game's next roll.' At each of 20 actions
    that roll dice, the same action on 40 copies with seeds: their rolls are the games's no
    more often than chance, and the game then rolls what it would have rolled without them."""
    rng, game = random.Random(4), new_game(S1, 4)
    same = tries = 0
    for _ in range(20):
        action = _rolling(game, rng)
        before = len(game.dice.rolled)
        foreseen = game.copy()  # no seed: the game's own dice, as `apply` needs
        play(foreseen, action)
        rolls = set()
        for seed in range(40):
            twin = game.copy(seed=seed)
            play(twin, action)
            rolls.add(tuple(twin.dice.rolled[before:]))
            same += twin.dice.rolled[before:] == foreseen.dice.rolled[before:]
            tries += 1
        play(game, action)
        assert game.dice.rolled[before:] == foreseen.dice.rolled[before:], "the copies moved the game's dice"
        assert len(rolls) > 1, "every seeded copy rolled alike"
    assert same < tries / 4  # one die alike by chance 1/6, two dice 1/36


def test_r200_a_seeded_copy_of_a_replayed_game_does_not_read_the_logs_recorded_dice() -> None:
    """R200: a replay's dice are the log's, future rolls included; a seeded copy rolls its own."""
    game, _ = _played(6, 300)
    recorded = [9, 9, 9]  # no die shows 9: a copy reading these would show it
    game.dice._recorded = [*game.dice.rolled, *recorded]
    twin = game.copy(seed=1)
    assert twin.dice.roll(3) != tuple(recorded)
    assert game.copy().dice.roll(3) == tuple(recorded)


def test_r200_a_seeded_copy_never_shares_the_games_generator() -> None:
    game, _ = _played(2, 200)
    game.dice.roll(1)
    twin = game.copy(seed=7)
    twin.dice.roll(5)
    assert twin.dice._random is not game.dice._random
    plain = game.copy()
    assert plain.dice.roll(4) == game.dice.roll(4)  # shared until one rolls, then each its own


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    at=st.integers(0, 900),
    steps=st.integers(1, 60),
    copy_seed=st.one_of(st.none(), st.integers(0, 100)),
)
def test_a_copy_and_its_original_stay_independent_under_random_play(
    seed: int, at: int, steps: int, copy_seed: int | None
) -> None:
    """Random play on a copy leaves the original as it was (its state, view, choices, log and
    dice), random play on the original leaves the copy as it was, and the copy is offered at
    every step what a fresh game of the same actions is offered (what it carried over is right)."""
    game, _ = _played(seed, at)
    twin = game.copy(seed=copy_seed)
    original, copied = _seen(game), _seen(twin)
    rng, went = random.Random(seed + 1), []
    for _ in range(steps):
        if twin.is_over:
            break
        choices = legal_actions(twin)
        action = rng.choice(choices)
        went.append(([a.text() for a in choices], action))
        play(twin, action)
    assert _seen(game) == original
    after = _seen(twin)
    for _ in range(steps):
        if game.is_over:
            break
        play(game, rng.choice(legal_actions(game)))
    assert _seen(twin) == after
    fresh, _ = _played(seed, at)
    fresh.dice = fresh.dice.copy(copy_seed)
    assert _seen(fresh) == copied
    for choices, action in went:
        assert [a.text() for a in legal_actions(fresh)] == choices
        play(fresh, action)
    assert fresh.log == twin.log
