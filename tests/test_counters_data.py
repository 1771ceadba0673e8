"""counters/counters.yaml against its schema, the scenarios' squad clauses and the rulebook's
printed numbers (2.21-2.23, 8.1, 8.7, 10.23, 11.2, 14.12, 16.0, 24.1, 24.4-24.9)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parents[1]
SIDES = ("russian", "german")


def load(*parts: str) -> Any:
    return yaml.safe_load((ROOT.joinpath(*parts)).read_text(encoding="utf-8"))


def validator(name: str) -> Draft202012Validator:
    """The validator of schemas/NAME.schema.json, with every bundled schema registered for $refs."""
    schemas = {
        p.name.removesuffix(".schema.json"): json.loads(p.read_text(encoding="utf-8"))
        for p in (ROOT / "schemas").glob("*.schema.json")
    }
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    Draft202012Validator.check_schema(schemas[name])
    return Draft202012Validator(schemas[name], registry=registry)


def sourced_values(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Every sourced value ({value, printed|assumed}) in a document, with its path."""
    if isinstance(node, dict):
        if "value" in node:
            yield path, node
            return
        for key, child in node.items():
            yield from sourced_values(child, (*path, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from sourced_values(child, (*path, i))


def provenance_texts(node: Any) -> Iterator[str]:
    """Every `printed:` text of a document (sourced values and list entries alike)."""
    if isinstance(node, dict):
        for key, child in node.items():
            if key == "printed" and isinstance(child, str):
                yield child
            else:
                yield from provenance_texts(child)
    elif isinstance(node, list):
        for child in node:
            yield from provenance_texts(child)


# A quotation inside a `printed:` text: 'words', opened after a space, colon or bracket and
# closed before a space, punctuation or the end (so "FT's" and "#'s" stay inside).
QUOTE = re.compile(r"(?:(?<=[\s:(])|^)'(.+?)'(?=[\s,;.)]|$)")


def misquotes(document: Any, rulebook: str) -> list[str]:
    """The quoted fragments of `printed:` texts that are not words of the rulebook."""
    text = " ".join(rulebook.split())
    missing = []
    for printed in provenance_texts(document):
        for quote in QUOTE.findall(printed):
            for piece in quote.split("..."):
                piece = " ".join(piece.split())
                if piece and piece not in text:
                    missing.append(f"{piece!r} (in {printed!r})")
    return missing


COUNTERS = load("counters", "counters.yaml")


def test_schema_accepts_the_counters() -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator("counters").iter_errors(COUNTERS)]
    assert errors == []
    assert COUNTERS["format"] == "iron-cross-counters/1"


def test_schema_rejects_a_value_with_both_or_no_provenance() -> None:
    """docs/formats.md, Provenance: a sourced value has exactly one of printed and assumed."""
    check = validator("counters")
    for bad in ({"value": 4}, {"value": 4, "printed": "11.2", "assumed": "x"}, {"value": 4, "printed": ""}):
        doc = json.loads(json.dumps(COUNTERS))
        doc["infantry_weapons"]["russian"]["R"]["ap_factor"] = bad
        assert list(check.iter_errors(doc)), bad


def test_schema_rejects_ive() -> None:
    """2.22 lists IVd and IVf2 only: 'IVd&f2 (PzKfw IVd & f2)'; the scenarios' "IVe" is no counter."""
    doc = json.loads(json.dumps(COUNTERS))
    doc["afvs"]["german"]["IVe"] = doc["afvs"]["german"]["IVd"]
    assert list(validator("counters").iter_errors(doc))


# --- every value sourced ---------------------------------------------------------------------

# Keys that are not counter values: names, ids and the provenance texts themselves.
STRUCTURAL = {
    "format",
    "name",
    "source",
    "notes",
    "note",
    "printed",
    "assumed",
    "weapon",
    "pr",
    "rank",
    "ids",
}


def bare_values(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Paths of scalars that stand outside any sourced value."""
    if isinstance(node, dict):
        if "value" in node:
            return
        for key, child in node.items():
            if key not in STRUCTURAL:
                yield from bare_values(child, (*path, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from bare_values(child, (*path, i))
    else:
        yield path


def entries() -> Iterator[tuple[str, dict[str, Any]]]:
    """Squad members, commanders, crew weapon and AFV types: each sourced by printed/assumed."""
    for side in SIDES:
        for letter, squad in COUNTERS["squads"][side].items():
            for member in squad["units"]:
                yield f"{side} Squad {letter} {member['weapon']} PR{member['pr']}", member
        for commander in COUNTERS["commanders"][side]:
            yield f"{side} {commander['rank']} PR{commander['pr']}", commander
        for kind in ("crew_weapons", "afvs"):
            for type_name, entry in COUNTERS[kind][side].items():
                yield f"{side} {type_name}", entry


def test_every_counter_value_is_sourced() -> None:
    """docs/formats.md: every number the rulebook does not print is marked as an assumption."""
    assert list(bare_values(COUNTERS)) == []
    for path, value in sourced_values(COUNTERS):
        assert sum(k in value for k in ("printed", "inferred", "assumed")) == 1, path
        reason = value.get("printed") or value.get("inferred") or value.get("assumed")
        assert isinstance(reason, str) and reason.strip() and "\n" not in reason, path


def test_every_entry_is_sourced() -> None:
    for name, entry in entries():
        assert ("printed" in entry) != ("assumed" in entry), name
        assert (entry.get("printed") or entry.get("assumed")).strip(), name


def test_printed_sources_name_a_rule_or_scenario() -> None:
    """A printed value names where it is printed: a rule number (11.2, 24.4) or a chart."""
    for text in provenance_texts(COUNTERS):
        assert re.search(r"\b\d+\.\d+\b|Chart", text), text


def test_quotations_are_the_rulebooks_words(rulebook: str) -> None:
    assert misquotes(COUNTERS, rulebook) == []


# --- squad clauses of the scenarios (24.1, 24.4-24.9) ------------------------------------------

# Every squad a scenario fields, as printed in its SET-UP list. The squad's own number in
# parentheses is its LMG ammo (24.1).
FIELDED = [
    ("24.4", "german", "Squad C (10)"),
    ("24.4", "russian", "Squad A (8) less LMG PR8"),
    ("24.4", "russian", "Squad B (8) less LMG PR8"),
    ("24.4", "russian", "Squad C (8) less R PR9"),
    ("24.5", "german", "Squad C (12)"),
    ("24.5", "german", "Squad E (12) less LMG PR10 and 2 FT's"),
    ("24.5", "russian", "Squad A (10) less LMG PR8"),
    ("24.5", "russian", "Squad G"),
    ("24.6", "russian", "Squad C less LMG PR8"),
    ("24.6", "russian", "Squad D (10) less R PR8"),
    ("24.6", "german", "Squad B (10)"),
    ("24.6", "german", "Squad C (10)"),
    ("24.6", "german", "Squad D"),
    ("24.7", "russian", "Squad A (7) less LMG PR8"),
    ("24.7", "russian", "Squad D (7) less R PR8"),
    ("24.7", "russian", "Squad F (3 units, MP PR9, PR8, PR6 only)"),
    ("24.7", "german", "Squad B (6)"),
    ("24.7", "german", "Squad C (6)"),
    ("24.7", "german", "Squad D"),
    ("24.7", "german", "Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)"),
    ("24.8", "russian", "Squad A (9) less LMG PR9, R PR8, PR7, PR6"),
    ("24.8", "russian", "Squad C (9) less R PR9, PR8, PR7, PR6"),
    ("24.8", "russian", "Squad D (9) less R PR9, PR9, PR6, PR5"),
    ("24.8", "german", "Squad A (10)"),
    ("24.8", "german", "Squad B (10)"),
    ("24.8", "german", "Squad C (10)"),
    ("24.9", "russian", "Squad A (18) less R PR9, PR7, PR6, PR5"),
    ("24.9", "russian", "Squad B (20) less R PR9, PR8, PR6, PR5"),
    ("24.9", "russian", "Squad C (20) less R PR8, PR7, PR6, PR5"),
    ("24.9", "russian", "Squad D (22) less R PR9"),
    ("24.9", "russian", "Squad F"),
    ("24.9", "russian", "Squad G"),
    ("24.9", "german", "Squad A (24)"),
    ("24.9", "german", "Squad B (24)"),
    ("24.9", "german", "Squad C (24)"),
    ("24.9", "german", "Squad E (20 each)"),
]

# The clause lists as read (docs/rulings.md): a type carries forward to the bare PRs after it,
# "2 FT's" is two flamethrowers of any PR, and "(n)" after an "only" unit is its own ammo.
EXPANDED = {
    "Squad A (8) less LMG PR8": ["LMG PR8"],
    "Squad B (8) less LMG PR8": ["LMG PR8"],
    "Squad C (8) less R PR9": ["R PR9"],
    "Squad E (12) less LMG PR10 and 2 FT's": ["LMG PR10", "FT", "FT"],
    "Squad A (10) less LMG PR8": ["LMG PR8"],
    "Squad C less LMG PR8": ["LMG PR8"],
    "Squad D (10) less R PR8": ["R PR8"],
    "Squad A (7) less LMG PR8": ["LMG PR8"],
    "Squad D (7) less R PR8": ["R PR8"],
    "Squad F (3 units, MP PR9, PR8, PR6 only)": ["MP PR9", "MP PR8", "MP PR6"],
    "Squad E (4 units, MP PR10, LMG PR9 (10), R PR8, FT PR9 (4) only)": [
        "MP PR10",
        "LMG PR9",
        "R PR8",
        "FT PR9",
    ],
    "Squad A (9) less LMG PR9, R PR8, PR7, PR6": ["LMG PR9", "R PR8", "R PR7", "R PR6"],
    "Squad C (9) less R PR9, PR8, PR7, PR6": ["R PR9", "R PR8", "R PR7", "R PR6"],
    "Squad D (9) less R PR9, PR9, PR6, PR5": ["R PR9", "R PR9", "R PR6", "R PR5"],
    "Squad A (18) less R PR9, PR7, PR6, PR5": ["R PR9", "R PR7", "R PR6", "R PR5"],
    "Squad B (20) less R PR9, PR8, PR6, PR5": ["R PR9", "R PR8", "R PR6", "R PR5"],
    "Squad C (20) less R PR8, PR7, PR6, PR5": ["R PR8", "R PR7", "R PR6", "R PR5"],
    "Squad D (22) less R PR9": ["R PR9"],
}

SQUAD = re.compile(
    r"^Squad (?P<letter>[A-Z])"
    r"(?: \((?P<ammo>\d+)(?P<each> each)?\))?"
    r"(?: less (?P<less>.+)| \((?:(?P<count>\d+) units, )?(?P<only>.+) only\))?$"
)
MEMBER = re.compile(r"^(?:(?P<type>R|MP|LMG|FT) )?PR(?P<pr>\d+)(?: \((?P<ammo>\d+)\))?$")


def expand(listed: str) -> tuple[list[str], bool]:
    """A printed unit list as clause entries, and whether any unit carries its own ammo."""
    clause: list[str] = []
    weapon = None
    own_ammo = False
    for part in re.split(r", | and ", listed):
        several = re.fullmatch(r"(\d+) (R|MP|LMG|FT)'s", part)
        if several:
            clause += [several[2]] * int(several[1])
            continue
        member = MEMBER.match(part)
        assert member, f"{part!r} is not a unit of a clause"
        weapon = member["type"] or weapon
        own_ammo = own_ammo or member["ammo"] is not None
        clause.append(f"{weapon} PR{member['pr']}" if weapon else f"PR{member['pr']}")
    return clause, own_ammo


def matches(entry: str, member: dict[str, Any]) -> bool:
    weapon, _, pr = entry.partition(" ")
    if entry.startswith("PR"):
        weapon, pr = "", entry
    return (not weapon or weapon == member["weapon"]) and (not pr or int(pr[2:]) == member["pr"])


def field(side: str, printed: str) -> tuple[list[dict[str, Any]], list[str], dict[str, Any]]:
    """The members a printed squad entry fields, the clause entries matching no member, and the parse.

    24.1: each entry removes (less) or keeps (only) one unit; with several matching, any one.
    """
    parsed = SQUAD.match(printed)
    assert parsed, printed
    members = COUNTERS["squads"][side][parsed["letter"]]["units"]
    listed = parsed["less"] or parsed["only"]
    clause, own_ammo = expand(listed) if listed else ([], False)
    remaining, taken, unmatched = list(members), [], []
    for entry in clause:
        match = next((m for m in remaining if matches(entry, m)), None)
        if match is None:
            unmatched.append(entry)
            continue
        remaining.remove(match)
        taken.append(match)
    info = {**parsed.groupdict(), "clause": clause, "own_ammo": own_ammo}
    return (taken if parsed["only"] else remaining), unmatched, info


def test_clause_reading_follows_the_ruling() -> None:
    """The printed lists expand as the scenario files write them (type carried forward)."""
    for _, side, printed in FIELDED:
        clause = field(side, printed)[2]["clause"]
        assert clause == EXPANDED.get(printed, []), printed


@pytest.mark.parametrize(("rule", "side", "printed"), FIELDED, ids=[f"{r}-{s}-{p}" for r, s, p in FIELDED])
def test_scenario_squad_clause(rule: str, side: str, printed: str) -> None:
    """24.1: every unit a "less" or "only" clause names is in the squad, one unit per entry (a clause
    matching no unit is an error, docs/formats.md); "only" fields exactly the printed unit count."""
    fielded, unmatched, info = field(side, printed)
    assert unmatched == [], f"{rule} {side} '{printed}': no {unmatched} in the squad"
    assert fielded, f"{rule} {side} '{printed}' fields nobody"
    if info["count"] is not None:
        assert len(fielded) == int(info["count"])


@pytest.mark.parametrize(("rule", "side", "printed"), FIELDED, ids=[f"{r}-{s}-{p}" for r, s, p in FIELDED])
def test_ammo_number_means_an_lmg(rule: str, side: str, printed: str) -> None:
    """24.1: 'If a squad has a number in parentheses beside it, this is the number of ammo points
    available to that squad's LMG.' Read both ways: a squad fielded without a number has no LMG
    (24.6 'Squad C less LMG PR8' drops its only LMG and has no number); '(20 each)' means two."""
    fielded, _, info = field(side, printed)
    lmgs = sum(1 for m in fielded if m["weapon"] == "LMG")
    if info["each"]:
        assert lmgs >= 2, f"{rule} '{printed}': 'each' needs several LMGs"
    elif info["ammo"] or info["own_ammo"]:
        assert lmgs >= 1, f"{rule} '{printed}': an ammo number but no LMG fielded"
    else:
        assert lmgs == 0, f"{rule} '{printed}': no ammo number, yet an LMG is fielded"


def test_24_1_example_squad_d() -> None:
    """24.1: 'Russian Squad D less R PR9 ... there are several rifle units with a PR of 9 in the
    squad'; 'Russian Squad D (10)' gives D's LMG ammo."""
    units = COUNTERS["squads"]["russian"]["D"]["units"]
    assert sum(1 for u in units if (u["weapon"], u["pr"]) == ("R", 9)) >= 2
    assert any(u["weapon"] == "LMG" for u in units)


def test_members_pinned_by_a_clause_are_printed() -> None:
    """A member is `printed` exactly when a clause names its weapon and PR: as many printed
    members of a kind as the most any one clause removes (24.8 'less R PR9, PR9' needs two)."""
    needed: dict[tuple[str, str, str], int] = {}
    for _, side, printed in FIELDED:
        info = field(side, printed)[2]
        for entry in set(info["clause"]):
            if " PR" in entry:
                key = (side, info["letter"], entry)
                needed[key] = max(needed.get(key, 0), info["clause"].count(entry))
    for side in SIDES:
        for letter, squad in COUNTERS["squads"][side].items():
            printed_members: dict[str, int] = {}
            for member in squad["units"]:
                if "printed" in member:
                    name = f"{member['weapon']} PR{member['pr']}"
                    printed_members[name] = printed_members.get(name, 0) + 1
            pinned = {entry: n for (s, sq, entry), n in needed.items() if (s, sq) == (side, letter)}
            assert printed_members == pinned, f"{side} Squad {letter}"


def test_squads_named_anywhere_exist() -> None:
    """Russian Squads A-G (E is never fielded but G is, 24.5, 24.9); German Squads A-E (24.5 note 3
    deploys German Squad D)."""
    assert sorted(COUNTERS["squads"]["russian"]) == list("ABCDEFG")
    assert sorted(COUNTERS["squads"]["german"]) == list("ABCDE")


def test_flamethrowers_are_german_pioneers() -> None:
    """2.21: 'FT: German M42 flamethrower.'"""
    for side in SIDES:
        for letter, squad in COUNTERS["squads"][side].items():
            for member in squad["units"]:
                if member["weapon"] == "FT":
                    assert (side, letter) == ("german", "E")


# --- commanders ----------------------------------------------------------------------------------


def test_commanders_of_the_scenarios() -> None:
    """24.4 'PL PR10; APL PR9'; 24.5 'PL 11; APL 9'; 24.9 'PL PR11; APL PR10'; German 'PL', 'PS'."""
    ranks = {side: sorted((c["rank"], c["pr"]) for c in COUNTERS["commanders"][side]) for side in SIDES}
    assert ranks["russian"] == [("APL", 9), ("APL", 10), ("PL", 10), ("PL", 11)]
    assert sorted(rank for rank, _ in ranks["german"]) == ["PL", "PS"]
    for commander in COUNTERS["commanders"]["russian"]:
        assert "printed" in commander
    for commander in COUNTERS["commanders"]["german"]:
        assert "assumed" in commander, "no German commander's PR is printed"


# --- crew weapons and AFVs of 2.22, 2.23 and the scenarios -------------------------------------------

# 2.23 CW Types (Russian weapon first): MMG, ATR, Mor on both sides; 45AT and 76AT Russian;
# 37AT and 50AT German.
CW_TYPES = {"russian": {"MMG", "ATR", "MOR", "45AT", "76AT"}, "german": {"MMG", "ATR", "MOR", "37AT", "50AT"}}
# 2.22 AFV Unit Types: 'Russian: BT7M, T34a, T34b, KV1A, T26S'; 'German: IId, IIIe&j, IVd&f2, Stug IIIb'.
AFV_TYPES = {
    "russian": {"BT7m", "T34a", "T34b", "KV1A", "T26S"},
    "german": {"IId", "IIIe", "IIIj", "IVd", "IVf2", "StugIIIb"},
}

# Crew weapons and AFVs with their numbers, as the scenarios print them.
SCENARIO_UNITS = [
    ("24.4", "russian", "crew_weapons", "MMG", [1, 2], "MMG #'s 1 & 2 (14 each)"),
    ("24.4", "german", "crew_weapons", "MMG", [1], "MMG #1 (12)"),
    ("24.5", "german", "crew_weapons", "MMG", [1, 2], "MMG #'s 1 & 2 (14 each) with Squad C"),
    ("24.6", "russian", "crew_weapons", "MMG", [2], "MMG #2 (12)"),
    ("24.6", "russian", "crew_weapons", "ATR", [2], "ATR #2 (6)"),
    ("24.6", "russian", "crew_weapons", "45AT", [1, 2], "45AT #'s 1 & 2"),
    ("24.6", "russian", "crew_weapons", "MOR", [1], "MOR #1 (21)"),
    ("24.6", "german", "crew_weapons", "MMG", [2], "MMG #2 (14)"),
    ("24.6", "german", "afvs", "IIIe", [1, 2], "IIIe #'s 1 & 2"),
    ("24.7", "russian", "crew_weapons", "MMG", [2], "MMG #2 (10)"),
    ("24.7", "russian", "crew_weapons", "45AT", [1, 2], "45AT #'s 1 & 2"),
    ("24.7", "german", "crew_weapons", "MMG", [1], "MMG #1 (11)"),
    ("24.7", "german", "afvs", "IVd", [1], "IVe #1 (no IVe in 2.22: mapped to IVd)"),
    ("24.8", "russian", "crew_weapons", "MMG", [1, 2], "MMG #'s 1 & 2 (12 each)"),
    ("24.8", "russian", "crew_weapons", "MOR", [1], "MOR #1 (24)"),
    ("24.8", "russian", "crew_weapons", "ATR", [1, 2], "ATR #'s 1 & 2 (10 each)"),
    ("24.8", "russian", "crew_weapons", "45AT", [2], "45AT #2"),
    ("24.8", "russian", "afvs", "BT7m", [1, 2], "BT7m #'s 1 & 2"),
    ("24.8", "russian", "afvs", "T34a", [1], "T34a #1"),
    ("24.8", "german", "crew_weapons", "MMG", [1], "MMG #1 (15)"),
    ("24.8", "german", "crew_weapons", "MOR", [1], "MOR #1 (30)"),
    ("24.8", "german", "crew_weapons", "ATR", [1, 2], "ATR #'s 1 & 2 (10 each)"),
    ("24.8", "german", "afvs", "IId", [1], "IId #1"),
    ("24.8", "german", "afvs", "IIIe", [1, 2], "IIIe #'s 1 & 2"),
    ("24.9", "russian", "crew_weapons", "MMG", [1, 2], "MMG #'s 1 & 2 (22 each)"),
    ("24.9", "russian", "crew_weapons", "45AT", [1, 2], "45AT #'s 1 & 2"),
    ("24.9", "russian", "crew_weapons", "76AT", [1], "76AT #1"),
    ("24.9", "russian", "afvs", "T34b", [1, 2], "T34b #'s 1 & 2"),
    ("24.9", "german", "crew_weapons", "MMG", [1, 2], "MMG #'s 1 & 2 (28 each)"),
    ("24.9", "german", "crew_weapons", "50AT", [1], "50AT #1"),
    ("24.9", "german", "afvs", "IId", [1], "IId #1"),
    ("24.9", "german", "afvs", "IIIe", [1, 2], "IIIe #'s 1 & 2"),
    ("24.9", "german", "afvs", "IVd", [1], "IVe #1 (no IVe in 2.22: mapped to IVd)"),
    ("24.9", "german", "afvs", "IVf2", [1], "IVf2 #1"),
    ("24.9", "german", "afvs", "StugIIIb", [1, 2], "Stug III 6's 1 & 2"),
    ("24.9", "german", "afvs", "IIIj", [1], "IIIj #1"),
]


def test_components_list_types_exist() -> None:
    """2.22 and 2.23: every AFV and CW type of the components list, by side, and no other."""
    for side in SIDES:
        assert set(COUNTERS["crew_weapons"][side]) == CW_TYPES[side]
        assert set(COUNTERS["afvs"][side]) == AFV_TYPES[side]
    assert "IVe" not in COUNTERS["afvs"]["german"]


@pytest.mark.parametrize(
    ("rule", "side", "kind", "type_name", "numbers", "printed"),
    SCENARIO_UNITS,
    ids=[f"{u[0]}-{u[1]}-{u[5]}" for u in SCENARIO_UNITS],
)
def test_scenario_unit_exists(
    rule: str, side: str, kind: str, type_name: str, numbers: list[int], printed: str
) -> None:
    ids = COUNTERS[kind][side][type_name]["ids"]
    assert set(numbers) <= set(ids), f"{rule} '{printed}'"


def test_types_fielded_by_a_scenario_are_printed() -> None:
    fielded = {(side, type_name) for _, side, _, type_name, _, printed in SCENARIO_UNITS if "IVe" not in printed}
    for side in SIDES:
        for kind in ("crew_weapons", "afvs"):
            for type_name, entry in COUNTERS[kind][side].items():
                assert ("printed" in entry) == ((side, type_name) in fielded), f"{side} {type_name}"


# --- printed numbers ---------------------------------------------------------------------------


def value(node: dict[str, Any]) -> Any:
    return node["value"]


def test_11_2_example_rifle() -> None:
    """11.2: 'A Russian infantry unit has an AP factor of 4 and an initial range of 7.'"""
    rifle = COUNTERS["infantry_weapons"]["russian"]["R"]
    assert (value(rifle["ap_factor"]), value(rifle["initial_range"])) == (4, 7)
    # inferred: the example names no weapon (tests/test_provenance_inferred.py)
    assert "11.2" in rifle["ap_factor"]["inferred"] and "11.2" in rifle["initial_range"]["inferred"]


def test_16_flamethrower() -> None:
    """16.0: 'They have no AP factors'; 16.1: 'up to a range of two hexes'; 8.14: FOUR and TWO MPs."""
    ft = COUNTERS["infantry_weapons"]["german"]["FT"]
    assert value(ft["ap_factor"]) is None and "16.0" in ft["ap_factor"]["printed"]
    assert value(ft["initial_range"]) == 2 and "16.1" in ft["initial_range"]["printed"]
    assert (value(ft["movement"]), value(ft["reaction_movement"])) == (4, 2)
    assert "FT" not in COUNTERS["infantry_weapons"]["russian"]


def test_8_11_infantry_movement() -> None:
    """8.11: 'SIX MP's in the Movement Phase and THREE MP's in the Reaction Movement Phase.'"""
    for side in SIDES:
        for weapon in ("R", "MP", "LMG"):
            values = COUNTERS["infantry_weapons"][side][weapon]
            assert (value(values["movement"]), value(values["reaction_movement"])) == (6, 3)
            assert "printed" in values["movement"] and "printed" in values["reaction_movement"]


def test_8_13_afv_movement() -> None:
    """8.13: 'TEN MP's in the Movement Phase and up to FIVE MP's in the Reaction Movement Phase.
    EXCEPTION: The Russian BT7M AFV has TWELVE MP's ... and SIX MP's'."""
    for side in SIDES:
        for type_name, afv in COUNTERS["afvs"][side].items():
            expected = (12, 6) if type_name == "BT7m" else (10, 5)
            assert (value(afv["movement"]), value(afv["reaction_movement"])) == expected, type_name
            assert "8.13" in afv["movement"]["printed"]


def test_10_23_stugs_fire_through_frontal_hexsides_only() -> None:
    """10.23: 'ATG's, MG's and German Stugs may only fire through their frontal hexsides ... An AFV
    (except Stugs) may fire through any hexside regardless of its facing.'"""
    for side in SIDES:
        for type_name, afv in COUNTERS["afvs"][side].items():
            assert value(afv["turret"]) is (type_name != "StugIIIb"), type_name
            assert "10.23" in afv["turret"]["printed"]


def test_8_7_facing() -> None:
    """8.7: 'Only ATG's, MG's (both MMG and LMG) and AFV's must face a hexside.'"""
    for side in SIDES:
        for weapon, values in COUNTERS["infantry_weapons"][side].items():
            assert value(values["facing"]) is (weapon == "LMG"), weapon
        for type_name, cw in COUNTERS["crew_weapons"][side].items():
            assert value(cw["facing"]) is (type_name == "MMG" or type_name.endswith("AT")), type_name
            assert "8.7" in cw["facing"]["printed"]


def test_crew_sizes() -> None:
    """8.63: 'each CW represents two to four men'; 8.3 example: 'an ATR CW unit (two man crew)';
    14.12: a mortar reduced to two crew members fires three rounds, so its full crew is three."""
    for side in SIDES:
        for type_name, cw in COUNTERS["crew_weapons"][side].items():
            assert 2 <= value(cw["crew"]) <= 4, type_name
        assert value(COUNTERS["crew_weapons"][side]["ATR"]["crew"]) == 2
        assert "8.3" in COUNTERS["crew_weapons"][side]["ATR"]["crew"]["inferred"]
        assert value(COUNTERS["crew_weapons"][side]["MOR"]["crew"]) == 3
        assert "14.12" in COUNTERS["crew_weapons"][side]["MOR"]["crew"]["inferred"]


def test_crew_weapon_movement_factors() -> None:
    """Movement Point Allowance Chart, Crew weapons: '0, 3, 4, 5 (a)'; 'a: exact movement allowance is
    found on the counter'. No scenario enters a CW that may never move (8.12: allowance zero)."""
    for side in SIDES:
        for type_name, cw in COUNTERS["crew_weapons"][side].items():
            assert value(cw["movement"]) in (0, 3, 4, 5), type_name
            assert "assumed" in cw["movement"]
    entering = [
        ("russian", "MMG"),
        ("german", "MMG"),
        ("german", "MOR"),
        ("german", "ATR"),
    ]  # 24.4, 24.6, 24.8
    for side, type_name in entering:
        assert value(COUNTERS["crew_weapons"][side][type_name]["movement"]) > 0


def test_at_factors_on_anti_tank_weapons_only() -> None:
    """2.23 lists no AT factor for CWs in general; ATRs (11.23, 12.16) and ATGs fire AT."""
    for side in SIDES:
        for type_name, cw in COUNTERS["crew_weapons"][side].items():
            assert ("at_factor" in cw) == (type_name == "ATR" or type_name.endswith("AT")), type_name


def test_assumed_values_stay_in_sensible_ranges() -> None:
    """PRs are 2d6 targets (4.0); assault ratings are one-die targets (17.23)."""
    for side in SIDES:
        for letter, squad in COUNTERS["squads"][side].items():
            for member in squad["units"]:
                assert 2 <= member["pr"] <= 12, (side, letter, member)
        for weapon, values in COUNTERS["infantry_weapons"][side].items():
            assert 0 <= value(values["assault_rating"]) <= 6, weapon
    rifle = COUNTERS["infantry_weapons"]["russian"]
    assert value(rifle["LMG"]["ap_factor"]) > value(rifle["R"]["ap_factor"])
    assert value(rifle["LMG"]["initial_range"]) > value(rifle["R"]["initial_range"])
    assert value(rifle["MP"]["assault_rating"]) > value(rifle["R"]["assault_rating"])
