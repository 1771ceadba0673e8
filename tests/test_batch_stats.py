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
