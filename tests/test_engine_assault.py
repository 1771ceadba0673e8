"""Assault (17.0), rule by rule, on the duel (tests/fixtures/game/duel.yaml): the Russian Assault
Phase of turn 1 with the units set up by hand and the dice given, and random games whose Assault
Phases have markers and end (engine/game/assault.py)."""

from __future__ import annotations

import pytest

from engine.game import Action, IllegalAction, apply, legal_actions, new_game, parse, play
from engine.game.assault import eligible
from engine.game.state import ASSAULT, FREE_STATE, MOVEMENT, GameState
from engine.game.units import ELIMINATED, ON_MAP
from engine.game.views import SideLog, player_view
from engine.geometry.movement import Morale, State
from engine.players import make_player
from tests.test_engine_play import SCENARIOS
from tests.test_engine_rules import do, start, texts, to_phase, with_dice


def assault_phase(placed: dict[str, str], markers: dict[str, str] = {}, *faces: int) -> GameState:  # noqa: B006
    """The Russian Assault Phase of turn 1 with only the units of `placed` on the map (id -> hex
    label; the rest eliminated), nothing hidden, Russian Assault markers (hex -> hex) and the dice."""
    game = to_phase(start(), ASSAULT)
    game.secrets["german"].hidden_hexes.clear()
    for unit in game.units.values():
        unit.hidden = False
        if unit.id in placed:
            game.relocate(unit, ON_MAP, game.board.hex(placed[unit.id]))
        else:
            game.relocate(unit, ELIMINATED, None)
    for origin, target in markers.items():
        game.assault_markers[game.board.hex(origin)] = ("russian", game.board.hex(target))
    game.caches = {}
    with_dice(game, *faces)
    return game


def events(game: GameState, since: int = 0) -> list[dict[str, object]]:
    return [e for line in game.log[since:] for e in line.get("events", [])]


def where(game: GameState, unit_id: str) -> str | None:
    unit = game.unit(unit_id)
    return game.label(unit.hex) if unit.on_map else None


R9, R8, R7, R6, R5 = (f"russian/A/R-PR{n}-1" for n in (9, 8, 7, 6, 5))
LMG8, LMG9, RPL = "russian/A/LMG-PR8-1", "russian/A/LMG-PR9-1", "russian/PL-PR10"
G9, G8, G8B = "german/C/R-PR9-1", "german/C/R-PR8-1", "german/C/R-PR8-2"


# -- 17.0 Assault markers ----------------------------------------------------------------------


def test_17_0_markers_at_the_end_of_the_movement_phase_one_a_hex_public_removed_after_the_assault_phase() -> None:
    """17.0: 'At the end of the Movement and Reaction Movement Phases the Phasing and Non-phasing
    Players (respectively) place Assault markers on their infantry units ... The arrow on the
    marker must point toward the adjacent hex to be assaulted. This hex does NOT have to be enemy
    occupied.' R105: one marker a hex, in both sides' views, removed at the Assault Phase's end."""
    game = to_phase(start(), MOVEMENT)
    do(game, "move russian/A/R-PR9-1 1201")
    do(game, "move russian/A/R-PR8-1 1201")
    play(game, Action("done"))
    assert game.closing and game.to_act == "russian"
    marks = [a.text() for a in legal_actions(game) if a.verb == "mark"]
    assert marks == [f"mark {R8} {h}" for h in ("1101", "1102", "1202", "1301", "1302")]  # the hex's first unit by id
    do(game, f"mark {R8} 1202")
    assert not [a for a in legal_actions(game) if a.verb == "mark"]  # R105: one marker a hex
    with pytest.raises(IllegalAction):
        play(game, parse(f"mark {R9} 1101"))
    shown = {"hex": "1201", "side": "russian", "toward": "1202"}
    assert game.view("german")["assault_markers"] == [shown] == game.view("russian")["assault_markers"]
    while game.phase != ASSAULT:
        play(game, Action("done"))
    assert texts(game) == {f"assault {R8}+{R9} 1202", f"lead {R9}+{R8} 1202", "done"}
    play(game, Action("done"))  # the Russians (phasing) are done; the Germans' part
    assert game.phase == ASSAULT and game.to_act == "german"
    play(game, Action("done"))
    assert game.phase == FREE_STATE and game.assault_markers == {}
    assert {"event": "assault markers removed", "markers": 1, "rule": "17.0"} in game.log[-1]["events"]


