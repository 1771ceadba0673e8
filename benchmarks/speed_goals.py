"""Issue 22's figures in one run, each beside its goal (and its naive baseline where one exists).
    python benchmarks/speed_goals.py [--quick] [--format table|json] [--board 4x]

A figure that a user waits for in a new process (`iceditor validate`, `--help`, `errata impact`,
a scenario's first game) is measured as that process: the CPU seconds of the child (user +
system, best of --repeat), since on a shared machine the wall time follows the load; the wall
time is printed beside it. Those the cache folder serves (engine/cache_folder.py) are a second
run's, after one that fills it, with the same process under `ICEDITOR_CACHE=off` (a first run's
work) as their baseline. The others come from the benchmark scripts that own them, each run as
its own process (validate.py, editor.py, geometry.py, game_engine.py), and are read from their
JSON. `--quick` runs fewer repeats and edits: the same figures, noisier.

`--board 4x` adds a second table: the figures that depend on the board, measured in the same run
on the 1x and 4x synthetic boards of benchmarks/big_board.py (Maps 1 and 2 as one map, and tiled
2 x 2, with one scenario on them), and each one's scaling exponent log(t4 / t1) / log(4): 1 grows
as the board, 0 is flat. Games are timed per game (the inverse of games/s).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(HERE.parent)}


@dataclass(frozen=True)
class Figure:
    name: str
    measured: float | None
    unit: str
    goal: float  # the measured figure must be below it, or at least it when `at_least`
    at_least: bool = False
    baseline: str = ""

    @property
    def met(self) -> bool | None:
        if self.measured is None:
            return None
        return self.measured >= self.goal if self.at_least else self.measured < self.goal


def _child(argv: Sequence[str], env: dict[str, str] = ENV) -> tuple[float, float, str]:
    """CPU seconds (user + system) and wall seconds of one child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=HERE.parent, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout


def _best(argv: Sequence[str], repeat: int, env: dict[str, str] = ENV) -> tuple[float, float]:
    runs = [_child(argv, env)[:2] for _ in range(repeat)]
    return min(cpu for cpu, _ in runs), min(wall for _, wall in runs)


def _uncached(argv: Sequence[str], repeat: int) -> str:
    """The baseline of a figure the cache folder serves: the same process with `ICEDITOR_CACHE=off`
    (what a first run works out; the figure beside it is a second run's)."""
    return f"cache off: {_best(argv, repeat, {**ENV, 'ICEDITOR_CACHE': 'off'})[0]:.3g} s"


def _script(name: str, *args: str) -> dict[str, Any]:
    out = _child([sys.executable, str(HERE / name), *args])[2]
    if "{" not in out:
        raise SystemExit(f"{name} printed no figures:\n{out[-2000:]}")
    data: dict[str, Any] = json.loads(out[out.index("{") :])
    return data


ICEDITOR = [sys.executable, "-m", "iceditor"]


def processes(repeat: int) -> tuple[list[Figure], dict[str, float]]:
    python_cpu, _ = _best([sys.executable, "-c", "pass"], repeat)
    cached = {
        "validate": [*ICEDITOR, "validate"],
        "six": [*ICEDITOR, "validate", "s1", "s2", "s3", "s4", "s5", "s6"],
        "impact": [*ICEDITOR, "errata", "impact", "s1", "errata"],
        **{name: [sys.executable, str(Path(__file__)), "--first-game", name] for name in ("s1", "s6")},
    }
    for argv in cached.values():
        _child(argv)  # a first run fills the cache folder: the figures are a second run's
    best = {name: _best(argv, repeat) for name, argv in cached.items()}
    off = {name: _uncached(argv, repeat) for name, argv in cached.items()}
    help_cpu, help_wall = _best([*ICEDITOR, "--help"], repeat)
    walls = {"validate": best["validate"][1], "help": help_wall, "errata impact": best["impact"][1]}
    named = {
        "validate": ("iceditor validate, all bundled data (process)", 1.0),
        "six": ("iceditor validate s1..s6 (process)", 1.0),
        "impact": ("iceditor errata impact s1 errata (process)", 0.5),
        "s1": ("Scenario 1's first game to its first fire phase (process)", 0.3),
        "s6": ("Scenario 6's first game to its first fire phase (process)", 0.6),
    }
    figures = [Figure(title, best[k][0], "s", goal, baseline=off[k]) for k, (title, goal) in named.items()]
    python = f"python -c pass: {python_cpu:.3f} s"
    return [*figures[:2], Figure("iceditor --help (process)", help_cpu, "s", 0.2, baseline=python), *figures[2:]], walls


