"""Lines of sight in play (10.3): the geometry layer's kernel with the game's AFVs and Wrecks.

10.31 b counts "Tree symbols, AFV units, or Wrecks" along a line, so a line's answer depends on
the AFVs and Wrecks in the hexes it passes (not its ends, not a corner it touches). The terrain
never changes in play: each firer state's all-pairs matrix of the bare terrain is worked out once
per scenario (kept for every game of it, and on disk for the next process:
engine/geometry/table_cache.py); an AFV or a Wreck can only add to 10.31 b's count, so a line the
terrain leaves open between two hexes on one level is walked for the count with them in
(engine/geometry/line_walk.py: a few microseconds a line, where the numpy kernel's call costs
0.1-0.3 ms however few its lines).
"""

from __future__ import annotations

import weakref
from functools import cache
from typing import Any

import numpy as np

from engine.geometry.lattice import Contact, touches
from engine.geometry.line_walk import LineWalk
from engine.geometry.los_kernel import SightKernel
from engine.geometry.sight import FirerState, Sight
from engine.geometry.table_cache import kept_matrix
from engine.hexgrid import Hex
from engine.model.counters import SIDES
from engine.model.scenario import Scenario

from .stacks import side_afvs
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


def bare_rows(game: GameState) -> dict[tuple[Hex, str], bytes]:
    """`bare_row`'s rows kept so far, for every game of the board (at most the two matrices' size)."""
    rows: dict[tuple[Hex, str], bytes] = game.board.caches.setdefault("bare_rows", {})
    return rows


def bare_row(game: GameState, h: Hex, state: str) -> bytes:
    """The bare terrain's lines from h for firers in `state` (`bare_lines`' row, 1: blocked) as
    bytes, kept for the board: a fire listing reads a few of each firer's, where reading a numpy
    array's element by element costs several times a byte's."""
    rows = bare_rows(game)
    row = rows.get((h, state))
    if row is None:
        row = rows[(h, state)] = _static(game, FirerState(state))[_kernel(game).index[h]].tobytes()
    return row


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
    """Asked after every step of a move: walks the AFVs (`stacks.side_afvs`), not every hex."""
    counts: dict[Hex, int] = {}
    for side in SIDES:
        for unit in side_afvs(game, side):
            if unit.on_map and unit.hex is not None:
                counts[unit.hex] = counts.get(unit.hex, 0) + 1
    for h in game.wrecks:
        counts[h] = counts.get(h, 0) + 1
    return counts


def open_lines(game: GameState, pairs: list[tuple[Hex, Hex]], firer: FirerState) -> list[bool]:
    """For each (firer hex, target hex): whether the LOS is unblocked now (10.3): the bare terrain's
    matrix, then, for a line it leaves open between two hexes on one level, 10.31 b's count with
    the AFVs and Wrecks where they stand (they only add to it), walked line by line."""
    if not pairs:
        return []
    if "sight_matrix" not in game.board.caches and len(pairs) <= FEW:  # an editor's one shot: no matrix yet
        return [not sight(game, a, b, firer).blocked for a, b in pairs]
    index, static = _kernel(game).index, _static(game, firer)
    walk, found = _walk(game), _blocker_cells(game)
    return [not (static[index[a], index[b]] or (found and walk.blocks(a, b, found))) for a, b in pairs]


def _walk(game: GameState) -> LineWalk:
    """The board's lines walked one by one (engine/geometry/line_walk.py), kept for every game of the board."""
    caches = game.board.caches
    if "line_walk" not in caches:
        kernel = _kernel(game)
        caches["line_walk"] = LineWalk(kernel.table, kernel.order, kernel.arrays(), kernel.terrain)
    walk: LineWalk = caches["line_walk"]
    return walk


def _blocker_cells(game: GameState) -> dict[int, int]:
    """`blockers` by cell of the line table's grid (LineWalk), kept until units move."""
    found: dict[int, int] = game.kept(
        ("sight_blocker_cells",), lambda: {_walk(game).cell[h]: n for h, n in blockers(game).items()}
    )
    return found


def line_open(game: GameState, source: Hex, target: Hex, firer: FirerState) -> bool:
    return open_lines(game, [(source, target)], firer)[0]


def trees_along(game: GameState, source: Hex, target: Hex) -> int:
    """The Trees, AFVs and Wrecks along the LOS now, the hexside rule applied (10.31 b, 11.16 b,
    23.2 d): `Sight.trees_along` without the rest of `sight`, walked anew (a few microseconds)."""
    return _walk(game).trees_along(source, target, _blocker_cells(game))


def level_difference(game: GameState, source: Hex, target: Hex) -> int:
    """`Sight.level_difference`: the target's level minus the firer's (11.16 c, 12.31)."""
    terrain = game.board.terrain
    return terrain(target).elevation - terrain(source).elevation


def sight(game: GameState, source: Hex, target: Hex, firer: FirerState) -> Sight:
    """The whole answer for one line (the Trees/AFVs/Wrecks along it for 11.16 b, the levels for
    11.16 c and 12.31), with the AFVs and Wrecks now on the map; kept for the game by those on the
    line (10.31 b counts them nowhere else: an AFV moving elsewhere leaves it as it was)."""
    found = blockers(game)
    passed = _passed(target - source)
    key = (source, target, firer, tuple(sorted((h, n) for h, n in found.items() if h - source in passed)))
    kept: dict[Any, Sight] = game.caches.setdefault("sights", {})
    if key not in kept:
        kept[key] = _kernel(game).sight(source, target, firer, found)
    return kept[key]


@cache
def _passed(delta: Hex) -> frozenset[Hex]:
    """The hexes a line to `delta` passes through or along, ends left out (where 10.31 b counts)."""
    return frozenset(t.offset for t in touches(delta) if t.contact is not Contact.CORNER) - {Hex(0, 0), delta}