def test_17_0_a_marker_on_a_hidden_hex_reveals_it() -> None:
    """R105: the marker is public and sits on the units: the hidden hex is revealed (24.22)."""
    game = new_game(start().scenario, 1)
    play(game, Action("done"))
    play(game, Action("done"))
    while not (game.phasing == "german" and game.phase == MOVEMENT):
        play(game, Action("done"))
    play(game, Action("done"))
    assert game.closing and game.to_act == "german"
    lmg = game.unit("german/C/LMG-PR10-1")
    assert lmg.hidden
    do(game, "mark german/C/LMG-PR10-1 1208")
    assert not lmg.hidden and game.secrets["german"].hidden_hexes == set()


# -- 17.1 which units may assault --------------------------------------------------------------


def test_17_11_only_units_stacked_with_a_marker_and_only_into_its_hex() -> None:
    """17.11: 'Only infantry units stacked with an Assault marker are eligible to assault and only
    into the hex indicated by the marker.'"""
    game = assault_phase({R9: "1106", R8: "1106", R7: "1005", G8: "1107"}, {"1106": "1206"})
    assert texts(game) == {f"assault {R8}+{R9} 1206", f"lead {R9}+{R8} 1206", "done"}  # not 1107, not R7's
    with pytest.raises(IllegalAction):
        play(game, parse(f"assault {R8}+{R9} 1107"))
    with pytest.raises(IllegalAction):
        play(game, parse(f"assault {R7} 1106"))


def test_17_12_each_unit_takes_a_pc_plus_one_even_into_an_empty_hex() -> None:
    """17.12: 'Each unit must pass a modified PC (+1 to the dice roll) to assault. Even if the
    assaulted hex is not enemy occupied the units must take this PC. Units that fail may not
    assault.' 17.0 a: 'Units that pass are moved into the assaulted hex'; 17.0 f: DOWN."""
    game = assault_phase({R9: "1106", R8: "1106"}, {"1106": "1206"}, 4, 4, 4, 4)
    do(game, f"assault {R8}+{R9} 1206")
    checks = [e for e in events(game) if e["event"] == "assault check"]
    assert [c["check"] for c in checks] == ["4+4 + 1 = 9 against PR 8: failed", "4+4 + 1 = 9 against PR 9: passed"]
    assert where(game, R9) == "1206" and game.unit(R9).state == State.DOWN
    assert where(game, R8) == "1106" and game.unit(R8).state == State.UP
    assert game.control[game.board.hex("1206")] == "russian"
    assert game.unit(R8).extra["assaulted"]  # 4.0: it took the PC: it has ASSAULTED
    assert texts(game) == {"done"}


@pytest.mark.parametrize(("faces", "moved"), [((5, 5), False), ((4, 5), True)])
def test_17_12_a_leaders_pc_for_the_whole_stack(faces: tuple[int, int], moved: bool) -> None:
    """17.12: 'If the stack contains a leader, his PR may be used for the entire stack. If the
    leader passes the entire stack may assault.'"""
    game = assault_phase({RPL: "1106", R5: "1106"}, {"1106": "1206"}, *faces)
    assert texts(game) == {f"assault {RPL}+{R5} 1206", f"lead {RPL}+{R5} 1206", "done"}
    do(game, f"lead {RPL}+{R5} 1206")
    assert len(game.log[-1]["dice"]) == 2  # one PC, the leader's: PR 10 against 2 dice + 1
    assert where(game, R5) == ("1206" if moved else "1106") == where(game, RPL)


def test_17_12_an_acting_leader_leads_only_his_own_squad() -> None:
    """5.2 and 17.12 (R106): an acting leader (PR 9 or more) leads a stack of his own squad; a
    commander any stack."""
    game = assault_phase({R9: "1106", R5: "1106"}, {"1106": "1206"})
    assert f"lead {R9}+{R5} 1206" in texts(game)


def test_17_13_normal_status_only_no_cw_no_hex_with_an_enemy_afv() -> None:
    """17.13: 'Only NORMAL status units may assault. A hex containing an enemy AFV may not be
    assaulted. CW units may not assault although they defend normally if assaulted.'"""
    game = assault_phase({R9: "1306", R8: "1306", "german/IIIe-1": "1307"}, {"1306": "1307"})
    assert texts(game) == {"done"}  # the IIIe
    game = assault_phase({R9: "1306", R8: "1306"}, {"1306": "1307"})
    game.unit(R8).morale, game.unit(R8).state = Morale.PINNED, State.DOWN
    assert texts(game) == {f"assault {R9} 1307", "done"}
    atr = game.unit("german/ATR-1")
    game.relocate(atr, ON_MAP, game.board.hex("1207"))
    assert not eligible(game, atr, game.board.hex("1307"))


