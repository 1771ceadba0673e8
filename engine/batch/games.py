"""One game of a batch, as a worker plays it: the task it is given, the log it writes, and the small
summary it returns (what the balance report counts). Runs in Dask worker processes: no Qt, nothing
but the engine, and the scenario read from a file every worker sees."""

from __future__ import annotations

import gc
import json
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write
from engine.game import new_game
from engine.game.log import log_text
from engine.game.state import GameState
from engine.game.units import ELIMINATED
from engine.game.victory import CONTESTED, controller, hex_holder
from engine.model.counters import SIDES
from engine.model.scenario import Scenario, load_scenario
from engine.players import Player, make_player
from engine.players.match import play_out
from engine.validate.objectives import objectives

GAMES_FOLDER = "games"  # DIR/games/KEY.jsonl (the log), KEY.json (the summary), KEY.error.json


@dataclass(frozen=True)
class GameTask:
    key: str  # "g00042": the game's files in DIR/games
    scenario: str  # the scenario file the game is played from (DIR/scenario.yaml), absolute
    seed: int
    players: tuple[str, str]  # by side, in SIDES order (german, russian)
    out: str  # DIR, absolute: a folder every worker sees
    max_actions: int = 1_000_000
    advanced: bool = False  # the advanced rules (21.0-23.0, R319)


def player_seed(seed: int, side_index: int) -> int:
    """A side's player's seed in game `seed`: `iceditor play --seed S` replays batch game S."""
    return seed * 2 + side_index


def side_players(names: tuple[str, ...] | list[str], seed: int) -> dict[str, Player]:
    """The players of a game by side; ValueError naming the players there are for an unknown name."""
    return {
        side: make_player(name, player_seed(seed, i)) for i, (side, name) in enumerate(zip(SIDES, names, strict=True))
    }


def game_files(out: Path, key: str) -> tuple[Path, Path, Path]:
    """A game's log, summary and error record in DIR."""
    folder = out / GAMES_FOLDER
    return folder / f"{key}.jsonl", folder / f"{key}.json", folder / f"{key}.error.json"


@lru_cache(maxsize=8)
def _scenario(path: str, mtime_ns: int) -> Scenario:
    """A worker reads and validates a scenario once for all its games (new_game checks it once per object)."""
    return load_scenario(path)


# A batch worker (runner.cluster sets it in each worker process) freezes what it holds after its
# first game (`freeze_kept`); any other process (a test's, the editor's) keeps its collector as it is.
WORKER = {"freezes": False}
# A game leaves a few dozen objects in reference cycles (38 in Scenario 1, about 110 in Scenario 6,
# 2026-12-07); all else it makes dies by reference counting. The collector's default, a young
# collection every 700 containers more made than freed, walked a game's young objects some 20 times
# for them: 5-6% of a random game's CPU time. A worker's first generation is collected after 50,000.
WORKER_THRESHOLDS = (50_000, 20, 100)


def freeze_kept() -> None:
    """What the process holds after a game of the scenario (its maps, terrain costs and lines of
    sight, its steps and actions, kept for every later game) frozen out of the cyclic collector's
    walks (gc.freeze, after a collection: no garbage frozen): its full collections walked it all a
    few times a game. Each later game's own objects come after it, collected at the worker's
    thresholds (`WORKER_THRESHOLDS`; docs/engine.md, Random play)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_THRESHOLDS)


def play_task(task: GameTask) -> dict[str, Any]:
    """Play the task's game, write its log and summary to DIR (each atomically, the summary last: a
    summary on disk means a finished game), and return the summary. A game that fails writes its
    error instead and returns it: a batch keeps going."""
    log, summary_file, error_file = game_files(Path(task.out), task.key)
    started = time.process_time()
    try:
        scenario = _scenario(task.scenario, Path(task.scenario).stat().st_mtime_ns)
        game = new_game(scenario, task.seed, {"advanced": True} if task.advanced else None)
        observer = Observer(game)
        play_out(game, side_players(task.players, task.seed), max_actions=task.max_actions, after=observer)
        summary = summarize(task, game, observer, time.process_time() - started)
        atomic_write(log, log_text(game, list(task.players)))
        atomic_write(summary_file, json.dumps(summary, sort_keys=True) + "\n")
        error_file.unlink(missing_ok=True)
        if WORKER["freezes"] and not gc.get_freeze_count():  # after the worker's first game
            freeze_kept()
        return summary
    except Exception as exc:  # any failure is the game's, recorded beside the others; the batch goes on
        return record_error(task, f"{type(exc).__name__}: {exc}", traceback.format_exc())


def record_error(task: GameTask, error: str, details: str = "") -> dict[str, Any]:
    """Write a failed game's error to DIR (by its worker, or by the client when the worker died)."""
    record = {**_task_fields(task), "error": error, "details": details}
    atomic_write(game_files(Path(task.out), task.key)[2], json.dumps(record, sort_keys=True) + "\n")
    return record


