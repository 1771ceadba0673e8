"""Line of sight (10.3-10.34) on small hand-built maps, the two implementations against each
other, viewsheds with incremental updates, and the `los` / `viewshed` commands."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.geometry.lattice import Contact, touches
from engine.geometry.los_kernel import SightKernel
from engine.geometry.los_reference import reference_sight
from engine.geometry.sight import FirerState, HouseRule, Sight, SightTerrain
from engine.geometry.viewshed import Viewsheds
from engine.hexgrid import Hex, parse_label
from engine.model.board import Board, assemble
from engine.model.mapsheet import Grid, MapSheet
from engine.model.terrain import terrain_from_keys
from iceditor.cli import main
from tests.properties import fewer_examples

GRID = Grid((10, 20), (1, 12))


def board_of(hexes: dict[str, dict[str, Any]]) -> Board:
    terrain = {parse_label(label): terrain_from_keys(keys) for label, keys in hexes.items()}
    return assemble([MapSheet("test", GRID, terrain, [], [])])


LETTER = SightTerrain.from_effects()
LOW_GROUND = SightTerrain.from_effects(house_rules={HouseRule.LOW_GROUND})


def los(
    board: Board,
    a: str,
    b: str,
    firer: str = "up",
    blockers: dict[str, int] | None = None,
    terrain: SightTerrain = LETTER,
) -> Sight:
    """The kernel's answer, checked against the reference and the kernel's fan on every call."""
    counts = {board.hex(k): v for k, v in (blockers or {}).items()}
    kernel = SightKernel(board, terrain)
    fast = kernel.sight(board.hex(a), board.hex(b), FirerState(firer), counts)
    assert fast == reference_sight(board, board.hex(a), board.hex(b), FirerState(firer), counts, terrain)
    assert kernel.fan(board.hex(a), FirerState(firer), counts)[board.hex(b)] == fast.blocked
    return fast


def labels(board: Board, hexes: Any) -> list[str]:
    return [board.label(h) for h in hexes]


# -- 10.31 b -----------------------------------------------------------------------------------


def test_book_example_three_trees_and_an_afv_block() -> None:
    """10.31 Example: "The LOS passes through one hex containing two Tree symbols, a Clear hex,
    a hex with an AFV and a Tree. The LOS is blocked as per (b) (3 Trees and an AFV)." """
    board = board_of({"1202": {"trees": 2}, "1204": {"trees": 1}})
    sight = los(board, "1201", "1205", blockers={"1204": 1})
    assert labels(board, sight.hexes) == ["1202", "1203", "1204"]
    assert (sight.blocked, sight.rule, board.label(sight.blocking_hex or Hex(0, 0))) == (True, "10.31 b", "1204")
    assert sight.trees_along == 4
    without_afv = los(board, "1201", "1205")
    assert not without_afv.blocked and without_afv.trees_along == 3  # "more than three"


def test_fire_lane_counts_single_trees() -> None:
    """10.31 b counts Tree symbols, one-Tree hexes included (Fire Lane example: 'four tree symbols')."""
    board = board_of({f"12{r:02d}": {"trees": 1} for r in range(2, 6)})
    assert los(board, "1201", "1206").rule == "10.31 b"


# The line from 1204 to 1405 (axial delta (2, -1)... +(2,0) rows) runs along the hexside between 1304 and 1305.
@pytest.mark.parametrize("dense, sparse", [("1304", "1305"), ("1305", "1304")])
def test_along_a_hexside_the_adjoining_hex_with_more_trees_counts(dense: str, sparse: str) -> None:
    """10.31 b: "if the line passes along a hexside, count the Trees/AFV's/Wrecks in the
    adjoining hex with the greater number" - the same whichever side holds more."""
    board = board_of({dense: {"trees": 3}, sparse: {"trees": 1}})
    source, target = board.hex("1204"), board.hex("1204") + Hex(2, -1)
    sight = SightKernel(board).sight(source, target)
    assert sight == reference_sight(board, source, target)
    assert sorted(labels(board, sight.hexsides[0])) == ["1304", "1305"]
    assert sight.trees_along == 3 and not sight.blocked
    touching = [t for t in touches(Hex(2, -1)) if t.contact is Contact.HEXSIDE]
    assert len(touching) == 2 and touching[0].t == touching[1].t


