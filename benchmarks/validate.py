"""Validation speed, one JSON object: all six bundled scenarios in one process, and
revalidation after one-hex edits (what the editor does after a brush stroke).

    python benchmarks/validate.py [--edits N] [--scenario PATH]

all_scenarios_s: every check (geometry included) on the six scenarios, one process, cold.
edit_ms_*: a ValidationSession per scenario; N random one-hex terrain edits each, timed from
the edit to the updated problem list (median and worst over all scenarios), in CPU time (the
machine is shared: wall time follows the load).
naive_edit_ms_median: the baseline, validating the edited scenario from scratch each time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from engine.model.source import load_yaml
from engine.model.terrain import Terrain
from engine.resources import bundled_scenarios
from engine.validate.context import ScenarioContext
from engine.validate.registry import runners
from engine.validate.scenario import scenario_problems
from engine.validate.session import ValidationSession

PAINT = [Terrain(), Terrain(trees=3), Terrain(building="99"), Terrain(level=1, hill="K"), Terrain(marsh=True)]


def _p95_ms(times: list[float]) -> float:
    return round(sorted(times)[int(0.95 * (len(times) - 1))] * 1e3, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--scenario", type=Path, help="this scenario only (default: the six bundled ones)")
    args = parser.parse_args()
    random.seed(1)
    paths = [args.scenario] if args.scenario else bundled_scenarios()
    docs = [load_yaml(p) for p in paths]

    start = time.perf_counter()
    per_scenario = {}
    for path, doc in zip(paths, docs, strict=True):
        t = time.perf_counter()
        scenario_problems(doc)
        per_scenario[path.stem] = round(time.perf_counter() - t, 3)
    all_scenarios = time.perf_counter() - start

    edits, naive, worst, p95 = [], [], {}, {}
    for path, doc in zip(paths, docs, strict=True):
        session = ValidationSession(doc)
        session.problems()
        assert session.board is not None
        hexes = sorted(session.board.hexes)
        times = []
        for _ in range(args.edits):
            stroke = {random.choice(hexes): random.choice(PAINT)}
            t = time.process_time()
            session.edit(stroke)
            session.problems()
            times.append(time.process_time() - t)
        edits += times
        worst[path.stem] = round(max(times) * 1e3, 1)
        p95[path.stem] = _p95_ms(times)
        t = time.process_time()
        ctx = ScenarioContext(session.context.scenario)
        assert ctx.board is not None
        ctx.board.set_terrain(stroke)
        for check in runners("check_scenario"):
            list(check(ctx))
        naive.append(time.process_time() - t)
    print(
        json.dumps(
            {
                "all_scenarios_s": round(all_scenarios, 2),
                "per_scenario_s": per_scenario,
                "edits": len(edits),
                "edit_ms_median": round(statistics.median(edits) * 1e3, 1),
                "edit_ms_p90": round(sorted(edits)[int(0.9 * len(edits))] * 1e3, 1),
                "edit_ms_p95": _p95_ms(edits),
                "edit_ms_p95_per_scenario": p95,
                "edit_ms_max": round(max(edits) * 1e3, 1),
                "edit_ms_max_per_scenario": worst,
                "naive_edit_ms_median": round(statistics.median(naive) * 1e3, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
