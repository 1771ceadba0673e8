"""The bundled maps against every map clue of the rulebook.

The map art is not printed in the rulebook, so maps/map1.yaml, map2.yaml and map3.yaml are
reconstructions from its clues (2.1, the scenarios 24.4-24.9 and the Terrain Clarifications
and Errata). Each test below quotes the clue it checks and where it comes from. The maps show
the sheet as printed, before the errata (maps/errata.yaml); tests about an erratum check
both the printed map (`errata=False`) and the corrected one (`errata=True`). A survey of the
printed mapsheet that replaces a reconstruction must still pass these tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.hexgrid import Hex, are_adjacent, hex_label, neighbours, parse_label
from engine.model.board import load_board
from engine.model.terrain import Terrain

MAPS_DIR = Path(__file__).resolve().parents[1] / "maps"

# Column ranges of the three maps (2.1); columns 30 and 50 are shared seams.
MAP_COLUMNS = {"map1": (10, 30), "map2": (30, 50), "map3": (50, 70)}

EAST_WEST_ROAD = ["1014", "1315", "1715", "2215", "2613", "2913", "3014"]
ROAD_NETWORK = ["1014", "1315", "1608", "2108", "2106", "2608", "2613", "2913", "3014"]
BRIDGES = ["5806", "6410", "6521", "6815"]

ONE_TREE = ["1307", "1627", "1725", "1825", "2021"]
TWO_TREES = ["1121", "1222", "1625", "1724", "1826", "6319", "6325", "6418", "6615", "6720", "6824", "6919"]
# fmt: off
LEVEL_ONE = ["2125", "3615", "3715", "3816", "5409", "5508", "5607", "5701", "5708", "5710",
             "5903", "5919", "5920", "6019", "6220"]
# fmt: on


# -- helpers ----------------------------------------------------------------------------
@cache
def board(maps: tuple[str, ...], errata: bool):
    return load_board(list(maps), errata=errata)


def both(maps: tuple[str, ...]):
    """The printed board and the board with the errata applied."""
    return [board(maps, False), board(maps, True)]


ALL = ("map1", "map2", "map3")


def column(label_or_hex: str | Hex) -> int:
    label = label_or_hex if isinstance(label_or_hex, str) else hex_label(label_or_hex)
    return int(label[:2])


def row(label_or_hex: str | Hex) -> int:
    label = label_or_hex if isinstance(label_or_hex, str) else hex_label(label_or_hex)
    return int(label[2:])


def labels(hexes: Iterable[Hex]) -> set[str]:
    return {hex_label(h) for h in hexes}


def terrain(b, label: str):
    return b.terrain(parse_label(label))


def connected(hexes: Iterable[Hex]) -> bool:
    hexes = set(hexes)
    if not hexes:
        return False
    start = next(iter(hexes))
    seen, stack = {start}, [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == hexes


def gully_chain(b, start: str, end: str) -> list[Hex]:
    """A chain of adjacent gully hexes from start to end (breadth first), [] if none."""
    gullies = {h for h in b.hexes if b.terrain(h).gully}
    a, z = parse_label(start), parse_label(end)
    if a not in gullies or z not in gullies:
        return []
    previous: dict[Hex, Hex | None] = {a: None}
    queue = [a]
    for h in queue:
        if h == z:
            break
        for n in neighbours(h):
            if n in gullies and n not in previous:
                previous[n] = h
                queue.append(n)
    if z not in previous:
        return []
    chain = [z]
    while previous[chain[-1]] is not None:
        chain.append(previous[chain[-1]])
    return chain[::-1]


def assert_road_route(b, waypoints: list[str]) -> list[Hex]:
    """road_path through the waypoints: adjacent road hexes passing every waypoint in order."""
    path = b.road_path(waypoints)
    assert all(b.terrain(h).road for h in path)
    assert all(are_adjacent(x, y) for x, y in pairwise(path))
    positions = [path.index(parse_label(w)) for w in waypoints]
    assert positions == sorted(positions), f"{waypoints} not passed in order"
    return path


def map_buildings(b, name: str) -> dict[str, frozenset[Hex]]:
    first, last = MAP_COLUMNS[name]
    return {k: v for k, v in b.buildings().items() if all(first <= column(h) <= last for h in v)}


def raw(name: str) -> dict[str, Any]:
    with open(MAPS_DIR / f"{name}.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)


def east_west_road_row(b, col: int) -> int:
    """The row of the east-west road 1014-...-3014 in a column (its lowest row there)."""
    rows = [row(h) for h in b.road_path(EAST_WEST_ROAD) if column(h) == col]
    return min(rows)


# -- 2.1 the character of each map --------------------------------------------------------
def test_2_1_map1_is_built_up():
    """2.1: "Map 1 (hex columns 10xx to 30xx) portrays a built-up, semi-urban area."

    Many buildings, some trees, few hills: more building hexes than any other map.
    """
    b = board(("map1",), True)
    t = [b.terrain(h) for h in b.hexes]
    building_hexes = sum(x.building is not None for x in t)
    assert building_hexes >= 30
    for other in ("map2", "map3"):
        b_other = board((other,), True)
        assert building_hexes > sum(b_other.terrain(h).building is not None for h in b_other.hexes)
    assert sum(x.is_woods for x in t) >= 5  # some trees
    assert sum(x.level > 0 or x.upper_level is not None for x in t) < building_hexes  # few hills


def test_2_1_map2_is_open_with_fewer_buildings():
    """2.1: "Map 2 (hex columns 30xx to 50xx) has more open terrain with fewer buildings." """
    b2, b1 = board(("map2",), True), board(("map1",), True)
    t2 = [b2.terrain(h) for h in b2.hexes]
    assert sum(x.is_clear for x in t2) > 0.75 * len(t2)
    assert sum(x.building is not None for x in t2) < sum(b1.terrain(h).building is not None for h in b1.hexes)


def test_2_1_map3_woods_marshes_gullies_hills():
    """2.1: "Map 3 (hex columns 50xx to 70xx) represents terrain obstructed by woods, marshes,
    gullies and hills." """
    b = board(("map3",), True)
    t = [b.terrain(h) for h in b.hexes]
    assert sum(x.is_woods for x in t) >= 30
    assert sum(x.marsh for x in t) >= 30
    assert sum(x.gully for x in t) >= 30
    assert sum(x.level > 0 for x in t) >= 30


