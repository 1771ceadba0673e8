"""Mortars (14.0-14.52), rule by rule, on tests/fixtures/game/mortar.yaml: a German mortar (crew 3,
PR9, AP 6, minimum range 5) in 1310 and a PL PR11 beside it in 1410; a Russian rifleman placed by
each test, the rest of his squad off the map. The map (mortar-map.yaml) is clear but for buildings
in 1510 and 1306 (1306 blocks the line 1310-1302) and woods (three Trees) in 1504.

Dice are given exactly (`with_dice`): the mortar's PC (two dice), then for each round the scatter
die, a direction die if it scatters, and each unit's attack dice in the hex it hits."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, new_game, parse, play
from engine.game.firing import mark_fired
from engine.game.mortars import (
    apply_mortar,
    is_mortar,
    max_rounds,
    mortar_actions,
    mortar_first,
    scatter_direction,
    scatter_modifier,
    scatter_result,
)
from engine.game.state import DEFENSIVE_FIRE, MOVING_FIRE, SUPPORT_FIRE, GameState
from engine.game.units import ON_MAP, WAITING, Unit
from engine.geometry.movement import Morale, State
from engine.hexgrid import DIRECTIONS
from engine.model.scenario import load_scenario
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
SCENARIO = load_scenario(REPO / "tests" / "fixtures" / "game" / "mortar.yaml")
MORTAR, SPOTTER, RIFLE = "german/MOR-1", "german/PL-PR11", "russian/A/R-PR9-1"


def start(target: str = "1705", phase: str = SUPPORT_FIRE) -> GameState:
    """The German Support Fire Phase of turn 1 (or `phase`), the Russian rifleman R PR9 alone in
    `target`: the rest of his squad and his commander are off the map."""
    game = new_game(SCENARIO, 1, {})
    while game.phase != phase:
        play(game, Action("done"))
    for unit in game.side_units("russian"):
        game.relocate(unit, WAITING, None)
    place(game, RIFLE, target)
    return game


def place(game: GameState, unit_id: str, label: str) -> Unit:
    unit = game.unit(unit_id)
    game.relocate(unit, ON_MAP, game.board.hex(label))
    game.caches = {}
    return unit


def texts(game: GameState) -> list[str]:
    return [a.text() for a in mortar_actions(game)]


def fire(game: GameState, text: str, *faces: int) -> list[dict]:
    """Declare `text` (it must be offered) and resolve it with exactly `faces`."""
    assert text in texts(game), texts(game)
    with_dice(game, *faces)
    events = apply_mortar(game, parse(text))
    assert len(game.dice.rolled) == len(game.dice._recorded or []), "every given die is used"
    return events


def of(events: list[dict], name: str) -> list[dict]:
    return [e for e in events if e["event"] == name]


# -- 14.0 who fires, when, from where -----------------------------------------------------------------


def test_14_0_mortars_fire_in_the_support_defensive_and_moving_fire_phases() -> None:
    """14.0: 'Mortars may be fired in the Support Fire Phase and the Defensive Fire Phase. They may
    fire in the Moving Fire Phase but, like other CW units, may not fire in this phase if they moved
    earlier in that Player Turn.'"""
    assert "mortar german/MOR-1 1705 5" in texts(start(phase=SUPPORT_FIRE))
    game = start(phase=MOVING_FIRE)
    assert "mortar german/MOR-1 1705 5" in texts(game)
    game.unit(MORTAR).moved = True
    assert texts(game) == []
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1705 1"))
    assert refused.value.rule == "10.1"
    # the Defensive Fire Phase of the Russian Player Turn: the German (non-phasing) mortar fires
    game = new_game(SCENARIO, 1, {})
    while not (game.phase == DEFENSIVE_FIRE and game.phasing == "russian"):
        play(game, Action("done"))
    place(game, RIFLE, "1705")
    assert "mortar german/MOR-1 1705 5" in texts(game)


def test_14_0_a_mortar_may_not_fire_from_a_building_hex() -> None:
    """14.0: 'Mortars may not fire from building hexes.'"""
    game = start()
    place(game, MORTAR, "1510")
    assert texts(game) == []
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1705 1"))
    assert refused.value.rule == "14.0"


