"""Whole games: random legal play from every bundled scenario keeps the engine's invariants and ends
with a result; a seeded game's log is the same byte for byte and replays to the same state; the
command line plays and replays, and refuses what it cannot (docs/engine.md)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import legal_actions, new_game, play
from engine.game.log import log_text, read_log, replay
from engine.game.match import play_out
from engine.game.movement import ONE_HEX, budget, stacking_problems
from engine.game.state import MOVEMENT, REACTION, GameState
from engine.game.units import ON_MAP
from engine.game.views import SideLog, player_view
from engine.geometry.movement import Morale, State
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.players import make_player
from engine.resources import bundled_examples, bundled_scenarios
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden" / "s1-seed-1.jsonl"
SCENARIOS = {p.stem: load_scenario(p) for p in [*bundled_scenarios(), *bundled_examples()]}
# The CI profile plays a game or two of each scenario; the long one (.ci/run) twenty times as many.
SCALE = max(1, settings.default.max_examples // 50)
AT_RULES = ("12.32", "9.2 A", "9.2 B", "19.25")  # AT fire, an overrun's AT and infantry fire, AT mines


Snapshot = dict[str, tuple[str, int, float, Any, bool, str]]


def snapshot(game: GameState) -> Snapshot:
    """What the invariants compare across one action: each unit's morale, hexes entered, MPs spent,
    budget, whether it has fired this Player Turn, and where it is."""
    return {
        u.id: (str(u.morale), u.extra.get("hexes_entered", 0), u.mp_spent, budget(game, u), u.fired, u.where)
        for u in game.units.values()
    }


def check_invariants(
    game: GameState,
    ids: set[str],
    phase_ended: str | None,
    before: Snapshot,
    action: Any,
    before_board: tuple[set[Any], dict[str, int]],
) -> None:
    """After every action, against the state before it; the views and stacking at the end of each phase."""
    assert set(game.units) == ids  # units are never created (nor lost: eliminated ones stay listed)
    new_events = game.log[-1]["events"]
    for unit in game.units.values():
        morale, entered, spent, value, fired, where = before[unit.id]
        if unit.on_map:
            assert unit.hex in game.board.hexes, unit.id  # no unit off the board
        if unit.morale != Morale.NORMAL:
            assert unit.state == State.DOWN, unit.id  # 3.25, 3.26
        if morale == Morale.SUPPRESSED:
            assert unit.extra.get("hexes_entered", 0) <= entered, unit.id  # 8.15: a SUPPRESSED unit never moves
        if value != ONE_HEX and game.phase in (MOVEMENT, REACTION) and unit.mp_spent > spent:
            assert unit.mp_spent <= float(value) + 1e-9, unit.id  # no MP overspent (8.1)
        if where == "eliminated":
            assert unit.where == "eliminated" and unit.id not in action.units, unit.id  # never acts again
        if fired:  # 10.11: no unit fires twice in a Player Turn
            attempts = [e for e in new_events if e.get("event") == "pc" and e.get("for") == "fire"]
            assert all(e.get("unit") != unit.id for e in attempts), unit.id
    wrecks_before, grenades_before = before_board
    # 10.0: 'AP fire will not destroy an AFV'; 12.4: 'A Wreck marker replaces a destroyed AFV', in
    # its hex (9.2 A's 'hex adjacent to the defending units' is the one the AFV stands in)
    destroyed = {str(e["unit"]): e for e in new_events if e.get("event") == "destroyed"}
    for unit in game.units.values():
        if unit.is_afv and before[unit.id][5] == ON_MAP and not unit.on_map:
            event = destroyed.get(unit.id)
            assert event is not None and event["rule"] in AT_RULES, (unit.id, new_events)
            assert event["wreck"] == event["hex"] and game.board.hex(str(event["hex"])) in game.wrecks, event
    for unit in game.units.values():  # 10.23, 8.7: whoever fires or moves by a facing has one (R161)
        if unit.on_map and unit.faces_hexside and unit.facing is None:
            assert all(a.verb == "face" and a.units == (unit.id,) for a in legal_actions(game)), unit.id
    moved_wrecks = wrecks_before - game.wrecks
    if moved_wrecks:  # wrecks never move, but by 8.65's push
        assert any(e.get("event") == "wreck pushed" for e in new_events), moved_wrecks
    for side in SIDES:  # 15.9: never more grenades than the scenario gives
        assert game.grenades_used.get(side, 0) <= int(game.scenario.data["sides"][side].get("grenades") or 0)
        assert game.grenades_used.get(side, 0) >= grenades_before.get(side, 0)
    if phase_ended is None:
        return
    if phase_ended in (MOVEMENT, REACTION):
        for side in ("german", "russian"):  # 8.62 at the end of a movement phase, but R115's hexes
            for h in stacking_problems(game, side):
                assert _stopped_there(game, phase_ended, h), game.label_of(h)
    for side, enemy in (("german", "russian"), ("russian", "german")):
        view = game.view(side)
        assert all(not (u["side"] == enemy and u["hidden"]) for u in view["units"])  # 24.21
        assert enemy not in view["secrets"]  # 19.11, 24.21


def _stopped_there(game: GameState, phase: str, h: Any) -> bool:
    """R115: a unit a mine (19.27) or fire (13.18) stopped in hex h during the phase that ended."""
    here = {u.id for u in game.at(h)}
    ended = [line for line in game.log[-400:] if line.get("phase") == phase]
    return any(
        e.get("event") == "stopped" and e.get("unit") in here and e.get("rule") in ("19.27", "13.18", "8.43", "8.33")
        for line in ended
        for e in line.get("events", [])
    )


def random_game(scenario: str, seed: int) -> GameState:
    game = new_game(SCENARIOS[scenario], seed)
    ids = set(game.units)
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    logs = {side: SideLog(side) for side in players}
    while not game.is_over:
        phase = game.phase
        side = game.to_act
        before = snapshot(game)
        board = (set(game.wrecks), dict(game.grenades_used))
        action = players[side].choose(player_view(game, side, logs[side]), legal_actions(game))
        play(game, action)
        check_invariants(game, ids, phase if game.phase != phase else None, before, action, board)
    return game


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_random_play_keeps_the_invariants_and_ends_with_a_result(scenario: str) -> None:
    examples = SCALE * (1 if scenario.startswith("s6") else 2)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(seed=st.integers(0, 2**31))
    def run(seed: int) -> None:
        game = random_game(scenario, seed)
        assert game.result is not None and game.result["winner"] in ("german", "russian", "draw")
        assert game.turn == int(SCENARIOS[scenario].data["game_length"])

    run()


def test_a_random_game_of_scenario_1_has_shots_results_and_eliminations() -> None:
    """Issue 13: with fire combat, a random game is a real game: attacks are made, they have
    results, and units are eliminated (seeds chosen: a random game may have none)."""
    found: dict[str, int] = {}
    for seed in range(1, 6):
        game = random_game("s1-demyansk-pocket", seed)
        for line in game.log:
            for event in line.get("events", []):
                found[event["event"]] = found.get(event["event"], 0) + 1
    assert found.get("attack", 0) > 20 and found.get("ap roll", 0) > 20
    assert found.get("result", 0) > 0 and found.get("eliminated", 0) > 0


def seeded_log(seed: int = 1) -> str:
    game = new_game(SCENARIOS["s1-demyansk-pocket"], seed)
    play_out(game, {"german": make_player("random", 2), "russian": make_player("random", 3)})
    return log_text(game, ["random", "random"])


def test_a_seeded_game_is_the_golden_log_byte_for_byte_and_replays_identically() -> None:
    """A game is a function of its scenario, seed and actions: the same seed gives the same log.
    ICEDITOR_REGENERATE_GOLDEN=1 writes the golden log again (review the diff)."""
    text = seeded_log()
    assert text == seeded_log()
    if os.environ.get("ICEDITOR_REGENERATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
    log = read_log(text)
    end = replay(log, SCENARIOS["s1-demyansk-pocket"])
    assert end.result == log.entries[-1]["events"][-1]["result"]
    verified = replay(log, SCENARIOS["s1-demyansk-pocket"], verify=True)
    assert verified.digest() == end.digest()
    halfway = replay(log, SCENARIOS["s1-demyansk-pocket"], upto=len(log.entries) // 2)
    assert halfway.turn < end.turn or halfway.phase != end.phase


def test_cli_play_and_replay(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "s1", "--seed", "4", "--log", str(log), "--format", "json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["result"]["winner"] in ("german", "russian", "draw") and log.is_file()
    assert main(["replay", str(log), "--verify"]) == 0
    assert "every roll and state checked" in capsys.readouterr().out
    assert main(["replay", str(log), "--at", "5", "--format", "json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert {"turn", "phase", "phasing", "to_act", "units", "result"} <= set(state)
    assert {"id", "side", "kind", "type", "hex", "state", "morale", "facing", "men", "hidden"} <= set(state["units"][0])
    assert main(["replay", str(log), "--each", "phase"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("end of turn 0") and len(lines) > 20


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (lambda text: "", "the log is empty"),
        (lambda text: text[: len(text) // 2], "not a JSON line"),  # cut short mid-line
        (lambda text: text.replace('"action": "done"', '"action": "move russian/PL-PR10 5001"', 1), "is not legal"),
        (lambda text: re.sub(r'"digest": "[0-9a-f]+"', '"digest": "0000000000000000"', text, count=1), "state differs"),
    ],
)
def test_cli_replay_refuses_a_broken_log_with_its_line(tmp_path: Path, capsys: Any, broken: Any, message: str) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "s1", "--seed", "4", "--log", str(log)]) == 0
    capsys.readouterr()
    log.write_text(broken(log.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["replay", str(log), "--verify"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and str(log) in err


def test_cli_replay_refuses_a_log_of_another_scenario_file(tmp_path: Path, capsys: Any) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "s1", "--seed", "4", "--log", str(log)]) == 0
    copy = tmp_path / "s1-demyansk-pocket.yaml"
    copy.write_text((REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text() + "\n# edited\n")
    log.write_text(log.read_text().replace("scenarios/s1-demyansk-pocket.yaml", str(copy), 1))
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    assert "another scenario file" in capsys.readouterr().err


def test_cli_play_refuses_an_unknown_player(capsys: Any) -> None:
    assert main(["play", "s1", "--players", "random,clever"]) == 2
    assert "no player 'clever'" in capsys.readouterr().err