# -- Map 1 -------------------------------------------------------------------------------
@pytest.mark.parametrize("errata", [False, True])
def test_s2_s4_east_west_road(errata):
    """Scenarios 2 and 4: "road 1014-1315-1715-2215-2613-2913-3014" / "the east-west road
    (hexes 1014 - 1315 - 1715 - 2215 - 2613 - 2913 - 3014)"."""
    path = assert_road_route(board(("map1",), errata), EAST_WEST_ROAD)
    assert [column(h) for h in path] == sorted(column(h) for h in path)  # it runs east-west


@pytest.mark.parametrize("errata", [False, True])
def test_s4_road_network(errata):
    """Scenario 4, Russian note 3 (as corrected by the errata): "north of road network bounded by
    hexes 1014 - 1315 - 1608 - 2108 - 2106 - 2608 - 2613 - 2913 - 3014"."""
    b = board(("map1",), errata)
    path = assert_road_route(b, ROAD_NETWORK)
    # The branch leaves the east-west road at 1315 and rejoins it at 2613: a loop.
    east_west = set(b.road_path(EAST_WEST_ROAD))
    assert not set(path[path.index(parse_label("1315")) + 1 : path.index(parse_label("2613"))]) & east_west


def test_s4_text_erratum_2703_reads_2613():
    """Errata: "Scenario 4: In the Russian deployment instructions, point #3, the map reference
    '2703' should read '2613'." As printed, 2703 is on no road; 2613 joins the branch to the
    east-west road."""
    b = board(("map1",), True)
    assert not terrain(b, "2703").road
    assert terrain(b, "2613").road
    chains_through_2613 = [r for r in b.roads if parse_label("2613") in r]
    assert len(chains_through_2613) >= 2


