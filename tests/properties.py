"""Example counts of the property tests, bounded by the Hypothesis profile (tests/conftest.py).

`pytest -q` runs the `ci` profile: 25 examples for a property that gives no count of its own.
`HYPOTHESIS_PROFILE=long pytest -q -m hypothesis` (CI runs it) gives every property forty
times as many. A costly property takes a share of the profile's count with `fewer_examples`.
"""

from __future__ import annotations

from hypothesis import settings


def fewer_examples(divisor: int, most: int | None = None) -> settings:
    """The profile's settings with its example count divided by `divisor` (at least one), and at
    most `most`: a property whose example takes seconds stays within the long run's per-test
    timeout (pyproject.toml's 300 s) on CI's two cores."""
    count = max(1, settings.default.max_examples // divisor)
    return settings(max_examples=count if most is None else min(most, count))
