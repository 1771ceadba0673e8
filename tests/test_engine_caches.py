"""What the engine keeps to list the choices fast (docs/engine.md, Speed) never changes a game.

Copies of a state share the caches (`GameState.caches`: each key says all its value
depends on), so a copy that goes another way must not change what the original is offered
next; and the copying `apply` plays the same game as `play` in place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from engine.game import Action, apply, legal_actions, new_game, play
from engine.game.sightlines import blockers
from engine.game.stacks import _stacking_problems, stacking_problems
from engine.game.state import LASTING_CACHES, GameState
from engine.game.steps import _movement_cost, _step_costs
from engine.game.units import ON_MAP, WAITING
from engine.geometry.movement import Morale, Mover, Phase, State, UnitClass, movement_cost
from engine.model.counters import SIDES
from engine.model.scenario import load_scenario
from engine.players import make_player

REPO = Path(__file__).resolve().parent.parent
S1 = load_scenario(REPO / "scenarios" / "s1-demyansk-pocket.yaml")
SCENARIOS = {p.stem: load_scenario(p) for p in sorted((REPO / "scenarios").glob("*.yaml"))}


def _choices(game: GameState) -> list[str]:
    return [a.text() for a in legal_actions(game)]


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [
        ("s1-demyansk-pocket", 11),
        *(
            pytest.param(name, seed, marks=pytest.mark.slow)
            for name, seed in (("s1-demyansk-pocket", 3), ("s6-spartakovka", 2))
        ),
    ],
)
def test_copies_that_go_another_way_do_not_change_what_the_game_is_offered(scenario: str, seed: int) -> None:
    """A game played in place while, every few decisions, a copy takes another choice and plays
    on for a while (filling the shared caches with its own states) is offered at every step
    exactly what a fresh game of the same actions is offered (the first 2,000 decisions)."""
    played = SCENARIOS[scenario]
    rng, game, offered, taken = random.Random(seed), new_game(played, seed), [], []
    while not game.is_over and len(taken) < 2000:
        choices = legal_actions(game)
        offered.append([a.text() for a in choices])
        if len(choices) > 1 and rng.random() < 0.2:
            twin = game.copy()
            for _ in range(rng.randint(1, 8)):
                if twin.is_over:
                    break
                play(twin, rng.choice(legal_actions(twin)))
        action = rng.choice(choices)
        taken.append(action)
        play(game, action)
    fresh = new_game(played, seed)
    for n, action in enumerate(taken):
        assert _choices(fresh) == offered[n], f"decision {n}: {action.text()}"
        play(fresh, action)
    assert fresh.log == game.log


def test_the_copying_apply_plays_the_same_game_as_play_in_place() -> None:
    """Scenario 1, seed 5: the same choices at every step and the same log (digests included)."""
    rng_a, rng_b = random.Random(5), random.Random(5)
    in_place, copied = new_game(S1, 5), new_game(S1, 5)
    while not in_place.is_over:
        a, b = legal_actions(in_place), legal_actions(copied)
        assert a == b
        play(in_place, rng_a.choice(a))
        copied = apply(copied, rng_b.choice(b))
    assert copied.is_over and copied.log == in_place.log


@pytest.mark.parametrize(("seed", "decisions"), [(4, 400), pytest.param(9, 5000, marks=pytest.mark.slow)])
def test_what_is_kept_from_phase_to_phase_offers_what_a_listing_without_caches_offers(
    seed: int, decisions: int
) -> None:
    """Some caches stay from phase to phase (state.LASTING_CACHES: openings, starts, steps, lines,
    keyed by all they depend on, the phase where it counts). A Scenario 1 game played with them
    is offered at every decision what the same state is offered with no cache at all (its first
    `decisions`: 400 are two Game Turns)."""
    rng, game, carried = random.Random(seed), new_game(S1, seed), 0
    while not game.is_over and len(game.log) <= decisions:
        kept = game.caches
        choices = _choices(game)
        game.caches = {}
        assert _choices(game) == choices, f"decision {len(game.log)}: {game.phase}"
        game.caches = kept
        phase = game.phase
        play(game, legal_actions(game)[rng.randrange(len(choices))])
        carried += game.phase != phase and any(game.caches.get(name) for name in LASTING_CACHES)
    assert carried >= 10  # phases began with what the phases before kept


@pytest.mark.parametrize(
    ("scenario", "seed", "decisions"),
    [("s1-demyansk-pocket", 6, 400), pytest.param("s6-spartakovka", 1, 260, marks=pytest.mark.slow)],
)
def test_what_is_kept_until_units_move_offers_what_a_listing_with_nothing_kept_offers(
    scenario: str, seed: int, decisions: int
) -> None:
    """What a state keeps with its index of who stands where (`GameState.kept`: the phase's
    openings, every hex's Assault marks, the closing's and the set-up's choices) and the caches
    are dropped at every decision: the same state, with nothing kept, is offered the same choices
    (Scenario 1's first two Game Turns; Scenario 6's set-up, its mines and placements)."""
    rng, game = random.Random(seed), new_game(SCENARIOS[scenario], seed)
    while not game.is_over and len(game.log) <= decisions:
        choices = _choices(game)
        kept = (game.caches, game._at, game._totals, game._signatures, game._around, game._kept, game._kept_shared)
        game.caches, game._at = {}, None  # the index built again: what is kept with it starts empty
        assert _choices(game) == choices, f"decision {len(game.log)}: {game.phase}"
        game.caches, game._at, game._totals, game._signatures, game._around, game._kept, game._kept_shared = kept
        play(game, legal_actions(game)[rng.randrange(len(choices))])


def test_a_copy_that_changes_a_unit_in_place_does_not_give_the_original_its_hexs_starts() -> None:
    """Each hex's movement starts are kept per state (`GameState.hex_starts`) and shared with a
    copy: a copy that changes a unit where it stands (here: done moving, 8.0) before any listing of
    its hex keeps what it then lists to itself; the original is offered what it is with nothing kept."""
    rng, game = random.Random(2), new_game(S1, 2)
    checked = 0
    while not game.is_over and checked < 5:
        choices = legal_actions(game)
        moves = [a for a in choices if a.verb == "move" and game.unit(a.units[0]).on_map and not game.active]
        if game.phase in ("movement", "reaction_movement") and game.interrupt is None and moves:
            game.caches = {}
            assert game.hex_starts() == {}  # nothing kept yet: the copy's hex is not among them
            twin = game.copy()
            twin.changing(moves[0].units[0]).move_done = True
            assert moves[0] not in legal_actions(twin)
            offered = _choices(game)
            game.caches, game._at = {}, None
            assert offered == _choices(game), f"decision {len(game.log)}: {moves[0].text()}"
            assert moves[0].text() in offered
            checked += 1
        play(game, rng.choice(choices))
    assert checked == 5


def test_8_23_a_copy_that_moves_an_enemy_into_the_moving_units_way_does_not_give_the_original_its_next_steps() -> None:
    """8.23: a unit may not enter a hex with a visible enemy unit. The moving unit's next choices
    are kept until units move (`movement._continue`, `GameState.kept`, which a copy shares): a
    copy that puts an enemy unit in a hex the moving unit would step into next is offered no step
    there, as with nothing kept, and the original is still offered it."""
    rng, game = random.Random(4), new_game(S1, 4)
    checked = 0
    while not game.is_over and checked < 5:
        choices = legal_actions(game)
        moving = game.unit(game.active[0]) if len(game.active) == 1 else None
        steps = [a for a in choices if moving is not None and a.verb == "move" and a.units == (moving.id,)]
        empty = [a for a in steps if not game.at(game.hex(a.arg))]
        enemy = next(
            (u for u in game.units.values() if moving and u.side != moving.side and u.on_map and not u.hidden), None
        )
        if empty and enemy is not None:
            twin = game.copy()
            twin.relocate(enemy, ON_MAP, game.hex(empty[0].arg))
            offered = _choices(twin)
            assert empty[0].text() not in offered
            twin.caches, twin._at = {}, None
            assert offered == _choices(twin), f"decision {len(game.log)}: {empty[0].text()}"
            assert empty[0] in legal_actions(game)
            checked += 1
        play(game, rng.choice(choices))
    assert checked == 5


def test_a_copy_that_changes_units_in_place_does_not_give_the_original_its_lined_openings() -> None:
    """Each unit's openings with their lines are kept for the fire phase across a loss of men
    (`shot._lined_openings`, in the caches a copy shares), by the targets with their AFVs, where
    the AFVs and Wrecks stand, and each unit's hex, facing and state: a copy whose target loses a
    man, and a copy whose target hex is emptied, list their own openings first; the original is
    offered what it is with nothing kept, and so are they."""
    from engine.game.fire import AIM
    from engine.game.units import ELIMINATED

    rng, game = random.Random(3), new_game(S1, 3)
    checked = 0
    while not game.is_over and checked < 5:
        choices = legal_actions(game)
        aims = [a for a in choices if a.verb == AIM]
        if game.interrupt is None and game.attack is None and aims:
            game.caches, game._at = {}, None  # nothing kept: the copies list first
            hit, emptied = game.copy(), game.copy()
            target = next(u for u in hit.at(hit.hex(aims[0].arg)) if u.side != hit.to_act)
            hit.changing(target).men -= 1  # results.lose_crew's way: the index is built again
            hit.units_changed()
            for unit in emptied.at(emptied.hex(aims[0].arg)):
                emptied.relocate(unit, ELIMINATED, None)
            states = (hit, emptied, game)
            offered = [_choices(state) for state in states]
            for state, choices_then in zip(states, offered, strict=True):
                state.caches, state._at = {}, None
                assert choices_then == _choices(state), f"decision {len(game.log)}: {aims[0].text()}"
            assert aims[0].text() in offered[2] and aims[0].text() not in offered[1]
            checked += 1
        play(game, rng.choice(choices))
    assert checked == 5


def test_a_copy_that_turns_a_firer_down_does_not_give_the_original_its_lined_openings() -> None:
    """10.31 c: a DOWN unit's line through a Marsh hex is blocked (1620, on the line from 1622 to
    1618), an UP unit's is not: a copy that turns the rifle DOWN where it stands lists its openings
    first (none at 1618), and the original, UP, is still offered its aim."""
    from engine.game import Action
    from engine.game.state import SUPPORT_FIRE
    from tests.test_engine_fire import away, game_at, put

    game = game_at("german", SUPPORT_FIRE)
    away(game, "russian/A/R-PR9-1", "german/D/R-PR9-1")
    put(game, "russian/A/R-PR9-1", "1618")
    put(game, "german/D/R-PR9-1", "1622")
    aim = Action("aim", ("german/D/R-PR9-1",), "1618")
    game.caches, game._at = {}, None
    twin = game.copy()
    twin.changing("german/D/R-PR9-1").state = "down"
    assert aim not in legal_actions(twin)
    assert aim in legal_actions(game)


@pytest.mark.parametrize(("seed", "options"), [(1, None), (0, {"advanced": True})])
def test_a_fire_listing_patched_by_the_units_changed_offers_what_a_listing_with_nothing_kept_offers(
    seed: int, options: dict[str, bool] | None
) -> None:
    """A fire phase's openings are listed again after a shot only for the units changed since
    the last listing (`shot.openings_by_unit`, `GameState.changed_since`): every decision of
    Scenario 1's fire phases (its first 1,500 decisions; under the advanced rules too, with MG
    modes, 21.0, and ammunition, 22.0) is offered what a listing with nothing kept offers, and the
    patch is what most listings after the first of a phase are."""
    from engine.game.firing import FIRE_PHASES, firing_side

    rng, game, offered, taken, patched = random.Random(seed), new_game(S1, seed, options), [], [], 0
    while not game.is_over and len(taken) < 1500:
        held = game._kept.get(("openings", firing_side(game)))
        before = held[0][2] if held else {}
        choices = legal_actions(game)
        after = game._kept.get(("openings", firing_side(game)))
        if before and after and after[0][2] is not before:  # a unit's list kept: the rest patched
            patched += any(its and its is after[0][2].get(i) for i, its in before.items())
        offered.append([a.text() for a in choices] if game.phase in FIRE_PHASES else None)
        taken.append(rng.choice(choices))
        play(game, taken[-1])
    fresh = new_game(S1, seed, options)
    for n, action in enumerate(taken):
        if offered[n] is not None:
            fresh.caches, fresh._at = {}, None
            assert _choices(fresh) == offered[n], f"decision {n}: {action.text()}"
        play(fresh, action)
    assert patched >= 20


def test_a_copy_that_changes_a_firer_does_not_give_the_original_its_patched_openings() -> None:
    """The patched openings (`shot.openings_by_unit`) are kept with the index of `at`, which a
    copy shares, and so are the changes since (`GameState.changed_since`): a copy's firer has fired
    (10.11), the original's other firer too; the original, listed first, offers the copy's firer's
    aims but not its own's, and the copy the other way round, as listings with nothing kept do."""
    from engine.game.fire import AIM

    rng, game = random.Random(3), new_game(S1, 3)
    checked = 0
    while not game.is_over and checked < 5:
        choices = legal_actions(game)
        aims = [a for a in choices if a.verb == AIM]
        if game.interrupt is None and game.attack is None and len({a.units for a in aims}) > 1:
            twin = game.copy()
            twin.changing(aims[0].units[0]).fired = True
            game.changing(aims[-1].units[0]).fired = True
            mine = _choices(game)  # first: patched by the changes of both
            offered = _choices(twin), mine
            assert aims[0].text() not in offered[0] and aims[-1].text() in offered[0]
            assert aims[0].text() in offered[1] and aims[-1].text() not in offered[1]
            for state, choices_then in zip((twin, game), offered, strict=True):
                state.caches, state._at = {}, None
                assert choices_then == _choices(state), f"decision {len(game.log)}: {aims[0].text()}"
            game.changing(aims[-1].units[0]).fired = False
            checked += 1
        play(game, rng.choice(choices))
    assert checked == 5


