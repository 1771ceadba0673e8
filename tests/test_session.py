"""Validation after edits (engine/validate/session.py): the editor revalidates after each brush
stroke, reusing what an edit cannot change. The answers must equal a validation from scratch."""

from __future__ import annotations

from collections import deque
from functools import cache
from pathlib import Path

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from engine.geometry.line_table import DeltaTable
from engine.geometry.los_kernel import SightKernel
from engine.geometry.movement import Mover, State, UnitClass, movement_graph
from engine.geometry.viewshed import WHOLE_FANS_ABOVE, Viewsheds
from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.source import load_yaml
from engine.model.terrain import Terrain
from engine.resources import bundled_scenarios
from engine.validate.context import ScenarioContext
from engine.validate.registry import runners
from engine.validate.session import ValidationSession
from tests.properties import fewer_examples

S1 = next(p for p in bundled_scenarios() if p.name.startswith("s1-"))
S2 = next(p for p in bundled_scenarios() if p.name.startswith("s2-"))  # Map 1, turn counts to its objectives
S5 = next(p for p in bundled_scenarios() if p.name.startswith("s5-"))  # the most turn searches an edit keeps
PAINT = st.sampled_from(
    [Terrain(), Terrain(trees=3), Terrain(building="99"), Terrain(level=1, hill="K"), Terrain(marsh=True)]
)


def fresh_problems(edits: dict[Hex, Terrain], scenario: Path = S1) -> list[str]:
    from engine.model.scenario import scenario_from_document

    ctx = ScenarioContext(scenario_from_document(load_yaml(scenario)))
    assert ctx.board is not None
    ctx.board.set_terrain(edits)
    return [p.text() for check in runners("check_scenario") for p in check(ctx)]


def revalidated_as_from_scratch(data: st.DataObject, scenario: Path, strokes: int, hexes_a_stroke: int) -> None:
    """Random strokes in a session of `scenario`, revalidated after each: at the end, its problems
    are those of a validation from scratch of the edited board."""
    session = ValidationSession(load_yaml(scenario))
    session.problems()
    assert session.board is not None
    hexes = sorted(session.board.hexes)
    edits: dict[Hex, Terrain] = {}
    for _ in range(data.draw(st.integers(1, strokes))):
        painted = data.draw(st.lists(st.sampled_from(hexes), min_size=1, max_size=hexes_a_stroke))
        stroke = {h: data.draw(PAINT) for h in painted}
        session.edit(stroke)
        edits |= stroke
        session.problems()
    assert [p.text() for p in session.problems()] == fresh_problems(edits, scenario)


@fewer_examples(6)  # a validation of Scenario 1 from scratch each
@given(st.data())
def test_revalidation_after_edits_equals_validation_from_scratch(data: st.DataObject) -> None:
    revalidated_as_from_scratch(data, S1, strokes=3, hexes_a_stroke=1)


@fewer_examples(8, most=30)  # a validation of Scenario 5 from scratch and up to six revalidations each
@given(st.data())
def test_turn_searches_kept_across_edits_answer_as_from_scratch(data: st.DataObject) -> None:
    """Scenario 5's objective-turns and objective-too-far (8.1) come from turn searches whose labels
    follow each edit (engine/geometry/turns.py): after random strokes, the same problems as from scratch."""
    revalidated_as_from_scratch(data, S5, strokes=6, hexes_a_stroke=3)


def test_checks_that_never_read_the_board_are_not_run_again() -> None:
    session = ValidationSession(load_yaml(S1))
    session.problems()
    first = session.runs
    assert session.board is not None
    session.edit({sorted(session.board.hexes)[0]: Terrain(trees=2)})
    session.problems()
    assert 0 < session.runs - first < first  # some checks reran, not all