@pytest.mark.parametrize("swap", [False, True])
def test_two_hexsides_sum_their_greater_counts(swap: bool) -> None:
    """10.31 b along two hexsides: 2 (greater of 2 and 0) + 2 (greater of 0 and 2) = 4 > 3: blocked."""
    source = parse_label("1204")
    first = [source + Hex(1, -1), source + Hex(1, 0)]
    second = [source + Hex(3, -2), source + Hex(3, -1)]
    if swap:
        first.reverse()
    board = assemble(
        [
            MapSheet(
                "t",
                GRID,
                {first[0]: terrain_from_keys({"trees": 2}), second[1]: terrain_from_keys({"trees": 2})},
                [],
                [],
            )
        ]
    )
    sight = los(board, "1204", board.label(source + Hex(4, -2)))
    assert (sight.blocked, sight.rule, sight.blocking_hex, sight.trees_along) == (True, "10.31 b", second[1], 4)


# -- 10.31 a -----------------------------------------------------------------------------------


def test_hill_between_two_level_0_hexes_blocks() -> None:
    """10.31 a: blocked when the line crosses a Hill hex of a higher elevation."""
    board = board_of({"1203": {"level": 1, "hill": "K"}})
    sight = los(board, "1201", "1205")
    assert (sight.rule, board.label(sight.blocking_hex or Hex(0, 0))) == ("10.31 a", "1203")


def test_a_hex_of_two_levels_counts_as_the_lower() -> None:
    """10.34: 'A hex that contains two different elevations is considered to be at the lower of the two.'"""
    board = board_of({"1203": {"level": 0, "upper_level": 1, "hill": "K"}})
    assert not los(board, "1201", "1205").blocked


def test_hill_touched_at_a_corner_blocks() -> None:
    """10.31 a "crosses or touches ... Hill hex": a line through a corner of a hill hex touches it (ruling R28)."""
    delta = Hex(11, -1)  # the line 0 -> (11, -1) touches (4, -1) at one corner only
    corner = next(t.offset for t in touches(delta) if t.contact is Contact.CORNER)
    source = parse_label("1006")
    board = assemble(
        [MapSheet("t", Grid((10, 22), (1, 12)), {source + corner: terrain_from_keys({"level": 1})}, [], [])]
    )
    sight = SightKernel(board).sight(source, source + delta)
    assert sight == reference_sight(board, source, source + delta)
    assert source + corner in sight.corners and source + corner not in sight.hexes
    assert (sight.rule, sight.blocking_hex) == ("10.31 a", source + corner)


def test_building_symbol_blocks_but_a_building_hex_missed_does_not() -> None:
    """10.31 a: only a line that crosses or touches the Building symbol blocks; the corner of a
    building hex, away from its symbol, does not."""
    source = parse_label("1006")
    delta = Hex(11, -1)
    passed = [t.offset for t in touches(delta) if t.contact is Contact.INTERIOR][1:-1]
    through_centre = board_of({"1203": {"building": 1}})
    assert los(through_centre, "1201", "1205").rule == "10.31 a"
    hits = []
    for offset in passed:
        board = assemble(
            [MapSheet("t", Grid((10, 22), (1, 12)), {source + offset: terrain_from_keys({"building": 1})}, [], [])]
        )
        sight = SightKernel(board).sight(source, source + delta)
        assert sight == reference_sight(board, source, source + delta)
        hits.append(sight.blocked)
    assert any(hits) and not all(hits)  # some hexes the line crosses only near a hexside


@pytest.mark.parametrize("same_building, blocked", [(True, True), (False, False)])
def test_line_along_the_hexside_inside_a_multi_hex_building(same_building: bool, blocked: bool) -> None:
    """10.31 a: a multi-hex building's symbol runs across the hexside between its hexes, so a
    line along that hexside touches it; two separate buildings leave the hexside clear."""
    source = parse_label("1204")
    a, b = source + Hex(1, -1), source + Hex(1, 0)
    board = assemble(
        [
            MapSheet(
                "t",
                GRID,
                {a: terrain_from_keys({"building": 1}), b: terrain_from_keys({"building": 1 if same_building else 2})},
                [],
                [],
            )
        ]
    )
    sight = los(board, "1204", board.label(source + Hex(2, -1)))
    assert sight.blocked is blocked
    assert (sight.rule == "10.31 a") is blocked


