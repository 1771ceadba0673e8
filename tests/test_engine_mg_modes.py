"""Advanced rule 21.0, machine gun modes, rule by rule, on tests/fixtures/game/fire.yaml with the
advanced rules on (the game option `advanced`); the basic game has none of it."""

from __future__ import annotations

import pytest

from engine.game import Action, legal_actions, new_game, play
from engine.game.mg_fire import LANE, mg_shot
from engine.game.mg_modes import FL, SP, lane, mode_of, reach, set_mode
from engine.game.shot import in_frontal_area
from engine.game.sightlines import line_open
from engine.game.state import DEFENSIVE_FIRE, MORALE, MOVEMENT, REACTION, SUPPORT_FIRE, GameState, Secrets
from engine.game.views import SideLog, player_view
from engine.geometry.movement import Morale
from engine.geometry.sight import FirerState
from engine.hexgrid import hex_distance
from tests.test_engine_fire import FIRE, away, do, events, put
from tests.test_engine_rules import with_dice
from tests.test_engine_views import walk

MMG = "german/MMG-1"
RIFLE = "russian/A/R-PR9-1"


def advanced_at(phasing: str, phase: str, seed: int = 1) -> GameState:
    """The fire scenario with the advanced rules, on to `phasing`'s `phase` of turn 1."""
    game = new_game(FIRE, seed, {"advanced": True})
    while not (game.phasing == phasing and game.phase == phase):
        play(game, Action("done"))
    return game


def lane_set_up(mode: str = FL, target: str = "1216") -> GameState:
    """The German MMG in 1220 facing up column 12, a Russian rifle squad in 1216, the MMG's mode set."""
    game = advanced_at("german", SUPPORT_FIRE)
    away(game, MMG, RIFLE)
    mmg = put(game, MMG, "1220", toward="1219")
    put(game, RIFLE, "1216")
    set_mode(game, mmg, mode, target if mode == FL else "")
    return game


def texts(game: GameState) -> list[str]:
    return [a.text() for a in legal_actions(game)]


def test_21_0_under_the_basic_game_rules_all_mgs_are_in_df_mode() -> None:
    """21.0: 'Under the basic game rules all MG's are considered to be in the DF mode.' Without the
    option no mode is offered in the Morale Phase, nor a lane, a spray or a switch in a fire phase."""
    game = new_game(FIRE, 1)
    advanced = advanced_at("german", MORALE)
    while not (game.phase == MORALE and game.to_act == "german"):
        play(game, Action("done"))
    while advanced.to_act != "german":
        play(advanced, Action("done"))
    assert not [t for t in texts(game) if t.startswith("mode ")]
    assert f"mode {MMG} sp" in texts(advanced)
    while not (game.phase == SUPPORT_FIRE and game.phasing == "german"):
        play(game, Action("done"))
    assert not [t for t in texts(game) if t.split()[0] in ("lane", "spray", "switch")]
    assert mode_of(game, game.unit(MMG)) == ("df", "")


def test_21_1_intensive_fire_and_ordinary_ap_fire_only_in_df_mode() -> None:
    """21.1: 'Intensive fire (11.15) may only be used by MG's in the DF mode'; 21.26: 'FL attacks
    may never be combined with any other AP attacks'. The FL MG neither aims nor joins; in DF it does."""
    game = lane_set_up()
    assert f"aim {MMG} 1216" not in texts(game) and f"lane {MMG}" in texts(game)
    set_mode(game, game.unit(MMG), "df")
    do(game, f"aim {MMG} 1216")
    assert f"intensive {MMG}" in texts(game)


