"""`iceditor reach`, `iceditor path` and `iceditor turns`: movement on a map or a scenario's maps (8.1, 8.5, 8.6).

Exit 0 for any computed answer (also "never"), 1 when `path` finds no legal path (it names the
hexes that bar the way and the rule), 2 for input the rules or the files do not allow (unknown
hex or zone, unreadable file, a PINNED AFV, a CW with no MPs).
"""

from __future__ import annotations

import argparse
from itertools import groupby
from pathlib import Path
from typing import Any

from engine.geometry.movement import (
    FACING_OF,
    Morale,
    MovementError,
    MovementFactorNeeded,
    Mover,
    NoPathError,
    Phase,
    State,
    UnitClass,
    cheapest_path,
    reach,
    turn_mp,
)
from engine.geometry.turns import turns_needed
from engine.geometry.zones import ZoneContext, ZoneError, resolve, resolve_named
from engine.hexgrid import Hex, LabelError, parse_label
from engine.model.board import Board
from engine.model.scenario import Scenario
from engine.model.source import SourceError, parse_yaml

from .boardarg import BadInput, hex_arg, load_board_arg, load_scenario_arg
from .file_args import MAP_HELP, SCENARIO_HELP, file_arg
from .output import command_error, print_json

NO_PATH = 1  # the exit code of `path` when no legal path joins the hexes


def add_parsers(commands: Any) -> None:
    """Register the reach, path and turns commands."""
    reach_parser = commands.add_parser(
        "reach",
        description="Where a unit can move in one phase from HEX (8.1, 8.5, 8.61). MAP: a map or a scenario file.",
    )
    reach_parser.add_argument("map", type=file_arg, metavar="MAP", help=MAP_HELP)
    reach_parser.add_argument("hex", metavar="HEX")
    _mover_options(reach_parser, single_phase=True)
    path_parser = commands.add_parser(
        "path",
        description="The cheapest path from FROM to TO, however many phases it takes (8.5, 8.61). Exit 1 when "
        "there is none: the answer names the hexes that bar the way and the rule that closes them.",
    )
    path_parser.add_argument("map", type=file_arg, metavar="MAP", help=MAP_HELP)
    path_parser.add_argument("origin", metavar="FROM")
    path_parser.add_argument("goal", metavar="TO")
    _mover_options(path_parser, single_phase=True)
    turns_parser = commands.add_parser(
        "turns",
        description=(
            "Fewest Movement Phases from any hex of FROM to any hex of TO. FROM and TO: a zone name of the "
            "scenario or a zone expression, e.g. '{hill: J}' or '{hexes: [\"4307\"]}' (docs/formats.md)."
        ),
    )
    turns_parser.add_argument("scenario", type=file_arg, metavar="SCENARIO", help=SCENARIO_HELP)
    turns_parser.add_argument("origin", metavar="FROM")
    turns_parser.add_argument("goal", metavar="TO")
    turns_parser.add_argument("--enter", action="store_true", help="the unit enters the map in a hex of FROM (24.1)")
    _mover_options(turns_parser, single_phase=False)


def _mover_options(parser: argparse.ArgumentParser, single_phase: bool) -> None:
    """The unit; for a single phase's move (reach, path) also its morale, the phase and the hexes it may not enter."""
    parser.add_argument("--unit", required=True, choices=[u.value for u in UnitClass])
    parser.add_argument("--state", choices=[s.value for s in State], help="default: up, or down if not normal (3.25)")
    parser.add_argument(
        "--mp", type=float, help="a CW's counter Movement Factor; an AFV's Movement Phase MPs (12: BT7M)"
    )
    if single_phase:
        parser.add_argument("--morale", choices=[m.value for m in Morale], default=Morale.NORMAL.value)
        parser.add_argument("--phase", choices=[p.value for p in Phase], default=Phase.MOVEMENT.value)
        parser.add_argument("--afv", action="append", default=[], metavar="HEX", help="a hex holding an AFV (8.61)")
        parser.add_argument("--wreck", action="append", default=[], metavar="HEX", help="a hex holding a Wreck (12.4)")
        parser.add_argument(
            "--facing",
            metavar="HEX",
            help="an AFV's facing: the adjacent hex across its frontal hexside (8.7, 8.74); default: the best facing",
        )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int | None:
    handler = {"reach": _reach, "path": _path, "turns": _turns}.get(args.command)
    if handler is None:
        return None
    try:
        return handler(args)
    except MovementFactorNeeded as exc:
        raise BadInput(command_error(args.command, f"{exc}: give it with --mp N")) from None
    except MovementError as exc:
        raise BadInput(command_error(args.command, str(exc))) from None


def _mover(args: argparse.Namespace, board: Board | None = None, start: Hex | None = None) -> Mover:
    """The mover the options describe; `--facing` is read against the unit's hex `start` on `board`."""
    morale = Morale(getattr(args, "morale", Morale.NORMAL))
    state = State(args.state) if args.state else State.UP if morale is Morale.NORMAL else State.DOWN
    phase = Phase(getattr(args, "phase", Phase.MOVEMENT))
    facing = None
    if getattr(args, "facing", None) is not None and board is not None and start is not None:
        try:  # the hex faced may lie off the map: an AFV on the edge facing out
            ahead = parse_label(args.facing, board.offset)
        except LabelError as exc:
            raise BadInput(f"{args.map}: error: --facing: {exc}") from None
        if ahead - start not in FACING_OF:
            raise MovementError(f"--facing {args.facing} is not adjacent to {board.label(start)} (8.7)")
        facing = FACING_OF[ahead - start]
    return Mover(UnitClass(args.unit), state, morale, phase, args.mp, facing)


