"""A playtest's game, without Qt: the game, who plays each side, the history, take back, saving.

A side is played by a person (`HUMAN`) or by an AI player of `engine.players.PLAYERS`, deciding
from its side's View only. Every change of the game is one of `legal_actions` played through the
engine (`play`), so the game stays a function of its scenario, seed and actions: a take back
(R215) and the board at an earlier moment are the same actions played again from a kept copy of
an earlier state, never a state edited by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write, refuse_inputs
from engine.game import Action, GameState, IllegalAction, legal_actions, new_game, parse, play
from engine.game.actions import DONE, PASS
from engine.game.ammo import ammo_left
from engine.game.log import log_text
from engine.game.paths import Route, paths
from engine.game.units import ELIMINATED
from engine.game.victory import objectives
from engine.game.views import SideLog, View, player_view
from engine.model.board import Board
from engine.model.counters import SIDES
from engine.model.scenario import Scenario
from engine.players import PLAYERS, Player, make_player
from engine.players.base import begin_game

HUMAN = "human"
KEPT_EVERY = 50  # a copy of the state every so many actions: the board at any moment is at most that many replays


def player_names() -> list[str]:
    """Who may play a side: a person, then every registered AI player (new ones appear by themselves)."""
    return [HUMAN, *sorted(PLAYERS)]


class SaveRefused(ValueError):
    """A game that cannot be saved as it is: the message says why and what to do."""


@dataclass
class PlaySession:
    """One game being played in the editor."""

    game: GameState
    players: dict[str, str]  # side -> HUMAN or a registered player's name
    board: Board | None = None  # the maps the game is played on (None: the scenario's files)
    # the scenario's and maps' texts as the game started from them: a saved log names the scenario
    # file by its hash, so a game of unsaved edits is saved only once the files hold them
    texts: dict[Path, str] = field(default_factory=dict)
    _ai: dict[str, Player] = field(default_factory=dict)
    _logs: dict[str, SideLog] = field(default_factory=dict)
    _kept: dict[int, GameState] = field(default_factory=dict)  # actions played -> a copy of the state then
    _actions: tuple[int, list[Action]] | None = None
    _routes: dict[tuple[int, tuple[str, ...]], dict[str, Route]] = field(default_factory=dict)
    _begun: set[str] = field(default_factory=set)  # the AI sides told the scenario (begin_game)
    _ammo_given: tuple[dict[str, int], dict[str, str]] | None = None

    def __post_init__(self) -> None:
        unknown = [n for n in self.players.values() if n != HUMAN and n not in PLAYERS]
        if unknown or set(self.players) != set(SIDES):
            raise ValueError(f"each side is played by one of {', '.join(player_names())}, not {', '.join(unknown)}")
        self._ai = {
            side: make_player(name, self.game.seed * 2 + i)
            for i, (side, name) in enumerate(self.players.items())
            if name != HUMAN
        }
        self._keep()

    @classmethod
    def start(
        cls,
        scenario: Scenario,
        players: Mapping[str, str],
        *,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        board: Board | None = None,
        texts: Mapping[Path, str] | None = None,
    ) -> PlaySession:
        """A new game of `scenario` (already validated by the caller when `board` is given: the
        editor's own maps and checks), from its `setup:` if it has one, with the game's `options`
        (new_game: the advanced rules' switch)."""
        game = new_game(scenario, seed, dict(options or {}), board=board, validated=board is not None)
        return cls(game, {side: players[side] for side in SIDES}, board, dict(texts or {}))

    # -- the game ---------------------------------------------------------------------------
    @property
    def played(self) -> int:
        """How many actions have been played."""
        return len(self.game.log) - 1

    def actions(self) -> list[Action]:
        """The decisions open now (listed once per decision)."""
        if self._actions is None or self._actions[0] != self.played:
            self._actions = (self.played, legal_actions(self.game))
        return self._actions[1]

    def routes(self, units: Sequence[str]) -> dict[str, Route]:
        """Every hex `units` may reach now with its cheapest path (paths.py), worked out once per
        decision (the window works them out for the side's units while its player looks)."""
        key = (self.played, tuple(units))
        if key not in self._routes:
            if self._routes and next(iter(self._routes))[0] != self.played:
                self._routes.clear()
            try:
                self._routes[key] = paths(self.game, list(units))
            except (IllegalAction, ValueError, KeyError):  # units that may not move as one: nowhere to go
                self._routes[key] = {}
        return self._routes[key]

    def has_routes(self, units: Sequence[str]) -> bool:
        return (self.played, tuple(units)) in self._routes

    def is_human(self, side: str) -> bool:
        return self.players[side] == HUMAN

    @property
    def humans(self) -> list[str]:
        return [side for side in SIDES if self.is_human(side)]

    def ai_to_act(self) -> bool:
        return not self.game.is_over and not self.is_human(self.game.to_act)

    def play(self, action: Action) -> list[dict[str, Any]]:
        """Play one decision (IllegalAction with its reason and rule if the rules refuse it); the log
        entries it added."""
        before = len(self.game.log)
        play(self.game, action)
        self._keep()
        return self.game.log[before:]

    def automatic(self) -> Action | None:
        """The decision a person is not asked for: the side to act has only `done` or only `pass`
        (6.0). Not the answer to a hex entered while the answering side has hidden units (R216):
        how fast the mover goes on would tell him whether a hidden unit could fire there."""
        if self.game.is_over or not self.is_human(self.game.to_act):
            return None
        actions = self.actions()
        if len(actions) != 1 or actions[0].verb not in (DONE, PASS):
            return None
        side = self.game.to_act
        if self.game.interrupt is not None and any(u.hidden and u.side == side for u in self.game.units.values()):
            return None
        return actions[0]

    def view(self, side: str) -> View:
        """`side`'s View now (its SideLog read on, not again from the start)."""
        log = self._logs.setdefault(side, SideLog(side))
        return player_view(self.game, side, log)

    def ai_player(self, side: str) -> Player:
        return self._ai[side]

    def ai_begin(self, side: str) -> None:
        """Tell `side`'s AI player the scenario before its first choice (begin_game), once. It is
        called with the first decision, off the GUI thread: the heuristic and search players read
        the whole board's lines of sight then (seconds in Scenario 6, once a board)."""
        if side not in self._begun:
            begin_game({side: self._ai[side]}, self.game.scenario)
            self._begun.add(side)

    def screen_side(self) -> str | None:
        """Whose view the screen shows: the one person playing; of two (hot seat) the one to act,
        or the last to act while an AI decides; None (the whole game) when only AIs play."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        if not humans:
            return None
        return self.game.to_act if self.game.to_act in humans else humans[0]

    # -- the history ------------------------------------------------------------------------
    def ammo_given(self) -> tuple[dict[str, int], dict[str, str]]:
        """24.1, 22.3: each unit's ammo points as the scenario gives them (public, as its numbers
        are), and each unit's pool (R343: two LMGs of a squad may share one); empty in the basic game."""
        if self._ammo_given is None:
            start = self.state_at(0)
            given = {u.id: left for u in start.units.values() if (left := ammo_left(start, u)) is not None}
            pools = {uid: str(start.units[uid].extra["ammo_pool"]) for uid in given}
            self._ammo_given = (given, pools)
        return self._ammo_given

    def decisions(self, side: str) -> list[int]:
        """The actions (their numbers in the log) `side` decided: where a take back may return to."""
        return [n for n, e in enumerate(self.game.log) if n and e.get("side") == side]

    def state_at(self, n: int) -> GameState:
        """A copy of the game after its first `n` actions (0: the start)."""
        if not 0 <= n <= self.played:
            raise ValueError(f"the game has {self.played} actions, not {n}")
        if n == self.played:
            return self.game.copy()
        start = max((k for k in self._kept if k <= n), default=None)
        state = self._kept[start].copy() if start is not None else self._fresh()
        for entry in self.game.log[len(state.log) : n + 1]:
            before = len(state.dice.rolled)
            play(state, parse(entry["action"]))
            # the same actions from the same state roll the same dice (the game's own generator)
            assert state.dice.rolled[before:] == list(entry.get("dice", [])), entry["n"]
            if (len(state.log) - 1) % KEPT_EVERY == 0:
                self._kept[len(state.log) - 1] = state.copy()
        return state

    def take_back(self, n: int) -> None:
        """R215: the game as it was when action `n` was about to be decided (its side decides again).
        The dice to come are the ones that came: a roll taken back and made again rolls the same."""
        if not 1 <= n <= self.played:
            raise ValueError(f"no action {n} to take back (the game has {self.played})")
        self.game = self.state_at(n - 1)
        self._kept = {k: v for k, v in self._kept.items() if k <= n - 1}
        self._logs.clear()  # the sides' logs are read again from the start of the shorter log
        self._actions = None
        self._routes.clear()

    def _keep(self) -> None:
        if self.played % KEPT_EVERY == 0 and self.played not in self._kept:
            self._kept[self.played] = self.game.copy()

    def _fresh(self) -> GameState:
        game = self.game
        return new_game(game.scenario, game.seed, game.options, board=self.board, validated=True)

    # -- files ------------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        """Write the game's log atomically (the file written); SaveRefused if the scenario's files do
        not hold what the game was started from (its log could not be opened against them)."""
        changed = [p for p, text in self.texts.items() if _disk_text(p) != text]
        if changed:
            raise SaveRefused(
                "the game was started from edits not saved in "
                + ", ".join(str(p) for p in changed)
                + ": a game's log names its scenario file by its contents; save the scenario (File > Save), "
                "restart the playtest (Play > Restart with the edits) and save that game"
            )
        refuse_inputs(path, self.texts, "a file of the game's scenario")  # a log over it would destroy it
        return atomic_write(path, log_text(self.game, [self.players[side] for side in SIDES]))


def _disk_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def session_of_log(game: GameState, header: Mapping[str, Any]) -> PlaySession:
    """The session of an opened log: its players as the header names them (an unknown one, or none,
    played by a person)."""
    names = list(header.get("players") or [])
    players = {
        side: (names[i] if i < len(names) and (names[i] == HUMAN or names[i] in PLAYERS) else HUMAN)
        for i, side in enumerate(SIDES)
    }
    return PlaySession(game, players)


# -- the end ------------------------------------------------------------------------------------
def outcome(game: GameState) -> dict[str, Any]:
    """The end: the result and the condition that decided it, each side's losses, the objectives held."""
    losses = {side: sorted(u.id for u in game.side_units(side) if u.where == ELIMINATED) for side in SIDES}
    held = objectives(game)  # R210: each objective hex and who holds it
    objectives_held = {game.label_of(h): held[h] for h in sorted(held, key=game.label_of)}
    return {"result": dict(game.result or {}), "losses": losses, "objectives": objectives_held}


def whole_view(game: GameState) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The whole board (AI against AI, the game's end: R217): each side's units and secrets as its own
    view holds them (with their moved and fired marks), and the referee's log."""
    views = {side: player_view(game, side) for side in SIDES}
    data = dict(views[SIDES[0]].data)
    data["units"] = [u for side in SIDES for u in views[side].data["units"] if u["side"] == side]
    data["secrets"] = {side: views[side].data["secrets"][side] for side in SIDES}
    return data, list(game.log)
