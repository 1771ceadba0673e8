"""Zone expressions resolve to hexes, with compass directions relative to the north indicator."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.geometry.compass import Compass, edge_facing
from engine.geometry.zones import ZoneContext, ZoneError, resolve
from engine.hexgrid import hex_line, hex_to_offset, parse_label
from engine.model.board import assemble
from engine.model.mapsheet import Grid, MapSheet
from engine.model.terrain import Terrain

GRID = Grid((10, 20), (1, 10))
ROAD = hex_line(parse_label("1005"), parse_label("2002"))  # west edge to east edge, climbing


def board_with(terrain: dict[str, Terrain] | None = None):
    sheet = MapSheet(
        "Test", GRID, {parse_label(k): v for k, v in (terrain or {}).items()}, [ROAD], [], "maps/test.yaml"
    )
    return assemble([sheet]), sheet


def context(north: tuple[str, str] = ("1002", "1001"), named=None, terrain=None) -> ZoneContext:
    board, sheet = board_with(terrain)
    compass = Compass.from_indicator(parse_label(north[0]), parse_label(north[1]))
    return ZoneContext(board, compass, named or {}, {"test": sheet})


def labels(hexes) -> set[str]:
    return {f"{c:02d}{r:02d}" for c, r in (hex_to_offset(h) for h in hexes)}


def test_north_up_edges() -> None:
    ctx = context(("1002", "1001"))  # Scenario 2's indicator: north towards row 01
    assert labels(resolve({"map_edge": "north"}, ctx)) == {f"{c}01" for c in range(10, 21)}
    assert labels(resolve({"map_edge": "east"}, ctx)) == {f"20{r:02d}" for r in range(1, 11)}


def test_north_down_edges_scenario_1_style() -> None:
    """Clue: Scenario 1's 5001->5002 puts north toward higher rows, so east is the low column."""
    ctx = context(("1001", "1002"))
    assert labels(resolve({"map_edge": "north"}, ctx)) == {f"{c}10" for c in range(10, 21)}
    assert labels(resolve({"map_edge": "east"}, ctx)) == {f"10{r:02d}" for r in range(1, 11)}
    assert labels(resolve({"map_edge": "west"}, ctx)) == {f"20{r:02d}" for r in range(1, 11)}


def test_north_towards_a_corner_hexside_takes_the_nearest_edge() -> None:
    compass = Compass.from_indicator(parse_label("1002"), parse_label("1102"))  # up and to the right
    assert edge_facing(compass, "north") == "right"
    assert edge_facing(compass, "west") == "top"


def test_a_diagonal_map_edge_is_ambiguous() -> None:
    with pytest.raises(ZoneError, match="ambiguous"):
        resolve({"map_edge": "northeast"}, context(("1002", "1001")))


def test_side_of_road_splits_the_map_and_excludes_the_road() -> None:
    ctx = context()
    north = resolve({"side_of": {"road": ["1005", "2002"], "side": "north"}}, ctx)
    south = resolve({"side_of": {"road": ["1005", "2002"], "side": "south"}}, ctx)
    road = set(ROAD)
    assert north | south | road == ctx.board.hexes
    assert not (north & south) and not (north & road) and not (south & road)
    assert "1001" in labels(north) and "1010" in labels(south) and "2001" in labels(north)
    included = resolve({"side_of": {"road": ["1005", "2002"], "side": "north", "boundary": "include"}}, ctx)
    assert included == north | road


def test_side_is_relative_to_north() -> None:
    up = resolve({"side_of": {"road": ["1005", "2002"], "side": "north"}}, context(("1002", "1001")))
    down = resolve({"side_of": {"road": ["1005", "2002"], "side": "south"}}, context(("1001", "1002")))
    assert up == down


def test_column_and_row_sides_exclusive() -> None:
    """'east of hex column 35xx (exclusive)', 'south of hexrow xx06'."""
    ctx = context(("1001", "1002"))  # north down: east is the low columns
    east = resolve({"side_of": {"column": 15, "side": "east"}}, ctx)
    assert {c for c, _ in map(hex_to_offset, east)} == set(range(10, 15))
    south = resolve({"side_of": {"row": 6, "side": "south"}}, ctx)
    assert {r for _, r in map(hex_to_offset, south)} == set(range(1, 6))
    with pytest.raises(ZoneError, match="not defined"):
        resolve({"side_of": {"column": 15, "side": "north"}}, ctx)