# -- 10.31 c, 10.33 ----------------------------------------------------------------------------


def test_down_firer_over_marsh() -> None:
    """10.31 c: blocked 'if the firing unit is in the DOWN state and the line passes through a Marsh hex'."""
    board = board_of({"1203": {"marsh": True}})
    assert los(board, "1201", "1205", "down").rule == "10.31 c"
    up = los(board, "1201", "1205", "up")
    assert not up.blocked and labels(board, up.marsh_along) == ["1203"]
    assert not los(board, "1201", "1203", "down").blocked  # the marsh is the target hex (10.33)


def test_into_but_not_through_a_blocking_hex() -> None:
    """10.33: 'LOS will extend INTO a blocking hex but it will not extend THROUGH the blocking hex.'"""
    board = board_of({"1203": {"building": 1}, "1303": {"trees": 4}})
    assert not los(board, "1201", "1203").blocked
    beyond = los(board, "1201", "1204")
    assert beyond.blocked and board.label(beyond.blocking_hex or Hex(0, 0)) == "1203"
    assert not los(board, "1203", "1205").blocked  # the firer's own building hex never blocks


def test_range_counts_the_target_not_the_firer() -> None:
    """11.2: range counts the target hex, not the firer's."""
    board = board_of({})
    assert los(board, "1201", "1202").range == 1
    assert los(board, "1201", "1205").range == 4


HILLTOPS = {"1201": {"level": 1, "hill": "K"}, "1205": {"level": 1, "hill": "K"}}


@pytest.mark.parametrize(
    ("dip", "firer", "rule"),
    [({"trees": 4}, "up", "10.31 b"), ({"marsh": True}, "down", "10.31 c"), ({"building": 1}, "up", "10.31 a")],
    ids=["four-trees", "marsh-down-firer", "building"],
)
def test_10_31_same_level_hilltops_across_a_dip_by_the_letter(dip: dict[str, Any], firer: str, rule: str) -> None:
    """10.31: 'If both hexes are on the same elevation, LOS is blocked if: a) the line crosses or
    touches a Building symbol ...; b) the line passes through hexes containing more than three Tree
    symbols ...; c) if the firing unit is in the DOWN state and the line passes through a Marsh
    hex.' No elevation exception: two units on level 1 hills do not see across a level 0 hex with
    4 Trees, nor a DOWN firer over a level 0 Marsh (ruling R72)."""
    sight = los(board_of({**HILLTOPS, "1203": dip}), "1201", "1205", firer)
    assert (sight.blocked, sight.rule, sight.blocking_hex) == (True, rule, parse_label("1203"))
    assert sight.trees_along == dip.get("trees", 0) and len(sight.marsh_along) == int(dip.get("marsh", False))


@pytest.mark.parametrize("level", [0, 1])
def test_10_31_a_a_building_symbol_blocks_whatever_its_level(level: int) -> None:
    """10.31 a: 'the line crosses or touches a Building symbol or Hill hex of a higher elevation'.
    'Of a higher elevation' qualifies the Hill hex (ruling R73): a building in a valley between two
    level 1 hills blocks, as one on their own level does."""
    building = {"building": 1, "level": level, **({"hill": "K"} if level else {})}
    ridge = {label: {"level": 1, "hill": "K"} for label in ("1202", "1204")} if level else {}
    sight = los(board_of({**HILLTOPS, **ridge, "1203": building}), "1201", "1205")
    assert (sight.blocked, sight.rule, sight.blocking_hex) == (True, "10.31 a", parse_label("1203"))


