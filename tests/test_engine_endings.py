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

from engine.game import Action, IllegalAction, legal_actions, new_game, parse, play
from engine.game.state import SUPPORT_FIRE
from engine.model.scenario import load_scenario
from engine.resources import bundled_examples, bundled_scenarios
from tests.heavy import scenario_params
from tests.test_engine_fire import away, game_at, put

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


PLAYERS: dict[str, Chooser] = {"first": lambda actions: actions[0], "last": lambda actions: actions[-1]}


@pytest.mark.parametrize("scenario", scenario_params(sorted(SCENARIOS)))
@pytest.mark.parametrize("pick", sorted(PLAYERS))
def test_6_0_a_player_taking_always_the_first_or_the_last_action_finishes_every_scenario(
    scenario: str, pick: str
) -> None:
    """6.0: every phase is performed and ends. The first action of a movement phase is often a
    facing change: one a hex (R150), else an MG turns for ever (8.73)."""
    assert finish(scenario, 7, PLAYERS[pick])["winner"] in ("german", "russian", "draw")


@pytest.mark.parametrize("scenario", ["s1-demyansk-pocket", "s2-khristishche"])
def test_r155_a_player_cancelling_every_attack_it_declares_finishes(scenario: str) -> None:
    """R97: a declared attack 'may be dropped before its PCs'; R155: its first firer does not aim at
    that hex again in the phase, else aim and cancel cycle for ever."""

    def cancelling(actions: Sequence[Action]) -> Action:
        return next((a for a in actions if a.verb == "cancel"), actions[0])

    finish(scenario, 7, cancelling)


def test_r155_a_first_firer_whose_attack_was_cancelled_does_not_aim_there_again() -> None:
    """R97: `cancel` drops a designation before any PC; R155: its first firer is not offered that
    hex again in the phase (other firers are, and it may aim elsewhere), nor may it play it."""
    game = game_at("russian", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "russian/A/R-PR8-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1210")
    put(game, "russian/A/R-PR8-1", "1210")
    put(game, "german/D/R-PR9-1", "1213")
    play(game, parse("aim russian/A/R-PR9-1 1213"))
    play(game, parse("cancel"))
    offered = {a.text() for a in legal_actions(game)}
    assert "aim russian/A/R-PR9-1 1213" not in offered and "aim russian/A/R-PR8-1 1213" in offered
    with pytest.raises(IllegalAction, match=r"cancelled in this phase \(R155\)"):
        play(game, parse("aim russian/A/R-PR9-1 1213"))
    play(game, parse("aim russian/A/R-PR8-1 1213"))
    assert "join russian/A/R-PR9-1" in {a.text() for a in legal_actions(game)}  # it still fires with another


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
