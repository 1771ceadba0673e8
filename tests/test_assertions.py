"""Designer assertions (`assertions:`, schemas/assertions.schema.json), checked by
engine/validate/checks/assertion_holds.py: each kind holding, and failing with the exact problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.problems import Problem
from engine.validate.runner import validate_paths

REPO = Path(__file__).resolve().parent.parent
S1 = (REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")
# Scenario 1 up to its own assertions (and any section after them).
BASE = S1.split("\n# designer assertions")[0] + "\nassertions:\n"
FIRST = BASE.count("\n") + 1  # the line of the first assertion appended to BASE


def problems(write, *assertions: str) -> list[Problem]:
    """Scenario 1 with these assertions (one YAML flow line each); only the assertion checks' problems."""
    text = BASE + "".join(f"  - {a}\n" for a in assertions)
    found = validate_paths([write("scenarios/s1.yaml", text)])
    assert not [p for p in found if p.code == "schema"], found
    return [p for p in found if p.code.startswith("assertion")]


def one(write, assertion: str) -> tuple[str, str | None, int | None, str]:
    (p,) = problems(write, assertion)
    return p.code, p.rule, p.line, p.message


@pytest.mark.parametrize("name", ["s1-demyansk-pocket", "s3-closing-the-ring", "s5-through-the-marshes"])
def test_bundled_assertions_hold(name: str) -> None:
    text = (REPO / "scenarios" / f"{name}.yaml").read_text(encoding="utf-8")
    assert "# designer assertions (not printed): checked by iceditor validate\nassertions:\n" in text
    assert [p.text() for p in validate_paths([REPO / "scenarios" / f"{name}.yaml"]) if "assertion" in p.code] == []


# -- los (10.3) -------------------------------------------------------------------------------


def test_10_3_los_assertions_that_hold(write) -> None:
    assert (
        problems(
            write,
            '{los: {from: "4307", to: "4308", expect: clear}}',
            '{los: {from: "4314", to: "4307", expect: blocked, rule: "10.32 b", blocking_hex: "4308"}}',
            # 10.31 b: two Trees along (3608) plus an AFV and a Wreck are four
            '{los: {from: "4307", to: "3509", expect: clear}}',
            '{los: {from: "4307", to: "3509", expect: blocked, afvs: ["4107"], wrecks: ["4007"], rule: "10.31 b"}}',
        )
        == []
    )


def test_10_3_los_clear_but_expected_blocked(write) -> None:
    assert one(write, '{los: {from: "4307", to: "4308", expect: blocked}}') == (
        "assertion-failed",
        "10.3",
        FIRST,
        "LOS 4307 -> 4308 is clear, expected blocked",
    )


def test_10_3_los_blocked_by_another_rule_or_hex(write) -> None:
    found = problems(
        write,
        '{los: {from: "4314", to: "4307", expect: clear}}',
        '{los: {from: "4314", to: "4307", expect: blocked, rule: "10.31 a"}}',
        '{los: {from: "4314", to: "4307", expect: blocked, blocking_hex: "4309", firer_state: down}}',
    )
    assert [(p.code, p.rule, p.line, p.message) for p in found] == [
        ("assertion-failed", "10.3", FIRST, "LOS 4314 -> 4307 is blocked at 4308 (10.32 b), expected clear"),
        (
            "assertion-failed",
            "10.3",
            FIRST + 1,
            "LOS 4314 -> 4307 is blocked at 4308 (10.32 b), expected blocked by 10.31 a",
        ),
        (
            "assertion-failed",
            "10.3",
            FIRST + 2,
            "LOS 4314 -> 4307 (firer DOWN) is blocked at 4308 (10.32 b), expected blocked at 4309",
        ),
    ]
    assert found[0].hex == "4314"


def test_10_31_b_afvs_along_the_line_block(write) -> None:
    assert one(write, '{los: {from: "4307", to: "3509", expect: clear, afvs: ["4107", "4107"]}}') == (
        "assertion-failed",
        "10.3",
        FIRST,
        "LOS 4307 -> 3509 is blocked at 3608 (10.31 b), expected clear",
    )


def test_los_schema_allows_rule_only_with_blocked(write) -> None:
    text = BASE + '  - {los: {from: "4307", to: "4308", expect: clear, rule: "10.31 a"}}\n'
    (p,) = [p for p in validate_paths([write("s1.yaml", text)]) if p.severity == "error"]
    assert (p.code, p.line, p.message) == ("schema", FIRST, "/assertions/0/los/expect: 'blocked' was expected")


# -- reach (8.1, 8.5) -------------------------------------------------------------------------


