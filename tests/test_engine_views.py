"""What each side may know (24.21 hidden hexes, 19.11 mines): a View with nothing behind it, the
log as each side saw it (R180, R93) and the states a search player may draw from a view (R181)."""

from __future__ import annotations

import gc
import random
import re
import types
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import legal_actions, new_game, play
from engine.game.determinize import determinize
from engine.game.dice import Dice
from engine.game.setup import deployment_area
from engine.game.stacks import over_stacked
from engine.game.state import GameState, Secrets, other
from engine.game.views import PUBLIC_FIELDS, SideLog, View, player_view, side_log
from engine.hexgrid import Hex
from engine.model.scenario import Scenario, load_scenario
from engine.players import PLAYERS, make_player
from engine.players.base import RandomPlayer
from engine.players.match import play_out

REPO = Path(__file__).resolve().parents[1]
S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")  # two German hidden hexes in its set-up
S4 = load_scenario(REPO / "scenarios" / "s4-tula.yaml")  # Russian hidden hexes and 10 AT mine factors
LEAVES = (str, bytes, int, float, bool, type(None))


def played(scenario: Scenario, seed: int, actions: int) -> tuple[GameState, dict[str, SideLog]]:
    """A random game of `actions` decisions (fewer if it ends), each side's log read on as it went."""
    game = new_game(scenario, seed)
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    logs = {side: SideLog(side) for side in players}
    for _ in range(actions):
        if game.is_over:
            break
        side = game.to_act
        play(game, players[side].choose(player_view(game, side, logs[side]), legal_actions(game)))
    return game, logs


def walk(roots: list[Any]) -> list[Any]:
    """Every object reachable from the roots: containers, dataclasses, their __dict__ and slots."""
    seen: dict[int, Any] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        if not isinstance(obj, LEAVES):
            todo += gc.get_referents(obj)
    return list(seen.values())


def enemy_secrets(game: GameState, side: str) -> tuple[set[str], dict[Any, dict[str, int]]]:
    enemy = other(side)
    hidden = {u.id for u in game.side_units(enemy) if u.hidden}
    return hidden, game.secrets[enemy].mines


def test_24_21_a_view_reaches_no_state_dice_generator_nor_enemy_secret() -> None:
    """24.21: 'The player receiving the hidden hexes secretly chooses and records the hex numbers of
    his hidden hexes and the ID's of the units in them'; 19.11: 'he secretly writes down the hex
    numbers he wishes to mine'. Every object reachable from a side's view, walked to the end, is
    plain data: no GameState, Dice, generator, function or module, nothing mutable of the game's,
    no enemy hidden unit's id and no enemy Secrets (Scenario 4: Russian hidden hexes and mines)."""
    checked = 0
    for seed, actions in ((1, 140), (2, 400), (3, 900)):
        game, logs = played(S4, seed, actions)
        state_fields = [getattr(game, name) for name in (*PUBLIC_FIELDS, "units", "secrets", "log", "control", "dice")]
        game_objects = {id(o) for o in walk(state_fields)}  # a player may change nothing of the game's
        for side in ("german", "russian"):
            hidden, mines = enemy_secrets(game, side)
            view = player_view(game, side, logs[side])
            found = walk([view])
            assert not [o for o in found if isinstance(o, (GameState, Dice, random.Random, Scenario))]
            assert not [o for o in found if isinstance(o, (types.FunctionType, types.MethodType, types.ModuleType))]
            assert not [
                o for o in found if id(o) in game_objects and not isinstance(o, (*LEAVES, Hex, tuple, frozenset))
            ]
            assert not hidden & {o for o in found if isinstance(o, str)}, side
            assert [s for s in found if isinstance(s, Secrets)] == [view.record["secrets"]]
            if mines:
                assert view.record["secrets"].mines != mines
            checked += bool(hidden or mines)
    assert checked  # some views had enemy secrets to keep


