"""Whole games: random legal play from every bundled scenario, each side deciding from its View,
keeps the engine's invariants after every action and ends with a result (docs/engine.md). Apart
from tests/test_engine_play.py (the seeded log and the command line): the run gives a file to a
worker, and these games are the longest part of the suite."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import legal_actions, new_game, play
from engine.game.stacks import stacking_problems
from engine.game.state import MOVEMENT, REACTION, GameState
from engine.game.steps import budget
from engine.game.units import ON_MAP
from engine.game.views import SideLog, player_view
from engine.geometry.movement import ONE_HEX, Morale, State
from engine.model.counters import SIDES
from engine.players import make_player
from engine.players.base import begin_game
from tests.heavy import LONGEST, scenario_params
from tests.test_engine_play import SCENARIOS

# The CI profile plays a game of each scenario; the long one (.ci/run) twenty of Scenario 6, the
# longest, and forty of each other.
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
        if fired and not _mg_combat_goes_on(game, unit):  # 10.11: no unit fires twice in a Player Turn
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


def _mg_combat_goes_on(game: GameState, unit: Any) -> bool:
    """10.11's 'Exception: MACHINE GUN MODES 21.0': an FL or SP MG's one fire combat may take a PC
    in each phase it attacks in (21.24, 21.27; R354)."""
    return bool(unit.extra.get("mg_combat", (None,))[0] == game.player_turns)


def _stopped_there(game: GameState, phase: str, h: Any) -> bool:
    """R115: a unit a mine (19.27) or fire (13.18) stopped in hex h during the phase that ended."""
    here = {u.id for u in game.at(h)}
    ended = [line for line in game.log[-400:] if line.get("phase") == phase]
    return any(
        e.get("event") == "stopped" and e.get("unit") in here and e.get("rule") in ("19.27", "13.18", "8.43", "8.33")
        for line in ended
        for e in line.get("events", [])
    )


def random_game(
    scenario: str, seed: int, options: dict[str, Any] | None = None, also: Any = None, player: str = "random"
) -> GameState:
    """A game of random players (or others: `player`), the invariants checked after every action (and
    `also(game, before)`, given the state's copy before it, for the rules an option adds)."""
    game = new_game(SCENARIOS[scenario], seed, options)
    ids = set(game.units)
    players = {"german": make_player(player, seed), "russian": make_player(player, seed + 1)}
    begin_game(players, game.scenario)
    logs = {side: SideLog(side) for side in players}
    while not game.is_over:
        phase = game.phase
        side = game.to_act
        before = snapshot(game)
        board = (set(game.wrecks), dict(game.grenades_used))
        action = players[side].choose(player_view(game, side, logs[side]), legal_actions(game))
        previous = game.copy() if also is not None else None
        play(game, action)
        check_invariants(game, ids, phase if game.phase != phase else None, before, action, board)
        if also is not None:
            also(game, previous)
    return game


@pytest.mark.parametrize(
    "scenario",
    scenario_params(sorted(SCENARIOS), LONGEST | {"s3-closing-the-ring", "s4-tula", "s5-through-the-marshes"}),
)
def test_random_play_keeps_the_invariants_and_ends_with_a_result(scenario: str) -> None:
    examples = 1 if SCALE == 1 else SCALE * (1 if scenario.startswith("s6") else 2)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(seed=st.integers(0, 2**31))
    def run(seed: int) -> None:
        game = random_game(scenario, seed)
        assert game.result is not None and game.result["winner"] in ("german", "russian", "draw")
        assert game.turn == int(SCENARIOS[scenario].data["game_length"])

    run()


def test_a_random_game_of_scenario_1_has_shots_results_and_eliminations() -> None:
    """Issue 13: with fire combat, a random game is a real game: attacks are made, they have
    results, and units are eliminated (seeds chosen: a random game may have none; 3 and 4 have all)."""
    found: dict[str, int] = {}
    for seed in (3, 4):
        game = random_game("s1-demyansk-pocket", seed)
        for line in game.log:
            for event in line.get("events", []):
                found[event["event"]] = found.get(event["event"], 0) + 1
    assert found.get("attack", 0) > 20 and found.get("ap roll", 0) > 20
    assert found.get("result", 0) > 0 and found.get("eliminated", 0) > 0