def test_21_21_the_lane_is_every_hex_the_line_touches_to_a_target_in_los_and_range() -> None:
    """21.21: 'This target hex can be any hex within the MG's unblocked LOS and within its initial
    range. All hexes touched by a straight line from the center of the MG's hex to the center of
    the target hex are subject to attack by the MG.' Up column 12: 1219 to 1216; a line between two
    columns touches the hexes on both sides of the hexsides it runs through."""
    game = lane_set_up()
    mmg = game.unit(MMG)
    board = game.board
    assert [board.label(h) for h in lane(game, mmg, board.hex("1216"))] == ["1219", "1218", "1217", "1216"]
    slanted = [board.label(h) for h in lane(game, mmg, board.hex("1418"))]
    assert slanted[-1] == "1418" and len(slanted) > 2  # both hexes along a hexside-line
    initial = int(mmg.value("initial_range"))
    assert reach(game, mmg) and all(0 < hex_distance(mmg.hex, h) <= initial for h in reach(game, mmg))


def test_21_fire_lane_example_the_lane_does_not_reach_past_four_tree_symbols() -> None:
    """21.2 FIRE LANE EXAMPLE: 'The Fire Lane would not penetrate beyond hex A as four tree symbols
    are encountered' (the diagram is not printed: R316). 10.31 b's line 1710-1714 (three Trees)
    with an AFV in 1713 is blocked: 1714 is no lane target then, 1713 is."""
    game = advanced_at("german", SUPPORT_FIRE)
    away(game, MMG)
    mmg = put(game, MMG, "1710", toward="1711")
    board = game.board
    assert hex_distance(mmg.hex, board.hex("1714")) <= int(mmg.value("initial_range"))  # the MMG's 16 hexes
    assert board.hex("1714") in reach(game, mmg)
    put(game, "german/IIIe-1", "1713", toward="1712")
    mmg = game.unit(MMG)
    assert board.hex("1714") not in reach(game, mmg) and board.hex("1713") in reach(game, mmg)


def test_21_2_21_22_21_23_the_lane_attacks_every_unit_along_it_friendly_ones_too() -> None:
    """21.2: 'FL's represent an MG's ability to fire a sustained burst along a line of fire such
    that any unit in that line is subject to attack.' 21.22: 'If there is an enemy unit in the MG's
    fire lane during the Support Fire or Defensive Fire Phase the MG may fire'; 21.23: 'each of those
    units (including friendly ones) must undergo a separate FL attack.' A German squad in 1218 is
    attacked with the Russian in 1216."""
    game = lane_set_up()
    put(game, "german/D/R-PR9-1", "1218")
    with_dice(game, 1, 1, *[6] * 12)  # the PC passes; every attack's dice 6s
    do(game, f"lane {MMG}")
    attacks = events(game, "attack")
    assert [a["hex"] for a in attacks] == ["1218", "1216"]
    assert [a["targets"][0]["unit"] for a in attacks] == ["german/D/R-PR9-1", RIFLE]
    assert events(game, "mode shown")[-1] == {
        "event": "mode shown",
        "unit": MMG,
        "mode": FL,
        "target": "1216",
        "rule": "21.0",
    }
    assert f"lane {MMG}" not in texts(game)  # 21.27: its one fire combat


def test_21_24_a_failed_pc_and_the_mg_never_fires_that_player_turn() -> None:
    """21.24: 'The normal fire PC is taken the first time an FL attack is made in a phase ... if it
    fails it will never fire during that Player Turn.'"""
    game = lane_set_up()
    with_dice(game, 6, 6)
    do(game, f"lane {MMG}")
    assert not events(game, "attack") and events(game, "pc")[-1]["rule"] == "10.12"
    assert not [t for t in texts(game) if MMG in t]


def test_21_25_full_ap_firepower_with_each_hexs_terrain() -> None:
    """21.25: 'FL attacks are resolved normally with the MG's full AP firepower (subject to terrain
    reductions per hex) being used for EACH attack.' The same as a DF attack at each hex."""
    game = lane_set_up()
    mmg = game.unit(MMG)
    with_dice(game, 1, 1, *[6] * 12)
    do(game, f"lane {MMG}")
    factor = int(mmg.value("ap_factor"))
    assert events(game, "attack")[-1]["firepower"] == factor
    assert events(game, "ap roll")[-1]["rule"] == "21.25"