def test_8_5_reach_assertions_that_hold(write) -> None:
    assert (
        problems(
            write,
            '{reach: {unit: infantry, from: "3014", to: "3810", within_mp: 4}}',  # 8 road hexes at 1/2 (8.52)
            '{reach: {unit: infantry, from: "4307", to: "4314", expect: unreachable}}',
            '{reach: {unit: infantry, from: "3014", to: "3810", state: down, expect: unreachable, within_mp: 4}}',
            '{reach: {unit: infantry, morale: pinned, phase: reaction, from: "4307", to: "4308"}}',
        )
        == []
    )


def test_8_5_reach_dearer_than_expected(write) -> None:
    assert one(write, '{reach: {unit: infantry, from: "3014", to: "3810", within_mp: 3.5}}') == (
        "assertion-failed",
        "8.5",
        FIRST,
        "move 3014 -> 3810 (infantry UP NORMAL, movement phase) costs 4 MP, expected in reach for at most 3.5 MP",
    )


def test_8_1_reach_out_of_the_allowance(write) -> None:
    assert one(write, '{reach: {unit: infantry, from: "4307", to: "4314"}}') == (
        "assertion-failed",
        "8.5",
        FIRST,
        "move 4307 -> 4314 (infantry UP NORMAL, movement phase) is out of reach this phase "
        "(allowance 6 MP; cheapest path 8 MP), expected in reach",
    )


def test_8_5_reach_with_no_legal_path_says_why(write) -> None:
    """Legend 'P': no AFV enters the building of 4307 (Building 23, Scenario 1's objective)."""
    found = one(write, '{reach: {unit: afv, from: "4306", to: "4307"}}')
    assert found[:3] == ("assertion-failed", "8.5", FIRST)
    assert found[3].startswith("move 4306 -> 4307 (afv UP NORMAL, movement phase) is out of reach this phase")
    assert "no legal path: it may not enter building 4307 ('P', prohibited to the unit type" in found[3]


def test_8_5_reach_expected_out_of_reach(write) -> None:
    assert one(write, '{reach: {unit: afv, from: "4307", to: "4309", expect: unreachable}}') == (
        "assertion-failed",
        "8.5",
        FIRST,
        "move 4307 -> 4309 (afv UP NORMAL, movement phase) costs 4.5 MP, expected out of reach",
    )


def test_8_74_reach_with_the_afv_facing(write) -> None:
    """8.74: 'It may then turn additional hexsides at a cost of 1 MP per hexside.' Facing 4306, away
    from 4309, the AFV turns two hexsides before it moves (1 MP): 5.5 MP against the 4.5 of its best
    facing. A facing is an adjacent hex (8.7)."""
    assert problems(write, '{reach: {unit: afv, from: "4307", to: "4309", within_mp: 4.5}}') == []
    assert one(write, '{reach: {unit: afv, from: "4307", to: "4309", facing: "4306", within_mp: 4.5}}') == (
        "assertion-failed",
        "8.5",
        FIRST,
        "move 4307 -> 4309 (afv UP NORMAL, movement phase, facing 4306) costs 5.5 MP, "
        "expected in reach for at most 4.5 MP",
    )
    found = one(write, '{reach: {unit: afv, from: "4307", to: "4309", facing: "4309"}}')
    assert found[:3] == ("assertion-invalid", None, FIRST) and "not adjacent to 4307 (8.7)" in found[3]


def test_8_11_one_hex_allowance_takes_no_within_mp(write) -> None:
    found = one(
        write, '{reach: {unit: infantry, morale: pinned, phase: reaction, from: "4307", to: "4308", within_mp: 2}}'
    )
    assert found[:3] == ("assertion-invalid", None, FIRST)
    assert "moves one hex regardless of terrain costs (8.11-8.14, R38)" in found[3]


# -- turns (8.1, R44, R46) ----------------------------------------------------------------------


def test_8_1_turns_assertions_that_hold(write) -> None:
    assert (
        problems(
            write,
            "{turns: {unit: infantry, from: {entry: main}, to: objectives, exactly: 2}}",
            "{turns: {unit: infantry, from: {entry: main, side: russian}, to: objectives, at_least: 2, at_most: 3}}",
            "{turns: {unit: infantry, from: {deployment: main}, to: objectives, exactly: 0}}",
            '{turns: {unit: infantry, from: {enter: {hexes: ["4307"]}}, to: objectives, exactly: 1}}',  # R44
            '{turns: {unit: afv, from: {hexes: ["4207"]}, to: {hexes: ["4307"]}, never: true}}',  # a building
            "{turns: {unit: cw, mp: 2, from: russian-entry, to: {hill: K}, at_least: 2}}",
        )
        == []
    )


def test_8_1_turns_more_than_expected(write) -> None:
    assert one(write, "{turns: {unit: infantry, from: {entry: main}, to: objectives, at_most: 1}}") == (
        "assertion-failed",
        "8.1",
        FIRST,
        "turns for infantry UP entering with group main to objectives: 2 turns, expected at most 1",
    )


