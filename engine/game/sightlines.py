"""Lines of sight in play (10.3): the geometry layer's kernel with the game's AFVs and Wrecks.

10.31 b counts "Tree symbols, AFV units, or Wrecks" along a line, so a line's answer depends on
where the AFVs and Wrecks stand. The terrain never changes in play: each firer state's all-pairs
matrix of the bare terrain is worked out once per scenario (kept for every game of it, and on
disk for the next process: engine/geometry/table_cache.py); an
AFV or a Wreck can only add blocks (10.31 b), so the lines the terrain leaves open are checked
again, as one array operation, against the counts with the AFVs and Wrecks in.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from typing import Any

import numpy as np

from engine.geometry.lattice import Touch, touches
from engine.geometry.los_kernel import SightKernel
from engine.geometry.sight import FirerState, Sight, judge
from engine.geometry.table_cache import kept_matrix
from engine.hexgrid import Hex
from engine.model.scenario import Scenario

from .state import GameState

_SHARED: dict[int, tuple[weakref.ref[Scenario], dict[str, Any]]] = {}
FEW = 8  # lines worked one by one before the all-pairs matrix is worth its build (about 0.1-0.7 s)


def shared_caches(scenario: Scenario) -> dict[str, Any]:
    """What the game works out of a scenario's terrain, kept for every game of that scenario
    object (a batch plays thousands) while it lives: the game never edits the terrain."""
    kept = _SHARED.get(id(scenario))
    if kept is None or kept[0]() is not scenario:
        key = id(scenario)
        kept = _SHARED[key] = (weakref.ref(scenario, lambda _: _SHARED.pop(key, None)), {})
    return kept[1]


def _kernel(game: GameState) -> SightKernel:
    caches = game.board.caches
    if "sight_kernel" not in caches:
        caches["sight_kernel"] = SightKernel(game.board)
    kernel: SightKernel = caches["sight_kernel"]
    return kernel


def _static(game: GameState, firer: FirerState) -> np.ndarray:
    """The bare terrain's blocked matrix for firers in `firer` state ([i, j]: hexes in kernel order)."""
    matrices: dict[FirerState, np.ndarray] = game.board.caches.setdefault("sight_matrix", {})
    if firer not in matrices:
        matrices[firer] = kept_matrix(_kernel(game), firer)
    return matrices[firer]


def bare_lines(game: GameState, firer: FirerState) -> tuple[dict[Hex, int], np.ndarray]:
    """The bare terrain's lines (10.3, no AFV or Wreck): each hex's index, and the blocked matrix
    ([i, j]: from hex i to hex j), worked out once per scenario (an AI player's viewsheds)."""
    return _kernel(game).index, _static(game, firer)


def bare_index(game: GameState) -> dict[Hex, int] | None:
    """Each hex's index in the bare terrain's matrices (`bare_lines`) once the game has them, to
    sieve many lines at once: a line the terrain blocks stays blocked, as an AFV or a Wreck only
    adds blocks (10.31 b). None before: an editor's one shot does not build them (`open_lines`, FEW)."""
    return _kernel(game).index if "sight_matrix" in game.board.caches else None


def blockers(game: GameState) -> dict[Hex, int]:
    """AFVs and Wrecks by hex (10.31 b), kept until units move."""
    found: dict[Hex, int] = game.kept(("sight_blockers",), lambda: _blockers(game))
    return found


def blockers_key(game: GameState) -> tuple[tuple[Hex, int], ...]:
    """`blockers` as a key of what is kept by where the AFVs and Wrecks stand, until units move."""
    found: tuple[tuple[Hex, int], ...] = game.kept(
        ("sight_blockers_key",), lambda: tuple(sorted(blockers(game).items()))
    )
    return found


def _blockers(game: GameState) -> dict[Hex, int]:
    """Asked after every step of a move: walks the AFVs (their ids kept for the phase), not every hex."""
    afvs: tuple[str, ...] | None = game.caches.get("afv_ids")
    if afvs is None:
        afvs = game.caches["afv_ids"] = tuple(i for i, u in game.units.items() if u.is_afv)
    counts: dict[Hex, int] = {}
    for i in afvs:
        unit = game.units[i]
        if unit.on_map and unit.hex is not None:
            counts[unit.hex] = counts.get(unit.hex, 0) + 1
    for h in game.wrecks:
        counts[h] = counts.get(h, 0) + 1
    return counts


