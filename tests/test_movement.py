"""Movement: allowances (8.1), terrain costs (8.5), stacking (8.61), reach, paths and turns, on small maps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from engine.geometry.movement import (
    ONE_HEX,
    Morale,
    MovementError,
    MovementFactorNeeded,
    Mover,
    NoPathError,
    Phase,
    State,
    UnitClass,
    allowance,
    cheapest_path,
    entry_cost,
    movement_cost,
    movement_graph,
    reach,
)
from engine.geometry.turns import turns_needed, turns_searches
from engine.hexgrid import DIRECTIONS, are_adjacent, hex_distance, parse_label
from engine.model.board import Board, assemble
from engine.model.mapsheet import Grid, MapSheet, load_map
from engine.model.tables import terrain_effects
from engine.model.terrain import Terrain

INFANTRY, CW, AFV, FT = UnitClass.INFANTRY, UnitClass.CW, UnitClass.AFV, UnitClass.FT
UP, DOWN = State.UP, State.DOWN
NORMAL, PINNED, SUPPRESSED = Morale.NORMAL, Morale.PINNED, Morale.SUPPRESSED
MOVEMENT, REACTION = Phase.MOVEMENT, Phase.REACTION

Write = Callable[[str, str], Path]


def make_board(write: Write, body: str, grid: str = "{columns: [10, 14], rows: [1, 9]}") -> Board:
    path = write("map.yaml", f"format: iron-cross-map/1\nname: Movement test\ngrid: {grid}\n{body}")
    return assemble([load_map(path)])


def cost(board: Board, origin: str, target: str, mover: Mover) -> float | None:
    a, b = board.hex(origin), board.hex(target)
    assert are_adjacent(a, b)
    return movement_cost(board, a, b, mover)


def labels(board: Board, hexes) -> set[str]:
    return {board.label(h) for h in hexes}


# -- allowances --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit", "morale", "phase", "expected"),
    [
        (INFANTRY, NORMAL, MOVEMENT, 6),  # 8.11 'SIX MP's in the Movement Phase'
        (INFANTRY, NORMAL, REACTION, 3),  # 8.11 'THREE MP's in the Reaction Movement Phase'
        (INFANTRY, PINNED, MOVEMENT, 3),  # 8.11 'PINNED ... up to THREE MP's in the Movement Phase'
        (INFANTRY, PINNED, REACTION, ONE_HEX),  # 8.11 'ONE HEX, regardless of terrain costs'
        (INFANTRY, SUPPRESSED, MOVEMENT, 0),  # 8.15
        (INFANTRY, SUPPRESSED, REACTION, 0),
        (FT, NORMAL, MOVEMENT, 4),  # 8.14 'FOUR MP's in the Movement Phase'
        (FT, NORMAL, REACTION, 2),  # 8.14 'TWO MP's in the Reaction Movement Phase'
        (FT, PINNED, MOVEMENT, ONE_HEX),  # 8.14 'PINNED flamethrower units may move ONE HEX'
        (FT, PINNED, REACTION, 0),  # 8.14 'They may not move in the Reaction Movement Phase'
        (FT, SUPPRESSED, MOVEMENT, 0),
        (CW, NORMAL, REACTION, ONE_HEX),  # 8.12 'ONE HEX ... in the Reaction Movement Phase'
        (CW, PINNED, MOVEMENT, ONE_HEX),  # 8.12 'PINNED full strength CW units may move ONE HEX'
        (CW, PINNED, REACTION, 0),  # 8.12 'They may not move in the Reaction Movement Phase'
        (CW, SUPPRESSED, MOVEMENT, 0),
        (AFV, NORMAL, MOVEMENT, 10),  # 8.13 'TEN MP's in the Movement Phase'
        (AFV, NORMAL, REACTION, 5),  # 8.13 'FIVE MP's in the Reaction Movement Phase'
        (AFV, SUPPRESSED, MOVEMENT, 0),  # 8.15
        (AFV, SUPPRESSED, REACTION, 0),
    ],
)
def test_8_1_allowances(unit: UnitClass, morale: Morale, phase: Phase, expected: float | str) -> None:
    """Rules 8.11-8.15 and the Movement Point Allowance Chart; UP/DOWN does not change them (8.16)."""
    state = UP if morale is NORMAL else DOWN
    assert allowance(Mover(unit, state, morale, phase)) == expected
    if morale is NORMAL:
        assert allowance(Mover(unit, DOWN, morale, phase)) == expected


def test_8_12_cw_movement_phase_allowance_is_the_counters() -> None:
    """8.12: 'up to the number of MP's listed on their counters'; without it there is no answer."""
    assert allowance(Mover(CW, mp=4)) == 4
    with pytest.raises(MovementFactorNeeded, match=r"Movement Factor on its counter \(8\.12\)"):
        allowance(Mover(CW))


