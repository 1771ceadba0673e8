"""What one side may know, as plain data with nothing behind it (docs/engine.md, Writing a player).

A `View` is built from the state once, for one side: the state's public fields, that side's own
secrets (19.11 mines, 24.21 hidden hexes) and units, the enemy units it sees or saw lost, and its
log (`SideLog`: the game's log with what the other side keeps secret left out). It holds no
GameState, Dice or generator, and no enemy hidden unit or mine: a player cannot reach them.
`engine/game/determinize.py` turns a view back into a full state to search on.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .actions import DONE, MOVE
from .state import SETUP, GameState, Secrets, other
from .state_text import unit_json
from .units import ELIMINATED, ON_MAP, WAITING, Unit

# The state's fields both sides see (turn and phase, markers, the moving stack, the fire or assault
# under way...); the seed, the dice, the secrets and the log are not among them.
PUBLIC_FIELDS = (
    *("turn", "phase", "phasing", "to_act", "interrupt", "first_shot", "shot_fired", "player_turns"),
    *("improved_positions", "revealed_mines", "ips_used", "grenades_used", "grenade_hexes", "infiltration"),
    *("entry_choice", "held", "stage", "setup_done", "acted", "active", "wrecks", "phase_ending", "attack"),
    *("closing", "assault_markers", "assault", "overrun", "result", "options"),
)
LOSS_EVENTS = ("eliminated", "destroyed")


@dataclass(frozen=True)
class View:
    """One side's knowledge at a decision. `data` is `GameState.view(side)` with each unit's moved and
    fired marks (4.0, 10.11), the hex just entered during an interrupt (13.0) and the losses the side
    saw; `log` its SideLog's entries; `record` the same knowledge field by field, for `determinize`
    (made when first asked for: a player that does not search never needs it)."""

    side: str
    data: dict[str, Any]
    log: tuple[dict[str, Any], ...]
    known: dict[str, Any] = field(repr=False)  # `record` with its units as frozen fields (`_frozen`)

    @cached_property
    def record(self) -> dict[str, Any]:
        return {**self.known, "units": [_thawed(u) for u in self.known["units"]]}


@dataclass
class SideLog:
    """The log as `side` saw it, read on from the game's log as it grows (`update`).

    Left out: the other side's secret events (mines 19.11, hidden hexes 24.21), the events naming
    its hidden units (their set-up placements, their hits and losses: R93, R180), the dice of an
    entry something was left out of, the action of a decision about hidden units or secrets, and
    every digest (a hash of the whole state, secrets included). The other side's set-up is seen
    when it is done (R180): its placements of units it then hides are not seen at all.
    """

    side: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # the enemy units the side saw eliminated or destroyed
    _hidden: set[str] = field(default_factory=set)  # enemy units hidden now, as far as the log says
    _pending: list[dict[str, Any]] = field(default_factory=list)  # the enemy's set-up, until its `done`
    _read: int = 0
    # each unit's fields when last seen here (values and extra copied), their frozen copy and its
    # JSON: a unit unchanged since the last view is not copied again (its frozen fields are immutable)
    _units: dict[str, Seen] = field(default_factory=dict, repr=False)

    def update(self, log: Sequence[dict[str, Any]]) -> SideLog:
        for entry in log[self._read :]:
            self._take(entry)
        self._read = len(log)
        return self

    def _take(self, entry: dict[str, Any]) -> None:
        enemy = other(self.side)
        for event in entry.get("events", ()):  # 24.21: a hidden hex's units, hidden from the set-up's start
            if event["event"] == "hidden hex" and event.get("side") == enemy:
                self._hidden.update(event.get("units", ()))
        if entry.get("phase") == SETUP and entry.get("side") == enemy:
            self._pending.append(entry)
            if entry.get("action") == DONE:
                pending, self._pending = self._pending, []
                for held in pending:
                    self._add(held)
            return
        self._add(entry)

    def _add(self, entry: dict[str, Any]) -> None:
        events, left_out = [], False
        own = entry.get("side") == self.side
        for event in entry.get("events", ()):
            if event["event"] == "path ended" and not event["units"][0].startswith(self.side + "/"):
                continue  # R190: whether the enemy reached the hex it meant to is its intent, not seen
            if event["event"] == "revealed":
                self._hidden.difference_update(event.get("units", ()))
            seen = self._seen(event)
            if seen is None:
                left_out = True
                continue
            events.append(seen)
            if seen["event"] in LOSS_EVENTS and seen.get("unit", "").startswith(other(self.side) + "/"):
                self.lost.append(seen["unit"])
        action = entry.get("action")
        words = str(action).replace("+", " ").split()
        if action is not None and entry.get("side") != self.side and (left_out or self._hidden.intersection(words)):
            action, left_out = None, True  # a decision about hidden units or secrets
        seen_entry = {k: v for k, v in entry.items() if k not in ("events", "dice", "digest", "action")}
        if "action" in entry:
            seen_entry["action"] = action if own or action is None else _as_entered(str(action))
        if "dice" in entry and not left_out:
            seen_entry["dice"] = list(entry["dice"])
        self.entries.append({**seen_entry, "events": events})

    def _seen(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The event as the side sees it: None if secret or about an enemy hidden unit (R93), else
        without the hidden units it lists."""
        if event.get("secret") and event.get("side") != self.side:
            return None
        seen = {}
        for key, value in event.items():
            if isinstance(value, str) and value in self._hidden:
                return None
            seen[key] = _scrub(value, self._hidden)
        return seen


def _as_entered(action: str) -> str:
    """An enemy's move by path as the side sees it: its first hex; the rest it sees as entered (R190)."""
    verb, *rest = action.split()
    if verb != MOVE or len(rest) < 3:
        return action
    return " ".join((verb, rest[0], rest[1]))


