"""A phase always ends: no sequence of legal actions cycles without end (6.0: 'Each Player Turn
consists of seven phases which must be performed in the following sequence'). A player that always
takes the first action, one that always takes the last, and random players finish every bundled
scenario; so does docs/engine.md's game in five lines."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Action, legal_actions, new_game, play
from engine.model.scenario import load_scenario
from engine.resources import bundled_examples, bundled_scenarios

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {p.stem: load_scenario(p) for p in [*bundled_scenarios(), *bundled_examples()]}
# A phase of a first-action game of Scenario 6 is at most a few hundred actions: far more is a cycle.
MOST_IN_A_PHASE = 3_000
# The CI profile plays a few random games; the long one (HYPOTHESIS_PROFILE=long) twenty times as many.
RANDOM_GAMES = max(1, settings.default.max_examples // 50) * 3

Chooser = Callable[[Sequence[Action]], Action]


def finish(scenario: str, seed: int, choose: Chooser) -> dict[str, object]:
    """Play the scenario to its end with `choose`; fail if one phase takes MOST_IN_A_PHASE actions."""
    game = new_game(SCENARIOS[scenario], seed)
    in_phase, where = 0, (game.turn, game.phasing, game.phase)
    while not game.is_over:
        play(game, choose(legal_actions(game)))
        now = (game.turn, game.phasing, game.phase)
        in_phase = in_phase + 1 if now == where else 0
        where = now
        assert in_phase < MOST_IN_A_PHASE, f"{scenario}: turn {now[0]} {now[1]} {now[2]} never ends"
    assert game.result is not None
    return game.result


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("pick", ["first", "last"])
def test_6_0_a_player_taking_always_the_first_or_the_last_action_finishes_every_scenario(
    scenario: str, pick: str
) -> None:
    """6.0: every phase is performed and ends. The first action of a movement phase is often a
    facing change: one a hex (R150), else an MG turns for ever (8.73)."""
    index = 0 if pick == "first" else -1
    assert finish(scenario, 7, lambda actions: actions[index])["winner"] in ("german", "russian", "draw")


def test_6_0_random_players_finish_every_scenario() -> None:
    """6.0: random legal play, a few games of the scenarios (more under HYPOTHESIS_PROFILE=long)."""

    @settings(max_examples=RANDOM_GAMES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(scenario=st.sampled_from(sorted(SCENARIOS)), seed=st.integers(0, 2**31))
    def run(scenario: str, seed: int) -> None:
        chance = random.Random(seed)
        finish(scenario, seed, lambda actions: actions[chance.randrange(len(actions))])

    run()


def test_the_game_in_five_lines_of_docs_engine_md_finishes(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """docs/engine.md 'A game in five lines', as written: it plays legal_actions(game)[0] to the end."""
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("## A game in five lines") :]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    monkeypatch.chdir(REPO)
    exec(compile(code.group(1), "docs/engine.md", "exec"), {})
    assert "'winner'" in capsys.readouterr().out