def _at_an_entry() -> tuple[GameState, list[Action]]:
    """A Scenario 1 game (seed 1) at its first movement listing that offers waiting units' entries
    (24.1), no unit moving, and those entries."""
    rng, game = random.Random(1), new_game(S1, 1)
    while not game.is_over:
        choices = legal_actions(game)
        entering = [a for a in choices if a.verb == "move" and game.unit(a.units[0]).where == WAITING]
        if entering and game.interrupt is None and not game.active:
            return game, entering
        play(game, rng.choice(choices))
    raise AssertionError("no entry offered")


def test_a_unit_put_back_to_wait_off_the_map_is_offered_its_entries_again() -> None:
    """24.1: a waiting unit enters the map by its entries. The movement listing is kept and patched
    with the hexes a move touches (`GameState.starts_listing`); a unit that joins the units off the
    map (a player's drawn state puts an unseen one back to wait: determinize.py) is offered its
    entries at once, as with nothing kept."""
    game, entering = _at_an_entry()
    unit = game.unit(entering[0].units[0])
    game.relocate(unit, ON_MAP, game.hex(entering[0].arg))
    game.caches = {}  # the listing made anew and kept with the unit on the map
    assert entering[0] not in legal_actions(game)
    game.relocate(unit, WAITING, None)
    offered = _choices(game)
    assert entering[0].text() in offered
    game.caches, game._at = {}, None
    assert offered == _choices(game)


