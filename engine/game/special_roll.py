"""The Cumulative Combat Results Table's Special Roll (11.45): a SUPPRESSED unit SUPPRESSED again.

'Make a PC for the unit, if it fails it is eliminated; if it passes it remains SUPPRESSED.' With the
option `special_roll` (the Optional Special Roll, 'When using the Observation rules': the advanced
rules on, R320) 'the attacker rolls two dice. If the result is equal to or less than the
Observation Base number of the target hex, the unit is eliminated. On any other result the unit
remains SUPPRESSED.' One `SpecialRoll` says which and when the unit falls, for the engine's roll
(results.py) and the odds calculator's chance (fire_odds.py) alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.odds import dice_totals

from .advanced import optional
from .observation import observation_base
from .state import GameState
from .units import Unit

DICE = 2  # the PC's two dice (4.0), and 'the attacker rolls two dice'


@dataclass(frozen=True)
class SpecialRoll:
    optional: bool  # the Optional Special Roll: the attacker's dice against the hex's Observation Base
    number: int  # the unit's PR (a PC), or the target hex's Observation Base

    def eliminated(self, total: int) -> bool:
        """Whether two dice totalling `total` eliminate the unit: a failed PC (above the PR), or
        the optional roll at most the base."""
        return total <= self.number if self.optional else total > self.number

    def chance(self) -> Fraction:
        """The chance the roll eliminates the unit, exact."""
        return sum((p for total, p in dice_totals(DICE).items() if self.eliminated(total)), Fraction(0))

    def describe(self) -> str:
        if self.optional:
            return f"the Optional Special Roll: the attacker's 2 dice at most the Observation Base {self.number}"
        return f"the Special Roll: a PC against PR {self.number}, failed is eliminated"


def special_roll(game: GameState, unit: Unit) -> SpecialRoll:
    """The roll a SUPPRESSED `unit` takes on another S (11.45), under the game's options."""
    if optional(game, "special_roll"):
        assert unit.hex is not None
        return SpecialRoll(True, observation_base(game, unit.hex))
    return SpecialRoll(False, unit.pr)
