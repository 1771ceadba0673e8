"""Moves by path (engine/game/paths.py, R190-R192): `move UNITS H1 H2 ...` played hex by hex, the
other side answering at each hex (13.0), stopped where the rules stop it; `paths(game, units)`.
The duel (tests/fixtures/game/duel.yaml): the Russians enter on the north edge, the Germans wait
around 1207 with a IIIe in 1307."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.game import Action, IllegalAction, apply, legal_actions, new_game, parse, play
from engine.game.facing import entry_facing_actions, facing_index
from engine.game.log import log_text, read_log, replay
from engine.game.paths import paths
from engine.game.shot import ap_shot
from engine.game.state import MOVEMENT, GameState
from engine.game.views import side_log
from engine.model.scenario import load_scenario
from tests.heavy import scenario_params
from tests.properties import fewer_examples
from tests.test_engine_rules import DUEL, REPO, german_movement, start, to_phase, with_dice

LMG = "russian/A/LMG-PR8-1"


def duel_movement(seed: int = 1) -> GameState:
    return to_phase(start(seed), MOVEMENT)


def answer(game: GameState) -> None:
    """The hex entered answered: an entering MG's facing first (R161, 10.23), then the other side passes (13.0)."""
    for face in entry_facing_actions(game)[:1]:
        play(game, face)
    play(game, Action("pass"))


def events_of(game: GameState, since: int) -> list[dict[str, Any]]:
    return [e for entry in game.log[since:] for e in entry["events"] if e["event"] != "path ended"]


def test_8_0_a_path_move_plays_as_its_steps_played_one_by_one() -> None:
    """8.0: 'Units move from hex to adjacent hex'; 13.0: the other side may answer at each hex. A
    path with nothing interrupting ends where, and as, the same steps played one by one do."""
    by_path, by_step = duel_movement(), duel_movement()
    route = paths(by_path, (LMG,))["1206"]
    since = len(by_path.log)
    play(by_path, route.action((LMG,)))
    while by_path.interrupt is not None:
        answer(by_path)
    for label in route.hexes:
        play(by_step, Action("move", (LMG,), label))
        answer(by_step)
    assert events_of(by_path, since) == events_of(by_step, since)
    assert by_path.log[-1]["events"][-1] == {
        "event": "path ended",
        "units": [LMG],
        "hex": "1206",
        "reached": True,
        "rule": "8.0",
    }
    assert by_path.unit(LMG).mp_spent == by_step.unit(LMG).mp_spent == route.mp
    assert by_path.digest() == by_step.digest()
    assert legal_actions(by_path) == legal_actions(by_step)
    assert by_path.active == (LMG,)  # the unit may go on, turn or stop, as after its last step


def test_13_18_an_interrupt_that_pins_the_mover_stops_the_path_naming_the_hex_and_rule() -> None:
    """13.18: 'Moving units which become PINNED may move no further in that phase.' The path pauses
    at each hex for the other side's answer; the IIIe's opportunity fire pins the LMG in 1301."""
    game = duel_movement()
    play(game, paths(game, (LMG,))["1306"].action((LMG,)))
    play(game, entry_facing_actions(game)[0])  # R161: the LMG faces on entering, then the German answers
    assert game.to_act == "german" and game.interrupt == {"hex": "1301", "units": [LMG], "side": "russian"}
    play(game, parse("aim german/IIIe-1 1301"))
    shot = ap_shot(game, [game.unit("german/IIIe-1")], game.board.hex("1301"))
    assert [d.count for d in shot.dice] == [1]
    with_dice(game, 1, 2, shot.levels["P"])  # the IIIe's PC passes; the die at the P level
    play(game, Action("shoot"))
    assert str(game.unit(LMG).morale) == "pinned"
    answer(game)
    assert game.log[-1]["events"] == [
        {
            "event": "path ended",
            "units": [LMG],
            "hex": "1301",
            "reached": False,
            "why": f"{LMG} stopped (pinned)",
            "rule": "13.18",
        }
    ]
    assert game.path is None and game.to_act == "russian" and game.unit(LMG).hex == game.board.hex("1301")


@pytest.mark.parametrize(
    ("path", "refusal"),
    [
        ("1301 1303", "1303 is not next to 1301: a path goes hex by hex (8.0)"),
        ("1301 1302 1303 1304 1305 1306 1307", "1307 holds an enemy unit: only an overrun enters one (8.23)"),
        ("1301 1302 1303 1304 1305 1306 1206 1106", f"{LMG} has 6 MP left: the path to 1106 costs 6.5 (8.1)"),
        ("1301 9999", "the path's 9999 is not a hex of the map (8.0)"),
    ],
)
def test_8_0_8_1_8_23_an_illegal_path_is_refused_whole_with_the_hex_and_rule(path: str, refusal: str) -> None:
    """8.0 hex to adjacent hex; 8.1 the MPs of the Movement Allowance; 8.23 'Units may never enter
    an enemy occupied hex' (but for an overrun). The whole path is refused before any hex is played."""
    game = duel_movement()
    before = (len(game.log), game.digest())
    with pytest.raises(IllegalAction) as refused:
        play(game, Action("move", (LMG,), path))
    assert str(refused.value) == refusal
    assert (len(game.log), game.digest()) == before


