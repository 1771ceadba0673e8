"""Zone, entry, victory and playability checks: a minimal broken input and the exact problem each
must produce, and the figures the six bundled scenarios give (rulings R60-R65 in docs/rulings.md)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from engine.model.scenario import load_scenario
from engine.model.victory import maximum_points
from engine.problems import Problem, Severity
from engine.resources import bundled_scenarios
from engine.validate.runner import validate_paths

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "scenarios"
S1 = (SCENARIOS / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")
S3 = (SCENARIOS / "s3-closing-the-ring.yaml").read_text(encoding="utf-8")
S5 = (SCENARIOS / "s5-through-the-marshes.yaml").read_text(encoding="utf-8")
S6 = (SCENARIOS / "s6-spartakovka.yaml").read_text(encoding="utf-8")

MY_CODES = {
    "deployment-capacity",
    "entry-off-edge",
    "entry-turn",
    "entry-phase",
    "victory-reference",
    "vp-schedule",
    "vp-maximum",
    "objective-too-far",
    "objective-turns",
    "deployment-exposure",
}


def edited(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    """The 1-based line of the one occurrence of `needle`."""
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1


def found(write, text: str, code: str) -> list[Problem]:
    return [p for p in validate_paths([write("scenarios/test.yaml", text)]) if p.code == code]


# -- deployment-capacity (8.62, 8.63) ------------------------------------------------------------


def test_8_62_a_one_hex_zone_holds_six_men(write) -> None:
    """German Squad C (6 men), MMG #1 (3, counters) and the PL (1) are 10 men: one hex holds 6."""
    text = edited(S1, "        zone: german-deployment\n", '        zone: {hexes: ["4307"]}\n')
    (problem,) = found(write, text, "deployment-capacity")
    assert (problem.rule, problem.severity, problem.line) == ("8.62", Severity.ERROR, line_of(text, '["4307"]}'))
    assert problem.message == (
        "German Squad C, MMG #1, PL need room for 10 men in the zone given here (1 hex): there is room for 6 "
        "(6 men a hex, 8.62)"
    )


def test_8_62_groups_sharing_a_zone_add_up(write) -> None:
    """10 men fit in 4307-4308 (12), and so do Squad B's 6 alone; together they do not."""
    zone = 'zone: {hexes: ["4307", "4308"]}'
    text = edited(S1, "        zone: german-deployment\n", f"        {zone}\n")
    text = edited(
        text,
        "          - {commander: PL}\n    deployment:\n",
        "          - {commander: PL}\n      - name: second\n        units:\n          - {squad: B, ammo: 10}\n"
        f"    deployment:\n      - {{group: second, {zone}}}\n",
    )
    (problem,) = found(write, text, "deployment-capacity")
    assert problem.line == line_of(text, f"      - {{group: second, {zone}}}")
    assert problem.message == (
        "German Squad B, Squad C, MMG #1, PL need room for 16 men in the zone given here (2 hexes): there is room "
        "for 12 (6 men a hex, 8.62)"
    )


def test_8_62_an_afv_needs_a_hex_it_may_stand_in(write) -> None:
    """4307 and 4308 are Building 23: "P" to AFVs on the chart."""
    text = edited(S1, "        zone: german-deployment\n", '        zone: {hexes: ["4307", "4308"]}\n')
    text = edited(
        text,
        "          - {commander: PL}\n    deployment:",
        "          - {commander: PL}\n          - {afv: IIIe, number: 1}\n    deployment:",
    )
    (problem,) = found(write, text, "deployment-capacity")
    assert problem.message.endswith(
        "need room for 1 AFV in the zone given here (2 hexes): there is room for 0 "
        "(1 AFV a hex where an AFV may stand, 8.62)"
    )


# -- entry-off-edge (24.1) -----------------------------------------------------------------------


def test_24_1_an_entry_hex_inside_the_map(write) -> None:
    text = edited(S1, "{zone: russian-entry, turn: 1,", '{zone: {hexes: ["4010", "3027"]}, turn: 1,')
    (problem,) = found(write, text, "entry-off-edge")
    assert (problem.rule, problem.line, problem.hex) == ("24.1", line_of(text, '"4010"'), "4010")
    assert problem.message == "hex 4010 is not on a map edge of Map 2 (columns 30-50, rows 1-27)"


