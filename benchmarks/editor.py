"""Editor speed on Scenario 6 (Maps 1 and 2 with the errata), one JSON object.

    python benchmarks/editor.py [--stroke N] [--hovers N] [--scenario PATH]

--scenario: open that scenario instead (benchmarks/big_board.py writes ones on bigger boards).

open_s: open Scenario 6 and show it (files read, board built, validated, window drawn), first
in this process; goal under 2 s.
stroke_ms_per_hex: one brush stroke (commands.Stroke) of N hexes, each hex painted, the map
repainted and the problems revalidated (window.refresh_problems) before the next; goal 50 ms.
los_hover_ms: the LOS tool after its first click, the mouse moved onto another hex: the engine's
answer and the map repainted, with the whole map in view and at 100% zoom; goal 16 ms (a frame
at 60 Hz); los_hover_cpu_ms: the GUI thread's CPU time for the same hovers.
stroke_undo_ms, stroke_redo_ms: undo and redo of that stroke, until the map is repainted and the
problems shown; goal 100 ms (`_cpu_ms`: this process's CPU time; `_answer_ms`: until the map is
repainted; `_longest_block_ms`: the longest turn of the event loop meanwhile, the revalidation
running a check at a time). fill_ms, fill_undo_ms, fill_redo_ms: a Fill (Trees +2) of the
clear ground from 1001 (977 hexes), its undo and its redo, the same way; goal 500 ms. Undo and
redo are each timed 5 times: medians.
Each beside `..._per_hex_ms`, the naive path measured in the same run: the same edit applied
hex by hex (every watcher of the board run once per hex), then revalidated once.
reopen_s6_s: File > Open of Scenario 6 from a window showing Scenario 1, until drawn and validated.
launch_first_window_s, launch_visible_s, launch_ready_s: `iceditor edit` Scenario 6 in a new
process (the command line itself, `iceditor.entry.main`), from its start to the first paint of a
window (the splash saying what opens), of the main window, and to its problems shown, wall clock,
best of three; launch_cpu_s: that process's CPU time (its best). The bytecode is kept, as an
installed package keeps it (a first launch, untimed, writes it to a temporary folder);
`launch_..._compiled_s` the same in the environment as given, where a checkout run under
PYTHONDONTWRITEBYTECODE compiles every module of the project at each start;
`launch_..._validate_first_s` the window validated before it is shown (the order before the
window was shown first), bytecode kept, once.
play_select_ms, play_move_ms, play_odds_ms (`--play N`, also alone with `--play-only`): the
playtest on Scenario 6 (a person as the German, the Russian AI paused, a random game to turn 2's
German Movement Phase): a click on a unit (its reach by `paths`, shaded with the MP costs; worked
out while the person looks at the board, one unit a turn of the event loop; `play_select_at_once_ms`:
a click before it is, the unit's `paths` in the click), a
click on a hex it reaches (the path played by the engine, the board drawn again from the German's
view), and the odds of a German stack's fire at a Russian hex it sees (fire_odds, the panel
filled; `play_odds_scrolled_ms`: those whose target was out of view, the map scrolled to it and
repainted whole); goal 50 ms p95. The odds and the looked-first clicks come once every reach is worked
out; `play_reach_turn_ms`: each turn of the event loop meanwhile (the longest a click then waits). Each
`..._ms` is wall clock, each `..._cpu_ms` the GUI thread's CPU time for the same click (what it costs
however loaded the machine). Beside each, `..._naive_ms`: the same answer with the view read from a
fresh SideLog and the whole board drawn anew (a new layer: every counter made again).
Runs offscreen when there is no display.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REPEATS = 5  # each undo and redo, median and max


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stroke", type=int, default=20, help="hexes in the brush stroke")
    parser.add_argument("--hovers", type=int, default=100, help="hexes the LOS tool is hovered over")
    parser.add_argument("--play", type=int, default=30, help="clicks of each kind in the playtest")
    parser.add_argument("--play-only", action="store_true", help="measure the playtest's clicks only")
    parser.add_argument("--scenario", type=Path, help="open this one (it holds hexes 1001, 1210-3110, 4314: Maps 1, 2)")
    parser.add_argument("--launch", choices=["show-first", "validate-first"], help=argparse.SUPPRESS)
    parser.add_argument("--began", type=float, help=argparse.SUPPRESS)
    parser.add_argument("file", nargs="?", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.launch:  # a launch's child imports only what `iceditor edit` imports (the parent chose the platform)
        from iceditor.cli_snapshot import use_offscreen_without_display

        use_offscreen_without_display()
    from iceditor.editor.features import autosave

    # autosaves apart from the user's, and none during the run (a file reopened would be offered
    # its edits back, in a dialog)
    autosave.SETTINGS.seconds, autosave.SETTINGS.edits = 10**5, 10**9
    with tempfile.TemporaryDirectory(prefix="iceditor-benchmark-") as folder:
        autosave.SETTINGS.folder = Path(folder)
        if args.launch:
            launch(args.launch, args.began, args.file)
        elif args.play_only:
            from iceditor.editor.app import application

            print(json.dumps(play_clicks(application(), args.play), indent=2), flush=True)
        else:
            measure(args)


def measure(args: argparse.Namespace) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from engine.hexgrid import Hex
    from iceditor.editor.app import application, load
    from iceditor.editor.commands import Stroke
    from iceditor.editor.mapview import centre
    from iceditor.editor.window import MainWindow

    app = application()
    path = args.scenario or next((REPO / "scenarios").glob("s6-*.yaml"))

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
    edits = _undo_redo(app, window, "stroke", command)

    # a Fill over the clear ground of Map 1 around 1001 (the stroke undone), its undo and its redo
    from iceditor.editor.features.terrain_brushes import connected_same

    window.undo_stack.undo()
    _settle(app, window)
    document = window.document
    region = connected_same(board.neighbours, document.printed, board.hex("1001"))
    began = time.perf_counter()
    window.paint("Fill", {h: document.printed(h).changed({"trees": 2}) for h in region})
    _settle(app, window)
    edits["fill_ms"] = round((time.perf_counter() - began) * 1e3, 1)
    edits["fill_hexes"] = len(region)
    edits |= _undo_redo(app, window, "fill", window.undo_stack.command(window.undo_stack.index() - 1))
    window.undo_stack.undo()
    _settle(app, window)

    # File > Open of Scenario 6 from a window showing Scenario 1
    from iceditor.editor.features.file_menu import FileMenu

    other = MainWindow(load(next((REPO / "scenarios").glob("s1-*.yaml"))))
    other.show()
    app.processEvents()
    began = time.perf_counter()
    assert other.findChild(FileMenu).open(path)
    _settle(app, other)
    reopen_s = time.perf_counter() - began
    other.deleteLater()

    # the LOS tool: first click on a hill hex, then the cursor over hexes at every range, with the
    # whole map in view (the longest lines, the largest repaints) and at 100% zoom
    window.use_tool("los")
    firer = board.hex("4314")

    def hovers() -> tuple[list[float], list[float]]:
        window.view.centre_on(firer)
        app.processEvents()
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=window.view.mapFromScene(centre(firer)))

        def in_view() -> list[Hex]:
            return [h for h in sorted(board.hexes) if viewport.rect().contains(window.view.mapFromScene(centre(h)))]

        # a line to another level opens the Sighting profile dock, which narrows the view (on the 4x
        # board it hid the bottom rows): open it first, untimed, then pick the targets in view
        level = board.terrain(firer).elevation
        other = next(h for h in in_view() if board.terrain(h).elevation != level)
        QTest.mouseMove(viewport, window.view.mapFromScene(centre(other)))
        app.processEvents()
        shown = in_view()
        targets = random.Random(6).sample(sorted(set(shown) - {firer}), min(args.hovers, len(shown) - 1))
        times, cpu = [], []
        for h in targets:
            began, thread = time.perf_counter(), time.thread_time()
            QTest.mouseMove(viewport, window.view.mapFromScene(centre(h)))
            app.processEvents()
            times.append(time.perf_counter() - began)
            cpu.append(time.thread_time() - thread)
        tool = window.tools["los"]
        assert tool.sight is not None and tool.sight.target == targets[-1], "the hover did not reach the tool"
        tool.clear()
        return times, cpu

    whole_map, whole_map_cpu = hovers()
    window.view.resetTransform()
    full_size, full_size_cpu = hovers()

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
                **_spread("los_hover_cpu_ms_whole_map", whole_map_cpu),
                **_spread("los_hover_cpu_ms_100pct", full_size_cpu),
                "los_hover_goal_ms": 16,
                **edits,
                "stroke_undo_redo_goal_ms": 100,
                "fill_undo_redo_goal_ms": 500,
                "reopen_s6_s": round(reopen_s, 2),
                **_launch(path),
                **play_clicks(app, args.play),
            },
            indent=2,
        ),
        flush=True,
    )
    window.undo_stack.setClean()
    window.deleteLater()
    app.processEvents()


def play_clicks(app, count: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """The playtest's clicks on Scenario 6, each beside the naive answer (see the docstring)."""
    from engine.game import Action, apply
    from engine.game.actions import DONE
    from engine.game.fire_odds import as_firing_side, fire_odds
    from engine.game.paths import paths
    from engine.game.shot import may_aim
    from engine.game.views import player_view
    from iceditor.editor.app import load
    from iceditor.editor.play.board_items import PlayBoardLayer
    from iceditor.editor.play.faces import printed_faces
    from iceditor.editor.window import MainWindow

    window = MainWindow(load(next((REPO / "scenarios").glob("s6-*.yaml"))))
    window.resize(1366, 768)
    window.show()
    app.processEvents()
    mode = window.play_menu.mode
    mode.phase_bar.pause.setChecked(True)  # the Russian AI waits: the benchmark answers for it
    assert mode.start({"german": "human", "russian": "random"}, seed=6)
    session, chooser = mode.session, random.Random(6)
    faces = printed_faces(session.game.scenario, session.game.counters)

    def to_german_movement() -> None:
        game = session.game
        while not (game.turn >= 2 and game.phase == "movement" and game.to_act == "german" and not game.interrupt):
            assert not game.is_over, "the game ended before the clicks were measured: fewer --play"
            actions = session.actions()
            answers = (
                [a for a in actions if a.verb in ("pass", DONE)] if game.interrupt or game.to_act == "russian" else []
            )
            session.play(answers[0] if answers else chooser.choice(actions))
            game = session.game
        mode.shown = "german"
        mode.refresh()
        app.processEvents()

    def naive(game) -> None:  # type: ignore[no-untyped-def]
        view = player_view(game, "german")  # a fresh SideLog: the whole log read again
        layer = PlayBoardLayer(window.scene, faces)  # every counter made again
        layer.show(view.data, list(view.log))
        app.processEvents()
        layer.detach()

    def timed(work, *args) -> tuple[float, float]:  # type: ignore[no-untyped-def]
        """Until the window has answered: wall clock, and the GUI thread's CPU time."""
        began, cpu = time.perf_counter(), time.thread_time()
        work(*args)
        app.processEvents()
        return time.perf_counter() - began, time.thread_time() - cpu

    def looked() -> None:
        """The person looks at the board: every mover's reach worked out meanwhile, a unit a turn of
        the event loop (each turn the longest a click then waits)."""
        while mode.prefetch.isActive():
            prefetch.append(timed(lambda: None))

    def naive_select(game, uid: str) -> None:  # type: ignore[no-untyped-def]
        paths(game, [uid])
        naive(game)

    def naive_odds(game, source, target) -> None:  # type: ignore[no-untyped-def]
        fire_odds(game.copy(), [source], target)
        naive(game)

    select: list[tuple[float, float]] = []
    select_cold, move, odds, odds_scrolled, prefetch = [], [], [], [], []  # type: ignore[var-annotated]
    select_naive, move_naive, odds_naive = [], [], []  # type: ignore[var-annotated]
    while len(move) < count or len(odds) + len(odds_scrolled) < count:
        to_german_movement()
        game = session.game
        seen = {u.hex for u in game.side_units("russian") if u.on_map and not u.hidden}
        firing = as_firing_side(game, "german")  # as in its Support Fire Phase (the odds panel's reading)
        shots = [(u, h) for u in firing.side_units("german") if u.on_map for h in seen if may_aim(firing, u, h)]
        if shots and len(odds) + len(odds_scrolled) < count:  # a German stack's fire at a Russian hex it sees
            unit, h = chooser.choice(shots)
            mode.selected = [x.id for x in game.at(unit.hex) if x.side == "german"]
            looked()
            bars = window.view.horizontalScrollBar(), window.view.verticalScrollBar()
            before = [b.value() for b in bars]
            took = timed(mode.show_fire, h)
            (odds if [b.value() for b in bars] == before else odds_scrolled).append(took)
            odds_naive.append(timed(naive_odds, game, unit.hex, h))
        movers = [u.id for u in game.side_units("german") if u.on_map and paths(game, [u.id])]
        if not movers or len(move) >= count:
            session.play(Action(DONE))
            continue
        uid = chooser.choice(movers)
        mode.clear_selection()
        if len(move) % 2:  # a person who looked at the board first: every unit's reach worked out meanwhile
            looked()
            select.append(timed(mode.pick_unit, uid))
        else:  # a click at once, before the reach of that unit is known
            mode.prefetch.stop()
            session._routes.clear()
            select_cold.append(timed(mode.pick_unit, uid))
        select_naive.append(timed(naive_select, game, uid))
        route = chooser.choice(sorted(mode.routes.values()))
        move_naive.append(timed(naive, apply(game, route.action([uid]))))
        move.append(timed(mode.click_hex, game.board.hex(route.hexes[-1])))
    window.play_menu.mode.leave()
    window.undo_stack.setClean()
    window.deleteLater()
    app.processEvents()
    return {
        "play_clicks": count,
        **_clicks("play_select", select),
        **_clicks("play_select_at_once", select_cold),
        **_clicks("play_select_naive", select_naive),
        **_clicks("play_move", move),
        **_clicks("play_move_naive", move_naive),
        **_clicks("play_odds", odds),
        **(_clicks("play_odds_scrolled", odds_scrolled) if odds_scrolled else {}),
        **_clicks("play_odds_naive", odds_naive),
        **_clicks("play_reach_turn", prefetch),
        "play_goal_ms_p95": 50,
    }


