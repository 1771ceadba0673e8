"""The heuristic's doctrine under the advanced rules (21.0-23.0): machine gun modes, ammo rationing
and observation, decided from the side's known state (heuristic.py dispatches to it).

- Modes at the end of the Morale Phase (21.41): Spray where several enemy hexes lie in the MG's
  spray fire area and spraying them all is worth more than its best Direct Fire; a Fire Lane along
  the line the enemy must cross to reach its goals (the enemy's victory conditions' hexes,
  knowledge.py), by an MG that stays where it is (it holds a goal, or the enemy moves this Player
  Turn), where enemies stand in the lane now or are expected to move through it, and no friendly
  unit stands in it or goes there (21.23: a lane attacks friends too); Direct Fire otherwise.
- Fire Lane and Spray attacks scored by their exact odds (`mg_shot`, the engine's own numbers,
  the PC included), each friendly unit in a lane a cost as large as an enemy's worth; the change to
  Spray (21.42) where the MG's quarter-firepower spray is worth more than what it may do now.
- Ammo (22.0): a unit with a pool fires only where the attack is worth what the points will be
  worth later: the fewer points left for the fire chances left in the game, the better the odds it
  asks; its last points only on a good shot. A unit's points are its own side's knowledge (R346).
- Observation (23.0): every AP and AT attack is scored by `fire_odds`, which weighs the chance to
  observe (23.32: unobserved AP fire halved; 23.31: AT fire only at an observed target), so an
  observed target (adjacent, 23.0) is preferred to a like one that may not be observed; FL and SP
  attacks need no observation (23.35).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.game.actions import DONE, Action
from engine.game.ammo import ammo_left, ap_cost, cost
from engine.game.fire import AIM, ANTITANK, INTENSIVE, JOIN
from engine.game.fire_odds import as_firing_side, fire_odds, fire_pc_chance
from engine.game.mg_fire import (
    LANE,
    MG_VERBS,
    SPRAY,
    SWITCH,
    lane_targets,
    mg_shot,
    next_attack_cost,
    pc_passed,
    spray_targets,
)
from engine.game.mg_modes import DF, FL, MODE, SP, lane, mode_of, reach
from engine.game.shot import visible_enemies
from engine.game.state import GameState, other
from engine.game.units import Unit
from engine.hexgrid import Hex
from engine.odds import ap_chances

from .knowledge import FAR, Knowledge, distances, objective_hexes

MG_AT_LEAST = 0.15  # the least an FL or SP attack must be worth, in rifles (heuristic.FIRE_AT_LEAST's scale)
SWITCH_AT_LEAST = 0.3  # 21.42: the change to Spray gives the MG's fire for the Player Turn a quarter of its factors
MOVER_WORTH = 0.1  # a Fire Lane's worth for each hex of it on the enemy's way to its goals ...
MOVERS_AT_MOST = 0.4  # ... up to this much: movers are expected, not seen
SLACK = 1  # a hex is on the enemy's way if a path through it is at most this many hexes longer
RATION = 0.5  # the worth a shot asks beyond the basic doctrine's, when its pool holds nothing to spare
LAST_POINTS_AT_LEAST = 0.5  # the least a shot spending a pool's last points must be worth (22.1)
FIRE_CHANCES_A_TURN = 2  # a unit's fire chances a Game Turn: its own Player Turn and the enemy's

Worth = Callable[[Unit], float]
AttackValue = Callable[[GameState, Hex, list[Unit]], float]
AtValue = Callable[[GameState, Action], float]


class AdvancedDoctrine:
    """The choices the advanced rules add, and the basic doctrine's fire rationed (heuristic.py)."""

    def __init__(
        self,
        know: Knowledge,
        worth: Worth,
        result_worth: Mapping[str, float],
        attack_value: AttackValue,
        at_value: AtValue,
    ) -> None:
        self.know = know
        self.worth, self.result_worth = worth, result_worth
        self.attack_value, self.at_value = attack_value, at_value
        occupy, clear = objective_hexes(know.base, other(know.side))
        self.enemy_goals = distances(know.board, occupy | clear)  # where the enemy goes (24.9)
        self._decided: tuple[tuple[Any, ...], set[str]] = ((), set())

    # -- the choices the advanced rules add ----------------------------------------------------------

    def choose(self, game: GameState, side: str, actions: list[Action]) -> Action | None:
        """A mode (21.41), a Fire Lane or Spray attack or the change to Spray (21.2, 21.3, 21.42), or
        None: the basic doctrine decides."""
        verbs = {a.verb for a in actions}
        if MODE in verbs:
            return self._modes(game, side, actions)
        if verbs & MG_VERBS:
            return self._mg_fire(game, side, actions)
        return None

    def _modes(self, game: GameState, side: str, actions: list[Action]) -> Action | None:
        """21.41: each MG's mode once a Morale Phase; None once every MG has its mode."""
        phase = (game.turn, game.player_turns, side)
        if self._decided[0] != phase:
            self._decided = (phase, set())
        decided = self._decided[1]
        options: dict[str, list[Action]] = {}
        for a in actions:
            if a.verb == MODE and a.units[0] not in decided:
                options.setdefault(a.units[0], []).append(a)
        for unit_id, offered in options.items():
            decided.add(unit_id)
            wanted = self.mode_for(game, side, game.unit(unit_id))
            chosen = next((a for a in offered if a.arg == wanted), None)
            if chosen is not None:
                return chosen
        return None

    def mode_for(self, game: GameState, side: str, mg: Unit) -> str:
        """The mode the doctrine wants for `mg` (`mode`'s argument: df, sp or `fl HEX`)."""
        fire = as_firing_side(game, side)
        mg = fire.unit(mg.id)
        assert mg.hex is not None  # 21.41: an MG on the map
        targets = [h for h in reach(fire, mg) if visible_enemies(fire, side, h)]
        direct = max((self._direct_value(fire, mg, h) for h in targets), default=0.0)
        spray = self._spray_value(fire, mg, targets) if len(targets) >= 2 else 0.0
        # R309: a lane is lost when its MG moves, and FL fires in no Moving Fire Phase: an MG that
        # goes on (the side moves this Player Turn and it holds no goal) keeps DF or SP
        stays = self.know.goals(game).get(mg.hex, FAR) == 0 or game.phasing != side
        best_lane, lane_value = self._best_lane(fire, side, mg) if stays else (None, 0.0)
        if spray >= max(direct, lane_value, MG_AT_LEAST):
            return SP
        if best_lane is not None and lane_value > direct and lane_value >= MG_AT_LEAST:
            return f"{FL} {fire.label_of(best_lane)}"
        return DF

    def _direct_value(self, game: GameState, mg: Unit, h: Hex) -> float:
        """The MG's own share of its hex's AP attack at h (fire_odds: PCs and observation included):
        the attack with it less the attack without it (an LMG adds to its squad's fire, 11.13)."""
        assert mg.hex is not None
        others = [u.id for u in game.at(mg.hex) if u.side == mg.side and u.id != mg.id]
        try:
            with_mg = self._ap_value(game, mg.side, fire_odds(game, [mg.hex], h, [*others, mg.id]))
            without = self._ap_value(game, mg.side, fire_odds(game, [mg.hex], h, others)) if others else 0.0
        except ValueError:  # both sides in the MG's hex (17.0): no fire from it
            return 0.0
        return with_mg - without

    def _ap_value(self, game: GameState, side: str, odds: dict[str, Any]) -> float:
        ap = odds["ap"]
        return 0.0 if ap is None else self._targets_value(game, side, ap["targets"])

    def _targets_value(self, game: GameState, side: str, targets: list[dict[str, Any]]) -> float:
        """What an attack's results are worth to `side`: each enemy unit's worth by its result
        chances, a friendly unit's the same taken off (21.23: a lane attacks friends too)."""
        total = 0.0
        for t in targets:
            unit = game.unit(t["unit"])
            value = self.worth(unit) * sum(self.result_worth.get(r, 0.0) * float(p) for r, p in t["p"].items())
            total += -value if unit.side == side else value
        return total

    def _mg_value(self, game: GameState, side: str, mg: Unit, verb: str, hexes: list[Hex]) -> float:
        """An FL (`verb` LANE) or SP attack's worth on the units of `hexes` (21.25, 21.35: mg_shot),
        with the PC it takes (none once passed this phase: 21.24, 21.34)."""
        pc = 1.0 if pc_passed(game, mg) else float(fire_pc_chance(game, mg))
        total = 0.0
        for h in hexes:
            if not game.at(h):
                continue
            shot = mg_shot(game, mg, verb, h)
            targets = [
                {"unit": u.id, "p": ap_chances(shot.firepower, d.count)}
                for u, d in zip(shot.targets, shot.dice, strict=True)
            ]
            total += self._targets_value(game, side, targets)
        return pc * total

    def _spray_value(self, game: GameState, mg: Unit, targets: list[Hex]) -> float:
        return self._mg_value(game, mg.side, mg, SPRAY, targets)

    def _best_lane(self, game: GameState, side: str, mg: Unit) -> tuple[Hex | None, float]:
        """The Fire Lane target hex worth most for an MG that stays, and its worth: the attack on
        the units in the lane now, and for a crewed MG (an LMG goes with its squad) MOVER_WORTH for
        each hex of it on the enemy's way to its goals. No lane with a friendly unit or one of the
        side's goals in it (21.23: the lane attacks them too)."""
        goals = self.know.goals(game)
        on_way = self._on_enemy_way(game, side) if mg.kind == "cw" else set()
        best: tuple[Hex | None, float] = (None, 0.0)
        for target in reach(game, mg):
            hexes = lane(game, mg, target)
            if any(goals.get(h, FAR) == 0 or any(u.side == side for u in game.at(h)) for h in hexes):
                continue
            movers = min(MOVERS_AT_MOST, MOVER_WORTH * sum(1 for h in hexes if h in on_way))
            seen = any(visible_enemies(game, side, h) for h in hexes)
            now = self._mg_value(game, side, mg, LANE, hexes) if seen else 0.0
            if movers + now > best[1]:
                best = (target, movers + now)
        return best

    def _on_enemy_way(self, game: GameState, side: str) -> set[Hex]:
        """The hexes on a shortest way, within SLACK, from the enemy units the side sees (or where
        the enemy starts, 24.1) to the enemy's goals, nearer them than the enemy stands."""
        seen = frozenset(h for h, units in game.occupied().items() if any(u.side != side for u in units))
        start = seen or self.know.enemy_origin
        if not start:
            return set()
        from_enemy = distances(self.know.board, start)
        closest = min(self.enemy_goals.get(h, FAR) for h in start)
        return {
            h
            for h, d in from_enemy.items()
            if d and self.enemy_goals.get(h, FAR) < closest and d + self.enemy_goals.get(h, FAR) <= closest + SLACK
        }

    def _mg_fire(self, game: GameState, side: str, actions: list[Action]) -> Action | None:
        """21.2, 21.3: the Fire Lane or Spray attack worth most, if worth the MG's fire (and its
        ammo: `_asks`); 21.42: the change to Spray where it pays; else None (the basic doctrine)."""
        scored: list[tuple[float, Action]] = []
        for a in actions:
            if a.verb not in (LANE, SPRAY):
                continue
            mg = game.unit(a.units[0])
            hexes = lane_targets(game, mg) if a.verb == LANE else [game.hex(a.arg)]
            value = self._mg_value(game, side, mg, a.verb, hexes)
            if value >= max(MG_AT_LEAST, self._asks(game, mg, next_attack_cost(game, mg, a.verb))):
                scored.append((value, a))
        if scored:
            return max(scored, key=lambda va: va[0])[1]
        for a in actions:
            if a.verb == SWITCH and self._switch_pays(game, side, game.unit(a.units[0]), actions):
                return a
        return None

    def _switch_pays(self, game: GameState, side: str, mg: Unit, actions: list[Action]) -> bool:
        """21.42: the change to Spray (a PC, then a quarter of the AP firepower) where spraying every
        enemy hex of its area is worth more than the MG's best attack in its mode now."""
        now = 0.0
        if mode_of(game, mg)[0] == FL and any(a.verb == LANE and a.units == (mg.id,) for a in actions):
            now = self._mg_value(game, side, mg, LANE, lane_targets(game, mg))
        elif mode_of(game, mg)[0] == DF and mg.hex is not None:
            aims = [game.hex(a.arg) for a in actions if a.verb == AIM and a.units == (mg.id,)]
            now = max((self._direct_value(game, mg, h) for h in aims), default=0.0)
        twin = game.copy()
        switched = twin.changing(twin.unit(mg.id))
        switched.extra["sp_halved"] = twin.player_turns  # 21.42: 'one-quarter its AP firepower'
        spray = float(fire_pc_chance(game, mg)) * self._spray_value(twin, switched, spray_targets(twin, switched))
        return spray >= max(now + MG_AT_LEAST, SWITCH_AT_LEAST, self._asks(game, mg, cost("mg_spray_one_hex")))

    # -- ammo (22.0) ----------------------------------------------------------------------------------

    def _asks(self, game: GameState, unit: Unit, points: int) -> float:
        """The least worth of a shot spending `points` of the unit's pool (22.1): nothing more than
        the basic doctrine asks while the pool holds a point for every fire chance left in the game
        (FIRE_CHANCES_A_TURN a Game Turn), up to RATION more as it holds fewer; its last points
        LAST_POINTS_AT_LEAST. Unlimited ammo (no number, 24.1) asks nothing."""
        left = ammo_left(game, unit)
        if left is None or points == 0:
            return 0.0
        if left <= points:
            return LAST_POINTS_AT_LEAST
        chances = FIRE_CHANCES_A_TURN * (int(game.scenario.data["game_length"]) - game.turn + 1) - 1
        scarcity = max(0.0, 1.0 - (left - points) / max(chances, 1))
        return RATION * scarcity

    def rationed(self, game: GameState, actions: list[Action]) -> list[Action]:
        """The actions without the fire the units' ammo cannot spare (22.1): an AP attack opened or
        joined, an MG's intensive fire (11.15: 3 points, 22.2) and AT fire, each kept only where it
        is worth what its points ask (`_asks`). `done`, `shoot` and the rest are kept."""
        asks = {a: self._asks(game, game.unit(a.units[0]), self._points(game, a)) for a in actions if _spends(a)}
        if not any(asks.values()):
            return actions
        values: dict[Hex, float] = {}

        def attack_at(target: Hex, firers: list[Unit]) -> float:
            if target not in values:
                values[target] = self.attack_value(game, target, firers)
            return values[target]

        aimers: dict[str, list[Unit]] = {}
        for a in actions:
            if a.verb == AIM:
                aimers.setdefault(a.arg, []).append(game.unit(a.units[0]))
        declared = game.attack or {}
        kept = []
        for a in actions:
            need = asks.get(a, 0.0)
            if need:
                if a.verb == ANTITANK:
                    value = self.at_value(game, a)
                elif a.verb == AIM:
                    value = attack_at(game.hex(a.arg), aimers[a.arg])
                else:  # JOIN, INTENSIVE: the declared attack with every firer that may join
                    firers = [game.unit(i) for i in declared.get("units", ())]
                    firers += [game.unit(b.units[0]) for b in actions if b.verb == JOIN]
                    value = attack_at(game.hex(declared["target"]), firers)
                if value < need:
                    continue
            kept.append(a)
        return kept or [a for a in actions if a.verb == DONE] or actions

    @staticmethod
    def _points(game: GameState, action: Action) -> int:
        unit = game.unit(action.units[0])
        return ap_cost(unit, action.verb == INTENSIVE) if ammo_left(game, unit) is not None else 0


def _spends(action: Action) -> bool:
    """The fire the ammo rationing weighs (22.2): AP attacks opened or joined, intensive, AT."""
    return action.verb in (AIM, JOIN, INTENSIVE, ANTITANK)
