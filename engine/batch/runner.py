"""A batch's games on dask.distributed: a local cluster of one worker process per core by default,
or an existing cluster (`--scheduler tcp://HOST:8786`) with no other change. Each game is a task
that writes its own files (engine/batch/games.py); this side only hands them out, counts what comes
back, and records the error of a game whose worker died under it."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .games import WORKER, GameTask, game_files, play_task, record_error


@dataclass
class Tally:
    """The batch's running count, shown beside the progress bar."""

    total: int
    done: int = 0  # finished before this run too
    wins: dict[str, int] = field(default_factory=dict)  # "german", "russian", "draw"
    failed: int = 0

    def add(self, summary: dict[str, Any]) -> None:
        self.done += 1
        if "error" in summary:
            self.failed += 1
            return
        winner = str(summary.get("winner"))
        self.wins[winner] = self.wins.get(winner, 0) + 1

    def text(self) -> str:
        counts = ", ".join(f"{side} {n}" for side, n in sorted(self.wins.items()))
        return counts + (f", {self.failed} failed" if self.failed else "")


def finished(task: GameTask) -> dict[str, Any] | None:
    """The summary of a game a run before this one finished (its summary file is written last)."""
    summary_file = game_files(Path(task.out), task.key)[1]
    try:
        summary: dict[str, Any] = json.loads(summary_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # not finished, or cut short: played again
    return summary


def _own_session() -> None:
    """Each worker process its own session, so its own autogroup: under sched_autogroup the processes
    of one session share one CPU share, and two workers would run at the speed of one."""
    with contextlib.suppress(OSError):  # already a session leader (a worker started by `dask worker` by hand)
        os.setsid()


def _freezes() -> None:
    """A worker freezes what its games share after its first (games.freeze_kept)."""
    WORKER["freezes"] = True


@contextmanager
def cluster(workers: int | None, scheduler: str | None, own_sessions: bool = True) -> Iterator[Any]:
    """A Dask client: on the given scheduler, or on a local cluster of `workers` processes (one a core
    by default), one thread each (the engine is pure Python: threads would share one interpreter lock)."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler, timeout="20s") as client:
            client.run(_freezes)
            yield client
        return
    # A game whose worker dies is recorded as failed at once, not handed to the next worker (it may
    # be the game that kills them) and the same command plays it again: allowed-failures 0.
    config = {"distributed.scheduler.allowed-failures": 0}
    with (
        dask.config.set(config),
        LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: other clusters may run here
            scheduler_port=0,
            # distributed's own errors stay off the terminal: a game that fails is recorded with its
            # error (record_error), and closing the cluster can race a worker's heartbeat into a
            # logged traceback that is no fault of the batch's.
            silence_logs=logging.CRITICAL,
        ) as local,
        Client(local) as client,
    ):
        if own_sessions:
            client.run(_own_session)
        client.run(_freezes)
        yield client


def run_batch(
    client: Any,
    tasks: Iterable[GameTask],
    *,
    on_result: Callable[[dict[str, Any] | None, Tally], None] | None = None,
) -> Tally:
    """Play the tasks not finished before; each summary (or error) passed to `on_result` as it comes
    (None first, with the tally of the games finished before).
    An interrupt (KeyboardInterrupt) cancels what is still to play and goes up: what finished is on disk."""
    from distributed import as_completed

    tasks = list(tasks)
    tally = Tally(len(tasks))
    todo = []
    for task in tasks:
        summary = finished(task)
        if summary is None:
            todo.append(task)
        else:
            tally.add(summary)
    if on_result is not None:
        on_result(None, tally)
    if not todo:
        return tally
    futures = {client.submit(play_task, task, pure=False): task for task in todo}
    try:
        for future in as_completed(futures):
            task = futures[future]
            if future.status == "error":  # the worker died under it (KilledWorker), or the task could not start
                # it may have died after the game's summary was written: then the game is finished
                summary = finished(task) or record_error(task, _why(future.exception()))
            else:
                summary = future.result()
            tally.add(summary)
            if on_result is not None:
                on_result(summary, tally)
    except BaseException:
        client.cancel(list(futures))
        raise
    return tally


def _why(exc: BaseException | None) -> str:
    name = type(exc).__name__ if exc is not None else "error"
    if name == "KilledWorker":
        return f"KilledWorker: the worker process died while it played this game ({exc})"
    return f"{name}: {exc}"
