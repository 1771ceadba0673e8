"""Turns an unopposed NORMAL UP unit needs from each deployment or entry zone to each objective (24.4-24.9).

Infantry has 6 MPs a turn (8.11), an AFV 10 and the BT7M 12 (8.13). Entering units come on in
a hex of the zone on turn 1 and pay its terrain (R44); deployed units start there (0
turns if the zone holds an objective). None: never (an AFV may not enter a building hex).
The numbers rest on the reconstructed maps and the assumed chart rows; a change to either
shows up here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.geometry.movement import Mover, UnitClass, cheapest_path, entry_cost
from engine.geometry.turns import turns_needed
from engine.geometry.zones import ZoneContext, resolve, resolve_named
from engine.model.board import Board
from engine.model.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
MOVERS = {"infantry": Mover(UnitClass.INFANTRY), "afv": Mover(UnitClass.AFV), "bt7m": Mover(UnitClass.AFV, mp=12)}


def _buildings(*ids: int) -> dict[str, Any]:
    return {f"Building {i}": {"building": str(i)} for i in ids}


# The victory conditions' hexes, hills and buildings, in the order of the rows below.
OBJECTIVES: dict[str, dict[str, Any]] = {
    "s1-demyansk-pocket": {"4307": {"hexes": ["4307"]}, "4308": {"hexes": ["4308"]}},
    "s2-khristishche": _buildings(1, 2, 3, 4, 5, 6),
    "s3-closing-the-ring": {"Hill J": {"hill": "J"}, "Hill K": {"hill": "K"}},
    "s4-tula": {"south of the road": {"zone": "south-of-east-west-road"}} | _buildings(1, 2),
    "s5-through-the-marshes": {h: {"hexes": [h]} for h in ("5806", "6410", "6521", "6815")}
    | {f"Hill {x}": {"hill": x} for x in "MNOP"},
    "s6-spartakovka": _buildings(1, 3, 4, 2, 5, 6),
}

NEVER = None
# (scenario, zone, entering, unit): turns to each objective, in the order of OBJECTIVES.
EXPECTED: dict[tuple[str, str, bool, str], list[int | None]] = {
    ("s1-demyansk-pocket", "russian-entry", True, "infantry"): [2, 2],
    ("s1-demyansk-pocket", "german-deployment", False, "infantry"): [0, 0],
    ("s2-khristishche", "russian-entry", True, "infantry"): [2, 2, 2, 2, 3, 2],
    ("s2-khristishche", "german-south-buildings", False, "infantry"): [0, 2, 1, 0, 2, 0],
    ("s2-khristishche", "german-north-buildings", False, "infantry"): [2, 0, 0, 1, 0, 2],
    ("s3-closing-the-ring", "german-entry", True, "infantry"): [3, 2],
    ("s3-closing-the-ring", "german-entry", True, "afv"): [2, 1],
    ("s3-closing-the-ring", "german-late-entry-west", True, "infantry"): [2, 2],
    ("s3-closing-the-ring", "german-late-entry-east", True, "infantry"): [3, 2],
    ("s3-closing-the-ring", "russian-deployment", False, "infantry"): [0, 0],
    ("s4-tula", "russian-deployment", False, "infantry"): [0, 0, 0],
    ("s4-tula", "german-deployment", False, "infantry"): [0, 1, 1],
    ("s4-tula", "german-deployment", False, "afv"): [0, NEVER, NEVER],
    ("s5-through-the-marshes", "german-entry", True, "infantry"): [3, 2, 1, 2, 3, 3, 2, 3],
    ("s5-through-the-marshes", "german-entry", True, "afv"): [2, 1, 1, 1, 2, 2, 1, 2],
    ("s5-through-the-marshes", "german-turn-2-entry", True, "infantry"): [2, 2, 3, 3, 2, 2, 2, 3],
    ("s5-through-the-marshes", "german-turn-2-entry", True, "afv"): [1, 2, 2, 2, 1, 2, 2, 2],
    ("s5-through-the-marshes", "russian-deployment", False, "infantry"): [0, 0, 1, 0, 0, 0, 0, 0],
    ("s5-through-the-marshes", "russian-bt7m-deployment", False, "bt7m"): [1, 1, 1, 1, 1, 0, 1, 0],
    ("s5-through-the-marshes", "russian-t34a-entry", True, "afv"): [1, 1, 2, 1, 1, 1, 2, 1],
    ("s6-spartakovka", "german-group-1-deployment", False, "infantry"): [3, 2, 2, 3, 4, 3],
    ("s6-spartakovka", "german-group-1-special-entry", True, "infantry"): [4, 3, 3, 4, 5, 4],
    ("s6-spartakovka", "german-group-2-entry-north", True, "infantry"): [3, 4, 3, 4, 5, 2],
    ("s6-spartakovka", "german-group-2-entry-south", True, "infantry"): [4, 3, 3, 4, 5, 4],
    ("s6-spartakovka", "russian-group-4-entry-turn-9", True, "infantry"): [1, 2, 2, 2, 1, 3],
    ("s6-spartakovka", "russian-group-4-entry-turn-10", True, "infantry"): [2, 2, 2, 2, 1, 2],
} | {
    ("s6-spartakovka", zone, entering, "afv"): [NEVER] * 6
    for zone, entering in [
        ("german-group-1-deployment", False),
        ("german-group-1-special-entry", True),
        ("german-group-2-entry-north", True),
        ("german-group-2-entry-south", True),
        ("german-group-3-entry", True),
        ("russian-group-4-entry-turn-9", True),
        ("russian-group-4-entry-turn-10", True),
    ]
}


@cache
def scenario_board(name: str) -> tuple[Board, ZoneContext]:
    scenario = load_scenario(SCENARIOS / f"{name}.yaml")
    board = scenario.load_board()
    return board, scenario.zone_context(board)


@pytest.mark.parametrize(("key", "expected"), EXPECTED.items(), ids=lambda v: "-".join(map(str, v)) if v else "")
def test_turns_to_each_objective(key: tuple[str, str, bool, str], expected: list[int | None]) -> None:
    """24.1: units deploy, or enter in their Movement Phase; 8.1: one Movement Phase a turn."""
    name, zone, entering, unit = key
    board, ctx = scenario_board(name)
    sources = resolve_named(zone, ctx)
    found = [
        turns_needed(board, sources, resolve(objective, ctx), MOVERS[unit], entering=entering)
        for objective in OBJECTIVES[name].values()
    ]
    assert dict(zip(OBJECTIVES[name], found, strict=True)) == dict(zip(OBJECTIVES[name], expected, strict=True))


def test_by_hand_scenario_1_russian_infantry_reaches_4307_on_turn_2() -> None:
    """24.4: entering 'on the east mapedge north of hex 3014'. 3015 (Clear, 1) and 3014 (a road hex entered off
    the road, 1), then along the road at 1/2 (8.52) to 3810: 1 + 1 + 8 x 1/2 = 6, the whole of turn 1. Turn 2:
    3910, 4010, 4110 (1 1/2), 4209 (another road, 1), 4208, 4207 (1), into Building 23's hex 4307 (2): 5 1/2."""
    board, ctx = scenario_board("s1-demyansk-pocket")
    infantry = MOVERS["infantry"]
    path = cheapest_path(board, board.hex("3015"), board.hex("4307"), infantry)
    assert entry_cost(board, board.hex("3015"), infantry) == 1
    assert [board.label(h) for h in path.hexes][:3] == ["3015", "3014", "3114"]
    assert path.steps[:9] == (1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5) and sum(path.steps[9:]) == 5.5
    assert turns_needed(board, resolve_named("russian-entry", ctx), {board.hex("4307")}, infantry, entering=True) == 2


def test_by_hand_scenario_5_german_infantry_takes_bridge_6521_on_turn_1() -> None:
    """24.8: 'Enter all units on the south mapedge on turn 1'. 6527 (a road hex: 1, no road rate on entering),
    then up the road to the bridge 6521 at 1/2 a hex (8.52, chart note a): 1 + 6 x 1/2 = 4 of 6 MPs."""
    board, ctx = scenario_board("s5-through-the-marshes")
    infantry = MOVERS["infantry"]
    assert board.hex("6527") in resolve_named("german-entry", ctx)
    path = cheapest_path(board, board.hex("6527"), board.hex("6521"), infantry)
    assert entry_cost(board, board.hex("6527"), infantry) + path.cost == 4
    assert turns_needed(board, {board.hex("6527")}, {board.hex("6521")}, infantry, entering=True) == 1