def _launch_figures(editor: dict[str, Any]) -> list[Figure]:
    """The issue's "imports + window": `iceditor edit` in a new process, wall time, with the bytecode
    kept as an installed package keeps it, and as this environment runs a checkout (compiled)."""
    figures = []
    for suffix, how in (("", "iceditor edit s6, new process"), ("_compiled", "the same, every module compiled")):
        cpu = f"the process's CPU {editor[f'launch_cpu{suffix}_s']} s"
        shown = editor[f"launch_visible{suffix}_s"]
        figures.append(Figure(f"  {how}, to the window shown", shown, "s", 1.5, baseline=cpu))
        figures.append(Figure("  the same, to its problems shown", editor[f"launch_ready{suffix}_s"], "s", 1.5))
    return figures


def scripts(quick: bool) -> list[Figure]:
    edits = _script("validate.py", "--edits", "30" if quick else "120")
    editor = _script("editor.py", "--play", "5", "--hovers", "30" if quick else "100")
    geometry = _script("geometry.py", "--sources", "10" if quick else "25", "--naive-sources", "1")
    engine = _script("game_engine.py", "--games", "3" if quick else "9")
    worst = max(edits["edit_ms_p95_per_scenario"], key=edits["edit_ms_p95_per_scenario"].get)
    naive = f"naive (whole scenario again): {edits['naive_edit_ms_median']} ms median"
    return [
        Figure("one-hex edit + revalidation, p95, six scenarios", edits["edit_ms_p95"], "ms", 50, baseline=naive),
        Figure(f"  the worst scenario's p95 ({worst})", edits["edit_ms_p95_per_scenario"][worst], "ms", 50),
        Figure("open Scenario 6 in the editor (in process)", editor["open_s"], "s", 1.5),
        *_launch_figures(editor),
        Figure("LOS hover p95, whole map in view", editor["los_hover_ms_whole_map_p95"], "ms", 16),
        Figure(
            "LOS fan, one hex to the sheet",
            geometry["fan_ms"],
            "ms",
            1.0,
            baseline=f"naive {geometry['naive_fan_ms']} ms",
        ),
        Figure(
            "all-pairs visibility, the sheet",
            geometry["all_pairs_s"],
            "s",
            0.5,
            baseline=f"naive {geometry['naive_all_pairs_s']} s (extrapolated)",
        ),
        *(
            Figure(
                f"random play, Scenario {name[1]}, games/s after the first",
                engine[name]["games_per_s"],
                "games/s",
                {"s1": 10.0, "s6": 2.5}[name],
                at_least=True,
                baseline=f"naive (copy per action) {engine[name + '_naive_apply']['games_per_s']} games/s",
            )
            for name in ("s1", "s6")
        ),
    ]


@dataclass(frozen=True)
class Scaling:
    name: str
    one: float
    four: float
    unit: str

    @property
    def exponent(self) -> float:
        return math.log(self.four / self.one) / math.log(4)


def board_figures(scenario: Path, quick: bool, repeat: int) -> dict[str, tuple[float, str]]:
    """The board-dependent figures of issue 22's table on one scenario."""
    path = str(scenario)
    edits = _script("validate.py", "--scenario", path, "--edits", "30" if quick else "120")
    editor = _script("editor.py", "--scenario", path, "--play", "3", "--hovers", "30" if quick else "100")
    geometry = _script("geometry.py", "--scenario", path, "--sources", "10", "--naive-sources", "0", "--rows", "40")
    engine = _script("game_engine.py", "--scenario", path, "--games", "2" if quick else "5")["scenario"]
    return {
        "iceditor validate of the scenario (process)": (_best([*ICEDITOR, "validate", path], repeat)[0], "s"),
        "first game to its first fire phase (process)": (
            _best([sys.executable, str(Path(__file__)), "--first-game", path], repeat)[0],
            "s",
        ),
        "one-hex edit + revalidation, p95": (edits["edit_ms_p95"], "ms"),
        "open the scenario in the editor (in process)": (editor["open_s"], "s"),
        "LOS hover p95, whole map in view": (editor["los_hover_ms_whole_map_p95"], "ms"),
        "LOS fan, one hex to the board": (geometry["fan_ms"], "ms"),
        "all-pairs visibility, the board (from 40 rows)": (geometry["all_pairs_s"], "s"),
        "random play, seconds per game after the first": (1 / engine["games_per_s"], "s"),
    }


