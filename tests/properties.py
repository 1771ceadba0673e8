"""Example counts of the property tests, bounded by the Hypothesis profile (tests/conftest.py).

`pytest -q` runs the `ci` profile: 25 examples for a property that gives no count of its own.
`HYPOTHESIS_PROFILE=long pytest -q -m hypothesis` (CI runs it) gives every property forty
times as many. A costly property takes a share of the profile's count with `fewer_examples`.
"""

from __future__ import annotations

from hypothesis import settings


def fewer_examples(divisor: int) -> settings:
    """The profile's settings with its example count divided by `divisor` (at least one)."""
    return settings(max_examples=max(1, settings.default.max_examples // divisor))
