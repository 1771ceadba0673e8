"""`heuristic`: a doctrine a wargamer would recognise, played from the side's view only.

- Movement (8.0): AFVs first while 8.0's order lets them start, then stacks with AFVs, then the
  infantry; leaders lead the units of their hex (8.3 A); each stack goes by path (paths.py) to
  the reachable hex that is nearest the objectives the victory conditions name, in the best cover
  (11.31), seen by the fewest enemy hexes (10.3) and not over-crowded; units on an objective hold.
  An AFV next to enemy units turns to them and overruns (9.0) unless the guns seen there would
  likely destroy it first (9.2 A); an AFV that no move brings nearer the objectives pushes the
  Wreck in front of it out of its way (8.65).
- Fire (10.0-16.0): every attack open is scored by its exact odds (fire_odds.py: each target's
  E, S and P chances, the firers' PCs included) and the best one is made while it is worth a
  unit's fire; AP firers combine (11.13) unless a firer that moved would add a die (11.32); AT fire
  where the kill chance is worth it; a mortar at the seen stack it may hurt most (14.0);
  grenades and flamethrowers at close enemy stacks (15.0, 16.0). Opportunity fire (13.0) at a
  mover only on good odds: firing now spends the unit's Defensive Fire. In the Support Fire Phase
  the units that should move on keep their fire (8.21: a unit that fired there may not move).
- Assault (17.0): an Assault marker and the assault itself only where the stack outnumbers the
  seen defenders (or they are PINNED or SUPPRESSED), led by a leader when one may (17.12);
  crews replaced whenever a CW is short (20.1).
- States (3.13, 6.0 H): DOWN where seen or holding an objective, UP where it must move.
- Set-up (24.1, 24.2, 18.1, 19.1): units on the deployment hexes nearest the objectives in the
  best cover, hidden hexes over the units nearest them, IPs under them, mines on the approaches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.game.actions import DONE, FACE, LEAD, MOVE, PASS, PUSH, STATE, Action
from engine.game.advanced import advanced
from engine.game.fire import AIM, ANTITANK, INTENSIVE, JOIN, SHOOT
from engine.game.fire_odds import fire_odds, fire_pc_chance
from engine.game.infiltration import INFILTRATION
from engine.game.mortars import is_mortar
from engine.game.overrun import frontal_shot
from engine.game.paths import Route, paths
from engine.game.shot import is_atg
from engine.game.state import ASSAULT, FREE_STATE, MOVEMENT, REACTION, SETUP, SUPPORT_FIRE, GameState
from engine.game.units import Unit
from engine.game.views import View
from engine.hexgrid import Hex
from engine.model.scenario import Scenario
from engine.odds import at_chance

from .advanced_doctrine import AdvancedDoctrine
from .knowledge import FAR, Knowledge
from .picks import ALTERNATIVES, done_or_first, first_of, hex_at
from .setup_doctrine import SetupDoctrine

# How much a result on a target is worth, as a share of the unit (11.4: E eliminates; S and P
# silence it for a while).
RESULT_WORTH = {"E": 1.0, "S": 0.5, "P": 0.25}
FIRE_AT_LEAST = 0.12  # an attack worth less than this share of a unit is not worth a unit's fire
OPPORTUNITY_AT_LEAST = 0.3  # 13.0: firing at a mover spends the unit's Defensive Fire
AT_AT_LEAST = 0.08  # the chance to destroy an AFV worth an AT shot (12.0)
ASSAULT_RATIO = 1.5  # attackers to defenders for an assault; 1 at an objective (17.0)
OVERRUN_RISK = 0.1  # R331: the most chance of the overrun hex's guns destroying the AFV (9.2 A) worth taking
SUPPORT_FROM = 1  # R360: the farthest from its goals, in hexes, a unit fires in the Support Fire Phase (8.21)
STAY_UNLESS = 0.5  # a stack moves only to a hex that scores this much more than where it stands
SEEN_BY = 1.5  # what a hex scores less for each enemy hex that sees it (10.3), up to three


@dataclass(frozen=True)
class Knobs:
    """The doctrine's thresholds, one player's own (the defaults above), so that a player may be made
    bolder or steadier without touching another (docs/balance.md, Strength: a portfolio of such
    doctrines, tried for `search` and withdrawn)."""

    fire_at_least: float = FIRE_AT_LEAST
    opportunity_at_least: float = OPPORTUNITY_AT_LEAST
    assault_ratio: float = ASSAULT_RATIO
    overrun_risk: float = OVERRUN_RISK
    support_from: int = SUPPORT_FROM
    stay_unless: float = STAY_UNLESS
    seen_by: float = SEEN_BY


def worth(unit: Unit) -> float:
    """A unit's worth, in rifles: AFVs and crewed weapons carry the fight; commanders lead it."""
    if unit.is_afv:
        return 4.0
    if unit.kind == "cw":
        return 2.5
    if unit.kind == "commander":
        return 2.0
    return 1.0