def scaling(quick: bool, repeat: int) -> tuple[list[Scaling], dict[str, int]]:
    from big_board import write_board

    from engine.model.scenario import load_scenario

    with tempfile.TemporaryDirectory(prefix="speed-goals-boards-") as folder:
        measured, hexes = [], {}
        for tiles, size in ((1, "1x"), (2, "4x")):
            scenario = write_board(tiles, Path(folder) / size)
            hexes[size] = len(load_scenario(scenario).load_board().hexes)
            measured.append(board_figures(scenario, quick, repeat))
    one, four = measured
    return [Scaling(name, one[name][0], four[name][0], one[name][1]) for name in one], hexes


def _scaling_table(rows: list[Scaling], hexes: dict[str, int]) -> str:
    sizes = ", ".join(f"{size} {n:,} hexes" for size, n in hexes.items())
    out = [f"the same on the synthetic boards (benchmarks/big_board.py: {sizes})"]
    out.append(f"{'figure':58} {'1x':>12} {'4x':>12}  exponent")
    for r in rows:
        out.append(f"{r.name:58} {r.one:>9.3g} {r.unit:2} {r.four:>9.3g} {r.unit:2}  {r.exponent:5.2f}")
    out.append("exponent: log(t4 / t1) / log(4); --help and errata impact do not depend on the board")
    return "\n".join(out)


def first_game(name: str) -> None:
    """A new process's first game of a bundled scenario, random play to the end of its first fire phase."""
    from engine.game import legal_actions, new_game, play
    from engine.game.firing import FIRE_PHASES
    from engine.model.scenario import load_scenario
    from engine.players import make_player
    from engine.resources import given_or_bundled

    game = new_game(load_scenario(given_or_bundled(name)), 1)
    player = make_player("random", 1)
    fired = False
    while not game.is_over and not (fired and game.phase not in FIRE_PHASES):
        fired = fired or game.phase in FIRE_PHASES
        play(game, player.choose(None, legal_actions(game)))  # type: ignore[arg-type]


def _table(figures: list[Figure], walls: dict[str, float], load: str) -> str:
    mark = {True: "met", False: "NOT met", None: "-"}
    rows = [f"{'figure':58} {'measured':>12} {'goal':>14}  met?     baseline"]
    for f in figures:
        measured = "-" if f.measured is None else f"{f.measured:.3g} {f.unit}"
        goal = f"{'>=' if f.at_least else '<'} {f.goal:g} {f.unit}"
        rows.append(f"{f.name:58} {measured:>12} {goal:>14}  {mark[f.met]:8} {f.baseline}")
    rows.append("process figures are CPU seconds; wall: " + ", ".join(f"{k} {v:.2f} s" for k, v in walls.items()))
    rows.append(f"load average: {load}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--format", choices=("table", "json"), default="table")
    parser.add_argument("--board", choices=("4x",), help="also the board-dependent figures on the 1x and 4x boards")
    parser.add_argument("--first-game", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.first_game:
        first_game(args.first_game)
        return
    walls: dict[str, float] = {}

    def in_processes() -> list[Figure]:
        figures, measured_walls = processes(1 if args.quick else args.repeat)
        walls.update(measured_walls)
        return figures

    stages: list[Callable[[], list[Figure]]] = [in_processes, lambda: scripts(args.quick)]
    figures = [f for stage in stages for f in stage()]
    scaled, hexes = scaling(args.quick, 1 if args.quick else args.repeat) if args.board else ([], {})
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    if args.format == "json":
        report: dict[str, Any] = {"figures": [{**f.__dict__, "met": f.met} for f in figures]}
        if scaled:
            report["boards"] = {"hexes": hexes, "figures": [{**r.__dict__, "exponent": r.exponent} for r in scaled]}
        print(json.dumps({**report, "walls_s": walls, "load": load}, indent=2))
    else:
        print(_table(figures, walls, load))
        if scaled:
            print()
            print(_scaling_table(scaled, hexes))


if __name__ == "__main__":
    main()