def test_4_0_the_view_carries_the_marks_the_hex_entered_and_the_losses_seen() -> None:
    """4.0, 10.11: a unit that moved or fired this Player Turn is marked (public); 13.0: the hex the
    moving stack just entered, at an interrupt; R93: the enemy's losses as far as they were seen."""
    game, logs = played(S1, 1, 1400)
    view = player_view(game, "russian", logs["russian"])
    units = {u["id"]: u for u in view.data["units"]}
    assert all({"moved", "fired"} <= set(u) for u in units.values())
    assert all(
        units[u.id]["fired"] == u.fired and units[u.id]["moved"] == u.moved
        for u in game.side_units("german")
        if u.id in units
    )
    seen_lost = [
        e["unit"]
        for line in side_log(game, "russian")
        for e in line["events"]
        if e["event"] in ("eliminated", "destroyed") and e["unit"].startswith("german/")
    ]
    assert seen_lost and view.data["lost"]["german"] == seen_lost
    assert view.data["lost"]["russian"] == [u.id for u in game.side_units("russian") if u.where == "eliminated"]
    while game.interrupt is None:
        play(game, legal_actions(game)[0])
    assert player_view(game, game.to_act).data["interrupt"] == game.interrupt


# -- the log as each side saw it (R180, R93) ---------------------------------------------------------


def entry(n: int, side: str, action: str, *events: dict[str, Any], phase: str = "defensive_fire") -> dict[str, Any]:
    return {
        "n": n,
        "turn": 1,
        "phase": phase,
        "side": side,
        "action": action,
        "dice": [6, 1, 3],
        "events": list(events),
    }


HIDDEN_LOG = [
    {
        "n": 0,
        "event": "start",
        "events": [
            {"event": "placed", "unit": "german/C/R-PR8-1", "hex": "4309", "from": "setup"},
            {"event": "placed", "unit": "german/MMG-1", "hex": "4307", "from": "setup"},
            {"event": "hidden hex", "side": "german", "hex": "4309", "units": ["german/C/R-PR8-1"], "secret": True},
        ],
    },
    entry(1, "german", "mine at 4010", {"event": "mine", "side": "german", "secret": True}, phase="setup"),
    entry(
        2,
        "german",
        "place german/C/R-PR8-2 4309",
        {"event": "placed", "unit": "german/C/R-PR8-2", "hex": "4309"},
        phase="setup",
    ),
    entry(
        3,
        "german",
        "place german/MMG-2 4310",
        {"event": "placed", "unit": "german/MMG-2", "hex": "4310"},
        phase="setup",
    ),
    entry(
        4,
        "german",
        "hide 4309",
        {"event": "hidden hex", "side": "german", "hex": "4309", "units": ["german/C/R-PR8-2"], "secret": True},
        phase="setup",
    ),
    {**entry(5, "german", "done", phase="setup"), "digest": "abcd"},
    entry(
        6,
        "russian",
        "shoot russian/A/R-PR9-1 4309",
        {"event": "attack", "hex": "4309", "targets": ["german/MMG-1", "german/C/R-PR8-1"], "firepower": 4},
        {"event": "ap roll", "unit": "german/C/R-PR8-1", "dice": [1, 3], "result": "S"},
        {"event": "result", "unit": "german/C/R-PR8-1", "result": "S"},
        {"event": "eliminated", "unit": "german/MMG-1", "hex": "4309"},
    ),
    entry(7, "german", "state german/C/R-PR8-1 down", {"event": "state", "unit": "german/C/R-PR8-1", "state": "down"}),
    entry(
        8,
        "german",
        "shoot german/C/R-PR8-1 4209",
        {"event": "revealed", "units": ["german/C/R-PR8-1"], "hex": "4309"},
        {"event": "pc", "unit": "german/C/R-PR8-1", "check": "passed"},
    ),
]


def test_R93_a_hidden_unit_hit_is_not_named_in_the_other_sides_log() -> None:
    """R93: hidden units in a target hex are attacked and stay hidden, 'their results are the owner's
    secret'. The Russian's log names neither the hidden squad member nor its roll (nor the entry's
    dice), names the MMG eliminated in sight; the German's own log holds it all."""
    russian = SideLog("russian").update(HIDDEN_LOG).entries
    shot = russian[-3]
    assert shot["action"] == "shoot russian/A/R-PR9-1 4309"  # its own decision
    assert [e["event"] for e in shot["events"]] == ["attack", "eliminated"]
    assert shot["events"][0]["targets"] == ["german/MMG-1"] and "dice" not in shot
    assert SideLog("russian").update(HIDDEN_LOG).lost == ["german/MMG-1"]
    german = SideLog("german").update(HIDDEN_LOG).entries
    assert german[6]["events"] == HIDDEN_LOG[6]["events"] and german[6]["dice"] == [6, 1, 3]


