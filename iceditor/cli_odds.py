"""`iceditor odds`: the exact chances of a fire combat's results (engine/odds.py).

    iceditor odds ap --firepower N --dice D     # AP fire (11.42-11.44)
    iceditor odds at --factor N --armor A --dice D [--higher]   # AT fire (12.31-12.33)
    iceditor odds fire FILE --from HEX [--from HEX] --to HEX   # a shot in a set-up or a saved game

Each kind of odds is a sub-subcommand: a parser built by one `_add_*` function and run by the
function `RUNNERS` names for it. Exit 0 with the odds; 2 for a command line they cannot be
computed for, with the reason.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.odds import AP_CHANCES, ap_chances, ap_levels, ap_probabilities, at_chance, at_probability

from .output import BadInput, command_error, print_json, print_table

if TYPE_CHECKING:
    from engine.game.state import GameState

MAX_DICE = 12  # more than any fire combat rolls (11.3, 12.2); keeps a typo from computing for ages
NAMES = {"E": "ELIMINATED", "S": "SUPPRESSED", "P": "PINNED", "none": "no effect"}


def add_parsers(commands: Any) -> None:
    odds = commands.add_parser(
        "odds",
        description="The exact chance of each result of one fire combat roll, by enumerating the dice.",
    )
    kinds = odds.add_subparsers(dest="odds_command", metavar="KIND")
    _add_ap(kinds)
    _add_at(kinds)
    _add_fire(kinds)


def _add_ap(kinds: Any) -> None:
    ap = kinds.add_parser(
        "ap",
        help="AP fire: the result levels and the chance of each result (11.42-11.44)",
        description="AP fire of a final firepower total rolling a number of dice: the result levels (11.42) and "
        "the chance of ELIMINATED, SUPPRESSED, PINNED and no effect (11.43), all ones counted as ELIMINATED (11.44).",
    )
    ap.add_argument("--firepower", type=int, required=True, metavar="N", help="the final AP firepower total (11.1)")
    ap.add_argument("--dice", type=int, required=True, metavar="D", help=f"dice rolled (11.3), 1 to {MAX_DICE}")
    ap.add_argument("--format", choices=("text", "json"), default="text")


def _add_at(kinds: Any) -> None:
    at = kinds.add_parser(
        "at",
        help="AT fire: the chance to destroy the target AFV (12.31-12.33)",
        description="AT fire of an AT firepower total against an armor factor: the chance that the dice plus the "
        "armor (plus one if the target is higher) are at most the factor (12.31, 12.32), all ones destroying (12.33).",
    )
    at.add_argument("--factor", type=int, required=True, metavar="N", help="the AT firepower total (12.1)")
    at.add_argument("--armor", type=int, required=True, metavar="A", help="the target's frontal or flank armor (12.31)")
    at.add_argument("--dice", type=int, required=True, metavar="D", help=f"dice rolled (12.2), 1 to {MAX_DICE}")
    at.add_argument("--higher", action="store_true", help="the target AFV is on a higher level (12.31: +1)")
    at.add_argument("--format", choices=("text", "json"), default="text")


def _add_fire(kinds: Any) -> None:
    fire = kinds.add_parser(
        "fire",
        help="a concrete shot in a scenario's set-up or a saved game: every firer, modifier and chance",
        description="The fire of the units in the --from hexes at the --to hex, in FILE's position: a scenario "
        "(its set-up: section, in the firing side's Support Fire Phase) or a game log (its last state; its own "
        "phase when that side fires now). Every unit's eligibility and PC chance (10.1, 10.12; 13.17 at an "
        "interrupt), the AP attack they would make together with every modifier and its rule (11.1-11.2), each "
        "target unit's dice (11.3) and the chance of each result with the PCs included, each AT shot's chance "
        "(12.0), and each mortar's round: where it lands and each result (14.0-14.5; direct fire only).",
    )
    fire.add_argument(
        "--advanced", action="store_true", help="a scenario's set-up under the advanced rules (21.0-23.0, R319)"
    )
    fire.add_argument(
        "file", type=_file, metavar="FILE", help="a scenario file or a bundled name (s1), or a game log (play --log)"
    )
    fire.add_argument("--from", dest="sources", action="append", required=True, metavar="HEX", help="a firing hex")
    fire.add_argument("--to", dest="target", required=True, metavar="HEX", help="the target hex")
    fire.add_argument(
        "--mode",
        dest="modes",
        action="append",
        default=[],
        metavar="UNIT=MODE",
        help="with the advanced rules, an MG's mode for the shot: UNIT=fl:HEX (a Fire Lane to HEX), UNIT=sp "
        "(Spray) or UNIT=df (21.0, 21.41); its FL or SP attacks' odds are shown, each target unit's",
    )
    fire.add_argument("--format", choices=("text", "json"), default="text")


def _file(text: str) -> Path:
    """boardarg.file_arg (a path or a bundled name), loaded only for `odds fire`."""
    from .file_args import file_arg

    return file_arg(text)


def run(args: argparse.Namespace) -> int | None:
    if args.command != "odds":
        return None
    if args.odds_command is None:  # `iceditor odds` alone: what it answers
        raise BadInput(command_error("odds", f"name a KIND: {', '.join(RUNNERS)} (iceditor odds KIND --help)"))
    return RUNNERS[args.odds_command](args)


def _dice(args: argparse.Namespace) -> int:
    if not 1 <= args.dice <= MAX_DICE:
        raise BadInput(command_error(f"odds {args.odds_command}", f"--dice {args.dice}: roll 1 to {MAX_DICE} dice"))
    return int(args.dice)


def _percent(chance: Fraction) -> str:
    return f"{float(chance):.2%}"


def _ap(args: argparse.Namespace) -> int:
    dice = _dice(args)
    levels = ap_levels(args.firepower)
    if args.format == "json":
        print_json({"levels": levels, "p": ap_probabilities(args.firepower, dice)})
        return 0
    chances = ap_chances(args.firepower, dice)
    print(
        f"AP fire, firepower {args.firepower}, {dice} {'die' if dice == 1 else 'dice'}: "
        + (f"P {levels['P']}, S {levels['S']}, E {levels['E']} (11.42)" if args.firepower > 0 else "no level (R100)")
    )
    print_table(
        [("result", "chance", "exact"), *((NAMES[k], _percent(chances[k]), str(chances[k])) for k in AP_CHANCES)]
    )
    if dice > 1:
        print(f"all ones ({Fraction(1, 6**dice)}) counted as ELIMINATED (11.44)")
    return 0


def _at(args: argparse.Namespace) -> int:
    dice = _dice(args)
    for option, factor in (("--factor", args.factor), ("--armor", args.armor)):
        if factor < 0:
            raise BadInput(command_error("odds at", f"{option} {factor}: a factor is 0 or more"))
    if args.format == "json":
        inputs = {"factor": args.factor, "armor": args.armor, "dice": dice, "higher": args.higher}
        print_json({**inputs, "p_destroyed": at_probability(args.factor, args.armor, dice, args.higher)})
        return 0
    chance = at_chance(args.factor, args.armor, dice, args.higher)
    higher = " + 1 (higher, 12.31)" if args.higher else ""
    print(
        f"AT fire, factor {args.factor} against armor {args.armor}, {dice} {'die' if dice == 1 else 'dice'}: "
        f"destroyed when dice + {args.armor}{higher} <= {args.factor} (12.32) or all ones (12.33)"
    )
    print(f"destroyed: {_percent(chance)} ({chance})")
    return 0


def _fire(args: argparse.Namespace) -> int:
    # the whole engine and the maps load here only: `odds ap` and `odds at` answer without them
    from engine.game.fire_odds import describe_odds, fire_odds

    from .boardarg import hex_arg

    game = _position(args.file, args.advanced)
    sources = [hex_arg(game.board, label, args.file) for label in args.sources]
    target = hex_arg(game.board, args.target, args.file)
    for given in args.modes:
        _set_mode(game, given, args.file)
    try:
        odds = fire_odds(game, sources, target)
    except ValueError as exc:
        raise BadInput(command_error("odds fire", str(exc))) from None
    if args.format == "json":
        print_json(odds)
    else:
        print(describe_odds(odds))
    return 0


def _set_mode(game: GameState, given: str, path: Path) -> None:
    """`--mode UNIT=fl:HEX|sp|df`: the MG's mode for the odds (21.41), refused with its rule where
    the engine would not have it (21.0: the advanced rules only; 21.21: a lane's target in reach)."""
    from engine.game.advanced import advanced
    from engine.game.mg_modes import DF, FL, SP, reach, set_mode
    from engine.game.shot import is_mg

    from .boardarg import hex_arg

    def refuse(why: str) -> BadInput:
        return BadInput(command_error("odds fire", f"--mode {given}: {why}"))

    unit_id, _, mode_text = given.partition("=")
    mode, _, label = mode_text.partition(":")
    if not advanced(game):
        raise refuse("MG modes are an advanced rule: add --advanced (21.0, R319)")
    if unit_id not in game.units or not is_mg(game.unit(unit_id)):
        raise refuse(f"{unit_id or 'no unit'} is no MG of {path.name} (21.0: the modes are an MG's)")
    unit = game.unit(unit_id)
    if mode not in (DF, FL, SP) or (mode == FL) != bool(label):
        raise refuse("say UNIT=fl:HEX, UNIT=sp or UNIT=df (21.0)")
    if unit.hex is None:
        raise refuse(f"{unit_id} is not on the map")
    if mode == FL and hex_arg(game.board, label, path) not in reach(game, unit):
        where = "the MG's unblocked LOS, initial range and frontal area, on its level"
        raise refuse(f"{label} is not within {where} (21.21, R307)")
    set_mode(game, unit, mode, label)


def _position(path: Path, advanced: bool) -> GameState:
    """FILE's position: a game log's last state (under its own options: R321), or a scenario's set-up."""
    from engine.game import ScenarioNotPlayable, new_game

    from .boardarg import load_scenario_arg
    from .cli_game import replayed

    if path.suffix == ".jsonl":
        game = replayed(path)[0]
        if advanced and not game.options.get("advanced", False):
            raise BadInput(
                command_error("odds fire", f"--advanced: {path} is a game of the basic rules (its log's options, R321)")
            )
        return game
    scenario, board = load_scenario_arg(path)
    try:
        # the maps just read, not read again
        return new_game(scenario, 0, {"advanced": True} if advanced else None, board=board)
    except ScenarioNotPlayable as exc:  # its errors name their file, line and rule
        raise BadInput(str(exc)) from None


RUNNERS = {"ap": _ap, "at": _at, "fire": _fire}
