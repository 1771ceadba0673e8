"""The balance report's plots, as PNG files beside report.html (matplotlib's Agg: no window, no Qt).
The map of losses draws the scenario's hexes from engine/hexgrid, shaded by terrain."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: never a window, on a worker or a server without a display
import matplotlib.pyplot as plt
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure

from engine.hexgrid import Hex, hex_to_point, polygon_corners
from engine.model.board import Board
from engine.model.counters import SIDES

COLOURS = {"german": "#5a6b7d", "russian": "#b03a2e", "draw": "#c9b458", "contested": "#8e44ad"}
TERRAIN = {"building": "#8c7b6b", "woods": "#8fbf7f", "marsh": "#9cc9c4", "gully": "#d8c39a", "clear": "#f4f1e8"}
DPI = 100


def _save(figure: Figure, path: Path) -> str:
    figure.tight_layout()
    temp = path.with_name(f".{path.name}.tmp.png")
    figure.savefig(temp, dpi=DPI)
    plt.close(figure)
    temp.replace(path)  # a report being read never shows half a picture
    return path.name


def outcomes_plot(report: dict[str, Any], path: Path) -> str:
    figure, axes = plt.subplots(figsize=(6, 3.2))
    kinds = ("win", "draw", "loss")
    width = 0.38
    for i, side in enumerate(SIDES):
        table = report["outcomes"][side]
        rates = [table[k]["rate"] * 100 for k in kinds]
        below = [(table[k]["rate"] - table[k]["low"]) * 100 for k in kinds]
        above = [(table[k]["high"] - table[k]["rate"]) * 100 for k in kinds]
        xs = [x + (i - 0.5) * width for x in range(len(kinds))]
        axes.bar(xs, rates, width, yerr=[below, above], capsize=4, color=COLOURS[side], label=side.title())
    axes.set_xticks(range(len(kinds)), [k.title() for k in kinds])
    axes.set_ylabel("% of games (95% Wilson interval)")
    axes.set_ylim(0, 100)
    axes.set_title(f"Results of {report['games']} games")
    axes.legend()
    return _save(figure, path)


def histogram_plot(series: dict[str, Sequence[float]], title: str, xlabel: str, path: Path) -> str:
    figure, axes = plt.subplots(figsize=(6, 3))
    values = [v for vs in series.values() for v in vs]
    bins: Any = 20
    if values and all(float(v).is_integer() for v in values) and max(values) - min(values) <= 40:
        bins = [x - 0.5 for x in range(int(min(values)), int(max(values)) + 2)]
    for name, vs in series.items():
        axes.hist(vs, bins=bins, alpha=0.6, color=COLOURS.get(name), label=name.title(), edgecolor="white")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("games")
    axes.set_title(title)
    if len(series) > 1:
        axes.legend()
    return _save(figure, path)


def conditions_plot(conditions: dict[str, int], path: Path) -> str:
    figure, axes = plt.subplots(figsize=(7, 0.5 + 0.45 * max(1, len(conditions))))
    names = [_short(name) for name in conditions]
    axes.barh(names[::-1], list(conditions.values())[::-1], color="#7f8c8d")
    axes.set_xlabel("games")
    axes.set_title("What decided the games")
    return _save(figure, path)


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def control_plot(control: dict[str, list[dict[str, Any]]], path: Path, most: int = 9) -> str:
    """Each objective's share of games held by each side at each turn's end (the first `most` objectives)."""
    names = list(control)[:most]
    columns = min(3, len(names)) or 1
    rows = (len(names) + columns - 1) // columns or 1
    figure, grid = plt.subplots(rows, columns, figsize=(3.3 * columns, 2.5 * rows), squeeze=False)
    for axes, name in zip(grid.flat, names, strict=False):
        turns = [e["turn"] for e in control[name]]
        for holder in (*SIDES, "contested"):
            shares = [100 * e[holder] for e in control[name]]
            if holder in SIDES or any(shares):
                axes.plot(turns, shares, marker="o", color=COLOURS[holder], label=holder.title())
        axes.set_title(_short(name, 34), fontsize=9)
        axes.set_ylim(-3, 103)
        axes.set_xlabel("end of turn")
        axes.set_ylabel("% of games held")
    for axes in list(grid.flat)[len(names) :]:
        axes.set_visible(False)
    if names:
        handles, labels = grid.flat[0].get_legend_handles_labels()
        if handles:
            grid.flat[0].legend(handles, labels, fontsize=8)
    return _save(figure, path)


def _terrain_colour(board: Board, h: Hex) -> str:
    terrain = board.terrain(h)
    if terrain.building is not None:
        return TERRAIN["building"]
    if terrain.is_woods:
        return TERRAIN["woods"]
    if terrain.marsh:
        return TERRAIN["marsh"]
    if terrain.gully:
        return TERRAIN["gully"]
    shade = {0: TERRAIN["clear"], 1: "#e6dcc0", 2: "#d6c7a0"}
    return shade.get(terrain.level, "#c8b88a")


def losses_map(board: Board, losses: dict[str, dict[str, int]], objectives: set[Hex], path: Path) -> str:
    """Where each side's units were eliminated or destroyed, over all games: the map's hexes shaded
    by terrain, a disc on each hex sized and numbered by the losses there; objectives outlined."""
    hexes = sorted(board.hexes)
    points = [hex_to_point(h) for h in hexes]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    aspect = (max(ys) - min(ys) + 2) / (max(xs) - min(xs) + 2)
    figure, grid = plt.subplots(1, len(SIDES), figsize=(13, max(3.0, 6.5 * aspect) + 0.6), squeeze=False)
    for axes, side in zip(grid.flat, SIDES, strict=True):
        axes.add_collection(
            PolyCollection(
                [polygon_corners(h) for h in hexes],
                facecolors=[_terrain_colour(board, h) for h in hexes],
                edgecolors="#bbbbbb",
                linewidths=0.3,
            )
        )
        for road in board.roads:
            centres = [hex_to_point(h) for h in road]
            axes.plot([c[0] for c in centres], [c[1] for c in centres], color="#7a5c3a", linewidth=1.2, zorder=2)
        axes.add_collection(
            PolyCollection(
                [polygon_corners(h) for h in sorted(objectives)], facecolors="none", edgecolors="#d35400", linewidths=2
            )
        )
        counts = losses.get(side) or {}
        most = max(counts.values(), default=1)
        for label, n in counts.items():
            x, y = hex_to_point(board.hex(label))
            axes.scatter([x], [y], s=30 + 320 * n / most, color=COLOURS[side], alpha=0.75, edgecolors="black", zorder=3)
            if n / most >= 0.25:
                axes.annotate(str(n), (x, y), ha="center", va="center", fontsize=6, color="white", zorder=4)
        for corner in (hexes[0], hexes[-1]):  # two labels to read the map's orientation by
            x, y = hex_to_point(corner)
            axes.annotate(board.label(corner), (x, y), ha="center", va="center", fontsize=6)
        axes.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
        axes.set_ylim(max(ys) + 1.2, min(ys) - 1.2)  # rows grow downward, as printed
        axes.set_aspect("equal")
        axes.axis("off")
        axes.set_title(f"{side.title()} losses: {sum(counts.values())} units (objectives outlined)")
    return _save(figure, path)


def sweep_plot(path_text: str, rows: Sequence[dict[str, Any]], path: Path) -> str:
    """Each side's win rate (95% interval) against the varied value: where the balance lies."""
    figure, axes = plt.subplots(figsize=(6.5, 3.6))
    labels = [str(r["value"]) for r in rows]
    positions = list(range(len(rows)))
    numeric = all(isinstance(r["value"], int | float) and not isinstance(r["value"], bool) for r in rows)
    xs = [float(r["value"]) for r in rows] if numeric else positions
    for side in SIDES:
        wins = [r["outcomes"][side]["win"] for r in rows]
        rates = [100 * w["rate"] for w in wins]
        errors = [[100 * (w["rate"] - w["low"]) for w in wins], [100 * (w["high"] - w["rate"]) for w in wins]]
        axes.errorbar(xs, rates, yerr=errors, marker="o", capsize=4, color=COLOURS[side], label=f"{side.title()} wins")
    axes.axhline(50, color="#999999", linewidth=0.8, linestyle="--")
    if not numeric:
        axes.set_xticks(positions, labels, rotation=20, fontsize=8)
    axes.set_xlabel(path_text)
    axes.set_ylabel("% of games (95% interval)")
    axes.set_ylim(0, 100)
    axes.legend()
    axes.set_title("What-if sweep")
    return _save(figure, path)