def test_24_1_the_printed_edges_are_the_indicators(write) -> None:
    """'on the north mapedge or on the east mapedge': north is row 27, east column 30 (R1); of the south edge
    (row 01), only 3001, on column 30, is on either."""
    text = edited(S1, "{zone: russian-entry, turn: 1,", "{zone: {map_edge: south}, turn: 1,")
    (problem,) = found(write, text, "entry-off-edge")
    assert problem.line == line_of(text, "{map_edge: south}")
    assert problem.message == (
        "hexes 3101, 3201, 3301, 3401, 3501, 3601 and 14 more are not on the north or east map edge the printed "
        "text names (directions from the north indicator, R1)"
    )


def test_24_1_a_seam_column_is_no_map_edge(write) -> None:
    """Scenario 6 plays Maps 1 and 2: Map 2's east edge, column 30, is the seam inside the play area; its two
    ends are on the map's north and south edges, but the text says 'the west mapedge of Map 2'."""
    text = edited(S6, "area: {map_edge: {edge: west, map: map2}}", "area: {map_edge: {edge: east, map: map2}}")
    problems = found(write, text, "entry-off-edge")
    option = line_of(text, "{zone: german-group-1-special-entry")
    assert [(p.line, p.message) for p in problems] == [
        (
            option,
            "hexes 3002, 3003, 3004, 3005, 3006, 3007 and 19 more are not on a map edge of Map 1 + Map 2 "
            "(columns 10-50, rows 1-27)",
        ),
        (
            option,
            "hexes 3001, 3027 are not on the west map edge the printed text names (directions from the north "
            "indicator, R1)",
        ),
    ]


# -- entry-turn, entry-phase (24.1, 6.0) ---------------------------------------------------------


def test_24_1_entry_turn_after_the_last_turn(write) -> None:
    text = edited(S1, "{zone: russian-entry, turn: 1,", "{zone: russian-entry, turn: 8,")
    (problem,) = found(write, text, "entry-turn")
    assert (problem.rule, problem.line) == ("24.1", line_of(text, "turn: 8"))
    assert problem.message.endswith("enter on turn 8; the game lasts 7 turns (1-7)")


def test_24_1_entry_phase_is_the_movement_phase_unless_noted(write) -> None:
    text = edited(
        S1,
        "{zone: russian-entry, turn: 1, phase: movement}",
        "{zone: russian-entry, turn: 1, phase: reaction_movement}",
    )
    (problem,) = found(write, text, "entry-phase")
    assert (problem.rule, problem.line) == ("24.1", line_of(text, "reaction_movement}"))
    assert problem.message == (
        "the printed text names no phase, so Russian Squad A, Squad B, Squad C, MMG #1, MMG #2, PL PR10, APL PR9 "
        "enter in the Movement Phase ('unless noted otherwise'); the data says reaction_movement"
    )


def test_6_0_entry_phase_as_printed(write) -> None:
    """Scenario 5: 'during the Russian Reaction Movement Phase of turn 4'."""
    text = edited(S5, "turn: 4, phase: reaction_movement}", "turn: 4, phase: movement}")
    (problem,) = found(write, text, "entry-phase")
    assert problem.message == "the printed text enters in the Reaction Movement Phase; the data says movement"


def test_6_0_an_option_text_without_a_phase_takes_its_instructions(write) -> None:
    """An option printed as a fragment ('on the north mapedge') keeps the phase its entry's text names."""
    text = edited(
        S5,
        "turn: 4, phase: reaction_movement}",
        'turn: 4, phase: reaction_movement, printed: "on the north mapedge"}',
    )
    assert found(write, text, "entry-phase") == []


def test_6_0_units_do_not_enter_in_the_assault_phase(write) -> None:
    text = edited(
        S1,
        'enter on turn 1 on the north mapedge or on the east mapedge north of hex 3014."\n        options',
        'enter in the Assault Phase of turn 1 on the north mapedge."\n        options',
    )
    problems = found(write, text, "entry-phase")
    assert [p.message for p in problems] == [
        "the printed text names the Assault Phase: units enter by moving, and only the Movement and Reaction "
        "Movement Phases move units (6.0 C, D)"
    ]


# -- victory-reference (24.1) --------------------------------------------------------------------


def test_24_1_an_award_names_a_building_not_on_the_maps(write) -> None:
    text = edited(S6, 'building: ["1", "3", "4"], sizes', 'building: ["1", "3", "9"], sizes')
    problems = found(write, text, "victory-reference")
    assert [(p.line, p.message) for p in problems] == [
        (line_of(text, '"9"], sizes'), "no building 9 on Map 1 + Map 2 (columns 10-50, rows 1-27)"),
        (line_of(text, '"9"], sizes'), "a size for Building 4, which this award does not name"),
    ]


