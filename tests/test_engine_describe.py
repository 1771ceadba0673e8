"""Actions and events in words (engine/game/describe.py): every action offered has its numbers and
a sentence, and the MPs it says are the MPs playing it spends (8.1, 8.5, 8.74, 3.13); every event
has its sentence with its rule and dice; `options` filters the choices by unit and by hex."""

from __future__ import annotations

import random

import pytest

from engine.game import Action, legal_actions, new_game, parse, play
from engine.game.actions import VERBS
from engine.game.describe import _DOES, describe, describe_event, options
from engine.game.facing import entry_facing_actions
from engine.game.fire_odds import pc_chance
from engine.model.scenario import load_scenario
from tests.heavy import scenario_params
from tests.test_engine_paths import LMG, duel_movement
from tests.test_engine_rules import REPO

SCENARIOS = sorted(p.stem for p in (REPO / "scenarios").glob("s*.yaml"))


@pytest.mark.parametrize("name", scenario_params(SCENARIOS))
def test_every_action_offered_has_a_sentence_and_its_mps_are_what_playing_it_spends(name: str) -> None:
    """8.1: a unit spends MPs of its Movement Allowance; 8.5 each hex's terrain cost; 8.74 an AFV's
    turns; 3.13 a state change. A random game's first 500 decisions, every action offered (a sample
    of 40 where there are more) described, the one played checked against what it spent."""
    game = new_game(load_scenario(REPO / "scenarios" / f"{name}.yaml"), 2)
    chance = random.Random(2)
    checked = 0
    for _ in range(500):
        if game.is_over:
            break
        actions = legal_actions(game)
        for action in actions if len(actions) <= 40 else chance.sample(actions, 40):
            description = describe(game, action)
            assert description.sentence and description.units == action.units
            assert all(unit.split("/", 1)[1] in description.sentence for unit in action.units)
        action = actions[chance.randrange(len(actions))]
        description = describe(game, action)
        lead = game.units.get(action.units[0]) if action.units else None  # infiltrate names a squad
        before = lead.mp_spent if lead is not None else 0.0
        since = len(game.log)
        play(game, action)
        failed = any(e["event"] == "pc" and e["check"].endswith("failed") for e in game.log[since]["events"])
        if description.mp_cost is not None and lead is not None and not failed:
            assert lead.mp_spent - before == pytest.approx(description.mp_cost), description.sentence
            assert f"{description.mp_cost:g} MP" in description.sentence
            assert f"{description.mp_left:g} MP left" in description.sentence
            checked += 1
        for event in game.log[since]["events"]:
            sentence = describe_event(event)
            assert sentence and (not event.get("rule") or f"({event['rule']})" in sentence)
            assert "dice" not in event or str(event["dice"]) in sentence
    assert checked > 0


def test_8_5_a_move_says_its_hexes_terrain_mps_and_what_is_left() -> None:
    """8.5: 'Each hex costs MP's to enter depending on the terrain'; 8.52 half a MP along the road."""
    game = duel_movement()
    assert describe(game, Action("move", (LMG,), "1301")).sentence == (
        "A/LMG-PR8-1 onto the map at 1301 (24.1): 1 MP (Road), 5 MP left"
    )
    route = describe(game, Action("move", (LMG,), "1301 1302 1303"))
    assert (route.to_hex, route.mp_cost, route.mp_left) == ("1303", 2.0, 4.0)
    assert route.sentence == "A/LMG-PR8-1 from off the map to 1303 by 3 hexes: 2 MP, 4 MP left"


def test_8_22_a_moves_pc_is_given_with_its_chance() -> None:
    """8.22: after the first shot 'each unit must pass a PC in order to move'; 4.0 two dice at most the PR."""
    game = duel_movement()
    game.first_shot = True
    game.caches = {}
    description = describe(game, Action("move", (LMG,), "1301"))
    assert description.pcs == ((LMG, 8, float(pc_chance(8))),)
    assert "PC for A/LMG-PR8-1: 8 or less on two dice, 72%" in description.sentence
    assert pc_chance(8) == pytest.approx(26 / 36)


def test_legal_actions_filtered_by_unit_and_by_hex() -> None:
    """`options(game, unit=, hex=)`: the choices naming a unit, or a hex (entered, or stood in)."""
    game = duel_movement()
    mine = options(game, unit=LMG)
    assert mine and all(LMG in a.units for a in mine)
    assert {a.text() for a in options(game, hex="1301")} == {a.text() for a in legal_actions(game) if a.arg == "1301"}
    assert options(game, unit=LMG, hex="1301") == [Action("move", (LMG,), "1301")]


def test_13_17_an_opportunity_shots_pc_is_given_with_its_modifier_and_chance() -> None:
    """13.17: opportunity fire's PC is modified (+1 for an AFV in the Movement Phase); 10.12 every
    firer takes its PC at `shoot`."""
    game = duel_movement()
    play(game, Action("move", (LMG,), "1301"))
    play(game, entry_facing_actions(game)[0])  # R161: the LMG faces on entering, then the German answers
    aim = describe(game, parse("aim german/IIIe-1 1301"))
    assert aim.pcs == (("german/IIIe-1", 8, float(pc_chance(9, 1))),)
    assert aim.sentence == "IIIe-1 opens an AP attack (10.0 a): 1301; PC for IIIe-1: 8 or less on two dice, 72%"
    play(game, parse("aim german/IIIe-1 1301"))
    assert describe(game, Action("shoot")).pcs == aim.pcs


def test_every_verb_has_its_words() -> None:
    """Every registered verb (actions.VERBS, each module's `verb(...)`) has its words in a sentence."""
    assert set(VERBS) <= set(_DOES)


def test_a_description_names_the_hex_an_action_aims_at() -> None:
    """The hex of the argument (10.0 a's target, 24.1's placement, a path's last), never a state."""
    game = duel_movement()
    assert describe(game, parse("place russian/A/R-PR9-1 3817 down")).to_hex == "3817"
    assert describe(game, parse("ip 2 4307")).to_hex == "4307"
    assert describe(game, Action("move", (LMG,), "1301 1302")).to_hex == "1302"
    assert describe(game, Action("move", (LMG,), "1301 1303")).mp_cost is None  # refused when played (8.0)
