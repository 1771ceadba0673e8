"""tables/*.yaml against the table schema and the rulebook's printed charts and numbers
(Movement & Combat Effects, Movement Point Allowance Chart, 4.12, 8-24, Sighting Chart)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import pytest

from tests.test_counters_data import (
    COUNTERS,
    load,
    misquotes,
    provenance_texts,
    sourced_values,
    validator,
)

NAMES = ("terrain-effects", "movement-allowances", "combat", "sighting")
TABLES = {name: load("tables", f"{name}.yaml") for name in NAMES}
TERRAIN = TABLES["terrain-effects"]
MOVEMENT = TABLES["movement-allowances"]
COMBAT = TABLES["combat"]
SIGHTING = TABLES["sighting"]
META = {"format", "table", "title", "source", "description"}


def value(node: dict[str, Any]) -> Any:
    return node["value"]


def printed(node: dict[str, Any], rule: str) -> bool:
    """The value is printed and its source names `rule`."""
    return rule in node.get("printed", "")


# --- schema and provenance -----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_schema_accepts_the_table(name: str) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator("table").iter_errors(TABLES[name])]
    assert errors == []
    assert TABLES[name]["format"] == "iron-cross-table/1"
    assert TABLES[name]["table"] == name


def test_schema_rejects_bare_and_doubly_sourced_values() -> None:
    """docs/formats.md, Provenance: every value has exactly one of printed and assumed."""
    check = validator("table")
    for bad in (3, {"value": 3}, {"value": 3, "printed": "x", "assumed": "y"}, {"value": 3, "assumed": " "}):
        doc = json.loads(json.dumps(COMBAT))
        doc["stacking"]["max_men"] = bad
        assert list(check.iter_errors(doc)), bad


def test_schema_requires_every_terrain_row() -> None:
    doc = json.loads(json.dumps(TERRAIN))
    del doc["terrain"]["marsh"]
    assert list(validator("table").iter_errors(doc))


def bare_values(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        if "value" in node:
            return []
        return [p for key, child in node.items() for p in bare_values(child, (*path, key))]
    if isinstance(node, list):
        return [p for i, child in enumerate(node) for p in bare_values(child, (*path, i))]
    return [path]


@pytest.mark.parametrize("name", NAMES)
def test_every_value_is_sourced(name: str) -> None:
    table = {k: v for k, v in TABLES[name].items() if k not in META}
    assert bare_values(table) == []
    for path, node in sourced_values(table):
        assert ("printed" in node) != ("assumed" in node), path
        reason = node.get("printed") or node.get("assumed")
        assert reason.strip() and "\n" not in reason, path


@pytest.mark.parametrize("name", NAMES)
def test_quotations_are_the_rulebooks_words(name: str, rulebook: str) -> None:
    assert misquotes(TABLES[name], rulebook) == []


@pytest.mark.parametrize("name", NAMES)
def test_printed_sources_name_a_rule_or_chart(name: str) -> None:
    for text in provenance_texts(TABLES[name]):
        assert re.search(r"\b\d+\.\d+\b|Chart|chart|Table", text), text


# --- Movement & Combat Effects Chart ------------------------------------------------------------

COLUMNS = (
    "infantry_cw_up",
    "infantry_cw_down",
    "afv_up",
    "afv_down",
    "ap_dice",
    "ap_firepower_modifier",
    "observation_base",
    "obstacle_level",
)

# The printed rows: '| Clear (0) | 1 | 2 | 1 | 2 | 1 die | None | 10 |',
# '| Road (a) (0) | 1/2 | 2 | 1/2 | 2 | 1 die | None | 10 |', '| Gully (0) | 2 | 3 | 5 | 7 | 2 dice |'.
PRINTED_ROWS = {
    "clear": (1, 2, 1, 2, 1, 0, 10, 0),
    "road": (0.5, 2, 0.5, 2, 1, 0, 10, 0),
    "gully": (2, 3, 5, 7, 2, None, None, 0),
}


@pytest.mark.parametrize("row", sorted(PRINTED_ROWS))
def test_printed_chart_rows(row: str) -> None:
    cells = TERRAIN["terrain"][row]
    for column, expected in zip(COLUMNS, PRINTED_ROWS[row], strict=True):
        if expected is None:
            assert "assumed" in cells[column], f"{row} {column}: the chart is cut here"
        else:
            assert value(cells[column]) == expected, f"{row} {column}"
            assert "printed" in cells[column], f"{row} {column}"


def test_bridge_is_a_road() -> None:
    """Chart note a: 'A Bridge hex is a Road hex that crosses a Gully and is treated as a Road hex.'"""
    for column in COLUMNS:
        bridge = TERRAIN["terrain"]["bridge"][column]
        assert value(bridge) == value(TERRAIN["terrain"]["road"][column]), column
        assert printed(bridge, "note a"), column


def test_11_32_example_marsh_dice() -> None:
    """11.32: 'An attack against a DOWN unit in a Marsh hex by 2 units (1 of which has moved this
    Player Turn) would require 4 dice to be rolled.'"""
    marsh = TERRAIN["terrain"]["marsh"]["ap_dice"]
    modifiers = TERRAIN["ap_dice_modifiers"]
    assert value(marsh) + value(modifiers["target_down"]) + value(modifiers["firer_moved"]) == 4
    assert printed(marsh, "11.32")


