"""Rules coverage in play: in N `heuristic` games of each scenario, how often each rule's events
happen (engine/players/coverage.py), and the rules that never happen (docs/balance.md, Rules
coverage).

    python benchmarks/coverage.py [--games N] [--scenarios s1,s6] [--players heuristic,heuristic]
                                  [--seed S] [--given-setup]

A cell is "games it happened in / times in all". The issue asks for 100 games a scenario; on a
shared machine a smaller N shows the same gaps sooner.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from ai import SCENARIOS, scenario_of  # benchmarks/ai.py: the scenarios by key, as playtest plays them

from engine.game import new_game
from engine.players import make_player
from engine.players.coverage import RULES, rule_events
from engine.players.match import play_out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per scenario (default 100)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--players", default="heuristic,heuristic", help="GERMAN,RUSSIAN")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--given-setup", action="store_true", help="play from the files' test setup: (R265)")
    args = parser.parse_args(argv)
    keys = args.scenarios.split(",")
    names = args.players.split(",")
    unknown = [k for k in keys if k not in SCENARIOS]
    if unknown or len(names) != 2 or args.games < 1:
        print(
            "coverage.py: --scenarios from " + ", ".join(SCENARIOS) + ", --players A,B, --games >= 1", file=sys.stderr
        )
        return 2
    games: dict[str, Counter[str]] = {}
    times: dict[str, Counter[str]] = {}
    for key in keys:
        scenario = scenario_of(key, args.given_setup)
        games[key], times[key] = Counter(), Counter()
        for n in range(args.games):
            game = new_game(scenario, args.seed + n)
            try:
                players = {"german": make_player(names[0], 2 * n), "russian": make_player(names[1], 2 * n + 1)}
            except ValueError as error:
                print(f"coverage.py: {error}", file=sys.stderr)
                return 2
            play_out(game, players)
            found = rule_events(game.log)
            games[key].update(found.keys())
            times[key].update(found)
            if (n + 1) % 10 == 0 and n + 1 < args.games:  # a long run says how far it is
                print(f"{key}: {n + 1} of {args.games} games", file=sys.stderr, flush=True)
        print(f"{key}: {args.games} games", file=sys.stderr, flush=True)
    print(f"| rule | what | {' | '.join(keys)} |")
    print(f"|---|---|{'---|' * len(keys)}")
    never = []
    for label, rule, _ in RULES:
        cells = [f"{games[k][label]}/{times[k][label]}" for k in keys]
        print(f"| {rule} | {label} | {' | '.join(cells)} |")
        if not any(games[k][label] for k in keys):
            never.append(f"{label} ({rule})")
    print(f"\n{args.games} games a scenario, {args.players}; a cell: games it happened in / times in all.")
    print("Never happened: " + (", ".join(never) if never else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
