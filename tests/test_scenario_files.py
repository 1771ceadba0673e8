"""The six scenario files and the printed-as-is fixtures against the schema and the
rulebook's printed numbers (24.4-24.9; rulings in docs/rulings.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from engine.model.schema_validation import validator

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8"))
# The engine's validator: it resolves the scenario schema's references to setup and assertions.
VALIDATOR = validator("scenario")

SCENARIOS = {
    1: "s1-demyansk-pocket.yaml",
    2: "s2-khristishche.yaml",
    3: "s3-closing-the-ring.yaml",
    4: "s4-tula.yaml",
    5: "s5-through-the-marshes.yaml",
    6: "s6-spartakovka.yaml",
}
FIXTURES = {2: "s2-as-printed.yaml", 4: "s4-as-printed.yaml", 6: "s6-as-printed.yaml"}
SCENARIO_PATHS = [ROOT / "scenarios" / name for name in SCENARIOS.values()]
FIXTURE_PATHS = [ROOT / "tests" / "fixtures" / "printed" / name for name in FIXTURES.values()]
ALL_PATHS = SCENARIO_PATHS + FIXTURE_PATHS


def load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def scenario(number: int) -> dict[str, Any]:
    return load(ROOT / "scenarios" / SCENARIOS[number])


def printed_text(data: dict[str, Any]) -> str:
    """Every printed string of a scenario file, joined: a quoted fact must be among them."""

    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("printed", "printed_notes", "background") and isinstance(value, str):
                    yield value
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    return "\n".join(walk(data))


def side_totals(side: dict[str, Any]) -> tuple[int, int, int, int]:
    """IP markers, IP points, AP and AT mine factors of a side, its groups included."""
    holders = [side, *side["groups"]]
    ips = [ip for holder in holders for ip in holder.get("improved_positions", [])]
    mines = [holder["mines"] for holder in holders if "mines" in holder]
    return (
        sum(ip["count"] for ip in ips),
        sum(ip["count"] * ip["points"] for ip in ips),
        sum(m["ap_factors"] for m in mines),
        sum(m["at_factors"] for m in mines),
    )


# --- schema --------------------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$id"] == "https://iceditor.example/schemas/scenario/2.json"


@pytest.mark.parametrize("path", ALL_PATHS, ids=lambda p: p.name)
def test_file_validates_against_schema(path: Path) -> None:
    data = load(path)
    assert next(iter(data)) == "format", "the first key of every file is format: (formats.md)"
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)]
    assert errors == []


@pytest.mark.parametrize(
    "bad",
    [
        {"hexes": ["4307"], "hill": "K"},  # two keys in one expression
        {"hexes": ["437"]},  # not a label
        {"side_of": {"side": "north"}},  # no line
        {"side_of": {"side": "north", "row": 6, "column": 35}},  # two lines
        {"side_of": {"side": "up", "row": 6}},  # not a compass direction
        {"any_of": [{"terrain": "forest"}]},  # not a terrain
        {"line": ["3001"]},  # a line needs two ends
    ],
)
def test_schema_rejects_malformed_zone_expressions(bad: dict[str, Any]) -> None:
    data = scenario(1)
    data["zones"]["objectives"]["area"] = bad
    assert list(VALIDATOR.iter_errors(data))


def test_schema_rejects_unknown_keys_and_bad_members() -> None:
    data = scenario(1)
    data["sides"]["german"]["groups"][0]["units"][0]["colour"] = "grey"
    assert list(VALIDATOR.iter_errors(data))
    data = scenario(1)
    data["sides"]["russian"]["groups"][0]["units"][0]["less"] = ["LMG 8"]
    assert list(VALIDATOR.iter_errors(data))


def test_formats_md_scenario_example_validates() -> None:
    """Every construct of formats.md's Scenario section is expressible."""
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    blocks = text.split("```yaml\n")[1:]
    blocks = [b.split("```")[0] for b in blocks]
    example = next(b for b in blocks if "iron-cross-scenario/2" in b)
    victory = next(b for b in blocks if b.startswith("victory:"))
    data = yaml.safe_load(example.replace("victory: ...\n", victory))
    data["restrictions"] = [
        {
            "units": [{"afv": "BT7m", "number": 1}],
            "may_not_move_before": {"side": "russian", "turn": 2},
            "printed": "they may not move until Russian Player Turn 2.",
        }
    ]
    assert [e.message for e in VALIDATOR.iter_errors(data)] == []


