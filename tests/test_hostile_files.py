"""Hostile and broken files: each gets a clear error and exit 1 or 2, quickly and in bounded memory,
never an internal error (exit 3), a traceback or a hang; no message quotes a file beyond a short excerpt."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from engine.model.board import resolve_errata_path
from engine.model.map_folders import MapPathError
from engine.model.source import MAX_ALIAS_VALUES, MAX_DEPTH, SourceError, parse_yaml
from engine.resources import data_path
from iceditor.cli import main
from iceditor.editor.document import open_document

from .fuzzing import mutants, validate_mutant

REPO = Path(__file__).resolve().parent.parent
S1 = (REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")
MAP2 = (REPO / "maps" / "map2.yaml").read_text(encoding="utf-8")
BILLION_LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


def refused(text: str) -> str:
    with pytest.raises(SourceError) as caught:
        parse_yaml(text, "f.yaml")
    return caught.value.message


def test_an_alias_bomb_is_refused_before_it_expands() -> None:
    """Nine levels of nine aliases would build 9^9 (387 million) values."""
    assert len(BILLION_LAUGHS) < 400
    assert refused(BILLION_LAUGHS).startswith(f"aliases (*name) expand to more than {MAX_ALIAS_VALUES} values")


def test_an_alias_bomb_in_a_scenario_exits_2(capsys, write) -> None:
    code, out = run(capsys, "validate", str(write("s1.yaml", S1 + BILLION_LAUGHS)))
    assert code == 2 and "an alias bomb?" in out


def test_aliases_within_the_limit_are_copies() -> None:
    doc = parse_yaml("a: &x {k: [1, 2]}\nb: *x\nc: {<<: *x, j: 3}\n", "f.yaml")
    assert doc.data == {"a": {"k": [1, 2]}, "b": {"k": [1, 2]}, "c": {"j": 3, "k": [1, 2]}}
    doc.data["b"]["k"].append(3)
    assert doc.data["a"]["k"] == [1, 2]


def test_a_recursive_alias_is_refused() -> None:
    assert (
        refused("a: &s [1, *s]\n")
        == "*s stands inside the value it refers to (&s on line 1): a value cannot contain itself"
    )


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_deep_nesting_is_refused_before_building(depth: int) -> None:
    message = refused("a: " + "[" * depth + "]" * depth + "\n")
    assert message == f"lists and mappings nested more than {MAX_DEPTH} deep: no file of the game does"


def test_aliases_cannot_stack_nesting_past_the_limit() -> None:
    """Each anchored value is 35 deep, within the limit; an alias inside the next puts it 70 deep."""
    text = "a0: &a0 " + "[" * 35 + "]" * 35 + "\n"
    text += "".join(f"a{i}: &a{i} " + "[" * 35 + f"*a{i - 1}" + "]" * 35 + "\n" for i in range(1, 40))
    assert refused(text) == f"lists and mappings nested more than {MAX_DEPTH} deep: no file of the game does"


def test_nesting_at_the_limit_is_read() -> None:
    depth = MAX_DEPTH - 1
    assert parse_yaml("a: " + "[" * depth + "]" * depth + "\n", "f.yaml").data["a"] is not None


@pytest.mark.parametrize("number", [".inf", "-.inf", ".nan", "1.0e+400"])
def test_a_non_finite_number_in_an_assertion_mp_field_exits_2(capsys, write, number: str) -> None:
    text = S1.replace("within_mp: 4}", f"within_mp: {number}}}")
    assert text != S1
    code, out = run(capsys, "validate", str(write("s1.yaml", text)))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "within_mp" in t)
    assert code == 2
    assert f":{line}:" in out and "is not a finite number" in out


def test_an_integer_python_cannot_convert_exits_2(capsys, write) -> None:
    code, out = run(
        capsys, "validate", str(write("s1.yaml", S1.replace("game_length: 7", "game_length: " + "9" * 5000)))
    )
    assert code == 2
    assert "cannot be read as a int" in out and len(out) < 1000


def test_counts_of_2_to_the_63_are_errors(capsys, write) -> None:
    text = S1.replace("grenades: 6", f"grenades: {2**63}")
    code, out = run(capsys, "validate", str(write("s1.yaml", text)))
    assert code == 1
    assert f"/sides/german/grenades: {2**63} is out of range: at most 999 [schema]" in out


def test_a_game_length_of_10_to_the_400_is_an_error(capsys, write) -> None:
    code, out = run(
        capsys, "validate", str(write("s1.yaml", S1.replace("game_length: 7", "game_length: 1" + "0" * 400)))
    )
    assert code == 1
    assert "/game_length: 100000... (401 digits) is out of range: at most 99 (24.1) [schema]" in out


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("1" + "0" * 400, "100000... (401 digits) is out of range: at most 999"),
        ("-1" + "0" * 400, "-10000... (401 digits) is less than or equal to the minimum of 0"),
        (str(2**63), f"{2**63} is out of range: at most 999"),
        ("4.25", "4.25 is not a multiple of 0.5"),
    ],
)
def test_a_huge_or_odd_assertion_mp_is_a_schema_error(capsys, write, number: str, message: str) -> None:
    """`within_mp` is a multiple of 0.5 (schemas/assertions.schema.json): jsonschema's own check
    divided 10**400 by 0.5 as floats and ended in an OverflowError (exit 3)."""
    text = S1.replace("within_mp: 4}", f"within_mp: {number}}}")
    code, out = run(capsys, "validate", str(write("s1.yaml", text)))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "within_mp" in t)
    assert code == 1 and "internal error" not in out
    assert f"s1.yaml:{line}:66: error: /assertions/2/reach/within_mp: {message} [schema]" in out


def test_multiple_of_is_exact_for_an_integer_beyond_a_float() -> None:
    from engine.model.schema_validation import _Validator

    assert list(_Validator({"multipleOf": 0.5}).iter_errors(10**400)) == []
    (error,) = _Validator({"multipleOf": 0.75}).iter_errors(10**400)
    assert error.message.endswith(" is not a multiple of 0.75")


def test_a_grid_with_reversed_ranges_is_an_error(capsys, write) -> None:
    text = MAP2.replace("columns: [30, 50]", "columns: [50, 30]")
    assert text != MAP2
    code, out = run(capsys, "validate", str(write("map2.yaml", text)))
    assert code == 1
    assert "/grid/columns: [50, 30] runs backwards: give the lower end first ([30, 50]) [schema]" in out


def test_a_negative_leader_movement_modifier_is_an_error(capsys, write) -> None:
    combat = data_path("tables", "combat.yaml").read_text(encoding="utf-8")
    text = combat.replace("leader_directed_movement: {value: 2,", "leader_directed_movement: {value: -2,")
    assert text != combat
    code, out = run(capsys, "validate", str(write("combat.yaml", text)))
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "leader_directed_movement: {value: -2" in t)
    assert code == 1
    assert f":{line}:" in out
    assert "/performance_check/modifiers/leader_directed_movement/value: -2 is out of range: at least 1 (4.12)" in out


@pytest.mark.parametrize(
    ("printed", "mistake", "message"),
    [
        (
            "per_tree_afv_wreck_along_los: {value: -1,",
            "per_tree_afv_wreck_along_los: {value: 1,",
            "1 is out of range: at most -1",
        ),
        ("afv_in_target: {value: -4,", "afv_in_target: {value: 4,", "4 is out of range: at most -1"),
        ("  infantry: {value: 3,", "  infantry: {value: -7,", "-7 is out of range: at least 1"),
        ("unobserved_multiplier: {value: 0.5,", "unobserved_multiplier: {value: 2,", "2 is out of range: at most 1"),
        ("crew_weapon_men: {value: [2, 4],", "crew_weapon_men: {value: [4, 2],", "[4, 2] runs backwards"),
    ],
)
def test_combat_values_have_the_sign_their_rule_gives(capsys, write, printed: str, mistake: str, message: str) -> None:
    combat = data_path("tables", "combat.yaml").read_text(encoding="utf-8")
    assert combat.count(printed) == 1
    code, out = run(capsys, "validate", str(write("combat.yaml", combat.replace(printed, mistake))))
    assert code == 1 and message in out


def test_one_problem_per_value(capsys, write) -> None:
    """0.5 IP points is not a whole number: said once, not again as "at least 1"."""
    combat = data_path("tables", "combat.yaml").read_text(encoding="utf-8")
    line = next(t for t in combat.splitlines() if "per_ip_point: {value: 1," in t)
    code, out = run(capsys, "validate", str(write("combat.yaml", combat.replace(line, line.replace("1,", "0.5,", 1)))))
    assert code == 1
    assert out.count("per_ip_point/value: 0.5") == 1 and "0.5 is not of type 'integer'" in out


def test_a_chart_scale_out_of_order_is_an_error(capsys, write) -> None:
    sighting = data_path("tables", "sighting.yaml").read_text(encoding="utf-8")
    text = sighting.replace("marks: {value: [1, 2, 3,", "marks: {value: [1, 3, 2,")
    assert text != sighting
    code, out = run(capsys, "validate", str(write("sighting.yaml", text)))
    assert code == 1 and "/range_axis/marks/value: [1, 3, 2, 4," in out
    assert "is out of order: list the values from lowest to highest" in out


def test_a_restriction_turn_past_the_end_of_the_game_is_an_error(capsys, write) -> None:
    s5 = (REPO / "scenarios" / "s5-through-the-marshes.yaml").read_text(encoding="utf-8")
    text = s5.replace("may_not_move_before: {side: russian, turn: 2}", "may_not_move_before: {side: russian, turn: 40}")
    assert text != s5
    code, out = run(capsys, "validate", str(write("s5.yaml", text)))
    assert code == 1
    assert re.search(
        r"error: the units may not move before turn 40, but the game lasts \d+ turns: they never move "
        r"\(24\.1\) \[restriction-turn\]",
        out,
    )


@pytest.mark.parametrize("name", ["/etc/passwd", "../../../../../../etc/passwd", "../outside.yaml"])
def test_a_scenario_cannot_name_a_file_outside_its_folder(capsys, tmp_path: Path, name: str) -> None:
    (tmp_path / "outside.yaml").write_text("secret: the contents of a file no scenario may read\n", encoding="utf-8")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    path = folder / "s1.yaml"
    path.write_text(S1.replace("maps: [map2]", f'maps: ["{name}"]'), encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 1
    assert f"error: cannot load the maps: map '{name}' is outside the scenario's folder" in out
    assert "root:" not in out and "secret" not in out


def test_a_link_inside_the_folder_cannot_lead_out_of_it(capsys, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "map.yaml").write_text(MAP2, encoding="utf-8")
    (tmp_path / "scenario").mkdir()
    os.symlink(tmp_path / "elsewhere" / "map.yaml", tmp_path / "scenario" / "link.yaml")
    path = tmp_path / "scenario" / "s1.yaml"
    path.write_text(S1.replace("maps: [map2]", "maps: [link]"), encoding="utf-8")
    code, out = run(capsys, "validate", str(path))
    assert code == 1 and "map 'link' is outside the scenario's folder" in out
    code, out = run(capsys, "validate", "--allow-dir", str(tmp_path / "elsewhere"), str(path))
    assert code == 0, out


def test_maps_beside_or_under_the_scenario_and_allowed_folders_load(capsys, tmp_path: Path) -> None:
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "mine.yaml").write_text(MAP2, encoding="utf-8")
    (tmp_path / "scenarios" / "sub").mkdir(parents=True)
    (tmp_path / "scenarios" / "sub" / "here.yaml").write_text(MAP2, encoding="utf-8")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "theirs.yaml").write_text(MAP2, encoding="utf-8")
    for name, extra in (("mine", []), ("sub/here.yaml", []), ("theirs", ["--allow-dir", str(tmp_path / "other")])):
        path = tmp_path / "scenarios" / "s1.yaml"
        path.write_text(S1.replace("maps: [map2]", f'maps: ["{name}"]'), encoding="utf-8")
        code, out = run(capsys, "validate", *extra, str(path))
        assert code == 0, (name, out)


def test_an_errata_file_the_user_names_may_be_anywhere(capsys, tmp_path: Path) -> None:
    """`iceditor errata impact SCENARIO ERRATA`: the user, not the scenario, names the errata file."""
    (tmp_path / "scenario").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "scenario" / "s1.yaml").write_text(S1, encoding="utf-8")
    errata = tmp_path / "elsewhere" / "errata.yaml"
    errata.write_text(data_path("maps", "errata.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out = run(capsys, "errata", "impact", str(tmp_path / "scenario" / "s1.yaml"), str(errata))
    assert code == 0 and "hexes changed: 4" in out


def test_an_errata_path_outside_the_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(MapPathError, match="errata file '/etc/passwd' is outside the scenario's folder"):
        resolve_errata_path("/etc/passwd", tmp_path)


def test_messages_quote_a_file_only_in_short_excerpts(capsys, write) -> None:
    secret = "x" * 5000
    for text in (f"{secret}\n", f"format: iron-cross-map/1\nname: [{secret}]\ngrid: {secret}\n", f"- {secret}\n"):
        code, out = run(capsys, "validate", str(write("notes.yaml", text)))
        assert code == 1
        assert "x" * 100 not in out, out[:500]


def test_a_device_is_not_read(capsys) -> None:
    """Only a regular file is read (issue 24): /dev/zero would never end."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    code, out = run(capsys, "validate", "/dev/zero")
    assert code == 2 and "is a device, not a regular file: iceditor reads files only" in out


