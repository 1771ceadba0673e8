"""The AI players' strength, measured: each player against the one below it, on each scenario and
side, with 95% Wilson intervals (docs/balance.md, Strength).

    python benchmarks/ai.py [--games N] [--scenarios s1,s6] [--pairs search:heuristic,heuristic:random]
                            [--seed S] [--given-setup] [--advanced] [--format table|json]
    python benchmarks/ai.py --batches PAIRS_DIR:BASE_DIR [...]
    python benchmarks/ai.py --evaluation BATCH_DIR [...]
    python benchmarks/ai.py --spread BATCH_DIR [...]

Each scenario as `iceditor playtest` plays it: the players set up (R265; `--given-setup`: from the
file's test `setup:`). For each scenario, each side and each pair STRONG:WEAK, N games with STRONG on that side and WEAK
on the other (seeds S, S+1, ...: the same dice seeds for every pair): STRONG's wins, draws and
losses, its win rate with its interval, and the games per second. For `search`, the time per
decision it searched (its default budget: search.py) and per decision overall. One process, one
core: pin it (`taskset -c 1`) and compare figures of the same run. Where the pairs hold a base
WEAK:WEAK, each other pair STRONG:WEAK is also set beside it seed by seed: the seeds STRONG did
better and worse on than WEAK on the same side (the sign test's p).

`--advanced` plays the advanced rules (21.0-23.0, R319); `plain-heuristic` is the heuristic
without its advanced doctrine (advanced_doctrine.py): no mode but DF, no ration, as it played
before the doctrine, the base to measure the doctrine against:
`--advanced --pairs heuristic:plain-heuristic,plain-heuristic:plain-heuristic`.

`bold-heuristic`, `steady-heuristic` and `free-fire-heuristic` are the heuristic with other
thresholds (`DOCTRINES`, heuristic.Knobs): `--pairs bold-heuristic:heuristic,heuristic:heuristic`
sets a doctrine beside the heuristic seed by seed, on each side, to ask whether a side's play
changes its result at all, and whether the heuristic's thresholds are the best of those near them
(docs/balance.md, Strength).

`--batches PAIRS_DIR:BASE_DIR` plays nothing: it reads two `iceditor playtest` folders of the same
scenario and seeds, PAIRS_DIR played `--players STRONG,WEAK` or `WEAK,STRONG` (`--swap`: both) and BASE_DIR
`--players WEAK,WEAK` (every game logged: the batch keeps them), and prints for each side STRONG's
record there, beside the base's on the same seeds, and the games where the result differs: STRONG
better or worse than the base on that seed (a paired comparison: the same dice seed, the same
opponent; the sign test's two-sided p-value of as many better as worse). A result tells little
where few results differ, so beside it stands the casualty exchange, paired the same way: on each
seed, the enemy's units lost less the side's own in STRONG's game, less the same in the base's;
its mean over the seeds, with a 95% interval (a normal one: the mean of hundreds of differences).
A batch played in pieces is read whole: `PAIRS_1,PAIRS_2:BASE_1,BASE_2` joins the folders by seed.

`--evaluation BATCH_DIR` plays nothing either: it replays every game of a batch and, at the start
of each Player Turn, scores the state for the German with `search`'s evaluation (search.py), and
prints, Player Turn by Player Turn, how well that score foretells the game's result (the
correlation of the score with the German's result, 1 a win, 0 a draw, -1 a loss): an evaluation
that does not foretell the result cannot guide the search, however many draws it makes.

`--spread BATCH_DIR ...` plays nothing: for each scenario, side, the side's player and its
opponent, over the batches' games, the side's record and whether its result varies from seed to
seed. A side whose result is the same on every seed, whoever plays it, has no result a stronger
player could change: the issue's bar ("`search` beats `heuristic` on every scenario where a side's
result can differ") applies to the others (docs/balance.md, Strength).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.batch.stats import wilson
from engine.game import new_game
from engine.game.log import read_log, replay
from engine.game.state import GameState
from engine.model.counters import SIDES
from engine.model.scenario import Scenario, load_scenario
from engine.players import PLAYERS, HeuristicPlayer, make_player
from engine.players.heuristic import Knobs
from engine.players.knowledge import FAR
from engine.players.match import play_out
from engine.players.search import SearchPlayer

REPO = Path(__file__).resolve().parent.parent


class PlainHeuristic(HeuristicPlayer):
    """The heuristic without its advanced doctrine: under the advanced rules every MG stays in DF
    mode and fires as in the basic game, whatever its ammo (the heuristic before issue 23's AI)."""

    name = "plain-heuristic"

    def begin(self, scenario: Scenario, side: str) -> None:
        super().begin(scenario, side)
        self.doctrine = None


PLAYERS["plain-heuristic"] = PlainHeuristic

# The heuristic with other thresholds (heuristic.Knobs), to ask whether a side's play changes its
# result at all, and whether the heuristic's own thresholds are the best of those near them
# (docs/balance.md, Strength): `--pairs bold-heuristic:heuristic,heuristic:heuristic`.
DOCTRINES = {
    "bold-heuristic": Knobs(assault_ratio=1.0, overrun_risk=0.3, support_from=0, stay_unless=0.0, seen_by=0.75),
    "steady-heuristic": Knobs(assault_ratio=2.5, overrun_risk=0.03, support_from=FAR, stay_unless=3.0, seen_by=3.0),
    "free-fire-heuristic": Knobs(fire_at_least=0.06, opportunity_at_least=0.15),
}


def _doctrine(knobs: Knobs) -> Callable[[int], HeuristicPlayer]:
    return lambda seed: HeuristicPlayer(seed, knobs)


for _name, _knobs in DOCTRINES.items():
    PLAYERS[_name] = _doctrine(_knobs)

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


def measure(
    key: str, strong: str, weak: str, side: str, games: int, seed: int, given_setup: bool, advanced: bool = False
) -> dict[str, Any]:
    """`strong` on `side` against `weak`, `games` games: its results, rate, interval and speed."""
    scenario = scenario_of(key, given_setup)
    enemy = next(s for s in SIDES if s != side)
    wins = draws = losses = decisions = 0
    searched, search_seconds, seconds = 0, 0.0, 0.0
    outcomes = []
    for n in range(games):
        game = new_game(scenario, seed + n, {"advanced": True} if advanced else None)
        players = {side: make_player(strong, 2 * (seed + n)), enemy: make_player(weak, 2 * (seed + n) + 1)}
        start = time.perf_counter()
        play_out(game, players)
        seconds += time.perf_counter() - start
        decisions += len(game.log)
        winner = game.result["winner"] if game.result else None
        wins += winner == side
        losses += winner == enemy
        draws += winner not in (side, enemy)
        outcomes.append(_outcome({"winner": winner}, side))
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
        "outcomes": outcomes,
    }