@pytest.mark.parametrize("errata", [False, True])
def test_s6_north_south_road(errata):
    """Scenario 6, Russian Group 1: "east of the north-south road (hexes 2001 to 2027)"."""
    b = board(("map1",), errata)
    path = assert_road_route(b, ["2001", "2027"])
    assert [hex_label(h) for h in path] == [f"20{r:02d}" for r in range(1, 28)]


def test_s6_building_sizes_after_errata():
    """Scenario 6: "Building 1 (13 hexes total), Building 3 (5 hexes total), and Building 4
    (7 hexes total)"; Scenario 4 names Building 2."""
    buildings = board(("map1",), True).buildings()
    assert len(buildings["1"]) == 13
    assert len(buildings["3"]) == 5
    assert len(buildings["4"]) == 7
    assert "2" in buildings


def test_s6_victory_point_schedule_tops_out_at_34():
    """Scenario 6: 1 VP per hex of Buildings 1, 3 and 4, "an additional 3 VP's for every other
    building he controls"; the schedule ends at "19-34 German Victory". 34 = 13 + 5 + 7 + 3 x 3:
    Map 1 holds exactly three other buildings after the errata."""
    buildings = map_buildings(board(("map1",), True), "map1")
    per_hex = sum(len(buildings[k]) for k in ("1", "3", "4"))
    others = [k for k in buildings if k not in ("1", "3", "4")]
    assert per_hex == 25
    assert len(others) == 3
    assert per_hex + 3 * len(others) == 34


def test_s4_buildings_1_and_2_and_the_east_west_road():
    """Scenario 4 victory: "no Russian units south of the east-west road ... and no Russian units
    in either Building 1 or Building 2". Scenario 4's north is toward higher rows (1026 -> 1027).

    Building 2 lies south of the road (inside the loop of the road network); Building 1 holds
    hex 1322 as printed (errata) and so lies north of it, on the Russian side, which the
    victory condition names separately.
    """
    b = board(("map1",), True)
    buildings = b.buildings()
    assert all(row(h) < east_west_road_row(b, column(h)) for h in buildings["2"])
    assert all(row(h) > east_west_road_row(b, column(h)) for h in buildings["1"])


def test_s2_buildings_on_both_sides_of_the_east_west_road():
    """Scenario 2: "Squad D must deploy in any type building hex south of road 1014-...-3014"
    and "Squad E must deploy in any type building hex north of Squad D's deployment area";
    the Russians win as "sole occupant of at least 1 multi-hex building"."""
    b = board(("map1",), True)
    sides = {
        (row(h) > east_west_road_row(b, column(h))) for hexes in b.buildings().values() if len(hexes) > 1 for h in hexes
    }
    assert sides == {True, False}


@pytest.mark.parametrize("errata", [False, True])
def test_multi_hex_buildings_are_connected(errata):
    """formats.md: "hexes sharing an id form one multi-hex building"; a building is one block of
    adjacent hexes."""
    for name, hexes in board(ALL, errata).buildings().items():
        assert connected(hexes), f"building {name} is not connected"


def test_building_ids_unique_across_maps():
    """formats.md: building ids "are unique across the whole mapsheet (the scenarios name
    Buildings 1-4 of Map 1)"."""
    for errata in (False, True):
        ids = [set(board((name,), errata).buildings()) for name in ALL]
        assert not (ids[0] & ids[1]) and not (ids[1] & ids[2]) and not (ids[0] & ids[2])


# -- Map 2 -------------------------------------------------------------------------------
@pytest.mark.parametrize("errata", [False, True])
def test_s1_s6_road_4001_5014(errata):
    """Scenarios 1 and 6: "the road running from hexes 4001 to 5014"; Scenario 6: German Group 3
    "enters on hex 5014" (the edge of Map 2)."""
    b = board(("map2",), errata)
    assert_road_route(b, ["4001", "5014"])
    assert row("4001") == 1 and column("5014") == 50


def road_4001_5014_neighbours(b) -> set[Hex]:
    road = set(b.road_path(["4001", "5014"]))
    return {n for h in road for n in neighbours(h) if n in b.hexes} - road