def test_r191_a_hidden_enemy_is_no_refusal_the_path_stops_where_it_is_revealed() -> None:
    """24.23: hidden units are revealed as a unit is about to enter their hex; 8.23 then bars it.
    The path is checked from what the mover sees (R191): it stops there, naming the rule."""
    game = duel_movement()
    game.relocate(game.unit(LMG), "on_map", game.board.hex("1205"))  # as if it had entered before
    game.caches = {}
    play(game, Action("move", (LMG,), "1206 1207 1208"))
    while game.path is not None:
        answer(game)
    end = game.log[-1]["events"][-1]
    assert (end["event"], end["hex"], end["reached"], end["rule"]) == ("path ended", "1206", False, "24.23")
    assert game.to_act == "russian" and game.unit(LMG).hex == game.board.hex("1206")


def random_path_game(scenario: Any, seed: int, budget: int) -> GameState:
    """A game where the movers move by path to a random reachable hex, the rest at random."""
    game = new_game(scenario, seed)
    chance = random.Random(seed)
    for _ in range(budget):
        if game.is_over:
            break
        actions = legal_actions(game)
        action = actions[chance.randrange(len(actions))]
        if action.verb == "move" and game.interrupt is None:
            routes = list(paths(game, action.units).values())
            if routes:
                route = routes[chance.randrange(len(routes))]
                mp = max(game.unit(i).mp_spent for i in action.units)
                play(game, route.action(action.units))
                while game.path is not None:  # the other side lets it go (nothing interrupts)
                    answer(game)
                end = game.log[-1]["events"][-1]
                if end.get("reached"):
                    assert game.unit(action.units[0]).hex == game.board.hex(route.hexes[-1])
                    spent = max(game.unit(i).mp_spent for i in action.units) - mp
                    assert spent == pytest.approx(route.mp) or route.mp == 0
                continue
        play(game, action)
    return game


@pytest.mark.parametrize("name", scenario_params(["s1-demyansk-pocket", "s6-spartakovka"]))
def test_r190_a_game_of_paths_replays_and_verifies_and_each_route_is_reached_for_its_mps(name: str) -> None:
    """R190: a path still to go is held in the state (the log's actions and passes replay it, the
    digest covers it); every route `paths` gives is reached, for its MPs, when nothing stops it."""
    scenario = load_scenario(REPO / "scenarios" / f"{name}.yaml")
    game = random_path_game(scenario, 3, 900)
    assert any(entry["action"].startswith("move") and entry["action"].count(" ") > 2 for entry in game.log[1:])
    again = replay(read_log(log_text(game)), scenario, verify=True)
    assert again.digest() == game.digest() and again.path == game.path


def test_r190_the_duel_offers_no_paths_outside_a_movement_phase() -> None:
    """Paths are movement's (8.0): none in the set-up, nor while the other side answers (13.0)."""
    game = new_game(DUEL, 1)
    assert paths(game, ("german/IIIe-1",)) == {}
    game = duel_movement()
    play(game, Action("move", (LMG,), "1301 1302"))
    assert game.interrupt is not None and paths(game, (LMG,)) == {}


def test_8_22_a_failed_pc_to_move_stops_the_path_before_its_first_hex() -> None:
    """8.22: after the first shot 'each unit must pass a PC in order to move'; 4.0: failed, it has
    MOVED. The path ends where the unit stands, naming 8.22."""
    game = duel_movement()
    game.relocate(game.unit(LMG), "on_map", game.board.hex("1205"))
    game.first_shot, game.caches = True, {}
    with_dice(game, 6, 6)
    play(game, Action("move", (LMG,), "1206 1106"))
    assert game.log[-1]["events"][-1] == {
        "event": "path ended",
        "units": [LMG],
        "hex": "1205",
        "reached": False,
        "why": f"{LMG} failed the PC to move",
        "rule": "8.22",
    }
    assert game.path is None and game.to_act == "russian" and game.unit(LMG).move_done


