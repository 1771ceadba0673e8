"""Grenades (15.0), rule by rule, on tests/fixtures/game/grenades.yaml: German Squad E (MP PR10,
R PR8, FT PR9), a PL, an ATR and a IIIe south of row 4 with 2 grenades; Russian Squad A, a PL and
an MMG entering on the north edge with 3. Russian units are put on the map by hand; the German
side throws in the Russian Player Turn's Defensive Fire Phase, the Russian in its Moving Fire
Phase. A Building stands in 1206."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, play
from engine.game.flamethrower import flame_actions, flame_legal
from engine.game.grenades import (
    apply_grenade,
    grenade_actions,
    grenade_attack,
    grenade_legal,
    grenades_left,
    in_range,
)
from engine.game.play import new_game
from engine.game.state import DEFENSIVE_FIRE, MOVEMENT, MOVING_FIRE, SUPPORT_FIRE, GameState
from engine.game.units import ON_MAP
from engine.geometry.movement import Morale, State
from engine.hexgrid import hex_distance
from engine.model.scenario import load_scenario
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
GRENADES = load_scenario(REPO / "tests" / "fixtures" / "game" / "grenades.yaml")
MP = "german/E/MP-PR10-1"  # in 1207, next to the Building 1206
RIFLE = "german/E/R-PR8-1"  # in 1108 with the PL


def to_phase(game: GameState, phase: str, phasing: str = "russian") -> GameState:
    while not (game.phase == phase and game.phasing == phasing):
        play(game, Action("done"))
    return game


def game_in(phase: str, phasing: str = "russian", seed: int = 1) -> GameState:
    game = new_game(GRENADES, seed)
    play(game, Action("done"))  # German set-up (given by the scenario's setup:)
    play(game, Action("done"))  # Russian set-up: everything enters
    return to_phase(game, phase, phasing)


def put(game: GameState, unit_id: str, label: str, state: str = "up") -> None:
    unit = game.unit(unit_id)
    game.relocate(unit, ON_MAP, game.board.hex(label))
    unit.state = State(state)
    game.caches = {}


def texts(actions: list[Action]) -> set[str]:
    return {a.text() for a in actions}


def test_15_1_grenades_in_the_three_fire_phases_by_the_side_that_fires() -> None:
    """15.1: 'A friendly infantry unit (except flamethrowers) may throw a grenade at an occupied
    hex in any Support Fire, Defensive Fire, or Moving Fire Phase.'"""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1206")
    assert f"grenade {MP} 1206" in texts(grenade_actions(game))
    assert all(a.units[0].startswith("german/") for a in grenade_actions(game))  # 10.13: E is the German's
    for phase in (SUPPORT_FIRE, MOVING_FIRE):
        game = game_in(phase)
        put(game, "russian/A/R-PR9-1", "1206")
        assert f"grenade russian/A/R-PR9-1 {game.label(game.unit(MP).hex)}" in texts(grenade_actions(game))
    game = game_in(MOVEMENT)
    put(game, "russian/A/R-PR9-1", "1206")
    assert grenade_actions(game) == []


def test_15_2_only_infantry_throw_not_fts_cws_afvs_commanders_do_r121() -> None:
    """15.2: 'Only infantry units may throw grenades. CW and AFV units do not carry and may not throw
    grenades'; 15.1 'except flamethrowers'. R121: a commander is an infantry unit (9.2 B)."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    throwers = {a.units[0] for a in grenade_actions(game)}
    assert throwers == {MP, RIFLE, "german/PL-PR11"}
    assert not {"german/E/FT-PR9-1", "german/ATR-1", "german/IIIe-1"} & throwers


def test_15_3_pc_plus_two_failed_uses_no_grenade_but_the_hex_has_fired() -> None:
    """15.3: 'must pass a modified PC (PC + 2). All units in the hex in which the PC was made are
    considered to have performed fire combat that Player Turn ... Only one unit may throw (or
    attempt to throw) a grenade from any one hex during a Player Turn.' 15.9: 'attempts to use
    don't count'."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    with_dice(game, 4, 3)  # 7 + 2 = 9 against the R PR8: failed
    events = apply_grenade(game, Action("grenade", (RIFLE,), "1106"))
    assert events[0]["passed"] is False and events[0]["check"] == "4+3 + 2 = 9 against PR 8: failed"
    assert grenades_left(game, "german") == 2
    assert game.unit(RIFLE).fired and game.unit("german/PL-PR11").fired  # the PL in 1108 too
    assert game.unit("russian/A/R-PR9-1").morale == Morale.NORMAL
    put(game, "german/E/FT-PR9-1", "1108")  # a unit that comes into the hex may not throw from it
    assert not any(game.label(game.unit(a.units[0]).hex) == "1108" for a in grenade_actions(game))