def test_14_0_mortar_fire_comes_before_any_other_fire_of_the_phase_r132() -> None:
    """14.0: 'Mortar fire resolution takes place before any other type of fire combat in a phase.'
    R132: once a unit other than a mortar has attempted fire in the phase, no mortar may fire."""
    game = start()
    assert mortar_first(game)
    mark_fired(game, [game.unit(SPOTTER)])  # the commander fires (or takes his PC to)
    assert not mortar_first(game) and texts(game) == []
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1705 1"))
    assert refused.value.rule == "14.0"


def test_14_0_another_mortar_firing_first_does_not_close_mortar_fire_r132() -> None:
    """R132: mortars before other fire; among themselves in any order."""
    game = start()
    fire(game, "mortar german/MOR-1 1705 1", 1, 1, 1, 6)  # PC 2, T, P
    assert game.unit(MORTAR).fired and mortar_first(game)


def test_14_0_a_declaration_names_its_rounds_and_target_before_any_is_resolved() -> None:
    """14.0 a: 'Declare the number of rounds to be fired (14.1) and at what target hex (14.2).'
    The declaration is the first event, before the PC and the rounds."""
    events = fire(start(), "mortar german/MOR-1 1705 2", 2, 3, 1, 6, 2, 6, 6)
    assert events[0] == {
        "event": "mortar declared",
        "unit": MORTAR,
        "target": "1705",
        "rounds": 2,
        "spotter": None,
        "rule": "14.0",
    }


def test_10_12_one_pc_for_the_whole_declaration_and_a_failed_one_fires_nothing_r136() -> None:
    """10.12: 'Any unit which attempts to fire must pass a PC.' 4.0: taken, pass or fail, the unit
    has fired. R136: one PC for all the declared rounds; failed, none is fired."""
    game = start()
    events = fire(game, "mortar german/MOR-1 1705 3", 1, 2, 1, 6, 2, 6, 6, 3, 6, 6)
    assert len(of(events, "fire PC")) == 1 and len(of(events, "mortar round")) == 3
    game = start()
    events = fire(game, "mortar german/MOR-1 1705 3", 5, 5)  # 10 against PR 9
    assert of(events, "mortar round") == [] and game.unit(MORTAR).fired
    assert texts(game) == []  # 10.11: it has attempted to fire this Player Turn


# -- 14.1 rate of fire -----------------------------------------------------------------------------------


def test_14_11_up_to_five_rounds_each_with_the_full_ap_factors() -> None:
    """14.11: 'A mortar may fire up to five times (or rounds) per Player Turn ... It may fire fewer
    than five times ... The mortar's full AP factors are used each time it fires'."""
    game = start()
    assert [t for t in texts(game) if t.startswith("mortar german/MOR-1 1705")] == [
        f"mortar german/MOR-1 1705 {n}" for n in range(1, 6)
    ]
    # five rounds: +1 'more than three rounds'; each scatter die 1 (+1 = 2): T; a 6 pins (P level 6),
    # then 6+6 against the DOWN rifleman misses
    events = fire(game, "mortar german/MOR-1 1705 5", 1, 1, 1, 6, 1, 6, 6, 1, 6, 6, 1, 6, 6, 1, 6, 6)
    attacks = of(events, "mortar attack")
    assert len(of(events, "mortar round")) == 5 and len(attacks) == 5
    assert {a["firepower"] for a in attacks} == {6}
    with pytest.raises(IllegalAction):
        apply_mortar(start(), parse("mortar german/MOR-1 1705 6"))


