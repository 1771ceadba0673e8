"""The heuristic's set-up (24.1, 24.2, 18.1, 19.1) and infiltration (24.3): units on the deployment
hexes nearest the objectives in the best cover, facing the enemy, IPs under them, hidden hexes
over the units nearest the objectives, mines on the approaches; the infiltration hex nearest the
objectives in cover, not where a German hidden hex may be (heuristic.py's doctrine, docstring).
"""

from __future__ import annotations

from random import Random
from typing import TYPE_CHECKING

from engine.game.actions import FACE, STATE, Action
from engine.game.infiltration import modifiers
from engine.game.state import GameState, other
from engine.game.units import Unit
from engine.hexgrid import Hex, hex_distance

from .knowledge import FAR, Knowledge
from .picks import ALTERNATIVES, action_hex, done_or_first, hex_at


class SetupDoctrine:
    """The set-up's and the infiltration's choices, a part of HeuristicPlayer."""

    if TYPE_CHECKING:  # HeuristicPlayer's
        random: Random
        alternatives: list[Action]

        def _know(self) -> Knowledge: ...

        def _holds(self, game: GameState, unit: Unit) -> bool: ...

    def _setup(self, game: GameState, side: str, actions: list[Action]) -> Action:
        know = self._know()
        own = [u.hex for u in game.side_units(side) if u.on_map and u.hex is not None]
        by_verb: dict[str, list[Action]] = {}
        for a in actions:
            by_verb.setdefault(a.verb, []).append(a)
        if "place" in by_verb:  # the first unit listed, on its best hex
            first = by_verb["place"][0].units
            choices = [a for a in by_verb["place"] if a.units == first]
            return max(choices, key=lambda a: self._place_score(game, a, own))
        if FACE in by_verb:
            return self._face(game, side, by_verb[FACE])
        if "ip" in by_verb:  # 18.1: under the units nearest the objectives
            held = [a for a in by_verb["ip"] if hex_at(game, a.arg.split()[1]) in own]
            if held:
                nearest = know.to_objective
                return min(held, key=lambda a: (-int(a.arg.split()[0]), nearest.get(action_hex(game, a), FAR)))
        if "hide" in by_verb:  # 24.21: the hexes of the units nearest the objectives
            hides = [a for a in by_verb["hide"] if hex_at(game, a.arg) in own]
            if hides:
                return min(hides, key=lambda a: know.to_objective.get(hex_at(game, a.arg), FAR))
        if "mine" in by_verb:  # 19.11: on the approaches, a hex or two out from the objectives
            return min(by_verb["mine"], key=lambda a: self._mine_score(game, a, own))
        if STATE in by_verb:
            wanted = [a for a in by_verb[STATE] if a.arg == "down" and self._holds(game, game.unit(a.units[0]))]
            if wanted:
                return wanted[0]
        return done_or_first(actions)

    def _place_score(self, game: GameState, action: Action, own: list[Hex]) -> tuple[float, float]:
        know = self._know()
        label = action.arg.split()[0]
        h = hex_at(game, label)
        crowd = own.count(h)
        score = -2.0 * know.to_objective.get(h, FAR) + know.cover.get(h, 1) - 1.5 * crowd
        if action.arg.endswith("down"):
            score += 0.5  # 3.12: DOWN to start (11.31: one more die)
        return score, self.random.random()

    def _mine_score(self, game: GameState, action: Action, own: list[Hex]) -> tuple[float, float]:
        know = self._know()
        kind, label = action.arg.split()
        h = hex_at(game, label)
        d = know.to_objective.get(h, FAR)
        road = 0.0 if (kind == "at") == game.board.terrain(h).road else 1.0  # AT mines where AFVs drive
        return abs(d - 2) + 3 * (h in own) + road + 0.1 * know.cover.get(h, 1), self.random.random()

    def _face(self, game: GameState, side: str, faces: list[Action]) -> Action:
        """8.7: the front toward the nearest enemy seen, else toward where the enemy starts."""
        know = self._know()
        unit = game.unit(faces[0].units[0])
        enemies = [u.hex for u in game.side_units(other(side)) if u.on_map and not u.hidden and u.hex is not None]
        targets = enemies or sorted(know.enemy_origin)
        if unit.hex is None or not targets:
            return faces[0]
        nearest = min(targets, key=lambda t: hex_distance(unit.hex, t))  # type: ignore[arg-type]
        return min(faces, key=lambda a: hex_distance(hex_at(game, a.arg), nearest))

    def _infiltration(self, game: GameState, side: str, actions: list[Action]) -> Action:
        """24.31-24.32: the infiltration hex nearest the objectives, in cover (its result's terrain
        modifier), and not where a German hidden hex may be (24.21, 24.35: there it fails at once;
        the German's deployment zones are public, the hexes he hid are not); the German reveals no
        hidden hex he need not. Its alternatives (a search's): the hexes nearest the objectives
        with the two lowest die roll modifiers below the chosen's (24.33: the lower the roll the
        better: farther from the Germans, in better terrain), and not infiltrating at all (24.31)."""
        know = self._know()
        tries = [a for a in actions if a.verb == "infiltrate"]
        if tries:
            most = max(len(a.units) for a in tries)
            best = [a for a in tries if len(a.units) == most]
            chosen = min(
                best,
                key=lambda a: (
                    hex_at(game, a.arg) in know.enemy_hiding,  # 24.35: it would fail there at once
                    know.to_objective.get(hex_at(game, a.arg), FAR),
                    -know.cover.get(hex_at(game, a.arg), 1),
                ),
            )
            units = _infiltrators(game, chosen)
            by_modifier: dict[int, Action] = {}
            for a in sorted(best, key=lambda a: know.to_objective.get(hex_at(game, a.arg), FAR)):
                by_modifier.setdefault(sum(m for m, _ in modifiers(game, units, hex_at(game, a.arg))), a)
            own = sum(m for m, _ in modifiers(game, units, hex_at(game, chosen.arg)))
            better = [by_modifier[m] for m in sorted(by_modifier) if m < own][: ALTERNATIVES - 1]
            self.alternatives = [*better, done_or_first(actions)]
            return chosen
        places = [a for a in actions if a.verb == "place"]
        if places:
            return max(places, key=lambda a: self._place_score(game, a, []))
        return done_or_first(actions)


def _infiltrators(game: GameState, action: Action) -> list[Unit]:
    """The units an `infiltrate SIDE/SQUAD[+COMMANDER] HEX` designates (24.31)."""
    side, squad = action.units[0].split("/")
    members = [u for u in game.side_units(side) if u.squad == squad and u.kind in ("infantry", "ft")]
    return members + [game.unit(i) for i in action.units[1:]]