def test_15_3_passed_pc_throws_one_die_per_enemy_unit() -> None:
    """15.3 + 15.6: PR10 MP, 3 + 4 + 2 = 9 passes; one die for each enemy unit in the target hex
    (Non-Building line: 1 = E; 2 = S; 3,4 = P; 5,6 = NE)."""
    game = game_in(DEFENSIVE_FIRE)
    for unit_id in ("russian/A/R-PR9-1", "russian/A/R-PR8-1", "russian/A/R-PR7-1", "russian/A/R-PR6-1"):
        put(game, unit_id, "1106")
    with_dice(game, 3, 4, 1, 2, 3, 5)
    events = apply_grenade(game, Action("grenade", (MP,), "1106"))
    assert grenades_left(game, "german") == 1
    assert not game.unit("russian/A/R-PR9-1").on_map
    assert game.unit("russian/A/R-PR8-1").morale == Morale.SUPPRESSED
    assert game.unit("russian/A/R-PR7-1").morale == Morale.PINNED
    assert game.unit("russian/A/R-PR6-1").morale == Morale.NORMAL
    assert [e["die"] for e in events if e["event"] == "grenade roll"] == [1, 2, 3, 5]
    assert game.shot_fired  # 8.22: the first shot


def test_15_4_two_hexes_without_a_building_building_hexes_adjacent_only_r122() -> None:
    """15.4: 'A grenade may be thrown up to a distance of two hexes if neither hex contains a
    Building. Grenades may be thrown at hexes containing Buildings only if the Building is in an
    adjacent hex.' R122: 'neither hex' is the thrower's and the target's."""
    game = game_in(DEFENSIVE_FIRE)
    h = game.board.hex
    assert in_range(game, h("1207"), h("1106")) and hex_distance(h("1207"), h("1106")) == 2
    assert in_range(game, h("1207"), h("1206"))  # the Building adjacent
    assert hex_distance(h("1108"), h("1206")) == 2 and not in_range(game, h("1108"), h("1206"))
    assert not in_range(game, h("1206"), h("1108"))  # thrown from a Building: adjacent only
    assert in_range(game, h("1206"), h("1207"))
    assert hex_distance(h("1207"), h("1204")) == 3 and not in_range(game, h("1207"), h("1204"))


def test_10_21_a_grenade_needs_an_unblocked_line_of_sight_r123() -> None:
    """10.21: 'Units which cannot trace an unblocked LOS may not fire at that target hex' (R123:
    15.3 makes a grenade fire combat; 23.36 spares it observation, not the LOS). The Building 1206
    blocks 1207-1205."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1205")
    assert f"grenade {MP} 1205" not in texts(grenade_actions(game))
    assert in_range(game, game.board.hex("1207"), game.board.hex("1205"))


def test_15_6_building_line_and_afvs_not_affected() -> None:
    """15.6: 'The type of target hex determines which line on the table is used' (Building: 1 = E;
    2,3 = S; 4,5 = P; 6 = NE) '(EXCEPTION: AFV's are not affected by grenade attacks.)'"""
    game = game_in(MOVING_FIRE)  # the Russians throw at the German MP next to the Building
    put(game, MP, "1206")  # a German in the Building
    put(game, "russian/A/R-PR9-1", "1207")
    events = _throw(game, "russian/A/R-PR9-1", "1206", [2, 3, 3])
    assert game.unit(MP).morale == Morale.SUPPRESSED  # 3 on the Building line: S (Non-Building: P)
    assert [e["result"] for e in events if e["event"] == "grenade roll"] == ["S"]
    game = game_in(MOVING_FIRE)
    put(game, "russian/A/R-PR9-1", "1308")
    events = _throw(game, "russian/A/R-PR9-1", "1307", [2, 3])  # only the IIIe there: no target
    assert events == []


def _throw(game: GameState, unit_id: str, label: str, faces: list[int]) -> list[dict[str, object]]:
    action = Action("grenade", (unit_id,), label)
    if action not in grenade_actions(game):
        return []
    with_dice(game, *faces)
    return apply_grenade(game, action)


def test_15_8_a_cw_on_e_loses_a_man_on_ten_or_less() -> None:
    """15.8: 'If the enemy unit is a CW unit and the result is an 'E', the owning player rolls two
    dice for each crew member. On a roll of ten or less, the crew member is eliminated. If any
    crew members survive, the CW unit is SUPPRESSED.'"""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/MMG-1", "1106")
    mmg = game.unit("russian/MMG-1")
    crew = mmg.men
    assert crew >= 2
    with_dice(game, 3, 4, 1, *([5, 5] * (crew - 1)), 6, 5)  # PC 9; E; 10 kills, 11 spares the last
    apply_grenade(game, Action("grenade", (MP,), "1106"))
    assert mmg.on_map and mmg.men == 1 and mmg.morale == Morale.SUPPRESSED