@pytest.mark.parametrize("dip", [{"building": 1}, {"trees": 4}, {"marsh": True}], ids=["building", "trees", "marsh"])
def test_low_ground_house_rule_spares_what_lies_below_both_units(dip: dict[str, Any]) -> None:
    """The low-ground house rule (off unless named; ruling R72): a building, woods or marsh in a
    hex lower than both units neither blocks nor counts along the LOS (11.16 b, 23.2 d, e); on the
    units' own level the same terrain blocks as 10.31 prints."""
    below = los(board_of({**HILLTOPS, "1203": dip}), "1201", "1205", "down", terrain=LOW_GROUND)
    assert not below.blocked and below.trees_along == 0 and below.marsh_along == ()
    ridge = {**HILLTOPS, "1202": {"level": 1}, "1203": {**dip, "level": 1}, "1204": {"level": 1}}
    level = los(board_of(ridge), "1201", "1205", "down", terrain=LOW_GROUND)
    assert level.blocked and level.blocking_hex == parse_label("1203")


def test_trees_along_a_line_between_levels_count_by_the_letter() -> None:
    """11.16 b: 'minus one for each Tree/AFV/Wreck along the LOS (10.3)': a Tree in a hex lower
    than both units still counts, unless the low-ground house rule is in play."""
    board = board_of({"1201": {"level": 2, "hill": "K"}, "1203": {"trees": 1}, "1205": {"level": 1, "hill": "K"}})
    assert los(board, "1201", "1205").trees_along == 1
    assert los(board, "1201", "1205", terrain=LOW_GROUND).trees_along == 0


# -- 10.32 --------------------------------------------------------------------------------------


def _column(levels: dict[int, int]) -> Board:
    return board_of({f"12{r:02d}": {"level": lvl, "hill": "K"} for r, lvl in levels.items()})


def test_observer_on_level_2_over_a_level_1_hill_near_and_far() -> None:
    """10.32 b: an obstruction 'touching or crossing above the line' blocks. Observer on level 2
    in 1201, target on level 0 in 1207 (range 6): the line stands at 2 * d / 6 at d hexes from
    the lower (target) hex."""
    near_observer = los(_column({1: 2, 2: 1}), "1201", "1207")  # d = 5: line 1.67 above the hill
    assert not near_observer.blocked and near_observer.level_difference == -2
    near_target = los(_column({1: 2, 6: 1}), "1201", "1207")  # d = 1: line 0.33, hill 1
    assert (near_target.rule, near_target.blocking_hex) == ("10.32 b", parse_label("1206"))
    halfway = los(_column({1: 2, 4: 1}), "1201", "1207")  # d = 3: line exactly 1, touching
    assert halfway.rule == "10.32 b"
    assert los(_column({1: 2, 4: 1}), "1207", "1201").blocked  # the same line, either way


def test_woods_and_buildings_rise_above_their_hill() -> None:
    """10.32 a: obstacle levels come from the chart (woods, buildings: 1/2, assumed)."""
    board = board_of({"1201": {"level": 1, "hill": "K"}, "1206": {"trees": 2}})
    sight = los(board, "1201", "1207")  # lower unit in 1207; woods at d = 1: 0.5 >= 1/6
    assert sight.rule == "10.32 b"
    point = next(p for p in sight.profile if p.hex == parse_label("1206"))
    assert (point.height, point.blocks) == (0.5, True)


# -- the two implementations and the fast paths agree -----------------------------------------

terrain_keys = st.one_of(
    st.just({}),
    st.builds(lambda n: {"trees": n}, st.integers(1, 4)),
    st.builds(lambda b: {"building": b}, st.sampled_from(["1", "2"])),
    st.builds(lambda lvl: {"level": lvl, "hill": "K"}, st.integers(1, 2)),
    st.just({"marsh": True}),
    st.just({"level": 0, "upper_level": 1}),
)
SMALL = Grid((10, 17), (1, 7))
small_hexes = sorted(SMALL.hexes())


@st.composite
def maps(draw: st.DrawFn) -> Board:
    cells = draw(st.lists(st.tuples(st.sampled_from(small_hexes), terrain_keys), max_size=25))
    return assemble([MapSheet("random", SMALL, {h: terrain_from_keys(k) for h, k in cells}, [], [])])


