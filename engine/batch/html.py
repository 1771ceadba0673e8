"""DIR/report.html: the balance report a designer reads, its plots as PNG files beside it; and the
pages of a what-if sweep and of a comparison of two versions. Everything escaped: a scenario's
title and its conditions' printed words are text, never markup."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.validate.context import ScenarioContext
from engine.validate.objectives import objectives

from . import plots
from .report import build_report, interval, percent, read_games, write_report

STYLE = """body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}.verdict{font-size:1.2em;font-weight:bold}
img{max-width:100%;border:1px solid #ddd;margin:.3em 0}.failed{color:#a00}"""


def page(title: str, body: Iterable[str]) -> str:
    return (
        f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>"
        f"<style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    cells = "".join(f"<th>{escape(str(h))}</th>" for h in head)
    lines = ["<table>", f"<tr>{cells}</tr>"]
    lines += ["<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows]
    return "\n".join([*lines, "</table>"])


def publish(out: Path, keys: Sequence[str]) -> dict[str, Any]:
    """Build and write the batch's report from what is in DIR: report.json, games.csv, the plots and
    report.html. An interrupted batch gets the report of the games it finished."""
    games, errors = read_games(out, keys)
    settings = json.loads((out / "batch.json").read_text(encoding="utf-8"))
    scenario = load_scenario(out / "scenario.yaml")
    report = build_report(games, errors, settings, scenario.title)
    report["planned"] = len(keys)
    write_report(out, report, games, errors)
    context = ScenarioContext(scenario)
    board = context.board
    pictures = {"outcomes": plots.outcomes_plot(report, out / "outcomes.png")}
    if games:
        pictures["length"] = plots.histogram_plot(
            {"actions": [g["actions"] for g in games]}, "Game length", "actions (decisions) a game", out / "length.png"
        )
        pictures["casualties"] = plots.histogram_plot(
            {side: [g["casualties"][side] for g in games] for side in SIDES},
            "Casualties",
            "units eliminated a game",
            out / "casualties.png",
        )
        if report["vp"]:
            vps = [g["vp"] for g in games if g.get("vp") is not None]
            pictures["vp"] = plots.histogram_plot({"german": vps}, "German VP", "VP at the end", out / "vp.png")
        pictures["conditions"] = plots.conditions_plot(report["conditions"], out / "conditions.png")
        if report["control"]:
            pictures["control"] = plots.control_plot(report["control"], out / "control.png")
        if board is not None:
            hexes = {h for o in objectives(context) for h in o.hexes}
            pictures["losses"] = plots.losses_map(board, report["losses"], hexes, out / "losses.png")
    atomic_write(out / "report.html", report_html(report, pictures))
    return report


def report_html(report: dict[str, Any], pictures: dict[str, str]) -> str:
    settings = report["settings"]
    body = [
        f"<h1>Balance report: {escape(report['title'])}</h1>",
        f"<p>{report['games']} games of {report['planned']} planned; players "
        f"{escape(' vs '.join(settings['players']))}{' (sides swapped every second game)' if settings['swap'] else ''}"
        f"; seeds {settings['seed']} on; scenario <code>scenario.yaml</code> beside this page"
        f"{'; ' + escape(json.dumps(settings['vary'])) if settings.get('vary') else ''}.</p>",
        f"<p class='verdict'>{escape(report['verdict'])}</p>",
    ]
    if report["failed"]:
        body.append(f"<p class='failed'>{len(report['failed'])} games failed (the same command plays them again):</p>")
        body.append(table(("game", "seed", "error"), ((f["key"], f["seed"], f["error"]) for f in report["failed"])))
    body.append("<h2>Results by side</h2>")
    rows = [(side.title(), *(interval(report["outcomes"][side][k]) for k in ("win", "draw", "loss"))) for side in SIDES]
    body += [table(("side", "win", "draw", "loss"), rows), _img(pictures, "outcomes")]
    if len(report["pairings"]) > 1 or len(report["players"]) > 1:
        body.append("<h2>Results by player</h2>")
        body.append(
            table(
                ("player", "win", "draw", "loss"),
                ((name, *(interval(t[k]) for k in ("win", "draw", "loss"))) for name, t in report["players"].items()),
            )
        )
        body.append(
            table(
                ("German", "Russian", "games", "German wins", "Russian wins"),
                (
                    (p["german"], p["russian"], p["games"], *(interval(p["outcomes"][s]["win"]) for s in SIDES))
                    for p in report["pairings"]
                ),
            )
        )
    if report["games"]:
        actions = report["length"]["actions"]
        body.append("<h2>Game length</h2>")
        body.append(
            f"<p>{actions['mean']:.0f} actions a game on average (median {actions['median']:.0f}, "
            f"{actions['min']:.0f} to {actions['max']:.0f}); the games ended on turn "
            + ", ".join(f"{t} ({n})" for t, n in report["length"]["turns"].items())
            + ".</p>"
        )
        body.append(_img(pictures, "length"))
        body.append("<h2>Casualties</h2>")
        body.append(
            table(
                ("side", "mean units lost", "median", "most"),
                (
                    (s.title(), f"{c['mean']:.2f}", f"{c['median']:.1f}", c["max"])
                    for s, c in report["casualties"].items()
                ),
            )
        )
        body.append(_img(pictures, "casualties"))
        if report["vp"]:
            vp = report["vp"]
            body.append(f"<h2>Victory points</h2><p>German VP: mean {vp['mean']:.1f}, {vp['min']} to {vp['max']}.</p>")
            body.append(_img(pictures, "vp"))
        body.append("<h2>What decided the games</h2>")
        n = report["games"]
        body.append(
            table(("condition", "games", "share"), ((k, v, percent(v / n)) for k, v in report["conditions"].items()))
        )
        body.append(_img(pictures, "conditions"))
        if report["control"]:
            body.append("<h2>The objectives, turn by turn</h2>")
            body.append(
                "<p>The share of games in which each side held each objective at the end of each Game Turn "
                "(units there and none of the other side's; in a VP scenario, 24.9's control: R266)"
                + (
                    f"; the first nine of {len(report['control'])}, every one in report.json"
                    if len(report["control"]) > 9
                    else ""
                )
                + ".</p>"
            )
            body.append(_img(pictures, "control"))
        body.append("<h2>Where units were lost</h2>")
        body.append(_img(pictures, "losses"))
    speed = report["speed"]
    if report["games"]:
        body.append(
            f"<p>CPU time: {speed['cpu_seconds']:.1f} s in all, {speed['per_game']['mean']:.2f} s a game. "
            "Every game's log is in <code>games/</code>; <code>iceditor replay games/KEY.jsonl</code> replays one, "
            "and <code>games.csv</code> lists them.</p>"
        )
    return page(f"Balance report: {report['title']}", body)


def _img(pictures: dict[str, str], name: str) -> str:
    return f"<p><img src='{escape(pictures[name])}' alt='{escape(name)}'></p>" if name in pictures else ""


def sweep_html(path_text: str, rows: Sequence[dict[str, Any]], picture: str) -> str:
    body = [f"<h1>What-if sweep: {escape(path_text)}</h1>", f"<p><img src='{escape(picture)}' alt='sweep'></p>"]
    body.append(
        table(
            ("value", "games", "German wins", "Russian wins", "draws", "verdict"),
            (
                (
                    json.dumps(r["value"]),
                    r["games"],
                    interval(r["outcomes"]["german"]["win"]),
                    interval(r["outcomes"]["russian"]["win"]),
                    interval(r["outcomes"]["german"]["draw"]),
                    r["verdict"],
                )
                for r in rows
            ),
        )
    )
    links = (f"<li><a href='{escape(r['folder'])}/report.html'>{escape(json.dumps(r['value']))}</a></li>" for r in rows)
    body.append("<p>Each value's report:</p><ul>" + "".join(links) + "</ul>")
    return page(f"Sweep: {path_text}", body)
