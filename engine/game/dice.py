"""The game's own dice: every roll comes from one seeded generator and is recorded (house style).

A game replays from its log without re-rolling: a `Dice` built from recorded rolls hands them back
in order, and says so when the log asks for a roll it does not hold or holds a different one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


class ReplayMismatch(ValueError):
    """A replayed game asked for a roll the log does not record."""


def _die(generator: random.Random) -> int:
    """`generator.randint(1, 6)` as CPython works it out (randrange's `_randbelow`: three random
    bits, drawn again while they make 6 or 7), without its layers of Python calls: a game rolls
    hundreds of dice (tests/test_engine_dice.py checks the two give the same faces)."""
    bits = generator.getrandbits(3)
    while bits >= 6:
        bits = generator.getrandbits(3)
    return bits + 1


@dataclass
class Dice:
    seed: int
    rolled: list[int] = field(default_factory=list)  # every die, in order
    # made at the first roll; a copy shares it until one of them rolls (`_shared`: then it copies it)
    _random: random.Random | None = field(default=None, repr=False)
    _shared: bool = field(default=False, repr=False)
    _recorded: list[int] | None = field(default=None, repr=False)
    # `rolled` is shared with a copy until one of them rolls (then that one takes a copy of it): a
    # game's record of dice grows with it, and most copies of a search roll nothing
    _rolled_shared: bool = field(default=False, repr=False)

    @classmethod
    def replaying(cls, seed: int, recorded: Iterable[int]) -> Dice:
        dice = cls(seed)
        dice._recorded = list(recorded)
        return dice

    def roll(self, n: int) -> tuple[int, ...]:
        """n six-sided dice."""
        faces = []
        if self._rolled_shared:
            self.rolled, self._rolled_shared = list(self.rolled), False
        for _ in range(n):
            if self._recorded is not None:
                if len(self.rolled) >= len(self._recorded):
                    raise ReplayMismatch(f"the log records {len(self._recorded)} dice and the game asks for more")
                face = self._recorded[len(self.rolled)]
            else:
                face = _die(self._generator())
            self.rolled.append(face)
            faces.append(face)
        return tuple(faces)

    def _generator(self) -> random.Random:
        if self._random is None:
            self._random = random.Random(self.seed)
        elif self._shared:  # the generator a copy shares is never advanced: who rolls takes a copy
            twin = random.Random.__new__(random.Random)
            twin.setstate(self._random.getstate())
            self._random, self._shared = twin, False
        return self._random

    def copy(self, seed: int | None = None) -> Dice:
        """The same dice (None: the copy rolls what these would roll next, as `apply` needs), or with
        a seed a fresh generator that knows nothing of these: a player's search cannot read the
        game's next rolls through it, nor a replay's recorded ones (R200). `rolled` is kept either
        way, for the log's indexing."""
        self._rolled_shared = True
        if seed is not None:
            return Dice(seed, self.rolled, _rolled_shared=True)
        twin = Dice(self.seed, self.rolled, self._random, self._random is not None, self._recorded, True)
        self._shared = twin._shared
        return twin

    def state(self) -> list[Any]:
        """The generator's state as JSON data (a saved game's snapshot rolls on as the game would)."""
        version, internal, gauss = self._generator().getstate()
        return [version, list(internal), gauss]

    def restore(self, rolled: list[int], state: list[Any]) -> None:
        """A saved game's dice: its rolls so far and its generator's state (`state`)."""
        version, internal, gauss = state
        self.rolled, self._recorded, self._shared, self._rolled_shared = list(rolled), None, False, False
        self._random = random.Random.__new__(random.Random)
        self._random.setstate((version, tuple(internal), gauss))