def test_17_14_units_that_fired_in_the_moving_fire_phase_assault_only_where_their_grenade_went() -> None:
    """17.14: 'Units that fired in the Moving Fire Phase may not assault in the Assault Phase of
    the same Player Turn. Units may throw grenades in the Moving Fire Phase and still assault but
    only if the grenades are thrown into the hex being assaulted.'"""
    game = assault_phase({R9: "1106"}, {"1106": "1107"})
    unit, target = game.changing(R9), game.board.hex("1107")  # every change of a unit through `changing`
    unit.fired, unit.extra["fired_phase"] = True, "moving_fire"
    assert not eligible(game, unit, target) and texts(game) == {"done"}
    unit = game.changing(unit)
    unit.extra["grenade_target"] = "1206"
    assert not eligible(game, unit, target)
    unit.extra["grenade_target"] = "1107"
    assert eligible(game, unit, target) and f"assault {R9} 1107" in texts(game)
    unit.extra.pop("grenade_target")
    unit.extra["fired_phase"] = "support_fire"  # only the Moving Fire Phase bars it
    assert eligible(game, unit, target)


def test_17_15_a_unit_that_lost_its_ability_since_it_was_marked_does_not_assault() -> None:
    """17.15: 'Due to combat results, units may lose their ability to assault between the time
    they were marked with an assault marker and the Assault Phase.'"""
    game = assault_phase({R9: "1106", R8: "1106"}, {"1106": "1107"})
    game.changing(R9).morale, game.unit(R9).state = Morale.SUPPRESSED, State.DOWN
    assert texts(game) == {f"assault {R8} 1107", "done"}
    game.changing(R8).morale, game.unit(R8).state = Morale.PINNED, State.DOWN
    assert texts(game) == {"done"}


# -- 17.2 assault fire -------------------------------------------------------------------------

# Russians R7, R8, R9 (Assault factor 2) from 1106 into 1107: German R9 NORMAL, R8 PINNED, R8-2 SUPPRESSED.
FIGHT = {R9: "1106", R8: "1106", R7: "1106", G9: "1107", G8: "1107", G8B: "1107"}
FIGHT_DICE = (1, 1, 1, 1, 1, 1, 1, 6, 1, 6, 6, 1, 6, 1, 1)


def fight() -> GameState:
    game = assault_phase(FIGHT, {"1106": "1107"}, *FIGHT_DICE)
    for unit_id, morale in ((G8, Morale.PINNED), (G8B, Morale.SUPPRESSED)):
        game.unit(unit_id).morale, game.unit(unit_id).state = morale, State.DOWN
    do(game, f"assault {R7}+{R8}+{R9} 1107")
    return game


def test_17_21_the_initial_round_in_its_sequence() -> None:
    """17.21: 'a) All NORMAL status defenders fire and the results are applied immediately. b) All
    PINNED defenders and all attackers fire; the results are applied simultaneously at the
    conclusion of all fire. c) All SUPPRESSED defenders (that have not already fired) fire and the
    results are applied immediately.'"""
    game = fight()
    fire = [(e["unit"], e["rule"]) for e in events(game) if e["event"] == "assault fire"]
    assert fire == [(G9, "17.21 a, 17.23")]  # a hit: the Russian chooses his loss before b
    assert game.to_act == "russian" and texts(game) == {f"remove {u}" for u in (R7, R8, R9)}
    n = len(game.log)
    do(game, f"remove {R7}")
    fire = [(e["unit"], e["rule"]) for e in events(game, n) if e["event"] == "assault fire"]
    assert fire == [(G8, "17.21 b, 17.23"), (R8, "17.21 b, 17.23"), (R9, "17.21 b, 17.23")]
    assert game.to_act == "german" and texts(game) == {f"remove {u}" for u in (G9, G8, G8B)}
    n = len(game.log)
    do(game, f"remove {G9}")
    fire = [(e["unit"], e["rule"]) for e in events(game, n) if e["event"] == "assault fire"]
    assert fire[0] == (G8B, "17.21 c, 17.23")
    assert all(rule == "17.0 e, 17.23" for _, rule in fire[1:])


