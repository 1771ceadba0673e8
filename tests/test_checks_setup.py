"""The set-up checks: for each, a minimal broken set-up and the exact problem it must produce
(code, rule, line, hex), and a set-up that passes. Rules 8.62, 8.63, 8.7, 18.1, 19.11-19.14, 24.1-24.3."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from engine.game import ScenarioNotPlayable, new_game
from engine.model.scenario import load_scenario
from engine.model.schema_files import written_schemas
from engine.model.schema_validation import _registry
from engine.model.setup import side_setups
from engine.model.tables import terrain_effects
from engine.problems import Problem, Severity
from engine.validate.runner import validate_paths

REPO = Path(__file__).resolve().parent.parent

# Columns 10-16, rows 1-8; north is toward lower rows (1002 -> 1001), so "south of row 4" is rows 5-8.
MAP = """\
format: iron-cross-map/1
name: Setup test
grid: {columns: [10, 16], rows: [1, 8]}
hexes:
  "1206": {building: 7}
  "1207": {building: 7}
  "1406": {trees: 2}
"""

SCENARIO = """\
format: iron-cross-scenario/1
number: 9
title: Set-up test
background: "A test."
maps: [setup-map.yaml]
errata: false
north: {hex: "1002", toward: "1001"}
game_length: 3
sets_up_first: german
moves_first: russian
zones:
  german-area:
    area: {side_of: {side: south, row: 4}}
  infiltration-area:
    area: {side_of: {side: north, row: 6}}
sides:
  german:
    hidden_hexes: 1
    improved_positions:
      - {points: 1, count: 1}
      - {points: 2, count: 1, zone: {terrain: building}}
    mines: {ap_factors: 4, at_factors: 3}
    groups:
      - name: main
        units:
          - {squad: C, less: ["R PR7"]}
          - {crew_weapon: MMG, number: 1}
          - {crew_weapon: ATR, number: 1}
          - {commander: PL}
          - {afv: IIIe, number: 1}
          - {afv: IIIe, number: 2}
      - name: late
        units:
          - {squad: B}
    deployment:
      - {group: main, zone: german-area}
    entries:
      - group: main
        limit: {afvs: 1}
        options: [{zone: {map_edge: south}, turn: 2}]
      - group: late
        options: [{zone: {map_edge: south}, turn: 2}]
  russian:
    groups:
      - name: main
        units:
          - {squad: A}
          - {squad: C}
          - {commander: PL, pr: 10}
          - {crew_weapon: MMG, number: 1}
    entries:
      - group: main
        options: [{zone: {map_edge: north}, turn: 1}]
infiltration:
  side: russian
  zone: infiltration-area
  printed: "May infiltrate."
victory:
  results:
    - winner: german
      when: {no_units_in: {side: russian, zone: german-area}}
  otherwise: draw
"""

# A set-up that passes every check. Squad C fields MP PR9, LMG PR10, R PR9, R PR8, R PR8.
SETUP = """\
setup:
  german:
    units:
      - {squad: C, member: "LMG PR10", hex: "1206", facing: "1205"}
      - {crew_weapon: MMG, number: 1, hex: "1207", state: down, facing: "1206"}
      - {crew_weapon: ATR, number: 1, hex: "1107"}
      - {squad: C, hex: "1106", state: down}
      - {commander: PL, hex: "1106"}
      - {afv: IIIe, number: 1, hex: "1406", facing: "1405"}
    improved_positions:
      - {hex: "1106", points: 1}
      - {hex: "1206", points: 2}
    mines:
      - {hex: "1507", ap_factors: 4, at_factors: 3}
    hidden_hexes: ["1106"]
  russian:
    infiltration:
      hex: "1302"
      units: [{squad: A}, {commander: PL, pr: 10}]
"""


def run(write, setup: str = SETUP, scenario: str = SCENARIO) -> tuple[str, list[Problem]]:
    write("setup-map.yaml", MAP)
    text = scenario + setup
    return text, validate_paths([write("setup-test.yaml", text)])


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the `setup:` section holding `fragment` (which must occur there once)."""
    lines = text.splitlines()
    start = lines.index("setup:")
    (line,) = [i for i, line in enumerate(lines[start:], start + 1) if fragment in line]
    return line


def first_line_of(text: str, key: str) -> int:
    """The line where the value of the set-up's block `key:` (the whole line, indented) starts: the next line."""
    lines = text.splitlines()
    return lines.index(key, lines.index("setup:")) + 2


