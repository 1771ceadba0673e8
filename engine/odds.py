"""The exact odds of AP fire (11.4) and AT fire (12.3), by enumerating the dice, never by sampling.

`ap_result` and `at_destroyed` read one roll; fire combat calls them, and the odds are built on
them too, so a roll and its odds can never disagree. Every number comes from tables/combat.yaml
(`ap_fire.result_levels`, `at_fire`).

Enumerating totals is enough: a roll's result depends on its total and on whether every die
shows a 1 (11.44, 12.33), and all ones is the only roll of n dice that totals n.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from engine.model.tables import table_values

FACES = range(1, 7)  # a six-sided die
RESULTS = ("E", "S", "P", "NE")  # 11.4: ELIMINATED, SUPPRESSED, PINNED, no effect
AP_CHANCES = ("E", "S", "P", "none")  # the keys of ap_probabilities: "none" is "NE"


def dice_totals(n: int) -> dict[int, Fraction]:
    """The distribution of the total of n six-sided dice, exact.

    >>> dice_totals(2)[7]
    Fraction(1, 6)
    """
    return dict(_totals(n))


@cache
def _totals(n: int) -> tuple[tuple[int, Fraction], ...]:
    if n < 1:
        raise ValueError(f"{n} dice: roll at least one")
    counts = {0: 1}
    for _ in range(n):
        rolled: dict[int, int] = {}
        for total, ways in counts.items():
            for face in FACES:
                rolled[total + face] = rolled.get(total + face, 0) + ways
        counts = rolled
    outcomes = len(FACES) ** n
    return tuple((total, Fraction(ways, outcomes)) for total, ways in sorted(counts.items()))


def _roll_totalling(total: int, n: int) -> tuple[int, ...]:
    """One roll of n dice with this total: all ones for n, otherwise a roll with a face above 1,
    so it reads as every roll of that total does."""
    faces = []
    for left in range(n, 0, -1):
        face = min(max(FACES), total - (left - 1))
        faces.append(face)
        total -= face
    return tuple(faces)


def _halve(level: int, divisor: int, rounding: str) -> int:
    return -(-level // divisor) if rounding == "up" else level // divisor


def _level_rules() -> dict[str, Any]:
    rules: dict[str, Any] = table_values("combat")["ap_fire"]["result_levels"]
    if rules["pinned_level"] != "firepower" or rules["rounding"] not in ("up", "down"):
        raise ValueError(f"tables/combat.yaml ap_fire.result_levels: cannot read {rules}")
    return rules


def ap_levels(firepower: int) -> dict[str, int]:
    """The result levels of a final AP firepower total (11.42): P is the total, S is P halved
    and E is S halved (divisors and rounding from tables/combat.yaml: halved rounding up).

    A total of 0 or less has no level a roll can reach: P, S and E are all 0 (R100).

    >>> ap_levels(8)
    {'P': 8, 'S': 4, 'E': 2}
    """
    if firepower <= 0:
        return {"P": 0, "S": 0, "E": 0}
    rules = _level_rules()
    suppressed = _halve(firepower, int(rules["suppressed_divisor"]), rules["rounding"])
    return {
        "P": firepower,
        "S": suppressed,
        "E": _halve(suppressed, int(rules["eliminated_divisor"]), rules["rounding"]),
    }


def ap_result(total: int, faces: Sequence[int], levels: dict[str, int]) -> str:
    """The result of one AP fire roll (11.43, 11.44): "E", "S", "P" or "NE" (no effect).

    `total` is the dice total (the sum of `faces`), `levels` those of `ap_levels`. More than one
    die all showing 1 eliminates, whatever the levels (11.44); one die showing 1 reads as a 1.

    >>> ap_result(5, (2, 3), ap_levels(8))  # the example of 11.43
    'P'
    """
    if len(faces) > 1 and all(face == 1 for face in faces) and _level_rules()["all_ones_eliminate"]:
        return "E"
    if total <= levels["E"]:
        return "E"
    if total <= levels["S"]:
        return "S"
    if total <= levels["P"]:
        return "P"
    return "NE"


def ap_chances(firepower: int, dice: int) -> dict[str, Fraction]:
    """The exact chance of each AP fire result (keys of AP_CHANCES), 11.44 included.

    >>> ap_chances(3, 1)
    {'E': Fraction(1, 6), 'S': Fraction(1, 6), 'P': Fraction(1, 6), 'none': Fraction(1, 2)}
    """
    return dict(_ap_chances(firepower, dice))


@cache
def _ap_chances(firepower: int, dice: int) -> tuple[tuple[str, Fraction], ...]:
    """`ap_chances` worked out once for each firepower and dice (the AI players ask it at every shot)."""
    levels = ap_levels(firepower)
    chances = dict.fromkeys(AP_CHANCES, Fraction(0))
    for total, chance in dice_totals(dice).items():
        result = ap_result(total, _roll_totalling(total, dice), levels)
        chances["none" if result == "NE" else result] += chance
    return tuple(chances.items())


def ap_probabilities(firepower: int, dice: int) -> dict[str, float]:
    """`ap_chances` as floats: {"E": .., "S": .., "P": .., "none": ..}, summing to 1."""
    return {key: float(chance) for key, chance in ap_chances(firepower, dice).items()}


def at_destroyed(faces: Sequence[int], at_factor: int, armor: int, higher: bool) -> bool:
    """Whether one AT fire roll destroys the target AFV (12.31-12.33).

    All ones destroys, with no modifiers added (12.33; with any number of dice, R101). Otherwise
    the dice total plus the armor factor facing the firer, plus one if the target is on a
    higher level, destroys at or below the AT firepower total (12.31, 12.32).

    >>> at_destroyed((4, 5), 12, 3, False), at_destroyed((1, 1), 2, 7, True)
    (True, True)
    """
    rules = table_values("combat")["at_fire"]
    if all(face == 1 for face in faces) and rules["all_ones_destroy"]:
        return True
    higher_level = int(rules["target_higher_level"]) if higher else 0
    return sum(faces) + armor + higher_level <= at_factor


def at_chance(at_factor: int, armor: int, dice: int, higher: bool) -> Fraction:
    """The exact chance that AT fire destroys its target (12.31-12.33)."""
    return sum(
        (
            chance
            for total, chance in dice_totals(dice).items()
            if at_destroyed(_roll_totalling(total, dice), at_factor, armor, higher)
        ),
        Fraction(0),
    )


def at_probability(at_factor: int, armor: int, dice: int, higher: bool) -> float:
    """`at_chance` as a float."""
    return float(at_chance(at_factor, armor, dice, higher))
