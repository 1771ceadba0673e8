"""Batch playtests' scaling on this machine: the same games on a local Dask cluster of 1 and of 2
workers (each worker in its own session, and 2 workers sharing the client's session), beside the
naive baseline measured in the same run: the games one after another in this process, no Dask.

    python benchmarks/batch_scaling.py [--scenario s1] [--games 40] [--players heuristic,heuristic] [--rounds 1]

For each way it prints the wall time, the games' own CPU seconds (summed over the workers: each
game's process_time), games per wall second and per CPU second, and the speed-up on the sequential
baseline. Under sched_autogroup (Linux), the processes of one session share one CPU share: the
workers call setsid() (engine/batch/runner.py) so that two of them may use two cores; the
"2 workers, one session" line measures the difference. The load average before and after says
how busy the machine was (other processes count). One JSON object per line, then a table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.batch.games import play_task
from engine.batch.plan import BatchSpec, prepare
from engine.batch.runner import cluster, run_batch
from engine.model.source import load_yaml
from engine.resources import given_or_bundled


def _tasks(scenario: str, games: int, players: tuple[str, str], seed: int) -> tuple[Path, list[Any]]:
    out = Path(tempfile.mkdtemp(prefix="batch-scaling-"))
    return out, prepare(load_yaml(given_or_bundled(scenario)), BatchSpec(games, players, swap=True, seed=seed), out)


def sequential(scenario: str, games: int, players: tuple[str, str], seed: int) -> dict[str, Any]:
    out, tasks = _tasks(scenario, games, players, seed)
    started, cpu = time.perf_counter(), time.process_time()
    play_task(tasks[0])  # warm-up outside the clock: the scenario's validation and terrain, as each worker does once
    started, cpu = time.perf_counter(), time.process_time()
    summaries = [play_task(t) for t in tasks[1:]]
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    shutil.rmtree(out)
    return _row("sequential, no Dask (baseline)", len(summaries), wall, cpu, summaries)


def on_cluster(
    scenario: str, games: int, players: tuple[str, str], seed: int, workers: int, own_sessions: bool
) -> dict[str, Any]:
    out, tasks = _tasks(scenario, games, players, seed)
    with cluster(workers, None, own_sessions=own_sessions) as client:
        client.run(_warm, tasks[0])  # each worker validates the scenario once, outside the clock
        for task in tasks:  # the warm-up wrote game 0 in each: played again on the clock
            for suffix in (".json", ".jsonl"):
                (out / "games" / f"{task.key}{suffix}").unlink(missing_ok=True)
        started = time.perf_counter()
        summaries: list[dict[str, Any]] = []
        run_batch(client, tasks[1:], on_result=lambda s, t: summaries.append(s) if s else None)
        wall = time.perf_counter() - started
    shutil.rmtree(out)
    cpu = sum(float(s.get("cpu_seconds") or 0.0) for s in summaries)
    how = f"{workers} worker{'s' if workers > 1 else ''}" + ("" if own_sessions else ", one session")
    return _row(how, len(summaries), wall, cpu, summaries)


def _warm(task: Any) -> None:
    play_task(task)


def _row(how: str, games: int, wall: float, cpu: float, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    failed = sum(1 for s in summaries if "error" in s)
    return {
        "how": how,
        "games": games,
        "failed": failed,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "games_per_s": round(games / wall, 3),
        "games_per_cpu_s": round(games / cpu, 3) if cpu else None,
    }


def _total(rows: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """One way's rounds added up."""
    games, wall, cpu = (sum(r[k] for r in rows) for k in ("games", "wall_s", "cpu_s"))
    return {
        "how": rows[0]["how"],
        "games": games,
        "failed": sum(r["failed"] for r in rows),
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "games_per_s": round(games / wall, 3),
        "games_per_cpu_s": round(games / cpu, 3) if cpu else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="s1")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", default="heuristic,heuristic")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=1, help="each way in turn, this many times (default 1)")
    args = parser.parse_args()
    names = tuple(args.players.split(","))
    players = (names[0], names[1])
    print(json.dumps({"load_before": os.getloadavg(), "cores": os.cpu_count(), **vars(args)}))
    # Round by round, each way in turn on the same games: a machine whose load drifts (other users)
    # weighs on every way alike, where one way after another would pin the drift on the last.
    rounds: list[list[dict[str, Any]]] = []
    for r in range(args.rounds):
        seed = args.seed + r * (args.games + 1)
        done = [sequential(args.scenario, args.games + 1, players, seed)]
        for workers, own in ((1, True), (2, True), (2, False)):
            done.append(on_cluster(args.scenario, args.games + 1, players, seed, workers, own))
        for row in done:
            print(json.dumps({"round": r, **row, "load": os.getloadavg()[0]}), flush=True)
        rounds.append(done)
    rows = [_total(ways) for ways in zip(*rounds, strict=True)]
    print(json.dumps({"load_after": os.getloadavg()}))
    base = rows[0]["games_per_s"]
    print(f"\n{'how':<32} {'games':>5} {'wall s':>7} {'CPU s':>7} {'games/s':>8} {'games/CPU s':>11} {'speed-up':>8}")
    for row in rows:
        print(
            f"{row['how']:<32} {row['games']:>5} {row['wall_s']:>7} {row['cpu_s']:>7} {row['games_per_s']:>8} "
            f"{row['games_per_cpu_s']!s:>11} {row['games_per_s'] / base:>7.2f}x"
        )


if __name__ == "__main__":
    main()
