"""The balance of the basic game against the advanced rules' (docs/balance.md, Basic against advanced
rules), from two `iceditor playtest` batches of each scenario, one played without `--advanced` and
one with it:

    python benchmarks/basic_vs_advanced.py BASIC_ROOT ADVANCED_ROOT [--scenarios s1,s2] [--format table|json]

BASIC_ROOT/sN and ADVANCED_ROOT/sN are the batches' folders (their report.json). For each scenario
and side it prints the win, draw and loss rates with their 95% Wilson intervals in both games, the
difference of the win rates (advanced less basic) with its 95% interval (Newcombe's) and the
two-sided p-value of the two-proportion z test (`engine/batch/stats.py`, as `playtest compare`),
and the verdict in words: a real difference where p < 0.05, else within chance.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.batch.stats import two_proportions
from engine.model.counters import SIDES


def _rates(outcomes: dict[str, Any], side: str) -> str:
    cells = []
    for kind in ("win", "draw", "loss"):
        o = outcomes[side][kind]
        cells.append(f"{o['rate']:.0%} ({o['low']:.0%}-{o['high']:.0%})")
    return " / ".join(cells)


def compare(basic: dict[str, Any], advanced: dict[str, Any]) -> list[dict[str, Any]]:
    """Each side's results in both batches, and the difference of its win rates."""
    rows = []
    for side in SIDES:
        b, a = basic["outcomes"][side]["win"], advanced["outcomes"][side]["win"]
        d = two_proportions(a["count"], advanced["games"], b["count"], basic["games"])
        rows.append(
            {
                "side": side,
                "games": [basic["games"], advanced["games"]],
                "basic": _rates(basic["outcomes"], side),
                "advanced": _rates(advanced["outcomes"], side),
                "difference": d.difference,
                "interval": [d.low, d.high],
                "p_value": d.p_value,
                "real": d.p_value < 0.05,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("basic", type=Path)
    parser.add_argument("advanced", type=Path)
    parser.add_argument("--scenarios", default="s1,s2,s3,s4,s5,s6")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    args = parser.parse_args(argv)
    found = {}
    for key in args.scenarios.split(","):
        paths = [root / key / "report.json" for root in (args.basic, args.advanced)]
        if not all(p.is_file() for p in paths):
            print(f"basic_vs_advanced.py: no report.json in {paths[0].parent} or {paths[1].parent}", file=sys.stderr)
            return 2
        basic, advanced = (json.loads(p.read_text(encoding="utf-8")) for p in paths)
        found[key] = {"verdicts": [basic["verdict"], advanced["verdict"]], "rows": compare(basic, advanced)}
    if args.format == "json":
        print(json.dumps(found, indent=1))
        return 0
    head = "| scenario | side | games (basic, advanced) | basic: wins / draws / losses |"
    print(f"{head} advanced: wins / draws / losses | wins, advanced less basic (95%) | p | |")
    print("|---|---|---|---|---|---|---|---|")
    for key, entry in found.items():
        for r in entry["rows"]:
            low, high = r["interval"]
            print(
                f"| {key} | {r['side']} | {r['games'][0]}, {r['games'][1]} | {r['basic']} | {r['advanced']} | "
                f"{r['difference']:+.0%} ({low:+.0%} to {high:+.0%}) | {r['p_value']:.2g} | "
                f"{'a real difference' if r['real'] else 'within chance'} |"
            )
    for key, entry in found.items():
        print(f"\n{key} basic: {entry['verdicts'][0]}\n{key} advanced: {entry['verdicts'][1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
