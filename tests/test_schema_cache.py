"""Schema verdicts kept on disk (engine/model/schema_cache.py, issue 22): only "meets the schema"
is kept, so a file with schema errors reports them, at their lines, every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.model import schema_validation
from engine.model.schema import schema_problems
from engine.model.source import load_yaml, parse_yaml
from engine.resources import given_or_bundled


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    return tmp_path


def _validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The schemas jsonschema is asked to validate against, from now on."""
    asked: list[str] = []
    real = schema_validation.validator

    def counting(name: str):  # type: ignore[no-untyped-def]
        asked.append(name)
        return real(name)

    monkeypatch.setattr(schema_validation, "validator", counting)
    return asked


def test_a_valid_file_is_validated_once(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = load_yaml(given_or_bundled("s1"))
    asked = _validations(monkeypatch)
    assert list(schema_problems(doc)) == [] and list(schema_problems(doc)) == []
    assert asked == ["scenario"] and len(list(folder.glob("schema-ok-*"))) == 1


def test_a_file_with_errors_is_validated_each_time(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = parse_yaml("format: iron-cross-table/1\nname: 3\n", "bad.yaml")
    asked = _validations(monkeypatch)
    first, second = list(schema_problems(doc)), list(schema_problems(doc))
    assert first and first == second and len(asked) == 2
    assert not list(folder.glob("schema-ok-*"))


def test_a_changed_value_is_a_new_key(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = load_yaml(given_or_bundled("s1"))
    assert list(schema_problems(doc)) == []
    doc.data["game_length"] = "ten"  # the same file's data, no longer meeting the schema
    assert [p.pointer for p in schema_problems(doc)] == ["/game_length"]


def test_off_keeps_nothing(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    assert list(schema_problems(load_yaml(given_or_bundled("s1")))) == []
    assert not list(folder.iterdir())
