"""The board in play redrawn at each decision (iceditor/editor/play/board_items.py), against a
naive redraw that makes every counter and marker again.

    QT_QPA_PLATFORM=offscreen python benchmarks/play_board.py [--decisions N]

A random Scenario 6 game: at each decision the side to act's View is shown on the layer over the
map, in a 1300x600 map view at the play zoom, and the view repainted. Printed: the milliseconds
(median and 95th percentile) of `show` alone and of `show` with the view's repaint of what changed
(Qt's own update), for the layer as it is (it keeps what has not changed since the last view) and
for the naive redraw (`clear` first), in the same run, on the same views.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's iceditor and engine

from engine.game import legal_actions, new_game, play
from engine.game.views import SideLog, player_view
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.players import make_player
from iceditor.editor.app import application
from iceditor.editor.mapview import MapScene, MapView
from iceditor.editor.play.board_items import PLAY_ZOOM, PlayBoardLayer
from iceditor.editor.play.faces import printed_faces

REPO = Path(__file__).resolve().parent.parent


def p95(values: list[float]) -> float:
    return sorted(values)[int(0.95 * (len(values) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=400)
    args = parser.parse_args()
    app = application()
    game = new_game(load_scenario(REPO / "scenarios" / "s6-spartakovka.yaml"), 1)
    scene = MapScene(game.board)
    view = MapView(scene)
    view.resize(1300, 600)
    view.scale(PLAY_ZOOM, PLAY_ZOOM)
    view.show()
    layer = PlayBoardLayer(scene, printed_faces(game.scenario, game.counters))
    players = {side: make_player("random", n) for n, side in enumerate(SIDES)}
    logs = {side: SideLog(side) for side in SIDES}
    times: dict[str, list[float]] = {"kept": [], "kept+paint": [], "naive": [], "naive+paint": []}
    last = None
    for _ in range(args.decisions):
        if game.is_over:
            break
        side = game.to_act
        seen = player_view(game, side, logs[side])
        for how in ("naive", "kept"):
            if how == "naive":
                layer.clear()  # every counter and marker made again
            elif last is not None:
                layer.show(last.data, last.log)  # the board as the last decision left it
                app.processEvents()
                view.viewport().repaint()
            start = time.perf_counter()
            layer.show(seen.data, seen.log)
            shown = time.perf_counter()
            app.processEvents()  # the scene's changes reach the view, which repaints what they touched
            end = time.perf_counter()
            times[how].append(shown - start)
            times[f"{how}+paint"].append(end - start)
        if last is None and layer.counters:  # frame where the units are
            view.centre_on(next(iter(layer.counters.values())).hex)
        last = seen
        play(game, players[side].choose(seen, legal_actions(game)))
    figures = {
        name: {"median_ms": round(1000 * statistics.median(v), 2), "p95_ms": round(1000 * p95(v), 2)}
        for name, v in times.items()
    }
    print(json.dumps({"scenario": "s6", "decisions": len(times["kept"]), **figures}, indent=2))


if __name__ == "__main__":
    main()