# --- references inside a file ----------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_PATHS, ids=lambda p: p.name)
def test_named_zones_and_groups_resolve(path: Path) -> None:
    data = load(path)
    zones = set(data.get("zones", {}))

    def zone_names(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "zone" and isinstance(value, str):
                    yield value
                else:
                    yield from zone_names(value)
        elif isinstance(node, list):
            for item in node:
                yield from zone_names(item)

    assert set(zone_names(data)) <= zones
    for side in data["sides"].values():
        groups = {g["name"] for g in side["groups"]}
        for item in side.get("deployment", []) + side.get("entries", []):
            if "group" in item:
                assert item["group"] in groups
    for restriction in data.get("restrictions", []):
        if "group" in restriction:
            assert restriction["group"] in {g["name"] for g in data["sides"][restriction["side"]]["groups"]}


@pytest.mark.parametrize("number", SCENARIOS)
def test_every_group_deploys_or_enters(number: int) -> None:
    for side in scenario(number)["sides"].values():
        placed = {i["group"] for i in side.get("deployment", []) + side.get("entries", []) if "group" in i}
        assert {g["name"] for g in side["groups"]} <= placed


@pytest.mark.parametrize("number", SCENARIOS)
def test_every_side_keeps_its_printed_set_up_line(number: int) -> None:
    for name, side in scenario(number)["sides"].items():
        assert side["printed"].startswith(f"{name.upper()} SET-UP:")
        assert side["printed_notes"].startswith(f"{name.capitalize()} player notes:")


# --- printed facts ------------------------------------------------------------------------------

# (scenario, printed text, value)
GAME_LENGTHS = [
    (1, "GAME LENGTH: 7 Game Turns", 7),
    (2, "GAME LENGTH: 9 Game Turns", 9),
    (3, "GAME LENGTH: 7 Game Turns", 7),
    (4, "GAME LENGTH: 6 Game Turns", 6),
    (5, "GAME LENGTH: 6 Game Turns", 6),
    (6, "GAME LENGTH: 12 Game Turns", 12),
]


@pytest.mark.parametrize(("number", "printed", "turns"), GAME_LENGTHS)
def test_game_length(number: int, printed: str, turns: int) -> None:
    data = scenario(number)
    assert data["printed"]["game_length"] == printed
    assert data["game_length"] == turns


NORTH = [
    (1, "NORTH INDICATOR: Place in hex 5001 pointing to hex 5002.", "5001", "5002"),
    (2, "NORTH INDICATOR: Place in hex 1002 pointing to hex 1001.", "1002", "1001"),
    (3, "NORTH INDICATOR: Place in hex 5002 pointing to hex 5001.", "5002", "5001"),
    (4, "NORTH INDICATOR: Place in hex 1026 pointing to hex 1027.", "1026", "1027"),
    (5, "NORTH INDICATOR: Place in hex 7002 pointing to hex 7001.", "7002", "7001"),
    (6, "NORTH INDICATOR: Place in hex 5001 pointing to hex 5002.", "5001", "5002"),
]


@pytest.mark.parametrize(("number", "printed", "hex_", "toward"), NORTH)
def test_north_indicator(number: int, printed: str, hex_: str, toward: str) -> None:
    assert scenario(number)["north"] == {"hex": hex_, "toward": toward, "printed": printed}


MAPS = [
    (1, "MAP: Map 2 (hex columns 3001/3027 to 5001/5027) is used.", ["map2"]),
    (2, "MAP: Map 1 (hex columns 1001/1027 to 3001/3027) is used.", ["map1"]),
    (3, "MAP: Map 2 (hex columns 3001/3027 to 5001/5027) is used.", ["map2"]),
    (4, "MAP: Map 1 (hex columns 1001/1027 to 3001/3027) is used.", ["map1"]),
    (5, "MAP: Map 3 (hex columns 5001/5027 to 7001/7027) is used.", ["map3"]),
    (6, "MAP: Maps 1 and 2 (hex columns 1001/1027 to 5001/5027) are used.", ["map1", "map2"]),
]


@pytest.mark.parametrize(("number", "printed", "maps"), MAPS)
def test_maps(number: int, printed: str, maps: list[str]) -> None:
    data = scenario(number)
    assert data["printed"]["map"] == printed
    assert data["maps"] == maps


# (scenario, printed note, side that sets up first, printed note, side that moves first)
FIRST = [
    (1, "1. German player sets up first.", "german", "1. Russian player moves first.", "russian"),
    (2, "1. German player sets up first.", "german", "1. Russian player moves first.", "russian"),
    (3, "1. Russian player sets up first.", "russian", "1. German player moves first.", "german"),
    (4, "1. Russian player sets up first.", "russian", "1. German player moves first.", "german"),
    (5, "- Russian player sets up first.", "russian", "- German player moves first.", "german"),
    (6, "- Russian player sets up first.", "russian", "- German player moves first.", "german"),
]


@pytest.mark.parametrize(("number", "sets_up_text", "sets_up", "moves_text", "moves"), FIRST)
def test_sets_up_and_moves_first(number: int, sets_up_text: str, sets_up: str, moves_text: str, moves: str) -> None:
    data = scenario(number)
    assert sets_up_text in data["sides"][sets_up]["printed_notes"]
    assert moves_text in data["sides"][moves]["printed_notes"]
    assert data["sets_up_first"] == sets_up
    assert data["moves_first"] == moves


GRENADES = [
    (1, "german", "Grenades (6)", 6),
    (1, "russian", "Grenades (10)", 10),
    (2, "german", "Grenades (15)", 15),
    (2, "russian", "Grenades (10)", 10),
    (3, "russian", "Grenades (6)", 6),
    (3, "german", "Grenades (12)", 12),
    (4, "russian", "Grenades (10)", 10),
    (4, "german", "Grenades (24)", 24),
    (5, "russian", "Grenades (12)", 12),
    (5, "german", "Grenades (15)", 15),
    (6, "russian", "T34b #'s 1 & 2; Grenades (32).", 32),  # R18: the side's, printed in Group 4
    (6, "german", "Grenades (32).", 32),
]


@pytest.mark.parametrize(("number", "side", "printed", "grenades"), GRENADES)
def test_grenades(number: int, side: str, printed: str, grenades: int) -> None:
    data = scenario(number)["sides"][side]
    assert printed in data["printed"]
    assert data["grenades"] == grenades


HIDDEN_HEXES = [
    (1, "german", "2. May have 2 hidden hexes.", 2),
    (2, "german", "2. May have 3 hidden hexes.", 3),
    (3, "russian", "2. May have 3 hidden hexes.", 3),
    (4, "russian", "2. May have 3 hidden hexes.", 3),
    (5, "russian", "- May have 6 hidden hexes.", 6),
    (6, "russian", "- May have 12 hidden hexes.", 12),
]


@pytest.mark.parametrize(("number", "side", "printed", "count"), HIDDEN_HEXES)
def test_hidden_hexes(number: int, side: str, printed: str, count: int) -> None:
    data = scenario(number)
    assert printed in data["sides"][side]["printed_notes"]
    assert data["sides"][side]["hidden_hexes"] == count
    other = "russian" if side == "german" else "german"
    assert data["sides"][other].get("hidden_hexes", 0) == 0


# (scenario, side, printed, IP markers, IP points, AP mine factors, AT mine factors)
FORTIFICATIONS = [
    (1, "german", "IP1 x 2", 2, 2, 0, 0),
    (1, "russian", "", 0, 0, 0, 0),
    (
        2,
        "german",
        "IP3 x 1 on any building hex; IP2 x 2 on any building hex; IP1 x 3 on any building hex",
        6,
        10,
        0,
        0,
    ),
    (2, "russian", "", 0, 0, 0, 0),
    (3, "russian", "IP2 x 1; IP1 x 2", 3, 4, 0, 0),
    (3, "german", "", 0, 0, 0, 0),
    (4, "russian", "IP1 x 3; IP2 x 1; 10 AT Mine Factors", 4, 5, 0, 10),
    (4, "german", "IP2 x 1", 1, 2, 0, 0),
    (5, "russian", "IP1 x 3; 12 AT Mine Factors", 3, 3, 0, 12),
    (5, "german", "", 0, 0, 0, 0),
    # Group 1 "IP2 x 1"; Group 2 "IP3 x 1; IP2 x 1; IP1 x 1; 38 AT Mine Factors; 38 AP Mine
    # Factors"; Group 3 "IP1 x 2; 12 AT Mine Factors; 12 AP Mine Factors" (R10).
    (6, "russian", "IP3 x 1; IP2 x 1; IP1 x 1; 38 AT Mine Factors; 38 AP Mine Factors", 6, 10, 50, 50),
    (6, "german", "", 0, 0, 0, 0),
]


@pytest.mark.parametrize(("number", "side", "printed", "ips", "points", "ap", "at"), FORTIFICATIONS)
def test_improved_positions_and_mines(
    number: int, side: str, printed: str, ips: int, points: int, ap: int, at: int
) -> None:
    data = scenario(number)["sides"][side]
    assert printed in data["printed"]
    assert side_totals(data) == (ips, points, ap, at)


def test_s2_improved_positions_only_on_buildings() -> None:
    """24.5: "IP3 x 1 on any building hex; IP2 x 2 on any building hex; IP1 x 3 on any building hex"."""
    ips = scenario(2)["sides"]["german"]["improved_positions"]
    assert [(ip["points"], ip["count"]) for ip in ips] == [(3, 1), (2, 2), (1, 3)]
    assert all(ip["zone"] == {"terrain": "building"} for ip in ips)


def test_s6_improved_positions_and_mines_per_group() -> None:
    groups = {g["name"]: g for g in scenario(6)["sides"]["russian"]["groups"]}
    # "GROUP 1: ...; IP2 x 1."
    assert groups["group-1"]["improved_positions"] == [{"points": 2, "count": 1, "printed": "IP2 x 1"}]
    # "GROUP 2: ...; 38 AT Mine Factors; 38 AP Mine Factors."
    assert (groups["group-2"]["mines"]["ap_factors"], groups["group-2"]["mines"]["at_factors"]) == (38, 38)
    # "GROUP 3: Squad D (22) less R PR9, IP1 x 2; 12 AT Mine Factors; 12 AP Mine Factors."
    assert groups["group-3"]["units"] == [{"squad": "D", "ammo": 22, "less": ["R PR9"]}]
    assert [(ip["points"], ip["count"]) for ip in groups["group-3"]["improved_positions"]] == [(1, 2)]
    assert (groups["group-3"]["mines"]["ap_factors"], groups["group-3"]["mines"]["at_factors"]) == (12, 12)


# --- units and readings ----------------------------------------------------------------------


def units_of(data: dict[str, Any], side: str) -> list[dict[str, Any]]:
    return [u for g in data["sides"][side]["groups"] for u in g["units"]]


def test_less_lists_carry_the_weapon_type_forward() -> None:
    """R4: "Squad A (9) less LMG PR9, R PR8, PR7, PR6"; "Squad D (9) less R PR9, PR9, PR6, PR5"."""
    units = {u.get("squad"): u for u in units_of(scenario(5), "russian") if "squad" in u}
    assert units["A"]["less"] == ["LMG PR9", "R PR8", "R PR7", "R PR6"]
    assert units["D"]["less"] == ["R PR9", "R PR9", "R PR6", "R PR5"]
    # "Squad E (12) less LMG PR10 and 2 FT's"
    squad_e = next(u for u in units_of(scenario(2), "german") if u.get("squad") == "E")
    assert squad_e["less"] == ["LMG PR10", "FT", "FT"]


def test_only_lists_and_counts() -> None:
    """R4: "Squad F (3 units, MP PR9, PR8, PR6 only)";
    "Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)"."""
    data = scenario(4)
    squad_f = next(u for u in units_of(data, "russian") if u.get("squad") == "F")
    assert (squad_f["only"], squad_f["count"]) == (["MP PR9", "MP PR8", "MP PR6"], 3)
    squad_e = next(u for u in units_of(data, "german") if u.get("squad") == "E")
    assert squad_e["only"] == [
        "MP PR10",
        {"unit": "LMG PR9", "ammo": 10},
        "R PR8",
        {"unit": "FT PR9", "ammo": 4},
    ]
    assert squad_e["count"] == len(squad_e["only"]) == 4


@pytest.mark.parametrize("number", [4, 6])
def test_ive_is_read_as_ivd(number: int) -> None:
    """R8: "IVe #1"; the printed fixture keeps it."""
    afvs = [u for u in units_of(scenario(number), "german") if "afv" in u]
    read = [(a["afv"], a["number"]) for a in afvs if a.get("printed_as") == "IVe #1"]
    assert read == [("IVd", 1)]
    assert all(a["afv"] != "IVe" for a in afvs)
    fixture = load(ROOT / "tests" / "fixtures" / "printed" / FIXTURES[number])
    assert {"afv": "IVe", "number": 1} in units_of(fixture, "german")


def test_s6_stug_and_squad_e() -> None:
    """R9: "Stug III 6's 1 & 2"; R5: "Squad E (20 each)"."""
    group_2 = next(g for g in scenario(6)["sides"]["german"]["groups"] if g["name"] == "group-2")
    assert [(u.get("afv"), u.get("number")) for u in group_2["units"][1:]] == [
        ("StugIIIb", 1),
        ("StugIIIb", 2),
    ]
    assert group_2["units"][0]["squad"] == "E" and group_2["units"][0]["ammo"] == {"each": 20}  # R81


def test_s2_squad_d_is_deployed_as_squad_c() -> None:
    """R6: "3. Squad D must deploy in any type building hex south of road ..."."""
    german = scenario(2)["sides"]["german"]
    note_3 = german["deployment"][0]
    assert note_3["printed"].startswith("3. Squad D must deploy")
    assert note_3["group"] == "squad-c"
    assert (note_3["correction"]["printed"], note_3["correction"]["reads"]) == ("Squad D", "Squad C")
    squad_c = next(g for g in german["groups"] if g["name"] == "squad-c")
    assert {"squad": "C", "ammo": 12} in squad_c["units"]
    assert all(u.get("squad") != "D" for u in units_of(scenario(2), "german"))
    fixture = load(ROOT / "tests" / "fixtures" / "printed" / FIXTURES[2])
    assert fixture["sides"]["german"]["deployment"][0]["units"] == [{"squad": "D"}]
    assert "correction" not in fixture["sides"]["german"]["deployment"][0]


def test_scenario_text_errata_are_applied() -> None:
    """R13: S4 "'2703' should read '2613'"; S5 "'5115' and '5127' should read '5015' and '5027'"."""
    s4 = scenario(4)["zones"]
    for name in ("russian-deployment", "german-deployment"):
        road = s4[name]["area"]["side_of"]["road"]
        assert "2613" in road and "2703" not in road
    assert "2703" in s4["russian-deployment"]["printed"]
    s5 = scenario(5)
    assert s5["zones"]["german-turn-2-entry"]["area"] == {"line": ["5015", "5027"]}
    assert "5115 and 5127" in s5["zones"]["german-turn-2-entry"]["printed"]


def test_entries_with_choices_and_limits() -> None:
    # S3: "Squad D and PS enter on turn 3 from hexes 3001 to 3013 or from hexes 5001 to 5012
    # (this choice must be made prior to the start of the game)."
    late = scenario(3)["sides"]["german"]["entries"][1]
    assert late["choose"] == "before_play" and [o["turn"] for o in late["options"]] == [3, 3]
    assert scenario(3)["zones"]["german-late-entry-west"]["area"] == {"line": ["3001", "3013"]}
    # S5: "Up to 1 squad, 1 commander, 1 CW, 1 AFV may enter ... on turn 2" (before_setup)
    exception = scenario(5)["sides"]["german"]["entries"][1]
    assert exception["limit"] == {"squads": 1, "commanders": 1, "crew_weapons": 1, "afvs": 1}
    assert exception["choose"] == "before_setup" and exception["options"][0]["turn"] == 2
    # S5: "The T34a enters on the north mapedge during the Russian Reaction Movement Phase of turn 4."
    t34a = scenario(5)["sides"]["russian"]["entries"][0]
    assert (t34a["options"][0]["turn"], t34a["options"][0]["phase"]) == (4, "reaction_movement")
    # S5: "they may not move until Russian Player Turn 2."
    assert scenario(5)["restrictions"][0]["may_not_move_before"] == {"side": "russian", "turn": 2}
    # S6: "Group 4 may enter on the east mapedge of Map 1 on turn 9, or ... on turn 10."
    group_4 = scenario(6)["sides"]["russian"]["entries"][0]
    assert [o["turn"] for o in group_4["options"]] == [9, 10]
    # S6: "SPECIAL: One squad, one commander, one MMG and two AFV's from Group 1 may enter ..."
    special = scenario(6)["sides"]["german"]["entries"][0]
    assert special["limit"] == {
        "squads": 1,
        "commanders": 1,
        "crew_weapons": {"count": 1, "types": ["MMG"]},
        "afvs": 2,
    }


def test_victory_conditions() -> None:
    # S1: "The player who has at least one unit in both hex 4307 and hex 4308 ..., wins."
    s1 = scenario(1)
    assert s1["zones"]["objectives"]["area"] == {"hexes": ["4307", "4308"]}
    assert [r["winner"] for r in s1["victory"]["results"]] == ["german", "russian"]
    assert s1["victory"]["otherwise"] == "draw"
    # S3 and S5: "Any other result is a Russian victory."
    assert scenario(3)["victory"]["otherwise"] == scenario(5)["victory"]["otherwise"] == "russian"
    # S6: "0-13 Russian Victory, 14-18 Draw, 19-34 German Victory"
    points = scenario(6)["victory"]["points"]
    assert [(s["vp"], s["result"]) for s in points["schedule"]] == [
        ([0, 13], "russian"),
        ([14, 18], "draw"),
        ([19, 34], "german"),
    ]
    # "Building 1 (13 hexes total), Building 3 (5 hexes total), and Building 4 (7 hexes total)"
    assert points["awards"][0]["per_hex_controlled"]["sizes"] == {"1": 13, "3": 5, "4": 7}
    assert [a["vp"] for a in points["awards"]] == [1, 3]


@pytest.mark.parametrize("number", SCENARIOS)
def test_printed_background_and_quotes_are_in_the_rulebook(number: int, rulebook: str) -> None:
    """The printed strings quote the rulebook (whitespace aside)."""
    rulebook = " ".join(rulebook.split())
    data = scenario(number)
    assert " ".join(data["background"].split()) in rulebook
    for line in (
        data["printed"]["heading"],
        data["printed"]["map"],
        data["printed"]["game_length"],
        data["north"]["printed"],
    ):
        assert line in rulebook
    for side in data["sides"].values():
        for line in side["printed"].splitlines():
            assert " ".join(line.split()) in rulebook


@pytest.mark.parametrize("number", FIXTURES)
def test_printed_fixture_differs_only_by_the_ruling(number: int) -> None:
    """Each fixture is its scenario file with one ruling undone (R6 for S2, R8 for S4 and S6)."""
    expected = scenario(number)
    if number == 2:
        expected["sides"]["german"]["deployment"][0] = {
            "units": [{"squad": "D"}],
            "zone": "german-south-buildings",
            "printed": expected["sides"]["german"]["deployment"][0]["printed"],
        }
    else:
        for group in expected["sides"]["german"]["groups"]:
            group["units"] = [
                {"afv": "IVe", "number": 1} if u.get("printed_as") == "IVe #1" else u for u in group["units"]
            ]
    assert load(ROOT / "tests" / "fixtures" / "printed" / FIXTURES[number]) == expected