def _task_fields(task: GameTask) -> dict[str, Any]:
    return {"key": task.key, "seed": task.seed, "players": dict(zip(SIDES, task.players, strict=True))}


class Observer:
    """What the report needs from the course of a game, read after each action: who holds each
    objective at the end of each Game Turn (the state as the turn ends is the state as the next begins)."""

    def __init__(self, game: GameState) -> None:
        self.objectives = [(o.name, o.hexes) for o in objectives(game.context)]
        self.points = "points" in game.scenario.data["victory"]
        self.turn = game.turn
        self.control: list[dict[str, Any]] = []

    def __call__(self, game: GameState) -> None:
        if game.turn != self.turn or game.is_over:
            if self.turn >= 1 and (not self.control or self.control[-1]["turn"] != self.turn):
                self.control.append({"turn": self.turn, "held": self.held(game)})
            self.turn = game.turn

    def held(self, game: GameState) -> dict[str, str | None]:
        """Each objective's holder (R266): the side with units there (24.1; 24.9's control in a VP
        scenario, R82) and not the other, `contested` for both, None for neither."""
        found: dict[str, str | None] = {}
        for name, hexes in self.objectives:
            sides = {controller(game, h) if self.points else hex_holder(game, h, last_occupant=False) for h in hexes}
            sides.discard(None)
            found[name] = next(iter(sides)) if len(sides) == 1 else (CONTESTED if sides else None)
        return found


def summarize(task: GameTask, game: GameState, observer: Observer, cpu_seconds: float) -> dict[str, Any]:
    result: Mapping[str, Any] = game.result or {}
    return {
        **_task_fields(task),
        "winner": result.get("winner"),
        "by": decided_by(game, result),
        "condition": result.get("condition"),
        "vp": result.get("vp"),
        "turns": game.turn,
        "actions": len(game.log) - 1,
        "casualties": {side: sum(1 for u in game.side_units(side) if u.where == ELIMINATED) for side in SIDES},
        "eliminated": _losses(game),
        "control": observer.control,
        "cpu_seconds": round(cpu_seconds, 4),
    }


def decided_by(game: GameState, result: Mapping[str, Any]) -> str | None:
    """The condition that decided, in words: as printed, or (a result the file prints no words for,
    which the engine calls `result N`) the condition's own terms: `russian occupies_each objectives`."""
    index, by = result.get("condition"), result.get("by")
    if index is None or not str(by).startswith("result "):
        return None if by is None else str(by)
    return _terms(game.scenario.data["victory"]["results"][index]["when"])


def _terms(condition: Mapping[str, Any]) -> str:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        return f" {kind.removesuffix('_of')} ".join(f"({_terms(c)})" for c in arg)
    where = arg.get("zone", arg.get("building"))
    return f"{arg.get('side', '')} {kind} {where if isinstance(where, str) else 'an area'}".strip()


def _losses(game: GameState) -> list[list[str]]:
    """Where units were lost, [hex, side] each (11.43 eliminated, 12.32 destroyed; 24.3's losses
    off the map have no hex and are not drawn)."""
    found = []
    for entry in game.log:
        for event in entry.get("events") or []:
            if event.get("event") in ("eliminated", "destroyed") and event.get("hex"):
                found.append([str(event["hex"]), game.units[event["unit"]].side])
    return found