RANK = {"win": 2, "draw": 1, "loss": 0}


def paired(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row STRONG:WEAK beside the base row WEAK:WEAK of its scenario and side, seed by seed:
    the seeds STRONG did better on (a win where the base drew or lost, a draw where it lost) and
    worse on, and the sign test's p."""
    base = {(r["scenario"], r["side"], r["against"]): r for r in rows if r["player"] == r["against"]}
    found = []
    for r in rows:
        b = base.get((r["scenario"], r["side"], r["against"]))
        if b is None or b is r:
            continue
        pairs = list(zip(r["outcomes"], b["outcomes"], strict=True))
        better = sum(RANK[x] > RANK[y] for x, y in pairs)
        worse = sum(RANK[x] < RANK[y] for x, y in pairs)
        found.append({**{k: r[k] for k in ("scenario", "side", "player", "against")}, "better": better,
                      "worse": worse, "p_sign": _sign_test(better, worse)})  # fmt: skip
    return found


def _summaries(*folders: Path) -> dict[int, dict[str, Any]]:
    """Batches' finished games (DIR/games/gNNNNN.json, docs/balance.md), by seed."""
    found = {}
    for folder in folders:
        for path in sorted((folder / "games").glob("g*.json")):
            if not path.name.endswith(".error.json"):
                game = json.loads(path.read_text(encoding="utf-8"))
                found[int(game["seed"])] = game
    return found


def _sign_test(better: int, worse: int) -> float:
    """The two-sided p-value of `better` against `worse` if either were as likely (ties left out)."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def _outcome(game: dict[str, Any], side: str) -> str:
    return "win" if game["winner"] == side else "draw" if game["winner"] not in SIDES else "loss"


def _exchange(game: dict[str, Any], side: str, enemy: str) -> int:
    """The enemy's units lost less the side's own (a game's summary: batch/games.py)."""
    lost = game["casualties"]
    return int(lost[enemy]) - int(lost[side])


def _mean_interval(values: list[int]) -> tuple[float | None, list[float] | None]:
    """The mean and its 95% interval (normal: 1.96 standard errors); none for fewer than two."""
    if len(values) < 2:
        return (float(values[0]) if values else None), None
    mean, error = statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, [round(mean - error, 2), round(mean + error, 2)]


def batch_rows(pairs_dirs: list[Path], base_dirs: list[Path], strong: str) -> list[dict[str, Any]]:
    """`strong` on each side in PAIRS_DIRS against the base's same side on the same seeds (BASE_DIRS)."""
    pairs, base = _summaries(*pairs_dirs), _summaries(*base_dirs)
    rows = []
    for side in SIDES:
        enemy = next(s for s in SIDES if s != side)
        games = [
            (seed, g)
            for seed, g in sorted(pairs.items())
            if g["players"][side] == strong != g["players"][enemy] and seed in base
        ]
        if not games:  # a batch of STRONG on one side only (no --swap)
            continue

        ours = [_outcome(g, side) for _, g in games]
        theirs = [_outcome(base[seed], side) for seed, _ in games]
        better = sum(RANK[a] > RANK[b] for a, b in zip(ours, theirs, strict=True))
        worse = sum(RANK[a] < RANK[b] for a, b in zip(ours, theirs, strict=True))
        exchange, interval = _mean_interval(
            [_exchange(g, side, enemy) - _exchange(base[seed], side, enemy) for seed, g in games]
        )
        n, wins = len(ours), ours.count("win")
        low, high = wilson(wins, n)
        base_wins = theirs.count("win")
        base_low, base_high = wilson(base_wins, n)
        rows.append(
            {
                "side": side,
                "player": strong,
                "games": n,
                "record": [wins, ours.count("draw"), ours.count("loss")],
                "win_rate": wins / n,
                "interval": [round(low, 3), round(high, 3)],
                "base_record": [base_wins, theirs.count("draw"), theirs.count("loss")],
                "base_interval": [round(base_low, 3), round(base_high, 3)],
                "better": better,
                "worse": worse,
                "p_sign": _sign_test(better, worse),
                "exchange": exchange,
                "exchange_interval": interval,
                "cpu_s_a_game": sum(g["cpu_seconds"] for _, g in games) / n,
            }
        )
    return rows


def print_batches(specs: list[str], fmt: str) -> int:
    rows = []
    for spec in specs:
        left, _, right = spec.partition(":")
        pairs_dirs, base_dirs = [Path(d) for d in left.split(",")], [Path(d) for d in right.split(",") if d]
        if not base_dirs or not all(
            (d / "games").is_dir() and (d / "batch.json").is_file() for d in pairs_dirs + base_dirs
        ):
            print(f"ai.py: --batches {spec}: want PAIRS_DIR:BASE_DIR, playtest folders", file=sys.stderr)
            return 2
        batch = json.loads((pairs_dirs[0] / "batch.json").read_text(encoding="utf-8"))
        weak = json.loads((base_dirs[0] / "batch.json").read_text(encoding="utf-8"))["players"]
        scenario = Path(batch.get("source", pairs_dirs[0])).stem
        # STRONG,WEAK or WEAK,STRONG: the player the base does not hold
        strong = str(next((p for p in batch["players"] if p not in weak), batch["players"][0]))
        rows += [{"scenario": scenario, **row} for row in batch_rows(pairs_dirs, base_dirs, strong)]
    if fmt == "json":
        print(json.dumps(rows, indent=1))
        return 0
    head = ("scenario", "side", "player", "W-D-L", "win rate (95%)", "base W-D-L", "base win rate (95%)")
    print(f"| {' | '.join(head)} | better-worse (p) | exchange against the base (95%) | CPU s a game |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        (low, high), (blow, bhigh) = r["interval"], r["base_interval"]
        exchange = "" if r["exchange"] is None else f"{r['exchange']:+.2f}"
        if r["exchange_interval"] is not None:
            exchange += " ({:+.2f} to {:+.2f})".format(*r["exchange_interval"])
        print(
            f"| {r['scenario']} | {r['side']} | {r['player']} | {'-'.join(map(str, r['record']))} | "
            f"{r['win_rate']:.0%} ({low:.0%}-{high:.0%}) | {'-'.join(map(str, r['base_record']))} | "
            f"{r['base_record'][0] / r['games']:.0%} ({blow:.0%}-{bhigh:.0%}) | "
            f"{r['better']}-{r['worse']} ({r['p_sign']:.2g}) | {exchange} | {r['cpu_s_a_game']:.1f} |"
        )
    return 0


def evaluation_rows(folder: Path) -> list[dict[str, Any]]:
    """For each Player Turn of a batch's games, the correlation of `SearchPlayer.evaluate` for the
    German at its start with the German's result (the games replayed from their logs)."""
    scenario = load_scenario(folder / "scenario.yaml")
    judge = SearchPlayer(0)
    judge.begin(scenario, "german")
    scores: dict[int, list[tuple[float, float]]] = {}
    for seed, summary in sorted(_summaries(folder).items()):
        final = RANK[_outcome(summary, "german")] - 1.0
        log = read_log((folder / "games" / f"g{seed - 1:05d}.jsonl").read_text(encoding="utf-8"))
        game_scores: dict[int, float] = {}

        def each(game: GameState, _: int, found: dict[int, float] = game_scores) -> None:
            if game.player_turns and game.player_turns not in found:
                found[game.player_turns] = judge.evaluate(game, "german")

        replay(log, scenario, each=each)
        for turn, score in game_scores.items():
            scores.setdefault(turn, []).append((score, final))
    return [{"player_turn": t, "games": len(pairs), "r": _correlation(pairs)} for t, pairs in sorted(scores.items())]


def _correlation(pairs: list[tuple[float, float]]) -> float | None:
    """Pearson's r, or None where either side does not vary."""
    n = len(pairs)
    mx, my = sum(x for x, _ in pairs) / n, sum(y for _, y in pairs) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx, syy = sum((x - mx) ** 2 for x, _ in pairs), sum((y - my) ** 2 for _, y in pairs)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else None


def print_evaluation(folders: list[str], fmt: str) -> int:
    rows = [{"batch": f, **row} for f in folders for row in evaluation_rows(Path(f))]
    head = ("batch", "Player Turn", "games", "r (evaluation, German result)")

    def cells(r: dict[str, Any]) -> tuple[Any, ...]:
        return r["batch"], r["player_turn"], r["games"], "-" if r["r"] is None else f"{r['r']:+.2f}"

    return _print_rows(rows, fmt, head, cells)


def _print_rows(
    rows: list[dict[str, Any]], fmt: str, head: tuple[str, ...], cells: Callable[[dict[str, Any]], tuple[Any, ...]]
) -> int:
    """The rows as JSON, or as a Markdown table of `head` and each row's `cells`."""
    if fmt == "json":
        print(json.dumps(rows, indent=1))
        return 0
    print(f"| {' | '.join(head)} |")
    print("|" + "---|" * len(head))
    for r in rows:
        print(f"| {' | '.join(map(str, cells(r)))} |")
    return 0


def spread_rows(folders: list[Path]) -> list[dict[str, Any]]:
    """Each scenario, side, player and opponent over the batches' games: the side's record, its
    seeds, and whether its result varies."""
    results: dict[tuple[str, str, str, str], list[tuple[int, str]]] = {}
    for folder in folders:
        batch = json.loads((folder / "batch.json").read_text(encoding="utf-8"))
        scenario = Path(batch.get("source", folder)).stem
        for seed, game in _summaries(folder).items():
            for side in SIDES:
                enemy = next(s for s in SIDES if s != side)
                key = (scenario, side, game["players"][side], game["players"][enemy])
                results.setdefault(key, []).append((seed, _outcome(game, side)))
    rows = []
    for (scenario, side, player, against), found in sorted(results.items()):
        outcomes = [o for _, o in found]
        seeds = sorted(s for s, _ in found)
        record = [outcomes.count(o) for o in ("win", "draw", "loss")]
        rows.append({"scenario": scenario, "side": side, "player": player, "against": against,
                     "games": len(outcomes), "seeds": [seeds[0], seeds[-1]], "record": record,
                     "varies": sum(1 for n in record if n) > 1})  # fmt: skip
    return rows


def print_spread(folders: list[str], fmt: str) -> int:
    missing = [f for f in folders if not (Path(f) / "games").is_dir()]
    if missing:
        print(f"ai.py: --spread {missing[0]}: not a playtest folder", file=sys.stderr)
        return 2
    rows = spread_rows([Path(f) for f in folders])
    head = ("scenario", "side", "player", "against", "games (seeds)", "W-D-L", "result varies")
    return _print_rows(
        rows,
        fmt,
        head,
        lambda r: (
            *(r[k] for k in ("scenario", "side", "player", "against")),
            f"{r['games']} ({r['seeds'][0]}-{r['seeds'][1]})",
            "-".join(map(str, r["record"])),
            "yes" if r["varies"] else "no",
        ),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per scenario, side and pair (default 4)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="e.g. s1,s6 (default all six)")
    parser.add_argument("--pairs", default="heuristic:random,search:heuristic", help="STRONG:WEAK,...")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--given-setup", action="store_true", help="play from the files' test setup: (R265)")
    parser.add_argument("--advanced", action="store_true", help="the advanced rules (21.0-23.0, R319)")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--batches", nargs="+", metavar="PAIRS_DIR:BASE_DIR", help="read logged batches instead")
    parser.add_argument("--evaluation", nargs="+", metavar="BATCH_DIR", help="how well search's evaluation foretells")
    parser.add_argument("--spread", nargs="+", metavar="BATCH_DIR", help="whether each side's result varies")
    args = parser.parse_args(argv)
    if args.batches:
        return print_batches(args.batches, args.format)
    if args.evaluation:
        return print_evaluation(args.evaluation, args.format)
    if args.spread:
        return print_spread(args.spread, args.format)
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
                row = measure(key, strong, weak, side, args.games, args.seed, args.given_setup, args.advanced)
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
    pairs_found = paired(rows)
    if args.format == "json":
        print(json.dumps({"rows": rows, "paired": pairs_found}, indent=1))
        return 0
    if pairs_found:
        print("\n| scenario | side | player | base | better-worse on the same seeds (sign test p) |")
        print("|---|---|---|---|---|")
    for r in pairs_found:
        print(f"| {r['scenario']} | {r['side']} | {r['player']} | {r['against']} | {r['better']}-{r['worse']} "
              f"({r['p_sign']:.2g}) |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