def test_R180_the_other_sides_set_up_is_seen_when_done_without_its_secrets() -> None:
    """24.21 (hidden hexes, recorded secretly), 19.11 (mines, written down secretly), R180: the
    German set-up reaches the Russian's log at its `done`, without the mine, the hidden hex, or the
    placements of the units hidden; a hidden unit's own decision is no action to him; its reveal is
    (24.22), and what follows it names the unit. No side's log carries a digest."""
    log = SideLog("russian")
    log.update(HIDDEN_LOG[:5])
    assert [e["n"] for e in log.entries] == [0]  # the German is still setting up
    log.update(HIDDEN_LOG)
    start, mine, hidden_place, place, hide, done, _, state, shown = log.entries
    assert start["events"] == [HIDDEN_LOG[0]["events"][1]]
    assert mine["action"] is None and mine["events"] == [] and "dice" not in mine
    assert hidden_place["action"] is None and hidden_place["events"] == []
    assert place["action"] == "place german/MMG-2 4310" and place["events"] == HIDDEN_LOG[3]["events"]
    assert hide["action"] is None and hide["events"] == []
    assert done["action"] == "done" and "digest" not in done
    assert state["action"] is None and state["events"] == []
    assert shown["action"] == "shoot german/C/R-PR8-1 4209" and [e["event"] for e in shown["events"]] == [
        "revealed",
        "pc",
    ]
    german = SideLog("german").update(HIDDEN_LOG).entries
    assert german[1]["action"] == "mine at 4010" and "digest" not in german[5]


def test_R180_in_a_game_a_sides_log_never_names_an_enemy_unit_still_hidden() -> None:
    """24.21, 19.11, R180: Scenario 1's German hidden hexes (its set-up) and Scenario 4's Russian
    hidden hexes and mines (the Russian's choice): in the German's log no event names a unit still
    hidden, no Russian secret event is there, no Russian mine or hide decision; the log of the side
    with secrets is the referee's less the digests."""
    for scenario, seed, actions, side in ((S1, 3, 26, "russian"), (S4, 2, 200, "german")):
        game, _ = played(scenario, seed, actions)
        enemy = other(side)
        hidden = {u.id for u in game.side_units(enemy) if u.hidden}
        assert hidden
        seen = side_log(game, side)
        assert len(seen) == len(game.log)
        values = [v for line in seen for e in line["events"] for v in e.values()]
        assert not hidden & {str(n) for v in values for n in (v if isinstance(v, list) else [v])}
        assert not [e for line in seen for e in line["events"] if e.get("secret")]
        assert not [
            line for line in seen if line.get("side") == enemy and re.match(r"(mine|hide) ", line.get("action") or "")
        ]
        assert side_log(game, enemy) == [{k: v for k, v in line.items() if k != "digest"} for line in game.log]


# -- determinization (R181) ------------------------------------------------------------------------