@pytest.mark.parametrize("errata", [False, True])
def test_s1_objectives_4307_4308(errata):
    """Scenario 1: the winner has "at least one unit in both hex 4307 and hex 4308"; the Germans
    "Deploy in any building or tree hex adjacent to the road running from hexes 4001 to 5014
    or on Hill K": the objectives are building or tree hexes beside that road."""
    b = board(("map2",), errata)
    beside = road_4001_5014_neighbours(b)
    for label in ("4307", "4308"):
        t = terrain(b, label)
        assert t.building is not None or t.is_woods
        assert parse_label(label) in beside


@pytest.mark.parametrize("errata", [False, True])
def test_s1_german_deployment_beside_the_road(errata):
    """Scenario 1, German note 3: "Deploy in any building or tree hex adjacent to the road
    running from hexes 4001 to 5014" (Scenario 6, German Group 1, the same): room for the
    Germans along the road."""
    b = board(("map2",), errata)
    hexes = [h for h in road_4001_5014_neighbours(b) if b.terrain(h).building is not None or b.terrain(h).is_woods]
    assert len(hexes) >= 8


def test_s1_s3_s6_hills_j_k_l():
    """Scenario 1 ("on Hill K"), Scenario 3 ("no Russian units on Hills J and K"), Scenario 6
    ("on Hill J", "on Hill L"): Map 2 has Hills J, K and L."""
    for errata in (False, True):
        hills = board(("map2",), errata).hills()
        for name in "JKL":
            assert name in hills
            assert connected(hills[name])
            assert max(board(("map2",), errata).terrain(h).level for h in hills[name]) >= 1


def test_s6_hill_l_adjoins_the_road():
    """Scenario 6, German Group 1: "deploys in any building or tree hex adjacent to the road
    running from hex 4001 to 5014, and on Hill L": Hill L lies beside that road."""
    b = board(("map2",), True)
    assert b.hills()["L"] & road_4001_5014_neighbours(b)


def test_s3_hills_j_and_k_south_of_hexrow_06():
    """Scenario 3: the Russians "Deploy in any hex south of hexrow xx06" (north: 5002 -> 5001,
    so south is toward higher rows) and the Germans win "if there are no Russian units on
    Hills J and K"."""
    hills = board(("map2",), True).hills()
    assert all(row(h) > 6 for name in "JK" for h in hills[name])


def test_s6_hill_j_west_of_hex_column_35():
    """Scenario 6, Russian Group 3: "deploys anywhere on Map 2 east of hex column 35xx
    (exclusive), on Hill J" (north: 5001 -> 5002, so east is toward lower columns): Hill J is
    not already east of column 35, and the errata's 3615, 3715, 3816 are on its edge."""
    hills = board(("map2",), True).hills()
    assert all(column(h) >= 35 for h in hills["J"])
    assert {"3615", "3715", "3816"} <= labels(hills["J"])


def test_errata_4109_has_a_one_hex_building():
    """Errata: "Hex 4109 has a one-hex building." As printed, 4109 has none (it is beside the
    road 4001-5014)."""
    before, after = both(("map2",))
    assert terrain(before, "4109").building is None
    building = terrain(after, "4109").building
    assert building is not None
    assert after.buildings()[building] == {parse_label("4109")}
    assert parse_label("4109") in road_4001_5014_neighbours(after)


# -- Map 3 -------------------------------------------------------------------------------
@pytest.mark.parametrize("errata", [False, True])
def test_s5_gully_6723_to_5521(errata):
    """Scenario 5, Russian note 3: "Deploy anywhere north of gully hexes 6723 to 5521"."""
    assert gully_chain(board(("map3",), errata), "6723", "5521")


@pytest.mark.parametrize("errata", [False, True])
def test_s5_gully_5403_to_6410(errata):
    """Scenario 5, Russian note 4: "The two BT7m's must deploy north of gully hexes 5403 to
    6410"."""
    assert gully_chain(board(("map3",), errata), "5403", "6410")