def found(problems: list[Problem], code: str) -> list[tuple[str | None, int | None, str | None]]:
    """(rule, line, hex) of each problem with that code."""
    return [(p.rule, p.line, p.hex) for p in problems if p.code == code]


def message(problems: list[Problem], code: str) -> str:
    (text,) = [p.message for p in problems if p.code == code]
    return text


def test_a_complete_setup_passes(write) -> None:
    _, problems = run(write)
    assert [p.text() for p in problems if p.severity is not Severity.INFO] == []


def test_the_model_keeps_paths_and_defaults(write) -> None:
    write("setup-map.yaml", MAP)
    scenario = load_scenario(write("setup-test.yaml", SCENARIO + SETUP))
    german, russian = side_setups(scenario)
    assert german.units[0].member == "LMG PR10" and german.units[0].facing == "1205"
    assert german.units[0].path == ("setup", "german", "units", 0)
    assert german.mines[0].ap_factors == 4 and german.hidden_hexes[0].hex == "1106"
    assert russian.infiltration is not None and russian.infiltration.hex == "1302"
    assert russian.units == () and russian.improved_positions == ()


def test_bundled_scenarios_carry_sample_setups() -> None:
    """The bundled data exercises the set-up checks (and validates clean: test_bundled_data):
    Scenario 1 both sides with a squad split up, IPs, hidden hexes and infiltration; Scenario 5
    the Russian side alone, with AFVs, CWs that face a hexside, AT mines and six hidden hexes."""
    (s1,) = (REPO / "scenarios").glob("s1-*.yaml")
    german, russian = side_setups(load_scenario(s1))
    assert len(german.units) == 6 and len(german.hidden_hexes) == 2 and russian.infiltration is not None
    (s5,) = (REPO / "scenarios").glob("s5-*.yaml")
    (russian,) = side_setups(load_scenario(s5))
    assert russian.side == "russian" and sum(m.at_factors for m in russian.mines) == 12
    assert [p.type for p in russian.units if p.kind == "afv"] == ["BT7m", "BT7m"]


# -- 8.62 / 8.63 stacking -------------------------------------------------------------------------