class HeuristicPlayer(SetupDoctrine):
    """The doctrine above, one decision at a time; its own generator only breaks ties."""

    name = "heuristic"

    def __init__(self, seed: int, knobs: Knobs | None = None) -> None:
        self.random = random.Random(seed)
        self.knobs = knobs or Knobs()
        self.know: Knowledge | None = None
        self.doctrine: AdvancedDoctrine | None = None  # 21.0-23.0: the advanced rules' choices
        self._scenario: Scenario | None = None
        self._phase: tuple[Any, ...] = ()
        self._moved: set[tuple[str, ...]] = set()  # stacks moved or judged to hold this phase
        self.alternatives: list[Action] = []  # the next best choices of the last decision (a search's)

    def forget(self) -> None:
        """A new look-ahead (search.py): no stack of another state counts as moved or held this phase."""
        self._phase = ()

    def begin(self, scenario: Scenario, side: str) -> None:
        """The game about to start (match.play_out calls it): what the scenario tells every player."""
        self._scenario = scenario
        self.know = Knowledge(scenario, side)
        self.doctrine = AdvancedDoctrine(self.know, worth, RESULT_WORTH, self._attack_value, self._at_value)

    def choose(self, view: View, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        if self.know is None or self.know.side != view.side:
            raise RuntimeError("the heuristic player needs begin(scenario, side) before its first choice")
        return self.decide(self.know.state(view), view.side, list(actions))

    # -- dispatch ------------------------------------------------------------------------------

    def decide(self, game: GameState, side: str, actions: list[Action]) -> Action:
        """The choice in `game` (the side's known state, or a search's drawn one); `alternatives`
        the next best, where the doctrine ranks several."""
        phase = (game.turn, game.phase, game.phasing)
        if phase != self._phase:
            self._phase, self._moved = phase, set()
        self.alternatives = []
        verbs = {a.verb for a in actions}
        if "remove" in verbs:  # 17.23: the owner chooses the unit a hit eliminates
            return min((a for a in actions if a.verb == "remove"), key=lambda a: worth(game.unit(a.units[0])))
        if game.phase == SETUP:
            return self._setup(game, side, actions)
        if game.phase == INFILTRATION:
            return self._infiltration(game, side, actions)
        if self.doctrine is not None and advanced(game):  # MG modes, ammo, observation (advanced_doctrine.py)
            chosen = self.doctrine.choose(game, side, actions)
            if chosen is not None:
                return chosen
            actions = self.doctrine.rationed(game, actions)
            verbs = {a.verb for a in actions}
        if game.attack is not None:
            return self._declaring(game, actions)
        if game.overrun.get("under_way") and ANTITANK in verbs:
            return self._overrun_fire(game, actions)
        if game.interrupt is not None or PASS in verbs:
            return self._answer(game, side, actions)
        if game.closing:
            return self._closing(game, side, actions)
        if game.phase == ASSAULT:
            return self._assault(game, side, actions)
        if game.phase in (MOVEMENT, REACTION):
            return self._movement(game, side, actions)
        if game.phase == FREE_STATE:
            return self._free_state(game, side, actions)
        if AIM in verbs or "mortar" in verbs or ANTITANK in verbs or "grenade" in verbs or "flame" in verbs:
            return self._fire(game, side, actions, self.knobs.fire_at_least)
        return done_or_first(actions)

    # -- movement (8.0-9.0) ---------------------------------------------------------------------

    def _movement(self, game: GameState, side: str, actions: list[Action]) -> Action:
        know = self._know()
        enemies = self._enemies(game, side)
        overrun = self._overrun(game, actions, enemies)
        if overrun is not None:
            return overrun
        moves: dict[tuple[str, ...], list[Action]] = {}
        for a in actions:
            if a.verb == MOVE:
                moves.setdefault(a.units, []).append(a)
        turn = self._afv_turn(game, side, actions, enemies)
        if turn is not None:
            return turn
        for push in (a for a in actions if a.verb == PUSH and ("push", *a.units) not in self._moved):
            self._moved.add(("push", *push.units))
            if self._blocked(game, push):
                return push
        exposure = know.exposure(h for h, _ in enemies)
        led = [s for s in moves if game.active and s[0] == game.active[0] and len(s) > 1]
        if led:  # 8.3 A: the leader passed; he takes the most units of his hex he may
            stack = max(led, key=len)
            self._moved.update(led)
            route = self._best_route(game, side, stack, exposure, actions)
            if route is not None:
                return route
        leads = [a for a in actions if a.verb == LEAD and not a.arg and a.units not in self._moved]
        for lead in leads:  # 8.3 A: the leader's PR for the units of his hex that should move
            leader = game.unit(lead.units[0])
            if leader.hex is not None and any(
                self._wants_to_move(game, u) for u in game.at(leader.hex) if u.side == side and u is not leader
            ):
                self._moved.add(lead.units)
                return lead
        for stack in sorted(moves, key=lambda s: self._order(game, s)):
            if stack in self._moved:
                continue
            units = [game.unit(i) for i in stack]
            if len(units) == 1 and units[0].state == "down":  # 3.13: up first, at 2 MPs (5 an AFV)
                up = [a for a in actions if a.verb == STATE and a.units[0] in stack and a.arg == "up"]
                if up and not self._holds(game, units[0]):
                    return up[0]
                self._moved.add(stack)
                continue
            route = self._best_route(game, side, stack, exposure, actions)
            self._moved.add(stack)
            if route is not None:
                return route
        return done_or_first(actions)

    def _order(self, game: GameState, stack: tuple[str, ...]) -> tuple[int, int, str]:
        """8.0: lone AFVs, then stacks with an AFV, then the rest; the largest stacks first."""
        units = [game.unit(i) for i in stack]
        afvs = sum(1 for u in units if u.is_afv)
        rank = 0 if afvs and len(units) == 1 else 1 if afvs else 2
        return rank, -len(units), stack[0]

    def _wants_to_move(self, game: GameState, unit: Unit) -> bool:
        return not unit.move_done and not unit.moved and not self._holds(game, unit)

    def _holds(self, game: GameState, unit: Unit) -> bool:
        """On an objective hex: it stays (24.9)."""
        return unit.on_map and unit.hex is not None and self._know().goals(game).get(unit.hex, FAR) == 0

    def _best_route(
        self, game: GameState, side: str, stack: tuple[str, ...], exposure: Any, legal: list[Action]
    ) -> Action | None:
        units = [game.unit(i) for i in stack]
        if self._holds(game, units[0]) and all(self._holds(game, u) for u in units):
            return None
        routes = paths(game, stack)
        if not routes:
            return None
        here = units[0].hex if units[0].on_map else None
        goals = self._know().goals(game)  # once for every hex weighed: the state does not change meanwhile
        stay = self._hex_score(game, side, here, units, exposure, goals, leaving=True) if here is not None else -1e9
        ranked = sorted(
            (
                (self._hex_score(game, side, hex_at(game, h), units, exposure, goals), -route.mp, h)
                for h, route in routes.items()
            ),
            reverse=True,
        )
        if ranked[0][0] <= stay + self.knobs.stay_unless:
            return None
        chosen = [a for _, _, h in ranked[:ALTERNATIVES] if (a := _route_action(routes[h], stack, legal)) is not None]
        self.alternatives = chosen[1:]
        return chosen[0] if chosen else None

    def _hex_score(
        self,
        game: GameState,
        side: str,
        h: Hex,
        units: list[Unit],
        exposure: Any,
        goals: dict[Hex, int],
        *,
        leaving: bool = False,
    ) -> float:
        know = self._know()
        d = goals.get(h, FAR)
        friends = sum(1 for u in game.at(h) if u.side == side) - (len(units) if leaving else 0)
        seen = self.knobs.seen_by * min(know.seen_at(exposure, h), 3)
        score = -3.0 * d + know.cover.get(h, 1) - seen - 1.0 * max(friends, 0)
        if d == 0 and friends <= 0:
            score += 4.0  # an objective no friend holds yet
        if h in game.revealed_mines:
            score -= 10.0  # 19.22: a mine is known there
        if any(u.is_afv for u in units):
            near = [n for n in game.neighbours(h) if any(e.side != side and e.kind != "cw" for e in game.at(n))]
            score += 2.0 * bool(near)  # 9.0: next to enemy infantry, to overrun
        return score

    def _afv_turn(
        self, game: GameState, side: str, actions: list[Action], enemies: list[tuple[Hex, list[Unit]]]
    ) -> Action | None:
        """9.0: an AFV that may still overrun turns its front to enemy infantry next to it (8.74)."""
        at = dict(enemies)
        if not at:
            return None
        for a in actions:
            if a.verb != FACE or len(a.units) != 1 or ("face", *a.units) in self._moved:
                continue
            afv, toward = game.unit(a.units[0]), hex_at(game, a.arg)
            if (
                afv.is_afv
                and afv.hex is not None
                and toward in game.neighbours(afv.hex)
                and _overrunnable(game, afv, at.get(toward, []), self.knobs.overrun_risk)
            ):
                self._moved.add(("face", *a.units))  # once a phase: the overrun follows, or not
                return a
        return None

    def _blocked(self, game: GameState, push: Action) -> bool:
        """8.65: push the Wreck in front of an AFV that no move brings nearer its goals, when the
        Wreck's hex is nearer them (a road or a bridge it blocks)."""
        goals = self._know().goals(game)
        afv = game.unit(push.units[0])
        here = goals.get(afv.hex, FAR) if afv.hex is not None else FAR
        if goals.get(hex_at(game, push.arg), FAR) >= here:
            return False
        reach = min((goals.get(hex_at(game, h), FAR) for h in paths(game, push.units)), default=FAR)
        return reach >= here

    def _overrun_fire(self, game: GameState, actions: list[Action]) -> Action:
        """9.2 A: the guns in the overrun hex fire at the AFV's front whenever they may hurt it (the
        AFV attacks every defender next, 9.2 C, and the shot is open whatever the gun's facing)."""
        afv = game.unit(game.overrun["under_way"]["afv"])
        for a in actions:
            if a.verb == ANTITANK:
                shot = frontal_shot(game, game.unit(a.units[0]), afv)
                if at_chance(shot.firepower, shot.armor, shot.dice[0].count, shot.higher) > 0:
                    return a
        return done_or_first(actions)

    def _overrun(self, game: GameState, actions: list[Action], enemies: list[tuple[Hex, list[Unit]]]) -> Action | None:
        """9.0: an overrun of a hex whose guns would hardly stop the AFV (9.2 A: the NORMAL ATRs and
        ATGs there fire at its front first; an MG does not), with the infantry riding along if
        there is any (9.3)."""
        at, risk = dict(enemies), self.knobs.overrun_risk
        runs = [
            a
            for a in actions
            if a.verb == "overrun" and _overrunnable(game, game.unit(a.units[0]), at.get(hex_at(game, a.arg), []), risk)
        ]
        if not runs:
            return None
        return max(runs, key=lambda a: (sum(worth(u) for u in at[hex_at(game, a.arg)]), len(a.units)))

    # -- fire (10.0-16.0) -------------------------------------------------------------------------

    def _fire(self, game: GameState, side: str, actions: list[Action], at_least: float) -> Action:
        scored: list[tuple[float, Action]] = []
        enemies = dict(self._enemies(game, side))
        aims: dict[str, list[Action]] = {}
        for a in actions:
            if a.verb == AIM and not self._keeps_fire(game, game.unit(a.units[0])):
                aims.setdefault(a.arg, []).append(a)
        for label, aiming in aims.items():
            value = self._attack_value(game, hex_at(game, label), [game.unit(a.units[0]) for a in aiming])
            scored.append((value, min(aiming, key=lambda a: game.unit(a.units[0]).moved)))
        for a in actions:
            other_fire: float | None = None
            if a.verb != "mortar" and a.units and self._keeps_fire(game, game.unit(a.units[0])):
                continue
            if a.verb == ANTITANK:
                chance = self._at_value(game, a)
                other_fire = chance if chance >= AT_AT_LEAST else None
            elif a.verb == "mortar":
                target = hex_at(game, a.arg.split()[0])
                other_fire = 0.3 * sum(worth(u) for u in enemies.get(target, [])) * int(a.arg.split()[1])
            elif a.verb in ("grenade", "flame"):
                target = hex_at(game, a.arg)
                other_fire = (0.35 if a.verb == "grenade" else 0.6) * sum(
                    worth(u) for u in enemies.get(target, []) if not u.is_afv
                )
            if other_fire is not None:
                scored.append((other_fire, a))
        scored.sort(key=lambda va: -va[0])
        worthy = [a for v, a in scored[:ALTERNATIVES] if v >= at_least]
        rest = done_or_first(actions)
        self.alternatives = [*worthy[1:], rest] if worthy else [a for _, a in scored[:1]]
        return worthy[0] if worthy else rest

    def _keeps_fire(self, game: GameState, unit: Unit) -> bool:
        """R360, 8.21: a unit that fires in the Support Fire Phase may not move in the Movement
        Phase, so one that should move on (more than SUPPORT_FROM hexes from its goals, and free to
        move: not SUPPRESSED, 8.15) keeps its fire; a mortar's work is fire from afar (14.0)."""
        if game.phase != SUPPORT_FIRE or unit.hex is None or is_mortar(unit) or unit.morale == "suppressed":
            return False
        return self.knobs.support_from < self._know().goals(game).get(unit.hex, FAR) < FAR

    def _attack_value(self, game: GameState, target: Hex, aimers: list[Unit]) -> float:
        """The worth of an AP attack's expected results (fire_odds: exact, PCs included)."""
        sources = sorted(
            {u.hex for u in aimers if u.hex is not None and not u.moved} or {u.hex for u in aimers if u.hex is not None}
        )
        try:
            odds = fire_odds(game, list(sources), target)
        except ValueError:
            return 0.0
        ap = odds["ap"]
        if ap is None:
            return 0.0
        total = 0.0
        for t in ap["targets"]:
            unit = game.unit(t["unit"])
            total += worth(unit) * sum(RESULT_WORTH[r] * p for r, p in t["p"].items() if r in RESULT_WORTH)
        return total

    def _at_value(self, game: GameState, action: Action) -> float:
        unit = game.unit(action.units[0])
        if unit.hex is None:
            return 0.0
        try:
            odds = fire_odds(game, [unit.hex], hex_at(game, action.arg))
        except ValueError:
            return 0.0
        return 4.0 * max((s["p_destroyed"] for s in odds["at"] if s["firers"] == [unit.id]), default=0.0)

    def _declaring(self, game: GameState, actions: list[Action]) -> Action:
        """10.0 a: the attack being declared: every firer that adds factors without adding a die
        for having moved (11.13, 11.32), MGs intensive (11.15), then the dice."""
        attack = game.attack or {}
        firers = [game.unit(i) for i in attack.get("units", [])]
        moved = any(u.moved for u in firers)
        for a in actions:
            joining = game.unit(a.units[0]) if a.verb == JOIN else None
            if joining is not None and (moved or not joining.moved) and not self._keeps_fire(game, joining):
                return a
        return first_of(actions, INTENSIVE, SHOOT, DONE, PASS)

    def _answer(self, game: GameState, side: str, actions: list[Action]) -> Action:
        """13.0: fire at the mover on good odds; 9.2 A: AT fire at an overrunning AFV."""
        if not any(a.verb != PASS for a in actions):
            return actions[0]
        return (
            self._fire(game, side, actions, self.knobs.opportunity_at_least)
            if game.interrupt
            else self._fire(game, side, actions, 0.0)
        )

    # -- the movement phase's end, assaults, states (17.0, 20.0, 6.0 H) ----------------------------

    def _closing(self, game: GameState, side: str, actions: list[Action]) -> Action:
        for a in actions:
            if a.verb == "replace":  # 20.1: a CW short of crew takes a man
                return a
        marks = [a for a in actions if a.verb == "mark" and self._ratio(game, side, a) > 0]
        self.alternatives = [*marks, done_or_first(actions)]
        marks = [a for a in marks if self._favours(game, side, a)]
        if marks:
            return max(marks, key=lambda a: self._ratio(game, side, a))
        return done_or_first(actions)

    def _assault(self, game: GameState, side: str, actions: list[Action]) -> Action:
        fights = [a for a in actions if a.verb in ("assault", LEAD) and a.arg and self._ratio(game, side, a) > 0]
        self.alternatives = [*fights, done_or_first(actions)]
        fights = [a for a in fights if self._favours(game, side, a)]
        if fights:  # 17.12: the leader's PC for the whole stack where one may lead
            return max(fights, key=lambda a: (self._ratio(game, side, a), a.verb == LEAD, len(a.units)))
        return done_or_first(actions)

    def _ratio(self, game: GameState, side: str, action: Action) -> float:
        ours = game.unit(action.units[0]).hex
        target = hex_at(game, action.arg)
        attackers = [u for u in game.at(ours) if u.side == side and u.kind != "commander"] if ours else []
        defenders = [u for u in game.at(target) if u.side != side]
        if not defenders:
            return 0.0
        if all(u.morale != "normal" for u in defenders):
            return 10.0  # 3.22: PINNED and SUPPRESSED units may not fire: they cannot answer
        return sum(worth(u) for u in attackers) / sum(worth(u) for u in defenders)

    def _favours(self, game: GameState, side: str, action: Action) -> bool:
        need = 1.0 if self._know().to_objective.get(hex_at(game, action.arg), FAR) == 0 else self.knobs.assault_ratio
        return self._ratio(game, side, action) >= need

    def _free_state(self, game: GameState, side: str, actions: list[Action]) -> Action:
        """6.0 H: DOWN where the enemy sees it or where it holds an objective, else UP to move on."""
        know = self._know()
        exposure = know.exposure(h for h, _ in self._enemies(game, side))
        for a in actions:
            if a.verb != STATE:
                continue
            unit = game.unit(a.units[0])
            if unit.hex is None:
                continue
            down = self._holds(game, unit) or know.seen_at(exposure, unit.hex) >= 2
            if a.arg == ("down" if down else "up"):
                return a
        return done_or_first(actions)

    # -- helpers ----------------------------------------------------------------------------------

    def _know(self) -> Knowledge:
        assert self.know is not None
        return self.know

    def _enemies(self, game: GameState, side: str) -> list[tuple[Hex, list[Unit]]]:
        """The enemy stacks the side sees, by hex."""
        return [
            (h, found)
            for h, units in game.occupied().items()
            if (found := [u for u in units if u.side != side and not u.hidden])
        ]


def _overrunnable(game: GameState, afv: Unit, units: list[Unit], risk: float) -> bool:
    """9.0: enemy units with no AFV among them (9.13) whose NORMAL ATRs and ATGs would destroy the
    AFV, firing at its front before it enters (9.2 A), with a chance of `risk` at most."""
    if not units or any(u.is_afv for u in units):
        return False
    spared = 1.0
    for gun in units:
        if (gun.type == "ATR" or is_atg(gun)) and gun.morale == "normal" and afv.hex is not None:
            shot = frontal_shot(game, gun, afv)
            hit = at_chance(shot.firepower, shot.armor, shot.dice[0].count, shot.higher)
            spared *= 1.0 - float(fire_pc_chance(game, gun) * hit)
    return 1.0 - spared <= risk


def _route_action(route: Route, stack: tuple[str, ...], legal: list[Action]) -> Action | None:
    """The route as a move; one hex is movement's own step, where an AFV turns first (8.74, R192)."""
    action = route.action(stack)
    if len(route.hexes) == 1 and action not in legal:
        faces = [a for a in legal if a.verb == FACE and a.units[0] in stack and a.arg == route.hexes[0]]
        return faces[0] if faces else None
    return action
