"""The AI players' strength, measured: each player against the one below it, on each scenario and
side, with 95% Wilson intervals (docs/balance.md, Strength).

    python benchmarks/ai.py [--games N] [--scenarios s1,s6] [--pairs search:heuristic,heuristic:random]
                            [--seed S] [--given-setup] [--format table|json]

Each scenario as `iceditor playtest` plays it: the players set up (R265; `--given-setup`: from the
file's test `setup:`). For each scenario, each side and each pair STRONG:WEAK, N games with STRONG on that side and WEAK
on the other (seeds S, S+1, ...: the same dice seeds for every pair): STRONG's wins, draws and
losses, its win rate with its interval, and the games per second. For `search`, the time per
decision it searched (its default budget: search.py) and per decision overall. One process, one
core: pin it (`taskset -c 1`) and compare figures of the same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from engine.batch.stats import wilson
from engine.game import new_game
from engine.model.counters import SIDES
from engine.model.scenario import Scenario, load_scenario
from engine.players import make_player
from engine.players.match import play_out
from engine.players.search import SearchPlayer

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {
    "s1": "s1-demyansk-pocket",
    "s2": "s2-khristishche",
    "s3": "s3-closing-the-ring",
    "s4": "s4-tula",
    "s5": "s5-through-the-marshes",
    "s6": "s6-spartakovka",
}


def scenario_of(key: str, given_setup: bool = False) -> Scenario:
    """A bundled scenario as `iceditor playtest` plays it: without its test `setup:` (R265: the
    players set up, as the printed scenario has them do) unless `given_setup`."""
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS[key]}.yaml")
    if given_setup:
        return scenario
    return dataclasses.replace(scenario, data={k: v for k, v in scenario.data.items() if k != "setup"})


def measure(key: str, strong: str, weak: str, side: str, games: int, seed: int, given_setup: bool) -> dict[str, Any]:
    """`strong` on `side` against `weak`, `games` games: its results, rate, interval and speed."""
    scenario = scenario_of(key, given_setup)
    enemy = next(s for s in SIDES if s != side)
    wins = draws = losses = decisions = 0
    searched, search_seconds, seconds = 0, 0.0, 0.0
    for n in range(games):
        game = new_game(scenario, seed + n)
        players = {side: make_player(strong, 2 * (seed + n)), enemy: make_player(weak, 2 * (seed + n) + 1)}
        start = time.perf_counter()
        play_out(game, players)
        seconds += time.perf_counter() - start
        decisions += len(game.log)
        winner = game.result["winner"] if game.result else None
        wins += winner == side
        losses += winner == enemy
        draws += winner not in (side, enemy)
        for p in players.values():
            if isinstance(p, SearchPlayer):
                searched += p.searched
                search_seconds += p.seconds
    low, high = wilson(wins, games)
    return {
        "scenario": key,
        "side": side,
        "player": strong,
        "against": weak,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "interval": [round(low, 3), round(high, 3)],
        "games_per_s": games / seconds if seconds else 0.0,
        "seconds_per_decision": seconds / decisions if decisions else 0.0,
        "searched": searched,
        "ms_per_searched_decision": 1000 * search_seconds / searched if searched else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per scenario, side and pair (default 4)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="e.g. s1,s6 (default all six)")
    parser.add_argument("--pairs", default="heuristic:random,search:heuristic", help="STRONG:WEAK,...")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--given-setup", action="store_true", help="play from the files' test setup: (R265)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)
    keys = args.scenarios.split(",")
    unknown = [k for k in keys if k not in SCENARIOS]
    if unknown or args.games < 1:
        print(
            f"ai.py: no scenario {unknown[0]} (scenarios: {', '.join(SCENARIOS)})"
            if unknown
            else "ai.py: --games must be at least 1",
            file=sys.stderr,
        )
        return 2
    try:
        pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
        for strong, weak in pairs:
            make_player(strong, 0), make_player(weak, 0)
    except ValueError as error:
        print(f"ai.py: --pairs {args.pairs}: {error}", file=sys.stderr)
        return 2
    rows = []
    if args.format == "table":
        head = ("scenario", "side", "player", "against", "W-D-L", "win rate (95%)", "games/s", "ms/decision")
        print(f"| {' | '.join(head)} | search ms/searched decision (decisions) |")
        print("|---|---|---|---|---|---|---|---|---|")
    for key in keys:
        for side in SIDES:
            for strong, weak in pairs:
                row = measure(key, strong, weak, side, args.games, args.seed, args.given_setup)
                rows.append(row)
                if args.format == "table":
                    low, high = row["interval"]
                    ms = row["ms_per_searched_decision"]
                    searched = "" if ms is None else f"{ms:.0f} ({row['searched']})"
                    print(
                        f"| {key} | {side} | {strong} | {weak} | {row['wins']}-{row['draws']}-{row['losses']} | "
                        f"{row['win_rate']:.0%} ({low:.0%}-{high:.0%}) | {row['games_per_s']:.2f} | "
                        f"{1000 * row['seconds_per_decision']:.2f} | {searched} |",
                        flush=True,
                    )
    if args.format == "json":
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