def test_24_1_an_award_names_a_map_the_scenario_does_not_use(write) -> None:
    text = edited(S6, "per_building_controlled: {map: map1,", "per_building_controlled: {map: map3,")
    (problem,) = found(write, text, "victory-reference")
    assert problem.message == "map 'map3' is not one of this scenario's maps (map1, map2)"


def test_24_5_sole_occupant_of_a_building_that_is_not_there(write) -> None:
    s2 = (SCENARIOS / "s2-khristishche.yaml").read_text(encoding="utf-8")
    text = edited(
        s2,
        "{sole_occupant: {side: russian, building: multi_hex, at_least: 1}}",
        "{sole_occupant: {side: russian, building: multi_hex, at_least: 9}}",
    )
    (problem,) = found(write, text, "victory-reference")
    assert problem.line == line_of(text, "at_least: 9")
    assert problem.message.startswith("the condition needs 9 multi-hex buildings, Map 1 ")
    assert problem.message.endswith(" has 6: it never holds")


def test_zones_in_victory_conditions_are_zone_empty_s(write) -> None:
    """A hill a victory zone names and the maps lack: zone-empty reports it, victory-reference does not repeat it."""
    text = edited(S5, "        - {hill: P}\n", "        - {hill: Q}\n")
    problems = validate_paths([write("scenarios/test.yaml", text)])
    assert [p.line for p in problems if p.code == "zone-empty"] == [line_of(text, "{hill: Q}")]
    assert not [p for p in problems if p.code == "victory-reference"]


# -- vp-schedule, vp-maximum (24.9) --------------------------------------------------------------


def test_24_9_a_schedule_with_a_gap_and_an_overlap(write) -> None:
    text = edited(S6, "{vp: [14, 18], result: draw}", "{vp: [15, 19], result: draw}")
    problems = found(write, text, "vp-schedule")
    band = line_of(text, "[15, 19]")
    assert [(p.line, p.message) for p in problems] == [
        (band, "no result for 14 VP"),
        (line_of(text, "[19, 34]"), "19 VP fall in 2 bands: draw (15-19), german (19-34)"),
    ]


def test_24_9_a_band_running_backwards(write) -> None:
    text = edited(S6, "{vp: [14, 18], result: draw}", "{vp: [18, 14], result: draw}")
    messages = [p.message for p in found(write, text, "vp-schedule")]
    assert messages == ["the band 18-14 VP runs backwards: no total is in it", "no result for 14-18 VP"]


def test_24_9_printed_size_against_the_board(write) -> None:
    text = edited(S6, 'sizes: {"1": 13,', 'sizes: {"1": 12,')
    problems = found(write, text, "vp-maximum")
    (error,) = [p for p in problems if p.severity is Severity.ERROR]
    assert (error.rule, error.line) == ("24.9", line_of(text, '"1": 12'))
    assert error.message == "Building 1 has 13 hexes on the board; the scenario prints 12"


def test_24_9_the_schedule_ends_past_the_maximum(write) -> None:
    text = edited(S6, "{vp: [19, 34], result: german}", "{vp: [19, 36], result: german}")
    (error,) = [p for p in found(write, text, "vp-maximum") if p.severity is Severity.ERROR]
    assert (error.line, error.message) == (
        line_of(text, "[19, 36]"),
        "the schedule ends at 36 VP; the awards give at most 34",
    )


def test_24_9_a_result_out_of_reach(write) -> None:
    text = edited(
        S6, "{vp: [19, 34], result: german}", "{vp: [19, 34], result: draw}\n      - {vp: [35, 40], result: german}"
    )
    (error,) = [p for p in found(write, text, "vp-maximum") if p.severity is Severity.ERROR]
    assert (error.line, error.message) == (
        line_of(text, "[35, 40]"),
        "german needs 35-40 VP; the awards give at most 34",
    )


def test_24_9_the_schedule_ends_short_of_the_maximum(write) -> None:
    text = edited(S6, "{vp: [19, 34], result: german}", "{vp: [19, 30], result: german}")
    (error,) = [p for p in found(write, text, "vp-maximum") if p.severity is Severity.ERROR]
    assert error.message == "the schedule ends at 30 VP; the awards give up to 34, so 31-34 VP have no result"


