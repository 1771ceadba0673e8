"""A side's View at every decision (engine/game/views.py player_view), against the decision itself.

    python benchmarks/views.py [--games N]

For Scenarios 1 and 6, random games as `play_out` plays them: the milliseconds a decision spends
in `legal_actions` + `play`, and in building the deciding side's View (its SideLog read on), in
the same run. A player is handed a View at every decision (docs/engine.md, Writing a player).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine, not an installed one

from engine.game import legal_actions, new_game, play
from engine.game.views import SideLog, player_view
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.players import make_player

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {"s1": "s1-demyansk-pocket", "s6": "s6-spartakovka"}


def measure(name: str, games: int) -> dict[str, float]:
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS[name]}.yaml")
    new_game(scenario, 0)  # the scenario's validation, kept for every game
    engine = view = 0.0
    decisions = 0
    for seed in range(1, games + 1):
        game = new_game(scenario, seed)
        players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
        logs = {side: SideLog(side) for side in SIDES}
        while not game.is_over:
            side = game.to_act
            start = time.perf_counter()
            seen = player_view(game, side, logs[side])
            middle = time.perf_counter()
            actions = legal_actions(game)
            action = players[side].choose(seen, actions)
            play(game, action)
            end = time.perf_counter()
            view += middle - start
            engine += end - middle  # a random player's choice is next to nothing
            decisions += 1
    return {
        "decisions": decisions,
        "ms_legal_actions_and_play": round(1000 * engine / decisions, 3),
        "ms_view": round(1000 * view / decisions, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps({name: measure(name, args.games) for name in SCENARIOS}, indent=2))


if __name__ == "__main__":
    main()
