"""`search`: the heuristic's doctrine, with its close calls settled by looking ahead.

Where the heuristic ranks several choices (a stack's destinations, the attacks open, the Assault
markers and assaults: its `alternatives`), each is tried in full states drawn from the side's
view (determinize.py, R181: the enemy's unseen units and mines placed as they may be, dice of the
search's own), the same draws for every choice, and the same dice for the same action in each
(common random numbers, R373). After the choice both sides play the heuristic for a short
horizon, and the state is scored by an evaluation function instead of playing to the end (a
playout to the end costs 0.2 s in Scenario 1, 0.9 s in Scenario 6):
the result if the game ended now (24.9), the objective hexes each side holds, the worth of each
side's units and their morale, and how near the side's units stand to what it goes for.

The heuristic's own choice stands unless another beats it in every draw, and by `MARGIN` on
average (R330): with a few draws and a short horizon most of a difference is the dice of the
horizon, and a search that overrules the doctrine on that noise plays worse, not better.
Forced decisions and those where the doctrine sees one choice cost no search, and so do a
clearing side's moves and assaults (R374): a side that must only clear the enemy from a zone (24.9)
weighs only the choices of its fire phases, where the look-ahead sees what a choice is for. A side
with less to lose than the enemy (R372: its rifle weighs more than one) searches only in the game's
second half (R375): before it, every loss weighs heavily in its look-ahead while what the loss buys
(the objectives at the game's end) does not show, and the evaluation foretells little.
A flat Monte Carlo over determinized states ("perfect information Monte Carlo"): the budget is
`samples` draws a decision (by default: a game stays a function of its seeds), or with
`time_limit` no new draw once that many seconds are spent.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence

from engine.game.actions import Action, IllegalAction
from engine.game.determinize import determinize
from engine.game.firing import FIRE_PHASES
from engine.game.play import legal_actions, play
from engine.game.state import GameState, other
from engine.game.units import ELIMINATED
from engine.game.victory import result
from engine.game.views import View
from engine.hexgrid import Hex
from engine.model.counters import SIDES
from engine.model.scenario import Scenario

from .heuristic import HeuristicPlayer, worth
from .knowledge import FAR

SAMPLES = 2  # draws of the unseen a decision, each trying every choice
HORIZON = 12  # decisions played after a choice before the state is judged
WIN = 20.0  # the evaluation of the result if the game ended now, in rifles (heuristic.worth)
HELD = 2.0  # an objective hex held (24.9): units there and none of the enemy's (R266), or controlled
NEAR = 20  # the farthest a unit's distance from the side's goals counts, in hexes
MARGIN = 1.0  # R330: a choice overrules the heuristic's by this much on average, in rifles


class SearchPlayer:
    """The heuristic, with its ranked choices weighed by determinized look-ahead."""

    name = "search"

    def __init__(
        self, seed: int, samples: int = SAMPLES, horizon: int = HORIZON, time_limit: float | None = None
    ) -> None:
        self.random = random.Random(seed)
        self.samples, self.horizon, self.time_limit = samples, horizon, time_limit
        self.own = HeuristicPlayer(seed)
        self.policy: dict[str, HeuristicPlayer] = {}
        self.share: dict[str, float] = {}  # R372: what a rifle of each side weighs in `evaluate`
        self.scenario: Scenario | None = None
        self.phases: tuple[str, ...] | None = None  # R374: the phases whose choices it weighs (None: all)
        self.late = False  # R375: if set, it weighs nothing in the game's first half
        self.searched = 0  # decisions searched, their time, and those it overruled (benchmarks/ai.py)
        self.seconds = 0.0
        self.overruled = 0

    def begin(self, scenario: Scenario, side: str) -> None:
        self.scenario = scenario
        self.own.begin(scenario, side)
        self.policy = {}
        know = self.own.know
        assert know is not None
        # R374: a move's or an assault's worth to a side that must clear a zone shows only when the
        # zone is clear, far beyond the horizon, while the enemy's fire at it shows within it
        self.phases = FIRE_PHASES if know.clear and not know.occupy else None
        totals = {s: sum(worth(u) for u in know.base.units.values() if u.side == s) for s in SIDES}
        self.share = {s: sum(totals.values()) / len(SIDES) / totals[s] for s in SIDES}
        # R375: a side with less to lose shies from losses in the look-ahead; what they buy shows late
        self.late = self.share[side] > 1.0
        for s in SIDES:  # the playouts' players: both sides play the doctrine on the drawn states
            player = HeuristicPlayer(self.random.randrange(2**32))
            player.begin(scenario, s)
            self.policy[s] = player

    def choose(self, view: View, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        choice = self.own.choose(view, actions)
        choices = list(dict.fromkeys([choice, *self.own.alternatives]))
        if len(choices) < 2 or self.scenario is None:
            return choice
        if self.phases is not None and view.data["phase"] not in self.phases:
            return choice
        if self.late and 2 * view.data["turn"] <= int(self.scenario.data["game_length"]):  # as play.py ends it
            return choice
        start = time.perf_counter()
        values: dict[Action, list[float]] = {c: [] for c in choices}
        for drawn in range(self.samples):
            if drawn and self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break
            sample = determinize(view, self.scenario, random.Random(self.random.randrange(2**32)))
            seed = self.random.randrange(2**32)
            for c in choices:
                values[c].append(self._value(sample.copy(seed=seed), c, view.side, seed))
        self.searched += 1
        self.seconds += time.perf_counter() - start
        settled = self._settle(choice, values)
        self.overruled += settled != choice
        return settled

    @staticmethod
    def _settle(choice: Action, values: dict[Action, list[float]]) -> Action:
        """R330: the heuristic's choice, unless another beats it in every draw (the same draws and
        dice for each: common random numbers) and by MARGIN on average; then the best such."""
        own = values[choice]
        better = {
            c: sum(v) / len(v)
            for c, v in values.items()
            if c != choice
            and all(a > b for a, b in zip(v, own, strict=True))
            and sum(v) / len(v) >= sum(own) / len(own) + MARGIN
        }
        return max(better, key=lambda c: better[c]) if better else choice

    def _value(self, game: GameState, action: Action, side: str, seed: int) -> float:
        """The choice played in the drawn state, then the heuristic for both sides a while, judged."""
        played: dict[str, int] = {}
        try:
            _keyed_play(game, action, seed, played)
        except IllegalAction:
            return self.evaluate(game, side) - 1.0  # what was drawn refuses it (hidden units, 24.23)
        for player in self.policy.values():  # a clean slate: no stack of another playout moved this phase
            player.forget()
        for _ in range(self.horizon):
            if game.is_over:
                break
            actions = legal_actions(game)
            mover = game.to_act
            try:
                _keyed_play(game, self.policy[mover].decide(game, mover, actions), seed, played)
            except IllegalAction:
                _keyed_play(game, actions[-1], seed, played)  # `done` or `pass` is last where a phase may end
        return self.evaluate(game, side)

    def evaluate(self, game: GameState, side: str) -> float:
        """The state for `side`, in rifles: the result if it ended now (24.9), the objective hexes
        each side holds (HELD each), each side's units by worth (an eliminated one nothing;
        PINNED and SUPPRESSED less: 3.22; a side's rifle weighs the mean force over its own, R372: a
        loss counts for more on the side with less to lose), and how near the side's units stand to
        the hexes it goes for (a tenth of a rifle a hex, up to NEAR hexes: a unit off the map, to
        enter or eliminated, counts as that far, so that neither waiting nor dying looks like
        progress)."""
        outcome = game.result if game.is_over else result(game)
        winner = outcome["winner"] if outcome else None
        score = WIN if winner == side else -WIN if winner == other(side) else 0.0
        goals = self.own.know.goals(game) if self.own.know is not None else {}
        for s, sign in ((side, 1.0), (other(side), -1.0)):
            know = self.policy[s].know if s in self.policy else None
            if know is not None:
                score += sign * HELD * sum(1 for h in know.occupy if _holds(game, s, h, know.by_control))
        for unit in game.units.values():
            if unit.side == side:  # off the map (to enter, or eliminated) as far as counts
                at = goals.get(unit.hex, FAR) if unit.on_map and unit.hex is not None else FAR
                score -= 0.1 * min(at, NEAR)
            if unit.where == ELIMINATED:
                continue
            value = worth(unit) * (0.6 if unit.morale == "suppressed" else 0.8 if unit.morale == "pinned" else 1.0)
            value *= self.share[unit.side]
            score += value if unit.side == side else -value
        return score


def _keyed_play(game: GameState, action: Action, seed: int, played: dict[str, int]) -> None:
    """R373: `play`, its dice drawn from the playout's seed and what is played (the action, its
    Game Turn, phase and side, and how often it was played so: common random numbers by action).
    Two choices' playouts then roll alike wherever they play alike, however many dice the choices
    themselves rolled, where one stream of dice would part them at the first roll that differs."""
    key = f"{game.turn} {game.phase} {game.to_act} {action.text()}"
    n = played[key] = played.get(key, 0) + 1
    digest = hashlib.blake2b(f"{seed} {key} {n}".encode(), digest_size=8).digest()
    game.dice = game.dice.copy(seed=int.from_bytes(digest, "big"))
    play(game, action)


def _holds(game: GameState, side: str, h: Hex, by_control: bool) -> bool:
    """24.9: where control scores, the side controls the hex (the last to occupy it); else its
    units stand there and none of the enemy's (R266)."""
    if by_control:
        return game.control.get(h) == side
    units = game.at(h)
    return any(u.side == side for u in units) and not any(u.side != side for u in units)