def test_17_22_then_pinned_and_suppressed_defenders_are_normal_and_rounds_are_simultaneous() -> None:
    """17.22: 'After the initial round all surviving PINNED and SUPPRESSED defenders are placed in
    NORMAL status. Any subsequent rounds are resolved simultaneously.' 17.23: 'eliminated units do
    get the opportunity to fire ... before being removed.'"""
    game = fight()
    do(game, f"remove {R7}")
    n = len(game.log)
    do(game, f"remove {G9}")
    later = events(game, n)
    assert {"event": "normal", "units": [G8, G8B], "rule": "17.22"} in later
    second = [(e["unit"], e["hit"]) for e in later if e["event"] == "assault fire" and e["round"] == 2]
    assert second == [(G8, True), (G8B, False), (R8, True), (R9, True)]  # all four fired
    assert not game.unit(G8).on_map and not game.unit(G8B).on_map  # two hits, two Germans: no choice
    assert game.to_act == "russian" and texts(game) == {f"remove {R8}", f"remove {R9}"}


def test_17_23_one_die_at_most_the_assault_factor_and_the_owner_chooses_his_loss() -> None:
    """17.23: 'the owning player rolls one die. If the result is less than or equal to the firing
    unit's Assault factor an enemy unit is eliminated. The owning player decides which of his units
    he will remove from play.' 17.0 f: the survivors DOWN; the hex held (R111)."""
    game = fight()
    twin = apply(game, parse(f"remove {R9}"))  # a copy decides otherwise; the game is unchanged
    assert game.unit(R9).on_map and not twin.unit(R9).on_map and game.to_act == "russian"
    do(game, f"remove {R7}")
    do(game, f"remove {G9}")
    do(game, f"remove {R8}")
    assert [where(game, u) for u in (R7, R8, R9)] == [None, None, "1107"]
    assert game.unit(R9).state == State.DOWN
    assert game.control[game.board.hex("1107")] == "russian"
    assert game.assault.get("fight") is None and game.to_act == "russian" and texts(game) == {"done"}
    assert len(game.dice.rolled) == len(game.dice._recorded or [])  # every die given was rolled
    game = assault_phase({RPL: "1106", G8: "1107"}, {"1106": "1107"}, 1, 1, 3, 4)
    do(game, f"assault {RPL} 1107")
    fire = [(e["roll"], e["assault_rating"], e["hit"]) for e in events(game) if e["event"] == "assault fire"]
    assert fire == [(3, 2, False), (4, 4, True)]  # the German R (2) misses on 3, the PL (4) hits on 4
    assert not game.unit(G8).on_map and where(game, RPL) == "1107"


def test_17_24_a_cw_fires_once_a_round_and_a_hit_eliminates_it() -> None:
    """17.24: 'Although a CW unit may have more than one crew member it will fire only once per
    fire round.' R108: a hit eliminates the CW with all its crew (17.23 'an enemy unit')."""
    game = assault_phase({R9: "1008", "german/ATR-1": "1108"}, {"1008": "1108"}, 1, 1, 6, 1)
    do(game, f"assault {R9} 1108")  # the dice replayed: a second ATR die would be asked for and refused
    fire = [e["unit"] for e in events(game) if e["event"] == "assault fire"]
    assert fire == ["german/ATR-1", R9]
    assert not game.unit("german/ATR-1").on_map and where(game, R9) == "1108"


def test_17_0_f_the_survivors_of_both_sides_go_down_and_3_15_a_down_unit_assaults() -> None:
    """17.0 f: 'Place all surviving units in the DOWN state.' 3.15: 'A unit may assault (17.0)
    while in either combat state.' The German R (UP) fires first and eliminates the DOWN R8;
    the German holds the hex, DOWN."""
    game = assault_phase({R8: "1106", G9: "1107"}, {"1106": "1107"}, 1, 1, 2)
    game.unit(R8).state = State.DOWN
    assert game.unit(G9).state == State.UP and f"assault {R8} 1107" in texts(game)
    do(game, f"assault {R8} 1107")
    assert not game.unit(R8).on_map and game.unit(G9).state == State.DOWN
    assert {"event": "down", "units": [G9], "rule": "17.0 f"} in events(game)
    assert game.control[game.board.hex("1107")] == "german"


# -- 17.3 multiple assaults --------------------------------------------------------------------