def test_8_12_cw_with_movement_allowance_zero_never_moves() -> None:
    """8.12 and chart note b: 'CW's with a movement allowance of "0" may never move' (R39)."""
    for morale, phase in [(NORMAL, MOVEMENT), (NORMAL, REACTION), (PINNED, MOVEMENT)]:
        state = UP if morale is NORMAL else DOWN
        assert allowance(Mover(CW, state, morale, phase, mp=0)) == 0


def test_8_13_bt7m_has_12_and_6() -> None:
    """8.13: 'The Russian BT7M AFV has TWELVE MP's in the Movement Phase and SIX MP's in the Reaction ...'.

    The MP value of an AFV picks its row of the chart (R40).
    """
    assert allowance(Mover(AFV, mp=12)) == 12
    assert allowance(Mover(AFV, phase=REACTION, mp=12)) == 6
    assert allowance(Mover(AFV, mp=10, phase=REACTION)) == 5
    with pytest.raises(MovementError, match=r"no AFV has 7 MPs .*8\.13: 10, 12"):
        allowance(Mover(AFV, mp=7))


def test_8_13_afvs_are_never_pinned() -> None:
    """8.13: 'AFV's are never PINNED, therefore they have no Movement Allowance for that morale state.'"""
    with pytest.raises(MovementError, match=r"never PINNED.*8\.13"):
        Mover(AFV, DOWN, PINNED)


def test_3_26_pinned_and_suppressed_units_are_down() -> None:
    """3.25, 3.26: PINNED and SUPPRESSED units go DOWN and stay DOWN (R37)."""
    for morale in (PINNED, SUPPRESSED):
        with pytest.raises(MovementError, match=r"DOWN state \(3\.25, 3\.26\)"):
            Mover(INFANTRY, UP, morale)


def test_8_11_infantry_allowance_is_not_overridden() -> None:
    """8.11, 8.14: infantry and FT allowances are fixed by the chart; an MP value belongs to CWs and AFVs."""
    for unit in (INFANTRY, FT):
        with pytest.raises(MovementError, match="an MP value is for CWs and AFVs"):
            Mover(unit, mp=4)


# -- terrain costs -----------------------------------------------------------------------

TERRAIN = """\
hexes:
  "1102": {trees: 2}
  "1103": {trees: 1}
  "1104": {building: 1}
  "1201": {marsh: true}
  "1202": {gully: true}
  "1203": {trees: 3, marsh: true}
  "1204": {building: 2, trees: 2}
"""


@pytest.mark.parametrize("unit", [INFANTRY, CW, FT, AFV])
@pytest.mark.parametrize("state", [UP, DOWN])
def test_8_5_cost_is_the_row_of_the_dominant_terrain(write, unit: UnitClass, state: State) -> None:
    """8.5, 8.51: the chart's column for the unit type (INF & CW, or AFV) and its UP/DOWN state (R33).

    A hex with several terrains costs as its dominant one: building, woods, marsh, gully, clear.
    """
    board = make_board(write, TERRAIN)
    rows = terrain_effects().rows
    afv = unit is AFV
    mover = Mover(unit, state, mp=4 if unit is CW else None)
    expected = {
        "1102": "woods",
        "1103": "clear",  # one Tree is not a tree hex (8.54, errata)
        "1104": "building",
        "1201": "marsh",
        "1202": "gully",
        "1203": "woods",
        "1204": "building",
    }
    origins = {"1102": "1101", "1103": "1104", "1104": "1105", "1201": "1101", "1202": "1203", "1203": "1303"}
    for target, row in expected.items():
        origin = origins.get(target, "1205")
        assert cost(board, origin, target, mover) == rows[row].move_cost(afv, state is UP), target


def test_chart_printed_rows(write) -> None:
    """Movement and Combat Effects Chart, printed rows: Clear 1/2/1/2, Gully 2/3/5/7 (INF & CW UP/DOWN, AFV UP/DOWN)."""
    board = make_board(write, 'hexes:\n  "1202": {gully: true}\n')
    printed = {("1201", INFANTRY, UP): 1, ("1201", INFANTRY, DOWN): 2, ("1201", AFV, UP): 1, ("1201", AFV, DOWN): 2}
    printed |= {("1202", INFANTRY, UP): 2, ("1202", INFANTRY, DOWN): 3, ("1202", AFV, UP): 5, ("1202", AFV, DOWN): 7}
    for (target, unit, state), mp in printed.items():
        assert cost(board, "1102", target, Mover(unit, state)) == mp