def open_lines(game: GameState, pairs: list[tuple[Hex, Hex]], firer: FirerState) -> list[bool]:
    """For each (firer hex, target hex): whether the LOS is unblocked now (10.3); kept for the
    phase by where the AFVs and Wrecks stand (a fire phase asks the same lines after every shot)."""
    if not pairs:
        return []
    if "sight_matrix" not in game.board.caches and len(pairs) <= FEW:  # an editor's one shot: no matrix yet
        return [not sight(game, a, b, firer).blocked for a, b in pairs]
    lines: dict[tuple[Hex, Hex], bool] = game.caches.setdefault("open_lines", {}).setdefault(
        (firer, blockers_key(game)), {}
    )
    missing = [p for p in pairs if p not in lines]
    if missing:
        lines.update(zip(missing, _open_now(game, missing, firer), strict=True))
    return [lines[p] for p in pairs]


def _open_now(game: GameState, pairs: list[tuple[Hex, Hex]], firer: FirerState) -> list[bool]:
    kernel = _kernel(game)
    index = kernel.index
    sources = np.fromiter((index[a] for a, _ in pairs), dtype=np.int64, count=len(pairs))
    targets = np.fromiter((index[b] for _, b in pairs), dtype=np.int64, count=len(pairs))
    blocked = _static(game, firer)[sources, targets].copy()
    found = blockers(game)
    if found:
        recheck = np.flatnonzero(~blocked)
        if len(recheck):
            blocked[recheck] = kernel.lines_blocked(sources[recheck], targets[recheck], firer, _arrays(game, found))
    return [not b for b in blocked.tolist()]


def _arrays(game: GameState, found: dict[Hex, int]) -> Any:
    """The kernel's terrain arrays with the AFVs and Wrecks counted in (10.31 b), kept until units move."""

    def build() -> Any:
        kernel = _kernel(game)
        base = game.board.caches.get("sight_arrays")
        if base is None:
            base = game.board.caches["sight_arrays"] = kernel.arrays()
        count = base.count.copy()
        positions = kernel.table.positions
        for h, n in found.items():
            count[positions[kernel.index[h]]] += n
        return replace(base, count=count)

    return game.kept(("sight_arrays",), build)


def line_open(game: GameState, source: Hex, target: Hex, firer: FirerState) -> bool:
    return open_lines(game, [(source, target)], firer)[0]


def along(game: GameState, source: Hex, target: Hex, firer: FirerState) -> Sight:
    """`sight` for a line already known to be open (`open_lines`): the Trees/AFVs/Wrecks along it
    (11.16 b) and the levels (11.16 c, 12.31), without testing it against Building symbols (10.31 a
    only blocks, and the line is open)."""
    found = blockers(game)
    key = (source, target, firer, blockers_key(game))
    kept: dict[Any, Sight] = game.caches.setdefault("lines_along", {})  # for the phase: AFVs move
    if key not in kept:
        kernel = _kernel(game)
        touched = [Touch(source + t.offset, t.contact, t.t) for t in touches(target - source)]
        kept[key] = judge(game.board, source, target, touched, lambda _: False, kernel.terrain, firer, found)
    return kept[key]


def sight(game: GameState, source: Hex, target: Hex, firer: FirerState) -> Sight:
    """The whole answer for one line (the Trees/AFVs/Wrecks along it for 11.16 b, the levels for
    11.16 c and 12.31), with the AFVs and Wrecks now on the map."""
    found = blockers(game)
    key = (source, target, firer, blockers_key(game))
    kept: dict[Any, Sight] = game.caches.setdefault("sights", {})  # for the phase: AFVs move
    if key not in kept:
        kept[key] = _kernel(game).sight(source, target, firer, found)
    return kept[key]
