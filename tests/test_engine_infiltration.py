"""Russian Infiltration (24.3), rule by rule, on tests/fixtures/game/infiltration.yaml: the German
Squad C's LMG and the PL stand in sight in 1207; hidden hexes 1107 (MP PR9, R PR9) and 1505 (two R
PR8); 2 AP mine factors in 1605. The Russians (Squads A and B, a PL PR10, an APL PR9, an MMG) all
enter on the north edge and may infiltrate any hex north of row 8. 1404 holds three Trees, four
hexes from 1207 and next to the hidden 1505."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Action, IllegalAction, infiltration, legal_actions, play
from engine.game.infiltration import INFILTRATION, modifiers
from engine.game.play import new_game
from engine.game.state import MORALE, MOVEMENT, SUPPORT_FIRE, GameState
from engine.game.units import ELIMINATED, WAITING
from engine.geometry.movement import Morale, State
from engine.hexgrid import hex_distance
from engine.model.scenario import load_scenario
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
INFILTRATION_SCENARIO = load_scenario(REPO / "tests" / "fixtures" / "game" / "infiltration.yaml")
SQUAD_A = [
    "russian/A/LMG-PR8-1",
    "russian/A/LMG-PR9-1",
    "russian/A/R-PR9-1",
    "russian/A/R-PR8-1",
    "russian/A/R-PR7-1",
    "russian/A/R-PR6-1",
    "russian/A/R-PR5-1",
]


def start(seed: int = 1) -> GameState:
    game = new_game(INFILTRATION_SCENARIO, seed)
    play(game, Action("done"))  # the German set-up (the scenario's setup:)
    play(game, Action("done"))  # the Russian set-up: everything enters
    return game


def texts(game: GameState) -> set[str]:
    return {a.text() for a in legal_actions(game)}


def do(game: GameState, text: str) -> list[dict[str, object]]:
    assert text in texts(game), f"{text} not in {sorted(texts(game))[:20]}"
    before = len(game.log)
    play(game, next(a for a in legal_actions(game) if a.text() == text))
    return [e for line in game.log[before:] for e in line.get("events", [])]


def place_all(game: GameState, avoid: tuple[str, ...] = ()) -> None:
    """Each infiltrator in the first hex offered that is not next to the hexes in `avoid`."""
    while game.phase == INFILTRATION and game.infiltration.get("step") == "deploy":
        far = [
            a
            for a in legal_actions(game)
            if all(hex_distance(game.board.hex(a.arg.split()[0]), game.board.hex(x)) > 1 for x in avoid)
        ]
        play(game, (far or legal_actions(game))[0])


def test_24_31_after_the_set_ups_one_squad_and_one_commander_or_none() -> None:
    """24.31: 'After the German player sets up his units including the notation of any hidden hexes
    and mines, the Russian player may designate ONE squad PLUS, if he wishes, one commander ... The
    Russian player may choose not to infiltrate if he so wishes. CW and AFV units may not
    infiltrate.' (R126: after both set-ups, before the first Game Turn.)"""
    game = start()
    assert game.phase == INFILTRATION and game.to_act == "russian" and game.turn == 0
    offered = texts(game)
    assert {"infiltrate russian/A 1102", "infiltrate russian/B+russian/PL-PR10 1102"} <= offered
    assert "infiltrate russian/A+russian/APL-PR9 1102" in offered and "done" in offered
    assert not any("MMG" in t for t in offered)
    do(game, "done")
    assert (game.turn, game.phase, game.phasing) == (1, MORALE, "russian")
    assert all(u.where == WAITING for u in game.side_units("russian"))


def test_24_32_the_hex_in_the_zone_not_held_by_an_on_map_german() -> None:
    """24.32: 'any hex on the map within the scenario's infiltration restrictions ... This hex may not
    be occupied by an on-map German unit, though it may be adjacent to one. The hex may contain any
    type of terrain.'"""
    game = start()
    offered = texts(game)
    assert "infiltrate russian/A 1207" not in offered  # the LMG and the PL, in sight
    assert {"infiltrate russian/A 1206", "infiltrate russian/A 1107"} <= offered  # next to it; hidden
    assert "infiltrate russian/A 1208" not in offered  # row 8: outside the zone
    assert "infiltrate russian/A 1105" in offered  # Marsh: any terrain