def test_building_prohibited_to_afvs(write) -> None:
    """Chart legend 'P: The hex is prohibited to that unit type' (the Building row for AFVs, assumed)."""
    board = make_board(write, 'hexes:\n  "1102": {building: 1}\n')
    assert cost(board, "1101", "1102", Mover(AFV)) is None
    assert cost(board, "1101", "1102", Mover(INFANTRY)) is not None
    assert board.hex("1102") not in reach(board, board.hex("1101"), Mover(AFV)).costs
    assert board.hex("1102") in reach(board, board.hex("1101"), Mover(INFANTRY)).costs


ROADS = """\
hexes:
  "1102": {gully: true}
  "1103": {gully: true}
roads:
  - ["1001", "1002", "1003", "1004"]
  - ["1101", "1102", "1202"]
bridges: ["1102"]
"""


def test_8_52_half_mp_along_the_road(write) -> None:
    """8.52: 'only 1/2 MP per hex ... when moving from one road hex to another road hex along the road'."""
    board = make_board(write, ROADS)
    for unit in (INFANTRY, CW, FT, AFV):
        assert cost(board, "1002", "1003", Mover(unit, mp=4 if unit is CW else None)) == 0.5


def test_8_52_no_road_rate_across_the_road(write) -> None:
    """8.52: road to road hex but not along the road (two roads side by side), or onto a road from off it: clear."""
    board = make_board(write, ROADS)
    assert cost(board, "1202", "1203", Mover(INFANTRY)) == 1  # off the road
    assert cost(board, "1001", "1101", Mover(INFANTRY)) == 1  # both road hexes, different roads
    assert cost(board, "1104", "1004", Mover(AFV)) == 1


def test_8_52_down_units_pay_the_road_row(write) -> None:
    """8.52: 'Only NORMAL status units in an UP state may use this road movement rate' (R34)."""
    board = make_board(write, ROADS)
    assert cost(board, "1002", "1003", Mover(INFANTRY, DOWN)) == 2
    assert cost(board, "1002", "1003", Mover(AFV, DOWN)) == 2


def test_8_52_pinned_units_do_not_use_the_road_rate(write) -> None:
    """8.52 with 3.25: a PINNED unit is DOWN, so it pays 2 MPs along the road, not 1/2."""
    board = make_board(write, ROADS)
    pinned = Mover(INFANTRY, DOWN, PINNED)
    assert cost(board, "1002", "1003", pinned) == 2
    assert reach(board, board.hex("1001"), pinned).costs[board.hex("1002")] == 2


def test_8_52_along_the_road_the_other_terrain_does_not_count_but_p_stands(write) -> None:
    """8.52: '1/2 MP per hex, regardless of the terrain, when moving ... along the road': the rate, not
    an opening. A street through a building stays 'P' (prohibited) to AFVs along it, as off it;
    infantry pays the road rate there (R34)."""
    board = make_board(write, 'hexes:\n  "1002": {building: 1}\nroads:\n  - ["1001", "1002", "1003"]\n')
    assert cost(board, "1001", "1002", Mover(AFV)) is None
    assert cost(board, "1001", "1002", Mover(AFV, DOWN)) is None
    assert cost(board, "1102", "1002", Mover(AFV)) is None
    assert cost(board, "1001", "1002", Mover(INFANTRY)) == 0.5
    assert cost(board, "1001", "1002", Mover(INFANTRY, DOWN)) == 2  # Road row, DOWN


def test_note_a_bridge_is_a_road_hex_along_the_road_and_off_it(write) -> None:
    """Chart note a: 'A Bridge hex is a Road hex that crosses a Gully and is treated as a Road hex':
    along the road the road rate or the Bridge row; entered off the road it costs as a Road hex
    entered off the road, its other terrain (Clear here), not the Gully row (R34)."""
    board = make_board(write, ROADS)
    assert cost(board, "1101", "1102", Mover(AFV)) == 0.5  # along the road
    assert cost(board, "1101", "1102", Mover(AFV, DOWN)) == 2  # Bridge row, DOWN
    assert cost(board, "1103", "1102", Mover(AFV)) == 1  # off the road: Clear, not the gully's 5
    assert cost(board, "1002", "1102", Mover(INFANTRY)) == 1
    assert cost(board, "1102", "1103", Mover(AFV)) == 5  # the gully beside it is still a gully
    assert entry_cost(board, board.hex("1102"), Mover(AFV)) == 1