def test_missing_rows_are_assumed() -> None:
    """The chart is cut after the Gully row: woods, building, marsh and hill move costs are assumed."""
    for row in ("woods", "building", "marsh", "hill-1", "hill-2"):
        for column in ("infantry_cw_up", "infantry_cw_down", "afv_up", "afv_down", "observation_base"):
            assert "assumed" in TERRAIN["terrain"][row][column], f"{row} {column}"


def test_woods_firepower_and_observation() -> None:
    """11.16 a: 'minus one for each Tree symbol ... in the target hex'; 23.2 c: 'the lower base number
    for Woods'."""
    woods = TERRAIN["terrain"]["woods"]
    assert value(woods["ap_firepower_modifier"]) == "-T" and printed(woods["ap_firepower_modifier"], "11.16")
    assert value(woods["observation_base"]) < value(TERRAIN["terrain"]["clear"]["observation_base"])


def test_hill_levels() -> None:
    """Chart notes e, f: 'Level 1 Hill hex', 'Level 2 Hill hex'."""
    assert value(TERRAIN["terrain"]["hill-1"]["obstacle_level"]) == 1
    assert value(TERRAIN["terrain"]["hill-2"]["obstacle_level"]) == 2


def test_obstacle_levels_are_sighting_chart_levels() -> None:
    """10.32 a: the obstacle's level number from the chart, read on the Sighting Chart's levels."""
    levels = value(SIGHTING["levels"])
    for row, cells in TERRAIN["terrain"].items():
        assert value(cells["obstacle_level"]) in levels, row


def test_ap_dice_modifiers() -> None:
    """Chart: 'Target unit in DOWN state +1 die', 'Firing unit moved this turn +1 die', 'AFV cover
    (11.33) +1 die', 'Improved position +1 die per IP'."""
    modifiers = TERRAIN["ap_dice_modifiers"]
    assert {k: value(v) for k, v in modifiers.items()} == {
        "target_down": 1,
        "firer_moved": 1,
        "afv_cover": 1,
        "per_improved_position_point": 1,
    }
    assert all("printed" in v for v in modifiers.values())


def test_chart_notes() -> None:
    """Chart notes a-f and the legend P, T, as printed."""
    notes = {k: value(v) for k, v in TERRAIN["notes"].items()}
    assert sorted(notes) == ["P", "T", "a", "b", "c", "d", "e", "f"]
    assert notes["a"] == "A Bridge hex is a Road hex that crosses a Gully and is treated as a Road hex."
    assert notes["d"] == "Use the Observation base of the other terrain in the hex."
    assert notes["e"].startswith("When entering a Level 1 Hill hex from a non-Hill hex, 1 additional MP")
    assert all("printed" in v for v in TERRAIN["notes"].values())


def test_movement_costs_of_rules_8_5_and_3_13() -> None:
    """8.53: 'one additional MP'; 8.52: 'only 1/2 MP per hex'; 3.13: 'Infantry and CW units pay 2 MP's
    per change. AFV's pay 5 MP's per change.'; 8.54: 'Woods hexes (hexes with 2 or more Tree symbols)'."""
    movement = TERRAIN["movement"]
    assert value(movement["uphill_extra_mp"]) == 1 and printed(movement["uphill_extra_mp"], "8.53")
    assert value(movement["road_rate_mp_per_hex"]) == 0.5 and printed(movement["road_rate_mp_per_hex"], "8.52")
    assert value(movement["road_rate_requires"]) == {"morale": "normal", "state": "up"}
    assert value(movement["state_change_mp"]["infantry_cw"]) == 2
    assert value(movement["state_change_mp"]["afv"]) == 5
    assert value(movement["woods_min_trees"]) == 2
    assert value(movement["afv_immobilization"]["marsh"]) == {"dice": 2, "immobilized_at_most": 4}