def test_15_9_no_more_grenades_once_the_boxes_are_used() -> None:
    """15.9: 'Once the number of boxes marked off equals the total number of available grenades for
    that side, that player may not perform any more grenade attacks in the game.'"""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    game.grenades_used["german"] = 2
    assert grenade_actions(game) == []
    with pytest.raises(IllegalAction):
        apply_grenade(game, Action("grenade", (MP,), "1106"))
    assert game.view("russian")["grenades_used"] == {"german": 2}  # public: the roster


def test_17_14_a_grenade_in_the_moving_fire_phase_marks_its_target_hex() -> None:
    """17.14: 'Units may throw grenades in the Moving Fire Phase and still assault but only if the
    grenades are thrown into the hex being assaulted': the units of the hex carry the target."""
    game = game_in(MOVING_FIRE)
    put(game, "russian/A/R-PR9-1", "1206")
    put(game, "russian/A/R-PR8-1", "1206")
    _throw(game, "russian/A/R-PR9-1", "1207", [1, 1, 6])
    assert game.unit("russian/A/R-PR9-1").extra["grenade_target"] == "1207"
    assert game.unit("russian/A/R-PR8-1").extra["grenade_target"] == "1207"
    assert game.unit("russian/A/R-PR8-1").fired
    to_phase(game, SUPPORT_FIRE, "german")  # the next Player Turn: the mark is gone
    assert "grenade_target" not in game.unit("russian/A/R-PR8-1").extra


def test_15_3_hidden_thrower_and_its_hex_revealed_r124() -> None:
    """24.22: 'If a hidden unit in a hidden hex fires, it (and only it) is revealed'; R124: 15.3
    makes every unit of the thrower's hex one that fired, so all of them are revealed."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    for unit_id in (RIFLE, "german/PL-PR11"):
        game.unit(unit_id).hidden = True
    game.units_changed()
    with_dice(game, 6, 6)
    events = apply_grenade(game, Action("grenade", (RIFLE,), "1106"))
    assert {u for e in events if e["event"] == "revealed" for u in e["units"]} == {RIFLE, "german/PL-PR11"}


def test_24_35_a_grenade_attack_may_ignore_pinned_and_suppressed() -> None:
    """24.35: 'a Grenade Attack (15.6) is performed against it. Pinned and Suppressed results are
    ignored.'"""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    put(game, "russian/A/R-PR8-1", "1106")
    with_dice(game, 2, 1)
    events = grenade_attack(game, game.board.hex("1106"), "24.35", True, attacked="russian")
    assert game.unit("russian/A/R-PR9-1").morale == Morale.NORMAL
    assert not game.unit("russian/A/R-PR8-1").on_map
    assert [e["detail"] for e in events if e["event"] == "grenade roll"] == ["S ignored", "E"]


def test_10_24_hidden_units_in_a_target_hex_are_attacked_and_stay_hidden_r93() -> None:
    """R93: a target hex is one where the side sees enemy units (10.21); 15.6 'one die ... for each
    enemy unit in the target hex', hidden ones too, and being attacked does not reveal them (24.22)."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    put(game, "russian/A/R-PR8-1", "1106")
    put(game, "russian/A/R-PR7-1", "1006")
    for unit_id in ("russian/A/R-PR8-1", "russian/A/R-PR7-1"):
        game.unit(unit_id).hidden = True
    game.units_changed()
    assert f"grenade {RIFLE} 1006" not in texts(grenade_actions(game))  # hidden units alone: no target
    with_dice(game, 3, 4, 6, 3)
    events = apply_grenade(game, Action("grenade", (MP,), "1106"))
    assert [e["unit"] for e in events if e["event"] == "grenade roll"] == ["russian/A/R-PR9-1", "russian/A/R-PR8-1"]
    hidden = game.unit("russian/A/R-PR8-1")
    assert hidden.hidden and hidden.morale == Morale.PINNED


def test_15_0_an_action_checked_on_its_own_agrees_with_the_listing() -> None:
    """`grenade_legal` and `flame_legal` (an action's legality without listing every choice) agree
    with `grenade_actions` and `flame_actions` for every unit and hex."""
    game = game_in(DEFENSIVE_FIRE)
    for unit_id, label in (("russian/A/R-PR9-1", "1206"), ("russian/A/R-PR8-1", "1106"), ("russian/A/R-PR7-1", "1205")):
        put(game, unit_id, label)
    listed = set(grenade_actions(game)) | set(flame_actions(game))
    for unit in game.units.values():
        for h in game.board.hexes:
            for name, legal in (("grenade", grenade_legal), ("flame", flame_legal)):
                action = Action(name, (unit.id,), game.label(h) or "")
                assert legal(game, action) == (action in listed), action.text()
    assert not grenade_legal(game, Action("grenade", (MP,), "9999"))
