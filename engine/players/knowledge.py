"""What an AI player works out once per game from the scenario (public information: both players
read the same scenario file), and, at a decision, the state its side knows (`known_state`).

- the objective hexes the victory conditions name (24.9; a side goes for them, or holds them);
- each hex's distance in hexes from them, and from where the enemy starts (its deployment zones
  and entries, 24.1); where its hidden hexes may be (24.21);
- each hex's cover: the AP dice an infantry target UP rolls there (11.31, the terrain effects
  chart), one more for every die it adds;
- which hexes the enemy units the side sees may see (the geometry layer's all-pairs lines of
  the bare terrain for UP firers, 10.3), kept per set of hexes they stand in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np

from engine.game.determinize import known_state
from engine.game.play import new_game
from engine.game.sightlines import bare_lines
from engine.game.state import GameState, other
from engine.game.views import View
from engine.geometry.movement import terrain_row
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex
from engine.model.scenario import Scenario
from engine.model.tables import terrain_effects
from engine.model.victory import buildings_on

FAR = 99  # a hex no objective's distance reaches (off the board, or a disconnected part)


class Knowledge:
    """One game's precomputed geometry for `side`, and its known state at each decision."""

    def __init__(self, scenario: Scenario, side: str) -> None:
        self.side = side
        self.base = new_game(scenario, 0, validated=True)  # a state to lay each view over (R181)
        board = self.base.board
        self.board = board
        self.occupy, self.clear = objective_hexes(self.base, side)
        self.objectives = self.occupy | self.clear
        points = scenario.data["victory"].get("points") or {}
        self.by_control = points.get("control") == "last_to_occupy"  # 24.9: a hex is the last to occupy's
        self.enemy_origin = origin_hexes(self.base, other(side))
        self.own_origin = origin_hexes(self.base, side)
        self.enemy_hiding = hiding_hexes(self.base, other(side))
        self.hunt = self.clear & self.enemy_hiding  # where an enemy to clear may hide (24.21, R361)
        self.to_objective = distances(board, self.objectives)
        self._goals: dict[frozenset[Hex], dict[Hex, int]] = {}
        self.to_enemy = distances(board, self.enemy_origin)
        effects = terrain_effects()
        self.cover = {h: effects.row(terrain_row(board.terrain(h), effects)).ap_dice for h in board.hexes}
        self.index, self.lines = bare_lines(self.base, FirerState.UP)
        self._seen: dict[frozenset[Hex], np.ndarray] = {}
        self._caches: tuple[Any, dict[str, Any]] = ((), {})
        self._known: tuple[View, GameState] | None = None

    def state(self, view: View) -> GameState:
        """The state the view's side knows (`known_state`), made once a decision; its caches kept
        for the phase, as the game's are (play.py: a phase starts with none)."""
        if self._known is not None and self._known[0] is view:
            return self._known[1]
        options = view.record["options"]
        if options != self.base.options:  # 22.0: the advanced rules' ammo pools are made with the game
            self.base = new_game(self.base.scenario, 0, options, validated=True)
        game = known_state(view, self.base)
        phase = (game.turn, game.phase, game.phasing, game.player_turns)
        if self._caches[0] != phase:
            self._caches = (phase, {})
        game.caches = self._caches[1]
        self._known = (view, game)  # the view itself: an id is reused once its view is gone
        return game

    def goals(self, game: GameState) -> dict[Hex, int]:
        """Each hex's distance from what the side goes for now: the hexes it would occupy (where
        control scores, 24.9, those it does not control yet), and the enemy units it sees in a zone
        it must clear; seeing none there, the zone's hexes where the enemy may have hidden units
        that no unit of the side stands in or next to yet (R361: 24.22 reveals them to a unit next
        to them, or one entering); else all of them, to hold them."""
        enemy = other(self.side)
        occupy = self.occupy
        if self.by_control:
            occupy = frozenset(h for h in occupy if game.control.get(h) != self.side)
        found: set[Hex] = set()
        near: set[Hex] = set()  # R361: where the side's units stand, and next to them
        for h, units in game.occupied().items():
            if h in self.clear and any(u.side == enemy and not u.hidden for u in units):
                found.add(h)
            if self.hunt and any(u.side == self.side for u in units):
                near.add(h)
                near.update(self.board.neighbours(h))
        if not found and self.hunt:  # 24.22: none seen; search where a hidden hex may yet be
            found = set(self.hunt - near)
        targets = frozenset(occupy | found) or self.objectives
        if targets not in self._goals:
            if len(self._goals) > 64:
                self._goals.clear()
            self._goals[targets] = self.to_objective if targets == self.objectives else distances(self.board, targets)
        return self._goals[targets]

    def exposure(self, watchers: Iterable[Hex]) -> np.ndarray:
        """For each hex in the kernel's order, how many of the `watchers` hexes see it (10.3, the
        bare terrain's lines for UP firers: sightlines.py's all-pairs matrix, one per scenario)."""
        key = frozenset(watchers)
        if key not in self._seen:
            rows = [self.index[h] for h in key if h in self.index]
            seen = (~self.lines[rows]).sum(axis=0) if rows else np.zeros(self.lines.shape[1], dtype=np.int64)
            if len(self._seen) > 256:
                self._seen.clear()
            self._seen[key] = seen
        return self._seen[key]

    def seen_at(self, exposure: np.ndarray, h: Hex) -> int:
        i = self.index.get(h)
        return 0 if i is None else int(exposure[i])


