"""The game's dice roll what `random.Random(seed).randint(1, 6)` rolls (a seed's games never
change with how a die is drawn: the golden logs replay with --verify)."""

from __future__ import annotations

import random

from engine.game.dice import Dice


def test_a_die_is_the_face_randint_gives_for_the_same_seed() -> None:
    for seed in range(40):
        dice, reference = Dice(seed), random.Random(seed)
        rolled = [face for _ in range(50) for face in dice.roll(3)]
        assert rolled == [reference.randint(1, 6) for _ in range(150)]
        assert dice.rolled == rolled


def test_a_seeded_copy_rolls_what_a_fresh_generator_of_its_seed_rolls() -> None:
    game_dice = Dice(7)
    game_dice.roll(5)
    twin = game_dice.copy(seed=99)
    reference = random.Random(99)
    assert list(twin.roll(20)) == [reference.randint(1, 6) for _ in range(20)]
