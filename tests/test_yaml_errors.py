"""Messages for YAML mistakes: what is wrong in a designer's words, at the line to fix, with a hint,
whichever parser PyYAML was built with; exit 2 for a file that is not YAML or is empty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from engine.model import source
from engine.model.source import SourceError, parse_yaml
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
S1 = (REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8")


@pytest.fixture(params=["libyaml", "python"])
def parser(request, monkeypatch) -> None:
    """Each message is checked with both of PyYAML's parsers (they word their errors differently)."""
    if request.param == "python":
        monkeypatch.setattr(source, "_Loader", yaml.SafeLoader)
    elif not yaml.__with_libyaml__:
        pytest.skip("PyYAML was built without libyaml")


def error(text: str) -> SourceError:
    with pytest.raises(SourceError) as caught:
        parse_yaml(text, "f.yaml")
    return caught.value


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.usefixtures("parser")
@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("a: 1\n\tb: 2\n", 2, 1, "a tab character in the indentation: YAML indents with spaces only"),
        ("a:\n\tb: 2\n", 2, 1, "a tab character in the indentation"),
        ("name: x\n  grid: 1\n", 2, 3, "this line is indented more than line 1 above it, which already has its value"),
        (
            "a:\n    b: 1\n  c: 2\n",
            3,
            3,
            "bad indentation: this line is indented by 2 spaces, but the keys of the mapping",
        ),
        ("a:\n  - 1\n  b: 2\n", 3, 3, "bad indentation: the list that starts on line 2 (items '- ' in column 3)"),
        ("a: {b: 1\nc: 2\n", 2, 2, "the '{' opened on line 1, column 4 is not closed: expected ',' or '}'"),
        ("a: [1, 2\n", 2, 1, "the '[' opened on line 1, column 4 is not closed: expected ',' or ']'"),
        ('a: "abc\nb: 2\n', 1, 4, "the quote '\"' opened on line 1, column 4 is never closed"),
        ("a: b: c\n", 1, 5, "a second ': ' on one line: a value that contains ': ' must be quoted"),
        ("a: @x\n", 1, 4, "'@' cannot start a value (YAML reserves it): put the value in quotes"),
        ("a: 1\n---\nb: 2\n", 2, 1, "a second YAML document starts on line 2 (`---`): a file holds one document"),
        ("a: *x\n", 1, 4, "*x refers to no anchor: write &x on the value above it"),
        ('a: "C:\\qx"\n', 1, None, "a backslash in double quotes starts an escape YAML does not know"),
        ("a: [1, 2]]\n", 1, 10, "a closing ']' with no opening bracket before it: remove it"),
        ("a: b\n- c\n", 2, 1, "a list item where the mapping of line 1 expects a key"),
        ("x: 1\nb: \x00\n", 2, 4, "a control character (#x0000) at this place: files hold printable text only"),
        ("key with no colon\nb: 1\n", 1, 1, "line 1 has no ':' after its key (write `key: value`)"),
        ("a: 'x' y\n", 1, 8, "unexpected text after a value: a quoted value must be the whole value"),
    ],
)
def test_a_yaml_mistake_is_told_in_words_at_its_line(text: str, line: int, column: int | None, words: str) -> None:
    found = error(text)
    assert words in found.message
    assert found.message.startswith("not valid YAML: ") or "document" in found.message or "anchor" in found.message
    assert found.line == line
    assert column is None or found.column == column  # the parsers differ by one column on an escape
    assert "while parsing" not in found.message and "cannot start any token" not in found.message


def test_validate_reports_a_tab_at_its_line_with_exit_2(capsys, write) -> None:
    path = write("s1.yaml", S1.replace("\ngame_length: 7\n", "\n\tgame_length: 7\n"))
    code, out = run(capsys, "validate", str(path))
    line = S1.splitlines().index("game_length: 7") + 1
    assert code == 2
    assert f"{path}:{line}:1: error: not valid YAML: a tab character in the indentation" in out


def test_a_duplicate_key_names_the_line_of_the_first(capsys, write) -> None:
    path = write("s1.yaml", S1.replace("\ngame_length: 7\n", "\ngame_length: 7\ngame_length: 8\n"))
    first = S1.splitlines().index("game_length: 7") + 1
    code, out = run(capsys, "validate", str(path))
    assert code == 1
    assert (
        f"{path}:{first + 1}:1: error: /game_length is given twice (first on line {first}); "
        "the second would silently replace the first [duplicate-key]"
    ) in out


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n", "--- # nothing\n...\n"])
def test_an_empty_file_is_unreadable_everywhere(capsys, write, text: str) -> None:
    path = write("empty.yaml", text)
    for args in (
        ["validate", str(path)],
        ["los", str(path), "4001", "4002"],
        ["zone", str(path)],
        ["provenance", str(path)],
    ):
        code, out = run(capsys, *args)
        assert code == 2, args
        assert "the file is empty" in out, args
        assert "None" not in out, args