def objective_hexes(game: GameState, side: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The hexes the scenario's victory conditions name (24.9), for `side`: those it goes to stand
    in (to occupy, hold or control them, or to deny the enemy a zone or a building it must hold
    alone: R11, R12, R19), and those it must clear of the enemy (a `no_units_in` it wins by, a
    zone the enemy must reach)."""
    victory = game.scenario.data["victory"]
    occupy: set[Hex] = set()
    clear: set[Hex] = set()
    points = victory.get("points")
    if points is not None:  # both sides: control is the last to occupy (24.9, R82)
        buildings = game.board.buildings()
        maps = dict(zip(game.scenario.maps, game.board.maps, strict=True))
        for award in points["awards"]:
            if "per_hex_controlled" in award:
                for b in award["per_hex_controlled"]["building"]:
                    occupy |= buildings.get(str(b), frozenset())
            else:
                scope = award["per_building_controlled"]
                excepted = {str(b) for b in scope.get("except") or []}
                for b, hexes in buildings_on(game.board, maps[str(scope["map"])]).items():
                    if b not in excepted:
                        occupy |= hexes
    for entry in victory.get("results") or []:
        _condition_hexes(game, side, entry["when"], occupy, clear)
    return frozenset(occupy), frozenset(clear - occupy)


def _condition_hexes(game: GameState, side: str, condition: dict[str, Any], occupy: set[Hex], clear: set[Hex]) -> None:
    ((kind, arg),) = condition.items()
    if kind in ("all_of", "any_of"):
        for part in arg:
            _condition_hexes(game, side, part, occupy, clear)
        return
    if kind == "sole_occupant":
        wanted = str(arg["building"])
        hexes: frozenset[Hex] = frozenset().union(
            *(
                h
                for b, h in game.board.buildings().items()
                if (wanted == "multi_hex" and len(h) >= 2) or wanted in ("any", b)
            )
        )
    else:
        hexes = game.zone_hexes(arg["zone"])
    named = arg["side"] == side
    if kind in ("no_units_in", "units_in") and not named:
        clear.update(hexes)  # the enemy's presence there decides: drive it out
    else:
        occupy.update(hexes)  # to stand in, or to deny by standing in it


def origin_hexes(game: GameState, side: str) -> frozenset[Hex]:
    """Where `side` starts: its deployment zones and its entries' zones (24.1)."""
    data = game.scenario.data["sides"][side]
    zones = [d["zone"] for d in data.get("deployment") or []]
    zones += [o["zone"] for e in data.get("entries") or [] for o in e.get("options") or []]
    return frozenset().union(*(game.zone_hexes(z) for z in zones))


def hiding_hexes(game: GameState, side: str) -> frozenset[Hex]:
    """Where `side`'s hidden hexes may be (24.21: only where it may deploy), if the scenario gives
    it any: public, as the scenario file is; which of them it chose is not."""
    data = game.scenario.data["sides"][side]
    if not data.get("hidden_hexes"):
        return frozenset()
    zones = [d["zone"] for d in data.get("deployment") or []]
    return frozenset().union(*(game.zone_hexes(z) for z in zones))


def distances(board: Any, sources: frozenset[Hex]) -> dict[Hex, int]:
    """Each hex's distance in hexes across the board from the nearest of `sources`."""
    found = dict.fromkeys(sources, 0)
    queue = deque(sources)
    while queue:
        h = queue.popleft()
        for n in board.neighbours(h):
            if n not in found:
                found[n] = found[h] + 1
                queue.append(n)
    return found
