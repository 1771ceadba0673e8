"""Each validation check: a minimal broken input and the exact problem it must produce."""

from __future__ import annotations

from pathlib import Path

from engine.validate.runner import validate_paths

from .test_board import WEST

REPO = Path(__file__).resolve().parent.parent
S1 = (REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")

EAST = WEST.replace("name: West", "name: East").replace("[10, 14]", "[14, 18]").replace("{trees: 2}", "{trees: 3}")

SCENARIO = """\
format: iron-cross-scenario/1
number: 9
title: Seam test
background: "A test."
maps: [west, east]
errata: false
north: {hex: "1002", toward: "1001"}
game_length: 3
sets_up_first: german
moves_first: russian
zones:
  nowhere:
    area: {all_of: [{terrain: marsh}, {map_edge: north}]}
sides:
  german:
    groups:
      - name: main
        units:
          - {squad: E, count: 3, only: ["MP PR10", "R PR8"]}
          - {commander: PL}
    deployment:
      - {group: main, zone: nowhere}
  russian:
    groups:
      - name: main
        units:
          - {commander: PL}
    entries:
      - group: main
        options:
          - {zone: {map_edge: south}, turn: 1}
victory:
  results:
    - winner: german
      when: {no_units_in: {side: russian, zone: {map_edge: north}}}
  otherwise: draw
"""


def codes(problems) -> set[tuple[str, int | None]]:
    return {(p.code, p.line) for p in problems}


def test_seam_conflict_empty_zone_count_and_ambiguous_commander(write) -> None:
    write("west.yaml", WEST)
    write("east.yaml", EAST)
    path = write("seam.yaml", SCENARIO)
    problems = validate_paths([path])
    found = {(p.code, p.file.rsplit("/", 1)[-1] if p.file else None, p.line) for p in problems}
    assert ("seam-conflict", "east.yaml", 5) in found  # 1403: 3 trees on East, 2 on West
    assert [p.line for p in problems if p.code == "zone-empty"] == [13]  # no marsh on the north edge
    assert ("squad-clause", "seam.yaml", 19) in found  # "3 units" but the clause keeps 2
    assert ("unknown-unit", "seam.yaml", 27) in found  # two Russian PLs: say which PR
    messages = {p.code: p.message for p in problems}
    assert messages["zone-empty"] == "zone 'nowhere' resolves to no hex"
    assert "fields 2 units, the scenario says 3" in messages["squad-clause"]
    assert "say which PR" in messages["unknown-unit"]
    assert "seam hex 1403 differs from West" in messages["seam-conflict"]


def test_only_clause_naming_a_missing_member(write) -> None:
    text = S1.replace("{squad: C, ammo: 10}", '{squad: C, ammo: 10, only: ["FT PR9"]}')
    problems = validate_paths([write("scenarios/s1.yaml", text)])
    (problem,) = [p for p in problems if p.code == "squad-clause"]
    assert "German Squad C has no FT PR9 left to keep" in problem.message and problem.rule == "24.1"


def test_less_clause_removes_one_unit_per_entry(write) -> None:
    """24.1 example: 'Squad D less R PR9' removes one of the Rifle PR9s; a third R PR9 is too many."""
    text = S1.replace('{squad: C, ammo: 8, less: ["R PR9"]}', '{squad: D, ammo: 8, less: ["R PR9", "R PR9", "R PR9"]}')
    problems = validate_paths([write("scenarios/s1.yaml", text)])
    flagged = [p for p in problems if p.code == "squad-clause"]
    assert len(flagged) == 1 and "Russian Squad D has no R PR9 left to remove" in flagged[0].message


def test_road_through_gully_without_bridge(write) -> None:
    text = WEST.replace('["1002", "1102", "1202", "1302", "1402"]', '["1001", "1101", "1201"]')
    text = text.replace('"1403": {trees: 2}', '"1403": {trees: 2}\n  "1101": {gully: true}')
    problems = validate_paths([write("m.yaml", text)])
    assert [(p.code, p.hex, p.message) for p in problems if p.code == "bridge-placement"] == [
        ("bridge-placement", "1101", "road crosses gully hex 1101 without a bridge")
    ]
