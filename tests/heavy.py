"""The longest whole-game tests are marked `slow`: `pytest -q` leaves them out to stay within three
minutes on two cores, and CI's second step (`pytest -q -m slow`) runs them."""

from collections.abc import Iterable

import pytest

# Scenario 6 (two maps, the most units) plays three to four times as long as Scenario 1.
LONGEST = frozenset({"s6-spartakovka"})


def scenario_params(names: Iterable[str], longest: frozenset[str] = LONGEST) -> list[object]:
    """`names` as parameters, the longest games marked slow."""
    return [pytest.param(name, marks=pytest.mark.slow) if name in longest else name for name in names]