def test_24_32_the_german_may_reveal_a_hidden_hex_closer_than_his_nearest_unit() -> None:
    """24.32: 'If the German player has a hidden hex closer to the Infiltration Hex than the nearest
    German on-map unit, he may voluntarily reveal the hidden hex and place ALL the units deployed
    there on the map.' 1505 is one hex from 1404, 1207 four."""
    game = start()
    do(game, "infiltrate russian/A 1404")
    assert game.to_act == "german" and texts(game) == {"reveal 1505", "done"}
    with_dice(game, 3, 3, 1, 1, 1)  # 6 + 2 = 8: F2, the first of seven (two dice: 1), the first of six
    do(game, "reveal 1505")
    assert not any(u.hidden for u in game.at(game.board.hex("1505")))
    assert game.to_act == "german" and texts(game) == {"done"}  # R170: asked until he is done
    events = do(game, "done")
    roll = next(e for e in events if e["event"] == "infiltration roll")
    assert roll["modifiers"] == ["-1 best PR 9", "-3 3 Trees", "+6 1 hexes to a German"]
    assert roll["total"] == 8 and roll["result"] == "F2"


def test_24_32_being_asked_to_reveal_tells_the_russian_nothing_r170(tmp_path: Path) -> None:
    """24.32: 'If the German player has a hidden hex closer to the Infiltration Hex than the nearest
    German on-map unit, he may voluntarily reveal the hidden hex'. Two games that differ only in
    whether the hidden hex of the two R PR8 is 1505 (next to 1404) or 1008 (six hexes away) hand the
    turn over the same way and show the Russian the same state and events until a reveal (R170)."""
    fixture = REPO / "tests" / "fixtures" / "game"
    far = tmp_path / "infiltration-far.yaml"
    text = (fixture / "infiltration.yaml").read_text(encoding="utf-8")
    far.write_text(text.replace('"1505"', '"1008"').replace("maps: [", f"maps: [{fixture}/"), encoding="utf-8")
    games = [start(), new_game(load_scenario(far), 1)]
    for game in games[1:]:
        play(game, Action("done"))
        play(game, Action("done"))
    seen: list[list[tuple[object, ...]]] = [[], []]
    german_offered: list[set[str]] = [set(), set()]
    while games[0].phase == INFILTRATION:
        for n, game in enumerate(games):
            if game.to_act == "german":
                german_offered[n] |= texts(game)
            if game.infiltration.get("step") == "designate":
                action = next(a for a in legal_actions(game) if a.text() == "infiltrate russian/A 1404")
                with_dice(game, 1, 1)  # 2 - 1 - 3 + 3 = 1: SS
            else:
                action = next(a for a in legal_actions(game) if game.to_act == "russian" or a.verb == "done")
            events = do(game, action.text())
            shown = [a.text() for a in legal_actions(game)] if game.to_act == "russian" else []
            seen[n].append((game.to_act, events, game.view("russian"), shown))
        assert seen[0] == seen[1]
    assert german_offered == [{"reveal 1505", "done"}, {"done"}]  # the games differ in what is hidden
    assert len(seen[0]) > 5 and games[1].phase != INFILTRATION


def test_24_33_the_roll_and_its_modifiers() -> None:
    """24.33: 'two dice and the result is modified by terrain, leadership and proximity to the
    nearest visible Germans': best PR 10 -2, 3 Trees -3, 4 hexes +3 ('DO NOT count the infiltration
    hex; DO count the closest German unit's hex'); 3 + 4 - 2 = 5 is F0 (R127: the commander's PR
    counts as the squad's best)."""
    game = start()
    units = [game.unit(i) for i in [*SQUAD_A, "russian/PL-PR10"]]
    trees = [(-2, "best PR 10"), (-3, "3 Trees"), (3, "4 hexes to a German")]
    assert modifiers(game, units, game.board.hex("1404")) == trees
    building = [(-2, "best PR 10"), (-2, "single hex building"), (6, "1 hexes to a German")]
    assert modifiers(game, units, game.board.hex("1206")) == building
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 3, 4)
    events = do(game, "done")  # the German keeps 1505 hidden
    assert next(e for e in events if e["event"] == "infiltration roll")["result"] == "F0"
    assert (game.turn, game.phase) == (1, MORALE)  # 24.34 F#: 'the scenario begins normally'
    assert all(u.where == WAITING for u in units)


