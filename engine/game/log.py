"""A game is its log (docs/engine.md): JSON lines, a header naming the scenario file's hash, the
engine version, the seed and the options, then one line per action with the dice it rolled and
what happened, and last a snapshot of the state (snapshot.py). Opening the log starts from the
snapshot (R201); replaying it rebuilds the game from the start; `verify` rolls the dice again from
the seed and checks every recorded roll, state digest and the snapshot.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.model.scenario import Scenario
from engine.resources import shown_name
from engine.terminal_text import shown

from .actions import Action, IllegalAction, parse
from .dice import Dice, ReplayMismatch
from .play import ENGINE_VERSION, new_game, play
from .snapshot import SnapshotError, checksum, restore, snapshot
from .state import GameState

LOG_FORMAT = "iron-cross-game/1"
# the options new_game reads (play.py), and their types; `advanced`: the advanced rules 21.0-23.0
OPTIONS: dict[str, type] = {"first_shot": bool, "advanced": bool}
MAX_SEED_DIGITS = 20  # a seed is a 64-bit number: a 5,000-digit one is no seed of ours


class LogError(ValueError):
    """A log that cannot be replayed: `line` is its line, the message what is wrong (without the
    line: whoever prints it names the file and line once, `FILE:LINE: error: ...`)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def scenario_hash(scenario: Scenario) -> str:
    return hashlib.sha256(Path(scenario.file).read_bytes()).hexdigest()


def header(game: GameState, players: list[str] | None = None) -> dict[str, Any]:
    return {
        "format": LOG_FORMAT,
        "scenario": shown_name(game.scenario.file),
        "scenario_sha256": scenario_hash(game.scenario),
        "engine": ENGINE_VERSION,
        "seed": game.seed,
        "options": game.options,
        "players": players or [],
    }


def log_lines(game: GameState, players: list[str] | None = None) -> Iterator[str]:
    """The log as JSON lines: the header, then each entry (the start, then one per action), then
    the snapshot of the state after the last (a saved game opens there: R201)."""
    yield json.dumps(header(game, players), sort_keys=True)
    for entry in game.log:
        yield json.dumps(entry, sort_keys=True)
    data = snapshot(game)
    line = {"snapshot": len(game.log) - 1, "digest": game.digest(), "sha256": checksum(data), "data": data}
    yield json.dumps(line)  # keys in the state's order: a mapping's order is the state's too


def log_text(game: GameState, players: list[str] | None = None) -> str:
    """The whole log, as a file holds it (the caller writes it: iceditor's atomic_write)."""
    return "\n".join(log_lines(game, players)) + "\n"


@dataclass(frozen=True)
class Log:
    header: dict[str, Any]
    entries: list[dict[str, Any]]  # entry 0 is the start; entry n the n-th action
    snapshot: dict[str, Any] | None = None  # the last line's: the state after its entry `snapshot`


