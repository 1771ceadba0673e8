"""What a click on the board in play becomes: the selection (a unit, a stack, a leader and the
units he leads), a move by path (a hex clicked: the cheapest path; or dragged hex by hex, R190),
fire with its odds before the roll, the decisions at a hex (its context menu), and the refusal of
a click the rules do not allow, with the engine's reason and rule. Each is one of
`legal_actions` (or a path the engine checks whole), played through PlayMode.play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QMenu, QTabWidget

from engine.game import Action, IllegalAction, apply
from engine.game.actions import FACE, MOVE, PLACE
from engine.game.describe import options
from engine.game.fire import AIM, ANTITANK, JOIN, SHOOT
from engine.game.fire_odds import fire_odds
from engine.game.firing import FIRE_PHASES
from engine.game.paths import Route
from engine.game.state import MOVEMENT, REACTION
from engine.hexgrid import Hex

from ..busy import busy
from ..hex_layout import centre, hex_at
from .actions_panel import ActionsPanel
from .board_items import PlayBoardLayer
from .odds_panel import OddsPanel, seen_odds
from .session import PlaySession

if TYPE_CHECKING:
    from ..window import MainWindow


class BoardClicks:
    """PlayMode's clicks on the board (a mixin: PlayMode holds the state named here)."""

    window: MainWindow
    session: PlaySession | None
    board: PlayBoardLayer | None
    active: bool
    moment: int | None
    selected: list[str]
    routes: dict[str, Route]
    fire_at: Hex | None
    odds: OddsPanel
    tabs: QTabWidget
    actions_panel: ActionsPanel
    prefetch: QTimer
    _drag_from: Hex | None
    _drag: list[Hex]

    if TYPE_CHECKING:

        def play(self, action: Action) -> bool: ...
        def acting_side(self) -> str | None: ...
        def message(self, text: str) -> None: ...
        def advance(self) -> None: ...
        def _list_decisions(self) -> None: ...
        def _words(self, action: Action, count: int) -> str: ...

    def _keep_movers(self) -> None:
        """After a decision the selection holds only the side's units still on the map or to enter."""
        session = self.session
        assert session is not None
        self.selected = [
            u for u in self.selected if u in session.game.units and session.game.unit(u).where != "eliminated"
        ]
        self.routes = {}

    def _not_a_decision(self) -> None:
        """Why a click does nothing: the other side decides, or the board shows a past moment."""
        self.message(
            "Not your decision now." if self.moment is None else "Showing an earlier moment: Now returns to the game."
        )

    def pick_unit(self, uid: str) -> None:
        side = self.acting_side()
        board = self.board
        if side is None or board is None:
            self._not_a_decision()
            return
        if not uid.startswith(side + "/"):  # an enemy counter: its hex is the target
            h = board.hex_of_unit(uid)
            if h is not None:
                self.click_hex(h)
            return
        here = board.hex_of_unit(uid)
        same = bool(self.selected) and here is not None and board.hex_of_unit(self.selected[0]) == here
        if same and uid in self.selected:
            self.selected.remove(uid)
        elif same:
            self.selected.append(uid)
        else:
            self.selected = [uid]
        self.fire_at = None
        self._selection_changed()

    def _prefetch_one(self) -> None:
        """While the person looks at the board: the reach of one more of his units that may move,
        so that a click on it answers at once (paths takes tens of ms for an AFV of Scenario 6)."""
        session, side = self.session, self.acting_side()
        if session is None or side is None or self._drag:
            return
        movers = {a.units[0] for a in session.actions() if a.verb == MOVE and len(a.units) == 1}
        for uid in sorted(movers):
            if not session.has_routes((uid,)):
                session.routes((uid,))
                self.prefetch.start()
                return

    def clear_selection(self) -> None:
        self.selected, self.routes, self.fire_at = [], {}, None
        self.odds.clear()
        self._selection_changed()

    def _selection_changed(self) -> None:
        session = self.session
        assert session is not None
        self.routes = {}
        named = [a for a in session.actions() if set(a.units) & set(self.selected)]
        if self.selected and any(a.verb == MOVE for a in named):
            self.routes = session.routes(self.selected)
        if self.board is not None:
            self.board.set_selected(self.selected)
            self.board.set_target(self.fire_at)
        self._show_reach()
        self._list_decisions()
        self.hint()

    def hint(self) -> None:
        """What a click does next with the selection, in the status bar."""
        if not self.selected or self.session is None:
            return
        verbs = {a.verb for a in self.session.actions() if set(a.units) & set(self.selected)}
        if self.routes:
            what = "click a shaded hex to move there (its MP cost shown), or drag its path hex by hex"
        elif PLACE in verbs:
            what = "click a shaded hex to place it there (24.1)"
        elif FACE in verbs:
            what = "click the hex across the hexside it is to face (8.7)"
        else:
            what = "click an enemy hex to see the odds of its fire, or a hex for the decisions there"
        self.message(f"Selected {', '.join(u.split('/', 1)[-1] for u in self.selected)}: {what}")

    def _show_reach(self) -> None:
        session, board = self.session, self.board
        if session is None or board is None:
            return
        reach: dict[Hex, float] = {session.game.board.hex(h): r.mp for h, r in self.routes.items()}
        if not reach and self.selected and self.acting_side():
            for a in session.actions():  # the set-up: where the unit may be placed (no MPs: 0)
                if a.verb == PLACE and a.units[0] in self.selected:
                    reach[session.game.board.hex(a.arg.split()[0])] = 0
        board.set_reach(reach if self.acting_side() else {})
        # units off the map: a click on a hex they may be placed at (24.1) or enter to places or
        # enters them, on friendly counters too (stacking, 6.0)
        off_map = bool(self.selected) and board.hex_of_unit(self.selected[0]) is None
        board.decides_at = frozenset(reach) if off_map and self.acting_side() else frozenset()

    def click_hex(self, h: Hex) -> None:
        side = self.acting_side()
        session = self.session
        if side is None or session is None:
            self._not_a_decision()
            return
        game = session.game
        label = game.label_of(h)
        actions = session.actions()
        if self.selected:
            route = self.routes.get(label)
            if route is not None:
                self.play(route.action(self.selected))
                return
            if any(a.verb in (AIM, ANTITANK) and a.units[0] in self.selected and a.arg == label for a in actions):
                self.show_fire(h)
                return
            named = [a for a in actions if set(a.units) & set(self.selected) and label in a.arg.split()]
            if len(named) == 1:
                self.play(named[0])
                return
            if named:
                self._choose(named, QCursor.pos())
                return
        own = [u for u in (self.board.units_at(h) if self.board else []) if u.startswith(side + "/")]
        if own:
            self.selected = own
            self._selection_changed()
            return
        if self.selected and (game.phase in (MOVEMENT, REACTION) or game.phase in FIRE_PHASES or game.interrupt):
            # what the click would be: a move in a movement phase, else fire at the hex; the
            # engine's refusal, on a copy, says why not with its rule
            moving = game.phase in (MOVEMENT, REACTION) and game.interrupt is None
            probe = (
                Action(MOVE, tuple(self.selected), label) if moving else Action(AIM, tuple(self.selected[:1]), label)
            )
            try:
                apply(game, probe)
            except IllegalAction as exc:
                self.message(f"Refused: {exc}")
                return
            self.play(probe)
            return
        at_hex = options(game, hex=label)
        if at_hex:
            self.actions_panel.show_actions(
                f"<b>{side.capitalize()}</b>: the decisions at {label}",
                [(a, self._words(a, len(at_hex))) for a in at_hex],
            )
            self.tabs.setCurrentWidget(self.actions_panel)
            return
        self.message(f"Nothing you may do at {label} now" + (" with the selected units" if self.selected else ""))

    # -- a path dragged hex by hex, the cheapest path under the cursor ------------------------
    def _pressed(self, h: Hex, event: object) -> None:
        self._drag_from, self._drag = h, []

    def _start(self) -> Hex | None:
        """The selection's hex (None off the map: an entry's path starts at its first hex)."""
        return self.board.hex_of_unit(self.selected[0]) if self.board is not None and self.selected else None

    def _dragged(self, h: Hex, event: object) -> None:
        """A drag from the selected units' hex: each hex entered is the path's next (back over the
        last one takes it off)."""
        if not self.active or not self.selected or self.acting_side() is None or self.board is None:
            return
        start = self._start()
        if start is None or self._drag_from != start:
            return
        last = self._drag[-1] if self._drag else start
        if h == last:
            return
        before = self._drag[-2] if len(self._drag) > 1 else start
        if self._drag and h == before:
            self._drag.pop()
        else:
            self._drag.append(h)
        self.board.set_path([start, *self._drag])

    def _released(self, h: Hex | None, event: object) -> None:
        dragged, self._drag, self._drag_from = self._drag, [], None
        if dragged and self.session is not None and self.acting_side() is not None:
            labels = " ".join(self.session.game.label_of(x) for x in dragged)
            self.play(Action(MOVE, tuple(self.selected), labels))  # the engine checks it whole (R191)

    def _hovered(self, h: Hex | None) -> None:
        """The cheapest path to the hex under the cursor, and its MP cost in the status bar (R190)."""
        if not self.active or self._drag or self.board is None or self.session is None:
            return
        route = self.routes.get(self.session.game.label_of(h)) if h is not None and self.routes else None
        if route is None:
            self.board.set_path([])
            return
        board = self.session.game.board
        start = self._start()
        self.board.set_path([*([start] if start is not None else []), *(board.hex(x) for x in route.hexes)])
        self.window.statusBar().showMessage(
            f"{route.hexes[-1]}: {route.mp:g} MP by {' '.join(route.hexes)} (8.1)", 4000
        )

    def show_fire(self, target: Hex, picked: list[str] | None = None) -> None:
        """The odds of the selection's fire at `target` before the roll (fire_odds), then Roll: by
        every unit of the selection's hexes that may fire, or by the `picked` ones (11.13)."""
        session = self.session
        assert session is not None and self.board is not None
        sources = list(dict.fromkeys(self.board.hex_of_unit(u) for u in self.selected if self.board.hex_of_unit(u)))
        firing = session.game.unit(self.selected[0]).side  # what the firing side sees (24.21)
        seen = {u["id"] for u in session.view(firing).data["units"]}
        try:
            odds = seen_odds(fire_odds(session.game, [h for h in sources if h is not None], target, picked), seen)
        except ValueError as exc:
            self.message(f"No odds: {exc}")
            return
        if picked is None:
            picked = [u["unit"] for u in odds["units"] if u["fires"]]
        self.fire_at = target
        self.board.set_target(target)
        view = self.window.view
        if not view.viewport().rect().contains(view.mapFromScene(centre(target))):
            view.centre_on(target)  # the target in sight beside its odds
        label = session.game.label_of(target)
        # the AP attack the odds are of: the picked units that may combine (11.13, 11.14), else AT fire
        attack = (odds.get("ap") or {}).get("firers") or [s["firers"][0] for s in odds["at"]]
        firers = ", ".join(u.split("/", 1)[-1] for u in attack) or "no unit picked"
        self.odds.show_odds(f"<b>Fire at {label}</b> by {firers}: Roll plays it (PCs, then the dice)", odds, picked)
        self.tabs.setCurrentWidget(self.odds)

    def _repick(self, picked: list[str]) -> None:
        """A firer's box ticked or cleared: the odds of exactly the units now picked."""
        if self.session is not None and self.fire_at is not None and self.selected:
            self.show_fire(self.fire_at, picked)

    def roll(self) -> None:
        """The attack the odds were shown for: its first firer aims, the others join, shoot (11.13);
        with no AP attack, the first picked unit's AT fire. One firer at a time: the Decisions list."""
        session = self.session
        odds = self.odds.odds
        if session is None or self.fire_at is None or odds is None:
            return
        label = session.game.label_of(self.fire_at)
        actions = session.actions()
        firers = list((odds.get("ap") or {}).get("firers") or [])
        aim = (
            next((a for a in actions if a.verb == AIM and a.units[0] == firers[0] and a.arg == label), None)
            if firers
            else None
        )
        if aim is None:
            shooters = [s["firers"][0] for s in odds["at"]]
            at = next((a for a in actions if a.verb == ANTITANK and a.units[0] in shooters and a.arg == label), None)
            if at is not None:
                self.play(at)
            return
        try:
            with busy():
                session.play(aim)
                for uid in firers[1:]:
                    join = Action(JOIN, (uid,))
                    if join in session.actions():
                        session.play(join)
                session.play(Action(SHOOT))
        except IllegalAction as exc:
            self.message(f"Refused: {exc}")
        self.fire_at = None
        self.odds.clear("<b>Odds</b>: the result is on the counters and in the log")
        self._keep_movers()
        self.advance()

    def _highlighted(self, action: Action) -> None:
        """A firing decision pointed at in the list: its odds (the reaction prompt's too)."""
        session = self.session
        if session is None or action.verb not in (AIM, ANTITANK) or not action.arg:
            return
        self.selected = [action.units[0]]
        if self.board is not None:
            self.board.set_selected(self.selected)
        self.show_fire(session.game.board.hex(action.arg.split()[0]))

    def _choose(self, actions: list[Action], at: QPoint) -> None:
        """A menu of `actions` in words at `at` (global): the one picked is played."""
        menu = QMenu(self.window)
        for action in actions:
            menu.addAction(self._words(action, len(actions))).setData(action)
        picked = menu.exec(at)
        if picked is not None:
            self.play(picked.data())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A right click on the map: the decisions at that hex and of the selection there, by name."""
        if not self.active or event.type() != QEvent.Type.ContextMenu or self.session is None:
            return False
        side = self.acting_side()
        view = self.window.view
        h = hex_at(QPointF(view.mapToScene(event.pos())))  # type: ignore[attr-defined]
        if side is None or h not in self.session.game.board.hexes:
            return True
        label = self.session.game.label_of(h)
        found = options(self.session.game, hex=label)
        found += [
            a
            for a in self.session.actions()
            if set(a.units) & set(self.selected) and a not in found and label in a.arg.split()
        ]
        if found:
            self._choose(found, view.viewport().mapToGlobal(event.pos()))  # type: ignore[attr-defined]
        else:
            self.message(f"Nothing you may do at {label} now")
        return True