@pytest.mark.parametrize("errata", [False, True])
def test_s5_bridges(errata):
    """Scenario 5 victory: "no Russian units on any of the bridge hexes (5806, 6410, 6521,
    6815)"; chart note a: "A Bridge hex is a Road hex that crosses a Gully"."""
    b = board(("map3",), errata)
    for label in BRIDGES:
        t = terrain(b, label)
        assert t.bridge and t.road and t.gully, label
    assert labels(h for h in b.hexes if b.terrain(h).bridge) == set(BRIDGES)


@pytest.mark.parametrize("errata", [False, True])
def test_chart_note_a_roads_cross_gullies_only_at_bridges(errata):
    """Chart note a: "A Bridge hex is a Road hex that crosses a Gully": every road hex in a gully
    is a bridge, and the road crosses there (the hexes before and after it are no gully)."""
    b = board(ALL, errata)
    for h in b.hexes:
        t = b.terrain(h)
        if t.road and t.gully:
            assert t.bridge, hex_label(h)
    for chain in b.roads:
        for i, h in enumerate(chain):
            if b.terrain(h).bridge:
                for j in (i - 1, i + 1):
                    if 0 <= j < len(chain):
                        assert not b.terrain(chain[j]).gully, f"road runs along the gully at {hex_label(h)}"


@pytest.mark.parametrize("errata", [False, True])
def test_s5_single_road_from_the_south_edge_over_the_bridges(errata):
    """Scenario 5: "Advance elements ... forge through the swampy terrain, many times restricted
    by a single road" and the Germans "Enter all units on the south mapedge" (north: 7002 ->
    7001): a road runs from the south edge (row 27) over the bridges to the north edge, with
    marsh beside it."""
    b = board(("map3",), errata)
    south = sorted(hex_label(h) for h in b.hexes if b.terrain(h).road and row(h) == 27)
    north = sorted(hex_label(h) for h in b.hexes if b.terrain(h).road and row(h) == 1)
    assert south and north
    path = assert_road_route(b, [south[0], "6521", "6410", north[-1]])
    beside_marsh = [h for h in path if any(n in b.hexes and b.terrain(n).marsh for n in neighbours(h))]
    assert len(beside_marsh) >= 5
    # every bridge is on the one road network
    assert_road_route(b, ["5806", "6410", "6521", "6815"])


def test_s5_hills_m_n_o_p_north_of_the_russian_line():
    """Scenario 5: the Germans win only with "no Russian units on any of the Hills (M, N, O, P)";
    the Russians "Deploy anywhere north of gully hexes 6723 to 5521, and north of hexes 5122,
    5222, 5322, 5422, 6824, 6924, 7024": each hill lies north of (above) that line."""
    b = board(("map3",), True)
    hills = b.hills()
    line = labels(gully_chain(b, "6723", "5521")) | {"5122", "5222", "5322", "5422", "6824", "6924", "7024"}
    for name in "MNOP":
        assert name in hills and connected(hills[name])
        for h in hills[name]:
            assert any(column(x) == column(h) and row(x) > row(h) for x in line), hex_label(h)


# -- Terrain Clarifications and Errata ----------------------------------------------------
def test_errata_one_tree():
    """Errata: "The following hexes should only have ONE tree (i.e. do not count as tree hexes):
    1307, 1627, 1725, 1825, 2021." As printed they are tree hexes."""
    before, after = both(ALL)
    for label in ONE_TREE:
        assert terrain(before, label).is_woods, label
        assert terrain(after, label).trees == 1 and not terrain(after, label).is_woods, label


def test_errata_two_trees():
    """Errata: "The following hexes should have TWO trees (i.e. do count as tree hexes): 1121,
    1222, 1625, 1724, 1826, 6319, 6325, 6418, 6615, 6720, 6824, 6919." As printed they show one
    Tree."""
    before, after = both(ALL)
    for label in TWO_TREES:
        assert terrain(before, label).trees == 1, label
        assert terrain(after, label).trees == 2 and terrain(after, label).is_woods, label


def test_errata_6618_three_trees():
    """Errata: "Hex 6618 should have three trees." As printed it shows two."""
    before, after = both(("map3",))
    assert terrain(before, "6618").trees == 2
    assert terrain(after, "6618").trees == 3


