"""Every bundled file passes validation, every schema is sound, and the scenario zones mean the printed words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from engine.geometry.zones import resolve
from engine.hexgrid import hex_label, hex_to_offset
from engine.model.scenario import load_scenario
from engine.problems import Severity
from engine.resources import bundled_files
from engine.validate.runner import validate_paths

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = sorted((REPO / "schemas").glob("*.schema.json"))


@pytest.mark.parametrize("path", bundled_files(), ids=lambda p: p.name)
def test_bundled_file_has_no_errors_or_warnings(path: Path) -> None:
    problems = validate_paths([path])
    assert [p.text() for p in problems if p.severity is not Severity.INFO] == []


@pytest.mark.parametrize("path", SCHEMAS, ids=lambda p: p.name)
def test_schema_is_sound_and_versioned(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert re.fullmatch(r"https://iceditor\.example/schemas/[a-z]+/[0-9]+\.json", schema["$id"])
    assert schema.get("title") and schema.get("description")


def scenario(number: int):
    (path,) = (REPO / "scenarios").glob(f"s{number}-*.yaml")
    s = load_scenario(path)
    board = s.load_board()
    return s, board, s.zone_context(board)


def zone(number: int, name: str) -> set[str]:
    _, board, ctx = scenario(number)
    return {board.label(h) for h in resolve({"zone": name}, ctx)}


def test_s1_russian_entry_north_edge_or_east_edge_north_of_3014() -> None:
    """24.4: 'enter ... on the north mapedge or on the east mapedge north of hex 3014' (north: 5001->5002)."""
    hexes = zone(1, "russian-entry")
    north_edge = {f"{c}27" for c in range(30, 51)}
    east_edge_north_of_3014 = {f"30{r:02d}" for r in range(15, 28)}
    assert hexes == north_edge | east_edge_north_of_3014


def test_s1_objectives_are_german_deployment_hexes() -> None:
    """24.4: Germans deploy in building or tree hexes beside road 4001-5014 and must hold 4307 and 4308."""
    assert {"4307", "4308"} <= zone(1, "german-deployment")


def test_s3_russians_south_of_hexrow_06() -> None:
    """24.6: 'Deploy in any hex south of hexrow xx06' (north: 5002->5001, so south is rows 07-27)."""
    hexes = zone(3, next(n for n in scenario(3)[0].zones if "russian" in n and "deploy" in n))
    assert {int(h[2:]) for h in hexes} == set(range(7, 28))


def test_s4_sides_deploy_on_opposite_sides_of_the_road_network() -> None:
    """24.7: Russians north of the road network 1014-...-2613-2913-3014, Germans south of it."""
    _, board, ctx = scenario(4)
    russian = {board.label(h) for h in resolve({"zone": "russian-deployment"}, ctx)}
    german = {board.label(h) for h in resolve({"zone": "german-deployment"}, ctx)}
    network = {
        board.label(h)
        for h in board.road_path(["1014", "1315", "1608", "2108", "2106", "2608", "2613", "2913", "3014"])
    }
    assert not russian & german and not (russian | german) & network
    assert russian | german | network == {board.label(h) for h in board.hexes}
    assert "1027" in russian and "1001" in german  # north is toward row 27 (1026 -> 1027)


def test_s6_group_3_east_of_column_35_on_hill_j_and_map_1() -> None:
    """24.9: 'Map 2 east of hex column 35xx (exclusive), on Hill J, and anywhere on Map 1'."""
    s, board, _ = scenario(6)
    name = next(n for n in s.zones if "group-3" in n)
    hexes = zone(6, name)
    columns = {hex_to_offset(board.hex(h))[0] for h in hexes}
    assert set(range(10, 35)) <= columns and 35 not in columns - {hex_to_offset(h)[0] for h in board.hills()["J"]}
    assert {hex_label(h) for h in board.hills()["J"]} <= hexes
