"""Batch playtests on a local Dask cluster of two workers (engine/batch, docs/balance.md): every game
written as it finishes, a worker killed mid-batch loses nothing finished and records the game it
was playing, and the same batch resumes without replaying what is done."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.batch.html import publish
from engine.batch.plan import BatchSpec, prepare
from engine.batch.runner import cluster, run_batch
from engine.game.log import read_log
from engine.model.source import load_yaml

DUEL = Path(__file__).parent / "fixtures" / "game" / "duel.yaml"  # a small scenario: games of 300 actions


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """One local cluster of two worker processes for the file (starting one takes seconds)."""
    with cluster(2, None) as started:
        yield started


def _tasks(out: Path, games: int, seed: int = 0) -> list[Any]:
    return prepare(load_yaml(DUEL), BatchSpec(games, ("random", "random"), swap=True, seed=seed), out)


def _summaries(out: Path) -> dict[str, dict[str, Any]]:
    return {p.name.removesuffix(".json"): json.loads(p.read_text()) for p in (out / "games").glob("g*[0-9].json")}


def test_a_batch_on_two_workers_writes_every_game_and_resumes_without_replaying(tmp_path: Path, client: Any) -> None:
    tasks = _tasks(tmp_path, 4)
    seen: list[str] = []
    assert len(client.scheduler_info()["workers"]) == 2
    tally = run_batch(client, tasks, on_result=lambda s, t: seen.append(s["key"]) if s else None)
    assert sorted(seen) == [t.key for t in tasks]
    assert tally.done == 4 and tally.failed == 0
    summaries = _summaries(tmp_path)
    assert sorted(summaries) == ["g00000", "g00001", "g00002", "g00003"]
    # --swap: every second game with the players exchanged; game i's seed is seed + i
    assert summaries["g00003"]["seed"] == 3
    for key, summary in summaries.items():
        log = read_log((tmp_path / "games" / f"{key}.jsonl").read_text())
        assert log.header["seed"] == summary["seed"]
        assert log.header["scenario"].endswith("scenario.yaml")  # the file the batch played, beside the logs
        assert len(log.entries) - 1 == summary["actions"]
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "games").iterdir()}
    seen.clear()
    again = run_batch(client, _tasks(tmp_path, 4), on_result=lambda s, t: seen.append(s["key"]) if s else None)
    assert seen == [] and again.done == 4  # nothing replayed
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "games").iterdir()} == stamps
    report = publish(tmp_path, [t.key for t in tasks])
    assert report["games"] == 4
    assert sum(report["outcomes"]["german"][k]["count"] for k in ("win", "draw", "loss")) == 4
    for name in ("report.json", "games.csv", "report.html", "outcomes.png", "losses.png", "control.png"):
        assert (tmp_path / name).is_file(), name
    assert len((tmp_path / "games.csv").read_text().splitlines()) == 5


def test_a_worker_killed_mid_batch_loses_nothing_finished_and_records_its_game(tmp_path: Path, client: Any) -> None:
    tasks = _tasks(tmp_path, 8, seed=10)
    killed: list[str] = []

    def kill_one(summary: dict[str, Any] | None, tally: Any) -> None:
        if summary is None or killed:
            return
        busy = {addr: keys for addr, keys in client.processing().items() if keys}
        pids = client.run(os.getpid)
        addr = next(iter(busy))
        killed.append(addr)
        os.kill(pids[addr], signal.SIGKILL)  # the worker process dies mid-game

    tally = run_batch(client, tasks, on_result=kill_one)
    assert killed
    summaries = _summaries(tmp_path)
    errors = {
        p.name.removesuffix(".error.json"): json.loads(p.read_text()) for p in (tmp_path / "games").glob("*.error.json")
    }
    assert errors, "the game the killed worker was playing is recorded as failed"
    assert all("KilledWorker" in e["error"] for e in errors.values())
    assert set(summaries) | set(errors) == {t.key for t in tasks}
    assert tally.failed == len(errors)
    for key in summaries:  # every finished game is whole: its log reads
        read_log((tmp_path / "games" / f"{key}.jsonl").read_text())
    report = publish(tmp_path, [t.key for t in tasks])
    assert {f["key"] for f in report["failed"]} == set(errors)
    replayed: list[str] = []
    client.wait_for_workers(2, timeout=60)  # the nanny has started the killed worker again
    # the same batch again: only the failed games are played
    run_batch(client, _tasks(tmp_path, 8, seed=10), on_result=lambda s, t: replayed.append(s["key"]) if s else None)
    assert sorted(replayed) == sorted(errors)
    assert set(_summaries(tmp_path)) == {t.key for t in tasks}
    assert not list((tmp_path / "games").glob("*.error.json"))


@pytest.mark.slow
def test_the_command_plays_a_sweep_and_a_compare_on_a_given_scheduler(
    tmp_path: Path, client: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from iceditor.cli import main

    out = tmp_path / "sweep"
    args = ["--games", "1", "--scheduler", client.scheduler.address, "--no-progress", "--out"]
    assert main(["playtest", str(DUEL), "--vary", "sides.german.grenades=0,6", *args, str(out)]) == 0
    said = capsys.readouterr().out
    assert "sides.german.grenades = 0: 1 games." in said
    sweep = json.loads((out / "sweep.json").read_text())
    assert [b["value"] for b in sweep["batches"]] == [0, 6]
    assert (out / "sweep.png").is_file() and (out / "sweep.html").is_file()
    assert "grenades: 0" in (out / "sides.german.grenades=0" / "scenario.yaml").read_text()
    other = tmp_path / "duel-b.yaml"  # a second version, with its map beside it
    other.write_text(DUEL.read_text().replace("hidden_hexes: 1", "hidden_hexes: 0", 1))
    (tmp_path / "duel-map.yaml").write_text((DUEL.parent / "duel-map.yaml").read_text())
    assert main(["playtest", "compare", str(DUEL), str(other), *args, str(tmp_path / "cmp")]) == 0
    result = json.loads((tmp_path / "cmp" / "compare.json").read_text())
    assert set(result["sides"]) == {"german", "russian"} and result["games"] == [1, 1]
    assert (tmp_path / "cmp" / "compare.html").is_file()


def test_distributeds_own_errors_stay_off_the_terminal() -> None:
    """A batch's failed game is recorded with its error (above); distributed's own logged errors, like
    a worker's heartbeat that races the cluster's closing into a traceback (CI, stop 39), do not reach
    the terminal, from the workers or from the scheduler."""
    script = """if __name__ == "__main__":
    import logging
    from engine.batch.runner import cluster
    with cluster(1, None) as client:
        client.run(lambda: logging.getLogger("distributed.worker").error("worker-side error"))
        logging.getLogger("distributed.scheduler").error("scheduler-side error")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "error" not in result.stdout + result.stderr