def inside_hex(x: float, y: float) -> bool:
    """Inside the flat-topped unit hex: corners at (+-1, 0) and (+-0.5, +-0.866)."""
    return abs(y) <= math.sqrt(3) / 2 and abs(x) + abs(y) / math.sqrt(3) <= 1


def test_building_footprint_fits_the_hex() -> None:
    polygon = value(TERRAIN["building_footprint"]["polygon"])
    assert len(polygon) >= 3
    assert all(inside_hex(x, y) for x, y in polygon)
    assert 0 < value(TERRAIN["building_footprint"]["join_width"]) <= 1
    assert "assumed" in TERRAIN["building_footprint"]["polygon"]


# --- Movement Point Allowance Chart, 8.1 -----------------------------------------------------------

# (movement phase, reaction phase) by unit kind and morale status, as 8.11-8.15 print them.
ALLOWANCES = {
    ("infantry", "normal"): (6, 3),  # 8.11 'SIX MP's ... THREE MP's'
    ("infantry", "pinned"): (3, "one_hex"),  # 8.11 'THREE MP's ... ONE HEX'
    ("infantry", "suppressed"): (0, 0),  # 8.15
    ("flamethrower", "normal"): (4, 2),  # 8.14 'FOUR MP's ... TWO MP's'
    ("flamethrower", "pinned"): ("one_hex", 0),  # 8.14
    ("flamethrower", "suppressed"): (0, 0),
    ("crew_weapon", "normal"): ("counter", "one_hex"),  # 8.12
    ("crew_weapon", "pinned"): ("one_hex", 0),  # 8.12
    ("crew_weapon", "suppressed"): (0, 0),
    ("afv", "normal"): (10, 5),  # 8.13 'TEN MP's ... FIVE MP's'
    ("afv", "pinned"): (None, None),  # 8.13 'AFV's are never PINNED'
    ("afv", "suppressed"): (0, 0),
    ("afv_bt7m", "normal"): (12, 6),  # 8.13 'TWELVE MP's ... SIX MP's'
    ("afv_bt7m", "pinned"): (None, None),
    ("afv_bt7m", "suppressed"): (0, 0),
}


@pytest.mark.parametrize(("kind", "status"), sorted(ALLOWANCES))
def test_movement_allowance(kind: str, status: str) -> None:
    cell = MOVEMENT["allowances"][kind][status]
    assert (value(cell["movement_phase"]), value(cell["reaction_phase"])) == ALLOWANCES[kind, status]
    assert "printed" in cell["movement_phase"] and "printed" in cell["reaction_phase"]


def test_crew_weapon_counter_values() -> None:
    """Chart: Crew weapons '0, 3, 4, 5 (a)'; each CW counter's factor is one of them."""
    allowed = value(MOVEMENT["crew_weapon_rules"]["counter_values"])
    assert allowed == [0, 3, 4, 5]
    for side in ("russian", "german"):
        for type_name, cw in COUNTERS["crew_weapons"][side].items():
            assert value(cw["movement"]) in allowed, type_name


def test_counters_agree_with_the_allowance_chart() -> None:
    """The counters' movement values are the chart's: infantry 6/3, FT 4/2, AFV 10/5, BT7m 12/6."""
    table = MOVEMENT["allowances"]

    def normal(kind: str) -> tuple[Any, Any]:
        return value(table[kind]["normal"]["movement_phase"]), value(table[kind]["normal"]["reaction_phase"])

    for side in ("russian", "german"):
        for weapon, values in COUNTERS["infantry_weapons"][side].items():
            kind = "flamethrower" if weapon == "FT" else "infantry"
            assert (value(values["movement"]), value(values["reaction_movement"])) == normal(kind), weapon
        for type_name, afv in COUNTERS["afvs"][side].items():
            kind = "afv_bt7m" if type_name == "BT7m" else "afv"
            assert (value(afv["movement"]), value(afv["reaction_movement"])) == normal(kind), type_name


