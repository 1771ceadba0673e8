"""Geometry speed on the full 61x27 sheet (Maps 1-3 with the printed errata), one JSON object.

    python benchmarks/geometry.py [--sources N] [--naive-sources K]

fan_ms: one hex to every hex, fast kernel, median over N sources (table already built).
all_pairs_s: the all-pairs visibility matrix, fast kernel (table already built).
table_build_s: the one-off per-board line table (every delta's hexes and symbol parts).
naive_*: the shapely reference (STRtree query of hexagons, then line-vs-polygon relations);
its all-pairs time is extrapolated from K sources' fans (each pair once: n * (n - 1) / 2 lines).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine.geometry.lattice import _walk, touches
from engine.geometry.los_kernel import SightKernel
from engine.geometry.los_reference import reference_sight
from engine.geometry.sight import FirerState, SightTerrain
from engine.model.board import load_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=25)
    parser.add_argument("--naive-sources", type=int, default=2)
    args = parser.parse_args()
    board = load_board(["map1", "map2", "map3"])
    terrain = SightTerrain.from_effects()
    touches.cache_clear()
    _walk.cache_clear()
    kernel = SightKernel(board, terrain)
    n = len(kernel.order)

    start = time.perf_counter()
    table = kernel.table
    table_build = time.perf_counter() - start
    arrays = kernel.arrays()
    step = max(1, n // args.sources)
    fans = []
    for i in range(0, n, step):
        start = time.perf_counter()
        kernel.fan_array(i, FirerState.UP, arrays)
        fans.append(time.perf_counter() - start)
    start = time.perf_counter()
    matrix = kernel.matrix()
    all_pairs = time.perf_counter() - start

    naive = []
    targets = kernel.order
    for i in range(0, n, max(1, n // args.naive_sources))[: args.naive_sources]:
        start = time.perf_counter()
        for target in targets:
            reference_sight(board, kernel.order[i], target, FirerState.UP, None, terrain)
        naive.append(time.perf_counter() - start)
    naive_fan = statistics.median(naive)
    naive_all_pairs = naive_fan * (n - 1) / 2  # each pair once, as the kernel's matrix does
    print(
        json.dumps(
            {
                "hexes": n,
                "fan_ms": round(statistics.median(fans) * 1e3, 2),
                "all_pairs_s": round(all_pairs, 2),
                "table_build_s": round(table_build, 2),
                "table_lines": len(table.distance),
                "all_pairs_with_table_s": round(all_pairs + table_build, 2),
                "blocked_share": round(float(matrix.mean()), 3),
                "naive_fan_ms": round(naive_fan * 1e3, 1),
                "naive_all_pairs_s": round(naive_all_pairs, 1),
                "naive_all_pairs_extrapolated_from_sources": len(naive),
                "speedup_fan": round(naive_fan / statistics.median(fans), 1),
                "speedup_all_pairs": round(naive_all_pairs / all_pairs, 1),
                "speedup_all_pairs_with_table": round(naive_all_pairs / (all_pairs + table_build), 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
