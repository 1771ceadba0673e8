"""Decisions per game with moves by path, beside hex by hex, in the same run, one JSON object.

    python benchmarks/path_moves.py [--games N] [--scenarios s1,s6]

Both players random (engine/players: any legal action, each as likely). The path player, when the
action it drew is a `move`, moves those units instead by a path to a hex drawn from
`paths(game, units)` (engine/game/paths.py); the other side answers at each hex as before (13.0).
A decision is one `play`; beside the path player's count, what the same moves take one hex a
decision (each path's hexes entered, less its one decision). A random path player moves further
than a random hex-by-hex one (which often stops after a hex), so its games are not the same games.
Also the decisions that are choices (more than one action open: an answer where the answering side
may only `pass` is asked all the same, so that being asked tells the mover nothing, 24.32's lesson,
but it is no choice, and a player or a screen answers it without deciding), and the seconds per
game of each kind and of `paths` itself.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from engine.game import legal_actions, new_game, play
from engine.game.paths import is_path, paths
from engine.model.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {"s1": "s1-demyansk-pocket", "s6": "s6-spartakovka"}


def one_game(scenario: object, seed: int, by_path: bool) -> tuple[int, int, int, float, int, int, int]:
    """(decisions, path moves, hexes the paths entered, seconds in `paths`, the movers' decisions in
    the movement phases, the answers at a hex entered, the decisions with more than one action
    open) of one random game."""
    game = new_game(scenario, seed)  # type: ignore[arg-type]
    chance = random.Random(seed)
    decisions = moves = entered = moving = answers = choices = 0
    in_paths = 0.0
    while not game.is_over:
        answers += game.interrupt is not None
        moving += game.interrupt is None and game.phase in ("movement", "reaction_movement")
        actions = legal_actions(game)
        choices += len(actions) > 1
        action = actions[chance.randrange(len(actions))]
        if by_path and action.verb == "move" and game.interrupt is None:
            start = time.perf_counter()
            routes = list(paths(game, action.units).values())
            in_paths += time.perf_counter() - start
            if routes:
                action = routes[chance.randrange(len(routes))].action(action.units)
                moves += 1
        on_path = game.path is not None or is_path(action)
        play(game, action)
        decisions += 1
        if on_path:  # the path's first hex, or a pass that played its next
            entered += sum(e["event"] == "moved" for e in game.log[-1]["events"])
    return decisions, moves, entered, in_paths, moving, answers, choices


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--scenarios", default="s1,s6")
    args = parser.parse_args()
    report: dict[str, object] = {}
    for key in args.scenarios.split(","):
        scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS[key]}.yaml")
        one_game(scenario, 0, False)  # warm-up: validation, lines of sight, terrain costs
        figures: dict[str, object] = {}
        for kind, by_path in (("hex by hex", False), ("by path", True)):
            start = time.perf_counter()
            games = [one_game(scenario, seed, by_path) for seed in range(1, args.games + 1)]
            seconds = time.perf_counter() - start
            figures[kind] = {
                "decisions per game": round(sum(g[0] for g in games) / len(games)),
                "choices per game (more than one action open)": round(sum(g[6] for g in games) / len(games)),
                "path moves per game": round(sum(g[1] for g in games) / len(games)),
                # the same game's moves one hex a decision: each path's hexes less its one decision
                "the same moves hex by hex": round(sum(g[0] + g[2] - g[1] for g in games) / len(games)),
                "movers' decisions in movement phases": round(sum(g[4] for g in games) / len(games)),
                "answers at a hex entered (13.0)": round(sum(g[5] for g in games) / len(games)),
                "seconds per game": round(seconds / len(games), 3),
                "seconds in paths per game": round(sum(g[3] for g in games) / len(games), 3),
            }
        report[key] = figures
    print(json.dumps({"games": args.games, **report}, indent=1))


if __name__ == "__main__":
    main()