def test_8_3_leader_directed_movement() -> None:
    """8.3 C: 'a modified PC (+2) ... Movement Allowance reduced to 4 MP's (2 MP's if in the Reaction
    Movement Phase)'."""
    leader = MOVEMENT["leader_directed_movement"]
    assert (
        value(leader["pc_modifier"]),
        value(leader["movement_phase"]),
        value(leader["reaction_phase"]),
    ) == (2, 4, 2)


# --- combat --------------------------------------------------------------------------------------


def test_4_12_pc_modifiers() -> None:
    """4.12: Morale Recovery +2, Leader Directed Movement +2, Opportunity Fire +1, Grenade Attacks +2,
    Assault +1."""
    modifiers = {k: value(v) for k, v in COMBAT["performance_check"]["modifiers"].items()}
    assert modifiers == {
        "morale_recovery": 2,
        "leader_directed_movement": 2,
        "opportunity_fire": 1,
        "grenade_attack": 2,
        "assault": 1,
    }


def result_levels(firepower: int) -> tuple[int, int, int]:
    """AP result levels from the table. Rule 11.42."""
    levels = COMBAT["ap_fire"]["result_levels"]
    assert value(levels["rounding"]) == "up"
    suppressed = math.ceil(firepower / value(levels["suppressed_divisor"]))
    return firepower, suppressed, math.ceil(suppressed / value(levels["eliminated_divisor"]))


def test_11_42_example_firepower_8() -> None:
    """11.43: 'A unit fires with an AP firepower total of 8. Its possible result levels are: Pinned: 8;
    Suppressed: 4; Eliminated: 2. Its fire dice result is a 5 and its target is Pinned.'"""
    example = value(COMBAT["ap_fire"]["result_levels"]["example"])
    assert (
        result_levels(example["firepower"])
        == (8, 4, 2)
        == (example["pinned"], example["suppressed"], example["eliminated"])
    )
    pinned, suppressed, _ = result_levels(8)
    assert suppressed < example["roll"] <= pinned and example["result"] == "P"
    assert result_levels(7) == (7, 4, 2)  # halving rounds up


def test_11_22_range_attenuation_example() -> None:
    """11.2: 'AP factor of 4 and an initial range of 7 ... within 7 hexes would be 4 ... within 8 to 14
    hexes would be 3; within 15 to 21 hexes, 2'."""
    attenuation = COMBAT["ap_fire"]["range_attenuation"]
    example = value(attenuation["example"])
    step = value(attenuation["per_multiple_beyond_initial_range"])
    for hexes in range(1, 22):
        strength = example["ap_factor"] - step * (math.ceil(hexes / example["initial_range"]) - 1)
        expected = next(s for limit, s in example["strength_by_range"] if hexes <= limit)
        assert strength == expected, hexes


def test_11_34_and_12_2_dice() -> None:
    """11.34: 'UP state, two dice ... DOWN state four dice ... An additional die is added if any of the
    firing units moved'; 12.2: 'two dice are rolled. If it moved, three dice'."""
    against_afv = COMBAT["ap_fire"]["dice_against_afv"]
    assert (value(against_afv["up"]), value(against_afv["down"]), value(against_afv["firer_moved"])) == (
        2,
        4,
        1,
    )
    at_dice = COMBAT["at_fire"]["dice"]
    assert (value(at_dice["not_moved"]), value(at_dice["moved"]), value(at_dice["stug_facing_change"])) == (
        2,
        3,
        3,
    )


def covered_rolls(entries: list[dict[str, Any]]) -> list[int]:
    return sorted(roll for entry in entries for roll in entry["rolls"])


def test_15_6_grenade_table() -> None:
    """Grenade Combat Table: Building '1 = E; 2,3 = S; 4,5 = P; 6 = NE' (1 hex); Non-Building
    '1 = E; 2 = S; 3,4 = P; 5,6 = NE' (2 hexes)."""
    grenades = COMBAT["grenades"]
    building = {r: e["result"] for e in value(grenades["building"]["results"]) for r in e["rolls"]}
    other = {r: e["result"] for e in value(grenades["non_building"]["results"]) for r in e["rolls"]}
    assert building == {1: "E", 2: "S", 3: "S", 4: "P", 5: "P", 6: "NE"}
    assert other == {1: "E", 2: "S", 3: "P", 4: "P", 5: "NE", 6: "NE"}
    assert (value(grenades["building"]["max_range"]), value(grenades["non_building"]["max_range"])) == (1, 2)
    assert covered_rolls(value(grenades["building"]["results"])) == [1, 2, 3, 4, 5, 6]


