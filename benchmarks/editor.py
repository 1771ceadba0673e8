"""Editor speed on Scenario 6 (Maps 1 and 2 with the errata), one JSON object.

    python benchmarks/editor.py [--stroke N] [--hovers N]

open_s: open Scenario 6 and show it (files read, board built, validated, window drawn), first
in this process; goal under 2 s.
stroke_ms_per_hex: one brush stroke (commands.Stroke) of N hexes, each hex painted, the map
repainted and the problems revalidated (window.refresh_problems) before the next; goal 50 ms.
los_hover_ms: the LOS tool after its first click, the mouse moved onto another hex: the engine's
answer and the map repainted, with the whole map in view and at 100% zoom; goal 16 ms (a frame
at 60 Hz).
Runs offscreen when there is no display.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from iceditor.cli_snapshot import use_offscreen_without_display

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stroke", type=int, default=20, help="hexes in the brush stroke")
    parser.add_argument("--hovers", type=int, default=100, help="hexes the LOS tool is hovered over")
    args = parser.parse_args()
    use_offscreen_without_display()
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from iceditor.editor.app import application, load
    from iceditor.editor.commands import Stroke
    from iceditor.editor.mapview import centre
    from iceditor.editor.window import MainWindow

    app = application()
    path = next((REPO / "scenarios").glob("s6-*.yaml"))

    start = time.perf_counter()
    window = MainWindow(load(path))
    window.show()
    window.fit()
    app.processEvents()
    open_s = time.perf_counter() - start
    board = window.document.board
    viewport = window.view.viewport()

    # a brush stroke across Map 1 (in the Russian deployment areas): Trees added hex by hex
    stroke = Stroke(window.document, "Trees")
    hexes = [board.hex(f"{column}10") for column in range(12, 12 + args.stroke)]
    per_hex = []
    for h in hexes:
        began = time.perf_counter()
        stroke.paint(h, window.document.printed(h).changed({"trees": 2}))
        window.refresh_problems()
        app.processEvents()
        per_hex.append(time.perf_counter() - began)
    command = stroke.command()
    assert command is not None
    window.undo_stack.push(command)

    # the LOS tool: first click on a hill hex, then the cursor over hexes at every range, with the
    # whole map in view (the longest lines, the largest repaints) and at 100% zoom
    window.use_tool("los")
    firer = board.hex("4314")

    def hovers() -> list[float]:
        window.view.centre_on(firer)
        app.processEvents()
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=window.view.mapFromScene(centre(firer)))
        shown = [h for h in board.hexes if viewport.rect().contains(window.view.mapFromScene(centre(h)))]
        targets = random.Random(6).sample(sorted(set(shown) - {firer}), min(args.hovers, len(shown) - 1))
        times = []
        for h in targets:
            began = time.perf_counter()
            QTest.mouseMove(viewport, window.view.mapFromScene(centre(h)))
            app.processEvents()
            times.append(time.perf_counter() - began)
        tool = window.tools["los"]
        assert tool.sight is not None and tool.sight.target == targets[-1], "the hover did not reach the tool"
        tool.clear()
        return times

    whole_map = hovers()
    window.view.resetTransform()
    full_size = hovers()

    ms = 1e3
    print(
        json.dumps(
            {
                "scenario": path.name,
                "hexes": len(board.hexes),
                "open_s": round(open_s, 2),
                "open_goal_s": 2.0,
                "stroke_hexes": len(per_hex),
                "stroke_ms_per_hex_median": round(statistics.median(per_hex) * ms, 1),
                "stroke_ms_per_hex_max": round(max(per_hex) * ms, 1),
                "stroke_goal_ms_per_hex": 50,
                "los_hovers": len(whole_map),
                **_spread("los_hover_ms_whole_map", whole_map),
                **_spread("los_hover_ms_100pct", full_size),
                "los_hover_goal_ms": 16,
            },
            indent=2,
        ),
        flush=True,
    )
    window.undo_stack.setClean()
    window.deleteLater()
    app.processEvents()


def _spread(name: str, times: list[float]) -> dict[str, float]:
    ordered = sorted(t * 1e3 for t in times)
    return {
        f"{name}_median": round(statistics.median(ordered), 2),
        f"{name}_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        f"{name}_max": round(ordered[-1], 2),
    }


if __name__ == "__main__":
    main()
