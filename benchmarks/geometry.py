"""Geometry speed on the full 61x27 sheet (Maps 1-3 with the printed errata), one JSON object.

    python benchmarks/geometry.py [--sources N] [--naive-sources K] [--scenario PATH] [--rows R] [--repeat M]

--scenario: that scenario's board instead of the sheet. --rows R: the all-pairs time
extrapolated from R evenly spread rows of the matrix (for boards where the whole takes minutes).
--naive-sources 0: no naive baseline. --repeat M: the all-pairs matrix M times, the best kept
(this shared machine's load comes and goes by the second).

(CPU seconds.) fan_ms: one hex to every hex, fast kernel, median over N sources (table already built).
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
from pathlib import Path

import numpy as np

from engine.geometry.lattice import _walk, touches
from engine.geometry.line_table import HexArrays
from engine.geometry.los_kernel import SightKernel
from engine.geometry.los_reference import reference_sight
from engine.geometry.sight import FirerState, SightTerrain
from engine.model.board import load_board
from engine.model.scenario import load_scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=25)
    parser.add_argument("--naive-sources", type=int, default=2)
    parser.add_argument("--scenario", type=Path)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    board = load_scenario(args.scenario).load_board() if args.scenario else load_board(["map1", "map2", "map3"])
    terrain = SightTerrain.from_effects()
    touches.cache_clear()
    _walk.cache_clear()
    kernel = SightKernel(board, terrain)
    n = len(kernel.order)

    start = time.process_time()
    table = kernel.table
    table_build = time.process_time() - start
    arrays = kernel.arrays()
    step = max(1, n // args.sources)
    fans = []
    for i in range(0, n, step):
        start = time.process_time()
        kernel.fan_array(i, FirerState.UP, arrays)
        fans.append(time.process_time() - start)
    if args.rows:
        all_pairs, blocked_share = _sampled_matrix(kernel, arrays, args.rows)
    else:
        spent = []
        for _ in range(args.repeat):
            start = time.process_time()
            blocked_share = float(kernel.matrix().mean())
            spent.append(time.process_time() - start)
        all_pairs = min(spent)

    naive = []
    targets = kernel.order
    for i in range(0, n, max(1, n // max(1, args.naive_sources)))[: args.naive_sources]:
        start = time.process_time()
        for target in targets:
            reference_sight(board, kernel.order[i], target, FirerState.UP, None, terrain)
        naive.append(time.process_time() - start)
    fan = statistics.median(fans)
    figures: dict[str, object] = {
        "hexes": n,
        "fan_ms": round(fan * 1e3, 3),
        "all_pairs_s": round(all_pairs, 3),
        "all_pairs_extrapolated_from_rows": args.rows,
        "table_build_s": round(table_build, 2),
        "table_lines": len(table.distance),
        "all_pairs_with_table_s": round(all_pairs + table_build, 2),
        "blocked_share": round(blocked_share, 3),
    }
    if naive:
        naive_fan = statistics.median(naive)
        naive_all_pairs = naive_fan * (n - 1) / 2  # each pair once, as the kernel's matrix does
        figures |= {
            "naive_fan_ms": round(naive_fan * 1e3, 1),
            "naive_all_pairs_s": round(naive_all_pairs, 1),
            "naive_all_pairs_extrapolated_from_sources": len(naive),
            "speedup_fan": round(naive_fan / fan, 1),
            "speedup_all_pairs": round(naive_all_pairs / all_pairs, 1),
            "speedup_all_pairs_with_table": round(naive_all_pairs / (all_pairs + table_build), 1),
        }
    print(json.dumps(figures, indent=2))


def _sampled_matrix(kernel: SightKernel, arrays: HexArrays, rows: int) -> tuple[float, float]:
    """CPU seconds of the all-pairs matrix and its blocked share, from `rows` of its rows (row i
    works the pairs (i, j > i), as SightKernel.matrix does), scaled by the pairs they hold."""
    n = len(kernel.order)
    spent, pairs, blocked = 0.0, 0, 0
    for i in range(0, n - 1, max(1, (n - 1) // rows)):
        start = time.process_time()
        row = kernel.fan_array(i, FirerState.UP, arrays, np.arange(i + 1, n))
        spent += time.process_time() - start
        pairs, blocked = pairs + len(row), blocked + int(row.sum())
    return spent * (n * (n - 1) / 2) / pairs, blocked / pairs


if __name__ == "__main__":
    main()
