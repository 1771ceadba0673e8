"""10.31 b's count walked one line at a time (engine/geometry/line_walk.py) against the LOS rules'
own answer (`judge`, through the kernel's single lines) and the kernel's many lines at once, and the
game's lines (engine/game/sightlines.py) with the AFVs and Wrecks where they stand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.game import new_game
from engine.game.sightlines import bare_lines, bare_row, open_lines, sight, trees_along
from engine.game.state import SUPPORT_FIRE
from engine.game.units import ON_MAP
from engine.geometry.line_walk import LineWalk
from engine.geometry.los_kernel import SightKernel
from engine.geometry.sight import FirerState
from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.scenario import load_scenario
from tests.properties import fewer_examples
from tests.test_engine_fire import away, game_at
from tests.test_los import LETTER, LOW_GROUND, maps, small_hexes

PAIRS = st.lists(st.tuples(st.sampled_from(small_hexes), st.sampled_from(small_hexes)), min_size=1, max_size=20)
BLOCKERS = st.dictionaries(st.sampled_from(small_hexes), st.integers(1, 2), max_size=6)


@given(maps(), PAIRS, BLOCKERS)
def test_10_31_b_the_walk_counts_trees_afvs_and_wrecks_as_judge_does(
    board: Board, pairs: list[tuple[Hex, Hex]], found: dict[Hex, int]
) -> None:
    """10.31 b: 'Tree symbols, AFV units, or Wrecks' along the LOS (along a hexside, the hex with
    more; the end hexes and corner touches not). The walk's count is `judge`'s `trees_along`, by
    the letter and under the low-ground house rule; on a line the bare terrain leaves open, the
    AFVs and Wrecks block it exactly when `judge` and the kernel's many lines at once say so."""
    for terrain in (LETTER, LOW_GROUND):
        kernel = SightKernel(board, terrain)
        walk = LineWalk(kernel.table, kernel.order, kernel.arrays(), terrain)
        cells = {walk.cell[h]: n for h, n in found.items()}
        sources = np.array([kernel.index[a] for a, _ in pairs])
        targets = np.array([kernel.index[b] for _, b in pairs])
        for firer in FirerState:
            many = kernel.lines_blocked(sources, targets, firer, kernel.arrays(found))
            for (a, b), blocked in zip(pairs, many.tolist(), strict=True):
                line = kernel.sight(a, b, firer, found)
                assert walk.trees_along(a, b, cells) == line.trees_along
                assert blocked == line.blocked
                if not kernel.sight(a, b, firer).blocked:
                    assert walk.blocks(a, b, cells) == line.blocked


S6 = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "s6-spartakovka.yaml")


@fewer_examples(5)
@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(-8, 8), st.integers(-8, 8)), min_size=1, max_size=30),
    st.lists(st.integers(0, 10**6), min_size=1, max_size=6),
)
def test_10_31_b_a_game_s_lines_count_the_afvs_and_wrecks_where_they_stand(
    drawn: list[tuple[int, int, int]], placed: list[int]
) -> None:
    """10.31 b in play, on Scenario 6's map (trees, buildings, hills): with Wrecks and an AFV put on
    the hexes the drawn lines pass, each line's `open_lines` (the bare terrain's matrix, then the
    walk) and `trees_along` (11.16 b) are what the whole LOS rules say (`sight`: the kernel's single
    line, with every AFV and Wreck on the map)."""
    game = new_game(S6, 1)
    hexes = sorted(game.board.hexes)
    pairs = [
        (a, a + Hex(dq, dr)) for i, dq, dr in drawn if (a := hexes[i % len(hexes)]) + Hex(dq, dr) in game.board.hexes
    ]
    assume(pairs)
    passed = sorted({h for a, b in pairs for h in sight(game, a, b, FirerState.UP).hexes} or hexes)
    spots = [passed[i % len(passed)] for i in placed]
    afv = next(u for u in game.units.values() if u.is_afv)
    game.relocate(afv, ON_MAP, spots[0])
    game.wrecks = set(spots[1:])
    game.caches = {}
    for firer in FirerState:
        bare_lines(game, firer)  # the matrix, as in a game's fire phases (with it, no line is worked alone)
        whole = [sight(game, a, b, firer) for a, b in pairs]
        assert open_lines(game, pairs, firer) == [not line.blocked for line in whole]
        assert [trees_along(game, a, b) for a, b in pairs] == [line.trees_along for line in whole]


def test_10_31_b_a_line_s_sight_is_kept_until_an_afv_comes_onto_it() -> None:
    """10.31 b counts 'Tree symbols, AFV units, or Wrecks' in the hexes the line passes: `sight`
    keeps a line's answer while an AFV stands elsewhere (far off, or in an end hex, which never
    blocks: 10.33) and works it anew when one enters a hex between (the book's example: 1710 to
    1714 over 1711's two Trees and 1713's one, blocked with an AFV in 1713)."""
    game = game_at("german", SUPPORT_FIRE)
    away(game)
    source, target, afv = game.board.hex("1710"), game.board.hex("1714"), game.unit("german/IIIe-1")
    clear = sight(game, source, target, FirerState.UP)
    for label in ("1830", "1714", "1710"):
        game.relocate(afv, ON_MAP, game.board.hex(label))
        assert sight(game, source, target, FirerState.UP) is clear
    game.relocate(afv, ON_MAP, game.board.hex("1713"))
    blocked = sight(game, source, target, FirerState.UP)
    assert (clear.blocked, clear.trees_along) == (False, 3) and (blocked.blocked, blocked.trees_along) == (True, 4)


def test_10_3_a_firer_s_kept_row_is_the_bare_terrain_s_lines_from_its_hex() -> None:
    """10.3: a fire listing reads each firer's lines over the bare terrain from `bare_row` (bytes,
    1: blocked): the matrix's row for the firer's hex and state, kept for every game of the board,
    a new game's firer in the same hex and state reading the same row."""
    game, other = new_game(S6, 1), new_game(S6, 2)
    hexes = sorted(game.board.hexes)
    for firer in FirerState:
        index, matrix = bare_lines(game, firer)
        for h in hexes[:: len(hexes) // 7]:
            row = bare_row(game, h, firer.value)
            assert list(row) == matrix[index[h]].astype(int).tolist()
            assert bare_row(other, h, firer.value) is row
