"""Bundled files by name: every command that reads a map or scenario takes `map2`, `s1`,
`s1-demyansk-pocket` or `scenarios/s1-demyansk-pocket.yaml` from any folder, and `iceditor list`
shows the names. (The same from a plain `pip install .`: tests/test_packaging.py.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from engine import resources
from engine.resources import (
    DATA_DIRS,
    bundled_file,
    bundled_files,
    bundled_names,
    data_path,
    given_or_bundled,
    shown_name,
)
from iceditor.cli import main, parse

S1 = data_path("scenarios", "s1-demyansk-pocket.yaml")
MAP2 = data_path("maps", "map2.yaml")


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A current folder with no bundled data in or above it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_bundled_file_answers_to_its_stem_file_name_and_data_path() -> None:
    names = bundled_names()
    for path in bundled_files():
        assert names[path.stem] == names[path.name] == names[shown_name(path)] == path
    assert names["s1"] == names["s1-demyansk-pocket"] == S1
    assert names["s6"].name == "s6-spartakovka.yaml" and names["errata"].name == "errata.yaml"


def test_a_name_of_one_kind_is_not_found_among_another() -> None:
    assert bundled_file("map2", "maps") == MAP2
    assert bundled_file("s1", "maps") is None and bundled_file("map2", "scenarios") is None
    assert bundled_file("map7") is None and bundled_file("scenarios/map2.yaml") is None


def test_your_own_file_wins_over_a_bundled_one_of_the_same_name(elsewhere: Path) -> None:
    (elsewhere / "maps").mkdir()
    own = elsewhere / "maps" / "map2.yaml"
    own.write_text("format: iron-cross-map/1\nname: Mine\ngrid: {columns: [10, 12], rows: [1, 3]}\n", encoding="utf-8")
    assert given_or_bundled("maps/map2.yaml") == Path("maps/map2.yaml")
    assert given_or_bundled("map2") == MAP2  # no file called `map2` here: the bundled name
    assert given_or_bundled("missing.yaml") == Path("missing.yaml")


# Each command, with the attribute its file lands in.
COMMAND_LINES = [
    (["los", "{s}", "4307", "4512"], "map"),
    (["viewshed", "{m}", "4307"], "map"),
    (["reach", "{s}", "4001", "--unit", "infantry"], "map"),
    (["path", "{m}", "4001", "4307", "--unit", "infantry"], "map"),
    (["turns", "{s}", "russian-entry", "objectives", "--unit", "infantry"], "scenario"),
    (["zone", "{s}"], "scenario"),
    (["errata", "impact", "{s}"], "scenario"),
    (["edit", "{s}"], "file"),
    (["snapshot", "{s}", "--out", "s1.png"], "file"),
    (["render", "{m}", "--out", "map2.svg"], "file"),
    (["play", "{s}"], "scenario"),
]


@pytest.mark.parametrize(("argv", "attribute"), COMMAND_LINES, ids=lambda v: v[0] if isinstance(v, list) else "")
@pytest.mark.parametrize(
    ("scenario", "map_name"),
    [("s1", "map2"), ("s1-demyansk-pocket", "map2.yaml"), ("scenarios/s1-demyansk-pocket.yaml", "maps/map2.yaml")],
    ids=["short", "stem", "data-path"],
)
def test_every_command_takes_bundled_names(
    elsewhere: Path, argv: list[str], attribute: str, scenario: str, map_name: str
) -> None:
    args = parse([a.format(s=scenario, m=map_name) for a in argv])
    assert getattr(args, attribute) == (S1 if "{s}" in argv else MAP2)


def test_validate_and_provenance_take_names_among_paths(elsewhere: Path) -> None:
    args = parse(["validate", "s1", "errata", "combat", "counters", "missing.yaml"])
    assert [p.name for p in args.files] == [
        "s1-demyansk-pocket.yaml",
        "errata.yaml",
        "combat.yaml",
        "counters.yaml",
        "missing.yaml",  # reported with the others, not refused: validate checks every file it can
    ]
    assert parse(["provenance", "map3"]).files == [data_path("maps", "map3.yaml")]
    assert parse(["errata", "impact", "s1", "errata"]).errata == data_path("maps", "errata.yaml")


def test_bundled_names_work_from_another_folder(elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", "s1", "4307", "4512", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["from"] == "4307"
    assert main(["zone", "scenarios/s1-demyansk-pocket.yaml", "objectives"]) == 0
    assert capsys.readouterr().out.split() == ["4307", "4308"]  # 24.4: "hexes 4307 and 4308"
    assert main(["validate", "s1", "map2"]) == 0
    assert "2 files checked" in capsys.readouterr().err


def test_a_scenario_of_your_own_beside_no_maps_reads_the_bundled_maps(elsewhere: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    shutil.copy(S1, elsewhere / "mine.yaml")  # `maps: [map2]`, `errata: true`
    assert main(["turns", "mine.yaml", "russian-entry", "objectives", "--unit", "infantry", "--enter"]) == 0
    assert ": 2 turns" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["los", "map7", "1001", "1002"], ["zone", "s9"], ["render", "nowhere/map2.yaml", "--out", "x.svg"]],
    ids=["los", "zone", "render"],
)
def test_an_unknown_name_exits_2_naming_it(elsewhere: Path, capsys, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{argv[1]}: no such file, nor a bundled name (`iceditor list` shows them)" in err
    assert "Traceback" not in err


def test_list_shows_every_bundled_file_with_its_names(elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "maps:"
    (s1,) = [line for line in lines if "scenarios/s1-demyansk-pocket.yaml" in line]
    assert s1.split()[:2] == ["s1,", "s1-demyansk-pocket"] and s1.endswith("Scenario 1: Demyansk Pocket (on map2)")
    assert any(line.split()[:2] == ["map2", "maps/map2.yaml"] for line in lines)


def test_list_json_names_resolve_to_the_files_listed(elsewhere: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--format", "json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    kinds = [f["kind"] for f in files]
    assert kinds == sorted(kinds, key=["map", "errata", "scenario", "table", "counters"].index)
    assert (kinds.count("map"), kinds.count("errata"), kinds.count("table"), kinds.count("counters")) == (3, 1, 4, 1)
    for entry in files:
        for name in (*entry["names"], entry["file"]):
            assert given_or_bundled(name) == Path(entry["path"]), name
    printed = [(f["number"], f["names"][0], f["maps"]) for f in files if f["kind"] == "scenario" and not f["example"]]
    assert [number for number, _, _ in printed] == [1, 2, 3, 4, 5, 6]
    assert printed[0] == (1, "s1", ["map2"]) and printed[5] == (6, "s6", ["map1", "map2"])


def test_list_names_a_bundled_file_that_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edited copy gone wrong is listed with why, the others as ever (`iceditor validate` says more)."""
    for folder in DATA_DIRS:
        shutil.copytree(data_path(folder), tmp_path / folder)
    (tmp_path / "scenarios" / "s2-khristishche.yaml").write_text("number: [2\n", encoding="utf-8")
    monkeypatch.setattr(resources, "data_root", lambda: tmp_path)
    assert main(["list"]) == 0
    (s2,) = [line for line in capsys.readouterr().out.splitlines() if "s2-khristishche.yaml" in line]
    assert s2.split()[:2] == ["s2,", "s2-khristishche"] and "cannot be read: " in s2
    assert main(["list", "--format", "json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert len([f for f in files if f["kind"] == "scenario" and "problem" not in f]) >= 6
