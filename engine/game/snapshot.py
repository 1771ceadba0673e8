"""A saved game's state as JSON data, so that it opens where it was saved without replaying from
the start (docs/engine.md, The log; R201).

The snapshot holds every field of the state and of each unit but what the scenario gives (the
maps, the counters, a unit's printed values), what the log holds (its entries, the dice rolled)
and the caches (fields starting with `_`, a unit's `extra` keys starting with `_`). Values are
plain JSON; a hex, a tuple, a set and a mapping with keys other than text are tagged
(`{"$hex": [q, r]}`, `{"$tuple": [...]}`, `{"$set": [...]}`, `{"$dict": [[key, value], ...]}`),
sets and mappings in the order the state holds them (a set of texts sorted).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import fields
from typing import Any

from engine.geometry.movement import Morale, State
from engine.hexgrid import Hex

from .state import GameState, Secrets
from .units import Extra, Unit

# what new_game rebuilds from the scenario and the header, the log and the dice
_NOT_STATE = {"scenario", "context", "counters", "seed", "options", "dice", "units", "log", "caches"}
_STATE_FIELDS = [f.name for f in fields(GameState) if f.name not in _NOT_STATE and not f.name.startswith("_")]
_WHEN_USED = {"ammo"}  # left out while empty: the basic game's snapshot is as before the advanced rules
_UNIT_FIELDS = [f.name for f in fields(Unit) if f.name not in ("id", "values")]


class SnapshotError(ValueError):
    """A snapshot that is not the state it claims to be."""


def snapshot(game: GameState) -> dict[str, Any]:
    """The state as JSON data: `state` (the game's fields), `units` (id -> fields), `dice` (the
    generator's state)."""
    secrets = {side: {"mines": s.mines, "hidden_hexes": s.hidden_hexes} for side, s in game.secrets.items()}
    state = {
        name: _encode(getattr(game, name))
        for name in _STATE_FIELDS
        if name != "secrets" and (name not in _WHEN_USED or getattr(game, name))
    }
    units = {
        u.id: {
            name: _encode(
                {k: v for k, v in u.extra.items() if not k.startswith("_")} if name == "extra" else getattr(u, name)
            )
            for name in _UNIT_FIELDS
        }
        for u in game.units.values()
    }
    return {"state": {**state, "secrets": _encode(secrets)}, "units": units, "dice": game.dice.state()}


def checksum(data: dict[str, Any]) -> str:
    """The hash a snapshot line carries of its data (a snapshot edited by hand is refused)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def restore(game: GameState, data: dict[str, Any], rolled: list[int]) -> None:
    """`game` (new_game's, of the log's scenario, seed and options) made the snapshot's state;
    `rolled`: every die the log records up to it. SnapshotError for data that is not a state."""
    try:
        state, units = data["state"], data["units"]
        if not set(_STATE_FIELDS) - _WHEN_USED <= set(state) <= set(_STATE_FIELDS) or set(units) != set(game.units):
            raise SnapshotError("its fields or units are not the game's")
        for name in _STATE_FIELDS:
            if name in state:
                setattr(game, name, _decode(state[name]))
        game.secrets = {side: Secrets(**s) for side, s in game.secrets.items()}  # type: ignore[arg-type]
        for unit_id, values in units.items():
            unit = game.units[unit_id]
            extra = {k: v for k, v in unit.extra.items() if k.startswith("_")}  # its caches, kept by their keys
            for name in _UNIT_FIELDS:
                setattr(unit, name, _decode(values[name]))
            unit.state, unit.morale, unit.extra = State(unit.state), Morale(unit.morale), Extra({**unit.extra, **extra})
        game.dice.restore(rolled, data["dice"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SnapshotError(f"it is not a game's state ({exc})") from None
    game.units_changed()


def _encode(value: Any) -> Any:
    if isinstance(value, Hex):
        return {"$hex": [value.q, value.r]}
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):  # texts sorted: their order differs from run to run (hashing)
        ordered = sorted(value) if all(isinstance(v, str) for v in value) else value
        return {"$set": [_encode(v) for v in ordered]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"$dict": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"a {type(value).__name__} in the state is not data")  # a new field's type: tag it here


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == "$hex":
            return Hex(*inner)
        if tag == "$tuple":
            return tuple(_decode(v) for v in inner)
        if tag == "$set":
            return {_decode(v) for v in inner}
        if tag == "$dict":
            return {_decode(k): _decode(v) for k, v in inner}
    return {k: _decode(v) for k, v in value.items()}
