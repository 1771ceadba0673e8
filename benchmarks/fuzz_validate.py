"""`iceditor validate` on mutated copies of every bundled file: how each ends, and how long it takes.

    python benchmarks/fuzz_validate.py [--count 25000] [--seed 1] [--timeout 20] [--memory-mb 2048]

Prints one JSON object: the outcome counts (exit 0, 1, 2; `internal` for exit 3 or a traceback,
`timeout` past --timeout seconds), the CPU time per mutant (median, p99, worst; the ten slowest by
index in the stream, file and mutations) beside the naive
baseline (the unmutated files, validated in the same run), the peak memory of the process, and
the first failures (file, mutations, the output's last line). The process runs under an
address-space limit (--memory-mb), so a file that tried to take the machine's memory would end
as a MemoryError, counted as `internal`. tests/test_hostile_files.py runs 300 of these in CI.
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.resources import bundled_files
from tests.fuzzing import Mutant, mutants, validate_mutant


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout


def _timed(mutant: Mutant, folder: Path, timeout: int) -> tuple[str, float, str]:
    """(outcome, CPU seconds, last line of output) for one mutant: CPU time, since on a shared
    machine the wall time follows the load (the timeout is of wall time)."""
    signal.alarm(timeout)
    start = time.process_time()
    try:
        outcome = validate_mutant(mutant, folder)
    except _Timeout:
        return "timeout", time.process_time() - start, ""
    finally:
        signal.alarm(0)
    seconds = time.process_time() - start
    last = (outcome.output.strip().splitlines() or [""])[-1][:200]
    if outcome.status == 3 or "Traceback" in outcome.output:
        return "internal", seconds, last
    return f"exit {outcome.status}", seconds, last


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1),
        "worst_ms": round(ordered[-1] * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=25_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=20, help="seconds a mutant may take")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the process")
    args = parser.parse_args()
    limit = args.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGALRM, _alarm)
    sources = bundled_files()

    with tempfile.TemporaryDirectory() as folder:
        unmutated = [Mutant(p, "none", p.read_text(encoding="utf-8")) for p in sources]
        baseline = [_timed(m, Path(folder), args.timeout) for m in unmutated]
    with tempfile.TemporaryDirectory() as folder:
        counts: Counter[str] = Counter()
        per_mutation: dict[str, Counter[str]] = {}
        times, failures, slowest = [], [], []
        start = time.perf_counter()
        for index, mutant in enumerate(mutants(sources, args.count, args.seed)):
            outcome, seconds, last = _timed(mutant, Path(folder), args.timeout)
            slowest = sorted([*slowest, (seconds, index, mutant.source.name, mutant.mutation, outcome)])[-10:]
            counts[outcome] += 1
            for name in set(mutant.mutation.split("+")):
                per_mutation.setdefault(name, Counter())[outcome] += 1
            times.append(seconds)
            if outcome in ("internal", "timeout") and len(failures) < 20:
                failures.append({"file": mutant.source.name, "mutation": mutant.mutation, "output": last})
        total = time.perf_counter() - start

    print(
        json.dumps(
            {
                "mutants": args.count,
                "seed": args.seed,
                "outcomes": dict(sorted(counts.items())),
                "outcomes_by_mutation": {k: dict(sorted(v.items())) for k, v in sorted(per_mutation.items())},
                "total_s": round(total, 1),
                "per_mutant": _summary(times),
                "baseline_unmutated_files": {"files": len(baseline), **_summary([t for _, t, _ in baseline])},
                "baseline_outcomes": dict(Counter(o for o, _, _ in baseline)),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "memory_limit_mb": args.memory_mb,
                "failures": failures,
                "slowest": [
                    {"cpu_s": round(t, 2), "index": i, "file": f, "mutation": m, "outcome": o}
                    for t, i, f, m, o in reversed(slowest)
                ],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