def test_8_0_once_the_rest_moves_an_afv_alone_is_no_longer_offered_by_the_kept_listing() -> None:
    """8.0: 'AFVs alone, then AFV/infantry stacks, then the rest'. A hex's kept movement starts
    hold at any order reached unless an AFV may start there (`starts._hex_entry`): once a unit of
    the rest moves, the kept listing drops the AFV's moves, as a listing with nothing kept does."""
    rng, game = random.Random(4), new_game(SCENARIOS["s6-spartakovka"], 4)
    while not game.is_over:
        choices = legal_actions(game)
        afv = [a for a in choices if a.verb == "move" and game.unit(a.units[0]).is_afv and len(a.units) == 1]
        rest = [a for a in choices if a.verb == "move" and not any(game.unit(i).is_afv for i in a.units)]
        if afv and rest and not game.active and game.interrupt is None:
            break
        play(game, rng.choice(choices))
    assert afv and rest, "no AFV and infantry offered a move together"
    side = game.to_act
    play(game, rest[0])
    while game.to_act != side or game.interrupt is not None:  # the enemy's answer (13.0)
        play(game, legal_actions(game)[0])
    offered = _choices(game)
    assert afv[0].text() not in offered
    game.caches, game._at = {}, None
    assert offered == _choices(game)


