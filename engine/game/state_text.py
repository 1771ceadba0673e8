"""The state written out: a side's view of it (what a player, the log and the editor read) and the
digest the log records at every phase's end so that a replay can check it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.hexgrid import DIRECTIONS, Hex

from .units import ON_MAP, SharedUnit, Unit, while_shared

if TYPE_CHECKING:
    from .state import GameState


def state_view(game: GameState, side: str | None = None, *, with_units: bool = True) -> dict[str, Any]:
    """The state as `side` may see it (None: everything, for a replay or a referee): the other
    side's hidden units and mines are left out."""
    units = (
        [
            unit_json(game, u)
            for u in game.units.values()
            if side is None or u.side == side or not (u.hidden or u.where != ON_MAP)
        ]
        if with_units
        else []
    )
    secrets = {
        s: {
            "mines": _written_mines(game, v.mines),
            "hidden_hexes": _labels(game, v.hidden_hexes),
            **({"mg_modes": dict(sorted(v.modes.items()))} if v.modes else {}),  # 21.0: only when chosen
        }
        for s, v in game.secrets.items()
        if side is None or s == side
    }
    ammo = {} if not game.ammo else {"ammo": _ammo_json(game, side)}  # the basic game's view unchanged
    return {
        **ammo,
        "turn": game.turn,
        "phase": game.phase,
        "phasing": game.phasing or None,
        "to_act": game.to_act or None,
        "units": units,
        "improved_positions": _written_positions(game, game.improved_positions),
        "wrecks": _labels(game, game.wrecks),
        "grenades_used": dict(sorted(game.grenades_used.items())),
        "infiltration": dict(game.infiltration) or None,  # 24.32: announced; the units placed in sight
        "revealed_mines": _written_mines(game, game.revealed_mines),
        "assault_markers": _written_markers(game, game.assault_markers),
        "assault": _public_assault(game.assault),
        "secrets": secrets,
        "result": game.result,
    }


def _view_text(game: GameState) -> str:
    """`repr(state_view(game, None, with_units=False))`, the digest's view at every phase's end,
    written in the view's order with no dict made and walked by repr (two thirds of a digest), the
    parts by hex as kept text (tests/test_engine_patched.py checks it is that repr)."""

    def secret(side: str, v: Any) -> str:
        modes = f", 'mg_modes': {dict(sorted(v.modes.items()))!r}" if v.modes else ""  # 21.0: only when chosen
        mines = _kept_text(game, ("mines", side), v.mines, _written_mines)
        hidden = _kept_text(game, ("hidden", side), v.hidden_hexes, _labels)
        return f"{side!r}: {{'mines': {mines}, 'hidden_hexes': {hidden}{modes}}}"

    secrets = ", ".join(secret(s, v) for s, v in game.secrets.items())
    ammo = f"'ammo': {_ammo_json(game, None)!r}, " if game.ammo else ""
    return (
        f"{{{ammo}'turn': {game.turn!r}, 'phase': {game.phase!r}, 'phasing': {game.phasing or None!r}, "
        f"'to_act': {game.to_act or None!r}, 'units': [], "
        f"'improved_positions': {_kept_text(game, 'improved_positions', game.improved_positions, _written_positions)}, "
        f"'wrecks': {_kept_text(game, 'wrecks', game.wrecks, _labels)}, "
        f"'grenades_used': {dict(sorted(game.grenades_used.items()))!r}, "
        f"'infiltration': {dict(game.infiltration) or None!r}, "
        f"'revealed_mines': {_kept_text(game, 'revealed_mines', game.revealed_mines, _written_mines)}, "
        f"'assault_markers': {_kept_text(game, 'assault_markers', game.assault_markers, _written_markers)}, "
        f"'assault': {_public_assault(game.assault)!r}, 'secrets': {{{secrets}}}, 'result': {game.result!r}}}"
    )


