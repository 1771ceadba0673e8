"""Validation verdicts kept on disk (engine/validate/verdict_cache.py, issue 22): a kept verdict is
the verdict computed, and it is used only while everything the checks read reads the same: an
edited map, a map that appears where one was looked for, or a broken, foreign or unwritable cache
means validating again, never a stale answer."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from engine import file_reads
from engine.file_reads import file_exists, recording
from engine.game import new_game
from engine.game.play import ScenarioNotPlayable
from engine.model.scenario import load_scenario
from engine.model.source import SourceError, parse_yaml, read_text
from engine.problems import Problem, Severity
from engine.resources import data_path, given_or_bundled
from engine.validate import verdict_cache
from engine.validate.runner import validate_document
from engine.validate.verdict_cache import kept_problems
from iceditor.cli import main

S1 = data_path("scenarios", "s1-demyansk-pocket.yaml")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(cache))
    return cache


def _validate_json(capsys: pytest.CaptureFixture[str], *files: Path) -> str:
    main(["validate", "--format", "json", *map(str, files)])
    out: str = capsys.readouterr().out
    return out


def _computed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files validated from now on (not answered from the cache)."""
    files: list[str] = []
    real = verdict_cache.kept_problems

    def counting(kind, file, source, compute, keep=lambda _: True):  # type: ignore[no-untyped-def]
        def counted() -> list[Problem]:
            files.append(Path(file).name)
            return compute()  # type: ignore[no-any-return]

        return real(kind, file, source, counted, keep)

    monkeypatch.setattr(verdict_cache, "kept_problems", counting)
    return files