def check_determinized(game: GameState, view: View, state: GameState, scenario: Scenario) -> None:
    side, enemy = view.side, other(view.side)
    assert player_view(state, side).data == view.data  # everything the view shows, as it shows it
    assert state.dice is not game.dice and state.dice.rolled == []
    if game.to_act == side and not game.is_over:
        assert legal_actions(state) == legal_actions(game)
    hidden = [u for u in state.side_units(enemy) if u.hidden]
    assert {u.hex for u in hidden} == state.secrets[enemy].hidden_hexes
    assert len(state.secrets[enemy].hidden_hexes) <= int(scenario.data["sides"][enemy].get("hidden_hexes", 0))
    for unit in hidden:  # 24.21: in its deployment area, stacked as 8.62 allows, no AFV
        assert unit.on_map and unit.hex in deployment_area(state, unit) and not unit.is_afv
        assert not over_stacked(state, enemy, unit.hex)
        assert not [u for u in state.at(unit.hex) if not u.hidden]
    factors = {"ap": 0, "at": 0}
    for h, mined in state.secrets[enemy].mines.items():  # 19.12, 19.14
        assert mined["ap"] <= 4 and mined["at"] <= 7 and mined["at"] != 1
        assert state.board.terrain(h).building is None
        factors["ap"] += mined["ap"]
        factors["at"] += mined["at"]
    data = scenario.data["sides"][enemy]
    given = [m for holder in (data, *data["groups"]) for m in [holder.get("mines") or {}]]
    if enemy in game.setup_done:
        assert factors == {kind: sum(int(m.get(f"{kind}_factors", 0)) for m in given) for kind in factors}


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.integers(0, 10_000), st.integers(60, 900), st.sampled_from(["german", "russian"]), st.integers(0, 2**32))
def test_R181_a_determinized_state_agrees_with_the_view_and_hides_what_it_does_not_show(
    seed: int, actions: int, side: str, draw: int
) -> None:
    """24.21, 19.11, 19.12, R181: a state drawn from a side's view of Scenario 4 (Russian hidden hexes
    and mines) shows that side what the view shows (its view of it is the view) and offers it the
    same actions; the enemy's hidden
    units stand in hidden hexes of their deployment areas, at most its hidden hexes, stacked as 8.62
    allows; its mines are all laid, 19.12's limits kept, never in a Building (19.14); its dice are
    its own."""
    game, logs = played(S4, seed, actions)
    view = player_view(game, side, logs[side])
    check_determinized(game, view, determinize(view, S4, random.Random(draw)), S4)


def test_R181_games_differing_only_in_hidden_things_give_the_same_determinizations() -> None:
    """R181: two Scenario 4 games alike but for where a Russian hidden unit stands and where a
    Russian mine lies give the German the same view, and so, from the same generator, the same
    states."""
    game, _ = played(S4, 2, 102)  # the set-up just over: three hidden hexes
    twin = game.copy()
    secrets = twin.secrets["russian"]
    unit = next(u for u in twin.side_units("russian") if u.hidden)
    others = sorted(secrets.hidden_hexes - {unit.hex})
    assert others and secrets.mines
    twin.relocate(unit, "on_map", others[0])
    (h, mined), *_ = sorted(secrets.mines.items())
    del secrets.mines[h]
    secrets.mines[next(n for n in twin.neighbours(h) if n not in secrets.mines and not twin.at(n))] = mined
    assert twin.digest() != game.digest()
    views = [player_view(g, "german") for g in (game, twin)]
    assert views[0].data == views[1].data and views[0].log == views[1].log
    for draw in range(4):
        states = [determinize(v, S4, random.Random(draw)) for v in views]
        assert states[0].digest() == states[1].digest()
        assert states[0].secrets["russian"].mines == states[1].secrets["russian"].mines


def test_R181_units_the_scenarios_set_up_hides_are_not_drawn_where_it_hides_them() -> None:
    """24.21, R181: Scenario 1's `setup:` hides German units in 4308 and 4309. Drawn from the Russian's
    view while the German still sets up, they are not on the map; once his set-up is done, they
    stand where the draws put them, which is not always where the file put them."""
    game = new_game(S1, 1)
    truth = {u.id: u.hex for u in game.side_units("german") if u.hidden}
    assert truth
    early = determinize(player_view(game, "russian"), S1, random.Random(0))
    assert all(early.unit(i).where == "waiting" for i in truth)
    while "german" not in game.setup_done:
        play(game, legal_actions(game)[-1])  # `done`, once his units are placed
    draws = [determinize(player_view(game, "russian"), S1, random.Random(n)) for n in range(6)]
    assert all(d.unit(i).hidden for d in draws for i in truth)
    assert any(d.unit(i).hex != h for d in draws for i, h in truth.items())


# -- writing a player (docs/engine.md) -------------------------------------------------------------


def test_the_player_of_docs_engine_md_plays_a_whole_game() -> None:
    """docs/engine.md "Writing a player": its player, as the page prints it, plays Scenario 1 to
    its end against the random player, choosing from its View alone."""
    text = (REPO / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("## Writing a player", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    assert len([line for line in code.group(1).splitlines() if line.strip()]) <= 20
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)
    try:
        game = new_game(S1, 5)
        play_out(game, {"german": make_player("aggressive", 1), "russian": RandomPlayer(2)})
        assert game.result is not None
    finally:
        PLAYERS.pop("aggressive", None)