@given(
    maps(),
    st.sampled_from(small_hexes),
    st.sampled_from(small_hexes),
    st.sampled_from(list(FirerState)),
    st.dictionaries(st.sampled_from(small_hexes), st.integers(1, 2), max_size=3),
)
def test_kernel_agrees_with_the_reference(
    board: Board, a: Hex, b: Hex, firer: FirerState, blockers: dict[Hex, int]
) -> None:
    for terrain in (LETTER, LOW_GROUND):
        fast = SightKernel(board, terrain).sight(a, b, firer, blockers)
        assert fast == reference_sight(board, a, b, firer, blockers, terrain)


@given(
    maps(),
    st.sampled_from(small_hexes),
    st.sampled_from(small_hexes),
    st.sampled_from(list(FirerState)),
    st.dictionaries(st.sampled_from(small_hexes), st.integers(1, 2), max_size=3),
)
def test_the_profile_names_the_hex_that_blocks(
    board: Board, a: Hex, b: Hex, firer: FirerState, blockers: dict[Hex, int]
) -> None:
    """The first profile entry that blocks is the blocking hex, by the same rule; a clear line has none."""
    sight = SightKernel(board).sight(a, b, firer, blockers)
    blocking = [p for p in sight.profile if p.blocks]
    assert bool(blocking) == sight.blocked
    if blocking:
        assert (blocking[0].hex, blocking[0].rule) == (sight.blocking_hex, sight.rule)


def test_a_same_level_blocker_blocks_in_the_profile() -> None:
    """10.31 a, b: units on one level; the building hex, and the hex where a fourth Tree is met, block."""
    building = los(board_of({"1204": {"building": 1}}), "1201", "1207")
    assert [(p.hex, p.rule) for p in building.profile if p.blocks] == [(parse_label("1204"), "10.31 a")]
    trees = los(board_of({"1203": {"trees": 2}, "1205": {"trees": 2}, "1206": {"trees": 1}}), "1201", "1208")
    assert (trees.rule, trees.blocking_hex) == ("10.31 b", parse_label("1205"))
    assert [(p.hex, p.rule) for p in trees.profile if p.blocks] == [(parse_label("1205"), "10.31 b")]


@fewer_examples(3)
@given(
    maps(),
    st.sampled_from(list(FirerState)),
    st.sampled_from([LETTER, LOW_GROUND]),
    st.lists(st.tuples(st.sampled_from(small_hexes), st.sampled_from(small_hexes)), min_size=1, max_size=30),
)
def test_fans_and_matrix_agree_with_single_lines(
    board: Board, firer: FirerState, terrain: SightTerrain, pairs: list[tuple[Hex, Hex]]
) -> None:
    """Every hex's fan is its row of the matrix, and single lines (drawn pairs: a full line costs
    a millisecond, a fan a fraction of one) agree with the fans."""
    kernel = SightKernel(board, terrain)
    matrix = kernel.matrix(firer)
    fans = {a: kernel.fan(a, firer) for a in kernel.order}
    for a, fan in fans.items():
        assert [fan[b] for b in kernel.order] == list(matrix[kernel.index[a]])
    for a, b in pairs:
        assert fans[a][b] == kernel.sight(a, b, firer).blocked


def _crowded(grid: Grid, keys_of: Any) -> Board:
    return assemble([MapSheet("crowded", grid, {h: terrain_from_keys(keys_of(h)) for h in grid.hexes()}, [], [])])


