"""Rules engine speed: random-play games per second and actions per second, one core, one JSON object.

    python benchmarks/game_engine.py [--games N] [--profile] [--scenario PATH] [--advanced] [--no-freeze]

For Scenarios 1 and 6, with every rule in play (fire combat included): `play` (in place, as a
batch runs games) over N games after one warm-up game (the scenario's validation, its terrain's
lines of sight and costs, kept for every later game, then frozen out of the garbage collector's
walks, and the collector's thresholds raised, as a batch worker does: engine/batch/games.py
`freeze_kept`; `--no-freeze`: neither),
and the naive baseline measured in the same
run: the functional `apply`, which copies the state for every action. Games/s by CPU time (the
process's: pin it to one core, `taskset -c 1`), each beside issue 22's goal: at least 10 games/s
for Scenario 1 and 2.5 for Scenario 6 (`goal_games_per_s`, `met`). `where_the_time_goes` splits
Scenario 1's time by decision: listing the choices of each phase, and playing each verb.
`--profile` prints cProfile's top functions. `--advanced`: Scenarios 1 and 6 (or --scenario) under
the advanced rules (21.0-23.0, R319), without the baseline.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from pathlib import Path

from engine.batch.games import freeze_kept
from engine.game import apply, legal_actions, new_game, play
from engine.model.scenario import load_scenario
from engine.players import make_player

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {"s1": "s1-demyansk-pocket", "s6": "s6-spartakovka"}
GOALS = {"s1": 10.0, "s6": 2.5}  # issue 22: random-play games/s on one core, after the first game
FREEZE = {"kept": True}  # --no-freeze: the garbage collector as a process that is no batch worker has it


def one_game(scenario: object, seed: int, functional: bool = False, options: dict[str, bool] | None = None) -> int:
    game = new_game(scenario, seed, options)  # type: ignore[arg-type]
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    actions = 0
    while not game.is_over:
        action = players[game.to_act].choose(None, legal_actions(game))  # type: ignore[arg-type]
        if functional:
            game = apply(game, action)
        else:
            play(game, action)
        actions += 1
    return actions


def where_the_time_goes(games: int) -> dict[str, float]:
    """Scenario 1's CPU seconds per game by decision: `list <phase>` (legal_actions), `play <verb>`."""
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS['s1']}.yaml")
    one_game(scenario, 0)
    if FREEZE["kept"]:
        freeze_kept()
    spent: dict[str, float] = {}
    for seed in range(1, games + 1):
        game = new_game(scenario, seed)
        players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
        while not game.is_over:
            kind = "interrupt " if game.interrupt is not None else "closing " if game.closing else ""
            start = time.process_time()
            actions = legal_actions(game)
            key = f"list {kind}{game.phase}"
            spent[key] = spent.get(key, 0.0) + time.process_time() - start
            action = players[game.to_act].choose(None, actions)  # type: ignore[arg-type]
            start = time.process_time()
            play(game, action)
            key = f"play {action.verb}"
            spent[key] = spent.get(key, 0.0) + time.process_time() - start
    top = sorted(spent.items(), key=lambda item: -item[1])[:12]
    return {k: round(v / games, 4) for k, v in top}


def measure(
    name: str, games: int, functional: bool = False, options: dict[str, bool] | None = None
) -> dict[str, float]:
    """`name`: a key of SCENARIOS or a scenario file's path; `options`: the game's (CPU time with any)."""
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS[name]}.yaml" if name in SCENARIOS else Path(name))
    one_game(scenario, 0, functional, options)  # warm-up: caches and the scenario's validation
    if FREEZE["kept"]:
        freeze_kept()  # as a batch worker does after its first game
    start = time.process_time()
    actions = sum(one_game(scenario, seed, functional, options) for seed in range(1, games + 1))
    elapsed = time.process_time() - start
    rate = games / elapsed
    goal = GOALS.get(name) if not functional and not options else None
    return {
        "games_per_s": round(rate, 2),
        **({"goal_games_per_s": goal, "met": rate >= goal} if goal is not None else {}),
        "actions_per_s": round(actions / elapsed),
        "actions_per_game": actions // games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--scenario", help="this scenario file only, without the naive baseline")
    parser.add_argument("--advanced", action="store_true", help="the advanced rules (21.0-23.0), CPU time")
    parser.add_argument("--no-freeze", action="store_true", help="no freeze, the collector's thresholds kept")
    args = parser.parse_args()
    FREEZE["kept"] = not args.no_freeze
    if args.advanced:
        names = [args.scenario] if args.scenario else list(SCENARIOS)
        options = {"advanced": True}
        print(json.dumps({name: measure(name, args.games, options=options) for name in names}, indent=2))
        return
    if args.scenario:
        print(json.dumps({"scenario": measure(args.scenario, args.games)}, indent=2))
        return
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(measure, "s1", args.games)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    out: dict[str, object] = {}
    for name in SCENARIOS:
        games = args.games if name == "s1" else max(1, args.games // 3)
        out[name] = measure(name, games)
        out[f"{name}_naive_apply"] = measure(name, max(1, games // 3), functional=True)
    out["where_the_time_goes_s1_seconds_per_game"] = where_the_time_goes(max(1, args.games // 2))
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