def test_14_12_a_reduced_crew_fires_fewer_rounds() -> None:
    """14.12: 'A mortar must be fully crewed to fire five rounds in a Player Turn. If it is reduced
    to two crew members it may fire up to three rounds per Player Turn. If the crew is reduced to
    one member it may fire a maximum of two rounds in a Player Turn.'"""
    game = start()
    mortar = game.unit(MORTAR)
    rounds = []
    for men in (3, 2, 1):
        mortar.men = men
        rounds.append(max_rounds(mortar, False))
    assert rounds == [5, 3, 2]
    mortar.men = 2
    assert [t for t in texts(game) if "1705" in t][-1] == "mortar german/MOR-1 1705 3"
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1705 4"))
    assert refused.value.rule == "14.12"
    mortar.men = 1
    assert [t for t in texts(game) if "1705" in t][-1] == "mortar german/MOR-1 1705 2"


def test_14_13_indirect_fire_at_most_two_rounds() -> None:
    """14.13: 'Mortars using indirect fire (14.22) may fire a maximum of two rounds per Player Turn.'"""
    game = start("1302")
    assert texts(game) == [f"mortar german/MOR-1+german/PL-PR11 1302 {n}" for n in (1, 2)]
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1+german/PL-PR11 1302 3"))
    assert refused.value.rule == "14.13"
    game.unit(MORTAR).men = 1  # one man: two rounds at most anyway (14.12)
    assert texts(game) == [f"mortar german/MOR-1+german/PL-PR11 1302 {n}" for n in (1, 2)]


# -- 14.2 target hexes ----------------------------------------------------------------------------------


def test_14_2_the_target_hex_must_be_in_the_mortars_los() -> None:
    """14.2: 'The target hex must be within the mortar unit's LOS (10.3) unless the unit is using
    indirect fire (14.22).' The building in 1306 blocks the line 1310-1302."""
    game = start("1302")
    assert not any(a.units == (MORTAR,) for a in mortar_actions(game))
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1302 1"))
    assert refused.value.rule == "14.2"


def test_14_2_a_target_hex_holds_enemy_units_the_firer_can_see_r133() -> None:
    """10.21: 'A target hex is any enemy-occupied hex to which the firing units can trace an
    unblocked line of sight'. R133: a mortar's target hex holds an enemy unit its side can see."""
    game = start()
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1704 1"))  # nobody in 1704
    assert refused.value.rule == "10.21"
    game.unit(RIFLE).hidden = True
    game.units_changed()
    assert texts(game) == []


def test_14_21_no_maximum_range_and_no_range_attenuation() -> None:
    """14.21: 'Mortars have an unlimited maximum range. ... Mortars do not suffer from range
    attenuation.' 2001 is 12 hexes away, over twice the counter's range of 5: still 6 factors."""
    game = start("2001")
    events = fire(game, "mortar german/MOR-1 2001 1", 1, 1, 1, 6)
    assert of(events, "mortar attack")[0]["firepower"] == 6


def test_14_21_a_mortar_may_not_fire_into_its_own_hex() -> None:
    """14.21: 'A mortar may not fire into its own hex, although rounds may scatter into the firing
    unit's hex.'"""
    game = start("1310")  # an enemy in the mortar's own hex (set by hand)
    assert texts(game) == []
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1 1310 1"))
    assert refused.value.rule == "14.21"


def test_14_21_a_round_may_scatter_into_the_firing_units_hex_r138() -> None:
    """14.21: 'rounds may scatter into the firing unit's hex.' R138: a round attacks every unit in
    the hex it hits, of either side. 1309 is under the minimum range (+1): die 3 + 1 = 4: S1;
    direction 4 (down, R138's assumed diagram) lands in 1310, the mortar's and the spotter's hex."""
    game = start("1309")
    place(game, SPOTTER, "1310")
    events = fire(game, "mortar german/MOR-1 1309 1", 1, 1, 3, 4, 6, 6)
    (landed,) = of(events, "mortar round")
    assert (landed["result"], landed["direction"], landed["hits"]) == ("S1", 4, "1310")
    assert [a["target"] for a in of(events, "mortar attack")] == [MORTAR, SPOTTER]


