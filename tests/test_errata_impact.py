"""`iceditor errata impact` (engine/validate/errata_impact.py, iceditor/cli_errata.py): a hand-built
map whose answer is known exactly, the six scenarios' headline numbers, and docs/errata-impact.md."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from engine.model.scenario import load_scenario
from engine.model.terrain import Terrain
from engine.resources import bundled_scenarios
from engine.validate.errata_impact import ErrataImpact, errata_impact
from iceditor import cli_errata
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent

# One column of nine hexes: every line runs through the centres of the hexes between its ends.
# North is toward row 01, so the south map edge is 1009.
COLUMN = """\
format: iron-cross-map/1
name: Column
grid: {columns: [10, 10], rows: [1, 9]}
hexes:
  "1008": {building: 1}
"""

ERRATA = """\
format: iron-cross-errata/1
name: Column errata
changes:
  - hexes: ["1005"]
    set: {level: 1, hill: H}
    printed: "Hex 1005 is a level 1 hill hex."
  - hexes: ["1008"]
    set: {building: null}
    printed: "Hex 1008 is not a building hex."
"""

SCENARIO = """\
format: iron-cross-scenario/1
number: 9
title: Column test
background: "A test."
maps: [column]
errata: false
north: {hex: "1009", toward: "1008"}
game_length: 3
sets_up_first: german
moves_first: russian
zones:
  cover: {area: {terrain: building}}
  high-ground: {area: {terrain: hill}}
  hill-h: {area: {hill: H}}
  far-end: {area: {hexes: ["1001"]}}
sides:
  german:
    groups:
      - name: main
        units: [{commander: PS}]
    deployment:
      - {group: main, zone: far-end}
  russian:
    groups:
      - name: main
        units: [{commander: APL, pr: 9}]
    entries:
      - group: main
        options: [{zone: {map_edge: south}, turn: 1}]
victory:
  results:
    - winner: german
      when: {occupies_each: {side: german, zone: {hexes: ["1007"]}}}
    - winner: russian
      when: {sole_occupant: {side: russian, building: any}}
  otherwise: draw
