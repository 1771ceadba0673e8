"""Confidence intervals and tests for win rates (docs/balance.md): the Wilson score interval, which
stays inside [0, 1] and is honest for small batches and rates near 0 or 1, where the normal
approximation is not; and the two-proportion z test that `playtest compare` reports."""

from __future__ import annotations

import math
from dataclasses import dataclass


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a rate of `wins` in `n` (95% at the default z).

    >>> low, high = wilson(62, 100)
    >>> round(low, 3), round(high, 3)
    (0.522, 0.709)
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(10, 10)[1]
    1.0
    """
    if n < 0 or not 0 <= wins <= n:
        raise ValueError(f"wilson: need 0 <= wins <= n, got wins={wins}, n={n}")
    if n == 0:
        return 0.0, 1.0  # nothing measured: any rate is possible
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at 0 or n wins the bound is exactly 0 or 1; floating point would leave a 1e-17 there
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Difference:
    """Rate a less rate b, its 95% interval, and the two-proportion z test of 'no difference'."""

    rate_a: float
    rate_b: float
    difference: float
    low: float
    high: float
    z: float
    p_value: float  # two-sided


def two_proportions(wins_a: int, n_a: int, wins_b: int, n_b: int, z: float = 1.96) -> Difference:
    """The difference of two win rates: Newcombe's interval from the two Wilson intervals (it stays in
    [-1, 1] and holds at rates near 0 or 1), and the pooled two-proportion z test.

    >>> d = two_proportions(60, 100, 45, 100)
    >>> round(d.difference, 2), round(d.low, 3), round(d.high, 3), round(d.p_value, 3)
    (0.15, 0.012, 0.28, 0.034)
    """
    low_a, high_a = wilson(wins_a, n_a, z)
    low_b, high_b = wilson(wins_b, n_b, z)
    p_a = wins_a / n_a if n_a else 0.0
    p_b = wins_b / n_b if n_b else 0.0
    d = p_a - p_b
    low = d - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    high = d + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    pooled = (wins_a + wins_b) / (n_a + n_b) if n_a + n_b else 0.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b)) if n_a and n_b else 0.0
    score = d / se if se else 0.0
    p_value = math.erfc(abs(score) / math.sqrt(2)) if se else 1.0
    return Difference(p_a, p_b, d, max(-1.0, low), min(1.0, high), score, p_value)