def side_log(game: GameState, side: str) -> list[dict[str, Any]]:
    """The game's log as `side` saw it (`SideLog`); `game.log` is the referee's, whole."""
    return SideLog(side).update(game.log).entries


def player_view(game: GameState, side: str, log: SideLog | None = None) -> View:
    """`side`'s View of `game`, with its SideLog brought up to date (a new one if none is given:
    a player kept over a game passes the same one each time, so the log is read once)."""
    log = (log or SideLog(side)).update(game.log)
    data = game.view(side, with_units=False)
    for name in ("infiltration", "assault", "result"):  # copies to the end: nothing shared with the state
        data[name] = _scrub(data[name], set())
    known = _record(game, side, log)
    # the units GameState.view shows the side (its own, the enemy's on the map and not hidden), each
    # JSON copied from the last view's if the unit has not changed since (all of them are in `known`)
    data["units"] = [
        dict(log._units[u.id][2]) for u in game.units.values() if u.side == side or (u.where == ON_MAP and not u.hidden)
    ]
    data["interrupt"] = deepcopy(game.interrupt)  # 13.0: the hex the moving stack just entered
    data["lost"] = {side: [u.id for u in game.side_units(side) if u.where == ELIMINATED], other(side): list(log.lost)}
    return View(side, data, tuple(log.entries), known)


def _record(game: GameState, side: str, log: SideLog) -> dict[str, Any]:
    """The state's fields as `side` knows them (plain values: Hex, str, numbers, dicts, lists, Units)."""
    lost = set(log.lost)
    enemy = game.side_units(other(side))
    unseen = {u.id for u in enemy if not _seen_unit(u, lost)}
    hidden = {u.id for u in enemy if u.hidden or (u.where == ELIMINATED and u.id in unseen)}  # never named
    hidden_hexes = {u.hex for u in enemy if u.hidden and u.on_map}
    record = {name: _scrub(getattr(game, name), hidden) for name in PUBLIC_FIELDS}
    record["control"] = {h: s for h, s in game.control.items() if h not in hidden_hexes}  # R82: theirs
    record["units"] = tuple(_seen(game, u, log._units)[1] for u in game.units.values() if u.id not in unseen)
    own = game.secrets[side]
    record["secrets"] = Secrets({h: dict(m) for h, m in own.mines.items()}, set(own.hidden_hexes), dict(own.modes))
    pools = {u.extra["ammo_pool"] for u in game.side_units(side) if "ammo_pool" in u.extra}
    record["ammo"] = {k: v for k, v in game.ammo.items() if k in pools}  # 22.3: its own roster only (R346)
    return record


def _seen_unit(unit: Unit, lost: set[str]) -> bool:
    """24.21: an enemy unit is seen on the map unless hidden; off it, once it was seen lost (R93);
    a unit yet to enter is known by the scenario only (its id may be named: the set-up lists it)."""
    if unit.where == ON_MAP:
        return not unit.hidden
    return unit.id in lost if unit.where == ELIMINATED else unit.where != WAITING and not unit.hidden


# A unit's fields, its values and its extra without what the engine keeps of its work ("_" keys),
# as tuples of pairs (extra's as triples: a list is kept as a tuple, and True says it was one):
# shared by successive views, changed by none.
Pairs = tuple[tuple[str, Any], ...]
FrozenUnit = tuple[Pairs, Pairs, tuple[tuple[str, Any, bool], ...]]
Seen = tuple[dict[str, Any], FrozenUnit, dict[str, Any]]


def _seen(game: GameState, unit: Unit, last: dict[str, Seen]) -> Seen:
    """The unit's fields as they are, frozen, and its JSON with its moved and fired marks (4.0,
    10.11): those of the last view if it has not changed since (a view is built at every decision,
    and most units do not change between two)."""
    seen = last.get(unit.id)
    if seen is not None and seen[0] == unit.__dict__:
        return seen
    fields = {**unit.__dict__, "values": dict(unit.values), "extra": {k: _copy(v) for k, v in unit.extra.items()}}
    frozen = (
        tuple((k, v) for k, v in unit.__dict__.items() if k not in ("values", "extra")),
        tuple(unit.values.items()),
        tuple((k, tuple(v), True) if type(v) is list else (k, v, False) for k, v in unit.extra.items() if k[0] != "_"),
    )
    last[unit.id] = (fields, frozen, {**unit_json(game, unit), "moved": unit.moved, "fired": unit.fired})
    return last[unit.id]


def _copy(value: Any) -> Any:
    return list(value) if type(value) is list else value


def _thawed(frozen: FrozenUnit) -> Unit:
    """A Unit of frozen fields, for `determinize` to place: a value of its own."""
    fields, values, extra = frozen
    twin = Unit.__new__(Unit)
    twin.__dict__.update(fields)
    twin.values = dict(values)
    twin.extra = {k: list(v) if was_list else v for k, v, was_list in extra}
    return twin


def _scrub(value: Any, hidden: set[str]) -> Any:
    """A copy to the end of a public field or event without the enemy hidden units it names (an
    assault's defenders, 24.23: not placed on the map until it is resolved; an attack's targets)."""
    if isinstance(value, dict):
        return {k: _scrub(v, hidden) for k, v in value.items() if k not in hidden}
    if type(value) in (list, tuple, set, frozenset):  # not a Hex (a named tuple)
        kept = [_scrub(v, hidden) for v in value if not (isinstance(v, str) and v in hidden)]
        return kept if isinstance(value, list) else type(value)(kept)
    return value