def read_log(text: str) -> Log:
    """Parse a log; LogError naming the line for anything that is not one."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        raise LogError(1, "the log is empty")
    parsed = []
    for number, line in enumerate(lines, start=1):
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise LogError(number, f"not a JSON line ({exc.msg}): the log is corrupt or cut short") from None
        except RecursionError:
            raise LogError(number, "nested too deep to be a log line (a log's lines nest a few levels)") from None
        except ValueError:  # a number of over 4,300 digits (Python's limit on reading one)
            raise LogError(number, "a number of over 4,300 digits: no log line holds one") from None
        if not isinstance(value, dict):
            raise LogError(number, "a log line is a JSON object")
        parsed.append(value)
    head = parsed[0]
    if head.get("format") != LOG_FORMAT:
        raise LogError(1, f"not a game log (its first line is not format: {LOG_FORMAT})")
    for key in ("scenario", "scenario_sha256", "seed", "options"):
        if key not in head:
            raise LogError(1, f"the header has no {key}")
    if not isinstance(head["seed"], int) or not isinstance(head["options"], dict):
        raise LogError(1, "the header's seed is a number and its options a mapping")
    if len(str(abs(head["seed"]))) > MAX_SEED_DIGITS:
        raise LogError(1, f"the header's seed has {len(str(abs(head['seed'])))} digits, at most {MAX_SEED_DIGITS}")
    if head.get("engine") != ENGINE_VERSION:
        raise LogError(
            1, f"the log is of engine {_quoted(head.get('engine'))}; this iceditor plays {ENGINE_VERSION} only"
        )
    for name, value in head["options"].items():
        if name not in OPTIONS:
            raise LogError(1, f"unknown option {_quoted(name)} (options: {', '.join(OPTIONS)})")
        if not isinstance(value, OPTIONS[name]):
            raise LogError(1, f"option {name} is {OPTIONS[name].__name__}, not {_quoted(value)}")
    entries = parsed[1:]
    if not entries or entries[0].get("event") != "start":
        raise LogError(2, "the log's second line is the start of the game")
    shot = entries.pop() if "snapshot" in entries[-1] else None
    for offset, entry in enumerate(entries[1:], start=3):
        if "snapshot" in entry:
            raise LogError(offset, "a snapshot is the log's last line")
        if not isinstance(entry.get("action"), str) or not isinstance(entry.get("dice", []), list):
            raise LogError(offset, "an action line has an action (text) and its dice (a list)")
    if shot is not None and shot["snapshot"] != len(entries) - 1:
        raise LogError(len(lines), f"the snapshot is of action {shot['snapshot']}, the log has {len(entries) - 1}")
    return Log(head, entries, shot)


def _quoted(value: object) -> str:
    return "none" if value is None else shown(json.dumps(value))


def replay(
    log: Log,
    scenario: Scenario,
    *,
    verify: bool = False,
    upto: int | None = None,
    each: Callable[[GameState, int], None] | None = None,
) -> GameState:
    """The game the log records, after entry `upto` (None: all of it). All of it without `verify`
    or `each` is the log's snapshot (R201: checked against its hash and digest, never replayed).
    Without `verify` the dice are the log's own, never rolled again; with it they are rolled from
    the seed and every roll, digest and the snapshot is compared with the log. `each(state, n)` is
    called after every entry."""
    if scenario_hash(scenario) != log.header["scenario_sha256"]:
        raise LogError(1, f"the log is of another scenario file than {scenario.file} (its hash differs)")
    recorded = [die for entry in log.entries for die in entry.get("dice", [])]
    seed = int(log.header["seed"])
    game = new_game(scenario, seed, log.header["options"])
    if verify:
        _compare(2, game.log[0], log.entries[0])
    last = len(log.entries) - 1
    if log.snapshot is not None and not verify and each is None and upto in (None, last):
        return _opened(game, log, recorded)
    if not verify:
        game.dice = Dice.replaying(seed, recorded)
    if each is not None:
        each(game, 0)
    for n, entry in enumerate(log.entries[1:], start=1):
        if upto is not None and n > upto:
            break
        line = n + 2
        try:
            action = parse(entry["action"])
        except ValueError as exc:
            raise LogError(line, str(exc)) from None
        before = len(game.dice.rolled)
        try:
            play(game, action)
        except IllegalAction as exc:
            raise LogError(line, f"{action.text()} is not legal here: {exc}") from None
        except ReplayMismatch as exc:
            raise LogError(line, str(exc)) from None
        rolled = game.dice.rolled[before:]
        if rolled != list(entry.get("dice", [])):
            raise LogError(line, f"the dice rolled {rolled}, the log records {entry.get('dice', [])}")
        if "digest" in entry and game.log[-1].get("digest") != entry["digest"]:
            raise LogError(line, "the state differs from the one the log records")
        if verify:
            _compare(line, game.log[-1], entry)
        if each is not None:
            each(game, n)
    if verify and upto in (None, last) and log.snapshot is not None and snapshot(game) != log.snapshot["data"]:
        raise LogError(last + 3, "the snapshot is not the state the log's actions make")
    return game


def _compare(line: int, made: dict[str, Any], recorded: dict[str, Any]) -> None:
    """LogError naming the first field of a log line that is not what the replay made (`verify`):
    its events, the result among them, its turn, phase, side and number."""
    made = json.loads(json.dumps(made, sort_keys=True))  # as the log holds it: tuples are lists
    for key in sorted(made.keys() | recorded.keys()):
        if made.get(key) != recorded.get(key):
            if key == "events":
                raise LogError(line, _events_differ(made.get(key) or [], recorded.get(key) or []))
            raise LogError(
                line, f"the log records {key} {_quoted(recorded.get(key))}, the replay makes {_quoted(made.get(key))}"
            )


def _events_differ(made: list[Any], recorded: list[Any]) -> str:
    for n, (ours, theirs) in enumerate(zip(made, recorded, strict=False), start=1):
        if ours == theirs:
            continue
        if isinstance(ours, dict) and isinstance(theirs, dict):
            key = min(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
            return (
                f"event {n} ({ours.get('event')}) {key}: the log records {_quoted(theirs.get(key))}, "
                f"the replay makes {_quoted(ours.get(key))}"
            )
        return f"event {n}: the log records {_quoted(theirs)}, the replay makes {_quoted(ours)}"
    return f"the log records {len(recorded)} events, the replay makes {len(made)}"


def _opened(game: GameState, log: Log, recorded: list[int]) -> GameState:
    """The game at the log's snapshot: `game` (new, of the log's scenario) given its state (R201)."""
    line, shot = len(log.entries) + 2, log.snapshot
    assert shot is not None
    if not isinstance(shot.get("data"), dict) or checksum(shot["data"]) != shot.get("sha256"):
        raise LogError(line, "the snapshot does not match its sha256: it was edited or is corrupt")
    try:
        restore(game, shot["data"], recorded)
    except SnapshotError as exc:
        raise LogError(line, f"the snapshot is refused: {exc}") from None
    game.log = list(log.entries)
    recorded_digest = log.entries[-1].get("digest", shot.get("digest"))
    if game.digest() != shot.get("digest") or game.digest() != recorded_digest:
        raise LogError(line, "the snapshot's state is not the one the log records (its digest differs)")
    return game


def action_of(entry: dict[str, Any]) -> Action:
    return parse(str(entry["action"]))