def test_14_21_under_the_minimum_range_more_scatter() -> None:
    """14.21: 'Rounds fired at target hexes under this minimum range have an increased chance of
    scattering.' 14.3 a: 'add 1 if the target hex is under the minimum range.' 1308 is 2 hexes
    from 1310 (range 5), 1405 is 5: not under."""
    game = start("1308")
    mortar = game.unit(MORTAR)
    board = game.board
    assert scatter_modifier(game, mortar, board.hex("1308"), 1, indirect=False, same=False)[0] == 1
    assert scatter_modifier(game, mortar, board.hex("1405"), 1, indirect=False, same=False)[0] == 0


def test_14_22_indirect_fire_through_a_normal_commander_who_sees_the_target() -> None:
    """14.22 a: 'There is a NORMAL status commander who has not moved or fired in the Player Turn
    within two hexes of the mortar unit and this commander CAN trace an LOS to the target hex.'"""
    game = start("1302")
    commander = game.unit(SPOTTER)
    assert texts(game)  # PL PR11 in 1410 sees 1302
    for change in ("moved", "fired"):
        setattr(commander, change, True)
        assert texts(game) == [], change
        setattr(commander, change, False)
    commander.morale = Morale.PINNED
    assert texts(game) == []
    commander.morale = Morale.NORMAL
    place(game, SPOTTER, "1610")  # three hexes from 1310
    assert texts(game) == []
    place(game, SPOTTER, "1210")  # beside the mortar again, and he sees 1302
    assert texts(game) == [f"mortar german/MOR-1+german/PL-PR11 1302 {n}" for n in (1, 2)]
    place(game, RIFLE, "1303")  # not seen from 1210
    assert texts(game) == []


def test_14_22_no_indirect_fire_at_a_hex_the_mortar_sees() -> None:
    """14.22: 'A mortar unit may fire at a target hex to which it cannot trace an LOS under these
    conditions'."""
    game = start("1705")
    assert all(a.units == (MORTAR,) for a in mortar_actions(game))
    with pytest.raises(IllegalAction) as refused:
        apply_mortar(game, parse("mortar german/MOR-1+german/PL-PR11 1705 1"))
    assert refused.value.rule == "14.22"


def test_14_22_the_spotters_pc_failed_no_indirect_fire_and_nobody_has_fired_r134_r135() -> None:
    """14.22 b: 'The commander must pass a PC to spot for the mortar unit. If he fails the mortar may
    not use indirect fire.' R135: the mortar took no PC: it has not fired. R134: spotting is not
    fire (4.11 lists it apart); a commander who failed does nothing else in the phase (4.0)."""
    game = start("1302")
    events = fire(game, "mortar german/MOR-1+german/PL-PR11 1302 2", 6, 6)  # 12 against PR 11
    assert [e["event"] for e in events] == ["mortar declared", "spotting PC"]
    mortar, commander = game.unit(MORTAR), game.unit(SPOTTER)
    assert not mortar.fired and not commander.fired
    assert texts(game) == []  # he may not spot again in this phase
    place(game, RIFLE, "1705")
    assert "mortar german/MOR-1 1705 1" in texts(game)  # the mortar may still fire where it sees


def test_14_22_a_spotter_who_passed_has_not_fired_r134() -> None:
    """R134: the spotting PC is 4.11's 'INDIRECT MORTAR FIRE OBSERVATION (14.22)', not fire: the
    commander has spotted, he has not fired. Indirect fire: +1 scatter (die 2 + 1 = 3: T)."""
    game = start("1302")
    events = fire(game, "mortar german/MOR-1+german/PL-PR11 1302 1", 5, 6, 1, 1, 2, 6)
    assert [e["event"] for e in events][:3] == ["mortar declared", "spotting PC", "fire PC"]
    assert of(events, "mortar round")[0]["result"] == "T"
    assert game.unit(MORTAR).fired and not game.unit(SPOTTER).fired


# -- 14.3 scatter ------------------------------------------------------------------------------------------


