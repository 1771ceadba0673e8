"""Format 2 of the scenario file: what a designer's own scenario needs (source, assumed fields,
control victory, deployment caps, pooled or per-LMG ammo, corrections), its checks, and
`iceditor migrate`. Rules 24.1, 24.9, 22.1; rulings R81-R83 (docs/rulings.md)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.game import ScenarioNotPlayable, new_game
from engine.model.scenario import load_scenario
from engine.problems import Problem, Severity
from engine.resources import bundled_examples
from engine.validate.runner import validate_paths
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "scenarios" / "examples" / "hill-p-counterattack.yaml"
FORMAT_1_S6 = REPO / "tests" / "fixtures" / "format1" / "s6-spartakovka.yaml"


def example() -> dict[str, Any]:
    return copy.deepcopy(yaml.safe_load(EXAMPLE.read_text(encoding="utf-8")))


def problems(data: dict[str, Any], tmp_path: Path) -> list[Problem]:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return validate_paths([path])


def codes(found: list[Problem], *, at_least: Severity = Severity.WARNING) -> list[str]:
    order = [Severity.INFO, Severity.WARNING, Severity.ERROR]
    return sorted(p.code for p in found if order.index(p.severity) >= order.index(at_least))


def test_the_bundled_example_uses_every_format_2_feature_and_validates_clean() -> None:
    assert EXAMPLE in bundled_examples()
    data = example()
    assert data["format"] == "iron-cross-scenario/2"
    assert data["source"]["publication"] and "game_length" in data["assumed"]
    assert data["victory"]["control"]["means"] == "last_to_occupy"
    assert any("limit" in d for d in data["sides"]["german"]["deployment"])
    squads = {
        u["squad"]: u
        for g in data["sides"]["german"]["groups"] + data["sides"]["russian"]["groups"]
        for u in g["units"]
        if "squad" in u
    }
    assert squads["E"]["ammo"] == {"pool": 16} and squads["A"]["ammo"] == {"each": 12}
    found = validate_paths([EXAMPLE])
    assert codes(found) == []


def test_source_needs_a_publication(tmp_path: Path) -> None:
    data = example()
    del data["source"]["publication"]
    found = problems(data, tmp_path)
    assert "schema" in codes(found)


def test_assumed_fields_are_counted_each(tmp_path: Path) -> None:
    """Provenance policy: a value the source does not give is marked assumed and counted."""
    data = example()
    data["assumed"]["moves_first"] = "the source's player notes are illegible; the attacker moves first"
    (count,) = [p for p in problems(data, tmp_path) if p.code == "assumed-values"]
    assert count.message.startswith("3 assumed values")  # two top-level fields and the mortar's number


def test_24_9_controls_needs_a_definition_of_control(tmp_path: Path) -> None:
    """24.9: 'To "control" a hex the German player must have been the last player to occupy the hex'."""
    data = example()
    del data["victory"]["control"]
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "victory-control"]
    assert problem.severity is Severity.ERROR and "what control means" in problem.message
    assert problem.rule == "24.9"


def test_control_at_start_by_both_sides_and_more_hexes_than_the_zone(tmp_path: Path) -> None:
    data = example()
    data["victory"]["control"]["at_start"].append({"side": "russian", "zone": {"hexes": ["6805"]}})
    data["victory"]["results"][0]["when"]["controls"]["at_least"] = 10  # Hill P has 9 hexes
    found = [p for p in problems(data, tmp_path) if p.code == "victory-control"]
    messages = sorted(p.message for p in found)
    assert messages == [
        "1 hexes (6805) are controlled at the start by both sides",
        "control of 10 hexes of a zone of 9: it never holds",
    ]


def test_24_1_occupies_each_with_too_few_units_is_reported(tmp_path: Path) -> None:
    data = example()
    data["victory"]["results"][1]["when"] = {"occupies_each": {"side": "german", "zone": "german-rear"}}
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "victory-unreachable"]
    assert problem.severity is Severity.WARNING
    # Squad E less two FTs (5 units), a commander and an MMG: 7 units for 14 hexes.
    assert "a unit in each of its 14 hexes" in problem.message and "fields 7 units" in problem.message


def test_deployment_areas_of_both_sides_overlap(tmp_path: Path) -> None:
    data = example()
    data["sides"]["russian"]["deployment"] = [{"group": "rifle-company", "zone": {"hexes": ["6805", "6001"]}}]
    del data["sides"]["russian"]["entries"]
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "deployment-overlap"]
    assert problem.hex == "6805" and "1 hexes are in both" in problem.message


SETUP_ON_HILL = [
    {"squad": "E", "member": "LMG PR10", "hex": "6805", "facing": "6804"},
    {"squad": "E", "member": "R PR10", "hex": "6805"},
    {"squad": "E", "member": "R PR8", "hex": "6704"},
    {"commander": "PL", "pr": 11, "hex": "6704"},
    {"crew_weapon": "MMG", "number": 1, "hex": "6705", "facing": "6704"},
]


@pytest.mark.parametrize(
    ("extra_on_hill", "expected"),
    [
        ([], []),
        ([{"squad": "E", "member": "LMG PR9", "hex": "6706", "facing": "6705"}], ["2 LMG units"]),
        ([{"squad": "E", "member": "MP PR10", "hex": "6706"}], []),
    ],
)
def test_24_1_a_deployment_cap_limits_what_stands_in_its_zone(
    tmp_path: Path, extra_on_hill: list[dict[str, Any]], expected: list[str]
) -> None:
    """'No more than one LMG and any two Rifle units from Squad E may deploy on Hill P.'"""
    data = example()
    data["setup"] = {"german": {"units": SETUP_ON_HILL + extra_on_hill}}
    found = [p for p in problems(data, tmp_path) if p.code == "setup-deployment-cap"]
    assert [p.message.split(" deploy")[0] for p in found] == expected


def test_24_1_a_cap_whose_units_may_deploy_in_its_zone_by_another_zone_is_reported(tmp_path: Path) -> None:
    """'No more than one LMG and any two Rifle units of Squad E may deploy on Hill P' (R83: a unit
    counts against the cap where it stands in the capped zone and in none of its other deployment
    zones): a second zone of Squad E that takes in the hill lets the whole squad stand there."""
    data = example()
    data["zones"]["german-rear"]["area"] = {"any_of": [{"adjacent_to": {"hill": "P"}}, {"hexes": ["6805"]}]}
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "deployment-cap-circumvented"]
    assert problem.severity is Severity.WARNING and problem.rule == "24.1, R83" and problem.hex == "6805"
    assert problem.message.startswith("1 of the 9 hexes of hill-p (6805) are also in german-rear")
    data["zones"]["german-rear"]["area"] = {"any_of": [{"adjacent_to": {"hill": "P"}}, {"hill": "P"}]}
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "deployment-cap-circumvented"]
    assert problem.message.startswith("all hexes of hill-p")
    assert "deployment-cap-circumvented" not in codes(validate_paths([EXAMPLE]))


def test_24_1_a_cap_on_the_only_zone_of_its_units_leaves_the_rest_nowhere(tmp_path: Path) -> None:
    """'No more than one LMG and any two Rifle units of Squad E may deploy on Hill P; the rest
    deploy beside it' (R83): without the deployment beside it, Squad E's second LMG has nowhere to
    deploy. An error, so the engine does not start a set-up it could not finish."""
    data = example()
    del data["sides"]["german"]["deployment"][1]
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "deployment-cap-stranded"]
    assert problem.severity is Severity.ERROR and problem.rule == "24.1, R83"
    assert problem.message == (
        "2 LMG units may deploy only in hill-p, whose limit allows 1: the rest have nowhere to deploy"
    )
    with pytest.raises(ScenarioNotPlayable, match=r"\[deployment-cap-stranded\]"):
        new_game(load_scenario(tmp_path / "scenario.yaml"))
    assert "deployment-cap-stranded" not in codes(validate_paths([EXAMPLE]))


def test_22_1_two_lmgs_say_pool_or_each(tmp_path: Path) -> None:
    """R81: "Squad A (9)" for a squad with two LMGs is one pool; "(20 each)" gives each LMG 20."""
    data = example()
    data["sides"]["russian"]["groups"][0]["units"][0]["ammo"] = 12
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "ammo-pool-or-each"]
    assert problem.severity is Severity.ERROR and "{pool: 12}" in problem.message
    data["format"] = "iron-cross-scenario/1"
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "ammo-pool-or-each"]
    assert problem.severity is Severity.INFO and "iceditor migrate" in problem.message
    data = example()
    data["sides"]["russian"]["groups"][0]["units"][1]["ammo"] = {"pool": 10}  # Squad C: one LMG
    (problem,) = [p for p in problems(data, tmp_path) if p.code == "ammo-pool-or-each"]
    assert problem.severity is Severity.WARNING and "write `ammo: 10`" in problem.message


def test_corrections_and_assumed_on_ips_mines_and_side_lines(tmp_path: Path) -> None:
    data = example()
    german = data["sides"]["german"]
    german["groups"][0]["improved_positions"][0].update(
        printed_as="IP1 x 2,", correction={"printed": "IP1 x 2,", "reads": "IP1 x 2;", "why": "a stray comma"}
    )
    german["mines"] = {"ap_factors": 4, "at_factors": 0, "assumed": "the AP factor count is smudged; 4 read"}
    german["correction"] = {"printed": "GERMAN SET UP", "reads": "GERMAN SET-UP", "why": "the hyphen of set-up lines"}
    found = problems(data, tmp_path)
    assert codes(found) == []


def test_migrate_rewrites_only_the_format_line_and_the_two_lmg_ammo(tmp_path: Path, capsys: Any) -> None:
    old = tmp_path / "s6.yaml"
    old.write_bytes(FORMAT_1_S6.read_bytes())
    assert main(["migrate", str(old), "--check"]) == 1
    assert old.read_bytes() == FORMAT_1_S6.read_bytes()  # --check writes nothing
    assert main(["migrate", str(old)]) == 0
    out = capsys.readouterr().out
    assert "line 108: 18 -> {pool: 18}" in out and "line 207: 20 -> {each: 20}" in out
    before, after = FORMAT_1_S6.read_text().split("\n"), old.read_text().split("\n")
    changed = [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed == [1, 108, 116, 207]
    assert codes(validate_paths([old])) == []
    assert main(["migrate", str(old)]) == 0 and "already format 2" in capsys.readouterr().out


def test_migrate_refuses_what_is_not_a_scenario(tmp_path: Path, capsys: Any) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: iron-cross-scenario/1\nnumber: [\n", encoding="utf-8")
    assert main(["migrate", str(broken)]) == 2
    assert "broken.yaml:" in capsys.readouterr().err
    assert main(["migrate", str(REPO / "maps" / "map1.yaml")]) == 2
    assert "not a scenario file" in capsys.readouterr().err
