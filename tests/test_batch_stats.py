"""The win-rate statistics of batch playtests (engine/batch/stats.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.batch.stats import wilson


def test_wilson_matches_the_textbook_value() -> None:
    # Wilson (1927); 62 of 100 at 95%: 0.5220 to 0.7091 (as R's prop.test without correction)
    low, high = wilson(62, 100)
    assert low == pytest.approx(0.5220, abs=5e-4)
    assert high == pytest.approx(0.7091, abs=5e-4)


def test_wilson_of_no_games_is_the_whole_range() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_refuses_more_wins_than_games() -> None:
    with pytest.raises(ValueError, match="wins <= n"):
        wilson(5, 4)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_holds_the_rate_inside_zero_one(wins_n: tuple[int, int]) -> None:
    wins, n = wins_n
    low, high = wilson(wins, n)
    assert 0.0 <= low <= wins / n <= high <= 1.0
    assert wilson(wins, n, z=2.58)[0] <= low  # a wider confidence gives a wider interval


def test_two_proportions_matches_the_textbook_z_test_and_holds_its_difference() -> None:
    from engine.batch.stats import two_proportions

    # 60/100 against 45/100: pooled p = 0.525, z = 0.15 / sqrt(0.525 * 0.475 * 0.02) = 2.124, p = 0.0337
    d = two_proportions(60, 100, 45, 100)
    assert d.z == pytest.approx(2.124, abs=1e-3)
    assert d.p_value == pytest.approx(0.0337, abs=1e-4)
    assert d.low < d.difference < d.high and d.low > 0  # significant: the interval leaves out 0
    same = two_proportions(30, 100, 30, 100)
    assert same.difference == 0 and same.p_value == pytest.approx(1.0) and same.low < 0 < same.high
    assert two_proportions(0, 10, 0, 10).p_value == 1.0  # no wins on either side: nothing to tell apart
