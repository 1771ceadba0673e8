"""The game's own dice: every roll comes from one seeded generator and is recorded (house style).

A game replays from its log without re-rolling: a `Dice` built from recorded rolls hands them back
in order, and says so when the log asks for a roll it does not hold or holds a different one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field


class ReplayMismatch(ValueError):
    """A replayed game asked for a roll the log does not record."""


@dataclass
class Dice:
    seed: int
    rolled: list[int] = field(default_factory=list)  # every die, in order
    _random: random.Random = field(init=False, repr=False)
    _recorded: list[int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    @classmethod
    def replaying(cls, seed: int, recorded: Iterable[int]) -> Dice:
        dice = cls(seed)
        dice._recorded = list(recorded)
        return dice

    def roll(self, n: int) -> tuple[int, ...]:
        """n six-sided dice."""
        faces = []
        for _ in range(n):
            if self._recorded is not None:
                if len(self.rolled) >= len(self._recorded):
                    raise ReplayMismatch(f"the log records {len(self._recorded)} dice and the game asks for more")
                face = self._recorded[len(self.rolled)]
            else:
                face = self._random.randint(1, 6)
            self.rolled.append(face)
            faces.append(face)
        return tuple(faces)

    def copy(self) -> Dice:
        twin = Dice(self.seed, list(self.rolled))
        twin._random.setstate(self._random.getstate())
        twin._recorded = self._recorded
        return twin