def test_24_34_sn_within_two_hexes_no_closer_up_or_down_then_the_support_fire_phase_r129() -> None:
    """24.34 SN: 'All infiltrating units are deployed on the map within two hexes of the Infiltration
    hex (inclusive) but no closer to any German unit than the Infiltration hex is. Each unit may be
    placed in either the UP or DOWN state and in NORMAL status. Units must be placed within stacking
    limits. The scenario begins with the Russian player turn Support Fire Phase.'"""
    game = start()
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 1, 1)  # 2 - 2 = 0: SN
    do(game, "done")
    assert game.infiltration["result"] == "SN"
    source, german = game.board.hex("1404"), game.board.hex("1207")
    for action in legal_actions(game):
        h = game.board.hex(action.arg.split()[0])
        assert hex_distance(h, source) <= 2 and hex_distance(h, german) >= hex_distance(source, german)
    assert {"place russian/A/LMG-PR8-1 1402 up", "place russian/A/LMG-PR8-1 1402 down"} <= texts(game)
    place_all(game, avoid=("1505", "1107"))
    units = [game.unit(i) for i in [*SQUAD_A, "russian/PL-PR10"]]
    assert all(u.on_map and u.morale == Morale.NORMAL and u.state == State.UP for u in units)
    assert max(game.totals("russian", h)[0] for h in {u.hex for u in units if u.hex}) <= 6  # 8.62
    assert (game.turn, game.phase, game.phasing) == (1, SUPPORT_FIRE, "russian")


def test_24_34_the_placements_are_every_hex_within_two_of_the_infiltration_hex(monkeypatch: pytest.MonkeyPatch) -> None:
    """24.34: 'within two hexes of the Infiltration hex (inclusive)': the hexes made around it
    (`hexgrid.within`, those on the board) are every hex of the board that a walk of the whole
    board finds."""
    game = start()
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 1, 1)  # SN
    do(game, "done")
    offered = texts(game)
    monkeypatch.setattr(
        infiltration,
        "within",
        lambda source, reach: sorted(h for h in game.board.hexes if hex_distance(h, source) <= reach),
    )
    assert texts(game) == offered and len(offered) > 10


def test_24_34_sp_and_ss_deploy_down_pinned_or_suppressed() -> None:
    """24.34 SP: 'all the units are deployed in the DOWN state in PINNED status'; SS: 'in the DOWN
    state in SUPPRESSED status' (the table: 1 or 2 SS, 3 or 4 SP)."""
    for faces, morale in (((2, 3), Morale.PINNED), ((1, 2), Morale.SUPPRESSED)):
        game = start()
        do(game, "infiltrate russian/B 1404")  # PR 9 -1, Trees -3, 4 hexes +3: -1
        with_dice(game, *faces)
        do(game, "done")
        assert all(a.arg.endswith(" down") for a in legal_actions(game))
        place_all(game, avoid=("1505", "1107"))
        squad = [u for u in game.side_units("russian") if u.squad == "B"]
        assert all(u.morale == morale and u.state == State.DOWN for u in squad)