def test_24_9_maximum_vp_of_scenario_6_from_the_board() -> None:
    """1 VP per hex of Buildings 1 (13), 3 (5), 4 (7), 3 VP per other building of Map 1 (2, 5, 6): 34."""
    scenario = load_scenario(SCENARIOS / "s6-spartakovka.yaml")
    board = scenario.load_board()
    maximum = maximum_points(
        scenario.data["victory"]["points"], board, dict(zip(scenario.maps, board.maps, strict=True))
    )
    assert maximum.total == 34 == scenario.data["victory"]["points"]["schedule"][-1]["vp"][1]
    assert [a.total for a in maximum.awards] == [25, 9]
    assert maximum.describe() == (
        "34 VP: 1 VP x 25 hexes of Buildings 1 (13), 3 (5), 4 (7); 3 VP x 3 other buildings of map1 (2, 5, 6)"
    )


# -- objective-too-far (8.1) ---------------------------------------------------------------------


def test_8_1_squad_d_entering_late_cannot_reach_hill_j(write) -> None:
    """Scenario 3, Squad D and PS entering on turn 6 instead of 3: from 5001-5012 Hill J takes 3 turns (turns
    6, 7, 8); from 3001-3013 both hills take 2 (turns 6 and 7), in time."""
    text = S3.replace("turn: 3, phase: movement", "turn: 6, phase: movement")
    (problem,) = found(write, text, "objective-too-far")
    assert (problem.rule, problem.severity) == ("8.1", Severity.WARNING)
    assert problem.line == line_of(text, "{zone: german-late-entry-east")
    assert problem.message == (
        "German Squad D, PS (infantry, 6 MP) entering on turn 6 reach Hill J on turn 8 at the earliest; "
        "the game ends on turn 7"
    )


def test_8_1_an_entry_in_the_reaction_movement_phase_moves_from_the_next_turn(write) -> None:
    """Scenario 5's T34a on turn 5 instead of 4: onto the north edge in the Reaction Movement Phase of turn 5,
    then turn 6 takes it to every objective but Hill O."""
    text = edited(S5, "turn: 4, phase: reaction_movement}", "turn: 5, phase: reaction_movement}")
    (problem,) = found(write, text, "objective-too-far")
    assert problem.message == (
        "Russian T34a #1 (AFV, 10 MP) entering in the Reaction Movement Phase of turn 5 reach Hill O on turn 7 at "
        "the earliest; the game ends on turn 6"
    )


def test_8_1_a_deployed_force_moves_from_its_first_allowed_turn(write) -> None:
    """Scenario 5's BT7ms 'may not move until Russian Player Turn 2': made turn 7, they reach nothing off their
    zone in time (each objective there is one Movement Phase away: turn 7)."""
    text = edited(S5, "may_not_move_before: {side: russian, turn: 2}", "may_not_move_before: {side: russian, turn: 7}")
    problems = found(write, text, "objective-too-far")
    assert {p.line for p in problems} == {line_of(text, "- group: bt7m\n        zone: russian-bt7m-deployment")}
    assert [p.message.split(" reach ")[1] for p in problems] == [
        f"{objective} on turn 7 at the earliest; the game ends on turn 6"
        for objective in ("hex 5806", "hex 6410", "hex 6521", "hex 6815", "Hill M", "Hill O")
    ]
    assert problems[0].message.startswith(
        "Russian BT7m #1, BT7m #2 (AFV, 12 MP) deployed in russian-bt7m-deployment reach hex 5806"
    )


# -- the bundled scenarios -------------------------------------------------------------------------


@cache
def bundled_problems() -> tuple[Problem, ...]:
    return tuple(p for p in validate_paths(bundled_scenarios()) if p.code in MY_CODES)


def test_bundled_scenarios_raise_no_errors_or_warnings_here() -> None:
    assert [p.text() for p in bundled_problems() if p.severity is not Severity.INFO] == []


