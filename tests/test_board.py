"""Assembling maps into one board, seams, errata application."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engine.hexgrid import Hex, are_adjacent, neighbours, parse_label
from engine.model.board import NoPathError, assemble, shortest_path
from engine.model.errata import load_errata
from engine.model.mapsheet import load_map
from engine.validate.runner import validate_paths

WEST = """\
format: iron-cross-map/1
name: West
grid: {columns: [10, 14], rows: [1, 5]}
hexes:
  "1403": {trees: 2}
  "1202": {building: 7}
  "1203": {building: 7}
roads:
  - ["1002", "1102", "1202", "1302", "1402"]
"""

EAST = """\
format: iron-cross-map/1
name: East
grid: {columns: [14, 18], rows: [1, 5]}
hexes:
  "1403": {trees: 2}
  "1603": {level: 1, hill: Q}
roads:
  - ["1402", "1502", "1602"]
"""

ERRATA = """\
format: iron-cross-errata/1
name: Test errata
changes:
  - hexes: ["1403", "1603"]
    set: {trees: 1}
    printed: "Hexes 1403 and 1603 should have ONE tree."
  - hexes: ["1203"]
    set: {building: null}
    printed: "Hex 1203 is not a building hex."
  - hexes: ["1603"]
    set: {level: 1}
    printed: "Hex 1603 is a level 1 hex."
  - hexes: ["9999"]
    set: {marsh: true}
    printed: "No such hex."
"""


def test_seam_column_appears_once(write) -> None:
    board = assemble([load_map(write("w.yaml", WEST)), load_map(write("e.yaml", EAST))])
    assert len(board.hexes) == 9 * 5  # columns 10..18: the seam column 14 once
    assert len(board.maps_of(parse_label("1403"))) == 2
    assert board.seam_conflicts == []


def test_adjacency_across_the_seam(write) -> None:
    board = assemble([load_map(write("w.yaml", WEST)), load_map(write("e.yaml", EAST))])
    h = parse_label("1302")
    assert parse_label("1402") in board.neighbours(h)
    assert all(are_adjacent(h, n) for n in board.neighbours(h))
    # The two maps' road chains meet at the seam hex and join into one road.
    path = board.road_path(["1002", "1602"])
    assert [board.label(x) for x in path] == ["1002", "1102", "1202", "1302", "1402", "1502", "1602"]


def test_seam_conflict_is_reported(write) -> None:
    east = EAST.replace('"1403": {trees: 2}', '"1403": {trees: 3}')
    board = assemble([load_map(write("w.yaml", WEST)), load_map(write("e.yaml", east))])
    assert [board.label(c.hex) for c in board.seam_conflicts] == ["1403"]
    assert board.terrain(parse_label("1403")).trees == 2  # the first map's description is used


def test_errata_apply_on_load_and_maps_stay_as_printed(write) -> None:
    west, east = load_map(write("w.yaml", WEST)), load_map(write("e.yaml", EAST))
    errata = load_errata(write("errata.yaml", ERRATA))
    printed = assemble([west, east])
    corrected = assemble([west, east], errata)
    h = parse_label("1403")
    assert printed.terrain(h).trees == 2 and corrected.terrain(h).trees == 1
    assert corrected.terrain(parse_label("1203")).building is None
    assert set(corrected.buildings()) == {"7"} and len(corrected.buildings()["7"]) == 1
    assert west.terrain[parse_label("1203")].building == "7"  # the map file's model is untouched
    assert {corrected.label(a.hex) for a in corrected.applied} == {"1403", "1603", "1203"}


def test_errata_skip_hexes_of_other_maps(write) -> None:
    errata = load_errata(write("errata.yaml", ERRATA))
    board = assemble([load_map(write("w.yaml", WEST))], errata)
    assert {board.label(a.hex) for a in board.applied} == {"1403", "1203"}


def test_errata_validation_reports_missing_hex_and_no_effect(write) -> None:
    write("map1.yaml", WEST)
    write("map2.yaml", EAST)
    problems = validate_paths([write("errata.yaml", ERRATA)])
    found = {(p.code, p.hex, p.line) for p in problems}
    assert ("erratum-no-effect", "9999", 13) in found  # on none of the maps
    assert ("erratum-no-effect", "1603", 10) in found  # already level 1: changes nothing


def test_road_neighbours_follow_the_roads(write) -> None:
    """Movement costs and road paths read `road_neighbours`: the hexes a chain joins, both ways;
    they follow the roads when an editor replaces them (Board.roads_changed)."""
    board = assemble([load_map(write("w.yaml", WEST)), load_map(write("e.yaml", EAST))])
    a, b = parse_label("1302"), parse_label("1402")
    assert b in board.road_neighbours[a] and a in board.road_neighbours[b]
    board.roads = [chain for chain in board.roads if a not in chain]
    board.roads_changed()
    assert a not in board.road_neighbours and a not in board.road_neighbours.get(b, {})
    with pytest.raises(NoPathError, match="hex 1002 is not a road hex"):
        board.road_path(["1002", "1602"])


@pytest.mark.parametrize("seed", range(40))
def test_shortest_path_chooses_as_networkx_does(seed: int) -> None:
    """Of equally short ways, the one networkx's shortest_path (unweighted) gives: the zones that
    follow a road through a junction or round a loop keep their hexes."""
    import networkx as nx

    rng = random.Random(seed)
    hexes = [Hex(q, r) for q in range(8) for r in range(8)]
    graph = nx.Graph()
    joined: dict[Hex, dict[Hex, None]] = {}
    for _ in range(rng.randrange(1, 8)):  # road chains, as Board.road_neighbours joins them
        chain = [rng.choice(hexes)]
        for _ in range(rng.randrange(1, 20)):
            chain.append(rng.choice([n for n in neighbours(chain[-1]) if n in hexes]))
        graph.add_nodes_from(chain)
        graph.add_edges_from(pairwise(chain))
        for h in chain:
            joined.setdefault(h, {})
        for x, y in pairwise(chain):
            joined[x][y] = joined[y][x] = None
    nodes = list(joined)
    for _ in range(30):
        x, y = rng.choice(nodes), rng.choice(nodes)
        try:
            expected = nx.shortest_path(graph, x, y)
        except nx.NetworkXNoPath:
            expected = None
        assert shortest_path(joined, x, y) == expected