HILL = """\
hexes:
  "1102": {level: 1, hill: K}
  "1103": {level: 1, hill: K}
  "1202": {level: 2, hill: K}
  "1203": {level: 1, upper_level: 2, hill: K}
  "1204": {level: 2, hill: K, trees: 2}
  "1301": {level: 2, hill: L}
roads:
  - ["1101", "1102", "1103"]
"""


def test_8_53_one_more_mp_uphill(write) -> None:
    """8.53: 'from a non-Hill hex to a Level 1 Hill, or from a Level 1 Hill hex to a Level 2 Hill hex', +1 MP."""
    board = make_board(write, HILL)
    infantry = Mover(INFANTRY)
    assert cost(board, "1002", "1102", infantry) == 2  # level 0 -> 1: 1 + 1
    assert cost(board, "1103", "1202", infantry) == 2  # level 1 -> 2: 1 + 1
    assert cost(board, "1102", "1103", Mover(INFANTRY, DOWN)) == 2  # level 1 -> 1: no climb
    assert cost(board, "1202", "1102", infantry) == 1  # 'applies only if the unit is moving uphill'
    assert cost(board, "1002", "1102", Mover(AFV, DOWN)) == 3


def test_8_53_uphill_counts_on_other_terrain(write) -> None:
    """8.53: 'in addition to all other costs for entering the hex': woods on a level 2 hill from level 1."""
    board = make_board(write, HILL)
    woods = terrain_effects().row("woods").move_cost(False, True)
    assert woods is not None
    assert cost(board, "1203", "1204", Mover(INFANTRY)) == woods + 1


def test_8_53_uphill_also_on_the_road_rate(write) -> None:
    """8.53 'in addition to all other costs' and 8.52 1/2 MP: 1 1/2 MP up the road (R35)."""
    board = make_board(write, HILL)
    assert cost(board, "1101", "1102", Mover(INFANTRY)) == 1.5


def test_10_34_crest_hex_counts_as_the_lower_level(write) -> None:
    """Chart note f: 'A hex that contains both Level 1 Hill and Level 2 Hill terrain is treated as a Level 1 Hill
    hex' (10.34)."""
    board = make_board(write, HILL)
    assert cost(board, "1103", "1203", Mover(INFANTRY)) == 1  # 1 -> "1 and 2": no climb
    assert cost(board, "1203", "1202", Mover(INFANTRY)) == 2  # from it to level 2: a climb


def test_8_53_two_levels_at_once_cost_one_mp_each(write) -> None:
    """8.53 names one-level climbs; a level 0 -> level 2 step pays one MP per level (R36)."""
    board = make_board(write, HILL)
    assert cost(board, "1201", "1301", Mover(INFANTRY)) == 3


# -- stacking ----------------------------------------------------------------------------

OPEN = "hexes: {}\n"


def test_8_61_afv_may_not_enter_a_hex_with_an_afv_or_a_wreck(write) -> None:
    """8.61: 'AFV units may not enter a hex containing another AFV unit'; 12.4: '... containing a Wreck marker'."""
    board = make_board(write, OPEN, grid="{columns: [10, 10], rows: [1, 5]}")
    start, afv, wreck = board.hex("1001"), board.hex("1003"), board.hex("1002")
    assert board.hex("1003") not in reach(board, start, Mover(AFV), afvs={afv}).costs
    assert set(reach(board, start, Mover(AFV), wrecks={wreck}).costs) == {start}
    with pytest.raises(NoPathError):
        cheapest_path(board, start, board.hex("1005"), Mover(AFV), afvs={afv})
    # its own hex is not "another AFV"
    assert board.hex("1002") in reach(board, start, Mover(AFV), afvs={start}).costs


def test_8_61_infantry_moves_through_units_and_wrecks(write) -> None:
    """8.61: 'CW and infantry units may move through other friendly units without penalty'.

    8.23: 'Wrecked AFV's do not count as enemy units', so they may enter a Wreck's hex too.
    """
    board = make_board(write, OPEN, grid="{columns: [10, 10], rows: [1, 5]}")
    occupied = {board.hex("1002"), board.hex("1003")}
    for unit in (INFANTRY, FT, CW):
        mover = Mover(unit, mp=5 if unit is CW else None)
        path = cheapest_path(board, board.hex("1001"), board.hex("1005"), mover, afvs=occupied, wrecks=occupied)
        assert path.cost == 4


# -- reach -------------------------------------------------------------------------------