def test_a_file_holding_one_value_says_so(capsys, write) -> None:
    code, out = run(capsys, "validate", str(write("x.yaml", "hello\n")))
    assert code == 1
    assert "the file holds a single value or a list, not a mapping of keys starting with `format:`" in out


def test_a_zone_name_pattern_error_says_what_a_name_may_hold(capsys, write) -> None:
    path = write("s1.yaml", S1.replace("  german-deployment:\n", "  German Deployment:\n", 1))
    code, out = run(capsys, "validate", "--format", "json", str(path))
    schema = [p for p in json.loads(out.split("\n1 file")[0])["problems"] if p["code"] == "schema"]
    assert code == 1
    assert schema[0]["message"] == (
        "/zones/German Deployment: 'German Deployment' is not a name of a zone or group (lower-case letters, "
        'digits and hyphens, not starting with a hyphen: "german-deployment")'
    )
    assert schema[0]["line"] == S1.splitlines().index("  german-deployment:") + 1
    assert "^[a-z0-9]" not in out


def test_every_schema_pattern_has_a_hint() -> None:
    """A bare regular expression means nothing to a designer: each pattern says what it allows."""

    def patterns(node: object) -> list[dict]:
        if isinstance(node, dict):
            return ([node] if "pattern" in node else []) + [p for v in node.values() for p in patterns(v)]
        if isinstance(node, list):
            return [p for v in node for p in patterns(v)]
        return []

    for path in sorted((REPO / "schemas").glob("*.schema.json")):
        for node in patterns(json.loads(path.read_text(encoding="utf-8"))):
            assert node.get("x-hint"), f"{path.name}: pattern {node['pattern']} has no x-hint"


def test_a_bad_zone_argument_is_one_line_with_exit_2(capsys) -> None:
    scenario = str(REPO / "scenarios" / "s1-demyansk-pocket.yaml")
    code, out = run(capsys, "turns", scenario, "{hill:K", "objectives", "--unit", "infantry")
    assert code == 2
    assert out.strip() == (
        f"{scenario}: error: zone '{{hill:K': not valid YAML: the '{{' opened on line 1, column 1 is not closed: "
        "expected ',' or '}' before this point (add the missing '}', or a ',' between items)"
    )


def test_zone_empty_names_the_zone_and_its_hex(capsys, write) -> None:
    path = write("s1.yaml", S1.replace('area: {hexes: ["4307", "4308"]}', 'area: {hexes: ["4307", "2901"]}'))
    code, out = run(capsys, "validate", "--format", "json", str(path))
    found = [p for p in json.loads(out.split("\n1 file")[0])["problems"] if p["code"] == "zone-empty"]
    assert code == 1
    assert found[0]["message"] == "zone 'objectives': hex 2901 is not on Map 2 (columns 30-50, rows 1-27)"
    assert found[0]["hex"] == "2901"


def test_a_zone_resolving_to_no_hex_is_named(capsys, write) -> None:
    empty = 'area: {minus: [{hexes: ["4307"]}, {hexes: ["4307"]}]}'
    path = write("s1.yaml", S1.replace('area: {hexes: ["4307", "4308"]}', empty))
    code, out = run(capsys, "validate", str(path))
    assert code == 1
    assert "error: zone 'objectives' resolves to no hex (24.1) [zone-empty]" in out


def test_a_pre_commit_hook_skips_other_yaml_even_empty_or_deep(capsys, write) -> None:
    """--skip-other-yaml: another tool's YAML is not held to iceditor's limits, an empty file included."""
    others = [
        write("empty.yaml", ""),
        write("deep.yaml", "a: " + "[" * 100 + "]" * 100 + "\n"),
        write("ci.yaml", "on: push\n"),
    ]
    code, out = run(capsys, "validate", "--skip-other-yaml", *map(str, others))
    assert code == 0 and "error" not in out.replace("0 errors", "")
    code, out = run(
        capsys, "validate", "--skip-other-yaml", str(write("s.yaml", S1.replace("game_length: 7", "game_length: 0")))
    )
    assert code == 1