def test_errata_level_1_hexes():
    """Errata: "The following are level 1 hexes: 2125, 3615, 3715, 3816, 5409, 5508, 5607, 5701,
    5708, 5710, 5903, 5919, 5920, 6019, 6220. ... Note that in all cases rule 10.34 is the
    overriding rule." The reconstruction draws each with one level, one too low (level 0, off the
    hill), so the erratum sets a level and 10.34 ('A hex that contains two different elevations is
    considered to be at the lower of the two') has no two levels to decide: before and after, no
    listed hex holds two levels (R24). After the errata each is level 1, on the hill it borders."""
    before, after = both(ALL)
    hills = {"2125": None} | dict.fromkeys(["3615", "3715", "3816"], "J")
    hills |= dict.fromkeys(["5409", "5508", "5607", "5708", "5710"], "M") | dict.fromkeys(["5701", "5903"], "N")
    hills |= dict.fromkeys(["5919", "5920", "6019", "6220"], "O")
    assert sorted(hills) == sorted(LEVEL_ONE)
    for label in LEVEL_ONE:
        t = terrain(before, label)
        assert (t.level, t.upper_level, t.hill) == (0, None, None), label
        t = terrain(after, label)
        assert (t.level, t.upper_level, t.hill) == (1, None, hills[label]), label


def test_errata_6020_level_2():
    """Errata: "Hex 6020 should be a level 2 hex." Drawn as a level 1 hex of Hill O, one level too
    low; after the errata level 2 (R24)."""
    before, after = both(("map3",))
    assert (terrain(before, "6020").level, terrain(before, "6020").upper_level) == (1, None)
    assert (terrain(after, "6020").level, terrain(after, "6020").upper_level) == (2, None)


def test_errata_crest_hexes_are_on_hill_edges():
    """10.34: "A hex that contains two different elevations": each printed crest hex borders a
    hex of its upper level, and on Maps 2 and 3 it belongs to that hill."""
    b = board(ALL, False)
    for h in b.hexes:
        t = b.terrain(h)
        if t.upper_level is None:
            continue
        upper = [n for n in neighbours(h) if n in b.hexes and b.terrain(n).level == t.upper_level]
        assert upper, hex_label(h)
        if column(h) > 30:
            assert t.hill is not None and t.hill in {b.terrain(n).hill for n in upper}, hex_label(h)


def test_errata_1322_is_not_a_building_hex():
    """Errata: "Hex 1322 is not a building hex." As printed it is the 14th hex of Building 1,
    which Scenario 6 counts as "Building 1 (13 hexes total)"."""
    before, after = both(("map1",))
    assert terrain(before, "1322").building == "1"
    assert len(before.buildings()["1"]) == 14
    assert terrain(after, "1322").building is None
    assert len(after.buildings()["1"]) == 13 and connected(after.buildings()["1"])


@pytest.mark.parametrize(("label", "building", "size"), [("2513", "3", 5), ("2714", "4", 7)])
def test_errata_multi_building_hexes(label, building, size):
    """Errata: "Hex 2513 is a multi-building hex. Hex 2714 is a multi-building hex." Read as
    (assumed, marked in maps/errata.yaml): as printed a one-hex building of its own, the hex is
    part of the adjacent multi-hex building, Building 3 (5 hexes) or Building 4 (7 hexes) of
    Scenario 6."""
    before, after = both(("map1",))
    printed_id = terrain(before, label).building
    assert printed_id not in (None, building)
    assert before.buildings()[printed_id] == {parse_label(label)}
    assert terrain(after, label).building == building
    assert len(after.buildings()[building]) == size and connected(after.buildings()[building])
    assert printed_id not in after.buildings()


def errata_file() -> dict[str, Any]:
    with open(MAPS_DIR / "errata.yaml", encoding="utf-8") as f:
        return yaml.safe_load(f)


def test_every_erratum_changes_the_printed_maps():
    """The errata correct the printed sheet, so each printed erratum must change something on
    the (reconstructed) printed maps: every hex it names is on a map and is changed."""
    before = board(ALL, False)
    defaults = Terrain()
    for change in errata_file()["changes"]:
        for label in change["hexes"]:
            h = parse_label(label)
            assert h in before.hexes, label
            t = before.terrain(h)
            wanted = {
                k: getattr(defaults, k) if v is None else (str(v) if k == "building" else v)
                for k, v in change["set"].items()
            }
            assert any(getattr(t, k) != v for k, v in wanted.items()), f"{change['printed']}: {label} unchanged"