def test_reach_normal_infantry_six_clear_hexes(write) -> None:
    """8.11: six MPs, Clear costs 1 UP: every hex within 6 of the start, each at its distance."""
    board = make_board(write, OPEN, grid="{columns: [10, 30], rows: [1, 20]}")
    start = board.hex("2010")
    result = reach(board, start, Mover(INFANTRY))
    assert result.allowance == 6
    assert result.costs == {h: float(hex_distance(start, h)) for h in board.hexes if hex_distance(start, h) <= 6}


def test_reach_down_and_reaction(write) -> None:
    """8.51: DOWN costs 2 per Clear hex; 8.11: 3 MPs in the Reaction Movement Phase."""
    board = make_board(write, OPEN, grid="{columns: [10, 10], rows: [1, 9]}")
    start = board.hex("1001")
    assert labels(board, reach(board, start, Mover(INFANTRY, DOWN)).costs) == {"1001", "1002", "1003", "1004"}
    assert max(reach(board, start, Mover(INFANTRY, phase=REACTION)).costs.values()) == 3
    assert max(reach(board, start, Mover(FT)).costs.values()) == 4  # 8.14


def test_reach_halves_on_the_road(write) -> None:
    """8.52: twelve road hexes for six MPs."""
    road = ", ".join(f'"10{r:02d}"' for r in range(1, 20))
    board = make_board(write, f"roads:\n  - [{road}]\n", grid="{columns: [10, 10], rows: [1, 19]}")
    costs = reach(board, board.hex("1001"), Mover(INFANTRY)).costs
    assert max(costs) == board.hex("1013") and costs[board.hex("1013")] == 6
    assert costs[board.hex("1004")] == 1.5


def test_reach_bt7m_goes_further(write) -> None:
    """8.13: 12 MPs for the BT7M against 10, and 6 against 5 in the Reaction Movement Phase."""
    board = make_board(write, OPEN, grid="{columns: [10, 10], rows: [1, 15]}")
    start = board.hex("1001")
    assert max(reach(board, start, Mover(AFV)).costs.values()) == 10
    assert max(reach(board, start, Mover(AFV, mp=12)).costs.values()) == 12
    assert max(reach(board, start, Mover(AFV, phase=REACTION, mp=12)).costs.values()) == 6


def test_one_hex_regardless_of_terrain_costs(write) -> None:
    """8.11, 8.12, 8.14: 'ONE HEX, regardless of terrain costs': every adjacent hex, even a Marsh (R38)."""
    board = make_board(write, 'hexes:\n  "1102": {marsh: true}\n  "1202": {gully: true, level: 1}\n')
    start = board.hex("1103")
    pinned_reaction = Mover(INFANTRY, DOWN, PINNED, REACTION)
    for mover in (pinned_reaction, Mover(CW, phase=REACTION), Mover(CW, DOWN, PINNED), Mover(FT, DOWN, PINNED)):
        result = reach(board, start, mover)
        assert result.allowance == ONE_HEX
        assert labels(board, result.costs) == {"1103", "1102", "1202", "1203", "1104", "1003", "1002"}
    # the costs say what the terrain would charge: a DOWN unit into a level 1 gully
    gully = terrain_effects().row("gully").move_cost(False, False)
    assert gully is not None
    assert reach(board, start, pinned_reaction).costs[board.hex("1202")] == gully + 1


def test_8_15_suppressed_units_stay(write) -> None:
    """8.15: 'Suppressed units of any type may not move.'"""
    board = make_board(write, OPEN)
    start = board.hex("1203")
    for unit in (INFANTRY, CW, AFV, FT):
        assert reach(board, start, Mover(unit, DOWN, SUPPRESSED)).costs == {start: 0}


def test_reach_lists_where_an_afv_may_bog_down(write) -> None:
    """8.54, 8.55: an AFV entering a Woods or Marsh hex rolls for immobilization; not a cost (R43)."""
    board = make_board(write, 'hexes:\n  "1102": {trees: 2}\n  "1103": {marsh: true}\n  "1104": {trees: 1}\n')
    afv = reach(board, board.hex("1101"), Mover(AFV))
    assert labels(board, afv.immobilization) == {"1102", "1103"}
    assert reach(board, board.hex("1101"), Mover(INFANTRY)).immobilization == frozenset()


# -- paths -------------------------------------------------------------------------------