CROWDED = {
    # steps along hexsides beside buildings (10.31 a, b: "the hex with more" along a hexside)
    "hexsides beside buildings": _crowded(
        SMALL, lambda h: {"building": "1"} if (h.q + 2 * h.r) % 3 == 0 else {"trees": (h.q * h.r) % 4}
    ),
    # more building hexes than the narrow weights of the line table's sums number (128 or more)
    "a town": _crowded(
        Grid((10, 25), (1, 12)), lambda h: {} if h.q % 7 == 0 else {"building": str(1 + (h.r // 3) % 2)}
    ),
    # 10.32 b: hills with woods and buildings on them, lines between two levels both ways
    "hills": _crowded(
        SMALL,
        lambda h: (
            {"level": 1 + (h.q + h.r) % 2, "hill": "K", "trees": 2}
            if h.q % 4 == 1
            else {"building": "1"}
            if (h.q + h.r) % 5 == 0
            else {"trees": h.r % 3}
        ),
    ),
}


@pytest.mark.parametrize("name", CROWDED)
def test_fans_and_matrix_agree_with_single_lines_on_crowded_boards(name: str) -> None:
    """10.31 and 10.32 b on boards of many buildings, hexsides and hills: every fan is its row of the
    all-pairs matrix (a pair on two levels is worked from its higher hex there, from the fan's hex
    here), and some 150 lines of each matrix agree with the lines worked alone."""
    board = CROWDED[name]
    buildings = sum(board.terrain(h).building is not None for h in board.hexes)
    assert buildings >= 128 if name == "a town" else buildings
    for terrain in (LETTER, LOW_GROUND):
        for firer in FirerState:
            kernel = SightKernel(board, terrain)
            matrix, arrays = kernel.matrix(firer), kernel.arrays()
            for i in range(len(kernel.order)):
                assert list(kernel.fan_array(i, firer, arrays)) == list(matrix[i])
            for k in range(0, matrix.size, matrix.size // 150 + 1):
                a, b = divmod(k, len(kernel.order))
                assert matrix[a, b] == kernel.sight(kernel.order[a], kernel.order[b], firer).blocked


@fewer_examples(2)
@given(maps(), st.sampled_from(small_hexes), terrain_keys)
def test_viewsheds_after_an_edit_match_fresh_ones(board: Board, edited: Hex, keys: dict[str, Any]) -> None:
    views = Viewsheds(board)
    sources = small_hexes[::9]
    for s in sources:
        views.blocked_from(s)
    board.terrain_map[edited] = terrain_from_keys(keys)
    before = views.lines_worked
    views.changed([edited])
    fresh = Viewsheds(board)
    for s in sources:
        assert (views.blocked_from(s) == fresh.blocked_from(s)).all()
    assert views.lines_worked - before <= len(sources) * len(small_hexes)


def test_zone_visibility_counts_pairs_and_seen_hexes() -> None:
    board = board_of({"1203": {"building": 1}})
    views = Viewsheds(board)
    seen = views.zones([parse_label("1201")], [parse_label("1202"), parse_label("1204"), parse_label("1301")])
    assert (seen.pairs, seen.visible_pairs) == (3, 2)
    assert parse_label("1204") not in seen.seen and seen.share_seen == pytest.approx(2 / 3)


# -- command line -------------------------------------------------------------------------------


def test_cli_los_json(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "m.yaml",
        "format: iron-cross-map/1\nname: T\ngrid: {columns: [10, 14], rows: [1, 9]}\n"
        'hexes:\n  "1203": {trees: 2}\n  "1204": {trees: 2}\n',
    )
    assert main(["los", str(path), "1201", "1206", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = {"from": "1201", "to": "1206", "blocked": True, "rule": "10.31 b", "blocking_hex": "1204", "range": 5}
    assert {k: data[k] for k in expected} == expected
    assert data["hexes"] == ["1202", "1203", "1204", "1205"] and data["trees_along"] == 4
    assert (data["marsh_along"], data["level_difference"]) == (0, 0)
    assert main(["los", str(path), "1201", "1206", "--afv", "1202", "--wreck", "1205", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["trees_along"] == 6


def test_cli_los_bad_input(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("m.yaml", "format: iron-cross-map/1\nname: T\ngrid: {columns: [10, 14], rows: [1, 9]}\n")
    assert main(["los", str(path), "1201", "9999"]) == 2
    assert "hex 9999 is not on" in capsys.readouterr().err
    assert main(["los", str(path) + ".missing", "1201", "1202"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_cli_viewshed_on_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.resources import bundled_scenarios

    s1 = next(p for p in bundled_scenarios() if p.name.startswith("s1"))
    assert main(["viewshed", str(s1), "4307", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["from"] == "4307" and 0 < data["visible_count"] < data["hexes"]
    assert "4308" in data["visible"]
