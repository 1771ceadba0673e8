"""The exact odds of fire combat (engine/game/odds.py, `iceditor odds`): the book's examples of
11.42-11.44 and 12.31-12.33, hand-checked small cases, the engine's own dice against the odds
(chi-square), and properties over every firepower and number of dice."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.game.dice import Dice
from engine.model.tables import table_values
from engine.odds import (
    AP_CHANCES,
    ap_chances,
    ap_levels,
    ap_probabilities,
    ap_result,
    at_chance,
    at_destroyed,
    at_probability,
    dice_totals,
)
from iceditor.cli import main

# The chi-square distribution's upper 0.001 point by degrees of freedom (any statistics table):
# a fair sample exceeds it once in a thousand runs; the seeds are fixed, so a test never flakes.
CHI_SQUARE_AT_0_001 = {1: 10.828, 2: 13.816, 3: 16.266}
ROLLS = 20_000


def test_dice_totals_are_exact() -> None:
    """Two dice: 7 six ways in 36, 2 and 12 one way each; every distribution sums to 1."""
    two = dice_totals(2)
    assert two[7] == Fraction(6, 36) and two[2] == two[12] == Fraction(1, 36) and sorted(two) == list(range(2, 13))
    for n in range(1, 13):
        assert sum(dice_totals(n).values()) == 1 and min(dice_totals(n)) == n and max(dice_totals(n)) == 6 * n


def test_dice_totals_a_copy_each_time() -> None:
    """The distribution is cached; a caller changing its copy changes no one else's."""
    dice_totals(3)[3] = Fraction(1)
    assert dice_totals(3)[3] == Fraction(1, 216)


def test_11_42_example_firepower_8() -> None:
    """11.42: "Start with the final AP firepower total ... This is the PINNED (P) level; Halve the P
    level number, rounding it up ...; this is the SUPPRESSED (S) level; Halve the S level number,
    rounding it up ...; this is the ELIMINATED (E) level." 11.43 example: "an AP firepower total of 8.
    Its possible result levels are: Pinned: 8; Suppressed: 4; Eliminated: 2.\""""
    assert ap_levels(8) == {"P": 8, "S": 4, "E": 2}
    example = table_values("combat")["ap_fire"]["result_levels"]["example"]
    assert ap_levels(example["firepower"]) == {
        "P": example["pinned"],
        "S": example["suppressed"],
        "E": example["eliminated"],
    }


def test_11_42_halving_rounds_up() -> None:
    """11.42 b, c: "rounding it up to the nearest whole number": 7 -> 4 -> 2, 5 -> 3 -> 2, 3 -> 2 -> 1."""
    assert ap_levels(7) == {"P": 7, "S": 4, "E": 2}
    assert ap_levels(5) == {"P": 5, "S": 3, "E": 2}
    assert ap_levels(3) == {"P": 3, "S": 2, "E": 1}
    assert ap_levels(1) == {"P": 1, "S": 1, "E": 1}


def test_11_43_example_a_roll_of_5_pins() -> None:
    """11.43 example: "Its fire dice result is a 5 and its target is Pinned." Each band of 11.43:
    at most E eliminates, at most S suppresses, at most P pins, above P no effect."""
    levels = ap_levels(8)
    assert ap_result(5, (2, 3), levels) == "P"
    assert [ap_result(total, (total - 1, 1), levels) for total in (2, 3, 4, 5, 8, 9)] == [
        "E",
        "S",
        "S",
        "P",
        "P",
        "NE",
    ]


def test_11_44_all_ones_eliminate_with_more_than_one_die() -> None:
    """11.44: "If more than one die is rolled and all "1's" are rolled the result is an automatic
    ELIMINATED, regardless of the AP firepower total." One die showing 1 is just a 1."""
    assert ap_result(2, (1, 1), ap_levels(2)) == "E"  # levels P 2, S 1, E 1: a 2 would only pin
    assert ap_result(4, (1, 1, 1, 1), ap_levels(3)) == "E"
    assert ap_result(4, (1, 1, 1, 1), ap_levels(0)) == "E"
    assert ap_result(1, (1,), ap_levels(3)) == "E"  # a 1 within the E level of 1
    assert ap_result(1, (1,), ap_levels(0)) == "NE"  # one die: 11.44 does not apply


def test_r100_firepower_0_or_less_only_all_ones_eliminate() -> None:
    """R100 (11.42, 11.44): a final AP firepower total of 0 or less has no level a roll reaches;
    only 11.44's all ones, "regardless of the AP firepower total", eliminates, with 2 or more dice."""
    for firepower in (0, -1, -5):
        assert ap_levels(firepower) == {"P": 0, "S": 0, "E": 0}
        assert ap_chances(firepower, 1) == {"E": 0, "S": 0, "P": 0, "none": 1}
        assert ap_chances(firepower, 3) == {"E": Fraction(1, 216), "S": 0, "P": 0, "none": Fraction(215, 216)}