def test_a_fifo_is_refused_not_waited_on(capsys, tmp_path) -> None:
    fifo = tmp_path / "s1.yaml"
    os.mkfifo(fifo)
    for command in (["validate"], ["zone"], ["replay"]):
        code, out = run(capsys, *command, str(fifo), *(["x"] if command == ["zone"] else []))
        assert code == 2 and "is a FIFO, not a regular file: iceditor reads files only" in out, out


def test_a_value_count_bomb_is_refused_quickly(capsys, write) -> None:
    """Values are capped as aliases are: a million list items would take 12 s and 640 MB."""
    code, out = run(
        capsys, "validate", str(write("bomb.yaml", "format: iron-cross-map/1\nitems:\n" + "- 1\n" * 60_000))
    )
    assert code == 2 and "more than 50,000 values" in out


@pytest.mark.parametrize(
    "tag", ["!!binary aGVsbG8=", "!custom x", "!!python/object:os.system x", "!!timestamp 2001-01-01"]
)
def test_every_scalar_tag_but_the_plain_ones_is_refused(capsys, write, tag) -> None:
    code, out = run(capsys, "validate", str(write("s1.yaml", S1 + f"x: {tag}\n")))
    assert code == 2 and "is not allowed: files are plain data" in out, out


def test_a_tag_that_would_build_an_object_exits_2(capsys, write) -> None:
    code, out = run(capsys, "validate", str(write("s1.yaml", S1 + 'x: !!python/object/apply:os.system ["echo hi"]\n')))
    assert code == 2 and "python/object/apply:os.system" in out


