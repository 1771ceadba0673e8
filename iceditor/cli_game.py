"""`iceditor play` and `iceditor replay`: a game of a scenario by the rules engine (engine/game),
and a game's log replayed (docs/engine.md).

Exit 0 for a game played or a log replayed; 2 for input that cannot be played: an unknown or
invalid scenario, an unknown player, a log that is corrupt, cut short, of another scenario file,
or records an action the rules do not allow.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.batch.games import side_players
from engine.file_writing import atomic_write, refuse_inputs
from engine.game import ScenarioNotPlayable, new_game
from engine.game.log import Log, LogError, log_text, read_log, replay
from engine.game.state import GameState
from engine.model.counters import SIDES
from engine.model.map_folders import MapPathError, allowed_file
from engine.model.source import SourceError, read_text
from engine.players import PLAYERS
from engine.players.match import play_out
from engine.resources import bundled_file
from engine.terminal_text import shown

from .boardarg import BadInput, load_scenario_arg, scenario_inputs
from .editor.play.session import HUMAN
from .file_args import SCENARIO_HELP, file_arg
from .output import print_json


def add_parsers(commands: Any) -> None:
    game = commands.add_parser(
        "play",
        description="Play one game of SCENARIO from its set-up to its result, each side by a player "
        f"({', '.join(SIDES)} in that order), and print the result. The same seed gives the same game.",
    )
    game.add_argument("scenario", type=file_arg, metavar="SCENARIO", help=SCENARIO_HELP)
    game.add_argument("--seed", type=int, default=0, help="the game's dice and the players' choices (default 0)")
    game.add_argument("--players", default="random,random", help="german,russian players (default random,random)")
    game.add_argument("--log", type=Path, metavar="FILE", help="write the game's log (JSON lines) to FILE")
    game.add_argument("--advanced", action="store_true", help="the advanced rules (21.0-23.0, R319)")
    game.add_argument("--format", choices=("text", "json"), default="text")
    again = commands.add_parser(
        "replay",
        description="Replay LOG (written by iceditor play --log). The dice are the log's own; --verify rolls "
        "them again from the seed and checks every roll and state the log records.",
    )
    again.add_argument("log", type=Path, metavar="LOG")
    again.add_argument(
        "--verify",
        action="store_true",
        help="roll the dice again from the seed and compare every roll, event, state and the result; "
        "exit 1 if the log records no result (a game not over, or a log cut short)",
    )
    again.add_argument("--partial", action="store_true", help="with --verify: a game not over verifies too (exit 0)")
    again.add_argument("--at", type=int, metavar="N", help="the state after action N (0: the start)")
    again.add_argument("--each", choices=("phase",), help="one state per line at the end of every phase")
    again.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int | None:
    if args.command == "play":
        return _play(args)
    if args.command == "replay":
        return _replay(args)
    return None


def _play(args: argparse.Namespace) -> int:
    scenario, board = load_scenario_arg(args.scenario)
    if args.log is not None:  # before the game: a log over its own scenario would destroy it
        refuse_inputs(args.log, scenario_inputs(scenario, board), "a file this game reads")
    names = [n.strip() for n in args.players.split(",")]
    if len(names) != len(SIDES):
        raise BadInput(f"iceditor play: error: --players names {len(SIDES)} players, german then russian")
    if HUMAN in names:  # a person plays at a board, not at a prompt: the editor's playtest is that board
        raise BadInput(
            f"iceditor play: error: a person plays in the editor: iceditor edit {args.scenario}, then Play > "
            f"Playtest (F5) and choose {HUMAN} for the side; iceditor play plays AI players only "
            f"(players: {', '.join(sorted(PLAYERS))})"
        )
    try:
        players = side_players(names, args.seed)  # as a batch's game of this seed (engine/batch/games.py)
        game = new_game(scenario, args.seed, {"advanced": True} if args.advanced else None)
    except ScenarioNotPlayable as exc:  # its errors name their file, line and rule
        raise BadInput(str(exc)) from None
    except ValueError as exc:
        raise BadInput(f"iceditor play: error: {exc}") from None
    play_out(game, players)
    if args.log is not None:
        atomic_write(args.log, log_text(game, names))
    result = game.result or {}
    if args.format == "json":
        print_json(
            {
                "scenario": str(args.scenario),
                "seed": args.seed,
                "players": names,
                "actions": len(game.log) - 1,
                "result": result,
                "log": str(args.log) if args.log else None,
            }
        )
    else:
        winner = result.get("winner")
        print(
            f"{shown(scenario.title)}, seed {args.seed}: {'a draw' if winner == 'draw' else f'{winner} victory'} "
            f"after {len(game.log) - 1} actions ({result.get('by')})" + (f"; log: {args.log}" if args.log else "")
        )
    return 0


def _replay(args: argparse.Namespace) -> int:
    shown: list[str] = []

    def each(game: GameState, n: int) -> None:
        if args.each == "phase" and (n == 0 or "digest" in game.log[-1]):
            shown.append(_state_line(game, args.format))

    game, log = replayed(args.log, verify=args.verify, upto=args.at, each=each if args.each else None)
    if args.at is not None and args.at > len(log.entries) - 1:
        raise BadInput(f"iceditor replay: error: --at {args.at}: the log has {len(log.entries) - 1} actions")
    if args.verify and game.result is None and not args.partial:  # a log cut at a line verifies as a shorter game
        cut = "" if log.snapshot is not None else " and it has no snapshot line: it may be cut short"
        print(
            f"{args.log}:{len(log.entries) + 1 + (log.snapshot is not None)}: error: the game is not over "
            f"(the log records no result){cut}; --partial verifies a game in progress",
            file=sys.stderr,
        )
        return 1
    if args.each:
        print("\n".join(shown))
    elif args.format == "json":
        print_json(game.view(None))
    else:
        print(_state_text(game, verified=args.verify, actions=len(log.entries) - 1))
    return 0


def replayed(path: Path, **how: Any) -> tuple[GameState, Log]:
    """The game a log file records (`replay`'s options in `how`); BadInput with the line for a log
    that is corrupt, cut short, of another scenario file or records an illegal action."""
    try:
        log = read_log(read_text(path))
    except SourceError as exc:
        raise BadInput(f"{path}: error: {exc.message}") from None
    except LogError as exc:
        raise BadInput(f"{path}:{exc.line}: error: {exc}") from None
    scenario, _ = load_scenario_arg(scenario_of(path, log.header["scenario"]))
    try:
        return replay(log, scenario, **how), log
    except LogError as exc:
        raise BadInput(f"{path}:{exc.line}: error: {exc}") from None
    except ScenarioNotPlayable as exc:  # the log's scenario: its errors name their file, line and rule
        raise BadInput(str(exc)) from None


def scenario_of(log_path: Path, named: object) -> Path:
    """The log's scenario, by the rules of a scenario's maps (engine/model/map_folders.py): a bundled
    name, or a file in the log's folder or the one above it (a batch's DIR/scenario.yaml for its
    DIR/games/KEY.jsonl), as named or its name beside the log, or in a folder of --allow-dir; never
    any other path (the hash is checked only once it is read)."""
    if not isinstance(named, str) or not named or "\0" in named:
        raise BadInput(f"{log_path}:1: error: the header's scenario is a file name, not {shown(json.dumps(named))}")
    folder = log_path.absolute().parent
    name = Path(named).name
    nearby = (folder / named, folder / name, folder.parent / name)
    for candidate in (*nearby, bundled_file(named, "scenarios"), Path(named)):
        try:
            if candidate is None or not candidate.is_file():
                continue
            if candidate.resolve().is_relative_to(folder.resolve().parent):  # a batch's DIR for DIR/games/KEY.jsonl
                return candidate
            return allowed_file(candidate, folder, f"the log's scenario {shown(named)}")
        except MapPathError as exc:
            raise BadInput(f"{log_path}:1: error: {exc}") from None
        except OSError:  # a name too long for the system: not one of ours
            continue
    raise BadInput(
        f"{log_path}:1: error: the log's scenario {shown(named)} is not bundled nor in the log's folder "
        "(allow another folder with --allow-dir)"
    )


def _state_line(game: GameState, output: str) -> str:
    """The state at the end of a phase: after the action that ended it (the set-up: at the start)."""
    ended = game.log[-1].get("phase", "start")
    if output == "json":
        return json.dumps({"ended": ended, **game.view(None)}, sort_keys=True)
    on_map = sum(1 for u in game.units.values() if u.on_map)
    return f"end of turn {game.log[-1].get('turn', 0)} {ended}: {on_map} units on the map" + (
        f"; result {game.result['winner']}" if game.result else ""
    )


def _state_text(game: GameState, *, verified: bool, actions: int) -> str:
    lines = [
        f"{shown(game.scenario.title)}: turn {game.turn}, {game.phase} phase, {game.phasing or '-'} phasing, "
        f"{game.to_act or 'no one'} to act" + (" (every roll and state checked)" if verified else ""),
    ]
    for unit in game.units.values():
        where = game.label(unit.hex) if unit.on_map else unit.where
        lines.append(
            f"  {unit.id:<24} {where:<10} {unit.state:<5} {unit.morale:<10}" + (" hidden" if unit.hidden else "")
        )
    if game.result:
        lines.append(f"result: {game.result['winner']} ({game.result['by']}) after {actions} actions")
    return "\n".join(lines)
