"""Map and order-of-battle checks: for each, a minimal broken input and the exact problem it must
produce (code, rule, line, hex), and a passing case; the printed fixtures report their misprints."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.problems import Problem, Severity
from engine.validate.runner import validate_paths

REPO = Path(__file__).resolve().parent.parent
PRINTED = REPO / "tests" / "fixtures" / "printed"

MAP_CODES = {"building-split", "hill-split", "level-jump", "terrain-impossible"}
OOB_CODES = {"unit-twice", "ammo-not-allowed", "deployed-not-fielded", "unknown-group", "unit-not-placed"}

# A 5 x 9 map (even-q): 1204's neighbours are 1104, 1105, 1203, 1205, 1304, 1305.
MAP = """\
format: iron-cross-map/1
name: Tiny
grid: {columns: [10, 14], rows: [1, 9]}
hexes:
  "1203": {building: 7}
  "1204": {building: 7}
  "1104": {level: 1, hill: K}
  "1105": {level: 1, hill: K}
  "1205": {level: 1, hill: K}
  "1304": {level: 1, hill: K}
  "1305": {level: 1, hill: K}
  "1206": {level: 1, hill: K}
  "1207": {level: 0, upper_level: 1, hill: K}
  "1401": {building: 8, footprint: [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}
"""

SCENARIO = """\
format: iron-cross-scenario/1
number: 9
title: Order of battle test
background: "A test."
maps: [tiny]
errata: false
north: {hex: "1002", toward: "1001"}
game_length: 3
sets_up_first: german
moves_first: russian
zones:
  north-edge:
    area: {map_edge: north}
sides:
  german:
    groups:
      - name: main
        units:
          - {squad: C, ammo: 10}
          - {crew_weapon: MMG, number: 1, ammo: 12}
          - {commander: PL}
      - name: armour
        units:
          - {afv: IIIe, number: 1}
    deployment:
      - {group: main, zone: north-edge}
    entries:
      - group: armour
        options:
          - {zone: {map_edge: south}, turn: 2}
  russian:
    groups:
      - name: main
        units:
          - {squad: A, ammo: 8, less: ["LMG PR8"]}
          - {commander: PL, pr: 10}
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


def line_of(text: str, snippet: str) -> int:
    """The 1-based line of the one line of `text` that holds `snippet`."""
    (line,) = [i for i, row in enumerate(text.splitlines(), 1) if snippet in row]
    return line


def found(problems: list[Problem], codes: set[str]) -> list[Problem]:
    return [p for p in problems if p.code in codes]


def validate_map(write, text: str) -> list[Problem]:
    return found(validate_paths([write("tiny.yaml", text)]), MAP_CODES)


def validate_scenario(write, text: str) -> list[Problem]:
    write("tiny.yaml", MAP)
    return found(validate_paths([write("oob.yaml", text)]), OOB_CODES)


# -- map checks ------------------------------------------------------------------------------


def test_the_test_map_passes_every_map_check(write) -> None:
    """A crest hex may carry its hill's name; a building hex may carry its own footprint."""
    assert validate_map(write, MAP) == []


def test_building_split_reports_the_stray_piece(write) -> None:
    text = MAP.replace('"1401": {building: 8,', '"1401": {building: 7,')
    (problem,) = validate_map(write, text)
    assert (problem.code, problem.rule, problem.severity) == ("building-split", "24.5, 24.9", Severity.ERROR)
    assert (problem.line, problem.hex) == (line_of(text, '"1401"'), "1401")
    assert problem.message == "Building 7 is in 2 pieces that share no hexside: 1401 apart from 1203, 1204"


def test_hill_split_reports_each_piece_but_the_largest(write) -> None:
    text = MAP + '  "1009": {level: 1, hill: K}\n  "1409": {level: 1, hill: K}\n'
    problems = validate_map(write, text)
    assert [(p.code, p.rule, p.line, p.hex) for p in problems] == [
        ("hill-split", "24.4, 24.6, 24.8, 24.9", line_of(text, '"1009"'), "1009"),
        ("hill-split", "24.4, 24.6, 24.8, 24.9", line_of(text, '"1409"'), "1409"),
    ]
    assert problems[0].message == (
        "Hill K is in 3 pieces that share no hexside: 1009 apart from 1104, 1105, 1205, 1206, 1207, 1304, 1305; 1409"
    )


def test_level_jump_is_a_warning_naming_the_level_0_neighbours(write) -> None:
    """1204 at level 2 touches 1203 (a building, level 0); 1206 at level 2 touches 1205 (level 1), 1207 (a
    crest: level 0 by 10.34) and four clear hexes."""
    text = MAP.replace('"1204": {building: 7}', '"1204": {level: 2, hill: K}').replace(
        '"1206": {level: 1, hill: K}', '"1206": {level: 2, hill: K}'
    )
    jumps = validate_map(write, text)
    assert [(p.code, p.rule, p.severity, p.line, p.hex) for p in jumps] == [
        ("level-jump", "8.53", Severity.WARNING, line_of(text, '"1204"'), "1204"),
        ("level-jump", "8.53", Severity.WARNING, line_of(text, '"1206"'), "1206"),
    ]
    assert jumps[0].message == (
        "level 2 hex 1204 is next to level 0 hex 1203: 8.53 and chart notes e, f price a climb of one level "
        "at a time (non-Hill to Level 1, Level 1 to Level 2), not two"
    )
    assert "level 2 hex 1206 is next to level 0 hexes 1106, 1107, 1207, 1306, 1307:" in jumps[1].message


def test_terrain_impossible_hill_name_on_flat_ground(write) -> None:
    text = MAP.replace('"1207": {level: 0, upper_level: 1, hill: K}', '"1207": {hill: K}')
    (problem,) = validate_map(write, text)
    assert (problem.code, problem.rule, problem.line, problem.column, problem.hex) == (
        "terrain-impossible",
        "8.53, chart notes e, f",
        line_of(text, '"1207"'),
        18,  # the hill name
        "1207",
    )
    assert "belongs to Hill K but is level 0 with no upper level" in problem.message


def test_terrain_impossible_footprint_without_building(write) -> None:
    text = MAP.replace('"1401": {building: 8, footprint:', '"1401": {footprint:')
    (problem,) = validate_map(write, text)
    assert (problem.code, problem.line, problem.hex) == ("terrain-impossible", line_of(text, '"1401"'), "1401")
    assert "has a building footprint but no building" in problem.message and problem.rule == "10.31 a"
    assert problem.text().count("10.31 a") == 1


def test_unusual_terrain_is_not_impossible(write) -> None:
    """No rule forbids a building in a marsh or a gully, or an unnamed hill (R49 in docs/rulings.md)."""
    text = MAP + '  "1008": {building: 9, marsh: true, gully: true}\n  "1408": {level: 1}\n'
    assert validate_map(write, text) == []


def test_bundled_maps_pass_the_map_checks() -> None:
    assert found(validate_paths(sorted((REPO / "maps").glob("map*.yaml"))), MAP_CODES) == []


# -- order-of-battle checks ------------------------------------------------------------------


def test_the_test_scenario_passes_every_oob_check(write) -> None:
    write("tiny.yaml", MAP)
    problems = validate_paths([write("oob.yaml", SCENARIO)])
    assert [p.text() for p in problems if p.severity is Severity.ERROR] == []
    assert found(problems, OOB_CODES) == []


def test_unit_twice_in_one_group_and_in_two_groups(write) -> None:
    """The German PL without PR is the side's one PL (PR11): listing PL PR11 again is the same counter."""
    text = SCENARIO.replace(
        "          - {afv: IIIe, number: 1}\n",
        "          - {afv: IIIe, number: 1}\n          - {commander: PL, pr: 11}\n          - {afv: IIIe, number: 1}\n",
    )
    problems = validate_scenario(write, text)
    first_iiie, second_iiie = [i for i, row in enumerate(text.splitlines(), 1) if "{afv: IIIe, number: 1}" in row]
    assert [(p.code, p.rule, p.line) for p in problems] == [
        ("unit-twice", "24.1", line_of(text, "{commander: PL, pr: 11}")),
        ("unit-twice", "24.1", second_iiie),
    ]
    main_pl = line_of(text, "- {commander: PL}")
    assert problems[0].message == f"German PL PR11 is fielded twice: also in group main (line {main_pl})"
    assert problems[1].message == f"German IIIe #1 is fielded twice: also earlier in the same group (line {first_iiie})"


def test_the_two_sides_counters_are_distinct(write) -> None:
    text = SCENARIO.replace("- {commander: PL, pr: 10}", "- {commander: PL, pr: 10}\n          - {squad: C}")
    assert validate_scenario(write, text) == []


def test_ammo_on_a_squad_without_an_lmg(write) -> None:
    """German Squad D has no LMG (R26); Russian Squad C keeps none after "less LMG PR8"."""
    text = SCENARIO.replace("{squad: C, ammo: 10}", "{squad: D, ammo: 10}").replace(
        '{squad: A, ammo: 8, less: ["LMG PR8"]}', '{squad: C, ammo: 8, less: ["LMG PR8"]}'
    )
    problems = validate_scenario(write, text)
    assert [(p.code, p.rule, p.line, p.pointer) for p in problems] == [
        ("ammo-not-allowed", "24.1", line_of(text, "{squad: D, ammo: 10}"), "/sides/german/groups/0/units/0/ammo"),
        ("ammo-not-allowed", "24.1", line_of(text, "{squad: C, ammo: 8"), "/sides/russian/groups/0/units/0/ammo"),
    ]
    assert problems[0].message == (
        "German Squad D has ammo points (10) but fields no LMG (MP PR9, MP PR8, R PR9, R PR8, R PR8, R PR7): "
        "a squad's number is its LMG's ammo"
    )
    assert problems[0].text().endswith("its LMG's ammo (24.1) [ammo-not-allowed]")


def test_ammo_on_a_commander_an_afv_and_a_rifleman(write) -> None:
    text = (
        SCENARIO.replace("- {commander: PL}", "- {commander: PL, ammo: 5}")
        .replace("{afv: IIIe, number: 1}", "{afv: IIIe, number: 1, ammo: 20}")
        .replace(
            "{squad: C, ammo: 10}",
            '{squad: E, only: ["MP PR10", {unit: "LMG PR9", ammo: 10}, {unit: "R PR8", ammo: 3}, '
            '{unit: "FT PR9", ammo: 4}]}',
        )
    )
    problems = validate_scenario(write, text)
    assert [(p.code, p.line, p.pointer) for p in problems] == [
        ("ammo-not-allowed", line_of(text, "{squad: E"), "/sides/german/groups/0/units/0/only/2/ammo"),
        ("ammo-not-allowed", line_of(text, "ammo: 5"), "/sides/german/groups/0/units/2/ammo"),
        ("ammo-not-allowed", line_of(text, "ammo: 20"), "/sides/german/groups/1/units/0/ammo"),
    ]
    assert problems[0].message == "German Squad E's R PR8 has ammo points (3): only an LMG or an FT carries its own"
    assert problems[0].text().endswith("carries its own (24.1, 22.0) [ammo-not-allowed]")
    assert problems[1].message == (
        "German PL has ammo points (5) but is a commander: only a squad's LMG and a CW have ammo points"
    )
    assert problems[2].message.startswith("German IIIe #1 has ammo points (20) but is an AFV")


def test_printed_lmg_and_ft_ammo_is_allowed(write) -> None:
    """24.7: 'Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)'; CWs of every type may have ammo."""
    text = SCENARIO.replace(
        "{squad: C, ammo: 10}",
        '{squad: E, only: ["MP PR10", {unit: "LMG PR9", ammo: 10}, "R PR8", {unit: "FT PR9", ammo: 4}], count: 4}',
    ).replace("{crew_weapon: MMG, number: 1, ammo: 12}", "{crew_weapon: 50AT, number: 1, ammo: 12}")
    assert validate_scenario(write, text) == []


def test_deployment_of_a_unit_not_fielded(write) -> None:
    text = SCENARIO.replace(
        "      - {group: main, zone: north-edge}\n",
        "      - {group: main, zone: north-edge}\n"
        "      - units: [{squad: D}, {commander: PL}]\n"
        "        zone: north-edge\n",
    )
    problems = validate_scenario(write, text)
    assert [(p.code, p.rule, p.line, p.column, p.pointer) for p in problems] == [
        ("deployed-not-fielded", "24.1", line_of(text, "units: [{squad: D}"), 17, "/sides/german/deployment/1/units/0"),
    ]
    assert problems[0].message == "German Squad D is deployed here but the German set-up list does not field it"


def test_entry_and_restriction_of_units_not_fielded(write) -> None:
    """A restriction without `side` may name either side's units; one naming a unit of neither is reported."""
    text = SCENARIO.replace(
        "          - {zone: {map_edge: south}, turn: 2}\n",
        "          - {zone: {map_edge: south}, turn: 2}\n"
        "      - units: [{crew_weapon: MMG, number: 2}]\n"
        "        options:\n"
        "          - {zone: {map_edge: south}, turn: 3}\n",
    ).replace(
        "victory:",
        "restrictions:\n"
        "  - units: [{commander: PL, pr: 10}, {afv: T34a, number: 1}]\n"
        "    may_not_move_before: {side: russian, turn: 2}\n"
        "victory:",
    )
    problems = validate_scenario(write, text)
    assert [(p.code, p.line, p.pointer) for p in problems] == [
        ("deployed-not-fielded", line_of(text, "{crew_weapon: MMG, number: 2}"), "/sides/german/entries/1/units/0"),
        ("deployed-not-fielded", line_of(text, "{afv: T34a, number: 1}"), "/restrictions/0/units/1"),
    ]
    assert problems[0].message == "German MMG #2 is brought on here but the German set-up list does not field it"
    assert problems[1].message == (
        "German or Russian T34a #1 is restricted here but the German or Russian set-up list does not field it"
    )


def test_unknown_group(write) -> None:
    text = SCENARIO.replace("      - group: armour\n", "      - group: armor\n")
    problems = validate_scenario(write, text)
    assert [(p.code, p.rule, p.line, p.pointer) for p in problems] == [
        ("unknown-group", "24.1", line_of(text, "group: armor"), "/sides/german/entries/0/group"),
        ("unit-not-placed", "24.1", line_of(text, "name: armour"), "/sides/german/groups/1/name"),
    ]
    assert problems[0].message == "no group 'armor' in the German set-up (groups: main, armour)"
    assert problems[1].message == (
        "German group armour (IIIe #1) has no deployment and no entry: the scenario does not say where it sets up"
    )


def test_units_placed_one_by_one_and_a_limit_entry(write) -> None:
    """A `units:` deployment places those units; an entry with a limit places none (R15)."""
    text = SCENARIO.replace(
        "      - {group: main, zone: north-edge}\n",
        "      - units: [{squad: C}, {commander: PL}]\n        zone: north-edge\n",
    ).replace("      - group: armour\n", "      - group: armour\n        limit: {afvs: 1}\n")
    problems = validate_scenario(write, text)
    assert [(p.code, p.line, p.pointer) for p in problems] == [
        ("unit-not-placed", line_of(text, "{crew_weapon: MMG"), "/sides/german/groups/0/units/1/crew_weapon"),
        ("unit-not-placed", line_of(text, "name: armour"), "/sides/german/groups/1/name"),
    ]
    assert problems[0].message == "German MMG #1 is in no deployment or entry, and its group is in none either"
    assert problems[1].message == (  # named by the entry with a limit only: said so, with the ruling
        "German group armour (IIIe #1) has no deployment and no entry (a deployment or entry with a limit "
        "names it: a limit is a few units' alternative, not where the group goes, R15): the scenario does "
        "not say where it sets up"
    )


# -- the printed scenarios ----------------------------------------------------------------------


def errors(path: Path) -> list[tuple[str, int | None, str]]:
    return [(p.code, p.line, p.message) for p in validate_paths([path]) if p.severity is Severity.ERROR]


def test_s2_as_printed_deploys_squad_d_and_leaves_squad_c_without_an_instruction() -> None:
    """24.5 German note 3 deploys "Squad D", which the set-up list does not field (R6); and so the list's
    Squad C, with the MMGs and the PS attached, has no instruction at all."""
    assert errors(PRINTED / "s2-as-printed.yaml") == [
        ("deployed-not-fielded", 77, "German Squad D is deployed here but the German set-up list does not field it"),
        (
            "unit-not-placed",
            64,
            "German group squad-c (Squad C, MMG #1, MMG #2, PS) has no deployment and no entry: "
            "the scenario does not say where it sets up",
        ),
    ]


@pytest.mark.parametrize(("name", "line"), [("s4-as-printed.yaml", 99), ("s6-as-printed.yaml", 204)])
def test_s4_and_s6_as_printed_field_an_ive(name: str, line: int) -> None:
    """2.22 lists IVd and IVf2 only (R8)."""
    assert errors(PRINTED / name) == [
        ("unknown-unit", line, "German has no IVe counter (types: IId, IIIe, IIIj, IVd, IVf2, StugIIIb)")
    ]