def test_3_13_phase_h_offers_what_a_listing_with_nothing_kept_offers() -> None:
    """3.13: 'Both players may change the combat states of any of their units once at the end of
    any Assault Phase at no MP cost' (6.0 H). The units that may are kept for the phase by side
    and their actions patched by the units changed since the last listing (`play._free_state_actions`):
    at every decision of the phase the game is offered what it is with nothing kept, and a copy
    that changes a unit's state keeps that to itself."""
    rng, game = random.Random(3), new_game(S1, 3)
    checked = 0
    while not game.is_over:
        choices = legal_actions(game)
        if game.phase == "free_state_change":
            offered = _choices(game)
            changes = [a for a in choices if a.verb == "state"]
            if changes:
                twin = game.copy()
                play(twin, changes[0])
                assert changes[0] not in legal_actions(twin)
                assert offered == _choices(game)
            fresh = game.copy()
            fresh.caches = {}
            assert offered == _choices(fresh), f"decision {len(game.log)}"
            checked += 1
        play(game, rng.choice(choices))
    assert checked > 20


def test_24_1_r44_a_waiting_unit_is_offered_the_entry_hexes_its_mps_reach() -> None:
    """24.1 and R44: a waiting unit enters on an entry hex whose own terrain its MPs pay for. Which
    hexes those are is kept per board by how the unit moves, its MPs and the hexes open
    (`steps._entry_reach`), for every game: a unit with fewer MPs (8.3 C's cap) is offered what a
    listing with nothing kept offers, here no entry at all."""
    game, entering = _at_an_entry()
    assert game.board.caches.get("game_entry_reach")
    game.changing(entering[0].units[0]).allowance_cap = 0.5  # less than any hex's own cost
    game.caches = {}
    offered = _choices(game)
    assert not any(a.startswith(f"move {entering[0].units[0]} ") for a in offered)
    game.board.caches.pop("game_entry_reach")
    game.caches, game._at = {}, None
    assert offered == _choices(game)