def test_17_31_assaults_on_one_hex_one_after_the_other_and_17_32_the_rest_move_in_without_a_pc() -> None:
    """17.31: 'A hex may be assaulted several times in the Assault Phase (by all six adjacent
    hexes); each assault is completed before the next is initiated.' 17.32: 'If several assaults
    are designated against a hex and one of them eliminates all the defenders, units from the
    remaining assaults may be moved into the assaulted hex up to the normal stacking limit. These
    units are NOT required to take a PC.'"""
    rest = {u: "1007" for u in (RPL, LMG8, LMG9, R7, R6, R5)}
    placed = {R9: "1106", R8: "1006", G8: "1107", **rest}
    markers = {"1106": "1107", "1006": "1107", "1007": "1107"}
    game = assault_phase(placed, markers, 1, 1, 1, 1, 1, 6, 1)
    do(game, f"assault {R9} 1107")  # PC; the German hits first (17.21 a): R9, alone, is eliminated
    assert not game.unit(R9).on_map and game.assault.get("fight") is None
    assert game.control[game.board.hex("1107")] == "german"
    do(game, f"assault {R8} 1107")  # the next assault: a PC again; the German misses, R8 hits
    assert not game.unit(G8).on_map and where(game, R8) == "1107"
    stack = f"{RPL}+{LMG8}+{LMG9}+{R5}+{R6}"  # five more men: six in the hex (8.62, R107); R7 stays
    assert texts(game) == {f"assault {stack} 1107", "done"}
    n = len(game.dice.rolled)
    do(game, f"assault {stack} 1107")
    assert len(game.dice.rolled) == n  # no PC
    assert {"event": "moved in", "units": stack.split("+"), "hex": "1107", "rule": "17.32"} in events(game)
    assert where(game, R7) == "1007" and sum(1 for u in game.at(game.board.hex("1107"))) == 6


# -- mines (19.2) ------------------------------------------------------------------------------


def test_19_2_mines_detonate_after_the_assault_resolution() -> None:
    """19.2: 'In an assault, the mine detonation occurs after the completion of the assault
    resolution.' The German R in 1205 fights first (17.21 a: a miss), R9 eliminates it; then the
    4 AP factors attack R9 (19.24: a 1 eliminates, a 2 suppresses: DOWN already, 17.0 f)."""
    game = assault_phase({R9: "1106", G8: "1205"}, {"1106": "1205"}, 1, 1, 6, 1, 2)
    game.secrets["german"].mines[game.board.hex("1205")] = {"ap": 4, "at": 0}
    do(game, f"assault {R9} 1205")
    seen = [e["event"] for e in events(game)]
    assert seen.index("assault resolved") < seen.index("mines") < seen.index("mine_attack")
    assert game.unit(R9).morale == Morale.SUPPRESSED and where(game, R9) == "1205"
    assert game.view("russian")["revealed_mines"] == {"1205": {"ap": 4}}


# -- hidden hexes (24.23) ----------------------------------------------------------------------


def test_24_23_hidden_defenders_fight_and_are_placed_on_the_map_when_the_assault_is_resolved() -> None:
    """24.23: 'If an enemy unit is designated to assault what turns out to be a hidden hex, the
    hidden units are not placed on the map until the assault is resolved.'"""
    lmg = "german/C/LMG-PR10-1"
    game = assault_phase({R9: "1206", lmg: "1207"}, {"1206": "1207"}, 1, 1, 1)
    hidden = game.board.hex("1207")
    game.secrets["german"].hidden_hexes.add(hidden)
    game.unit(lmg).hidden = True
    game.units_changed()
    assert texts(game) == {f"assault {R9} 1207", "done"}  # an empty hex, as the Russian sees it
    do(game, f"assault {R9} 1207")  # the LMG fires first (17.21 a) and hits: R9 is eliminated
    seen = [e["event"] for e in events(game)]
    assert seen.index("assault fire") < seen.index("assault resolved") < seen.index("revealed")
    assert {"event": "revealed", "rule": "24.23"}.items() <= events(game)[seen.index("revealed")].items()
    assert not game.unit(lmg).hidden and game.secrets["german"].hidden_hexes == set()
    assert game.unit(lmg).state == State.DOWN and game.control[hidden] == "german"


def test_24_23_a_hidden_afv_in_the_hex_stops_the_assault() -> None:
    """17.13 and 24.23 (R110): a hidden hex holding an AFV is revealed; no assault, no PC."""
    game = assault_phase({R9: "1306", "german/IIIe-1": "1307"}, {"1306": "1307"})
    game.secrets["german"].hidden_hexes.add(game.board.hex("1307"))
    game.unit("german/IIIe-1").hidden = True
    game.units_changed()
    do(game, f"assault {R9} 1307")
    assert game.log[-1]["dice"] == [] and where(game, R9) == "1306"
    assert not game.unit("german/IIIe-1").hidden and texts(game) == {"done"}