def _written_mines(game: GameState, mines: dict[Hex, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {game.label_of(h): dict(m) for h, m in sorted(mines.items())}


def _labels(game: GameState, hexes: set[Hex]) -> list[str]:
    return sorted(game.label_of(h) for h in hexes)


def _written_positions(game: GameState, positions: dict[Hex, int]) -> dict[str, int]:
    return {game.label_of(h): p for h, p in sorted(positions.items())}


def _written_markers(game: GameState, markers: dict[Hex, tuple[str, Hex]]) -> list[dict[str, str]]:
    return [{"hex": game.label_of(h), "side": s, "toward": game.label_of(t)} for h, (s, t) in sorted(markers.items())]


def _kept_text(game: GameState, name: Any, value: Any, write: Callable[[GameState, Any], Any]) -> str:
    """A part of the state by hex (the mines, hidden hexes, Wrecks, markers...) as the digest's
    text writes it, kept while it is the same: most do not change from one phase's end to the next
    (a side's mines never after the set-up, 19.11), and writing them (sorted, by label) was most of
    the digest's view. Compared by value with a copy of the container (a hex's factors are never
    changed in place: a new dict each time, as `GameState.copy` shares them), as copies share it."""
    kept: dict[Any, tuple[Any, str]] = game.caches.setdefault("digest_texts", {})
    found = kept.get(name)
    if found is None or found[0] != value:
        found = kept[name] = (value.copy(), repr(write(game, value)))
    return found[1]


def _ammo_json(game: GameState, side: str | None) -> dict[str, int]:
    """22.3: each unit's remaining ammo points, the owner's roster: the other side's not (R346)."""
    return {
        u.id: game.ammo[u.extra["ammo_pool"]]
        for u in game.units.values()
        if "ammo_pool" in u.extra and (side is None or u.side == side)
    }


def unit_json(game: GameState, u: Unit) -> dict[str, Any]:
    """A unit as a view lists it (what its side, or anyone for a unit in sight, may see)."""
    return {
        "id": u.id,
        "side": u.side,
        "kind": u.kind,
        "type": u.type,
        "hex": game.label(u.hex) if u.on_map else None,
        "where": u.where,
        "state": str(u.state),
        "morale": str(u.morale),
        "facing": game.label(u.hex + DIRECTIONS[u.facing]) if u.on_map and u.facing is not None and u.hex else None,
        "men": u.men,
        "hidden": u.hidden,
        "immobilized": u.immobilized,
    }


def state_digest(game: GameState) -> str:
    """A short hash of the whole state, recorded in the log so that a replay can check it."""
    # The text hashed is the repr of (units, flags, the view[, the path]) with every unit, compactly:
    # [id, where, (q, r), state, morale, facing, men] and [hidden, immobilized, fired, moved]. A
    # digest is taken at every phase's end: each unit's two parts are written once for all it
    # holds (kept for the game), and the last digest's parts are kept with a mark of
    # `changed_since`: only the units changed since are written again (a few a phase of 75).
    parts: dict[tuple[Any, ...], tuple[str, str]] = game.caches.setdefault("digest_parts", {})

    def written(u: Unit) -> tuple[str, str]:
        key = (u.id, u.where, u.hex, u.state, u.morale, u.facing, u.men, u.hidden, u.immobilized, u.fired, u.moved)
        found = parts.get(key)
        if found is None:  # the reprs of the two lists, written as f-strings (no list made)
            at = u.hex and (u.hex.q, u.hex.r)
            found = parts[key] = (
                f"[{u.id!r}, {u.where!r}, {at!r}, {str(u.state)!r}, {str(u.morale)!r}, {u.facing!r}, {u.men!r}]",
                f"[{u.hidden!r}, {u.immobilized!r}, {u.fired!r}, {u.moved!r}]",
            )
        return found

    last = game.caches.get("digest_units")  # (mark, units' parts, flags' parts): copies share it
    changed, mark = game.changed_since(last[0] if last is not None else None, "digest")
    if last is None or changed is None:
        units, flags = [], []
        for u in game.units.values():  # a shared unit keeps its parts (a copy's units, most of them)
            found = while_shared(u, "_digest", written) if type(u) is SharedUnit else written(u)
            units.append(found[0])
            flags.append(found[1])
    else:
        units, flags = list(last[1]), list(last[2])
        ranks = game.ranks()
        for i in changed:
            place = ranks[i]
            units[place], flags[place] = written(game.units[i])
    game.caches["digest_units"] = (mark, units, flags)
    pending = "" if game.path is None else f", {game.path!r}"  # R190: a path still to go (never at a phase end)
    text = f"([{', '.join(units)}], [{', '.join(flags)}], {_view_text(game)}{pending})"  # the same on every run
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _public_assault(assault: dict[str, Any]) -> dict[str, Any] | None:
    """The assault under way as both sides see it (17.0; hidden defenders are not named: 24.23)."""
    fight = assault.get("fight")
    if not fight:
        return None
    return {k: fight[k] for k in ("side", "hex", "round", "hits")}