def test_11_43_one_die_firepower_3_by_hand() -> None:
    """Firepower 3 on one die: P 3, S 2, E 1, so a 1 eliminates, a 2 suppresses, a 3 pins, 4-6 nothing."""
    assert ap_chances(3, 1) == {"E": Fraction(1, 6), "S": Fraction(1, 6), "P": Fraction(1, 6), "none": Fraction(1, 2)}
    assert ap_probabilities(3, 1) == {"E": 1 / 6, "S": 1 / 6, "P": 1 / 6, "none": 0.5}


def test_11_44_all_ones_counted_once() -> None:
    """Firepower 8 on two dice: E is a total of 2 (that is, all ones) once, 1/36, not twice;
    S 3-4 (5/36), P 5-8 (20/36), no effect 9-12 (10/36). Firepower 2 on two dice: only all ones."""
    assert ap_chances(8, 2) == {
        "E": Fraction(1, 36),
        "S": Fraction(5, 36),
        "P": Fraction(20, 36),
        "none": Fraction(10, 36),
    }
    assert ap_chances(2, 2) == {"E": Fraction(1, 36), "S": 0, "P": 0, "none": Fraction(35, 36)}


def test_12_32_factor_12_against_armor_3_on_two_dice() -> None:
    """12.31: "add the target AFV's frontal armor factor to the dice total"; 12.32: "If the final
    result is equal to or less than the AT firepower total ... the AFV is destroyed." Factor 12
    against armor 3: a dice total of 9 or less destroys (30/36); higher (+1), 8 or less (26/36)."""
    assert at_destroyed((4, 5), 12, 3, False) and not at_destroyed((4, 6), 12, 3, False)
    assert not at_destroyed((4, 5), 12, 3, True) and at_destroyed((3, 5), 12, 3, True)
    assert at_chance(12, 3, 2, False) == Fraction(30, 36)
    assert at_chance(12, 3, 2, True) == Fraction(26, 36)
    assert at_probability(12, 3, 2, False) == 30 / 36


def test_12_33_all_ones_destroy_whatever_the_armor() -> None:
    """12.33: "On a dice roll of all "1's" no modifiers are added to the dice roll and the AFV is
    automatically destroyed": even when the factor is below armor + 2, all ones (1/36 on two dice)."""
    assert at_destroyed((1, 1), 2, 7, True) and at_destroyed((1, 1, 1), 0, 9, False)
    assert not at_destroyed((1, 2), 9, 7, False)  # 3 + 7 > 9
    assert at_chance(2, 7, 2, True) == Fraction(1, 36)
    assert at_chance(4, 9, 3, False) == Fraction(1, 216)


def test_r101_all_ones_destroy_with_one_die() -> None:
    """R101 (12.33 says "all 1's" with no count): one AT die showing 1 destroys too, modifiers or not."""
    assert at_destroyed((1,), 0, 5, True)
    assert at_chance(3, 5, 1, False) == Fraction(1, 6)
    assert at_chance(4, 0, 1, False) == Fraction(4, 6)


def _chi_square_ok(observed: Counter[str], expected: dict[str, float]) -> None:
    """The sample fits the odds at p = 0.001: Pearson's statistic, its p-value from scipy when it is
    installed (scipy.special, a third of the import time of scipy.stats; scipy is no dependency),
    otherwise against the table above. Results of chance 0 never occur."""
    assert all(observed[key] == 0 for key, chance in expected.items() if chance == 0)
    keys = [key for key, chance in expected.items() if chance > 0]
    counts = [observed[key] for key in keys]
    means = [expected[key] * sum(counts) for key in keys]
    statistic = sum((count - mean) ** 2 / mean for count, mean in zip(counts, means, strict=True))
    freedom = len(keys) - 1
    try:
        from scipy.special import chdtrc
    except ImportError:
        assert statistic < CHI_SQUARE_AT_0_001[freedom], (observed, expected)
    else:
        assert chdtrc(freedom, statistic) > 0.001, (observed, expected)
        assert chdtrc(freedom, CHI_SQUARE_AT_0_001[freedom]) == pytest.approx(0.001, rel=1e-3)


def _ap_sample(firepower: int, dice: int, seed: int) -> Counter[str]:
    """ROLLS rolls of the game's own Dice, each read by ap_result, counted by ap_probabilities' keys."""
    levels, roller, results = ap_levels(firepower), Dice(seed), Counter[str]()
    for _ in range(ROLLS):
        faces = roller.roll(dice)
        result = ap_result(sum(faces), faces, levels)
        results["none" if result == "NE" else result] += 1
    return results


@pytest.mark.parametrize(("firepower", "dice", "seed"), [(3, 1, 1), (8, 2, 2), (12, 3, 3), (20, 4, 4)])
def test_11_43_the_engines_dice_fit_the_ap_odds(firepower: int, dice: int, seed: int) -> None:
    """The game's own Dice, rolled 20,000 times and each roll read by ap_result, fit ap_probabilities."""
    _chi_square_ok(_ap_sample(firepower, dice, seed), ap_probabilities(firepower, dice))


