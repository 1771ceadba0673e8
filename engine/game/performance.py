"""Performance checks (4.0): two dice, modified by 4.12's circumstances, pass at or under the PR.

4.0: "Anytime a unit takes a PC, regardless of the result, IT IS CONSIDERED TO HAVE PERFORMED THAT
ACTION"; the callers mark the unit (moved, fired, assaulted) whatever the roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.model.tables import table_values

from .dice import Dice


@dataclass(frozen=True)
class Check:
    """One PC: the dice, the modifier, the PR it was taken against and whether it passed."""

    dice: tuple[int, ...]
    modifier: int
    pr: int

    @property
    def total(self) -> int:
        return sum(self.dice) + self.modifier

    @property
    def passed(self) -> bool:
        return self.total <= self.pr

    def describe(self) -> str:
        rolled = "+".join(map(str, self.dice))
        shown = f"{rolled}{f' + {self.modifier}' if self.modifier else ''} = {self.total}"
        return f"{shown} against PR {self.pr}: {'passed' if self.passed else 'failed'}"


def modifier(circumstance: str | None) -> int:
    """4.12's modifier for a circumstance (morale_recovery, leader_directed_movement, ...); 0 for a regular PC."""
    if circumstance is None:
        return 0
    return int(table_values("combat")["performance_check"]["modifiers"][circumstance])


def performance_check(dice: Dice, pr: int, circumstance: str | None = None) -> Check:
    """4.0 / 4.11: a regular PC; 4.12: a modified one."""
    n = int(table_values("combat")["performance_check"]["dice"])
    return Check(dice.roll(n), modifier(circumstance), pr)