"""


@pytest.fixture
def column(write) -> tuple[Path, Path]:
    write("column.yaml", COLUMN)
    return write("column-test.yaml", SCENARIO), write("column-errata.yaml", ERRATA)


def test_column_hexes_los_zones_objectives_turns(column: tuple[Path, Path]) -> None:
    scenario, errata = column
    r = errata_impact(load_scenario(scenario), errata)
    assert [(c.hex, c.before, c.after) for c in r.hexes] == [
        ("1005", Terrain(), Terrain(level=1, hill="H")),
        ("1008", Terrain(building="1"), Terrain()),
    ]
    # 10.31 a: without errata the building symbol in 1008 blocks the 7 lines to 1009 from 1001-1007;
    # with them the level 1 hill 1005 blocks the 16 lines from 1001-1004 to 1006-1009 (level 0 ends),
    # and 1005 itself (level 1) sees down over level 0 hexes (10.32 b). Of 36 pairs, 12 are now
    # blocked (16 less the 4 lines 1001-1004 to 1009) and 3 now clear (1005, 1006, 1007 to 1009).
    assert (r.pairs, r.now_blocked, r.now_clear, r.sight_changes) == (36, 12, 3, 15)
    assert [(e.source, e.target, e.range, e.now_blocked, e.rule, e.blocking_hex) for e in r.examples] == [
        ("1004", "1006", 2, True, "10.31 a", "1005"),
        ("1003", "1006", 3, True, "10.31 a", "1005"),
        ("1004", "1007", 3, True, "10.31 a", "1005"),
        ("1007", "1009", 2, False, "10.31 a", "1008"),
        ("1006", "1009", 3, False, "10.31 a", "1008"),
        ("1005", "1009", 4, False, "10.31 a", "1008"),
    ]
    assert r.zones_compared == 4
    assert [(z.name, z.added, z.removed, z.problem) for z in r.zones] == [
        ("cover", (), ("1008",), None),
        ("high-ground", ("1005",), (), None),
        ("hill-h", (), (), "without errata: no hill 'H' on Column (columns 10-10, rows 1-9) (hills: none)"),
    ]
    # Objectives: hex 1007; Building 1 exists without the errata only.
    assert r.objectives_compared == 2
    assert [(o.name, o.added, o.removed, o.only) for o in r.objectives] == [("Building 1", (), ("1008",), "before")]
    # 8.11: 6 MPs a turn. Deployed in 1001: six Clear hexes to 1007 are 6 MPs, one turn; with the
    # hill, 1005 costs its row plus 1 uphill (8.53): 7 MPs or more, two turns. Entering in 1009
    # (R44): 1009, 1008 (a building, then Clear) and 1007 fit one turn either way.
    assert r.turns_compared == 2
    assert [(t.start, t.objective, t.before, t.after) for t in r.turns] == [
        ("german main: deployment, far-end", "hex 1007", 1, 2)
    ]


def test_cli_text_and_json(column: tuple[Path, Path], capsys) -> None:
    scenario, errata = column
    assert main(["errata", "impact", str(scenario), str(errata)]) == 0
    text = capsys.readouterr().out
    assert "hexes changed: 2\n  1005: clear -> level: 1, hill: H\n  1008: building: 1 -> clear\n" in text
    assert "LOS, both ends UP: 15 of 36 pairs change: 12 now blocked, 3 now clear\n" in text
    assert "  1007 -> 1009 (range 2): now clear, was blocked at 1008 (10.31 a)\n" in text
    assert "  cover: -1008\n  high-ground: +1005\n" in text
    assert "  Building 1 (only without errata): -1008\n" in text
    assert "  german main: deployment, far-end -> hex 1007: 1 -> 2\n" in text
    assert main(["errata", "impact", str(scenario), str(errata), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "scenario",
        "number",
        "title",
        "errata",
        "errata_file",
        "hexes",
        "los",
        "zones",
        "objectives",
        "turns",
    }
    assert data["hexes"][0] == {"hex": "1005", "before": {}, "after": {"level": 1, "hill": "H"}}
    assert (data["los"]["changed"], data["los"]["now_blocked"], data["los"]["now_clear"]) == (15, 12, 3)
    assert data["turns"]["changed"] == [
        {"from": "german main: deployment, far-end", "objective": "hex 1007", "before": 1, "after": 2}
    ]


def test_cli_bad_input_exits_2(column: tuple[Path, Path], write, capsys) -> None:
    scenario, errata = column
    assert main(["errata", "impact", str(errata)]) == 2
    assert "not a scenario file" in capsys.readouterr().err
    assert main(["errata", "impact", str(scenario), str(scenario.parent / "none.yaml")]) == 2
    assert "none.yaml: no such file, nor a bundled name" in capsys.readouterr().err
    assert main(["errata", "impact", str(scenario), str(scenario.parent / "column.yaml")]) == 2
    assert "column.yaml is not a valid map or errata file" in capsys.readouterr().err
    assert main(["errata"]) == 2
    assert "required: COMMAND" in capsys.readouterr().err


# -- the six scenarios ----------------------------------------------------------------------------


@cache
def bundled() -> dict[str, ErrataImpact]:
    return {p.stem: errata_impact(load_scenario(p)) for p in bundled_scenarios()}


# (hexes, LOS pairs now blocked, now clear, zones, objectives, turn counts changed)
HEADLINES = {
    "s1-demyansk-pocket": (4, 4373, 48, 1, 0, 0),
    "s2-khristishche": (14, 1681, 2516, 1, 5, 0),
    "s3-closing-the-ring": (4, 4373, 48, 0, 1, 0),
    "s4-tula": (14, 1681, 2516, 0, 1, 0),
    "s5-through-the-marshes": (20, 9758, 501, 1, 3, 0),
    "s6-spartakovka": (18, 10411, 3329, 2, 5, 0),
}


@pytest.mark.slow  # the impact on all six scenarios, worked out once for the six: 5 s
@pytest.mark.parametrize("name", HEADLINES)
def test_headline_numbers(name: str) -> None:
    r = bundled()[name]
    found = (len(r.hexes), r.now_blocked, r.now_clear, len(r.zones), len(r.objectives), len(r.turns))
    assert found == HEADLINES[name]


def test_scenario_changes_read_as_the_errata_say() -> None:
    """Terrain Clarifications and Errata: 4109 has a one-hex building (so Scenario 1's German may deploy
    there, R16); 1322 is not a building hex (Building 1 loses it); the level 1 hexes 3615, 3715,
    3816, drawn level 0 beside Hill J, join it (R24): Scenario 3's Hill J gains them, and since
    they are level 1 only after the errata no way to the hill gets shorter or longer (8.53)."""
    s1, s2, s3 = (bundled()[n] for n in ("s1-demyansk-pocket", "s2-khristishche", "s3-closing-the-ring"))
    assert [(z.name, z.added, z.removed) for z in s1.zones] == [("german-deployment", ("4109",), ())]
    assert ("Building 1", (), ("1322",), None) in [(o.name, o.added, o.removed, o.only) for o in s2.objectives]
    assert [(o.name, o.added, o.removed) for o in s3.objectives] == [("Hill J", ("3615", "3715", "3816"), ())]
    assert not s3.turns


def test_errata_impact_doc_is_current(capsys, monkeypatch) -> None:
    """docs/errata-impact.md is `iceditor errata impact --format markdown`: regenerate it after editing data.
    (The command's reports are the ones computed above, not computed again.)"""
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(cli_errata, "errata_impact", lambda scenario, errata: bundled()[Path(scenario.file).stem])
    assert main(["errata", "impact", "--format", "markdown"]) == 0
    assert (REPO / "docs" / "errata-impact.md").read_text(encoding="utf-8") == capsys.readouterr().out


def test_what_resolves_on_neither_board_is_not_compared_and_said_so(column: tuple[Path, Path], capsys) -> None:
    """A zone on a Hill Q the map lacks, and an objective on hex 1109 (column 11 is off the one-column
    map): no hex with the errata nor without them, so reported as not compared, never as unchanged."""
    scenario, errata = column
    text = scenario.read_text(encoding="utf-8")
    text = text.replace("  far-end:", "  hill-q: {area: {hill: Q}}\n  far-end:")
    text = text.replace('zone: {hexes: ["1007"]}', 'zone: {hexes: ["1007", "1109"]}')
    scenario.write_text(text, encoding="utf-8")
    r = errata_impact(load_scenario(scenario), errata)
    assert r.zones_compared == 4 and [z.name for z in r.zones] == ["cover", "high-ground", "hill-h"]
    assert [(n.name, n.problem) for n in r.zones_not_compared] == [
        ("hill-q", "no hill 'Q' on Column (columns 10-10, rows 1-9) (hills: H)")
    ]
    assert r.objectives_compared == 2
    ((name, problem),) = [(n.name, n.problem) for n in r.objectives_not_compared]
    assert name == "hex 1109" and "1109" in problem
    assert main(["errata", "impact", str(scenario), str(errata)]) == 0
    out = capsys.readouterr().out
    assert "zones changed: 3 of 4\n" in out
    assert "zones not compared, no hex with or without errata: 1\n  hill-q: no hill 'Q'" in out
    assert f"objectives not compared, no hex with or without errata: 1\n  hex 1109: {problem}\n" in out
    assert "  examples, the 3 shortest now blocked and the 3 shortest now clear:\n    1004 -> 1006" in out
    assert main(["errata", "impact", str(scenario), str(errata), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["zones"]["not_compared"] == [{"zone": "hill-q", "problem": r.zones_not_compared[0].problem}]
    assert data["objectives"]["not_compared"] == [{"objective": "hex 1109", "problem": problem}]
    assert main(["errata", "impact", str(scenario), str(errata), "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "| named zones | 3 of 4 (1 more with no hex with or without errata, not compared) |" in markdown
    assert f"| hex 1109 | {problem} |" in markdown
