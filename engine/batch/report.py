"""A batch's balance report from its games' summaries: per side the win, draw and loss rates with
95% Wilson intervals and a plain verdict, the game length, the casualties, the VPs, the victory
conditions that decided, the objectives' holders turn by turn and where units were lost. Written as
DIR/report.json and DIR/games.csv; engine/batch/html.py draws it."""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write
from engine.model.counters import SIDES

from .games import GAMES_FOLDER
from .stats import wilson

REPORT_FORMAT = "iron-cross-balance-report/1"
CSV_COLUMNS = (
    "key", "seed", "german_player", "russian_player", "winner", "by", "condition", "vp", "turns", "actions",
    "german_casualties", "russian_casualties", "cpu_seconds", "error",
)  # fmt: skip


def read_games(out: Path, keys: Iterable[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The batch's finished games' summaries and its failed games' errors, in the batch's order; a
    game neither finished nor failed (an interrupted batch) is in neither."""
    folder = out / GAMES_FOLDER
    games: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    for key in keys:
        for name, found in ((f"{key}.json", games), (f"{key}.error.json", errors)):
            try:
                found.append(json.loads((folder / name).read_text(encoding="utf-8")))
                break
            except (OSError, ValueError):
                continue
    return games, errors


def rate(count: int, n: int) -> dict[str, float | int]:
    low, high = wilson(count, n)
    return {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}


def percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def interval(entry: dict[str, Any]) -> str:
    return f"{percent(entry['rate'])} ({100 * entry['low']:.0f}-{100 * entry['high']:.0f}%)"


def outcomes(games: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each side's wins, draws and losses, with 95% Wilson intervals."""
    n = len(games)
    winners = Counter(str(g["winner"]) for g in games)
    found = {}
    for side in SIDES:
        other = next(s for s in SIDES if s != side)
        found[side] = {"win": rate(winners[side], n), "draw": rate(winners["draw"], n), "loss": rate(winners[other], n)}
    return found


def verdict(games: Sequence[dict[str, Any]]) -> str:
    """In words: which side the scenario favours, as played by these players. A side is favoured when
    its share of the decided games is above half with 95% confidence (Wilson); draws are said apart."""
    if not games:
        return "no game finished: nothing to say yet"
    table = outcomes(games)
    german, russian = SIDES
    g, r = table[german]["win"]["count"], table[russian]["win"]["count"]
    draws = table[german]["draw"]
    said = f"German wins {interval(table[german]['win'])}, Russian wins {interval(table[russian]['win'])}"
    if draws["count"]:
        said += f", draws {interval(draws)}"
    if g + r == 0:
        return f"{said}: every game a draw, neither side wins as these players play it"
    low, high = wilson(g, g + r)
    share = f"the German share of the {g + r} decided games: {percent(g / (g + r))} ({percent(low)}-{percent(high)})"
    if low > 0.5:
        leaning = "favours the Germans"
    elif high < 0.5:
        leaning = "favours the Russians"
    else:
        leaning = "balanced, within the 95% interval"
    return f"{said}: {leaning} ({share})"


def _spread(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def decided_by(game: dict[str, Any]) -> str:
    """The victory condition that decided a game, as the scenario prints it (a VP game: its schedule's band)."""
    if game.get("vp") is not None:
        return f"VP schedule: {game['winner']}"
    return str(game.get("by"))


def control_over_time(games: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """For each objective, by Game Turn: the share of games in which each side held it at the turn's end."""
    counts: dict[str, dict[int, Counter[str]]] = {}
    for game in games:
        for entry in game.get("control") or []:
            for name, holder in entry["held"].items():
                counts.setdefault(name, {}).setdefault(int(entry["turn"]), Counter())[str(holder)] += 1
    found: dict[str, list[dict[str, Any]]] = {}
    for name, turns in counts.items():
        found[name] = []
        for turn in sorted(turns):
            seen = turns[turn]
            total = sum(seen.values())
            found[name].append(
                {"turn": turn, "games": total, **{k: seen[k] / total for k in (*SIDES, "contested", "None")}}
            )
    return found


def losses_by_hex(games: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    found: dict[str, Counter[str]] = {side: Counter() for side in SIDES}
    for game in games:
        for label, side in game.get("eliminated") or []:
            found[side][label] += 1
    return {side: dict(counter.most_common()) for side, counter in found.items()}


def build_report(
    games: Sequence[dict[str, Any]], errors: Sequence[dict[str, Any]], settings: dict[str, Any], title: str
) -> dict[str, Any]:
    pairings = Counter((g["players"]["german"], g["players"]["russian"]) for g in games)
    vps = [g["vp"] for g in games if g.get("vp") is not None]
    return {
        "format": REPORT_FORMAT,
        "title": title,
        "settings": settings,
        "games": len(games),
        "failed": [{"key": e.get("key"), "seed": e.get("seed"), "error": e.get("error")} for e in errors],
        "outcomes": outcomes(games),
        "verdict": verdict(games),
        "pairings": [
            {
                "german": german,
                "russian": russian,
                "games": n,
                "outcomes": outcomes(
                    [g for g in games if (g["players"]["german"], g["players"]["russian"]) == (german, russian)]
                ),
            }
            for (german, russian), n in sorted(pairings.items())
        ],
        "players": _by_player(games),
        "length": {
            "turns": dict(sorted(Counter(int(g["turns"]) for g in games).items())),
            "actions": _spread([g["actions"] for g in games]),
        },
        "casualties": {
            side: {
                **_spread([g["casualties"][side] for g in games]),
                "counts": dict(sorted(Counter(int(g["casualties"][side]) for g in games).items())),
            }
            for side in SIDES
        },
        "vp": {**_spread(vps), "counts": dict(sorted(Counter(vps).items()))} if vps else None,
        "conditions": dict(Counter(decided_by(g) for g in games).most_common()),
        "control": control_over_time(games),
        "losses": losses_by_hex(games),
        "speed": {
            "cpu_seconds": sum(float(g.get("cpu_seconds") or 0.0) for g in games),
            "per_game": _spread([float(g.get("cpu_seconds") or 0.0) for g in games]),
        },
    }


def _by_player(games: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each player's results whichever side it played (the measure of a player; --swap balances the sides)."""
    found: dict[str, Counter[str]] = {}
    for game in games:
        for side, name in game["players"].items():
            result = "draw" if game["winner"] == "draw" else ("win" if game["winner"] == side else "loss")
            found.setdefault(name, Counter())[result] += 1
    return {
        name: {k: rate(c[k], sum(c.values())) for k in ("win", "draw", "loss")} for name, c in sorted(found.items())
    }


def games_csv(games: Sequence[dict[str, Any]], errors: Sequence[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for game in [*games, *errors]:
        players = game.get("players") or {}
        casualties = game.get("casualties") or {}
        row = {k: game.get(k) for k in CSV_COLUMNS}
        row.update(
            german_player=players.get("german"),
            russian_player=players.get("russian"),
            german_casualties=casualties.get("german"),
            russian_casualties=casualties.get("russian"),
        )
        writer.writerow(row)
    return out.getvalue()


def write_report(
    out: Path, report: dict[str, Any], games: Sequence[dict[str, Any]], errors: Sequence[dict[str, Any]]
) -> None:
    atomic_write(out / "report.json", json.dumps(report, indent=1) + "\n")
    atomic_write(out / "games.csv", games_csv(games, errors))