def test_14_3_a_each_modifier() -> None:
    """14.3 a: 'subtract 1 if the mortar unit has not changed its target hex from the last Player
    Turn in which it fired. add 1 if indirect fire is being used. add 1 if more than three rounds are
    being fired. add 1 if the target hex is under the minimum range.'"""
    game = start()
    mortar, far, near = game.unit(MORTAR), game.board.hex("1705"), game.board.hex("1308")
    assert scatter_modifier(game, mortar, far, 3, indirect=False, same=False) == (0, [])
    assert scatter_modifier(game, mortar, far, 3, indirect=False, same=True)[0] == -1
    assert scatter_modifier(game, mortar, far, 3, indirect=True, same=False)[0] == 1
    assert scatter_modifier(game, mortar, far, 4, indirect=False, same=False)[0] == 1
    assert scatter_modifier(game, mortar, near, 1, indirect=False, same=False)[0] == 1
    total, why = scatter_modifier(game, mortar, near, 4, indirect=True, same=True)
    assert total == 2 and len(why) == 4  # cumulative


def test_14_3_a_the_table_and_its_clamp() -> None:
    """Mortar Round Scatter Table: 'Die roll: 1-3 = T; 4,5 = S1; 6 = S2.' 'Die rolls modified to less
    than 1 are treated as 1. Die rolls modified to more than 6 are treated as 6.'"""
    assert [scatter_result(d, 0) for d in range(1, 7)] == ["T", "T", "T", "S1", "S1", "S2"]
    assert scatter_result(1, -1) == "T" and scatter_result(6, 3) == "S2" and scatter_result(5, 2) == "S2"


def test_14_3_a_same_target_as_the_last_player_turn_it_fired_in_r137() -> None:
    """14.3 a: 'subtract 1 if the mortar unit has not changed its target hex from the last Player
    Turn in which it fired.' R137: the target of its last declaration whose PC it took (4.0), in any
    earlier Player Turn. Die 4 - 1 = 3: T."""
    game = start()
    fire(game, "mortar german/MOR-1 1705 1", 5, 5)  # the PC failed: it has fired (4.0) at 1705
    game.player_turns += 1  # a later Player Turn (by hand: the Russian turn and back)
    game.unit(MORTAR).fired = False
    events = fire(game, "mortar german/MOR-1 1705 1", 1, 1, 4, 6)
    (landed,) = of(events, "mortar round")
    assert landed["modifiers"] == ["-1 the same target hex as the last Player Turn it fired in"]
    assert landed["result"] == "T"
    game.player_turns += 1
    game.unit(MORTAR).fired = False
    place(game, RIFLE, "1704")
    events = fire(game, "mortar german/MOR-1 1704 1", 1, 1, 4, 4)  # changed target: 4 = S1, down: 1705, empty
    assert of(events, "mortar round")[0]["modifiers"] == [] and of(events, "mortar round")[0]["result"] == "S1"


def test_14_3_b_a_scattered_round_moves_its_distance_in_the_diagrams_direction() -> None:
    """14.3 b: 'If the result is an S# the round has scattered and the number is distance in hexes
    away from the target hex. Roll one die and consult the Scatter Diagram (see map).' The diagram
    (tables/combat.yaml, assumed) numbers the six directions clockwise from the sheet's top."""
    assert [scatter_direction(d) for d in range(1, 7)] == list(DIRECTIONS)
    game = start()
    events = fire(game, "mortar german/MOR-1 1705 1", 1, 1, 6, 1)  # S2, direction 1 (up): 1703, empty
    (landed,) = of(events, "mortar round")
    assert (landed["result"], landed["hits"]) == ("S2", "1703") and of(events, "mortar attack") == []
    place(game, RIFLE, "1706")
    game.unit(MORTAR).fired = False
    game.player_turns += 1
    events = fire(game, "mortar german/MOR-1 1706 1", 1, 1, 4, 1)  # S1 up: 1705, empty
    assert of(events, "mortar round")[0]["hits"] == "1705" and of(events, "mortar attack") == []


def test_14_3_b_a_round_scattered_off_the_map_is_lost_r138() -> None:
    """R138: a round that scatters off the map hits nothing. 1001 is on the top row; up (1) leaves it."""
    game = start("1001")
    events = fire(game, "mortar german/MOR-1 1001 1", 1, 1, 5, 1)
    (landed,) = of(events, "mortar round")
    assert landed["hits"] is None and of(events, "mortar attack") == []