def test_16_flamethrower_table() -> None:
    """Flamethrower Combat Table: 1 hex '2-8 = E; 9-12 = S'; 2 hexes '2-6 = E; 7-12 = S'."""
    for key, last_e in (("range_1", 8), ("range_2", 6)):
        entries = value(COMBAT["flamethrower"][key])
        assert covered_rolls(entries) == list(range(2, 13))
        results = {r: e["result"] for e in entries for r in e["rolls"]}
        assert all(results[r] == ("E" if r <= last_e else "S") for r in range(2, 13))


def test_11_15_intensive_fire_table() -> None:
    """Intensive MG Fire Effects: '6, 8 = No Effect'; '2-4, 10-12 = Weapon Jammed'; '5, 9 = Major Weapon
    Malfunction'; '7 = Weapon Broken'."""
    entries = value(COMBAT["intensive_mg_fire"]["results"])
    assert covered_rolls(entries) == list(range(2, 13))
    results = {r: e["result"] for e in entries for r in e["rolls"]}
    assert [results[r] for r in (6, 8, 2, 12, 5, 9, 7)] == ["no_effect"] * 2 + ["jammed"] * 2 + [
        "major_malfunction"
    ] * 2 + ["broken"]
    assert value(COMBAT["ap_fire"]["intensive_mg_multiplier"]) == 2


def test_14_3_scatter_table() -> None:
    """Mortar Round Scatter Table: '1-3 = T; 4,5 = S1; 6 = S2'; modifiers -1 same target, +1 indirect,
    +1 more than three rounds, +1 under minimum range; rolls clamped to 1-6."""
    scatter = COMBAT["mortar"]["scatter"]
    entries = value(scatter["results"])
    assert covered_rolls(entries) == [1, 2, 3, 4, 5, 6]
    assert {r: e["result"] for e in entries for r in e["rolls"]} == {
        1: "T",
        2: "T",
        3: "T",
        4: "S1",
        5: "S1",
        6: "S2",
    }
    assert {k: value(v) for k, v in scatter["modifiers"].items()} == {
        "same_target_as_previous_turn": -1,
        "indirect_fire": 1,
        "more_than_three_rounds": 1,
        "under_minimum_range": 1,
    }
    assert value(scatter["clamp"]) == [1, 6]
    assert value(COMBAT["mortar"]["max_rounds_by_crew"]) == {"3": 5, "2": 3, "1": 2}  # 14.12


def test_cumulative_combat_results() -> None:
    """Cumulative Combat Results Table: P+P=S, P+S=S, S+P=S, S+S=Special Roll."""
    table = {(e["before"], e["result"]): e["final"] for e in value(COMBAT["cumulative_results"]["table"])}
    assert table == {("P", "P"): "S", ("P", "S"): "S", ("S", "P"): "S", ("S", "S"): "special_roll"}


def modified_table_covers(entries: list[dict[str, Any]], low: int, high: int) -> None:
    """Each integer from low to high falls in exactly one entry; the outer entries are open-ended."""
    for roll in range(low, high + 1):
        hits = [e for e in entries if e.get("min", -math.inf) <= roll <= e.get("max", math.inf)]
        assert len(hits) == 1, roll


def test_24_3_infiltration_tables() -> None:
    """Infiltration Resolution Table: best PR 8 or less 0, 9 -1, 10 -2, 11 -3; multi-hex building -3,
    single-hex building -2, gully -1; distance 1 +6 ... 7+ 0; 'less than 1' SN ... '10+' F3."""
    infiltration = COMBAT["infiltration"]
    results = value(infiltration["results"])
    modified_table_covers(results, -20, 30)
    result = {r: next(e["result"] for e in results if e.get("min", -99) <= r <= e.get("max", 99)) for r in range(0, 11)}
    assert [result[r] for r in range(0, 11)] == [
        "SN",
        "SS",
        "SS",
        "SP",
        "SP",
        "F0",
        "F1",
        "F1",
        "F2",
        "F2",
        "F3",
    ]
    distance = value(infiltration["distance_modifier"])
    modified_table_covers(distance, 1, 40)
    assert [next(e["modifier"] for e in distance if e["min"] <= d <= e.get("max", 99)) for d in range(1, 9)] == [
        6,
        5,
        4,
        3,
        2,
        1,
        0,
        0,
    ]
    best_pr = value(infiltration["best_pr_modifier"])
    modified_table_covers(best_pr, 2, 11)
    terrain = {k: value(v) for k, v in infiltration["terrain_modifier"].items()}
    assert terrain == {"multi_hex_building": -3, "single_hex_building": -2, "gully": -1, "per_tree": -1}