def test_8_5_8_52_a_kept_movement_cost_is_what_the_chart_gives_every_mover_alike() -> None:
    """8.5 prices a hex by AFV or not and UP or DOWN; 8.52's road rate is for 'NORMAL status units
    in an UP state', and a unit not NORMAL is DOWN (3.26). The costs kept per board
    (`steps._movement_cost`, `_step_costs`) are keyed by those two alone, so every facing, Movement
    Allowance, morale and phase of a mover reads what `movement_cost` works out for it."""
    game = new_game(S1, 1)
    board = game.board
    origin = next(
        h for h in sorted(board.hexes) if any(t in board.road_neighbours.get(h, ()) for t in game.neighbours(h))
    )
    movers = [
        Mover(UnitClass.AFV, State.UP, Morale.NORMAL, phase, 6.0, facing)
        for phase in (Phase.MOVEMENT, Phase.REACTION)
        for facing in range(6)
    ]
    movers += [
        Mover(UnitClass.INFANTRY, state, morale)
        for state, morale in (*((State.DOWN, m) for m in Morale), (State.UP, Morale.NORMAL))
    ]
    for mover in movers:
        assert _step_costs(game, origin, mover) == [
            movement_cost(board, origin, t, mover) for t in game.neighbours(origin)
        ]
        for t in game.neighbours(origin):
            assert _movement_cost(game, origin, t, mover) == movement_cost(board, origin, t, mover)


def test_a_zone_changed_between_two_games_of_one_scenario_is_resolved_anew() -> None:
    """A scenario's named zones are resolved once for all its games on its own maps (new_game:
    `ScenarioContext.share_zones`), by the zones, north indicator and maps as they are: a game
    begun after the German area changed (24.1) deploys in the new area, not in the one kept."""
    scenario = load_scenario(REPO / "tests" / "fixtures" / "game" / "duel-open.yaml")
    first = new_game(scenario, 1)
    south = first.zone_hexes("german-area")
    scenario.zones["german-area"]["area"] = {"side_of": {"side": "south", "row": 8}}
    second = new_game(scenario, 1)
    narrower = second.zone_hexes("german-area")
    assert narrower < south
    assert {a.arg for a in legal_actions(second) if a.verb == "place"} == {second.label_of(h) for h in narrower}
    assert first.zone_hexes("german-area") == south