def test_24_34_f_removes_that_many_infiltrators_picked_by_the_dice() -> None:
    """24.34 F#: '# is the number of randomly selected infiltrating Russian units that are removed
    from the infiltrators. The survivors participate in the scenario as though no infiltration
    attempt has been made'. 6 + 6 - 1 + 1 (six hexes from 1207) = 12: F3; each casualty picked
    with the same chance among the units left in the order designated (R130): of seven by two dice
    as 1-36 (36 rolled again, 7, 14, ... 35 the seventh), of six or fewer by a die (a face beyond
    them rolled again)."""
    game = start()
    do(game, "infiltrate russian/A 1102")
    assert game.to_act == "german"  # 1107 (five hexes) is closer than 1207 (six)
    with_dice(game, 6, 6, 6, 6, 2, 1, 1, 6, 1)  # F3; 36: again; 7: the 7th; the 1st of six; a 6 of five: again; the 1st
    events = do(game, "done")
    removed = [e["unit"] for e in events if e["event"] == "eliminated"]
    assert removed == ["russian/A/R-PR5-1", "russian/A/LMG-PR8-1", "russian/A/LMG-PR9-1"]
    assert all(game.unit(i).where == ELIMINATED for i in removed)
    assert sum(1 for i in SQUAD_A if game.unit(i).where == WAITING) == 4
    assert (game.turn, game.phase) == (1, MORALE)


def test_24_35_a_hidden_infiltration_hex_fails_at_once_r130() -> None:
    """24.35: 'If the Infiltration Hex is also a German hidden hex the German player must reveal
    this fact and the infiltration mission automatically fails. The Russian player rolls one die
    and the result is the number of casualties suffered as in the "F#" result. The German units in
    the hidden hex are permanently revealed and a Grenade Attack (15.6) is performed against it.
    Pinned and Suppressed results are ignored.' (R130: no Russian grenade is used.)"""
    game = start()
    with_dice(game, 2, 1, 1, 2, 1, 2)  # 2 casualties: A/LMG-PR8-1 (1, 1 of seven), A/R-PR9-1; grenades 1 (E), 2 (S)
    events = do(game, "infiltrate russian/A 1107")
    assert game.board.hex("1107") not in game.secrets["german"].hidden_hexes
    assert [e["unit"] for e in events if e["event"] == "eliminated" and e["rule"] == "24.35"][:2] == [
        "russian/A/LMG-PR8-1",
        "russian/A/R-PR9-1",
    ]
    assert not game.unit("german/C/MP-PR9-1").on_map  # E
    assert game.unit("german/C/R-PR9-1").morale == Morale.NORMAL  # S ignored
    assert game.grenades_used == {}
    assert game.first_shot  # 8.22: combat dice were rolled (R130): movement PCs from turn 1
    assert "infiltration roll" not in [e["event"] for e in events]
    assert (game.turn, game.phase) == (1, MORALE)


def test_24_36_a_hidden_hex_stacked_with_infiltrators_or_next_to_them() -> None:
    """24.36: 'If infiltrating units are stacked with a hidden hex each Russian unit is immediately
    SUPPRESSED and placed in an adjacent hex ... The German units in the hidden hex are subject to a
    Grenade Attack as in (24.35). Russian units adjacent to revealed hidden hexes are immediately
    PINNED in that hex. The German units are not affected.' (R128: the Russian player places them.)"""
    game = start()
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 1, 1)  # SN
    do(game, "done")
    do(game, "place russian/A/LMG-PR8-1 1505 up")  # into the hidden hex, unknowing
    assert len(texts(game)) == 6 and all(t.startswith("face russian/A/LMG-PR8-1 ") for t in texts(game))
    do(game, "face russian/A/LMG-PR8-1 1405")  # 8.7, 10.23: an LMG is placed with its facing (R161)
    do(game, "place russian/A/LMG-PR9-1 1504 up")  # next to it
    do(game, "face russian/A/LMG-PR9-1 1404")
    with_dice(game, 5, 6)  # the grenade attack on the two R PR8 in 1505: no effect
    place_all(game, avoid=("1505", "1107"))
    assert game.infiltration["step"] == "displace" and game.to_act == "russian"
    mover = game.unit("russian/A/LMG-PR8-1")
    assert mover.morale == Morale.SUPPRESSED
    assert game.unit("russian/A/LMG-PR9-1").morale == Morale.PINNED
    assert all(u.morale == Morale.NORMAL for u in game.at(game.board.hex("1505")) if u.side == "german")
    offered = {a.arg for a in legal_actions(game)}
    assert offered <= {f"{game.label(h)} down" for h in game.neighbours(game.board.hex("1505"))}
    do(game, "place russian/A/LMG-PR8-1 1506 down")
    assert game.label(mover.hex) == "1506"
    assert game.phase == SUPPORT_FIRE


