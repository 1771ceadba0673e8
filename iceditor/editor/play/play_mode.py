"""Playing in the window: entering and leaving play (the map gets the window, the editing docks
hide and come back), and the game's flow: whose screen it is (the hand-over between two persons),
the AI's turns off the GUI thread, the decisions that pass by themselves, the end.

Every click becomes one of `legal_actions` (or a path, which the engine checks whole), played
through the session; nothing here changes the game by itself. What is drawn and listed is the
screen side's View (session.py): never an enemy hidden unit, mine or secret choice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMessageBox, QSplitter, QTabWidget, QToolBar, QVBoxLayout, QWidget

from engine.game import Action, GameState, IllegalAction
from engine.game.describe import describe
from engine.game.log import Log
from engine.game.paths import Route
from engine.game.state import other
from engine.game.views import player_view, side_log
from engine.hexgrid import Hex
from engine.model.load_errors import LoadError

from ..busy import busy
from .actions_panel import ActionsPanel
from .ai_worker import AiWorker
from .ammo_roster import AmmoRoster
from .board_clicks import BoardClicks
from .board_items import PlayBoardLayer
from .collector import Collector
from .editing_layout import EditingLayout
from .end_screen import EndScreen
from .faces import printed_faces
from .handover import HandOver
from .log_panel import LogPanel
from .odds_panel import OddsPanel
from .phase_bar import PHASES, PhaseBar
from .session import PlaySession, SaveRefused, outcome, session_of_log, whole_view

if TYPE_CHECKING:
    from ..window import MainWindow

COVERED = ""  # `shown` while the hand-over screen covers the map: no side's view is drawn
MOST_DESCRIBED = 120  # more decisions than this are listed by their text (describing each takes a while)


class PlayMode(BoardClicks, QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session: PlaySession | None = None
        self.active = False
        self.board: PlayBoardLayer | None = None
        self.shown: str | None = COVERED  # the side whose view is drawn (None: the whole board)
        self.moment: int | None = None  # the log entry whose board is shown, None: now
        self.selected: list[str] = []
        self.routes: dict[str, Route] = {}
        self.fire_at: Hex | None = None
        self.paused = False
        self.delay = 300
        self.last_message = ""
        self._drag_from: Hex | None = None  # where the left button went down
        self._drag: list[Hex] = []  # the hexes dragged through from the selection's hex, in order
        self.collector = Collector()  # no full collection's pause in a click (collector.py)
        self._build()

    def _build(self) -> None:
        window = self.window
        self.phase_bar = PhaseBar()
        self.bar = QToolBar("Play", window, objectName="play-bar", movable=False)
        self.bar.addWidget(self.phase_bar)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.bar)
        self.bar.hide()
        self.odds = OddsPanel()
        self.actions_panel = ActionsPanel()
        self.log_panel = LogPanel()
        tabs = QTabWidget(objectName="play-tabs")
        tabs.addTab(self.actions_panel, "Decisions")
        tabs.addTab(self.odds, "Odds")
        self.roster = AmmoRoster()
        tabs.addTab(self.roster, "Ammo")  # the advanced rules only (22.3)
        tabs.setTabVisible(tabs.indexOf(self.roster), False)
        self.tabs = tabs
        top = QWidget()  # the reaction prompt over both tabs: its odds are on the Odds tab
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.actions_panel.prompt)
        column.addWidget(tabs, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(self.log_panel)
        split.setSizes([400, 200])  # the odds' lines above the log
        self.dock = QDockWidget("Play", window, objectName="play-dock")
        self.dock.setWidget(split)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.dock.toggleViewAction().setVisible(False)  # shown in play only, never from the View menu
        self.dock.setMinimumWidth(330)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.hide()
        self.layout = EditingLayout(window, self.dock)
        self.handover = HandOver(window.view)
        self.handover.accepted.connect(self._handed_over)
        self.end = EndScreen(window.view)
        self.worker = AiWorker(self)
        self.worker.decided.connect(self._ai_decided)
        self.worker.failed.connect(self._ai_failed)
        self.worker.busy_changed.connect(self.phase_bar.set_busy)
        self.prefetch = QTimer(self, singleShot=True, interval=0)  # one unit's reach a turn of the event loop
        self.prefetch.timeout.connect(self._prefetch_one)
        self.ai_timer = QTimer(self, singleShot=True)
        self.ai_timer.timeout.connect(self._ai_go)
        self.phase_bar.done.connect(self.play)
        self.phase_bar.pause_toggled.connect(self._paused)
        self.phase_bar.step.connect(self._ai_go)
        self.phase_bar.stop.connect(self.stop_ai)
        self.phase_bar.speed_changed.connect(self._speed)
        self.odds.roll.connect(self.roll)
        self.odds.cancel.connect(self.clear_selection)
        self.odds.picked_changed.connect(self._repick)
        self.actions_panel.chosen.connect(self.play)
        self.actions_panel.highlighted.connect(self._highlighted)
        self.actions_panel.unit_chosen.connect(self.pick_unit)
        self.log_panel.moment_chosen.connect(self.show_moment)
        self.log_panel.now_chosen.connect(lambda: self.show_moment(None))
        self.log_panel.take_back.connect(self.take_back)
        window.view.viewport().installEventFilter(self)
        window.closed.connect(self.stop_ai)
        window.closed.connect(self.collector.release)
        window.scene.hex_pressed.connect(self._pressed)
        window.scene.hex_moved.connect(self._dragged)
        window.scene.hex_released.connect(self._released)
        window.scene.hovered.connect(self._hovered)
        window.document_replaced.connect(self._document_replaced)

    # -- starting, entering, leaving -----------------------------------------------------------
    def start(self, players: dict[str, str], seed: int = 0, options: dict[str, Any] | None = None) -> bool:
        """A new game of the scenario as the window holds it (unsaved edits included); False, saying
        why, if it cannot be played (no scenario, errors the validator reports)."""
        from ..features.errata_panel import edited_scenario  # the scenario on the window's own maps

        document = self.window.document
        if document.scenario is None or document.session is None:
            return self._refuse("A map alone is not played: open a scenario (File > Open) to playtest it.")
        with busy():
            while document.session.revalidate_one():  # every check answered for the edits as they stand
                pass
            self.window.refresh_problems()
            errors = [p for p in self.window.problems if p.severity.value == "error"]
            if errors:
                self.window.show_problems_panel()
                return self._refuse(
                    f"The scenario has {len(errors)} error(s) (see the Problems panel): the engine plays only "
                    f"what the rules allow. The first: {errors[0].text()}"
                )
            try:
                scenario = edited_scenario(document)
            except LoadError as exc:
                return self._refuse(str(exc))
            texts = {f.path: f.text() for f in document.files()}
            self.stop_ai(pause=False)
            board = scenario.load_board()
            self.session = PlaySession.start(scenario, players, seed=seed, options=options, board=board, texts=texts)
        self._begin()
        return True

    def open_game(self, path: Path, opened: tuple[GameState, Log] | None = None) -> bool:
        """Open a saved game (its log; `opened`: already read) at its last event (R201), in its
        scenario; False, saying why, if not."""
        from ...boardarg import BadInput
        from ...cli_game import replayed, scenario_of
        from ..app import OpenFailed, load

        try:
            with busy():
                game, log = opened or replayed(path)
                scenario_path = scenario_of(path, str(log.header["scenario"]))
        except BadInput as exc:
            return self._refuse(str(exc))
        if self.window.document.path.resolve() != scenario_path.resolve():
            if not self.window.confirm_discard("opening the game's scenario"):
                return False
            try:
                with busy():
                    self.window.set_document(load(scenario_path))
            except OpenFailed as exc:
                return self._refuse(str(exc))
        self.stop_ai(pause=False)
        self.session = session_of_log(game, log.header)
        self.session.texts = {scenario_path: scenario_path.read_text(encoding="utf-8")}
        self._begin()
        self.message(f"Opened {path}: {self.session.played} actions, turn {game.turn}, {game.phase.replace('_', ' ')}")
        return True

    def _begin(self) -> None:
        assert self.session is not None
        if self.board is not None:
            self.board.detach()
        with busy():
            self.collector.begin(self.session.played)
        game = self.session.game
        self.board = PlayBoardLayer(self.window.scene, printed_faces(game.scenario, game.counters))
        self.board.unit_picked.connect(self.pick_unit)
        self.board.hex_clicked.connect(self.click_hex)
        self.selected, self.routes, self.fire_at, self.moment = [], {}, None, None
        self.shown = COVERED if len(self.session.humans) == 2 else self.session.screen_side()
        self.log_panel.clear()
        self.odds.clear()  # no odds of another game's shot stay up, Roll enabled
        self.end.hide()
        self.phase_bar.set_ai(any(not self.session.is_human(s) for s in self.session.players))
        if self.active:
            self.advance()  # a game opened in play: its end, its AI's turn, its hand-over (enter() does it else)
        else:
            self.enter()
        self._centre()

    def enter(self) -> None:
        """The map gets the window: the editing docks and tool bars hide (and come back on leaving)."""
        if self.session is None or self.active:
            return
        self.active = True
        self.layout.put_away()
        self.bar.show()
        self.dock.show()
        if self.board is not None:
            self.board.setVisible(True)
        self.advance()

    def leave(self) -> None:
        """Back to editing: the game is kept (Play > Playtest goes on with it)."""
        if not self.active:
            return
        self.stop_ai(pause=False)
        self.active = False
        self.bar.hide()
        self.dock.hide()
        self.handover.hide()
        self.end.hide()
        if self.board is not None:
            self.board.setVisible(False)
        self.layout.bring_back()
        if self.shown is not None and self.session is not None and len(self.session.humans) == 2:
            self.shown = COVERED  # back in play, the side to act is handed the screen again

    def _document_replaced(self) -> None:
        """Another file in the window (File > Open, New): the game of the last one ends with it."""
        self.leave()
        self.stop_ai(pause=False)
        if self.board is not None:
            self.board.detach()
        self.session, self.board = None, None
        self.layout.forget_play_middle()
        self.collector.release()

    def edited_since(self) -> bool:
        """The scenario or its maps differ from what the game was started from."""
        if self.session is None:
            return False
        now = {f.path: f.text() for f in self.window.document.files()}
        return any(now.get(p) != text for p, text in self.session.texts.items())

    def save_game(self, path: Path) -> Path | None:
        if self.session is None:
            self._refuse("No game to save: Play > Playtest starts one.")
            return None
        try:
            written = self.session.save(path)
        except SaveRefused as exc:
            self._refuse(f"The game is not saved: {exc}")
            return None
        except OSError as exc:
            self._refuse(f"The game is not saved: {path}: {exc.strerror or exc}")
            return None
        self.message(f"Saved the game ({self.session.played} actions) to {written}")
        return written

    # -- the flow ------------------------------------------------------------------------------
    def advance(self) -> None:
        """After every decision: the end, a decision that passes by itself, an AI's turn, the hand-over."""
        session = self.session
        if not self.active or session is None:
            return
        self.collector.settle(session.played)
        game = session.game
        if game.is_over:
            self.shown = None  # R217: the game over, the whole board is shown to both
            self.refresh()
            held = outcome(game)
            self.end.show_outcome(held)
            if held["objectives"]:
                self.window.view.centre_on(game.board.hex(next(iter(held["objectives"]))))
            self.phase_bar.game_over(f"The game is over: {game.result.get('winner') if game.result else ''}")
            return
        automatic = session.automatic()
        if automatic is not None:
            session.play(automatic)  # 6.0: nothing to decide; the log shows it
            QTimer.singleShot(0, self.advance)
            return
        if session.ai_to_act():
            if self.shown == COVERED:
                self.shown = session.screen_side()
            self.refresh()
            if not self.paused and not self.worker.busy:
                self.ai_timer.start(self.delay)
            return
        side = game.to_act
        if len(session.humans) == 2 and side != self.shown:
            self._cover(side)
            return
        self.refresh()

    def _cover(self, side: str) -> None:
        """Hot seat: nothing of either side stays drawn or listed under the hand-over screen."""
        self.shown = COVERED
        self.selected, self.routes, self.fire_at = [], {}, None
        if self.board is not None:
            self.board.show({})
            self.board.set_reach({})
            self.board.set_target(None)
        self.log_panel.clear()
        self.odds.clear()
        self.roster.clear()
        self.actions_panel.show_actions("", [])
        self.actions_panel.show_off_map([])
        assert self.session is not None
        game = self.session.game
        why = "opportunity fire may answer the move (13.0)" if game.interrupt else PHASES.get(game.phase, game.phase)
        self.window.statusBar().clearMessage()  # nothing of the last screen's words stays
        self.handover.cover(side, f"The {side.capitalize()} player decides now: {why}.")
        self._show_phase([])

    def _handed_over(self, side: str) -> None:
        self.shown = side
        self.refresh()

    def refresh(self) -> None:
        """Draw the screen side's view (or the board at the chosen moment) and list its decisions."""
        session, board = self.session, self.board
        if session is None or board is None or self.shown == COVERED:
            return
        state = session.game if self.moment is None else session.state_at(self.moment)
        if self.shown is None:
            data, log = whole_view(state)
            entries = log
        elif self.moment is None:
            view = session.view(self.shown)
            data, log, entries = view.data, list(view.log), list(view.log)
        else:
            view = player_view(state, self.shown)
            data, log, entries = view.data, list(view.log), list(view.log)
        board.show(data, log)
        self._show_roster(data)
        board.set_selected(self.selected)
        self._show_reach()
        board.set_target(self.fire_at)
        if session.game.is_over:
            board.set_objectives({state.board.hex(h): s for h, s in outcome(state)["objectives"].items()})
        if self.moment is None:
            own = set(session.decisions(self.shown)) if self.shown else set()
            self.log_panel.set_entries(entries, own)
        acting = self.acting_side()
        self._show_phase(session.actions() if acting else [])
        self._list_decisions()
        named = {uid for a in session.actions() for uid in a.units} if acting else set()  # listed once
        off = [
            (u["id"], f"{u['id'].split('/', 1)[-1]} ({u['where'].replace('_', ' ')})")
            for u in data["units"]
            if u["side"] == acting and u.get("hex") is None and u["id"] in named
        ]
        self.actions_panel.show_off_map(off)
        if acting:
            self.prefetch.start()

    def _show_roster(self, data: dict[str, Any]) -> None:
        """22.3: the roster of the side on screen, from its view (the whole board's: both sides')."""
        assert self.session is not None
        given, pools = self.session.ammo_given()
        self.tabs.setTabVisible(self.tabs.indexOf(self.roster), bool(given))
        if given:
            self.roster.show_roster(data.get("ammo") or {}, given, pools)

    def _show_phase(self, actions: list[Action]) -> None:
        assert self.session is not None
        game = self.session.game
        self.phase_bar.show_state(
            game.turn, game.scenario.game_length, game.phasing or None, game.phase, game.to_act or None, actions
        )
        if game.to_act and not actions and not game.is_over:
            who = "the AI" if not self.session.is_human(game.to_act) else "the other player"
            self.phase_bar.actor.setText(
                f"  {game.to_act.capitalize()} to act ({who}: {self.session.players[game.to_act]})"
            )

    def acting_side(self) -> str | None:
        """The side whose clicks are decisions now: a person's, on his own screen, at the present."""
        session = self.session
        if session is None or not self.active or self.moment is not None or session.game.is_over:
            return None
        side = session.game.to_act
        return side if session.is_human(side) and self.shown in (side, None) and self.shown != COVERED else None

    def _list_decisions(self) -> None:
        session = self.session
        assert session is not None
        side = self.acting_side()
        if side is None:
            self.actions_panel.show_actions("Decisions: none of yours now", [])
            return
        game = session.game
        actions = session.actions()
        named = [a for a in actions if set(a.units) & set(self.selected)] if self.selected else actions
        heading = f"<b>{side.capitalize()}</b>: " + (
            f"the decisions of {', '.join(u.split('/', 1)[-1] for u in self.selected)}"
            if self.selected
            else "every decision open"
        )
        prompt = ""
        if game.interrupt is not None and game.interrupt.get("side") != side:
            prompt = (
                f"<b>Opportunity fire (13.0)</b>: the {other(side).capitalize()} stack "
                f"({', '.join(u.split('/', 1)[-1] for u in game.interrupt.get('units', []))}) entered "
                f"{game.interrupt['hex']}. Pick a firer's decision to see its odds, or Pass to let the move go on."
            )
        self.actions_panel.show_actions(heading, [(a, self._words(a, len(named))) for a in named], prompt)

    def _words(self, action: Action, count: int) -> str:
        assert self.session is not None
        if count > MOST_DESCRIBED:
            return action.text()
        try:
            return describe(self.session.game, action).sentence
        except (IllegalAction, ValueError, KeyError):
            return action.text()

    # -- decisions -----------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        """Play one decision of the side to act; an illegal one is refused with its reason and rule."""
        session = self.session
        if session is None or self.acting_side() is None:
            self.message("Not your decision now.")
            return False
        try:
            with busy():
                session.play(action)
        except IllegalAction as exc:
            self.message(f"Refused: {exc}")
            return False
        self.fire_at = None
        self.odds.clear()
        self._keep_movers()
        self.advance()
        if self.acting_side() is not None:
            self.hint()  # the same units' next decision (a unit placed: its facing, 8.7)
        return True

    # -- the AI --------------------------------------------------------------------------------
    def _ai_go(self) -> None:
        session = self.session
        if session is None or not self.active or not session.ai_to_act() or self.worker.busy:
            return
        side = session.game.to_act
        self.worker.think(
            session.ai_player(side), session.view(side), session.actions(), lambda: session.ai_begin(side)
        )

    def _ai_decided(self, action: Action) -> None:
        session = self.session
        if session is None or not self.active:
            return
        try:
            session.play(action)
        except IllegalAction as exc:
            self._ai_failed(f"{session.players[session.game.to_act]} chose {action.text()}: {exc}")
            return
        self.advance()

    def _ai_failed(self, message: str) -> None:
        self.stop_ai()
        self._refuse(f"The AI player failed: {message}")

    def stop_ai(self, pause: bool = True) -> None:
        self.ai_timer.stop()
        self.worker.stop()
        if pause and not self.paused:
            self.phase_bar.pause.setChecked(True)  # Step or Run goes on

    def _paused(self, paused: bool) -> None:
        self.paused = paused
        if not paused:
            self.advance()

    def _speed(self, ms: int) -> None:
        self.delay = ms

    # -- the log -------------------------------------------------------------------------------
    def show_moment(self, n: int | None) -> None:
        """The board after log entry `n` as the screen's side saw it (None: now)."""
        self.moment = n
        with busy():
            self.refresh()

    def take_back(self, n: int) -> bool:
        """R215: back to decision `n` of the side playing; in hot seat the other person agrees first."""
        session = self.session
        if session is None:
            return False
        entry = session.game.log[n]
        side = str(entry["side"])
        if len(session.humans) == 2:
            # the decision as the other player saw it (a decision about hidden units: not at all)
            seen = next((e.get("action") for e in side_log(session.game, other(side)) if e.get("n") == n), None)
            answer = QMessageBox.question(
                self.window,
                "Take back",
                f"The {side.capitalize()} player asks to take back the game to his decision {n} "
                f"({seen or 'one you did not see'}). {other(side).capitalize()} player, do you agree?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                self.message("Take back refused by the other player.")
                return False
        self.stop_ai(pause=False)
        with busy():
            session.take_back(n)
        self.selected, self.routes, self.fire_at, self.moment = [], {}, None, None
        self.log_panel.clear()
        self.end.hide()
        self.message(f"Taken back to decision {n}: the {side.capitalize()} player decides again (R215)")
        self.shown = side if len(session.humans) == 2 else session.screen_side()
        self.advance()
        return True

    # -- words ---------------------------------------------------------------------------------
    def message(self, text: str) -> None:
        self.last_message = text
        self.window.statusBar().showMessage(text, 10000)

    def _refuse(self, text: str) -> bool:
        self.message(text)
        QMessageBox.warning(self.window, "Playtest", text)
        return False

    def _centre(self) -> None:
        session = self.session
        if session is None:
            return
        side = session.screen_side()
        own = [
            u.hex
            for u in session.game.units.values()
            if u.on_map and u.hex is not None and (side is None or u.side == side)
        ]
        if own:
            q = sum(h.q for h in own) / len(own)
            r = sum(h.r for h in own) / len(own)
            nearest = min(own, key=lambda h: (h.q - q) ** 2 + (h.r - r) ** 2)
            self.window.view.centre_on(nearest)
