"""Every table value has its type and range in schemas/table.schema.json (issue 24): a value of the
wrong type is refused as a number out of range is, not only checked when it happens to be a number."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.model.schema import schema_problems
from engine.model.source import JsonPath, parse_yaml, pointer
from iceditor.cli import main
from tests.properties import fewer_examples

TABLES = Path(__file__).resolve().parent.parent / "tables"

CASES = [
    # (table, the text replaced, its replacement, what the message says)
    (
        "combat",
        "per_man: {value: 1,",
        'per_man: {value: "hello",',
        "'hello' is not of type 'integer'",
    ),
    ("combat", "points: {value: [1, 2, 3],", "points: {value: [1, -10^400, 3],", "'-10^400' is not of type 'integer'"),
    ("combat", "points: {value: [1, 2, 3],", "points: {value: [1, 4],", "4 is out of range: at most 3 (18.0)"),
    (
        "movement-allowances",
        '  reaction_phase: {value: 2, printed: "8.3 C',
        '  reaction_phase: {value: -1, printed: "8.3 C',
        "/leader_directed_movement/reaction_phase/value: -1 is out of range: at least 0 (8.3)",
    ),
    (
        "movement-allowances",
        '  movement_phase: {value: 4, printed: "8.3 C',
        '  movement_phase: {value: -4, printed: "8.3 C',
        "/leader_directed_movement/movement_phase/value: -4 is out of range: at least 0 (8.3)",
    ),
    (
        "movement-allowances",
        "zero_never_moves: {value: true,",
        "zero_never_moves: {value: 3,",
        "3 is not of type 'boolean'",
    ),
    ("combat", "per_man: {value: 1,", "per_man: {value: !!binary aGVsbG8=,", "files are plain data"),
]


@pytest.mark.parametrize(("table", "old", "new", "words"), CASES)
def test_a_table_value_of_the_wrong_type_or_range_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, old: str, new: str, words: str
) -> None:
    path = tmp_path / f"{table}.yaml"
    text = (TABLES / f"{table}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    assert main(["validate", str(path)]) in (1, 2)
    out = capsys.readouterr().out
    assert words in out, out


def test_the_bundled_tables_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for table in TABLES.glob("*.yaml"):
        shutil.copy(table, tmp_path / table.name)
    assert main(["validate", *map(str, sorted(tmp_path.glob("*.yaml")))]) == 0


def _leaves(node: yaml.Node, path: JsonPath = (), inside: bool = False) -> Iterator[tuple[JsonPath, yaml.ScalarNode]]:
    """Every scalar of every entry's `value` (in its lists and mappings too), with its path."""
    if isinstance(node, yaml.MappingNode):
        keys = {key.value for key, _ in node.value}
        for key, child in node.value:
            if inside or key.value == "value" or "value" not in keys:
                yield from _leaves(child, (*path, key.value), inside or key.value == "value")
    elif isinstance(node, yaml.SequenceNode) and inside:
        for i, child in enumerate(node.value):
            yield from _leaves(child, (*path, i), True)
    elif isinstance(node, yaml.ScalarNode) and inside:
        yield path, node


@cache
def _leaves_of(table: str) -> tuple[str, list[tuple[JsonPath, yaml.ScalarNode]]]:
    text = (TABLES / f"{table}.yaml").read_text(encoding="utf-8")
    return text, list(_leaves(yaml.compose(text, Loader=yaml.SafeLoader)))


def _a_string_it_may_not_be(leaf: yaml.ScalarNode) -> str:
    """A text for a rule's words (a free text, of several words) may not be blank; any other value
    is a number, a flag or one of the rules' words, never "hello"."""
    return '" "' if " " in leaf.value else '"hello"'


def _replaced(text: str, changes: list[tuple[yaml.ScalarNode, str]]) -> str:
    for leaf, new in sorted(changes, key=lambda change: -change[0].start_mark.index):
        text = text[: leaf.start_mark.index] + new + text[leaf.end_mark.index :]
    return text


ALL_TABLES = sorted(path.stem for path in TABLES.glob("*.yaml"))


@pytest.mark.parametrize("table", ALL_TABLES)
def test_every_table_value_replaced_by_a_string_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    """Each value of the table (every scalar of every entry's value) replaced by a string at once:
    `validate` names each one, at its line, and exits 1 (no traceback, no pass)."""
    text, leaves = _leaves_of(table)
    assert len(leaves) > 30
    path = tmp_path / f"{table}.yaml"
    path.write_text(_replaced(text, [(leaf, _a_string_it_may_not_be(leaf)) for _, leaf in leaves]), encoding="utf-8")
    assert main(["validate", "--format", "json", str(path)]) == 1
    told = {(p["line"], p["message"].split(": ")[0]) for p in json.loads(capsys.readouterr().out)["problems"]}
    missed = [
        (pointer(where), leaf.value) for where, leaf in leaves if (leaf.start_mark.line + 1, pointer(where)) not in told
    ]
    assert not missed, missed


ONE_LEAF = [(table, i) for table in ALL_TABLES for i in range(len(_leaves_of(table)[1]))]


@fewer_examples(10)
@given(st.sampled_from(ONE_LEAF), st.from_regex(r"zz[a-z0-9 _-]{0,12}", fullmatch=True))
def test_any_one_table_value_replaced_by_a_word_is_refused_at_its_line(leaf_at: tuple[str, int], word: str) -> None:
    """One value at a time, replaced by a word no rule uses (or, a rule's words, by a blank text):
    an error at that value's line, from the schema."""
    table, i = leaf_at
    text, leaves = _leaves_of(table)
    where, leaf = leaves[i]
    new = '" "' if " " in leaf.value else json.dumps(word)
    problems = list(schema_problems(parse_yaml(_replaced(text, [(leaf, new)]), f"{table}.yaml")))
    assert any(p.line == leaf.start_mark.line + 1 and p.pointer == pointer(where) for p in problems), problems