def test_24_37_ap_mines_attack_after_the_hidden_units_are_revealed() -> None:
    """24.37: 'Any infiltrating units placed on AP (only) mined hexes, including the Infiltration Hex
    itself, reveal the presence of the mine AFTER any hidden German units are revealed. Each Russian
    unit on such a hex is subject to a normal mine attack'."""
    game = start()
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 1, 1)
    do(game, "done")
    before = len(game.log)
    do(game, "place russian/A/LMG-PR8-1 1605 up")  # the mined hex, next to the hidden 1505
    do(game, "face russian/A/LMG-PR8-1 1505")  # R161
    with_dice(game, 6)  # the mine's die for the LMG
    place_all(game, avoid=("1505", "1107"))
    events = [e for line in game.log[before:] for e in line.get("events", [])]
    revealed = next(i for i, e in enumerate(events) if e["event"] == "revealed")
    mine = next(i for i, e in enumerate(events) if e.get("rule") == "24.37")
    assert revealed < mine
    assert game.unit("russian/A/LMG-PR8-1").morale == Morale.PINNED  # next to 1505; the mine's 6 nothing


def test_24_31_a_test_set_up_may_designate_the_infiltration() -> None:
    """docs/formats.md: a scenario's `setup:` may name the Infiltration Hex and its units; the game
    takes the designation as made."""
    game = new_game(load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml"), 3)
    play(game, Action("done"))
    play(game, Action("done"))
    assert game.infiltration["hex"] == "3818" and "russian/PL-PR10" in game.infiltration["units"]
    with pytest.raises(IllegalAction):
        play(game, Action("infiltrate", ("russian/B",), "3818"))


def test_24_34_ss_r173_the_first_player_turn_has_no_morale_phase() -> None:
    """24.34 SS: 'Same as SN except that all the units are deployed in the DOWN state in SUPPRESSED
    status'; SN: 'The scenario begins with the Russian player turn Support Fire Phase.' R173 (R129
    stands): the Morale Phase before it is not played, so the suppressed infiltrators do not
    recover before their first Player Turn: they neither fire nor move in it."""
    game = start()
    do(game, "infiltrate russian/B 1404")
    with_dice(game, 1, 2)  # 3 - 1 - 3 + 3 = 2: SS
    do(game, "done")
    place_all(game, avoid=("1505", "1107"))
    assert (game.turn, game.phase, game.phasing) == (1, SUPPORT_FIRE, "russian")
    assert not any(e.get("phase") == MORALE for line in game.log for e in line.get("events", []))
    squad = [u for u in game.side_units("russian") if u.squad == "B"]
    assert all(u.morale == Morale.SUPPRESSED for u in squad)
    ids = {u.id for u in squad}
    assert not any(set(a.units) & ids for a in legal_actions(game))  # 10.11: no fire
    play(game, Action("done"))
    assert game.phase == MOVEMENT and game.to_act == "russian"
    assert not any(set(a.units) & ids for a in legal_actions(game))  # 8.15: no move


def test_24_37_r130_the_mine_attack_is_not_the_first_shot_the_grenade_attack_is() -> None:
    """8.22: 'no units are required to pass a PC for movement until either side rolls the dice to
    resolve combat (the first shot) ... Mine detonations (see MINES 19.0) do not count as combat for
    this purpose.' R130: 24.37's mine attack leaves movement without PCs; 24.35's grenade attack
    (test_24_35_a_hidden_infiltration_hex_fails_at_once_r130) brings them."""
    game = start()
    do(game, "infiltrate russian/A+russian/PL-PR10 1404")
    with_dice(game, 1, 1)
    do(game, "done")
    do(game, "place russian/A/LMG-PR8-1 1605 up")  # the mined hex
    play(game, legal_actions(game)[0])  # R161: the LMG faces before 24.37's mine attack
    with_dice(game, 1)  # the mine's die: E
    place_all(game, avoid=("1505", "1107"))
    assert game.unit("russian/A/LMG-PR8-1").where == ELIMINATED
    assert (game.turn, game.phase) == (1, SUPPORT_FIRE) and not game.shot_fired and not game.first_shot