def test_the_editor_opens_a_hostile_file_with_the_same_message(write) -> None:
    with pytest.raises(SourceError, match="an alias bomb"):
        open_document(write("s1.yaml", S1 + BILLION_LAUGHS))


FUZZ_SOURCES = [
    *sorted((REPO / "maps").glob("*.yaml")),
    *sorted((REPO / "tables").glob("*.yaml")),
    REPO / "scenarios" / "s2-khristishche.yaml",
]


@pytest.mark.parametrize("count", [100, pytest.param(300, marks=pytest.mark.slow)])
def test_seeded_mutants_never_end_in_an_internal_error(tmp_path: Path, count: int) -> None:
    """100 mutants of the bundled files, 300 in CI's slow step (benchmarks/fuzz_validate.py runs
    25,000 of every file; the value-count bombs, half a second each, there and in
    test_a_value_count_bomb_is_refused_quickly)."""
    seen = set()
    for mutant in mutants(FUZZ_SOURCES, count, seed=20261201, leave_out=("values",)):
        outcome = validate_mutant(mutant, tmp_path)
        seen.add(outcome.status)
        assert outcome.status in (0, 1, 2), (mutant.source.name, mutant.mutation, outcome.output[-500:])
        assert "Traceback" not in outcome.output and "internal error" not in outcome.output
    assert seen == {0, 1, 2}
