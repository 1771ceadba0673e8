"""What the AFV's facing (8.74, R42) costs the turn searches, one JSON object.

    python benchmarks/afv_facing.py

On Scenario 6's board (Maps 1 and 2 with errata), from each German deployment or entry zone to
every objective of the scenario: `turns_searches` for an AFV, whose state is (hex, facing), and
for infantry (one state per hex: the search the AFV's used to be, the baseline), best of 5 runs,
each on a fresh board (the movement graphs built inside the timing).
"""

from __future__ import annotations

import json
import time

from engine.geometry.movement import Mover, UnitClass
from engine.geometry.turns import turns_searches
from engine.geometry.zones import resolve_named
from engine.model.scenario import load_scenario
from engine.resources import bundled_scenarios
from engine.validate.context import ScenarioContext
from engine.validate.objectives import objectives

RUNS = 5


def main() -> None:
    path = next(p for p in bundled_scenarios() if p.name.startswith("s6-"))
    scenario = load_scenario(path)

    def timed(mover: Mover) -> float:
        best = float("inf")
        for _ in range(RUNS):
            board = scenario.load_board()
            ctx = scenario.zone_context(board)
            zones = [resolve_named(n, ctx) for n in scenario.zones if n.startswith("german")]
            targets = [o.hexes for o in objectives(ScenarioContext(scenario, board_given=board))]
            start = time.perf_counter()
            for zone in zones:
                turns_searches(board, zone, targets, mover, entering=True)
            best = min(best, time.perf_counter() - start)
        return best

    afv, infantry = timed(Mover(UnitClass.AFV)), timed(Mover(UnitClass.INFANTRY))
    print(
        json.dumps(
            {"afv_s": round(afv, 3), "infantry_baseline_s": round(infantry, 3), "ratio": round(afv / infantry, 2)}
        )
    )


if __name__ == "__main__":
    main()