def test_the_afvs_and_wrecks_that_block_lines_are_where_they_stand_at_every_decision() -> None:
    """10.31 b counts 'AFV units, or Wreck markers' in the hexes a line passes: the count by hex
    (`sightlines.blockers`, worked from the AFVs' ids kept for the phase, after every step of a move)
    is at every decision of a Scenario 6 random game (seed 1) the AFVs on the map in each hex plus
    its Wreck, as AFVs enter and move, until one is destroyed."""
    game, seen = new_game(SCENARIOS["s6-spartakovka"], 1), set()
    players = {"german": make_player("random", 1), "russian": make_player("random", 2)}
    while not game.is_over and not (game.wrecks and len(seen) >= 6):
        expected: dict[object, int] = {}
        for h, units in game.occupied().items():
            if any(u.is_afv for u in units):
                expected[h] = sum(1 for u in units if u.is_afv)
        for h in game.wrecks:
            expected[h] = expected.get(h, 0) + 1
        assert blockers(game) == expected, f"decision {len(game.log)}"
        seen.add(tuple(sorted(expected.items())))
        play(game, players[game.to_act].choose(None, legal_actions(game)))
    assert len(seen) >= 6 and game.wrecks


def test_8_62_the_hexes_over_the_stacking_limit_kept_until_units_move_are_those_found_from_every_hex() -> None:
    """8.62: 'more than six men plus one AFV' (8.63: two CWs) in a hex. The hexes over the limit
    are kept until units move (`GameState.kept`): at every decision of a Scenario 1 random game's
    first two Game Turns, and at every step as seven men gather in one hex and leave it again,
    they are, for each side, those found from every occupied hex with nothing kept."""
    game = new_game(S1, 3)
    players = {"german": make_player("random", 3), "russian": make_player("random", 4)}
    while len(game.log) < 600 or game.phase != "movement":
        for side in SIDES:
            assert stacking_problems(game, side) == _stacking_problems(game, side), f"decision {len(game.log)}"
        play(game, players[game.to_act].choose(None, legal_actions(game)))
    side = game.phasing
    men = [u for u in game.side_units(side) if u.on_map and not u.is_afv and u.kind != "cw"][:7]
    homes = [u.hex for u in men]
    assert len(set(homes)) > 1
    over = []
    for unit, home in [*((u, homes[0]) for u in men[1:]), *zip(men[1:], homes[1:], strict=True)]:
        game.relocate(game.unit(unit.id), ON_MAP, home)
        assert stacking_problems(game, side) == _stacking_problems(game, side)
        over.append(homes[0] in stacking_problems(game, side))
    assert over[5] and not over[-1]  # seven men and more in the hex, then as they stood


def test_8_62_a_copy_that_over_fills_a_hex_keeps_the_hex_over_the_limit_to_itself() -> None:
    """A copy shares what its original keeps until either moves a unit: a copy that moves seven
    men of a side into one hex finds it over 8.62's limit; the original, which found its hexes
    before the copy was made, still finds them as they stand in it."""
    game = new_game(S1, 2)
    players = {"german": make_player("random", 2), "russian": make_player("random", 3)}
    while game.phase != "movement":
        play(game, players[game.to_act].choose(None, legal_actions(game)))
    side = game.phasing
    men = [u for u in game.side_units(side) if u.on_map and not u.is_afv and u.kind != "cw"][:7]
    before = stacking_problems(game, side)
    twin = game.copy()
    target = men[0].hex
    assert target is not None and target not in before
    for unit in men[1:]:
        twin.relocate(unit, ON_MAP, target)
    assert target in stacking_problems(twin, side) == _stacking_problems(twin, side)
    assert stacking_problems(game, side) == before == _stacking_problems(game, side)


