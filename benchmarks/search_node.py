"""What a player's search pays: a search node, a copy, opening a saved game. One JSON object.

    python benchmarks/search_node.py [--games N] [--repeat R]

For Scenarios 1 and 6, at every decision of N random games (after one warm-up game): a search
node, `state.copy(seed=...)` then `play` of the chosen action on it then `legal_actions` of what
follows, and `copy()` alone, each beside the naive baseline measured in the same run on the same
states (the copy before issue 18: every unit rebuilt through its constructor and everything the
state kept of where the units stand dropped, so the listing after it works it out again). Goals
(issue 18): a node at most 100 us (Scenario 1) and 200 us (Scenario 6), `copy()` at most 30 us
(Scenario 1), set when the naive copy took 103 us: printed as they are and scaled by this run's
naive copy over 103 us (the machine's speed now; `goals`, and beside each scenario's figures).
Nodes and copies are timed in CPU time (`time.process_time`: pin the run to one core). Each node
of a decision starts from the caches as the game has them (what the node before added taken off
again: the caches, and what the state keeps with its index of `at`, which a copy shares until it
moves a unit). Then a Scenario 6 game saved at its last action: opening it (`iceditor replay
FILE`, R201: from its snapshot) beside replaying it from the start (`--verify`, and `replay` with
`each`), in this process and as commands (imports and the scenario's validation included); goal
under 1 s.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from copy import deepcopy
from pathlib import Path
from typing import Any

from engine.game import legal_actions, new_game, play
from engine.game.log import log_text, read_log, replay
from engine.game.state import GameState, Secrets
from engine.game.units import Unit
from engine.model.scenario import load_scenario
from engine.players import make_player

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {"s1": "s1-demyansk-pocket", "s6": "s6-spartakovka"}
# issue 18's goals, in us, and the naive copy of Scenario 1 on the machine they were set on: the
# goals scaled by the naive copy of the same run say what they ask of this machine now
GOALS = {("s1", "node_us"): 100.0, ("s6", "node_us"): 200.0, ("s1", "copy_us"): 30.0}
NAIVE_COPY_THEN_US = 103.0


def naive_copy(game: GameState) -> GameState:
    """The copy before issue 18 (the baseline): the state and every unit through their
    constructors, the nested containers deep-copied, the index of `at` and all kept dropped."""
    twin = GameState(**{k: getattr(game, k) for k in game.__dataclass_fields__})
    twin.dice = game.dice.copy()
    twin.units = {k: Unit(**{f: getattr(u, f) for f in u.__dataclass_fields__}) for k, u in game.units.items()}
    for unit in twin.units.values():
        unit.extra = dict(unit.extra)
    twin.secrets = {
        s: Secrets({h: dict(m) for h, m in v.mines.items()}, set(v.hidden_hexes)) for s, v in game.secrets.items()
    }
    for name in ("improved_positions", "control", "entry_choice", "stage", "options", "grenades_used"):
        setattr(twin, name, dict(getattr(game, name)))
    twin.ips_used = {side: list(points) for side, points in game.ips_used.items()}
    twin.grenade_hexes, twin.held, twin.acted = set(game.grenade_hexes), set(game.held), set(game.acted)
    twin.wrecks, twin.setup_done, twin.assault_markers = (
        set(game.wrecks),
        list(game.setup_done),
        dict(game.assault_markers),
    )
    twin.infiltration, twin.assault, twin.overrun = (
        deepcopy(game.infiltration),
        deepcopy(game.assault),
        deepcopy(game.overrun),
    )
    twin.revealed_mines = {h: dict(m) for h, m in game.revealed_mines.items()}
    twin.interrupt = dict(game.interrupt) if game.interrupt is not None else None
    if game.attack is not None:
        twin.attack = {k: list(v) if isinstance(v, list) else v for k, v in game.attack.items()}
    twin.log = list(game.log)
    twin._at, twin._totals, twin._signatures, twin._around, twin._kept, twin._sides = None, {}, {}, {}, {}, {}
    twin._starts = {}
    return twin


def _sizes(caches: dict[str, Any]) -> list[tuple[dict[Any, Any], int]]:
    """Every dict of the caches with its size: what a node adds to them comes after (dicts keep
    their order of insertion, and no cache drops or replaces an entry), so `_undo` takes it off."""
    found = [(caches, len(caches))]
    for value in caches.values():
        if type(value) is dict:
            found += _sizes(value)
    return found


def _kept_sizes(game: GameState) -> list[tuple[dict[Any, Any], int]]:
    """What the state keeps with its index of `at`, with their sizes and those of the dicts kept in
    them (whether a throw reaches a target from a hex), and each hex's movement starts: a copy shares these dicts
    until it moves a unit (and adds to them until then), so a node's additions come off them too."""
    kept_with_index = (game._kept, game._totals, game._signatures, game._around, game._starts)
    return [found for kept in kept_with_index for found in _sizes(kept)]