def test_8_61_turns_never_but_expected(write) -> None:
    assert one(write, '{turns: {unit: afv, from: {hexes: ["4207"]}, to: {hexes: ["4307"]}, exactly: 1}}') == (
        "assertion-failed",
        "8.1",
        FIRST,
        "turns for afv UP from {hexes: ['4207']} to {hexes: ['4307']}: never, expected exactly 1",
    )


def test_turns_bounds(write) -> None:
    found = problems(
        write,
        "{turns: {unit: infantry, from: objectives, to: objectives}}",
        "{turns: {unit: infantry, from: objectives, to: objectives, exactly: 0, at_most: 1}}",
        "{turns: {unit: infantry, from: objectives, to: objectives, never: true}}",
    )
    assert [(p.code, p.line, p.message) for p in found] == [
        ("assertion-invalid", FIRST, "turns takes exactly, or at_most and/or at_least, or never (found none)"),
        (
            "assertion-invalid",
            FIRST + 1,
            "turns takes exactly, or at_most and/or at_least, or never (found exactly and at_most)",
        ),
        ("assertion-failed", FIRST + 2, "turns for infantry UP from objectives to objectives: 0 turns, expected never"),
    ]


# -- bad references -----------------------------------------------------------------------------


def test_bad_references_are_reported_where_they_are(write) -> None:
    found = problems(
        write,
        '{los: {from: "4307", to: "2901", expect: clear}}',
        "{turns: {unit: infantry, from: {deployment: mian}, to: objectives, exactly: 0}}",
        "{turns: {unit: infantry, from: {entry: main, side: german}, to: objectives, exactly: 0}}",
        "{turns: {unit: infantry, from: objectives, to: objectivs, exactly: 0}}",
        "{turns: {unit: infantry, from: objectives, to: {hill: Z}, exactly: 0}}",
        '{turns: {unit: infantry, from: objectives, to: {minus: [{hexes: ["4307"]}, {hexes: ["4307"]}]}, exactly: 0}}',
        '{reach: {unit: cw, from: "4307", to: "4308"}}',
        '{reach: {unit: afv, morale: pinned, from: "4307", to: "4308"}}',
        '{note: "a note alone"}',
    )
    assert [(p.code, p.rule, p.line) for p in found] == [("assertion-invalid", None, FIRST + i) for i in range(9)]
    assert [p.message for p in found] == [
        "hex 2901 is not on Map 2 (columns 30-50, rows 1-27)",
        "no group 'mian' deploys",
        "no group 'main' enters the map on the german side",
        "zone: no zone named 'objectivs' (zones: german-deployment, objectives, russian-entry, russian-infiltration)",
        "zone: no hill 'Z' on Map 2 (columns 30-50, rows 1-27) (hills: J, K, L)",
        "zone resolves to no hex",
        "a CW's Movement Phase allowance is the Movement Factor on its counter (8.12): give it with `mp`",
        "an AFV is never PINNED: it has no Movement Allowance for that state (8.13)",
        "an assertion is one of los, reach, turns (found none)",
    ]
    assert [p.column for p in found][:2] == [30, 49]  # the hex label, the group name


def test_a_zone_key_naming_no_zone_is_reported_once_by_zone_empty(write) -> None:
    text = BASE + "  - {turns: {unit: infantry, from: objectives, to: {zone: nope}, exactly: 0}}\n"
    found = [p for p in validate_paths([write("s1.yaml", text)]) if p.severity == "error"]
    assert [(p.code, p.line) for p in found] == [("zone-empty", FIRST)]


def test_a_group_both_sides_have(write) -> None:
    assert BASE.count("    deployment: []\n") == 1  # the Russian side's
    text = BASE.replace("    deployment: []\n", "    deployment: [{group: main, zone: russian-entry}]\n")
    text += "  - {turns: {unit: infantry, from: {deployment: main}, to: objectives, exactly: 0}}\n"
    found = [p for p in validate_paths([write("s1.yaml", text)]) if p.code.startswith("assertion")]
    assert [(p.code, p.line, p.message) for p in found] == [
        ("assertion-invalid", FIRST, "both sides have a group 'main': say which with `side`")
    ]


def test_formats_md_assertions_example_validates() -> None:
    """Every construct of formats.md's Designer assertions section passes the schema."""
    import yaml
    from jsonschema import Draft202012Validator

    from engine.model.schema_files import written_schemas
    from engine.model.schema_validation import _registry

    text = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    example = text.split("### Designer assertions")[1].split("```yaml\n")[1].split("```")[0]
    assertions = yaml.safe_load(example)["assertions"]
    assert {kind for item in assertions for kind in item} == {"los", "reach", "turns", "note"}
    schema = Draft202012Validator(written_schemas()["assertions"], registry=_registry())
    assert [e.message for e in schema.iter_errors(assertions)] == []