def test_14_3_b_a_round_on_friendly_units_attacks_them_r138() -> None:
    """14.5: results 'the same as for AP fire combat results (11.4)'; R138: a round attacks every
    unit in the hex it hits, friendly ones too. S1 down from 1705 is 1706, where the PL stands."""
    game = start()
    place(game, SPOTTER, "1706")
    events = fire(game, "mortar german/MOR-1 1705 1", 1, 1, 4, 4, 1)
    assert [(a["target"], a["result"]) for a in of(events, "mortar attack")] == [(SPOTTER, "E")]
    assert not game.unit(SPOTTER).on_map


# -- 14.4 dice, 14.5 results ----------------------------------------------------------------------------


def test_14_4_dice_as_ap_fire_without_trees_afvs_or_wrecks() -> None:
    """14.4: 'The number of dice required is determined the same way as AP fire combat (11.3),
    except that Trees, AFV's, Wrecks, and elevation differences are ignored. All other terrain and
    unit conditions affecting the number of dice used are applied.' R131: a woods hex is read as
    its terrain without the Trees (1504: clear, one die); a Wreck gives no cover (11.33); DOWN and
    an IP still add dice."""
    game = start("1504")
    game.wrecks.add(game.board.hex("1504"))
    events = fire(game, "mortar german/MOR-1 1504 1", 1, 1, 1, 6)
    assert of(events, "mortar attack")[0]["dice"] == ["1 for clear (11.31)"]
    game = start("1705")
    game.unit(RIFLE).state = State.DOWN
    game.improved_positions[game.board.hex("1705")] = 2
    events = fire(game, "mortar german/MOR-1 1705 1", 1, 1, 1, 6, 6, 6, 6)
    assert len(of(events, "mortar attack")[0]["rolled"]) == 4  # 1 + DOWN 1 + IP 2


def test_14_51_the_firepower_is_the_printed_ap_factor_whatever_the_hex() -> None:
    """14.51: 'The final AP firepower total for a round is always the number of AP factors printed
    on the mortar unit. This number is never modified for any reason.' Into woods (11.16 a would
    take 3 off) at 7 hexes (beyond range 5): 6; levels P6 S3 E2: a 3 suppresses."""
    game = start("1504")
    events = fire(game, "mortar german/MOR-1 1504 1", 1, 1, 1, 3)
    (attack,) = of(events, "mortar attack")
    assert (attack["firepower"], attack["result"]) == (6, "S")
    assert game.unit(RIFLE).morale == Morale.SUPPRESSED


def test_14_52_each_round_resolved_completely_before_the_next() -> None:
    """14.52: 'each round is resolved separately and completely before the next round is fired. This
    means that a target unit may be subject to successive mortar fire attacks in the same phase.'
    Round 1 pins the rifleman (5 <= P6), so round 2 rolls two dice at him (DOWN) and 2+2 = 4 takes
    P and P to S (11.45); a third round finds him again."""
    game = start()
    events = fire(game, "mortar german/MOR-1 1705 3", 1, 1, 1, 5, 2, 2, 2, 3, 1, 1)
    attacks = of(events, "mortar attack")
    assert [len(a["rolled"]) for a in attacks] == [1, 2, 2]
    assert [a["result"] for a in attacks] == ["P", "P", "E"]  # the last: all ones (11.44)
    assert [e["event"] for e in events].index("mortar round") < [e["event"] for e in events].index("result")
    assert not game.unit(RIFLE).on_map


def test_14_52_a_unit_eliminated_by_one_round_is_not_attacked_by_the_next() -> None:
    """14.52: resolved 'separately and completely': the second round finds the hex empty."""
    game = start()
    events = fire(game, "mortar german/MOR-1 1705 2", 1, 1, 1, 1, 2)  # E on a 1 (E level 2)
    assert [a["result"] for a in of(events, "mortar attack")] == ["E"] and len(of(events, "mortar round")) == 2


