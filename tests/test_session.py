"""Validation after edits (engine/validate/session.py): the editor revalidates after each brush
stroke, reusing what an edit cannot change. The answers must equal a validation from scratch."""

from __future__ import annotations

import networkx as nx
from hypothesis import given
from hypothesis import strategies as st

from engine.geometry.movement import Mover, State, UnitClass, movement_graph
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
PAINT = st.sampled_from(
    [Terrain(), Terrain(trees=3), Terrain(building="99"), Terrain(level=1, hill="K"), Terrain(marsh=True)]
)


def fresh_problems(edits: dict[Hex, Terrain]) -> list[str]:
    from engine.model.scenario import scenario_from_document

    ctx = ScenarioContext(scenario_from_document(load_yaml(S1)))
    assert ctx.board is not None
    ctx.board.set_terrain(edits)
    return [p.text() for check in runners("check_scenario") for p in check(ctx)]


@fewer_examples(6)  # a validation of Scenario 1 from scratch each
@given(st.data())
def test_revalidation_after_edits_equals_validation_from_scratch(data: st.DataObject) -> None:
    session = ValidationSession(load_yaml(S1))
    session.problems()
    assert session.board is not None
    hexes = sorted(session.board.hexes)
    edits: dict[Hex, Terrain] = {}
    for _ in range(data.draw(st.integers(1, 3))):
        stroke = {data.draw(st.sampled_from(hexes)): data.draw(PAINT)}
        session.edit(stroke)
        edits |= stroke
        session.problems()
    assert [p.text() for p in session.problems()] == fresh_problems(edits)


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
