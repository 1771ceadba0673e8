"""Zone-to-zone visibility on the six bundled scenarios (10.3, firers UP): every hex of the
German zone against every hex of the Russian zone, on the scenario's maps with errata.

The figures are what the reconstructed maps give (docs/maps.md); they change when a map
does, and then this test says so. LOS is symmetric with both ends UP, so `visible` pairs
are the same counted from either zone.
"""

from __future__ import annotations

from functools import cache

import pytest

from engine.geometry.viewshed import Viewsheds
from engine.geometry.zones import resolve_named
from engine.hexgrid import Hex
from engine.model.scenario import load_scenario
from engine.resources import bundled_scenarios

# scenario, German zone, Russian zone: (visible pairs, all pairs)
EXPECTED = {
    ("s1", "german-deployment", "russian-infiltration"): (3288, 8920),
    ("s1", "german-deployment", "russian-entry"): (155, 660),
    ("s2", "german-south-buildings", "russian-infiltration"): (2193, 6575),
    ("s2", "german-north-buildings", "russian-entry"): (49, 336),
    ("s3", "german-entry", "russian-deployment"): (3086, 9261),
    ("s3", "german-late-entry-east", "russian-deployment"): (1280, 5292),
    ("s4", "german-deployment", "russian-deployment"): (26629, 64827),
    ("s5", "german-entry", "russian-t34a-entry"): (30, 441),
    ("s5", "german-turn-2-entry", "russian-bt7m-deployment"): (594, 1703),
    ("s6", "german-group-1-deployment", "russian-group-1-deployment"): (770, 5400),
    ("s6", "german-group-3-entry", "russian-group-1-deployment"): (0, 270),
}


@cache
def scenario_views(key: str) -> tuple[Viewsheds, dict[str, frozenset[Hex]]]:
    path = next(p for p in bundled_scenarios() if p.name.startswith(key + "-"))
    scenario = load_scenario(path)
    board = scenario.load_board()
    ctx = scenario.zone_context(board)
    return Viewsheds(board), {name: resolve_named(name, ctx) for name in scenario.zones}


@pytest.mark.parametrize(("scenario", "german", "russian"), sorted(EXPECTED))
def test_zone_to_zone_visibility(scenario: str, german: str, russian: str) -> None:
    views, zones = scenario_views(scenario)
    ours, theirs = zones[german], zones[russian]
    watchers, watched = (ours, theirs) if len(ours) <= len(theirs) else (theirs, ours)
    seen = views.zones(watchers, watched)
    assert (seen.visible_pairs, seen.pairs) == EXPECTED[(scenario, german, russian)]
    back = views.zones(watched, watchers)
    assert back.visible_pairs == seen.visible_pairs  # symmetric with both ends UP
    assert 0.0 <= seen.share_seen <= 1.0