def test_9_2_overrun() -> None:
    """9.2 B: three dice against men + 1 per Tree, IP point, NORMAL commander, +2 in Marsh; 9.2 C: two
    dice + 1 per Tree, IP point, +1 if all PINNED or SUPPRESSED."""
    overrun = COMBAT["overrun"]
    defence = {k: value(v) for k, v in overrun["defensive_infantry"].items()}
    assert defence == {
        "dice": 3,
        "per_man": 1,
        "per_tree": 1,
        "per_ip_point": 1,
        "per_normal_commander": 1,
        "marsh": 2,
    }
    attack = overrun["afv_attack"]
    assert (value(attack["dice"]), value(attack["per_tree"]), value(attack["per_ip_point"])) == (2, 1, 1)
    assert value(attack["all_pinned_or_suppressed"]) == 1
    assert value(overrun["extra_mp"]) == 1


def test_cw_crew_elimination() -> None:
    """11.43 CW: 'If the dice result is 8 or less that crew member is killed'; 15.8: 'On a roll of ten
    or less, the crew member is eliminated'."""
    crew = COMBAT["cw_crew_elimination"]
    assert (value(crew["ap_fire_kill_at_most"]), value(crew["grenade_kill_at_most"])) == (8, 10)
    assert printed(crew["ap_fire_kill_at_most"], "11.43") and printed(crew["grenade_kill_at_most"], "15.8")


def test_19_12_mine_limits() -> None:
    """19.12: 'A maximum of four AP and seven AT factors ... AT LEAST two factors in the hex'."""
    mines = COMBAT["mines"]
    limits = (value(mines[k]) for k in ("max_ap_factors_per_hex", "max_at_factors_per_hex", "min_at_factors_per_hex"))
    assert tuple(limits) == (4, 7, 2)


def test_8_62_stacking() -> None:
    """8.62: 'no more than six men plus one AFV in a hex'; 8.63: 'Only one CW counter may be in a hex'."""
    stacking = {k: value(v) for k, v in COMBAT["stacking"].items()}
    assert stacking == {
        "max_men": 6,
        "max_afvs": 1,
        "max_crew_weapons": 1,
        "men_per_infantry_unit": 1,
        "crew_weapon_men": [2, 4],
    }


def test_23_2_observation_modifiers() -> None:
    """23.2: favouring the target a-g (+1 x6, +2); favouring the observer a-j (-1, -1, -2, -4, -2, -1,
    -2, -3, -4, -5)."""
    observation = COMBAT["observation"]
    assert [value(v) for v in observation["favoring_target"].values()] == [1, 1, 1, 1, 1, 1, 2]
    steps = observation["range_steps"]
    assert (value(steps["initial_hexes"]), value(steps["hexes_per_step"])) == (5, 5)
    assert all(printed(v, "23.2 target a") for v in [*steps.values(), observation["favoring_target"]["per_range_step"]])
    assert value(observation["always_observed_within_hexes"]) == 1
    assert printed(observation["always_observed_within_hexes"], "23.0")
    assert [value(v) for v in observation["favoring_observer"].values()] == [
        -1,
        -1,
        -2,
        -4,
        -2,
        -1,
        -2,
        -3,
        -4,
        -5,
    ]


def test_13_2_opportunity_fire_ranges() -> None:
    """13.2: 'Infantry: three hexes'; MGs their initial range; 'AP factors (4 factors maximum) up to a
    maximum range of ten hexes'."""
    ranges = COMBAT["opportunity_fire_ranges"]
    assert value(ranges["infantry"]) == 3
    assert value(ranges["mg"]) == "initial_range"
    assert (value(ranges["afv_ap_max_factors"]), value(ranges["afv_ap_max_range"])) == (4, 10)


