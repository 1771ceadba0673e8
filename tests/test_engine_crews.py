"""Crew replacements (20.0-20.3: engine/game/crews.py, results.lose_crew), rule by rule with exact
dice, on tests/fixtures/game/overrun.yaml: the German ATR (a crew of 2) in 1208 and 37AT (4) in
1108, squad E and a commander in 1106; each test moves infantry in with the gun by hand."""

from __future__ import annotations

from pathlib import Path

from engine.game import Action, legal_actions, new_game, parse, play
from engine.game.crews import IN_CREW, original_crew, replacements
from engine.game.results import apply_result, eliminate, lose_crew
from engine.game.state import MOVEMENT, REACTION, GameState
from engine.geometry.movement import Morale, State
from engine.model.scenario import load_scenario
from tests.test_engine_mines import no_more_dice
from tests.test_engine_overrun import place
from tests.test_engine_rules import with_dice

REPO = Path(__file__).resolve().parent.parent
OVERRUN = load_scenario(REPO / "tests" / "fixtures" / "game" / "overrun.yaml")
ATR = "german/ATR-1"
RIFLE, RIFLE_2, SMG, FT, PL = (
    "german/E/R-PR10-1",
    "german/E/R-PR8-1",
    "german/E/MP-PR10-1",
    "german/E/FT-PR9-1",
    "german/PL-PR11",
)


def to(game: GameState, phasing: str, phase: str) -> GameState:
    while not (game.phasing == phasing and game.phase == phase):
        play(game, Action("done"))
    game.caches = {}
    return game


def german_movement(short: int = 1) -> GameState:
    """The German Movement Phase of turn 1, the ATR short of `short` crew, the rifle, the SMG, the FT
    and the commander in its hex."""
    game = to(new_game(OVERRUN, 1), "german", MOVEMENT)
    game.unit(ATR).men -= short
    for unit_id in (RIFLE, SMG, FT, PL):
        place(game, unit_id, "1208")
    return game


def replace_texts(game: GameState) -> list[str]:
    return [a.text() for a in legal_actions(game) if a.verb == "replace"]


def with_a_replacement(game: GameState) -> None:
    """The rifle joins the ATR's crew at the end of the Movement Phase (20.1)."""
    play(game, Action("done"))
    play(game, parse(f"replace {RIFLE} {ATR}"))


def test_20_1_an_infantry_unit_with_a_cw_short_of_crew_becomes_a_replacement() -> None:
    """20.1: 'At the end of a friendly Movement Phase an infantry unit stacked with a CW unit may
    become a replacement. The infantry unit is removed from the map and its unit designation is noted
    next to that CW unit's crew boxes.' 20.0: 'If a CW unit is not fully crewed'. R118: infantry
    counters only, not a commander or a flamethrower."""
    game = german_movement()
    assert replace_texts(game) == []  # not before the phase's end
    play(game, Action("done"))
    assert game.closing
    assert replace_texts(game) == [f"replace {SMG} {ATR}", f"replace {RIFLE} {ATR}"]
    play(game, parse(f"replace {RIFLE} {ATR}"))
    atr, rifle = game.unit(ATR), game.unit(RIFLE)
    assert (atr.men, rifle.where, rifle.hex) == (2, IN_CREW, None)
    assert replacements(atr) == (RIFLE,) and original_crew(atr) == 1
    assert game.log[-1]["events"][0]["rule"] == "20.1"
    assert replace_texts(game) == []  # fully crewed again
    play(game, Action("done"))
    assert game.phase != MOVEMENT and not game.closing
    assert rifle.id not in {u.id for u in game.at(game.board.hex("1208"))}


def test_20_1_not_at_the_end_of_the_reaction_movement_phase() -> None:
    """20.1: 'At the end of a friendly Movement Phase' (R117: the side's own Movement Phase, not its
    Reaction Movement Phase, which 8.62 names apart: 'any friendly Movement Phase or Reaction
    Movement Phase')."""
    game = to(new_game(OVERRUN, 1), "russian", REACTION)
    game.unit(ATR).men = 1
    place(game, RIFLE, "1208")
    assert game.to_act == "german"
    play(game, Action("done"))
    assert game.closing  # the phase's end: its Assault markers (17.0), and no replacement
    assert replace_texts(game) == []


def test_20_2_no_replacements_once_every_original_crew_member_is_gone() -> None:
    """20.2: 'CW units may not take replacements if all of its original crew members have been
    eliminated.' (20.3 then turns the replacements back into infantry at once: a CW in that state is
    set up here by hand.)"""
    game = german_movement()
    atr = game.unit(ATR)
    atr.extra["original_crew"], atr.extra["replacements"] = 0, (RIFLE_2,)
    game.relocate(game.unit(RIFLE_2), IN_CREW, None)
    play(game, Action("done"))
    assert replace_texts(game) == []


def test_20_3_replacements_revert_once_the_original_crew_is_eliminated() -> None:
    """20.3: 'If, at any time, all the original crew members are eliminated and only replacements
    remain in the crew, the replacements revert to being infantry units. The CW unit is removed and
    the appropriate infantry units are placed in that hex in a SUPPRESSED morale status.' R119: each
    crew member rolls for himself (11.43), the original crew first."""
    game = german_movement()
    with_a_replacement(game)
    atr = game.unit(ATR)
    with_dice(game, 1, 1, 6, 6)  # the original 1+1 (killed), the replacement 6+6
    events = apply_result(game, atr, "E", "11.43")
    no_more_dice(game)
    rifle = game.unit(RIFLE)
    assert atr.where == "eliminated"
    assert (rifle.hex, rifle.morale, rifle.state) == (game.board.hex("1208"), Morale.SUPPRESSED, State.DOWN)
    assert [e["event"] for e in events if e.get("rule") == "20.3"] == ["reverted", "eliminated"]


def test_20_3_a_replacement_killed_leaves_the_original_crew_manning_the_cw() -> None:
    """R119: a crew member's own roll says who falls; a replacement killed is eliminated (20.1: 'part
    of the CW unit's crew for the remainder of the scenario') and the CW fights on, SUPPRESSED."""
    game = german_movement()
    with_a_replacement(game)
    atr = game.unit(ATR)
    with_dice(game, 6, 6, 2, 3)
    apply_result(game, atr, "E", "11.43")
    no_more_dice(game)
    assert (atr.men, original_crew(atr), replacements(atr), atr.morale) == (1, 1, (), Morale.SUPPRESSED)
    assert game.unit(RIFLE).where == "eliminated"


def test_20_3_a_loss_by_count_falls_at_random_on_the_crew() -> None:
    """R119: a loss that names no crew member (lose_crew with a count) falls at random: one die, 1-3
    the first of two members, 4-6 the second."""
    game = german_movement()
    with_a_replacement(game)
    atr = game.unit(ATR)
    with_dice(game, 3)
    events = lose_crew(game, atr, 1, "test")
    no_more_dice(game)
    assert atr.where == "eliminated" and game.unit(RIFLE).on_map  # the original fell: 20.3
    assert events[0]["event"] == "reverted"


def test_20_1_a_cw_eliminated_as_a_whole_takes_its_replacements_with_it() -> None:
    """20.1: the replacement is 'part of the CW unit's crew for the remainder of the scenario': a CW
    eliminated (an E in an assault, 17.23, or an overrun, 9.2 C) takes it along."""
    game = german_movement()
    with_a_replacement(game)
    events = eliminate(game, game.unit(ATR), "17.23")
    assert game.unit(RIFLE).where == "eliminated"
    assert [e["unit"] for e in events] == [ATR, RIFLE]