def test_21_33_21_34_21_35_spray_the_hexes_chosen_at_half_with_one_pc() -> None:
    """21.33: 'Which units are attacked and which are not is the player's option'; 21.34: 'The
    normal fire PC is taken the first time an SP attack is made in a phase'; 21.35: 'only one-half
    (rounded down) the MG's full AP firepower'. Two hexes sprayed, one PC, half the factor each."""
    game = lane_set_up(SP)
    put(game, "russian/A/R-PR8-1", "1217")
    options = [t for t in texts(game) if t.startswith("spray")]
    assert options == [f"spray {MMG} 1216", f"spray {MMG} 1217"]
    with_dice(game, 1, 1, *[6] * 12)
    do(game, f"spray {MMG} 1216")
    do(game, f"spray {MMG} 1217")
    factor = int(game.unit(MMG).value("ap_factor"))
    assert [a["firepower"] for a in events(game, "attack")] == [factor // 2] * 2
    assert len([p for p in events(game, "pc") if p["unit"] == MMG]) == 1
    assert not [t for t in texts(game) if t.startswith("spray")]  # each hex once a phase (R312)


def test_21_36_sp_attacks_are_never_combined() -> None:
    """21.36: 'SP attacks may never be combined with any other AP attacks': an SP MG never joins."""
    game = lane_set_up(SP)
    put(game, "german/D/R-PR9-1", "1220")
    do(game, "aim german/D/R-PR9-1 1216")
    assert f"join {MMG}" not in texts(game)


def test_21_41_modes_change_at_the_end_of_the_morale_phase_normal_mgs_only_in_secret() -> None:
    """21.41: 'At the end of any Morale Phase, each player is permitted to change the mode of their
    MG's. Only a NORMAL status unit may change its mode.' 21.0: 'A unit's mode need not be revealed
    until the unit fires': the Russian's log and view hold neither the choice nor the German secret."""
    game = advanced_at("german", MORALE)
    while game.to_act != "german":
        play(game, Action("done"))
    lanes = [t for t in texts(game) if t.startswith(f"mode {MMG} fl ")]
    assert lanes and f"mode {MMG} sp" in texts(game)
    do(game, lanes[0])
    assert mode_of(game, game.unit(MMG))[0] == FL
    assert not [t for t in texts(game) if t.startswith(f"mode {MMG}")]  # once a Morale Phase (R310)
    log = SideLog("russian").update(game.log)
    assert log.entries[-1]["action"] is None and log.entries[-1]["events"] == []
    view = player_view(game, "russian")
    found = walk([view])
    assert not [s for s in found if isinstance(s, Secrets) and s.modes]
    assert not [d for d in found if isinstance(d, dict) and d.get("event") == "mode"]
    assert "mg_modes" not in str(view.data)
    stunned = advanced_at("german", MORALE)  # after 7.0's recovery rolls: a SUPPRESSED MG stays put
    while stunned.to_act != "german":
        play(stunned, Action("done"))
    stunned.unit(MMG).morale = Morale.SUPPRESSED
    assert not [t for t in texts(stunned) if t.startswith(f"mode {MMG}")]


def test_21_42_a_pc_to_change_to_spray_then_a_quarter_of_the_firepower() -> None:
    """21.42: 'It takes a PC to make the mode change ... If it succeeds in switching to SP mode, its
    AP factors are halved for the remainder of the Player Turn. This means that when it fires it
    will do so at one-quarter its AP firepower'; a failure leaves it to fire in its mode."""
    game = lane_set_up("df")
    with_dice(game, 1, 1)
    do(game, f"switch {MMG}")
    assert mode_of(game, game.unit(MMG))[0] == SP and f"switch {MMG}" not in texts(game)
    with_dice(game, 1, 1, *[6] * 6)
    do(game, f"spray {MMG} 1216")
    factor = int(game.unit(MMG).value("ap_factor"))
    assert events(game, "attack")[-1]["firepower"] == factor // 2 // 2
    failed = lane_set_up("df")
    with_dice(failed, 6, 6)
    do(failed, f"switch {MMG}")
    assert mode_of(failed, failed.unit(MMG))[0] == "df" and f"aim {MMG} 1216" in texts(failed)


def test_21_42_the_change_to_spray_is_offered_only_with_an_enemy_in_the_spray_area() -> None:
    """21.42: 'An MG may change to the SP mode ANYTIME it is eligible to fire': with an enemy in the
    spray fire area it may (R351); with none there, or once it has fired, it is not offered."""
    game = lane_set_up("df")
    assert f"switch {MMG}" in texts(game)
    put(game, RIFLE, "1502")  # a far corner, with the other Russians (away)
    assert f"switch {MMG}" not in texts(game)
    fired = lane_set_up("df")
    fired.changing(fired.unit(MMG)).fired = True
    assert f"switch {MMG}" not in texts(fired)


def test_13_12_fl_and_sp_mgs_opportunity_fire_in_the_reaction_movement_phase() -> None:
    """13.12: '(ADVANCED RULE: MG's in the Spray or Fire Lane modes may opportunity fire in this
    phase.)'; 21.1: DF MGs 'may participate in opportunity fire only during the enemy Movement
    Phase'. A Russian entering 1217, a lane hex, in the Reaction Movement Phase: the FL MG may fire
    at it, and a DF MG may not."""
    game = lane_set_up()
    game.phase = REACTION
    put(game, RIFLE, "1217")
    game.interrupt = {"hex": "1217", "units": [RIFLE], "side": "russian"}
    game.to_act = "german"
    game.caches = {}
    assert f"lane {MMG}" in texts(game)
    with_dice(game, 1, 1, *[6] * 6)
    do(game, f"lane {MMG}")
    assert [a["hex"] for a in events(game, "attack")] == ["1217"]  # the hex entered (R311)
    assert f"lane {MMG}" not in texts(game)
    df = lane_set_up("df")
    df.phase = REACTION
    df.interrupt = {"hex": "1216", "units": [RIFLE], "side": "russian"}
    df.to_act = "german"
    df.caches = {}
    assert not [t for t in texts(df) if MMG in t and not t.startswith("switch")]


def test_21_25_21_35_the_odds_of_a_fire_lane_and_a_spray_each_target_unit() -> None:
    """21.25: 'FL attacks are resolved normally with the MG's full AP firepower (subject to terrain
    reductions per hex) being used for EACH attack'; 21.35: 'only one-half (rounded down)'. The odds
    calculator shows each lane hex's attack and each unit's odds, the PC included, from the engine's
    own `mg_shot`; an FL MG is in no ordinary AP attack (21.26); a hex it does not attack is said."""
    from engine.game.fire_odds import describe_odds, fire_odds, fire_pc_chance
    from engine.odds import ap_chances

    game = lane_set_up()
    put(game, "german/D/R-PR9-1", "1218")
    odds = fire_odds(game, [game.board.hex("1220")], game.board.hex("1216"))
    assert odds["ap"] is None  # 21.26: never combined, no DF attack
    (mg,) = odds["mg"]
    assert (mg["mode"], mg["lane_target"], mg["rule"]) == (FL, "1216", "21.25")
    assert [a["hex"] for a in mg["attacks"]] == ["1218", "1216"]
    factor = int(game.unit(MMG).value("ap_factor"))
    pc = fire_pc_chance(game, game.unit(MMG))
    friend = mg["attacks"][0]["targets"][0]
    assert friend["unit"] == "german/D/R-PR9-1"  # 21.23: friendly ones too
    expected = ap_chances(mg["attacks"][0]["firepower"], friend["dice"])
    assert friend["p"]["E"] == pytest.approx(float(pc * expected["E"]))
    assert "Fire Lane to 1216" in describe_odds(odds)
    spray = lane_set_up(SP)
    (sp,) = fire_odds(spray, [spray.board.hex("1220")], spray.board.hex("1216"))["mg"]
    assert sp["rule"] == "21.35" and sp["attacks"][0]["firepower"] <= factor // 2
    (missed,) = fire_odds(spray, [spray.board.hex("1220")], spray.board.hex("1217"))["mg"]
    assert not missed["fires"] and "1216" in missed["why"]


def _interrupt(game: GameState, label: str, phase: str = REACTION) -> None:
    """A Russian rifle has just entered `label` in the Reaction Movement Phase (13.12), or `phase`."""
    game.phase = phase
    put(game, RIFLE, label)
    game.interrupt = {"hex": label, "units": [RIFLE], "side": "russian"}
    game.to_act = "german"
    game.caches = {}


def test_21_27_the_fire_lane_is_one_fire_combat_across_phases_a_pc_each_phase() -> None:
    """21.27: 'An MG in FL mode is still restricted to one fire combat in a Player Turn even though
    it can make multiple FL attacks against several units when it fires. These attacks are
    considered part of the one fire combat'; 21.24: 'The normal fire PC is taken the first time an
    FL attack is made in a phase.' After its lane in the Support Fire Phase the MG fires again in
    the Reaction Movement Phase: one new PC there, none at the phase's next interrupt, no more ammo
    (22.2: '2 points regardless of the number of hexes'); a failed PC ends it for the Player Turn."""
    game = lane_set_up()
    _with_ammo(game, 9)
    with_dice(game, 1, 1, *[6] * 40)  # every PC passes (2), every attack's dice 6s
    do(game, f"lane {MMG}")
    assert game.ammo["mmg"] == 7 and len(events(game, "pc")) == 1
    _interrupt(game, "1217")
    assert f"lane {MMG}" in texts(game)
    with_dice(game, 1, 1, *[6] * 40)
    do(game, f"lane {MMG}")
    assert len([e for e in events(game, "pc") if e["unit"] == MMG]) == 2  # the phase's first attack
    _interrupt(game, "1218")
    with_dice(game, *[6] * 40)
    do(game, f"lane {MMG}")
    assert len([e for e in events(game, "pc") if e["unit"] == MMG]) == 2  # no PC within the phase
    assert [a["hex"] for a in events(game, "attack")] == ["1216", "1217", "1218"]
    assert game.ammo["mmg"] == 7  # the one fire combat's two points
    failed = lane_set_up()
    with_dice(failed, 1, 1, *[6] * 40)
    do(failed, f"lane {MMG}")
    _interrupt(failed, "1217")
    with_dice(failed, 6, 6)
    do(failed, f"lane {MMG}")
    _interrupt(failed, "1218")
    assert f"lane {MMG}" not in texts(failed)  # 21.24: 'it will never fire during that Player Turn'


def test_21_21_a_fire_lane_only_applies_to_hexes_on_the_mgs_level() -> None:
    """21.21: 'A fire lane only applies to hexes that are on the same level as the MG.' The fixture's
    one hill hex, 1405 (level 1), on the line from 1407 to 1404: the lane leaves it out, and it is no
    lane target nor in the spray area (R307)."""
    game = advanced_at("german", SUPPORT_FIRE)
    away(game, MMG)
    mmg = put(game, MMG, "1407", toward="1406")
    board = game.board
    assert board.terrain(board.hex("1405")).level == 1 and board.terrain(mmg.hex).level == 0
    assert [board.label(h) for h in lane(game, mmg, board.hex("1404"))] == ["1406", "1404"]
    assert board.hex("1405") not in reach(game, mmg) and board.hex("1406") in reach(game, mmg)


def _with_ammo(game: GameState, points: int) -> None:
    game.ammo["mmg"] = points
    game.changing(game.unit(MMG)).extra["ammo_pool"] = "mmg"


def test_22_2_a_fire_lane_spends_two_points_a_spray_one_a_hex_and_two_in_all() -> None:
    """22.2: 'MG in SP mode (attacks only 1 hex): 1 point; MG in SP mode (attacks multiple hexes):
    2 points total; MG in FL mode: 2 points regardless of the number of hexes'."""
    game = lane_set_up()
    put(game, "german/D/R-PR9-1", "1218")
    _with_ammo(game, 9)
    with_dice(game, 1, 1, *[6] * 12)
    do(game, f"lane {MMG}")  # two hexes attacked
    assert game.ammo["mmg"] == 7
    game = lane_set_up(SP)
    put(game, "russian/A/R-PR8-1", "1217")
    _with_ammo(game, 9)
    with_dice(game, 1, 1, *[6] * 12)
    do(game, f"spray {MMG} 1216")
    assert game.ammo["mmg"] == 8
    do(game, f"spray {MMG} 1217")
    assert game.ammo["mmg"] == 7


def test_21_26_fl_attacks_are_never_combined_each_mgs_lane_attack_resolved_separately() -> None:
    """21.26: 'FL attacks may never be combined with any other AP attacks. If a unit is in more than
    one MG's fire lane, each FL attack against it is resolved separately.' The Russian LMGs in 1210
    and 1222 both lay their lanes on 1216: two attacks on the German rifle there, each with one
    firer and that MG's own firepower; neither LMG joins a rifle's attack on the hex."""
    game = advanced_at("russian", SUPPORT_FIRE)
    north, south, german = "russian/A/LMG-PR8-1", "russian/A/LMG-PR9-1", "german/D/R-PR9-1"
    away(game, north, south, german, RIFLE)
    put(game, north, "1210", toward="1211")
    put(game, south, "1222", toward="1221")
    put(game, german, "1216")
    put(game, RIFLE, "1215")
    for lmg in (north, south):
        set_mode(game, game.unit(lmg), FL, "1216")
    do(game, f"aim {RIFLE} 1216")
    assert not [t for t in texts(game) if t.startswith("join") and "LMG" in t]  # never combined
    do(game, "cancel")
    expected = [mg_shot(game, game.unit(lmg), LANE, game.board.hex("1216")).firepower for lmg in (north, south)]
    for lmg in (north, south):
        with_dice(game, 1, 1, *[6] * 20)  # the PC passes, every attack's dice 6s
        do(game, f"lane {lmg}")
    at_german = [a for a in events(game, "attack") if a["hex"] == "1216"]
    assert [a["firers"] for a in at_german] == [[north], [south]]
    assert [a["firepower"] for a in at_german] == expected
    assert [e["unit"] for e in events(game, "ap roll") if e["unit"] == german] == [german, german]


def test_21_31_the_spray_area_is_the_frontal_area_within_unblocked_los_and_initial_range() -> None:
    """21.31: 'the MG has a spray fire area which covers the same hexes as its frontal area. These
    hexes can be any hex within the MG's unblocked LOS and within its initial range ... The spray
    fire area applies to hexes that are on the same level as the MG.' The MMG in 1220 facing 1219:
    the area is every hex of the board so placed and so seen; a hex behind it, one beyond its 16
    hexes, and 1714 beyond 10.31 b's blocked line are not in it, and no spray goes there."""
    game = lane_set_up(SP)
    mmg = game.unit(MMG)
    board, origin = game.board, mmg.hex
    assert origin is not None
    initial = int(mmg.value("initial_range"))
    area = [
        h
        for h in sorted(board.hexes)
        if 0 < hex_distance(origin, h) <= initial
        and in_frontal_area(origin, mmg.facing, h)
        and board.terrain(h).elevation == board.terrain(origin).elevation
        and line_open(game, origin, h, FirerState(str(mmg.state)))
    ]
    assert reach(game, mmg) == area and board.hex("1216") in area
    assert board.hex("1221") not in area  # behind the frontal hexsides
    assert not [h for h in board.hexes if h in area and hex_distance(origin, h) > initial]
    blocked = advanced_at("german", SUPPORT_FIRE)
    away(blocked, MMG, RIFLE)
    put(blocked, "german/IIIe-1", "1713", toward="1712")  # three Trees and an AFV on the line (10.31 b)
    sprayer = put(blocked, MMG, "1710", toward="1711")
    set_mode(blocked, sprayer, SP)
    put(blocked, RIFLE, "1714")
    assert blocked.board.hex("1714") not in reach(blocked, blocked.unit(MMG))
    assert not [t for t in texts(blocked) if t.startswith(f"spray {MMG}")]


def test_21_32_an_sp_mg_fires_at_an_enemy_in_its_area_in_the_fire_phases_and_at_a_hex_entered() -> None:
    """21.32: 'If there is an enemy unit within the MG's spray fire area during the Support Fire or
    Defensive Fire Phase the MG may fire. If a unit enters one of these hexes during any Movement
    or Reaction Movement Phase, the MG may fire. The MG must be eligible to fire as per 10.1.' The
    German SP MMG in 1220 facing 1219: in the Support Fire Phase (its side's), the Defensive Fire
    Phase (the Russian Player Turn), at a Russian entering 1217 in the Russian Movement Phase and
    in the German Reaction Movement Phase: a spray at that hex; not with no enemy in the area, not
    at a hex entered outside it, not when PINNED or having fired (10.11)."""
    game = lane_set_up(SP)
    assert f"spray {MMG} 1216" in texts(game)
    put(game, RIFLE, "1221")  # behind the MMG: out of its area
    assert not [t for t in texts(game) if t.startswith("spray")]
    defending = advanced_at("russian", DEFENSIVE_FIRE)
    assert defending.to_act == "german"
    away(defending, MMG, RIFLE)
    set_mode(defending, put(defending, MMG, "1220", toward="1219"), SP)
    put(defending, RIFLE, "1216")
    assert f"spray {MMG} 1216" in texts(defending)
    for phasing, phase in (("russian", MOVEMENT), ("german", REACTION)):
        moving = advanced_at(phasing, phase)
        away(moving, MMG, RIFLE)
        set_mode(moving, put(moving, MMG, "1220", toward="1219"), SP)
        _interrupt(moving, "1217", phase)
        assert [t for t in texts(moving) if t.startswith("spray")] == [f"spray {MMG} 1217"], phase
        _interrupt(moving, "1221", phase)  # a hex entered out of the area
        assert not [t for t in texts(moving) if t.startswith("spray")], phase
    pinned = lane_set_up(SP)
    pinned.changing(pinned.unit(MMG)).morale = Morale.PINNED
    assert not [t for t in texts(pinned) if t.startswith("spray")]
    fired = lane_set_up(SP)
    fired.changing(fired.unit(MMG)).fired = True
    assert not [t for t in texts(fired) if t.startswith("spray")]


def test_21_37_the_sp_attacks_of_a_player_turn_are_one_fire_combat() -> None:
    """21.37: 'An MG in SP mode is still restricted to one fire combat in a Player Turn even though
    it can make multiple SP attacks against several units when it fires. These attacks are
    considered part of the one fire combat.' Sprays at 1216 and 1217 in the Support Fire Phase
    (one PC), then at 1218 entered in the Reaction Movement Phase (the phase's PC, R354): one
    combat, 22.2's '2 points total' for it, the MG having fired (10.11) and offered nothing else."""
    game = lane_set_up(SP)
    put(game, "russian/A/R-PR8-1", "1217")
    _with_ammo(game, 9)
    with_dice(game, 1, 1, *[6] * 40)
    do(game, f"spray {MMG} 1216")
    do(game, f"spray {MMG} 1217")
    assert game.unit(MMG).fired and game.ammo["mmg"] == 7
    assert not [t for t in texts(game) if MMG in t]  # no other fire combat: no aim, no switch
    _interrupt(game, "1218")
    with_dice(game, 1, 1, *[6] * 40)
    do(game, f"spray {MMG} 1218")
    assert [a["hex"] for a in events(game, "attack")] == ["1216", "1217", "1218"]
    assert len([e for e in events(game, "pc") if e["unit"] == MMG]) == 2  # one a phase (21.34)
    assert game.ammo["mmg"] == 7  # 'MG in SP mode (attacks multiple hexes): 2 points total'
    assert game.unit(MMG).extra["mg_combat"] == [game.player_turns, 3]