@pytest.mark.parametrize(("factor", "armor", "dice", "higher", "seed"), [(12, 3, 2, False, 5), (11, 5, 3, True, 6)])
def test_12_32_the_engines_dice_fit_the_at_odds(factor: int, armor: int, dice: int, higher: bool, seed: int) -> None:
    """The game's own Dice, each roll read by at_destroyed, fit at_probability."""
    roller = Dice(seed)
    destroyed = sum(at_destroyed(roller.roll(dice), factor, armor, higher) for _ in range(ROLLS))
    chance = at_probability(factor, armor, dice, higher)
    _chi_square_ok(
        Counter({"destroyed": destroyed, "not": ROLLS - destroyed}), {"destroyed": chance, "not": 1 - chance}
    )


@given(st.integers(0, 40), st.integers(1, 8))
def test_11_4_odds_sum_to_1_and_grow_with_firepower(firepower: int, dice: int) -> None:
    """For any firepower and dice the chances lie in [0, 1] and sum to 1 exactly; one more firepower
    never lowers the chance of ELIMINATED nor of any effect at all."""
    chances, more = ap_chances(firepower, dice), ap_chances(firepower + 1, dice)
    assert set(chances) == set(AP_CHANCES) and sum(chances.values()) == 1
    assert all(0 <= chance <= 1 for chance in chances.values())
    assert abs(sum(ap_probabilities(firepower, dice).values()) - 1) < 1e-12
    assert more["E"] >= chances["E"] and more["none"] <= chances["none"]


@given(st.integers(0, 30), st.integers(0, 12), st.integers(1, 6), st.booleans())
def test_12_3_at_odds_between_all_ones_and_certain(factor: int, armor: int, dice: int, higher: bool) -> None:
    """At least all ones (12.33), at most 1; more factor never lowers it, more armor never raises it."""
    chance = at_chance(factor, armor, dice, higher)
    assert Fraction(1, 6**dice) <= chance <= 1
    assert at_chance(factor + 1, armor, dice, higher) >= chance >= at_chance(factor, armor + 1, dice, higher)


def test_cli_odds_ap_json(capsys) -> None:
    """`iceditor odds ap --format json`: the levels (11.42) and the chances, 11.44 included."""
    assert main(["odds", "ap", "--firepower", "8", "--dice", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"levels": {"P": 8, "S": 4, "E": 2}, "p": {"E": 1 / 36, "S": 5 / 36, "P": 20 / 36, "none": 10 / 36}}


def test_cli_odds_ap_text(capsys) -> None:
    assert main(["odds", "ap", "--firepower", "3", "--dice", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "AP fire, firepower 3, 1 die: P 3, S 2, E 1 (11.42)"
    assert lines[1].split() == ["result", "chance", "exact"]
    assert lines[2].split() == ["ELIMINATED", "16.67%", "1/6"] and lines[-1].split() == [
        "no",
        "effect",
        "50.00%",
        "1/2",
    ]


def test_cli_odds_at(capsys) -> None:
    """`iceditor odds at`: 12.31-12.33 applied, in JSON and in text."""
    assert main(["odds", "at", "--factor", "12", "--armor", "3", "--dice", "2", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "factor": 12,
        "armor": 3,
        "dice": 2,
        "higher": False,
        "p_destroyed": 30 / 36,
    }  # the inputs with the answer
    assert main(["odds", "at", "--factor", "2", "--armor", "7", "--dice", "2", "--higher"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "destroyed: 2.78% (1/36)"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ap", "--firepower", "8", "--dice", "0"], "iceditor odds ap: error: --dice 0: roll 1 to 12 dice"),
        (["ap", "--firepower", "8", "--dice", "13"], "iceditor odds ap: error: --dice 13: roll 1 to 12 dice"),
        (["ap", "--firepower", "2.5", "--dice", "2"], "argument --firepower: invalid int value: '2.5'"),
        (["ap", "--dice", "2"], "the following arguments are required: --firepower"),
        (["at", "--factor", "9", "--armor", "-1", "--dice", "2"], "iceditor odds at: error: --armor -1: a factor is 0"),
        (["at", "--factor", "9", "--armor", "2", "--dice", "x"], "argument --dice: invalid int value: 'x'"),
        ([], "iceditor odds: error: name a KIND: ap, at, fire"),
    ],
)
def test_cli_odds_bad_input(capsys, argv: list[str], message: str) -> None:
    """A command line the odds cannot be computed for: the reason, exit 2, never a traceback."""
    assert main(["odds", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err and captured.out == ""


def test_the_chi_square_check_tells_wrong_odds() -> None:
    """The check has power: rolls of firepower 8 do not fit the odds of firepower 7 (P 7, not 8)."""
    with pytest.raises(AssertionError):
        _chi_square_ok(_ap_sample(8, 2, 7), ap_probabilities(7, 2))