def test_validate_json_is_the_same_off_cold_and_warm(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """All bundled data: the JSON of `iceditor validate --format json` byte for byte (issue 22)."""
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    off = _validate_json(capsys)
    assert not folder.exists()
    monkeypatch.delenv("ICEDITOR_CACHE")
    computed = _computed(monkeypatch)
    cold = _validate_json(capsys)
    validated = len(computed)
    warm = _validate_json(capsys)
    assert off == cold == warm and json.loads(off)["problems"]
    assert validated == 16 and len(computed) == 16, "the second run answered every file from the cache"
    assert len(list(folder.glob("verdict-*.json"))) == 16


def _own_scenario(tmp_path: Path, map_name: str = "map2") -> Path:
    """Scenario 1 in a folder of its own, naming `map_name` (looked for beside it first: R-map lookup)."""
    scenario = tmp_path / "s1.yaml"
    scenario.write_text(S1.read_text(encoding="utf-8").replace("maps: [map2]", f"maps: [{map_name}]"), "utf-8")
    return scenario


def test_an_edited_map_is_validated_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = _own_scenario(tmp_path)
    shutil.copy(data_path("maps", "map2.yaml"), tmp_path / "map2.yaml")
    first = _validate_json(capsys, scenario)
    assert _validate_json(capsys, scenario) == first
    (tmp_path / "map2.yaml").write_text("format: iron-cross-map/1\n", "utf-8")  # no longer a map
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    expected = _validate_json(capsys, scenario)
    monkeypatch.delenv("ICEDITOR_CACHE")
    assert expected != first
    assert _validate_json(capsys, scenario) == expected


def test_a_map_that_appears_where_one_was_looked_for_is_validated_again(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`maps: [map2]` is looked for beside the scenario before the bundled map: a map2.yaml that
    appears there is the scenario's map from then on (engine/model/board.py, resolve_map_path)."""
    scenario = _own_scenario(tmp_path)
    bundled = _validate_json(capsys, scenario)
    assert _validate_json(capsys, scenario) == bundled
    (tmp_path / "map2.yaml").write_text("format: iron-cross-map/1\n", "utf-8")
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    expected = _validate_json(capsys, scenario)
    monkeypatch.delenv("ICEDITOR_CACHE")
    assert expected != bundled
    assert _validate_json(capsys, scenario) == expected


def test_an_edited_scenario_is_a_new_key(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = _own_scenario(tmp_path)
    _validate_json(capsys, scenario)
    scenario.write_text(read_text(scenario).replace("maps: [map2]", "maps: [map9]"), "utf-8")
    assert "map9" in _validate_json(capsys, scenario)


def _problem() -> Problem:
    return Problem(
        "zone-empty", Severity.WARNING, "m", rule="4.1", file="f.yaml", line=3, column=5, pointer="/a", hex="4307"
    )


def test_a_kept_verdict_is_the_one_computed(folder: Path, tmp_path: Path) -> None:
    data = tmp_path / "read.yaml"
    data.write_text("one", "utf-8")
    computed: list[int] = []

    def compute() -> list[Problem]:
        computed.append(1)
        read_text(data)
        return [_problem()]

    assert kept_problems("validate", "f.yaml", "text", compute) == [_problem()]
    assert kept_problems("validate", "f.yaml", "text", compute) == [_problem()] and computed == [1]
    assert kept_problems("validate", "g.yaml", "text", compute) == [_problem()] and computed == [1, 1]
    data.write_text("two", "utf-8")
    assert kept_problems("validate", "f.yaml", "text", compute) == [_problem()] and computed == [1, 1, 1]


@pytest.mark.parametrize(
    "stored", [b"", b"{not json", b'{"format": 0, "reads": {}, "problems": []}', b'{"format": 1}', b"[1]"]
)
def test_a_broken_or_foreign_verdict_is_computed_again(folder: Path, stored: bytes) -> None:
    computed: list[int] = []

    def compute() -> list[Problem]:
        computed.append(1)
        return [_problem()]

    kept_problems("validate", "f.yaml", "text", compute)
    (path,) = folder.glob("verdict-*.json")
    path.write_bytes(stored)
    assert kept_problems("validate", "f.yaml", "text", compute) == [_problem()] and computed == [1, 1]
    assert kept_problems("validate", "f.yaml", "text", compute) == [_problem()] and computed == [1, 1]


def test_off_or_unwritable_computes_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(blocked / "cache"))
    computed: list[int] = []

    def compute() -> list[Problem]:
        computed.append(1)
        return []

    kept_problems("validate", "f.yaml", "text", compute)
    kept_problems("validate", "f.yaml", "text", compute)
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    kept_problems("validate", "f.yaml", "text", compute)
    assert computed == [1, 1, 1] and not (tmp_path / "cache").exists()


def test_a_scenario_found_playable_is_not_validated_again(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    computed = _computed_playable(monkeypatch)
    new_game(load_scenario(given_or_bundled("s1")), 1)
    new_game(load_scenario(given_or_bundled("s1")), 1)  # another scenario object, another process's
    assert computed == [1]


def test_a_scenario_with_errors_is_refused_each_time(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = _own_scenario(tmp_path, "map9")
    computed = _computed_playable(monkeypatch)
    for _ in range(2):
        with pytest.raises(ScenarioNotPlayable, match="map9"):
            new_game(load_scenario(scenario), 1)
    assert computed == [1, 1] and not list(folder.glob("verdict-*.json"))


def _computed_playable(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    computed: list[int] = []
    play = importlib.import_module("engine.game.play")  # engine.game's `play` is the function
    real = play.validate_document

    def counting(doc, errors_only=False):  # type: ignore[no-untyped-def]
        computed.append(1)
        return real(doc, errors_only=errors_only)

    monkeypatch.setattr(play, "validate_document", counting)
    return computed


def test_what_a_validation_reads_is_recorded(folder: Path) -> None:
    """The maps, errata, tables and counters a scenario rests on, the folders listed, the places a
    map was looked for; never Python's own files or the cache's."""
    with recording() as reads:
        validate_document(parse_yaml(read_text(S1), str(S1)))
    names = {Path(f).name for f in reads.files}
    assert {"map2.yaml", "errata.yaml"} <= names  # the tables and counters: in the key (loaded once a process)
    assert not any(f.endswith((".py", ".pyc")) or f.startswith(str(folder)) for f in reads.files | reads.folders)
    assert str(data_path("scenarios", "map2.yaml")) in reads.exists


def test_existence_is_asked_through_file_exists() -> None:
    """A stat raises no audit event: the modules a validation runs ask `file_exists`, so that a
    kept verdict knows where a file was looked for (engine/file_reads.py)."""
    root = Path(file_reads.__file__).parent
    asked = re.compile(r"\.(is_file|exists|is_dir)\(\)|os\.path\.(isfile|exists|isdir)\(")
    allowed = {"file_reads.py", "resources.py", "schema_cache.py", "file_writing.py"}  # install layout; caches
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("model", "validate", "geometry")
        for path in sorted((root / folder).rglob("*.py"))
        if path.name not in allowed
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if asked.search(line)
    ]
    assert found == []
    assert file_exists(S1) and not file_exists(S1.with_name("none.yaml"))


def test_the_same_name_in_another_folder_is_another_file(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`s1.yaml` named from two folders: the same name and text, not the same maps beside it."""
    plain, broken = tmp_path / "plain", tmp_path / "broken"
    for where in (plain, broken):
        where.mkdir()
        _own_scenario(where)
    (broken / "map2.yaml").write_text("format: iron-cross-map/1\n", "utf-8")
    monkeypatch.chdir(plain)
    first = _validate_json(capsys, Path("s1.yaml"))
    monkeypatch.chdir(broken)
    kept = _validate_json(capsys, Path("s1.yaml"))
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    assert kept == _validate_json(capsys, Path("s1.yaml")) != first


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_read_is_fingerprinted_without_waiting(folder: Path, tmp_path: Path) -> None:
    """A FIFO among the files read (a `map*.yaml` beside an errata file, say) is told apart from a
    file, never read: opening it to read would wait for a writer for ever."""
    fifo = tmp_path / "map1.yaml"
    os.mkfifo(fifo)

    def compute() -> list[Problem]:
        with pytest.raises(SourceError):
            read_text(fifo)
        return []

    assert kept_problems("validate", "f.yaml", "text", compute) == []
    assert kept_problems("validate", "f.yaml", "text", compute) == []
