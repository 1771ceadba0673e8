"""Batch playtests' input and report, with no cluster: --vary paths, the scenario a batch plays
(R265), refusals with exit 2, and the verdict in words (engine/batch, docs/balance.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.batch.plan import BatchError, BatchSpec, prepare
from engine.batch.report import build_report, games_csv, verdict
from engine.batch.scenario_file import VaryError, parse_vary, played_data, set_path
from engine.model.source import load_yaml
from engine.players import PLAYERS
from engine.resources import given_or_bundled
from iceditor.cli import main

S1 = given_or_bundled("s1")


def _main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def test_vary_reaches_a_sides_key_and_a_units_less_list_by_name() -> None:
    data = load_yaml(S1).data
    set_path(data, "sides.german.grenades", 2)
    set_path(data, "sides.russian.groups.main.units.A.less", ["LMG PR8", "R PR9"])
    set_path(data, "sides.russian.groups.main.units.PL10.pr", 9)
    assert data["sides"]["german"]["grenades"] == 2
    assert data["sides"]["russian"]["groups"][0]["units"][0]["less"] == ["LMG PR8", "R PR9"]
    assert data["sides"]["russian"]["groups"][0]["units"][5] == {"commander": "PL", "pr": 9}


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("sides.gernan.grenades", "sides has no key 'gernan' (it has: german, russian)"),
        ("sides.russian.groups.main.units.Q.less", "no entry of sides.russian.groups.main.units named 'Q'"),
        ("sides.russian.groups.main.units.MMG.ammo", "2 entries of sides.russian.groups.main.units named 'MMG'"),
        ("sides.russian.groups.7.units", "has 1 entries (0 to 0), not 7"),
        ("game_length.turns", "game_length is a value (7)"),
        ("sides..grenades", "an empty segment"),
    ],
)
def test_a_bad_vary_path_says_where_it_stops(path: str, says: str) -> None:
    with pytest.raises(VaryError, match=says.replace("(", r"\(").replace(")", r"\)")):
        set_path(load_yaml(S1).data, path, 1)


def test_vary_values_are_yaml_with_commas_inside_lists_kept() -> None:
    assert parse_vary("sides.german.grenades=0,3,6").values == (0, 3, 6)
    assert parse_vary("a.less=[],[LMG PR8, R PR9]").values == ([], ["LMG PR8", "R PR9"])
    for bad in ("sides.german.grenades", "=1,2", "a=1,,2", "a=[1"):
        with pytest.raises(VaryError):
            parse_vary(bad)


def test_r265_a_batch_plays_the_scenario_without_its_test_setup(tmp_path: Path) -> None:
    # R265: the file's `setup:` is "Sample test set-up, not part of the printed scenario"
    # (Scenario 1): a balance test has the players set up, as the printed scenario does.
    doc = load_yaml(S1)
    assert "setup" not in played_data(doc, given_setup=False)
    assert "setup" in played_data(doc, given_setup=True) and "setup" in doc.data
    tasks = prepare(doc, BatchSpec(3, ("random", "random"), swap=True, seed=5), tmp_path)
    assert [(t.seed, t.players) for t in tasks] == [
        (5, ("random", "random")),
        (6, ("random", "random")),
        (7, ("random", "random")),
    ]
    played = load_yaml(tmp_path / "scenario.yaml").data
    assert "setup" not in played and played["maps"] == ["map2"]
    assert json.loads((tmp_path / "batch.json").read_text())["given_setup"] is False


def test_swap_exchanges_the_players_every_second_game() -> None:
    spec = BatchSpec(4, ("heuristic", "random"), swap=True)
    assert [spec.players_of(i) for i in range(3)] == [
        ("heuristic", "random"),
        ("random", "heuristic"),
        ("heuristic", "random"),
    ]


def test_a_folder_holding_another_batch_is_refused(tmp_path: Path) -> None:
    doc = load_yaml(S1)
    prepare(doc, BatchSpec(2, ("random", "random")), tmp_path)
    prepare(doc, BatchSpec(5, ("random", "random")), tmp_path)  # more games of the same batch: resumed
    with pytest.raises(BatchError, match=r"holds another batch \(its seed differs"):
        prepare(doc, BatchSpec(2, ("random", "random"), seed=9), tmp_path)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["playtest", "s1", "--players", "random,nobody"], "no player 'nobody' (players: "),
        (["playtest", "s1", "--players", "random"], "--players names 2 players"),
        (["playtest", "s1", "--games", "0"], "--games 0: a batch plays at least one game"),
        (["playtest", "s1", "--workers", "0"], "--workers 0: at least one"),
        (["playtest", "s1", "--vary", "sides.gernan.grenades=1,2"], "sides has no key 'gernan'"),
        (["playtest", "s1", "--vary", "sides.german.grenades=-1"], "cannot be played"),
        (["playtest", "compare", "s1"], "compare takes two scenario files"),
        (["playtest", "nowhere.yaml"], "nowhere.yaml: no such file"),
        (["playtest", "map2"], "not a scenario file"),
    ],
)
def test_bad_input_is_refused_with_exit_2_and_the_reason(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _main([*argv, "--out", str(tmp_path / "out")], capsys)
    assert code == 2
    assert says in err
    assert "Traceback" not in err


def _game(winner: str, **more: Any) -> dict[str, Any]:
    return {
        "key": "g",
        "seed": 0,
        "players": {"german": "a", "russian": "b"},
        "winner": winner,
        "by": f"{winner} condition",
        "condition": 0,
        "vp": None,
        "turns": 7,
        "actions": 100,
        "casualties": {"german": 1, "russian": 2},
        "eliminated": [["4307", "russian"]],
        "control": [{"turn": 1, "held": {"hex 4307": "german"}}],
        "cpu_seconds": 0.5,
        **more,
    }


def test_the_verdict_says_which_side_is_favoured_with_its_interval() -> None:
    games = [_game("german")] * 62 + [_game("russian")] * 30 + [_game("draw")] * 8
    said = verdict(games)
    assert said.startswith("German wins 62% (52-71%), Russian wins 30% (22-40%), draws 8% (4-15%): favours the Germans")
    assert verdict([_game("german")] * 5 + [_game("russian")] * 6).split(":")[1].strip().startswith("balanced")
    assert "every game a draw" in verdict([_game("draw")] * 3)
    assert "favours the Russians" in verdict([_game("russian")] * 20 + [_game("german")] * 2)


def test_the_report_counts_conditions_control_and_losses() -> None:
    games = [_game("german"), _game("german"), _game("draw", vp=3)]
    report = build_report(games, [{"key": "g9", "seed": 9, "error": "KilledWorker: ..."}], {}, "T")
    assert report["conditions"] == {"german condition": 2, "VP schedule: draw": 1}
    assert report["control"]["hex 4307"][0]["german"] == 1.0
    assert report["losses"]["russian"] == {"4307": 3}
    assert report["failed"] == [{"key": "g9", "seed": 9, "error": "KilledWorker: ..."}]
    assert report["outcomes"]["russian"]["loss"]["count"] == 2
    lines = games_csv(games, []).splitlines()
    assert lines[0].startswith("key,seed,german_player,russian_player,winner,by")
    assert len(lines) == 4


@pytest.mark.parametrize("player", sorted({"random", "heuristic"} & set(PLAYERS)))
def test_a_batch_game_is_iceditor_play_of_its_seed_whatever_was_played_before(
    player: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A worker plays many games: game 23 after game 22 is game 23 played alone (`iceditor play`).
    from engine.batch.games import play_task

    duel = Path(__file__).parent / "fixtures" / "game" / "duel.yaml"
    tasks = prepare(load_yaml(duel), BatchSpec(4, (player, player), seed=20), tmp_path)
    play_task(tasks[2])
    summary = play_task(tasks[3])
    assert "error" not in summary and summary["seed"] == 23
    assert main(["play", tasks[3].scenario, "--seed", "23", "--players", f"{player},{player}", "--format", "json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["actions"] == summary["actions"] and played["result"]["winner"] == summary["winner"]
    assert (tmp_path / "games" / "g00003.jsonl").is_file() and (tmp_path / "games" / "g00003.json").is_file()


def test_r267_a_game_cut_short_by_max_actions_is_failed_not_a_draw(tmp_path: Path) -> None:
    # R267: a game without a result is recorded apart, never counted as a draw.
    from engine.batch.games import play_task

    duel = Path(__file__).parent / "fixtures" / "game" / "duel.yaml"
    task = prepare(load_yaml(duel), BatchSpec(1, ("random", "random"), max_actions=10), tmp_path)[0]
    summary = play_task(task)
    assert summary["error"] == "RuntimeError: no result after 10 actions"
    assert "winner" not in summary
    assert (tmp_path / "games" / "g00000.error.json").is_file()
    assert not (tmp_path / "games" / "g00000.json").exists()


def test_a_batch_worker_freezes_what_its_games_share_after_its_first_game_and_plays_them_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # engine/batch/games.py, freeze_kept: the scenario's kept data out of the collector's walks;
    # a game played after the freeze is the game played without it.
    import gc

    from engine.batch import games

    duel = Path(__file__).parent / "fixtures" / "game" / "duel.yaml"
    tasks = prepare(load_yaml(duel), BatchSpec(3, ("random", "random"), seed=30), tmp_path)
    gc.unfreeze()  # whatever another test left frozen goes back to the collector
    thresholds = gc.get_threshold()
    alone = games.play_task(tasks[1])
    assert gc.get_freeze_count() == 0  # not a worker: the process's collector as it was
    assert gc.get_threshold() == thresholds
    monkeypatch.setitem(games.WORKER, "freezes", True)
    try:
        games.play_task(tasks[0])
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert gc.get_threshold() == games.WORKER_THRESHOLDS  # a game's young objects walked seldom
        after = games.play_task(tasks[1])
        assert gc.get_freeze_count() == frozen  # once: the worker's first game
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    after.pop("cpu_seconds")
    alone.pop("cpu_seconds")
    assert after == alone