def test_14_3_odds_fire_gives_a_mortar_rounds_odds_by_the_engines_dice() -> None:
    """14.0 in `odds fire` (a clear line was refused as 'no LOS, out of range or arc'). 14.3: the
    scatter die on the Mortar Round Scatter Table, 'S#': '#' hexes in the direction of the Scatter
    Diagram; 14.5: each unit in the hex hit is attacked. Where a round lands is where the engine's
    rounds land, every scatter and direction die played; the rifleman's chances are the mortar's PC
    (R136), the round on target, and AP fire's odds on the dice of the engine's attack (14.4)."""
    from fractions import Fraction

    from engine.game.fire_odds import describe_odds, fire_odds, pc_chance
    from engine.odds import ap_chances

    game = start()
    odds = fire_odds(game, [game.board.hex("1310")], game.board.hex("1705"))
    assert odds["units"] == [{"unit": MORTAR, "fires": True, "pc": 30 / 36}]
    (mortar,) = odds["mortar"]
    landed: dict[str | None, Fraction] = {}
    dice = set()
    for die in range(1, 7):
        for direction in range(1, 7):
            twin = game.copy()
            with_dice(twin, 1, 1, die, direction, *[6] * 4)  # the PC passes; T rolls no direction die
            events = apply_mortar(twin, parse(f"mortar {MORTAR} 1705 1"))
            (landing,) = of(events, "mortar round")
            landed[landing["hits"]] = landed.get(landing["hits"], Fraction(0)) + Fraction(1, 36)
            dice |= {len(e["rolled"]) for e in of(events, "mortar attack")}
    assert {land["hex"]: land["p"] for land in mortar["lands"]} == {h: float(p) for h, p in landed.items()}
    (target,) = mortar["targets"]
    (count,) = dice
    hit = pc_chance(9) * landed["1705"]
    assert target["unit"] == RIFLE and target["dice"] == count
    assert target["p"] == {k: float(hit * v + (1 - hit if k == "none" else 0)) for k, v in ap_chances(6, count).items()}
    assert f"Mortar {MORTAR}, each round" in describe_odds(odds)


def test_14_2_odds_fire_says_why_a_mortar_may_not_fire_with_the_rule() -> None:
    """14.2: 'Mortars may fire directly at any target hex in their LOS'; 14.22: indirect fire needs a
    spotter, which `odds fire` does not cover: it says so with the rule (the engine's refusal)."""
    from engine.game.fire_odds import fire_odds

    game = start("1302")  # behind the building in 1306
    odds = fire_odds(game, [game.board.hex("1310")], game.board.hex("1302"))
    assert odds["units"] == [
        {"unit": MORTAR, "fires": False, "why": f"{MORTAR} has no LOS to 1302: indirect fire needs a spotter (14.2)"}
    ]
    assert odds["mortar"] == []


@pytest.mark.parametrize("name", ["s3-closing-the-ring", "s5-through-the-marshes"])
def test_14_12_the_scenarios_mortars_fire_five_rounds_with_their_full_crews(name: str) -> None:
    """24.6 Scenario 3: 'MOR #1 (21)'; 24.8 Scenario 5: 'MOR #1 (24)', German 'MOR #1 (30)'; 14.12:
    'A mortar must be fully crewed to fire five rounds'; with indirect fire two (14.13)."""
    game = new_game(load_scenario(REPO / "scenarios" / f"{name}.yaml"), 1, {})
    mortars = [u for u in game.units.values() if is_mortar(u)]
    assert mortars and all(u.men == u.extra["full_crew"] for u in mortars)
    assert {(max_rounds(u, False), max_rounds(u, True)) for u in mortars} == {(5, 2)}


def test_mortar_actions_come_in_a_fixed_order() -> None:
    """legal_actions' order is fixed: by mortar, target hex label, direct fire or each spotter, rounds."""
    game = start("1705")
    place(game, "russian/PL-PR10", "1302")  # seen by the PL in 1410 only: indirect fire
    expected = [f"mortar german/MOR-1+german/PL-PR11 1302 {n}" for n in (1, 2)]
    expected += [f"mortar german/MOR-1 1705 {n}" for n in range(1, 6)]
    assert texts(game) == expected
    assert texts(game.copy()) == expected