def test_8_62_more_than_six_men_in_a_hex(write) -> None:
    """The MMG's crew of three (counters, assumed) joins Squad C's four and the PL in 1106."""
    setup = SETUP.replace(
        '{crew_weapon: MMG, number: 1, hex: "1207", state: down, facing: "1206"}',
        '{crew_weapon: MMG, number: 1, hex: "1106", state: down, facing: "1105"}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-stacking") == [("8.62", line_of(text, '{squad: C, hex: "1106"'), "1106")]
    assert message(problems, "setup-stacking").startswith("German units in 1106 hold 8 men: at most 6 men plus 1 AFV")


def test_8_62_one_afv_a_hex(write) -> None:
    setup = SETUP.replace(
        'hex: "1406", facing: "1405"}',
        'hex: "1406", facing: "1405"}\n      - {afv: IIIe, number: 2, hex: "1406", facing: "1405"}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-stacking") == [("8.62", line_of(text, "{afv: IIIe, number: 2"), "1406")]


def test_8_63_one_cw_a_hex(write) -> None:
    setup = SETUP.replace('{crew_weapon: ATR, number: 1, hex: "1107"}', '{crew_weapon: ATR, number: 1, hex: "1207"}')
    text, problems = run(write, setup)
    assert found(problems, "setup-one-cw-per-hex") == [("8.63", line_of(text, "{crew_weapon: ATR"), "1207")]
    assert found(problems, "setup-stacking") == []  # 3 + 2 men: within six


# -- 24.1 units and deployment ----------------------------------------------------------------------


def test_24_1_unit_outside_its_deployment_area(write) -> None:
    setup = SETUP.replace('{commander: PL, hex: "1106"}', '{commander: PL, hex: "1103"}')
    text, problems = run(write, setup)
    assert found(problems, "setup-outside-deployment") == [("24.1", line_of(text, "{commander: PL, hex:"), "1103")]
    assert "outside its deployment area (german-area)" in message(problems, "setup-outside-deployment")


def test_24_1_an_entering_unit_is_not_placed(write) -> None:
    setup = SETUP.replace(
        '    improved_positions:\n      - {hex: "1106"',
        '      - {squad: B, hex: "1108"}\n    improved_positions:\n      - {hex: "1106"',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-outside-deployment") == [("24.1", line_of(text, "{squad: B"), "1108")]
    assert "enters the map" in message(problems, "setup-outside-deployment")


def test_24_1_a_unit_the_side_does_not_field(write) -> None:
    setup = SETUP.replace('{commander: PL, hex: "1106"}', '{commander: APL, hex: "1106"}')
    text, problems = run(write, setup)
    assert found(problems, "setup-unknown-unit") == [("24.1", line_of(text, "{commander: APL"), "1106")]
    assert found(problems, "setup-unit-missing") == [("24.1", first_line_of(text, "    units:"), None)]  # the PL


def test_24_1_a_member_the_less_clause_removes(write) -> None:
    setup = SETUP.replace(
        '{squad: C, hex: "1106", state: down}',
        '{squad: C, member: "R PR7", hex: "1106"}\n      - {squad: C, hex: "1106", state: down}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-unknown-unit") == [("24.1", line_of(text, '"R PR7"'), "1106")]
    assert "fields no R PR7 (fielded: MP PR9, LMG PR10, R PR9, R PR8, R PR8)" in message(problems, "setup-unknown-unit")


def test_24_1_a_unit_placed_twice(write) -> None:
    setup = SETUP.replace(
        '{commander: PL, hex: "1106"}', '{commander: PL, hex: "1106"}\n      - {commander: PL, hex: "1107"}'
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-unit-twice") == [("24.1", line_of(text, '{commander: PL, hex: "1107"}'), "1107")]


def test_24_1_a_squad_member_placed_twice(write) -> None:
    """The LMG is placed on its own; Squad C has one LMG."""
    setup = SETUP.replace(
        '{commander: PL, hex: "1106"}',
        '{commander: PL, hex: "1106"}\n      - {squad: C, member: "LMG PR10", hex: "1107", facing: "1108"}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-unit-twice") == [("24.1", line_of(text, '"LMG PR10", hex: "1107"'), "1107")]


def test_24_1_a_set_up_side_places_every_deploying_unit(write) -> None:
    """A side in `setup:` is complete: here the PL is left out, and both AFVs where the entry's limit takes one."""
    setup = SETUP.replace('      - {commander: PL, hex: "1106"}\n', "").replace(
        '      - {afv: IIIe, number: 1, hex: "1406", facing: "1405"}\n', ""
    )
    text, problems = run(write, setup)
    units = first_line_of(text, "    units:")
    assert found(problems, "setup-unit-missing") == [("24.1", units, None)] * 2
    assert [p.message for p in problems if p.code == "setup-unit-missing"] == [
        f"German {what} deploys on the map but the set-up does not place it" for what in ("PL", "IIIe #2")
    ]


def test_24_1_a_squad_left_half_placed(write) -> None:
    setup = SETUP.replace('      - {squad: C, hex: "1106", state: down}\n', "")
    text, problems = run(write, setup)
    assert found(problems, "setup-unit-missing") == [("24.1", first_line_of(text, "    units:"), None)]
    assert message(problems, "setup-unit-missing").startswith(
        "German Squad C (MP PR9, R PR9, R PR8, R PR8) deploys on the map"
    )


def test_a_side_left_out_of_the_setup_is_not_checked(write) -> None:
    """A set-up may be partial by side: the Germans, left out, are not checked as complete."""
    _, problems = run(write, "setup:\n  russian:\n    units: []\n")
    assert [p for p in problems if p.severity is not Severity.INFO] == []


def test_8_5_an_afv_in_a_building_hex(write) -> None:
    """The bundled chart (assumed) prohibits buildings to AFVs."""
    setup = SETUP.replace(
        '{afv: IIIe, number: 1, hex: "1406", facing: "1405"}', '{afv: IIIe, number: 1, hex: "1206", facing: "1205"}'
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-prohibited-hex") == [("8.5 chart P", line_of(text, "{afv: IIIe"), "1206")]


# -- 8.7 facing -------------------------------------------------------------------------------------


def test_8_7_an_mg_without_facing(write) -> None:
    setup = SETUP.replace('hex: "1207", state: down, facing: "1206"}', 'hex: "1207", state: down}')
    text, problems = run(write, setup)
    assert found(problems, "setup-facing") == [("8.7", line_of(text, "{crew_weapon: MMG"), "1207")]


def test_8_7_a_whole_squad_with_its_lmg_needs_a_facing(write) -> None:
    setup = SETUP.replace('      - {squad: C, member: "LMG PR10", hex: "1206", facing: "1205"}\n', "")
    text, problems = run(write, setup)
    assert found(problems, "setup-facing") == [("8.7", line_of(text, '{squad: C, hex: "1106"'), "1106")]
    assert found(problems, "setup-stacking") == []  # with the LMG, Squad C and the PL are six men


def test_8_7_facing_a_hex_that_is_not_adjacent(write) -> None:
    setup = SETUP.replace('facing: "1405"}', 'facing: "1408"}')
    text, problems = run(write, setup)
    assert found(problems, "setup-facing") == [("8.7", line_of(text, "{afv: IIIe"), "1406")]
    assert "faces 1408, which is not an adjacent hex" in message(problems, "setup-facing")


def test_8_7_facing_given_to_a_unit_with_all_round_facing(write) -> None:
    setup = SETUP.replace(
        '{crew_weapon: ATR, number: 1, hex: "1107"}', '{crew_weapon: ATR, number: 1, hex: "1107", facing: "1108"}'
    )
    text, problems = run(write, setup)
    (problem,) = [p for p in problems if p.code == "setup-facing"]
    assert (problem.severity, problem.line, problem.hex) == (
        Severity.WARNING,
        line_of(text, "{crew_weapon: ATR"),
        "1107",
    )


# -- 18.1 improved positions ------------------------------------------------------------------------


def test_18_1_ip_outside_its_zone(write) -> None:
    """The scenario gives the IP2 'on any building hex'."""
    setup = SETUP.replace('{hex: "1206", points: 2}', '{hex: "1107", points: 2}')
    text, problems = run(write, setup)
    assert found(problems, "setup-ip-placement") == [("18.1", line_of(text, '{hex: "1107", points: 2}'), "1107")]


def test_18_1_ip_where_infantry_and_cw_cannot_stand(write, monkeypatch) -> None:
    """With a chart that prohibits buildings to infantry, the IP2 (and the units there) cannot be in 1206."""
    chart = terrain_effects()
    building = replace(chart.row("building"), infantry_cw_up=None, infantry_cw_down=None)
    patched = replace(chart, rows={**chart.rows, "building": building})
    monkeypatch.setattr("engine.geometry.movement.terrain_effects", lambda: patched)
    text, problems = run(write)
    assert found(problems, "setup-ip-placement") == [("18.1", line_of(text, '{hex: "1206", points: 2}'), "1206")]
    assert "infantry and CW units cannot occupy" in message(problems, "setup-ip-placement")


def test_18_1_ip_outside_the_deployment_area_is_a_warning(write) -> None:
    setup = SETUP.replace('{hex: "1106", points: 1}', '{hex: "1103", points: 1}')
    text, problems = run(write, setup)
    (problem,) = [p for p in problems if p.severity is not Severity.INFO]
    assert (problem.code, problem.severity, problem.rule) == ("setup-ip-outside-deployment", Severity.WARNING, "18.1")
    assert (problem.line, problem.hex) == (line_of(text, '{hex: "1103"'), "1103")


def test_24_1_ips_equal_the_allowance(write) -> None:
    fewer = SETUP.replace('      - {hex: "1106", points: 1}\n', "")
    text, problems = run(write, fewer)
    assert found(problems, "setup-ip-count") == [("24.1", first_line_of(text, "    improved_positions:"), None)]
    assert message(problems, "setup-ip-count") == "0 German IP1 placed, the scenario gives 1"
    more = SETUP.replace('{hex: "1206", points: 2}', '{hex: "1206", points: 2}\n      - {hex: "1207", points: 3}')
    text, problems = run(write, more)
    assert found(problems, "setup-ip-count") == [("24.1", line_of(text, "points: 3"), "1207")]


# -- 19 mines ---------------------------------------------------------------------------------------


def test_19_12_at_most_four_ap_factors_a_hex(write) -> None:
    """Two entries for one hex add up; the one that goes over is named."""
    setup = SETUP.replace(
        '{hex: "1507", ap_factors: 4, at_factors: 3}',
        '{hex: "1507", ap_factors: 2, at_factors: 3}\n      - {hex: "1507", ap_factors: 3}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-mine-factors") == [("19.12", line_of(text, '{hex: "1507", ap_factors: 3}'), "1507")]
    assert message(problems, "setup-mine-factors") == "5 AP mine factors in 1507, at most 4"


def test_19_12_at_most_seven_at_factors_a_hex(write) -> None:
    scenario = SCENARIO.replace("at_factors: 3}", "at_factors: 8}")
    text, problems = run(write, SETUP.replace("at_factors: 3}", "at_factors: 8}"), scenario)
    assert found(problems, "setup-mine-factors") == [("19.12", line_of(text, '{hex: "1507"'), "1507")]


def test_19_12_at_least_two_at_factors_in_an_at_mined_hex(write) -> None:
    setup = SETUP.replace(
        '{hex: "1507", ap_factors: 4, at_factors: 3}',
        '{hex: "1507", ap_factors: 4, at_factors: 2}\n      - {hex: "1508", at_factors: 1}',
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-mine-factors") == [("19.12", line_of(text, '{hex: "1508"'), "1508")]
    assert found(problems, "setup-mine-count") == []


def test_19_12_an_allowance_of_one_at_factor_is_reported_and_not_played(write) -> None:
    """19.12: 'A hex mined with AT factors must have AT LEAST two factors in the hex': one AT factor
    has no hex it may go in; the engine, which would never offer it, refuses the scenario."""
    scenario = SCENARIO.replace("mines: {ap_factors: 4, at_factors: 3}", "mines: {ap_factors: 4, at_factors: 1}")
    text, problems = run(write, "", scenario)
    (problem,) = [p for p in problems if p.code == "mine-allowance"]
    assert (problem.rule, problem.severity, problem.line) == (
        "19.12",
        Severity.ERROR,
        1 + text.count("\n", 0, text.index("at_factors: 1")),
    )
    assert problem.message == (
        "German mines: 1 AT factor, but a hex mined with AT factors must have at least 2: it could never be placed"
    )
    with pytest.raises(ScenarioNotPlayable, match=r"\(19\.12\) \[mine-allowance\]"):
        new_game(load_scenario(write("setup-test.yaml", text)), 1)
    _, problems = run(write, "", scenario.replace("at_factors: 1}", "at_factors: 0}"))
    assert [p for p in problems if p.code == "mine-allowance"] == []


def test_19_14_no_mines_in_buildings(write) -> None:
    setup = SETUP.replace('{hex: "1507", ap_factors', '{hex: "1207", ap_factors')
    text, problems = run(write, setup)
    assert found(problems, "setup-mine-terrain") == [("19.14", line_of(text, '{hex: "1207", ap_factors'), "1207")]


def test_19_11_mine_factors_equal_the_allowance(write) -> None:
    setup = SETUP.replace("ap_factors: 4, at_factors: 3}", "ap_factors: 3, at_factors: 3}")
    text, problems = run(write, setup)
    assert found(problems, "setup-mine-count") == [("19.11", first_line_of(text, "    mines:"), None)]
    assert message(problems, "setup-mine-count") == "German mines: 3 AP factors placed, the scenario gives 4"


# -- 24.2 hidden hexes ------------------------------------------------------------------------------


def test_24_2_no_more_hidden_hexes_than_given(write) -> None:
    setup = SETUP.replace('hidden_hexes: ["1106"]', 'hidden_hexes: ["1106", "1107"]')
    text, problems = run(write, setup)
    assert found(problems, "setup-hidden-count") == [("24.2", line_of(text, "hidden_hexes:"), "1107")]


def test_24_21_hidden_hexes_inside_the_deployment_area(write) -> None:
    setup = SETUP.replace('hidden_hexes: ["1106"]', 'hidden_hexes: ["1103"]')
    text, problems = run(write, setup)
    assert found(problems, "setup-hidden-outside-deployment") == [("24.21", line_of(text, "hidden_hexes:"), "1103")]


def test_24_21_no_afv_in_a_hidden_hex(write) -> None:
    setup = SETUP.replace('hidden_hexes: ["1106"]', 'hidden_hexes: ["1406"]')
    text, problems = run(write, setup)
    assert found(problems, "setup-hidden-afv") == [("24.21", line_of(text, "{afv: IIIe"), "1406")]


# -- 24.3 infiltration ------------------------------------------------------------------------------


def test_24_32_infiltration_hex_within_the_restrictions(write) -> None:
    setup = SETUP.replace('hex: "1302"', 'hex: "1307"')
    text, problems = run(write, setup)
    assert found(problems, "setup-infiltration-hex") == [("24.32", line_of(text, 'hex: "1307"'), "1307")]


def test_24_32_infiltration_hex_not_held_by_an_on_map_german(write) -> None:
    """1105 is in both the German area and the infiltration area; a German hidden hex there is allowed (24.35)."""
    setup = SETUP.replace('{commander: PL, hex: "1106"}', '{commander: PL, hex: "1105"}').replace(
        'hex: "1302"', 'hex: "1105"'
    )
    text, problems = run(write, setup)
    assert found(problems, "setup-infiltration-hex") == [("24.32", line_of(text, '    hex: "1105"'), "1105")]
    assert message(problems, "setup-infiltration-hex").endswith("holds on-map German units (PL)")
    _, problems = run(write, setup.replace('hidden_hexes: ["1106"]', 'hidden_hexes: ["1105"]'))
    assert found(problems, "setup-infiltration-hex") == []


@pytest.mark.parametrize(
    ("units", "says"),
    [
        ("[{squad: A}, {crew_weapon: MMG, number: 1}]", "MMG #1 may not infiltrate: CW and AFV units may not"),
        ("[{squad: A}, {squad: C}]", "a second squad, Squad C: ONE squad plus one commander may infiltrate"),
        ("[{squad: A}, {squad: G}]", "Russian side fields no Squad G"),
    ],
)
def test_24_31_one_squad_plus_one_commander(write, units: str, says: str) -> None:
    """The second unit of each list is the culprit."""
    text, problems = run(write, SETUP.replace("[{squad: A}, {commander: PL, pr: 10}]", units))
    (problem,) = [p for p in problems if p.code == "setup-infiltration-units"]
    where = (problem.rule, problem.line, problem.pointer)
    assert where == ("24.31", line_of(text, units), "/setup/russian/infiltration/units/1")
    assert problem.message == says


def test_24_31_a_commander_alone_does_not_infiltrate(write) -> None:
    text, problems = run(write, SETUP.replace("[{squad: A}, {commander: PL, pr: 10}]", "[{commander: PL, pr: 10}]"))
    assert found(problems, "setup-infiltration-units") == [("24.31", line_of(text, "[{commander: PL, pr: 10}]"), None)]


def test_24_3_infiltration_only_where_the_scenario_allows_it(write) -> None:
    setup = SETUP.replace("  russian:\n    infiltration:", "    infiltration:")
    text, problems = run(write, setup)
    assert found(problems, "setup-infiltration-not-allowed") == [
        ("24.3", first_line_of(text, "    infiltration:"), None)
    ]
    scenario = SCENARIO[: SCENARIO.index("infiltration:")] + SCENARIO[SCENARIO.index("victory:") :]
    text, problems = run(write, SETUP, scenario)
    assert found(problems, "setup-infiltration-not-allowed") == [
        ("24.3", first_line_of(text, "    infiltration:"), None)
    ]


# -- hexes and schema -------------------------------------------------------------------------------


def test_2_1_setup_hex_off_the_map(write) -> None:
    setup = SETUP.replace('{hex: "1106", points: 1}', '{hex: "1909", points: 1}')
    text, problems = run(write, setup)
    assert found(problems, "setup-hex-off-map") == [("2.1", line_of(text, '"1909"'), "1909")]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('{commander: PL, hex: "1106"}', '{commander: PL, hexx: "1106"}', "'hex' is a required property"),
        ('{commander: PL, hex: "1106"}', "{commander: PL, hex: 1106}", 'must be a quoted string here (write "1106")'),
        (
            '{commander: PL, hex: "1106"}',
            '{commander: PL, hex: "1106", member: "R PR8"}',
            "'member' is not one of ['commander', 'pr'",
        ),
        ('{hex: "1507", ap_factors: 4, at_factors: 3}', '{hex: "1507"}', "'ap_factors' is a required property"),
        ('{hex: "1106", points: 1}', '{hex: "116", points: 1}', "is not a hex label"),
    ],
)
def test_schema_errors_point_at_the_setup_line(write, old: str, new: str, says: str) -> None:
    text, problems = run(write, SETUP.replace(old, new))
    assert problems and {(p.code, p.line) for p in problems} == {("schema", line_of(text, new))}
    assert any(says in p.message for p in problems)


def test_schema_unknown_side(write) -> None:
    text, problems = run(write, SETUP + "  soviet: {units: []}\n")
    (problem,) = problems
    assert (problem.code, problem.line) == ("schema", line_of(text, "soviet:"))
    assert "unknown key 'soviet'" in problem.message


def test_formats_md_setup_example_passes_the_schema() -> None:
    """docs/formats.md, Scenario set-up: the example is a well-formed `setup:` section."""
    text = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    example = text.split("### Scenario set-up (`setup:`)")[1].split("```yaml\n")[1].split("```")[0]
    setup = yaml.safe_load(example)["setup"]
    assert set(setup["german"]) == {"units", "improved_positions", "mines", "hidden_hexes"}
    schema = Draft202012Validator(written_schemas()["setup"], registry=_registry())
    assert [e.message for e in schema.iter_errors(setup)] == []