def test_combat_is_all_printed_but_the_two_diagrams() -> None:
    """combat.yaml holds printed numbers only, but for the two diagrams the rulebook refers to and
    does not print: the facing diagram of the frontal area (8.7, R96) and the Scatter Diagram (14.3 b,
    R138), both assumed; and two numbers of the advanced rules the book leaves out: an FT's ammo
    cost (22.2, R345) and 23.33's scatter at an unobserved hex (R349)."""
    assumed = [path for path, node in sourced_values(COMBAT) if "assumed" in node]
    assert sorted(assumed) == [
        ("ammo_points", "flamethrower"),
        ("frontal_area", "half_angle_degrees"),
        ("mortar", "scatter", "diagram"),
        ("mortar", "unobserved_scatter_modifier"),
    ]


# --- Sighting Chart ----------------------------------------------------------------------------------


def test_sighting_chart_axes() -> None:
    """Sighting Chart: 'range marks from 1 to 20 hexes (marked 1, 10, 15 and 20 along the top)';
    'levels 0, 1/2, 1 and 2'."""
    assert value(SIGHTING["levels"]) == [0, 0.5, 1, 2]
    assert value(SIGHTING["range_axis"]["marks"]) == list(range(1, 21))
    assert value(SIGHTING["range_axis"]["labelled_marks"]) == [1, 10, 15, 20]
    assert value(SIGHTING["range_axis"]["label"]) == "Range to lower hex"


def test_10_34_and_10_32() -> None:
    """10.34: 'considered to be at the lower of the two'; 10.32 b: 'touching or crossing above the line
    ... the LOS is blocked'; 10.33: LOS extends INTO a blocking hex."""
    assert value(SIGHTING["unit_level"]["two_levels_in_hex"]) == "lower"
    assert printed(SIGHTING["unit_level"]["two_levels_in_hex"], "10.34")
    assert value(SIGHTING["obstacles"]["blocks_when"]) == "touching_or_above"
    assert value(SIGHTING["obstacles"]["end_hexes_block"]) is False
    assert "obstacle_level" in value(SIGHTING["obstacles"]["source_of_levels"])


def test_printed_numbers_the_rules_engine_applies() -> None:
    """18.0: 'IP's are rated in points (1, 2 or 3)'; 5.2: acting leaders 'with a Performance Rating (PR)
    of 9 or greater'; 8.72: ATG's 'with a crew strength of 3 or 4 may change facing ... with a crew
    strength of 1 or 2 may never change facing'; 10.15: 'An ATG with a reduced crew strength of only 1
    or 2 may fire only ONCE in a GAME TURN'; 10.16: 'An ATR without a full crew may not fire at all'."""
    assert value(COMBAT["improved_positions"]["points"]) == [1, 2, 3]
    assert printed(COMBAT["improved_positions"]["points"], "18.0")
    leaders = COMBAT["leaders"]
    assert (value(leaders["acting_leader_min_pr"]), value(leaders["acting_leader_excluded"])) == (
        9,
        ["CW", "FT", "AFV"],
    )
    fire = COMBAT["crew_fire"]
    assert [value(fire[k]) for k in fire] == [2, 1, False]
    assert printed(fire["reduced_atg_crew_at_most"], "10.15") and printed(fire["atr_short_crew_may_fire"], "10.16")
    facing = MOVEMENT["facing"]
    assert (value(facing["atg_turns_with_crew_at_least"]), value(facing["atg_never_turns_with_crew_at_most"])) == (3, 2)
    assert printed(facing["atg_turns_with_crew_at_least"], "8.72") and printed(facing["mg_turns_any_crew"], "8.73")


def test_10_31_b_limit_and_8_54_woods_are_table_values() -> None:
    """10.31 b: 'more than three Tree symbols, AFV units, or Wreck markers'; 8.54: 'Woods hexes (hexes
    with 2 or more Tree symbols)': the engine reads both from the tables."""
    from engine.model.tables import sighting_rules, terrain_effects
    from engine.model.terrain import Terrain

    assert value(SIGHTING["same_level"]["max_trees_along"]) == sighting_rules().max_trees_along == 3
    assert printed(SIGHTING["same_level"]["max_trees_along"], "10.31 b")
    threshold = terrain_effects().woods_min_trees
    assert not Terrain(trees=threshold - 1).is_woods and Terrain(trees=threshold).is_woods
