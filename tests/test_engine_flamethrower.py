"""Flamethrower attacks (16.0-16.3) on tests/fixtures/game/grenades.yaml: the German FT PR9 of
Squad E stands in 1107; Russian units are put on the map by hand and attacked in the Russian
Player Turn's Defensive Fire Phase."""

from __future__ import annotations

import pytest

from engine.game import Action, IllegalAction
from engine.game.flamethrower import apply_flame, flame_actions
from engine.game.state import DEFENSIVE_FIRE, MOVEMENT, MOVING_FIRE, SUPPORT_FIRE
from engine.geometry.movement import Morale, State
from engine.hexgrid import hex_distance

from .test_engine_grenades import game_in, put, texts, with_dice

FT = "german/E/FT-PR9-1"


def test_16_0_fire_phases_regular_pc_and_no_fire_after_a_failed_one() -> None:
    """16.0: 'FT's may attack in the Support Fire, Defensive, and Moving Fire Phases with the same
    eligibility and PC requirements as other units' (10.12: a regular PC; 10.11: 'Units that have
    already attempted to fire in the Player Turn are not eligible')."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    assert f"flame {FT} 1106" in texts(flame_actions(game))
    with_dice(game, 5, 5)  # 10 against PR 9: failed, no modifier
    events = apply_flame(game, Action("flame", (FT,), "1106"))
    assert events[0]["check"] == "5+5 = 10 against PR 9: failed"
    assert game.unit("russian/A/R-PR9-1").morale == Morale.NORMAL
    assert flame_actions(game) == []
    assert not game.shot_fired  # 8.22: no dice rolled to resolve combat
    for phase in (SUPPORT_FIRE, MOVING_FIRE):  # the German Player Turn
        game = game_in(phase, "german")
        put(game, "russian/A/R-PR9-1", "1106")
        assert f"flame {FT} 1106" in texts(flame_actions(game))
    game = game_in(MOVEMENT)
    put(game, "russian/A/R-PR9-1", "1106")
    assert flame_actions(game) == []


def test_16_1_range_two_hexes_infantry_and_cw_only_never_an_afv() -> None:
    """16.1: 'FT's may fire at infantry and CW units up to a range of two hexes. They may not fire at
    AFV's.' (a hex holding only an AFV is no target; one beside it is untouched: R125)."""
    game = game_in(DEFENSIVE_FIRE)
    h = game.board.hex
    put(game, "russian/A/R-PR9-1", "1105")
    put(game, "russian/MMG-1", "1104")
    assert hex_distance(h("1107"), h("1105")) == 2 and hex_distance(h("1107"), h("1104")) == 3
    offered = texts(flame_actions(game))
    assert f"flame {FT} 1105" in offered and f"flame {FT} 1104" not in offered
    game = game_in(MOVING_FIRE)  # the Russians' turn: no Russian FT at all
    assert flame_actions(game) == []


def test_16_2_only_from_the_up_state() -> None:
    """16.2: 'FT's may fire only from the UP state.'"""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1106")
    game.unit(FT).state = State.DOWN
    assert flame_actions(game) == []
    with pytest.raises(IllegalAction):
        apply_flame(game, Action("flame", (FT,), "1106"))


def test_16_3_two_dice_by_range_one_roll_for_each_unit_r125() -> None:
    """16.3: 'FT attacks are always resolved by rolling two dice (regardless of any terrain, unit
    states, improved positions, or moving fire modifiers) on the Flamethrower Attack Table. The
    result is cross-indexed with the range': 1 hex '2-8 = E; 9-12 = S', 2 hexes '2-6 = E; 7-12 =
    S'. 10.24: every enemy unit of the hex, one roll each (R125)."""
    game = game_in(DEFENSIVE_FIRE)
    for unit_id in ("russian/A/R-PR9-1", "russian/A/R-PR8-1"):
        put(game, unit_id, "1106", "down")
    game.improved_positions[game.board.hex("1106")] = 2  # no effect on the two dice
    with_dice(game, 4, 4, 4, 4, 5, 4)  # PC 8 passes; 8 at 1 hex: E; 9: S
    events = apply_flame(game, Action("flame", (FT,), "1106"))
    assert not game.unit("russian/A/R-PR9-1").on_map
    assert game.unit("russian/A/R-PR8-1").morale == Morale.SUPPRESSED
    assert [e["result"] for e in events if e["event"] == "flame roll"] == ["E", "S"]
    assert game.shot_fired
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/A/R-PR9-1", "1105")  # two hexes: 7 is S
    with_dice(game, 4, 4, 3, 4)
    apply_flame(game, Action("flame", (FT,), "1105"))
    assert game.unit("russian/A/R-PR9-1").morale == Morale.SUPPRESSED


def test_16_3_effects_as_ap_fire_a_cw_on_e_rolls_for_its_crew() -> None:
    """16.3: 'the effects are applied as in AP fire combat (11.43)': a CW's E is two dice per crew
    member, 8 or less killed (11.43), the survivors SUPPRESSED."""
    game = game_in(DEFENSIVE_FIRE)
    put(game, "russian/MMG-1", "1106")
    mmg = game.unit("russian/MMG-1")
    crew = mmg.men
    with_dice(game, 4, 4, 1, 1, *([4, 4] * (crew - 1)), 5, 4)  # PC 8; 2: E; crew 8s killed, a 9 lives
    apply_flame(game, Action("flame", (FT,), "1106"))
    assert mmg.on_map and mmg.men == 1 and mmg.morale == Morale.SUPPRESSED