def _clicks(name: str, times: list[tuple[float, float]]) -> dict[str, float]:
    """The spread of the wall clock times (`NAME_ms_...`) and of the GUI thread's CPU times
    (`NAME_cpu_ms_...`: what the click costs, however loaded the machine)."""
    return {**_spread(f"{name}_ms", [t for t, _ in times]), **_spread(f"{name}_cpu_ms", [c for _, c in times])}


def _settle(app, window) -> list[float]:  # type: ignore[no-untyped-def]
    """Until the edit is drawn and its problems are shown (the revalidation runs on a 0 ms timer,
    a check at a time); how long each turn of the event loop took."""
    turns = []
    while not turns or window._revalidate.isActive():
        began = time.perf_counter()
        app.processEvents()
        turns.append(time.perf_counter() - began)
    return turns


def _undo_redo(app, window, name: str, command) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Undo and redo of `command` (the last on the stack), REPEATS times each, and as the naive
    baseline the same change applied hex by hex (every watcher of the board once per hex), then
    revalidated. For each: until the problems are shown (wall clock, and this process's CPU time:
    the machine is shared), until the map is repainted (`answer`), and the longest turn of the
    event loop meanwhile (the longest a click would wait)."""
    document = window.document
    runs: dict[str, list[tuple[float, float, float, float]]] = {"undo": [], "redo": []}
    for _ in range(REPEATS):
        for step in ("undo", "redo"):
            began, cpu = time.perf_counter(), time.process_time()
            getattr(window.undo_stack, step)()
            edited = time.perf_counter() - began
            turns = _settle(app, window)
            runs[step].append(
                (time.perf_counter() - began, time.process_time() - cpu, edited + turns[0], edited + max(turns))
            )
    out: dict[str, float] = {}
    for step, taken in runs.items():
        for i, what in enumerate(("ms", "cpu_ms", "answer_ms", "longest_block_ms")):
            out[f"{name}_{step}_{what}"] = round(statistics.median(t[i] for t in taken) * 1e3, 1)
    for step, terrain in (("undo", command.before), ("redo", command.after)):
        began, cpu = time.perf_counter(), time.process_time()
        for h, t in terrain.items():
            document.set_printed({h: t})
        window.refresh_problems()
        app.processEvents()
        out[f"{name}_{step}_per_hex_ms"] = round((time.perf_counter() - began) * 1e3, 1)
        out[f"{name}_{step}_per_hex_cpu_ms"] = round((time.process_time() - cpu) * 1e3, 1)
    return out


def _launch(path: Path) -> dict[str, float]:
    """`iceditor edit` in a new process (this script with --launch): as it starts, with the bytecode
    kept and as the environment runs it, and as it started before the window was shown first."""
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="iceditor-bytecode-") as bytecode:
        kept = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        kept["PYTHONPYCACHEPREFIX"] = bytecode
        _launched("show-first", path, kept)  # writes the bytecode
        for suffix, env, order, repeat in (
            ("", kept, "show-first", 3),
            ("_compiled", dict(os.environ), "show-first", 3),
            ("_validate_first", kept, "validate-first", 1),
        ):
            runs = [_launched(order, path, env) for _ in range(repeat)]
            for name in ("first_window", "visible", "ready"):
                out[f"launch_{name}{suffix}_s"] = round(min(r[name] for r in runs), 2)
            out[f"launch_cpu{suffix}_s"] = round(min(r["cpu"] for r in runs), 2)
    return out


def _launched(order: str, path: Path, env: dict[str, str]) -> dict[str, float]:
    """One launch: the seconds from its start to each moment, and the child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.time()
    child = [sys.executable, "-P", __file__, "--launch", order, "--began", str(began), str(path)]
    done = subprocess.run(child, capture_output=True, text=True, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    times: dict[str, float] = json.loads(done.stdout)
    times["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return times


def launch(order: str, began: float, path: Path) -> None:
    """The child of _launch: `iceditor edit PATH` (iceditor.entry.main), printing (JSON) the
    seconds since `began` to the first paint of a window, of the main window and to its problems
    shown, then quitting."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from iceditor.editor import app as editor_app
    from iceditor.editor.window import MainWindow
    from iceditor.entry import main as iceditor

    times: dict[str, float] = {}

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and isinstance(watched, QWidget):
                times.setdefault("first_window", time.time() - began)  # the splash saying what opens
                if isinstance(QWidget.window(watched), MainWindow):  # panels keep their own `window`
                    times.setdefault("visible", time.time() - began)
            return False

    first_paint = FirstPaint()
    application = editor_app.application

    def watched() -> QApplication:
        app = application()
        app.installEventFilter(first_paint)
        return app

    editor_app.application = watched  # type: ignore[assignment]
    refresh = MainWindow.refresh_problems

    def refreshed(window: MainWindow) -> None:
        refresh(window)
        if window.isVisible() and "ready" not in times:
            times["ready"] = time.time() - began
            window.undo_stack.setClean()
            QTimer.singleShot(0, application().quit)

    MainWindow.refresh_problems = refreshed  # type: ignore[method-assign]
    if order == "validate-first":  # the window validated as it is built, before it is shown
        editor_app.MainWindow = lambda document, validate=True, **given: MainWindow(document, **given)  # type: ignore[misc]
    iceditor(["edit", str(path)])
    print(json.dumps(times))


def _spread(name: str, times: list[float]) -> dict[str, float]:
    ordered = sorted(t * 1e3 for t in times)
    return {
        f"{name}_median": round(statistics.median(ordered), 2),
        f"{name}_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        f"{name}_max": round(ordered[-1], 2),
    }


if __name__ == "__main__":
    main()
