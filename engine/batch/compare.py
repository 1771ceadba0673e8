"""Two versions of a scenario played by the same batch: the difference of each side's win rate, its
95% interval (Newcombe) and the two-proportion z test, in words (`iceditor playtest compare`)."""

from __future__ import annotations

from dataclasses import asdict
from html import escape
from typing import Any

from engine.model.counters import SIDES

from .html import page, table
from .report import percent
from .stats import two_proportions


def compare(a: dict[str, Any], b: dict[str, Any], names: tuple[str, str]) -> dict[str, Any]:
    sides = {}
    for side in SIDES:
        wins_a, wins_b = a["outcomes"][side]["win"]["count"], b["outcomes"][side]["win"]["count"]
        d = two_proportions(wins_b, b["games"], wins_a, a["games"])  # B less A: what the change does
        sides[side] = {
            "rate_in_a": d.rate_b,
            "rate_in_b": d.rate_a,
            **{k: v for k, v in asdict(d).items() if "rate" not in k},
        }
    return {
        "a": names[0],
        "b": names[1],
        "games": [a["games"], b["games"]],
        "sides": sides,
        "verdict": verdict(sides, names),
    }


def verdict(sides: dict[str, dict[str, Any]], names: tuple[str, str]) -> str:
    """What B does to each side's win rate against A, significant at the 5% level or not."""
    said = []
    for side in SIDES:
        d = sides[side]
        change = (
            f"{side.title()} wins {percent(d['rate_in_a'])} in {names[0]}, {percent(d['rate_in_b'])} in {names[1]}: "
            f"{100 * d['difference']:+.0f} points ({100 * d['low']:+.0f} to {100 * d['high']:+.0f})"
        )
        if d["p_value"] < 0.05:
            said.append(f"{change}, a real difference (p = {d['p_value']:.3g})")
        else:
            said.append(f"{change}, within chance (p = {d['p_value']:.2g}): more games may tell")
    return "; ".join(said)


def compare_html(result: dict[str, Any]) -> str:
    a, b = escape(result["a"]), escape(result["b"])
    rows = [
        (
            side.title(),
            percent(d["rate_in_a"]),
            percent(d["rate_in_b"]),
            f"{100 * d['difference']:+.1f} ({100 * d['low']:+.1f} to {100 * d['high']:+.1f})",
            f"{d['z']:.2f}",
            f"{d['p_value']:.3g}",
        )
        for side, d in result["sides"].items()
    ]
    body = [
        f"<h1>Compare: {a} and {b}</h1>",
        f"<p class='verdict'>{escape(result['verdict'])}</p>",
        table(("side", f"wins in {a}", f"wins in {b}", "difference, points (95%)", "z", "p (two-sided)"), rows),
        f"<p>Each version's report: <code>{a}/report.html</code>, <code>{b}/report.html</code>. The difference is "
        "Newcombe's interval from the two Wilson intervals; the test is the pooled two-proportion z test.</p>",
    ]
    return page(f"Compare {a} and {b}", body)
