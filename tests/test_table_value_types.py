"""Every table value has its type and range in schemas/table.schema.json (issue 24): a value of the
wrong type is refused as a number out of range is, not only checked when it happens to be a number."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from iceditor.cli import main

TABLES = Path(__file__).resolve().parent.parent / "tables"

CASES = [
    # (table, the text replaced, its replacement, what the message says)
    (
        "combat",
        "per_man: {value: 1,",
        'per_man: {value: "hello",',
        "'hello' is not one of ['unlimited', 'normal', 'initial_range']",
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
