"""The test suite's time, in one process (the naive baseline) and on every core, one JSON object.

    python benchmarks/suite_time.py [PYTEST ARGS...]     # e.g. -k "editor or cli"; default: the whole suite

Each run is `python -m pytest -q -p no:randomly` with the same selection; with no PYTEST ARGS it is
the README's test command (`-m 'not slow'`, testpaths). wall_s is the elapsed time, cpu_s the CPU
time of pytest and its workers; the machine's load average is printed beside them, since on a shared
machine the wall time follows the load more than the suite.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(workers: int, args: list[str]) -> dict[str, float | int | str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-n", str(workers), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else result.stderr[-300:]
    return {
        "workers": workers,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "summary": summary,
    }


def main() -> None:
    args = sys.argv[1:]
    cores = os.cpu_count() or 1
    naive = run(0, args)
    every_core = run(cores, args)
    speedup = naive["wall_s"] / every_core["wall_s"] if every_core["wall_s"] else None  # type: ignore[operator]
    json.dump({"one_process": naive, "every_core": every_core, "speedup": speedup}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