def test_24_1_8_23_a_waiting_units_kept_entries_bar_the_hex_an_enemy_moves_into() -> None:
    """24.1: a waiting unit enters by its entry hexes; 8.23: not into a visible enemy unit's hex. Its
    entry moves are kept until units move (`starts._entry_moves`, `GameState.kept`, which a copy
    shares): a copy that puts a visible enemy unit into one of them is offered no entry there, as
    with nothing kept, and the original is still offered it."""
    rng, game = random.Random(1), new_game(S1, 1)
    checked = 0
    while not game.is_over and checked < 5:
        choices = legal_actions(game)
        entries = [a for a in choices if a.verb == "move" and game.unit(a.units[0]).where == WAITING]
        if entries and game.interrupt is None and any(a.verb == "move" and a not in entries for a in choices):
            entry = rng.choice(entries)
            side = game.unit(entry.units[0]).side
            enemy = next(u for u in game.units.values() if u.side != side and u.on_map and not u.hidden)
            twin = game.copy()
            twin.relocate(enemy, ON_MAP, game.hex(entry.arg))
            offered = _choices(twin)
            assert entry.text() not in offered
            twin.caches, twin._at = {}, None
            assert offered == _choices(twin), f"decision {len(game.log)}: {entry.text()}"
            assert entry in legal_actions(game)
            checked += 1
        play(game, rng.choice(choices))
    assert checked == 5


def test_24_1_r84_the_entries_a_later_turn_opens_are_offered_though_the_last_phases_were_kept(tmp_path: Path) -> None:
    """24.1, R84: a waiting unit enters by the options of this turn or an earlier one. Its entry
    moves are kept until units move (`GameState.kept`), for the phase only: Scenario 1 with the
    north edge open on turn 1 and the east edge too on turn 2 offers the waiting units, at turn 2's
    Movement Phase with no unit moved, what a listing with nothing kept offers: both edges."""
    data = yaml.safe_load((REPO / "scenarios" / "s1-demyansk-pocket.yaml").read_text(encoding="utf-8"))
    data["sides"]["russian"]["entries"][0]["options"] = [
        {"zone": {"map_edge": "north"}, "turn": 1, "phase": "movement"},
        {"zone": "russian-entry", "turn": 2, "phase": "movement"},
    ]
    data["assertions"] = []  # Scenario 1's own: its infantry's turns to the objectives from turn 1's entries
    path = tmp_path / "s1.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    game = new_game(load_scenario(path), 1)

    def entries() -> set[str]:
        return {a.text() for a in legal_actions(game) if a.verb == "move" and game.unit(a.units[0]).where == WAITING}

    while not (game.phase == "movement" and game.interrupt is None and entries()):
        play(game, legal_actions(game)[-1])
    first = entries()
    game.turn = 2
    game.next_phase_caches()  # as turn 2's Movement Phase begins, with no unit moved since
    second = entries()
    game.caches, game._at = {}, None
    assert second == entries() > first


def test_24_1_19_11_18_1_24_21_the_set_up_offers_what_a_listing_with_nothing_kept_offers() -> None:
    """24.1: the set-up's placements, then its mines (19.11, 19.12), IPs (18.1, R86: one a hex), hidden
    hexes (24.21) and states (3.12). What the set-up keeps (the IP markers left and their hexes by
    the IPs placed, the hidden hexes' choices until units move, hide or are revealed, the mined
    hexes' refusals by their factors) gives at every decision of Scenario 6's set-up (seed 3) what
    the same state offers with nothing kept."""
    rng, game = random.Random(3), new_game(SCENARIOS["s6-spartakovka"], 3)
    verbs = set()
    while game.phase == "setup":
        choices = _choices(game)
        kept = (game.caches, game._at, game._totals, game._signatures, game._around, game._kept, game._kept_shared)
        game.caches, game._at = {}, None
        assert _choices(game) == choices, f"decision {len(game.log)}"
        game.caches, game._at, game._totals, game._signatures, game._around, game._kept, game._kept_shared = kept
        action = legal_actions(game)[rng.randrange(len(choices))]
        verbs.add(action.verb)
        play(game, action)
    assert {"place", "mine", "ip", "hide", "state"} <= verbs
