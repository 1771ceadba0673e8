"""`iceditor odds` from start to answer, each in a new process, one JSON object.

    python benchmarks/cli_odds.py [--repeats N]

ap_s, at_s, fire_s, fire_s1_s: `python -m iceditor odds ap|at|fire ...` (fire: the fixture
tests/fixtures/game/fire.yaml from 1324 to 1303; fire_s1: Scenario 1's set-up, 4307 and 4308 at
3818, its zones along a road), wall time from the start of the process to its exit, best of N (5),
with the bytecode cached (after one warm run, PYTHONDONTWRITEBYTECODE unset): what an installed
copy does.
..._compiling_s: the same when every start compiles iceditor's own sources (a copy of engine/ and
iceditor/ without __pycache__, PYTHONDONTWRITEBYTECODE set: nothing written), as in a checkout
with PYTHONDONTWRITEBYTECODE set.
imports_ap_s, imports_fire_s: the imports alone, bytecode cached, best of N: iceditor.cli_odds for
`odds ap` and `odds at`; for `odds fire` iceditor.cli, engine.game.fire_odds and every check module.
python_s: `python -c pass`, the floor under every figure.
Baselines, measured in the same run: naive_ap_s, `odds ap` through iceditor.cli.main (every
command's module loaded) instead of iceditor/entry.py's fast path; eager_imports_fire_s, the fire
imports after networkx and shapely, which engine/ imported at every start before they were
imported where they are used.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.resources import DATA_DIRS

REPO = Path(__file__).resolve().parent.parent
FIRE = REPO / "tests" / "fixtures" / "game" / "fire.yaml"
COMMANDS = {
    "ap": ["odds", "ap", "--firepower", "8", "--dice", "2"],
    "at": ["odds", "at", "--factor", "12", "--armor", "3", "--dice", "2", "--higher"],
    "fire": ["odds", "fire", str(FIRE), "--from", "1324", "--to", "1303"],
    "fire_s1": ["odds", "fire", "s1", "--from", "4307", "--from", "4308", "--to", "3818"],
}
FIRE_IMPORTS = "import iceditor.cli, engine.game.fire_odds\nfrom engine.validate.registry import modules\nmodules()\n"


def _best(command: Sequence[str], repeats: int, env: Mapping[str, str], cwd: Path = REPO) -> float:
    """The shortest wall time of `repeats` runs of the command (each must succeed)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
        times.append(time.perf_counter() - start)
    return round(min(times), 3)


def _compiling_copy(folder: Path) -> Path:
    """engine/ and iceditor/ copied without bytecode, the data folders linked beside them."""
    for package in ("engine", "iceditor"):
        shutil.copytree(REPO / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in DATA_DIRS:
        (folder / name).symlink_to(REPO / name, target_is_directory=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    python = [sys.executable]
    out: dict[str, float] = {"python_s": _best([*python, "-c", "pass"], args.repeats, cached)}
    for name, command in COMMANDS.items():
        subprocess.run([*python, "-m", "iceditor", *command], check=True, stdout=subprocess.DEVNULL, env=cached)
        out[f"{name}_s"] = _best([*python, "-m", "iceditor", *command], args.repeats, cached)
    with tempfile.TemporaryDirectory(prefix="iceditor-benchmark-") as folder:
        copy = _compiling_copy(Path(folder))
        compiling = {**cached, "PYTHONDONTWRITEBYTECODE": "1"}
        for name, command in COMMANDS.items():
            # run in the copy's folder: `-m iceditor` finds the copy first (sys.path[0])
            out[f"{name}_compiling_s"] = _best([*python, "-m", "iceditor", *command], args.repeats, compiling, copy)
    out["imports_ap_s"] = _best([*python, "-c", "import iceditor.cli_odds"], args.repeats, cached)
    out["imports_fire_s"] = _best([*python, "-c", FIRE_IMPORTS], args.repeats, cached)
    naive_ap = f"from iceditor.cli import main\nraise SystemExit(main({COMMANDS['ap']!r}))"
    out["naive_ap_s"] = _best([*python, "-c", naive_ap], args.repeats, cached)
    eager = "import networkx, shapely\n" + FIRE_IMPORTS
    out["eager_imports_fire_s"] = _best([*python, "-c", eager], args.repeats, cached)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