def test_cheapest_path_goes_round_the_woods(write) -> None:
    """8.5: the cheapest route, not the shortest: around a Woods hex rather than through it (costs per step)."""
    board = make_board(write, 'hexes:\n  "1103": {trees: 4}\n', grid="{columns: [10, 12], rows: [1, 5]}")
    path = cheapest_path(board, board.hex("1102"), board.hex("1104"), Mover(AFV))
    assert path.cost == 3 and path.steps == (1, 1, 1)
    assert board.hex("1103") not in path.hexes
    assert cheapest_path(board, board.hex("1102"), board.hex("1102"), Mover(AFV)).hexes == (board.hex("1102"),)


def test_cheapest_path_none_for_an_afv_walled_in(write) -> None:
    """Legend 'P': an AFV in a pocket of buildings has nowhere to go."""
    walls = "".join(f'  "{h}": {{building: 1}}\n' for h in ("1201", "1302", "1303", "1203", "1103", "1102"))
    board = make_board(write, "hexes:\n" + walls)
    with pytest.raises(NoPathError, match="no legal path"):
        cheapest_path(board, board.hex("1202"), board.hex("1405"), Mover(AFV))


# -- turns -------------------------------------------------------------------------------

LINE = "hexes: {}\n"


def test_turns_needed_deployed_and_entering(write) -> None:
    """24.1: units deploy or enter in the Movement Phase; 8.11: six MPs a turn (R44)."""
    board = make_board(write, LINE, grid="{columns: [10, 10], rows: [1, 20]}")
    h = board.hex
    infantry = Mover(INFANTRY)
    assert turns_needed(board, {h("1001")}, {h("1001")}, infantry) == 0  # deployed there
    assert turns_needed(board, {h("1001")}, {h("1007")}, infantry) == 1  # 6 MPs
    assert turns_needed(board, {h("1001")}, {h("1008")}, infantry) == 2
    assert turns_needed(board, {h("1001")}, {h("1001")}, infantry, entering=True) == 1
    assert turns_needed(board, {h("1001")}, {h("1006")}, infantry, entering=True) == 1  # 1 to enter + 5
    assert turns_needed(board, {h("1001")}, {h("1007")}, infantry, entering=True) == 2
    assert turns_needed(board, {h("1001"), h("1015")}, {h("1020")}, infantry) == 1  # from the nearest source


def test_turns_needed_unused_mps_are_lost(write) -> None:
    """8.13, chart Gully row (AFV DOWN 7): 7 + 7 does not fit in 10 MPs.

    Two gullies and three Clear hexes cost 20 MPs, two turns' worth, but take 3 turns.
    """
    body = 'hexes:\n  "1002": {gully: true}\n  "1003": {gully: true}\n'
    board = make_board(write, body, grid="{columns: [10, 10], rows: [1, 6]}")
    afv = Mover(AFV, DOWN)
    assert cheapest_path(board, board.hex("1001"), board.hex("1006"), afv).cost == 20  # 2 turns' MPs
    assert turns_needed(board, {board.hex("1001")}, {board.hex("1006")}, afv) == 3


def test_turns_needed_never(write) -> None:
    """8.15: a SUPPRESSED unit never gets there; legend 'P': an AFV never enters a building."""
    board = make_board(write, 'hexes:\n  "1003": {building: 1}\n', grid="{columns: [10, 10], rows: [1, 5]}")
    h = board.hex
    assert turns_needed(board, {h("1001")}, {h("1002")}, Mover(INFANTRY, DOWN, SUPPRESSED)) is None
    assert turns_needed(board, {h("1001")}, {h("1005")}, Mover(AFV)) is None
    assert turns_needed(board, {h("1003")}, {h("1005")}, Mover(AFV), entering=True) is None
    assert turns_needed(board, {h("1003")}, {h("1003")}, Mover(AFV)) is None  # no AFV stands in a building


def test_turns_needed_uses_the_movement_phase_allowance(write) -> None:
    """8.11: each turn has a Movement Phase of 6 MPs, whatever phase the mover was given."""
    board = make_board(write, LINE, grid="{columns: [10, 10], rows: [1, 20]}")
    reaction = Mover(INFANTRY, phase=REACTION)
    assert turns_needed(board, {board.hex("1001")}, {board.hex("1007")}, reaction) == 1


def test_turns_needed_no_minimum_move(write) -> None:
    """8.12: a CW with 3 MPs never enters a hex that costs 4 (a DOWN CW into a level 1 Gully: 3 + 1) (R41)."""
    board = make_board(write, 'hexes:\n  "1002": {gully: true, level: 1}\n', grid="{columns: [10, 10], rows: [1, 3]}")
    cw = Mover(CW, DOWN, mp=3)
    assert cost(board, "1001", "1002", cw) == 4
    assert turns_needed(board, {board.hex("1001")}, {board.hex("1003")}, cw) is None
    assert turns_needed(board, {board.hex("1001")}, {board.hex("1003")}, Mover(CW, DOWN, mp=4)) == 2