# First turn each side can stand on each objective, unopposed (objective-turns).
FIRST_TURNS = {
    ("s1-demyansk-pocket", "German"): "hex 4307 at the start, hex 4308 at the start (the game ends on turn 7)",
    ("s1-demyansk-pocket", "Russian"): "hex 4307 turn 2, hex 4308 turn 2 (the game ends on turn 7)",
    ("s2-khristishche", "German"): "Building 1 at the start, Building 2 at the start, Building 3 at the start, "
    "Building 4 at the start, Building 5 at the start, Building 6 at the start (the game ends on turn 9)",
    ("s2-khristishche", "Russian"): "Building 1 turn 2, Building 2 turn 2, Building 3 turn 2, Building 4 turn 2, "
    "Building 5 turn 3, Building 6 turn 2 (the game ends on turn 9)",
    ("s3-closing-the-ring", "German"): "Hill J turn 2, Hill K turn 1 (the game ends on turn 7)",
    ("s3-closing-the-ring", "Russian"): "Hill J at the start, Hill K at the start (the game ends on turn 7)",
    ("s4-tula", "German"): "south-of-east-west-road at the start, Building 1 turn 1, Building 2 turn 1 "
    "(the game ends on turn 6)",
    ("s4-tula", "Russian"): "south-of-east-west-road at the start, Building 1 at the start, Building 2 at the "
    "start (the game ends on turn 6)",
    ("s5-through-the-marshes", "German"): "hex 5806 turn 2, hex 6410 turn 1, hex 6521 turn 1, hex 6815 turn 1, "
    "Hill M turn 2, Hill N turn 2, Hill O turn 1, Hill P turn 2 (the game ends on turn 6)",
    ("s5-through-the-marshes", "Russian"): "hex 5806 at the start, hex 6410 at the start, hex 6521 turn 1, "
    "hex 6815 at the start, Hill M at the start, Hill N at the start, Hill O at the start, Hill P at the start "
    "(the game ends on turn 6)",
    ("s6-spartakovka", "German"): "Building 1 turn 3, Building 3 turn 2, Building 4 turn 2, Building 2 turn 3, "
    "Building 5 turn 4, Building 6 turn 3 (the game ends on turn 12)",
    ("s6-spartakovka", "Russian"): "Building 1 at the start, Building 3 at the start, Building 4 at the start, "
    "Building 2 at the start, Building 5 at the start, Building 6 at the start (the game ends on turn 12)",
}

# Deployment hexes in line of sight of the enemy's deployment area, both UP (deployment-exposure).
EXPOSURE = {
    ("s4-tula", "German"): (185, 189),
    ("s4-tula", "Russian"): (329, 343),
    ("s6-spartakovka", "German"): (19, 20),
    ("s6-spartakovka", "Russian"): (551, 691),
}


def _scenario(problem: Problem) -> str:
    return Path(problem.file or "").stem


def test_bundled_first_turns_on_the_objectives() -> None:
    prefix = " units can first stand on, unopposed: "
    lines = {
        (_scenario(p), p.message.split(prefix)[0]): p.message.split(prefix)[1]
        for p in bundled_problems()
        if p.code == "objective-turns"
    }
    assert lines == FIRST_TURNS


def test_bundled_deployment_exposure() -> None:
    shares = {}
    for p in bundled_problems():
        if p.code == "deployment-exposure":
            match = re.match(r"(\d+) of the (\d+) hexes of the (\w+) deployment area", p.message)
            assert match is not None
            shares[(_scenario(p), match[3])] = (int(match[1]), int(match[2]))
    assert shares == EXPOSURE


@pytest.mark.parametrize(
    "scenario", ["s1-demyansk-pocket", "s2-khristishche", "s3-closing-the-ring", "s5-through-the-marshes"]
)
def test_no_exposure_figure_when_a_side_enters_the_map(scenario: str) -> None:
    assert not [p for p in bundled_problems() if p.code == "deployment-exposure" and _scenario(p) == scenario]


def test_bundled_maximum_vp_info() -> None:
    (info,) = [p for p in bundled_problems() if p.code == "vp-maximum"]
    assert (_scenario(info), info.severity) == ("s6-spartakovka", Severity.INFO)
    assert info.message == (
        "the German player can score at most 34 VP: 1 VP x 25 hexes of Buildings 1 (13), 3 (5), 4 (7); "
        "3 VP x 3 other buildings of map1 (2, 5, 6)"
    )


def test_assumed_values_the_scenario_rests_on_are_summed_per_file() -> None:
    """Provenance policy: a scenario reports, as info, the assumed values of the files it uses;
    only the counters of units it fields count (Scenario 1 fields no AFV)."""
    from engine.model.source import load_yaml
    from engine.resources import bundled_scenarios
    from engine.validate.scenario import scenario_problems

    s1 = next(p for p in bundled_scenarios() if p.name.startswith("s1-"))
    (problem,) = [p for p in scenario_problems(load_yaml(s1)) if p.code == "assumed-used"]
    assert problem.severity.value == "info" and problem.line == 1
    assert "map2.yaml 64" in problem.message and "terrain-effects.yaml 40" in problem.message
    s6 = next(p for p in bundled_scenarios() if p.name.startswith("s6-"))
    (six,) = [p for p in scenario_problems(load_yaml(s6)) if p.code == "assumed-used"]
    counters = [int(part.split()[-1]) for part in six.message.split(": ", 1)[1].split(", ") if "counters" in part]
    ones = [int(part.split()[-1]) for part in problem.message.split(": ", 1)[1].split(", ") if "counters" in part]
    assert counters[0] > ones[0]  # Scenario 6 fields AFVs and more squads
