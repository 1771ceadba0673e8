"""`iceditor los` and `iceditor viewshed`: line of sight on a map or a scenario's maps (10.3)."""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from engine.geometry.los_kernel import SightKernel
from engine.geometry.sight import FirerState, HouseRule, Sight, SightTerrain
from engine.model.board import Board

from .boardarg import hex_arg, load_board_arg
from .file_args import MAP_HELP, file_arg
from .output import print_json


def add_parsers(commands: Any) -> None:
    los = commands.add_parser(
        "los",
        description="Line of sight from FROM (the firer) to TO on a map, or on a scenario's maps with its errata.",
    )
    los.add_argument("map", type=file_arg, metavar="MAP", help=MAP_HELP)
    los.add_argument("source", metavar="FROM")
    los.add_argument("target", metavar="TO")
    _state(los)
    los.add_argument("--afv", action="append", default=[], metavar="HEX", help="an AFV in HEX (10.31 b); repeatable")
    los.add_argument("--wreck", action="append", default=[], metavar="HEX", help="a Wreck in HEX (10.31 b); repeatable")
    los.add_argument("--format", choices=("text", "json"), default="text")
    viewshed = commands.add_parser(
        "viewshed",
        description="The hexes of the map (or the scenario's maps) that a firer in HEX has LOS to.",
    )
    viewshed.add_argument("map", type=file_arg, metavar="MAP", help=MAP_HELP)
    viewshed.add_argument("source", metavar="HEX")
    _state(viewshed)
    viewshed.add_argument("--format", choices=("text", "json"), default="text")


def _state(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--firer-state", choices=[s.value for s in FirerState], default="up", help="10.31 c: a DOWN firer"
    )
    parser.add_argument(
        "--house-rule",
        action="append",
        default=[],
        choices=[r.value for r in HouseRule],
        help="play a house rule instead of the letter of 10.31 (low-ground: terrain lower than both units "
        "neither blocks nor counts; docs/rulings.md R72); repeatable",
    )


def _kernel(board: Board, args: argparse.Namespace) -> SightKernel:
    return SightKernel(board, SightTerrain.from_effects(house_rules={HouseRule(r) for r in args.house_rule}))


def run(args: argparse.Namespace) -> int | None:
    if args.command == "los":
        board = load_board_arg(args.map)
        source, target = hex_arg(board, args.source, args.map), hex_arg(board, args.target, args.map)
        blockers = Counter(hex_arg(board, label, args.map) for label in args.afv + args.wreck)
        sight = _kernel(board, args).sight(source, target, FirerState(args.firer_state), blockers)
        _emit(sight_json(board, sight), args.format, _sight_text(board, sight))
        return 0
    if args.command == "viewshed":
        board = load_board_arg(args.map)
        source = hex_arg(board, args.source, args.map)
        fan = _kernel(board, args).fan(source, FirerState(args.firer_state))
        visible = [board.label(h) for h, blocked in sorted(fan.items()) if not blocked and h != source]
        data = {
            "from": args.source,
            "firer_state": args.firer_state,
            "visible": visible,
            "visible_count": len(visible),
            "hexes": len(fan) - 1,
        }
        text = f"{args.source} sees {len(visible)} of {len(fan) - 1} hexes:\n" + " ".join(visible)
        _emit(data, args.format, text)
        return 0
    return None


def sight_json(board: Board, sight: Sight) -> dict[str, Any]:
    """The LOS answer as the command line's JSON (and the editor's tooltips)."""
    label = board.label
    return {
        "from": label(sight.source),
        "to": label(sight.target),
        "blocked": sight.blocked,
        "rule": sight.rule,
        "blocking_hex": label(sight.blocking_hex) if sight.blocking_hex else None,
        "range": sight.range,
        "hexes": [label(h) for h in sight.hexes],
        "hexsides": [[label(a), label(b)] for a, b in sight.hexsides],
        "corners": [label(h) for h in sight.corners],
        "trees_along": sight.trees_along,
        "marsh_along": len(sight.marsh_along),
        "marsh_hexes": [label(h) for h in sight.marsh_along],
        "level_difference": sight.level_difference,
        "firer_level": sight.firer_level,
        "target_level": sight.target_level,
        "profile": [
            {"hex": label(p.hex), "distance": p.distance, "height": p.height, "blocks": p.blocks, "rule": p.rule}
            for p in sight.profile
        ],
    }


def _sight_text(board: Board, sight: Sight) -> str:
    label = board.label
    head = f"LOS {label(sight.source)} -> {label(sight.target)} (range {sight.range}): "
    if sight.blocked:
        assert sight.blocking_hex is not None
        head += f"blocked at {label(sight.blocking_hex)} ({sight.rule})"
    else:
        head += "clear"
    lines = [
        head,
        "through: " + (" ".join(label(h) for h in sight.hexes) or "-"),
        f"trees/AFVs/wrecks along: {sight.trees_along}; marsh hexes along: {len(sight.marsh_along)}",
        f"levels: firer {sight.firer_level}, target {sight.target_level}",
    ]
    if sight.hexsides:
        lines.append("along hexsides: " + ", ".join(f"{label(a)}|{label(b)}" for a, b in sight.hexsides))
    return "\n".join(lines)


def _emit(data: dict[str, Any], output: str, text: str) -> None:
    if output == "json":
        print_json(data)
    else:
        print(text)