def test_turns_needed_one_hex_a_turn(write) -> None:
    """8.12: a PINNED CW moves one hex in the Movement Phase, whatever it costs."""
    board = make_board(write, 'hexes:\n  "1002": {marsh: true}\n', grid="{columns: [10, 10], rows: [1, 5]}")
    h = board.hex
    assert turns_needed(board, {h("1001")}, {h("1005")}, Mover(CW, DOWN, PINNED)) == 4
    assert turns_needed(board, {h("1001")}, {h("1003")}, Mover(CW, DOWN, PINNED), entering=True) == 3


def test_entry_cost_is_the_hex_own_terrain(write) -> None:
    """24.1 entry: the first hex costs its own row; no road rate (no road hex before it) and no climb (R44)."""
    board = make_board(write, HILL)
    assert entry_cost(board, board.hex("1101"), Mover(INFANTRY)) == 1  # a road hex
    assert entry_cost(board, board.hex("1202"), Mover(INFANTRY)) == 1  # a level 2 hill hex
    assert entry_cost(board, board.hex("1204"), Mover(AFV)) == terrain_effects().row("woods").move_cost(True, True)


def test_8_74_an_afv_moves_through_its_frontal_hexside_and_pays_for_extra_hexsides(write) -> None:
    """8.74: 'An AFV must maintain its current facing when moving from hex to hex. After it moves into
    EACH new hex it may freely change its facing ONE hexside left or right. It may then turn
    additional hexsides at a cost of 1 MP per hexside'; 8.75: the same before it leaves its hex (R42).
    From 1203 facing 1202 (north), 1201 is straight ahead: 2 MP. 1404 lies two hexsides round: one
    hexside is free, the second costs 1 MP, 3 in all, 1 more than the same move facing that way.
    1205, straight behind, needs three hexsides: 2 MP of turning, 4 in all."""
    board = make_board(write, OPEN)
    start = board.hex("1203")
    north = Mover(AFV, facing=0)
    ahead = cheapest_path(board, start, board.hex("1201"), north)
    assert (ahead.cost, ahead.turns) == (2, (0, 0))
    round_two = cheapest_path(board, start, board.hex("1404"), north)
    facing_it = cheapest_path(board, start, board.hex("1404"), Mover(AFV, facing=2))
    assert (round_two.cost, facing_it.cost) == (3, 2)
    behind = cheapest_path(board, start, board.hex("1205"), north)
    assert behind.cost == 4 and sum(behind.turns) >= 3
    assert cheapest_path(board, start, board.hex("1205"), Mover(AFV)).cost == 2  # best facing: facing south
    assert reach(board, start, north).costs[board.hex("1205")] == 4
    assert reach(board, start, Mover(AFV, facing=3)).costs[board.hex("1205")] == 2


def test_8_74_turning_is_counted_in_turns_needed(write) -> None:
    """An AFV of 10 MPs needs a second Movement Phase when its turning takes it over the allowance:
    facing away from a hex 9 hexes ahead, it pays 2 MP to turn round first (8.74, R42)."""
    board = make_board(write, OPEN, grid="{columns: [10, 10], rows: [1, 12]}")
    start, goal = board.hex("1001"), {board.hex("1010")}
    assert turns_needed(board, [start], goal, Mover(AFV, facing=3)) == 1  # facing 1002: straight on
    assert turns_needed(board, [start], goal, Mover(AFV, facing=0)) == 2  # 2 + 9 = 11 MP
    assert turns_needed(board, [start], goal, Mover(AFV)) == 1  # deployed: the facing is the player's


def test_8_75_a_turn_over_two_phases_has_a_free_hexside_in_each() -> None:
    """8.74: 'After it moves into EACH new hex it may freely change its facing ONE hexside'; 8.75:
    'AFV's that wish to change facing without leaving the hex must still ... pay the MP costs for
    each hexside after the first one.' Woods everywhere (3 MP off the road) and a road of 20 hexes
    south from 1001 to 1021, then 20 hexes north-east: the AFV (10 MP, facing south) spends its
    first phase reaching the bend, turns one hexside there free, and one more free in the next
    phase before it leaves the hex (R42), so the next 20 road hexes (10 MP) fit in that phase: 2
    turns. Paying the second hexside (1 MP) would leave 9 MP: 3 turns. Cutting the bend costs the
    woods' 3 MP."""
    grid = Grid((10, 31), (1, 22))
    road = [parse_label("1001")]
    for direction in [3] * 20 + [1] * 20:
        road.append(road[-1] + DIRECTIONS[direction])
    board = assemble([MapSheet("bend", grid, dict.fromkeys(grid.hexes(), Terrain(trees=3)), [road], [])])
    south = Mover(AFV, facing=3)
    assert turns_needed(board, [road[0]], {road[-1]}, south) == 2
    path = cheapest_path(board, road[0], road[-1], south)
    assert (path.cost, path.hexes) == (21, tuple(road))  # 10 + 1 for the turn + 10, within one phase's reckoning