def test_19_27_a_mine_attack_that_pins_the_mover_stops_the_path_in_the_mined_hex() -> None:
    """19.27: 'Only units in NORMAL status after a mine attack may continue moving'. The mine is the
    German's secret (19.11): the path is not refused for it (R191), it stops in 1303."""
    game = duel_movement()
    game.secrets["german"].mines[game.board.hex("1303")] = {"ap": 6, "at": 0}
    with_dice(game, 4)  # the AP mine attack's die (19.24): P on 6 factors
    play(game, Action("move", (LMG,), "1301 1302 1303 1304 1305"))
    while game.path is not None:
        answer(game)
    attack = next(e for entry in game.log for e in entry["events"] if e["event"] == "mine_attack")
    assert attack["result"] == "P"
    end = game.log[-1]["events"][-1]
    assert (end["hex"], end["reached"], end["rule"]) == ("1303", False, "19.27")
    assert game.unit(LMG).hex == game.board.hex("1303")


def test_8_74_an_afv_on_a_path_turns_toward_each_hex_and_pays_for_it() -> None:
    """8.74: 'AFVs may only move forward through their frontal hexside', one hexside free after
    entering each hex, 1 MP each further one (R192): the path turns the IIIe as its player would."""
    by_path, by_step = german_movement(start()), german_movement(start())
    afv = ("german/IIIe-1",)
    route = paths(by_path, afv)["1504"]
    assert route.hexes == ("1306", "1405", "1505", "1504")
    since = len(by_path.log)
    play(by_path, route.action(afv))
    while by_path.path is not None:
        answer(by_path)
    for label in route.hexes:
        unit = by_step.unit(afv[0])
        assert unit.hex is not None
        if facing_index(unit.hex, by_step.board.hex(label)) != unit.facing:
            play(by_step, Action("face", afv, label))
        play(by_step, Action("move", afv, label))
        answer(by_step)
    assert events_of(by_path, since) == events_of(by_step, since)
    assert [e["event"] for e in events_of(by_path, since)].count("faced") == 2
    assert by_path.unit(afv[0]).mp_spent == by_step.unit(afv[0]).mp_spent == route.mp
    assert by_path.digest() == by_step.digest()


S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")


@fewer_examples(5)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_8_0_property_any_route_played_by_path_is_its_steps_played_one_by_one(seed: int, pick: int) -> None:
    """8.0, 13.0: in a random game of Scenario 1, at a mover's decision (after up to 1,200 others),
    a route `paths` gives, played as one action, gives the events, state and choices of its steps
    played one by one (an AFV's turns first, R192; a failed PC, 8.22, ends both), the other side
    passing at each hex; `apply` leaves the state as it was."""
    game = new_game(S1, seed)
    chance = random.Random(seed)
    routes: list[tuple[tuple[str, ...], Any]] = []
    decisions = 0
    while not game.is_over and not routes:
        actions = legal_actions(game)
        action = actions[chance.randrange(len(actions))]
        decisions += 1
        if action.verb == "move" and game.interrupt is None and decisions > pick % 1200:
            routes = [(action.units, r) for r in paths(game, action.units).values() if len(r.hexes) > 1]
        if not routes:
            play(game, action)
    if not routes:
        return
    units, route = routes[pick % len(routes)]
    before = game.digest()
    by_path = apply(game, route.action(units))
    assert game.digest() == before and game.path is None
    by_step, since = game.copy(), len(game.log)
    while by_path.path is not None:
        answer(by_path)
    for label in route.hexes:  # each step while the units move on (a PC may fail: 8.22)
        afv = next((by_step.unit(i) for i in units if by_step.unit(i).is_afv), None)
        if afv is not None and afv.hex is not None and facing_index(afv.hex, by_step.board.hex(label)) != afv.facing:
            play(by_step, Action("face", (afv.id,), label))
        if any(by_step.unit(i).move_done for i in units):
            break
        play(by_step, Action("move", units, label))
        if by_step.interrupt is None:
            break
        answer(by_step)
        if by_step.active != units:
            break
    assert events_of(by_path, since) == events_of(by_step, since)
    assert by_path.digest() == by_step.digest() and legal_actions(by_path) == legal_actions(by_step)


def test_r190_the_other_side_sees_a_path_only_as_far_as_it_is_entered() -> None:
    """R190, R180: a move by path names every hex the mover means to enter; the other side's log
    names the hex entered first and sees the rest as they are entered, and not whether the mover
    reached the hex it meant to."""
    game = duel_movement()
    route = paths(game, (LMG,))["1206"]
    play(game, route.action((LMG,)))
    while game.path is not None:
        answer(game)
    mover, other_side = side_log(game, "russian"), side_log(game, "german")
    whole = route.action((LMG,)).text()
    assert len(route.hexes) > 1 and whole in [e.get("action") for e in mover]
    assert whole not in [e.get("action") for e in other_side]
    assert f"move {LMG} {route.hexes[0]}" in [e.get("action") for e in other_side]
    assert not any(e["event"] == "path ended" for entry in other_side for e in entry["events"])
    assert any(e["event"] == "path ended" for entry in mover for e in entry["events"])