def test_errata_file_quotes_the_printed_errata():
    """Every change quotes its printed sentence; the scenario-text errata and the notes ('Ignore
    the word 'crest' on the map') are kept too."""
    data = errata_file()
    assert data["format"] == "iron-cross-errata/1"
    for change in data["changes"]:
        assert change["printed"]
        for label in change["hexes"]:
            assert label in change["printed"]
    reads = {(t["scenario"], k, v) for t in data["text"] for k, v in t["reads"].items()}
    assert reads == {(4, "2703", "2613"), (5, "5115", "5015"), (5, "5127", "5027")}
    assert any("crest" in n for n in data["notes"])


def test_s5_text_erratum_5015_5027_on_the_map_edge():
    """Errata: "Scenario 5: ... the map references '5115' and '5127' should read '5015' and '5027'
    respectively": the German entry "between hexes" 5015 and 5027 runs along Map 3's west edge,
    column 50."""
    b = board(("map3",), True)
    for label in ("5015", "5027", "5115", "5127"):
        assert parse_label(label) in b.hexes
    assert column("5015") == column("5027") == MAP_COLUMNS["map3"][0]


# -- sense and seams ----------------------------------------------------------------------
@pytest.mark.parametrize("errata", [False, True])
def test_terrain_combinations_are_sensible(errata):
    """No building in a marsh or gully hex or among trees; no marsh or gully on a hill; a road is
    not built through marsh or a building."""
    b = board(ALL, errata)
    for h in b.hexes:
        t, label = b.terrain(h), hex_label(h)
        if t.building is not None:
            assert not (t.marsh or t.gully or t.trees or t.road), label
        if t.marsh:
            assert not (t.level or t.upper_level or t.hill or t.gully), label
        if t.gully:
            assert not (t.level or t.upper_level or t.hill), label


@pytest.mark.parametrize("errata", [False, True])
def test_8_53_hills_climb_one_level_at_a_time(errata):
    """8.53: uphill "from a non-Hill hex to a Level 1 Hill, or from a Level 1 Hill hex to a Level 2
    Hill hex"; chart notes e, f: a two-level hex counts as the lower. No level-2 hex borders a
    level-0 hex."""
    b = board(ALL, errata)
    for h in b.hexes:
        if b.terrain(h).level == 2:
            for n in neighbours(h):
                if n in b.hexes:
                    assert b.terrain(n).level >= 1, f"{hex_label(h)} next to {hex_label(n)}"


@pytest.mark.parametrize(("west", "east", "seam"), [("map1", "map2", 30), ("map2", "map3", 50)])
def test_2_1_seam_columns_agree(west, east, seam):
    """2.1 (data-gaps): "column 30 and column 50 are shared seams": both map files describe the
    seam hexes identically, and a road crossing the seam is in both files' road lists there."""
    a, b = raw(west), raw(east)
    a_hexes = {k: v for k, v in (a.get("hexes") or {}).items() if column(k) == seam}
    b_hexes = {k: v for k, v in (b.get("hexes") or {}).items() if column(k) == seam}
    assert a_hexes == b_hexes
    a_roads = {x for road in a.get("roads") or [] for x in road if column(x) == seam}
    b_roads = {x for road in b.get("roads") or [] for x in road if column(x) == seam}
    assert a_roads == b_roads


@pytest.mark.parametrize("name", ALL)
def test_map_files_say_they_are_reconstructions(name):
    """Provenance policy: the map art is not printed, so each map says it is assumed (a
    reconstruction from the clues) until a survey of the printed sheet replaces it."""
    data = raw(name)
    assert "assumed" in data["provenance"]
    assert "RECONSTRUCTION" in (MAPS_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    first, last = MAP_COLUMNS[name]
    assert data["grid"] == {"columns": [first, last], "rows": [1, 27], "offset": "even-q"}