def _described(mover: Mover, args: argparse.Namespace) -> str:
    """The mover in words, with an AFV's facing (8.74): the hex it faces, or the best one."""
    if not mover.is_afv:
        return mover.describe()
    return f"{mover.describe()}, " + (f"facing {args.facing}" if mover.facing is not None else "best facing")


def _occupied(board: Board, args: argparse.Namespace) -> dict[str, frozenset[Hex]]:
    return {
        "afvs": frozenset(hex_arg(board, label, args.map) for label in args.afv),
        "wrecks": frozenset(hex_arg(board, label, args.map) for label in args.wreck),
    }


def _reach(args: argparse.Namespace) -> int:
    board = load_board_arg(args.map)
    start = hex_arg(board, args.hex, args.map)
    mover = _mover(args, board, start)
    result = reach(board, start, mover, **_occupied(board, args))
    rolls = sorted(board.label(h) for h in result.immobilization)
    if args.format == "json":
        costs = {board.label(h): _mp(mp) for h, mp in result.costs.items()}
        allowance = result.allowance if isinstance(result.allowance, str) else _mp(result.allowance)
        _json({"from": args.hex, "allowance": allowance, "costs": costs, "immobilization": rolls})
        return 0
    allowance = result.allowance if isinstance(result.allowance, str) else f"{result.allowance:g} MP"
    print(f"{args.hex}: {_described(mover, args)}, allowance {allowance}: {len(result.costs)} hexes")
    by_cost = sorted(result.costs.items(), key=lambda item: (item[1], board.label(item[0])))
    for mp, group in groupby(by_cost, key=lambda item: item[1]):
        print(f"  {mp:g} MP: {' '.join(board.label(h) for h, _ in group)}")
    if rolls:
        print(f"  immobilization roll on entering (8.54, 8.55): {' '.join(rolls)}")
    return 0


def _path(args: argparse.Namespace) -> int:
    board = load_board_arg(args.map)
    origin, goal = hex_arg(board, args.origin, args.map), hex_arg(board, args.goal, args.map)
    mover = _mover(args, board, origin)
    try:
        path = cheapest_path(board, origin, goal, mover, **_occupied(board, args))
    except NoPathError as exc:
        if args.format == "json":
            barrier = [board.label(h) for h in exc.barrier]
            none = {"cost": None, "hexes": [], "steps": [], "reason": str(exc), "rule": exc.rule, "barrier": barrier}
            _json({"from": args.origin, "to": args.goal} | none)
        else:
            print(f"{args.origin} -> {args.goal}: {exc}")
        return NO_PATH
    steps = [{"hex": board.label(h), "cost": _mp(mp)} for h, mp in zip(path.hexes[1:], path.steps, strict=True)]
    if path.turns:  # an AFV: the hexsides it turns before each step, in the hex it leaves (8.74)
        for step, hexsides in zip(steps, path.turns, strict=True):
            step["turn_hexsides"] = hexsides
    if args.format == "json":
        hexes = [board.label(h) for h in path.hexes]
        _json({"from": args.origin, "to": args.goal, "cost": _mp(path.cost), "hexes": hexes, "steps": steps})
        return 0
    print(f"{args.origin} -> {args.goal}: {path.cost:g} MP for {_described(mover, args)}")
    total = 0.0
    for step in steps:
        total += step["cost"]
        turned = step.get("turn_hexsides", 0)
        paid = f"{turn_mp(turned):g} MP" if turn_mp(turned) else "free"
        turn = f"  (turns {turned} hexside{'s' if turned != 1 else ''} first: {paid}, 8.74)" if turned else ""
        print(f"  {step['hex']}  +{step['cost']:g}  = {total:g}{turn}")
    return 0


def _turns(args: argparse.Namespace) -> int:
    scenario, board = load_scenario_arg(args.scenario)
    try:
        ctx = scenario.zone_context(board)
    except ValueError as exc:
        raise BadInput(f"{args.scenario}: error: {exc}") from None
    sources = _zone_arg(args.origin, scenario, ctx, args.scenario)
    targets = _zone_arg(args.goal, scenario, ctx, args.scenario)
    mover = _mover(args)
    turns = turns_needed(board, sources, targets, mover, entering=args.enter)
    if args.format == "json":
        _json(
            {
                "scenario": str(args.scenario),
                "from": args.origin,
                "to": args.goal,
                "entering": args.enter,
                "turns": turns,
            }
        )
        return 0
    how = "entering in" if args.enter else "from"
    answer = "never" if turns is None else f"{turns} turn{'s' if turns != 1 else ''}"
    print(f"{how} {args.origin} to {args.goal}: {answer} ({mover.describe()})")
    return 0


def _zone_arg(text: str, scenario: Scenario, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    """A zone named by the scenario, or a zone expression written in YAML on the command line."""
    try:
        if text in scenario.zones:
            return resolve_named(text, ctx)
        expression = parse_yaml(text, "the zone argument").data
        if not isinstance(expression, dict):
            zones = ", ".join(scenario.zones) or "none"
            raise BadInput(f"{path}: error: {text!r} is neither a zone of the scenario ({zones}) nor a zone expression")
        return resolve(expression, ctx)
    except ZoneError as exc:
        raise BadInput(f"{path}: error: zone {text!r}: {exc}") from None
    except SourceError as exc:  # one line, in a designer's words, as for a file
        raise BadInput(f"{path}: error: zone {text!r}: {exc.message}") from None


def _mp(value: float) -> float | int:
    """MPs for JSON: whole numbers as integers, halves as they are."""
    return int(value) if value == int(value) else value


def _json(data: dict[str, Any]) -> None:
    print_json(data)
