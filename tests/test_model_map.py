"""Map files: the format spec's example, loading, schema problems located in the YAML."""

from __future__ import annotations

import pytest

from engine.hexgrid import Offset, parse_label
from engine.model.load_errors import LoadError
from engine.model.mapsheet import load_map
from engine.model.source import SourceError
from engine.problems import Severity
from engine.validate.runner import validate_paths

from .conftest import SPEC_MAP


def test_spec_map_is_accepted_verbatim_and_means_what_its_comments_say(write) -> None:
    sheet = load_map(write("test.yaml", SPEC_MAP))
    assert sheet.name == "Test map"
    assert sheet.grid.columns == (10, 14) and sheet.grid.rows == (1, 9)  # inclusive ranges
    assert sheet.grid.offset is Offset.EVEN_Q
    assert len(sheet.hexes()) == 5 * 9
    t = sheet.terrain
    assert t[parse_label("1203")].trees == 2 and t[parse_label("1203")].is_woods
    assert t[parse_label("1204")].level == 1 and t[parse_label("1204")].hill == "K"
    assert t[parse_label("1205")].building == "1"
    assert t[parse_label("1206")].marsh and t[parse_label("1207")].gully
    assert parse_label("1301") not in t  # not listed: Clear, level 0
    assert [[sheet.label(h) for h in road] for road in sheet.roads] == [["1001", "1101", "1202"]]


def test_one_tree_is_not_a_tree_hex(write) -> None:
    """Errata: 'should only have ONE tree (i.e. do not count as tree hexes)'."""
    sheet = load_map(write("m.yaml", SPEC_MAP.replace("{trees: 2}", "{trees: 1}")))
    assert not sheet.terrain[parse_label("1203")].is_woods


def test_spec_road_is_not_a_chain_under_even_q(write) -> None:
    """With even columns lower, 1101 touches 1200 and 1201 but not 1202: the validator says so."""
    problems = validate_paths([write("test.yaml", SPEC_MAP)])
    errors = [p for p in problems if p.severity is Severity.ERROR]
    assert [(p.code, p.line, p.hex) for p in errors] == [("road-not-adjacent", 11, "1202")]
    assert "1101 and 1202 do not share a hexside" in errors[0].message


def test_same_road_is_a_chain_under_odd_q(write) -> None:
    problems = validate_paths([write("test.yaml", SPEC_MAP.replace("even-q", "odd-q"))])
    assert not [p for p in problems if p.severity is Severity.ERROR]


@pytest.mark.parametrize(
    ("change", "line", "fragment"),
    [
        ('"1203": {trees: 2}', 5, "unknown key 'tree'"),
        ('"1204": {level: 1, hill: K}', 6, "3 is not one of"),
        ('"1206": {marsh: true}', 8, "'yes' is not of type 'boolean'"),
    ],
)
def test_schema_problems_point_at_the_line(write, change: str, line: int, fragment: str) -> None:
    broken = {
        '"1203": {trees: 2}': '"1203": {tree: 2}',
        '"1204": {level: 1, hill: K}': '"1204": {level: 3, hill: K}',
        '"1206": {marsh: true}': '"1206": {marsh: "yes"}',
    }[change]
    path = write("bad.yaml", SPEC_MAP.replace(change, broken))
    with pytest.raises(LoadError) as info:
        load_map(path)
    (problem,) = info.value.problems
    assert problem.line == line and fragment in problem.message and problem.file == str(path)


def test_duplicate_hex_is_an_error_not_a_silent_overwrite(write) -> None:
    path = write(
        "dup.yaml", SPEC_MAP.replace('  "1206": {marsh: true}\n', '  "1206": {marsh: true}\n  "1203": {trees: 5}\n')
    )
    problems = validate_paths([path])
    assert [(p.code, p.line) for p in problems if p.code == "duplicate-key"] == [("duplicate-key", 9)]


def test_not_yaml_names_file_line_column(write) -> None:
    path = write("broken.yaml", 'format: iron-cross-map/1\nhexes: {"1203": [1,\n')
    with pytest.raises(SourceError) as info:
        load_map(path)
    assert info.value.file == str(path) and info.value.line == 3


def test_yaml_tags_that_build_objects_are_refused(write) -> None:
    """Files are data, never code."""
    path = write("evil.yaml", "format: !!python/object/apply:os.system ['true']\n")
    with pytest.raises(SourceError, match=r"could not determine a constructor|not allowed"):
        load_map(path)


def test_unknown_format_is_reported(write) -> None:
    problems = validate_paths([write("x.yaml", "format: iron-cross-map/9\nname: x\n")])
    assert [p.code for p in problems] == ["unknown-format"]


def test_hex_outside_grid_and_bad_bridge(write) -> None:
    text = SPEC_MAP + 'bridges: ["1206"]\n'
    text = text.replace('"1207": {gully: true}', '"1207": {gully: true}\n  "1510": {trees: 3}')
    problems = validate_paths([write("m.yaml", text)])
    codes = {(p.code, p.hex) for p in problems}
    assert ("hex-outside-grid", "1510") in codes
    assert ("bridge-placement", "1206") in codes


def test_two_levels_must_be_adjacent(write) -> None:
    text = SPEC_MAP.replace("{level: 1, hill: K}", "{level: 0, upper_level: 2, hill: K}")
    problems = validate_paths([write("m.yaml", text)])
    assert ("two-levels", "1204") in {(p.code, p.hex) for p in problems}