def test_8_74_only_an_afv_has_a_facing_for_movement() -> None:
    with pytest.raises(MovementError, match=r"8\.74"):
        Mover(INFANTRY, facing=0)
    with pytest.raises(MovementError, match="hexsides"):
        Mover(AFV, facing=6)


@pytest.mark.parametrize("unit_class", [UnitClass.INFANTRY, UnitClass.FT])
@pytest.mark.parametrize("state", [State.UP, State.DOWN])
def test_reach_costs_are_networkx_dijkstra_costs(unit_class: UnitClass, state: State) -> None:
    """`reach` searches the plain costs itself (no networkx to import): the same hexes and MPs as
    networkx's Dijkstra on the movement graph, on all three maps with the errata."""
    import random

    import networkx as nx

    from engine.model.board import load_board

    board = load_board(["map1", "map2", "map3"])
    mover = Mover(unit_class, state)
    rng = random.Random(f"{unit_class}{state}")
    for start in rng.sample(sorted(board.hexes), 25):
        found = reach(board, start, mover)
        if found.allowance == ONE_HEX:
            continue
        graph = movement_graph(board, mover)
        expected = nx.single_source_dijkstra_path_length(graph, start, cutoff=found.allowance, weight="cost")
        assert found.costs == dict(sorted(expected.items()))


def test_a_turn_search_learns_of_a_cheaper_way_off_its_path() -> None:
    """8.5: woods cost infantry 2 MPs (tables/terrain-effects.yaml), clear 1; 8.11: 6 MPs a phase.
    Two columns of woods, 1001 to 1012: 4 turns down column 10. Clearing column 11, off that path,
    opens a way of 3 turns: the kept search's labels follow the edit and tell it may change."""
    grid = Grid((10, 11), (1, 12))
    board = assemble([MapSheet("strip", grid, dict.fromkeys(grid.hexes(), Terrain(trees=3)), [], [])])
    start, goal, infantry = parse_label("1001"), parse_label("1012"), Mover(INFANTRY)
    (search,) = turns_searches(board, {start}, [{goal}], infantry)
    assert search.turns == 4
    stroke = {h: Terrain() for h in grid.hexes() if h not in {h for h, _ in search.way}}
    assert stroke and {board.label(h)[:2] for h in stroke} == {"11"}
    board.set_terrain(stroke)
    assert search.may_change(stroke, search.labels.follow(stroke))
    assert turns_needed(board, {start}, {goal}, infantry) == 3


def test_a_turn_search_keeps_its_answer_while_its_way_takes_as_many_turns() -> None:
    """8.5: woods cost infantry 2 MPs, clear 1; 8.11: 6 MPs a phase, unused MPs lost (8.13).
    Woods from 1001 to 1012: 11 steps of 2 MPs, 3 a phase, 4 turns. Clearing a hex of the way
    (5 MPs a phase then, still 3 steps) leaves it 4 turns: the answer is kept, not searched
    again. Marsh (3 MPs, assumed) in 1004, 1007 and 1010 makes it 5 turns: the answer may change."""
    grid = Grid((10, 10), (1, 12))
    board = assemble([MapSheet("strip", grid, dict.fromkeys(grid.hexes(), Terrain(trees=3)), [], [])])
    start, goal, infantry = parse_label("1001"), parse_label("1012"), Mover(INFANTRY)
    (search,) = turns_searches(board, {start}, [{goal}], infantry)
    assert search.turns == 4 and [board.label(h) for h, _ in search.way] == [f"10{r:02}" for r in range(1, 13)]
    cleared = {parse_label("1005"): Terrain()}
    board.set_terrain(cleared)
    assert not search.may_change(cleared, search.labels.follow(cleared))
    assert turns_needed(board, {start}, {goal}, infantry) == 4
    marsh = {parse_label(label): Terrain(marsh=True) for label in ("1004", "1007", "1010")}
    board.set_terrain(marsh)
    assert search.may_change(marsh, search.labels.follow(marsh))
    assert turns_needed(board, {start}, {goal}, infantry) == 5