# -- random play -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 3])
def test_random_assault_phases_with_markers_happen_and_end(seed: int) -> None:
    """Random games: markers are placed, assaults designated and fought, every Assault Phase ends
    with no marker and no assault under way, and the game ends."""
    game = new_game(SCENARIOS["s1-demyansk-pocket"], seed)
    players = {"german": make_player("random", seed), "russian": make_player("random", seed + 1)}
    seen = {"mark": 0, "assault": 0, "lead": 0, "remove": 0}
    logs = {side: SideLog(side) for side in players}
    while not game.is_over:
        phase = game.phase
        side = game.to_act
        action = players[side].choose(player_view(game, side, logs[side]), legal_actions(game))
        if action.verb in seen:
            seen[action.verb] += 1
        play(game, action)
        if phase == ASSAULT and game.phase != ASSAULT:
            assert game.assault_markers == {} and game.assault == {}
            assert not any(u.extra.get("assaulted") for u in game.units.values())
    assert seen["mark"] and seen["assault"]
    assert game.result is not None


def test_random_choices_in_an_assault_phase_with_fights_always_end_it() -> None:
    """Random choices among the legal actions of an Assault Phase with both sides' markers next to
    the enemy: fights happen, losses are chosen, the phase ends with no marker, no assault under
    way, and no hex held by both sides."""
    import random

    placed = {R9: "1106", R8: "1106", R7: "1106", RPL: "1006", R6: "1006", R5: "1006"}
    placed |= {G9: "1107", G8: "1107", G8B: "1107", "german/C/MP-PR9-1": "1107", "german/PL-PR11": "1107"}
    placed |= {"german/ATR-1": "1108", "german/C/LMG-PR10-1": "1207"}
    fights = removes = 0
    for seed in range(40):
        game = assault_phase(placed, {"1106": "1107", "1006": "1107"})
        game.dice = type(game.dice)(seed)
        for origin, target in (("1107", "1106"), ("1207", "1206"), ("1108", "1007")):
            game.assault_markers[game.board.hex(origin)] = ("german", game.board.hex(target))
        chooser, since = random.Random(seed), len(game.log)
        for _ in range(500):
            if game.phase != ASSAULT:
                break
            action = chooser.choice(legal_actions(game))
            removes += action.verb == "remove"
            play(game, action)
        assert game.phase == FREE_STATE and game.assault_markers == {} and game.assault == {}
        fights += sum(1 for e in events(game) if e["event"] == "assault fight")
        assert all("rule" in e for e in events(game, since) if e["event"] != "phase")  # every step its rule
        for units in game.occupied().values():
            assert len({u.side for u in units}) == 1
    assert fights > 30 and removes > 30


def test_17_0_a_r172_a_unit_or_stack_is_what_stands_with_the_marker() -> None:
    """17.0 a: 'Designate an assaulting unit or stack and make the PC for each one (17.1)'; 17.0:
    'Units stacked with an Assault marker are NOT required to assault'; 17.15: 'Units which were
    designated to assault in the Movement Phase are not prohibited from firing in the Moving Fire
    Phase but then they may not assault.' R172: the designation is the marked hex's eligible units,
    one or several, each with its PC; no part of them is offered alone; a unit kept out fires in
    the Moving Fire Phase (or is not stacked with the marker)."""
    game = assault_phase({R9: "1106", R8: "1106", R7: "1106"}, {"1106": "1107"})
    assert texts(game) == {f"assault {R7}+{R8}+{R9} 1107", f"lead {R9}+{R7}+{R8} 1107", "done"}
    game.changing(R8).fired, game.unit(R8).extra["fired_phase"] = True, "moving_fire"
    assert texts(game) == {f"assault {R7}+{R9} 1107", f"lead {R9}+{R7} 1107", "done"}
    with_dice(game, 1, 1, 1, 1)  # each unit its own PC (+1): 3 and 3 pass
    before = len(game.log)
    do(game, f"assault {R7}+{R9} 1107")
    events = [e for line in game.log[before:] for e in line.get("events", [])]
    assert [e["unit"] for e in events if e["event"] == "assault check"] == [R7, R9]
    assert where(game, R7) == where(game, R9) == "1107" and where(game, R8) == "1106"
