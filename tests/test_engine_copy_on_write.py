"""Copy-on-write units (docs/engine.md "Speed"): a copy shares its original's units until one of
the two changes one, through `GameState.changing`; a shared unit refuses a change made in place.

STRICT_UNITS checks the engine's side of it: every action then starts as on a copy (no unit the
state's own), and the unit `changing` replaces is killed, so that any reference the rules kept
across a change fails when it is read. The games must come out as they do without it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import legal_actions, new_game, play
from engine.game import state as state_module
from engine.game.actions import Action
from engine.game.log import log_text
from engine.game.state import GameState
from engine.game.units import SharedUnitError
from engine.model.scenario import load_scenario
from engine.players import make_player
from engine.players.match import play_out
from engine.resources import bundled_scenarios
from tests.heavy import scenario_params

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "tests" / "golden" / "s1-seed-1.jsonl"
SCENARIOS = {p.stem: load_scenario(p) for p in bundled_scenarios()}
S1 = SCENARIOS["s1-demyansk-pocket"]


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "STRICT_UNITS", True)


def _units(game: GameState) -> dict[str, dict[str, Any]]:
    """Every unit's fields and notes as they are (the engine's "_" caches left out)."""
    return {
        k: {**u.__dict__, "extra": {n: v for n, v in u.extra.items() if n[0] != "_"}} for k, u in game.units.items()
    }


def _random_log(scenario_name: str, seed: int, decisions: int) -> list[dict[str, Any]]:
    rng, game = random.Random(seed), new_game(SCENARIOS[scenario_name], seed)
    for _ in range(decisions):
        if game.is_over:
            break
        play(game, rng.choice(legal_actions(game)))
    return game.log


@pytest.mark.slow
def test_the_golden_game_is_the_same_when_every_action_starts_as_on_a_copy(strict: None) -> None:
    """The golden log (tests/golden/s1-seed-1.jsonl) byte for byte with STRICT_UNITS: no rule reads
    a unit through a reference kept across its change, and every change goes through `changing`."""
    game = new_game(S1, 1)
    play_out(game, {"german": make_player("random", 2), "russian": make_player("random", 3)})
    assert log_text(game, ["random", "random"]) == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", scenario_params(sorted(SCENARIOS)))
def test_random_play_of_every_scenario_is_the_same_when_every_action_starts_as_on_a_copy(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every event, die and digest of 600 random decisions, with STRICT_UNITS and without."""
    plain = _random_log(name, 7, 600)
    monkeypatch.setattr(state_module, "STRICT_UNITS", True)
    assert _random_log(name, 7, 600) == plain


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), at=st.integers(0, 1200), steps=st.lists(st.integers(1, 40), min_size=1, max_size=3))
def test_changing_a_copy_never_changes_its_original_nor_the_copies_beside_it(
    seed: int, at: int, steps: list[int]
) -> None:
    """A state copied, the copy copied again (a search's tree), each played on at random: every
    unit of every other state, fields and notes, stays as it was, and each plays what a fresh game
    of the same actions plays."""
    rng, game = random.Random(seed), new_game(S1, seed)
    taken: list[Action] = []
    while not game.is_over and len(taken) < at:
        taken.append(rng.choice(legal_actions(game)))
        play(game, taken[-1])
    states, paths = [game], [list(taken)]
    for count in steps:
        parent = rng.randrange(len(states))
        twin = states[parent].copy()
        before = [(_units(s), s.digest()) for s in states]
        path = list(paths[parent])
        for _ in range(count):
            if twin.is_over:
                break
            path.append(rng.choice(legal_actions(twin)))
            play(twin, path[-1])
        assert [(_units(s), s.digest()) for s in states] == before
        states.append(twin)
        paths.append(path)
    for state, path in zip(states, paths, strict=True):
        fresh = new_game(S1, seed)
        for action in path:
            play(fresh, action)
        assert _units(fresh) == _units(state) and fresh.log == state.log


def test_a_unit_a_copy_shares_refuses_a_change_in_place() -> None:
    """Neither state changes a shared unit in place, a field or a note; its caches ("_" keys,
    keyed by all they depend on) are written; `changing` gives the state its own, the other's
    left as it was."""
    game = new_game(S1, 3)
    game.side_units("german")
    game.occupied()
    unit = next((u for u in game.units.values() if u.on_map), next(iter(game.units.values())))
    unit.moved = True  # the state's own: changed in place
    twin = game.copy()
    for state in (game, twin):
        shared = state.units[unit.id]
        assert shared is unit
        with pytest.raises(SharedUnitError):
            shared.moved = False
        with pytest.raises(SharedUnitError):
            shared.extra["moving"] = True
        with pytest.raises(SharedUnitError):
            shared.extra.pop("moving", None)
        shared.extra["_note"] = 1
    own = twin.changing(unit)
    assert own is not unit and twin.units[unit.id] is own and twin.changing(unit.id) is own
    own.moved = False
    own.extra["moving"] = True
    assert unit.moved and "moving" not in unit.extra and game.units[unit.id] is unit
    assert [u.id for u in twin.side_units(unit.side)] == [u.id for u in game.side_units(unit.side)]
    assert any(u is own for u in twin.side_units(unit.side)) and not any(u is unit for u in twin.side_units(unit.side))
    if unit.hex is not None:  # the index of `at` holds the state's own too
        assert any(u is own for u in twin.at(unit.hex)) and any(u is unit for u in game.at(unit.hex))
