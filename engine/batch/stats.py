"""Confidence intervals and tests for win rates (docs/balance.md): the Wilson score interval, which
stays inside [0, 1] and is honest for small batches and rates near 0 or 1, where the normal
approximation is not; and the two-proportion z test that `playtest compare` reports."""

from __future__ import annotations

import math


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