@fewer_examples(6)  # two movement graphs of Map 2 built twice each
@given(st.data())
def test_movement_graphs_follow_terrain_edits(data: st.DataObject) -> None:
    """The cached movement graph, patched after set_terrain, equals one built on the edited board."""
    from engine.model.board import load_board

    board = load_board(["map2"])
    movers = [Mover(UnitClass.INFANTRY, State.UP), Mover(UnitClass.AFV, State.DOWN)]
    for m in movers:
        movement_graph(board, m)
    hexes = sorted(board.hexes)
    edits = {data.draw(st.sampled_from(hexes)): data.draw(PAINT) for _ in range(3)}
    board.set_terrain(edits)
    rebuilt = Board(board.maps, board.offset, dict(board.terrain_map), board.roads, board.bridges, board.hexes)
    for m in movers:
        patched, fresh = movement_graph(board, m), movement_graph(rebuilt, m)
        assert nx.utils.edges_equal(sorted(patched.edges(data="cost")), sorted(fresh.edges(data="cost")))


def test_a_closed_session_stops_following_the_board() -> None:
    """A new session replaces a closed one (the editor does so after a scenario data edit):
    the old one's watchers leave the board, so an edit no longer reaches it."""
    session = ValidationSession(load_yaml(S1))
    board = session.board
    assert board is not None
    watching = len(board.watchers)
    session.close()
    assert len(board.watchers) == watching - 2
    session.problems()
    runs = session.runs
    board.set_terrain({sorted(board.hexes)[0]: Terrain(trees=2)})
    session.problems()
    assert session.runs == runs  # nothing reran: the session no longer hears of edits


def grown(board: Board, start: Hex, size: int) -> list[Hex]:
    """A connected patch of `size` hexes around `start` (what a fill paints)."""
    patch, frontier = {start: None}, deque([start])
    while frontier and len(patch) < size:
        for n in board.neighbours(frontier.popleft()):
            if n not in patch and len(patch) < size:
                patch[n] = None
                frontier.append(n)
    return list(patch)


@fewer_examples(10)  # Scenario 2 validated three times each (0.1 s a time)
@given(st.data())
def test_a_fill_and_its_undo_as_one_edit_revalidate_as_from_scratch(data: st.DataObject) -> None:
    """The editor applies a fill, and its undo, as one board edit (commands.TerrainCommand): the
    watchers follow all its hexes at once. The problems equal a validation from scratch, and the
    undo gives back the problems of before."""
    session = ValidationSession(load_yaml(S2))
    before = [p.text() for p in session.problems()]
    board = session.board
    assert board is not None
    start = data.draw(st.sampled_from(sorted(board.hexes)))
    painted = dict.fromkeys(grown(board, start, data.draw(st.integers(1, 400))), data.draw(PAINT))
    previous = {h: board.terrain(h) for h in painted}
    session.edit(painted)
    assert [p.text() for p in session.problems()] == fresh_problems(painted, S2)
    session.edit(previous)
    assert [p.text() for p in session.problems()] == before


@cache
def map1() -> tuple[Board, DeltaTable]:
    """Map 1 as loaded, and its line table (the lines' geometry: the same whatever the terrain)."""
    from engine.model.board import load_board

    board = load_board(["map1"])
    return board, SightKernel(board).table


@fewer_examples(5)
@given(st.data())
def test_viewsheds_follow_an_edit_of_any_size(data: st.DataObject) -> None:
    """Small edits recheck the lines through their hexes; one over WHOLE_FANS_ABOVE of the board
    works the fans again whole: either way the fans equal fresh ones, after the edit and its undo."""
    loaded, table = map1()
    board = Board(loaded.maps, loaded.offset, dict(loaded.terrain_map), loaded.roads, loaded.bridges, loaded.hexes)
    views = Viewsheds(board, SightKernel(board, table=table))
    board.watchers.append(views.changed)
    hexes = sorted(board.hexes)
    sources = hexes[:: len(hexes) // 8]
    for s in sources:
        views.blocked_from(s)
    size = data.draw(st.sampled_from([1, 5, int(WHOLE_FANS_ABOVE * len(hexes)) + 1, 300]))
    painted = dict.fromkeys(grown(board, data.draw(st.sampled_from(hexes)), size), data.draw(PAINT))
    previous = {h: board.terrain(h) for h in painted}
    for edit in (painted, previous):
        board.set_terrain(edit)
        fresh = Viewsheds(board, SightKernel(board, table=table))
        for s in sources:
            assert (views.blocked_from(s) == fresh.blocked_from(s)).all()