def test_terrain_hill_building_adjacent_and_set_algebra() -> None:
    terrain = {
        "1203": Terrain(trees=2),
        "1204": Terrain(trees=1),
        "1303": Terrain(building="1"),
        "1304": Terrain(building="1"),
        "1707": Terrain(building="2"),
        "1508": Terrain(level=1, hill="K"),
    }
    ctx = context(terrain=terrain)
    assert labels(resolve({"terrain": "woods"}, ctx)) == {"1203"}  # one Tree is not a tree hex
    assert labels(resolve({"terrain": "trees"}, ctx)) == {"1203", "1204"}
    assert labels(resolve({"building": "multi_hex"}, ctx)) == {"1303", "1304"}
    assert labels(resolve({"building": "any"}, ctx)) == {"1303", "1304", "1707"}
    assert labels(resolve({"hill": "K"}, ctx)) == {"1508"}
    near = resolve({"adjacent_to": {"hexes": ["1508"]}}, ctx)
    assert len(near) == 6 and parse_label("1508") not in near
    both = resolve({"all_of": [{"terrain": "building"}, {"adjacent_to": {"hexes": ["1203"]}}]}, ctx)
    assert labels(both) == {"1303", "1304"} & labels(resolve({"adjacent_to": {"hexes": ["1203"]}}, ctx))
    assert labels(resolve({"minus": [{"building": "any"}, {"building": "1"}]}, ctx)) == {"1707"}
    assert labels(resolve({"any_of": [{"hexes": ["1001"]}, {"line": ["1501", "1503"]}]}, ctx)) == {
        "1001",
        "1501",
        "1502",
        "1503",
    }


def test_named_zones_and_cycles() -> None:
    ctx = context(named={"a": {"hexes": ["1001"]}, "b": {"any_of": [{"zone": "a"}, {"hexes": ["1002"]}]}})
    assert labels(resolve({"zone": "b"}, ctx)) == {"1001", "1002"}
    loop = context(named={"a": {"zone": "b"}, "b": {"zone": "a"}})
    with pytest.raises(ZoneError, match="refers to itself"):
        resolve({"zone": "a"}, loop)


@pytest.mark.parametrize(
    ("expr", "fragment", "path"),
    [
        ({"hexes": ["1001", "3001"]}, "hex 3001 is not on", ("hexes", 1)),
        ({"hill": "Z"}, "no hill 'Z'", ("hill",)),
        ({"road": ["1005", "1010"]}, "1010 is not a road hex", ("road",)),
        ({"any_of": [{"terrain": "lava"}]}, "unknown terrain", ("any_of", 0, "terrain")),
        ({"zone": "nowhere"}, "no zone named", ("zone",)),
        ({"map": "map9"}, "not one of this scenario's maps", ("map",)),
        ({"flood": 1}, "unknown zone expression", ()),
    ],
)
def test_errors_name_the_culprit(expr, fragment: str, path) -> None:
    with pytest.raises(ZoneError, match=fragment) as info:
        resolve(expr, context())
    assert info.value.path == path


@given(st.sampled_from(["north", "south", "east", "west"]), st.sampled_from([("1002", "1001"), ("1001", "1002")]))
def test_opposite_sides_partition_the_map(side: str, north: tuple[str, str]) -> None:
    opposite = {"north": "south", "south": "north", "east": "west", "west": "east"}[side]
    ctx = context(north)
    # A north-south line for east and west, the climbing road for north and south.
    column = hex_line(parse_label("1501"), parse_label("1510"))
    line, boundary = (
        ({"straight": ["1501", "1510"]}, column) if side in ("east", "west") else ({"road": ["1005", "2002"]}, ROAD)
    )
    a = resolve({"side_of": {**line, "side": side}}, ctx)
    b = resolve({"side_of": {**line, "side": opposite}}, ctx)
    assert not (a & b) and a and b
    assert a | b | set(boundary) == ctx.board.hexes


def test_a_side_of_a_gully_is_kept_across_edits_until_a_gully_changes() -> None:
    """Scenario 5 (R17): 'The two BT7m's must deploy north of gully hexes 5403 to 6410'. The zone is
    worked out once and kept while edits leave every Gully flag as it was; an edit that fills in a
    gully hex of the route resolves it again (here: no gully joins 5403 to 6410 any more)."""
    from engine.geometry.zones import resolve_named
    from engine.model.scenario import load_scenario
    from engine.resources import bundled_scenarios

    scenario = load_scenario(next(p for p in bundled_scenarios() if p.name.startswith("s5-")))
    board = scenario.load_board()
    ctx = scenario.zone_context(board)
    zone = resolve_named("russian-bt7m-deployment", ctx)
    route = board.gully_path(["5403", "6410"])
    away = next(h for h in sorted(board.hexes) if not board.terrain(h).gully and h not in zone)
    board.set_terrain({away: Terrain(trees=3)})
    ctx.terrain_changed()
    assert ctx._along_gullies and resolve_named("russian-bt7m-deployment", ctx) == zone
    middle = route[len(route) // 2]
    board.set_terrain({middle: Terrain()})
    ctx.terrain_changed()
    assert not ctx._along_gullies
    with pytest.raises(ZoneError, match="no gully joins 5403 to 6410"):
        resolve_named("russian-bt7m-deployment", ctx)