def _undo(sizes: list[tuple[dict[Any, Any], int]]) -> None:
    """The caches as they were before the node: the other node of the same decision does not find
    its work done, and both find them where the game's own listing left them (no copy of them
    made before the node, which would measure it on memory the processor has not touched)."""
    for kept, size in sizes:
        while len(kept) > size:
            kept.popitem()


def nodes(name: str, games: int, repeat: int = 1) -> dict[str, float]:
    """Microseconds per decision: node and copy, lean and naive, the two measured in turn (each the
    least of `repeat` tries: on a shared machine the others' work only ever adds time)."""
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS[name]}.yaml")
    spent = {"node_us": 0.0, "naive_node_us": 0.0, "copy_us": 0.0, "naive_copy_us": 0.0}
    decisions = 0
    for seed in range(games + 1):  # game 0 warms up: the scenario's validation, its terrain
        game = new_game(scenario, seed)
        players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
        rng = random.Random(seed)
        while not game.is_over:
            action = players[game.to_act].choose(None, legal_actions(game))  # type: ignore[arg-type]
            sizes, least = _sizes(game.caches) + _kept_sizes(game), dict.fromkeys(spent, math.inf)
            for _ in range(repeat):
                for kind in ("", "naive_"):
                    start = time.process_time()
                    twin = naive_copy(game) if kind else game.copy(seed=rng.getrandbits(32))
                    copied = time.process_time()
                    play(twin, action)
                    if not twin.is_over:
                        legal_actions(twin)
                    done = time.process_time()
                    _undo(sizes)  # each node from the caches as the game has them
                    least[f"{kind}node_us"] = min(least[f"{kind}node_us"], done - start)
                    if kind:
                        least["naive_copy_us"] = min(least["naive_copy_us"], copied - start)
                start = time.process_time()
                game.copy()  # without a seed, as `apply` makes it
                least["copy_us"] = min(least["copy_us"], time.process_time() - start)
            if seed:
                for key, value in least.items():
                    spent[key] += value
                decisions += 1
            play(game, action)
    return {**{k: round(v / decisions * 1e6, 1) for k, v in spent.items()}, "decisions": decisions}


def opening(seed: int = 1) -> dict[str, float]:
    """Seconds to open a Scenario 6 game saved at its last action, from its snapshot and by replay."""
    scenario = load_scenario(REPO / "scenarios" / f"{SCENARIOS['s6']}.yaml")
    game = new_game(scenario, seed)
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    while not game.is_over:
        play(game, players[game.to_act].choose(None, legal_actions(game)))  # type: ignore[arg-type]
    text = log_text(game, ["random", "random"])
    out: dict[str, float] = {"actions": len(game.log) - 1}
    start = time.perf_counter()
    replay(read_log(text), scenario)
    out["open_s"] = round(time.perf_counter() - start, 3)
    start = time.perf_counter()
    replay(read_log(text), scenario, each=lambda state, n: None)
    out["replay_s"] = round(time.perf_counter() - start, 3)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s6.jsonl"
        path.write_text(text, encoding="utf-8")
        for key, extra in (("command_open_s", []), ("command_verify_s", ["--verify"])):
            start = time.perf_counter()
            command = [sys.executable, "-m", "iceditor", "replay", str(path), "--format", "json", *extra]
            subprocess.run(command, check=True, capture_output=True, cwd=REPO)
            out[key] = round(time.perf_counter() - start, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="tries of each measure, the least kept")
    args = parser.parse_args()
    measured = {name: nodes(name, args.games if name == "s1" else 1, args.repeat) for name in SCENARIOS}
    out: dict[str, object] = dict(measured)
    scale = measured["s1"]["naive_copy_us"] / NAIVE_COPY_THEN_US
    for (name, key), goal in GOALS.items():  # each goal beside its figure, as set and scaled
        measured[name][f"{key}_goal"] = goal
        measured[name][f"{key}_goal_scaled"] = round(goal * scale, 1)
    out["goals"] = {
        "scale": round(scale, 2),  # this run's naive copy over the one of the day the goals were set
        **{
            f"{name}_{key}": {
                "goal": goal,
                "goal_scaled": round(goal * scale, 1),
                "measured": measured[name][key],
                "met": measured[name][key] <= goal,
                "met_scaled": measured[name][key] <= goal * scale,
            }
            for (name, key), goal in GOALS.items()
        },
    }
    out["s6_saved_game"] = opening()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
