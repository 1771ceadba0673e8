"""What is kept and patched by the units changed since (`GameState.changed_since`) is what is
worked out anew: the digest a log records at every phase's end (state_text.state_digest), the
Assault Phase's designations (assault.py); copies share what is kept."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.game import assault, legal_actions, new_game, play, state_text
from engine.game.state import ASSAULT, GameState
from engine.game.state_text import state_view
from engine.model.scenario import load_scenario

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = {p.stem: load_scenario(p) for p in sorted((REPO / "scenarios").glob("*.yaml"))}


def _written_anew(game: GameState) -> str:
    """The digest with nothing kept: a copy's, its caches emptied (the game's own marks untouched)."""
    twin = game.copy()
    twin.caches = {}
    return twin.digest()


def _another_way(game: GameState, rng: random.Random, most: int) -> GameState:
    """A copy of the game that plays on with random choices (up to `most`), sharing its caches."""
    twin = game.copy()
    for _ in range(rng.randint(1, most)):
        if twin.is_over:
            break
        play(twin, rng.choice(legal_actions(twin)))
    return twin


@pytest.mark.parametrize(
    ("scenario", "seed", "options"),
    [
        ("s1-demyansk-pocket", 4, None),
        ("s1-demyansk-pocket", 0, {"advanced": True}),
        pytest.param("s6-spartakovka", 1, None, marks=pytest.mark.slow),
    ],
)
def test_a_digest_patched_by_the_units_changed_is_the_digest_written_anew(
    scenario: str, seed: int, options: dict[str, bool] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every digest of a game's first 1,200 decisions (where, every few decisions, a copy goes
    another way and takes its own digests, keeping its parts in the caches they share) is the
    digest written with nothing kept; the game's own are patched unless a copy kept its parts since."""
    patched: list[bool] = []
    asked = GameState.changed_since

    def spied(game: GameState, mark: object, reader: str = "openings") -> tuple[set[str] | None, object]:
        changed, fresh = asked(game, mark, reader)
        if reader == "digest" and game is played:
            patched.append(changed is not None)
        return changed, fresh

    monkeypatch.setattr(GameState, "changed_since", spied)
    rng, game, checked = random.Random(seed), new_game(SCENARIOS[scenario], seed, options), 0
    played = game
    while not game.is_over and len(game.log) < 1200:
        choices = legal_actions(game)
        if rng.random() < 0.2:
            _another_way(game, rng, 8).digest()
        play(game, rng.choice(choices))
        if "digest" in game.log[-1]:
            assert game.log[-1]["digest"] == _written_anew(game), f"decision {len(game.log)}"
            checked += 1
    assert checked >= 40 and sum(patched) >= 10  # a copy's own digest in between: written anew


@pytest.mark.parametrize(
    ("scenario", "seed"), [("s1-demyansk-pocket", 0), pytest.param("s6-spartakovka", 0, marks=pytest.mark.slow)]
)
def test_the_digests_view_is_the_repr_of_the_view_at_every_phases_end(scenario: str, seed: int) -> None:
    """The digest writes its view as text (state_text._view_text), kept parts and all: at every
    phase's end of an advanced game (22.3's ammo, 21.0's MG modes in the view) it is the repr of
    the whole state's view with no units, as the digest hashed it."""
    rng, game, seen = random.Random(seed), new_game(SCENARIOS[scenario], seed, {"advanced": True}), ""
    while not game.is_over and len(game.log) < 1500:
        play(game, rng.choice(legal_actions(game)))
        if "digest" in game.log[-1]:
            text = state_text._view_text(game)
            assert text == repr(state_view(game, None, with_units=False)), f"decision {len(game.log)}"
            seen += text
    assert "'ammo': {" in seen and "'mg_modes': {" in seen and "'assault_markers': [{" in seen


def test_a_copy_and_its_original_that_each_change_a_unit_each_digest_their_own() -> None:
    """Copies share the kept parts and the changes noted since (a superset): a copy and its
    original, each changing another unit after a digest, each digest their own state, whichever
    asks first, as digests with nothing kept do."""
    rng, game = random.Random(2), new_game(SCENARIOS["s1-demyansk-pocket"], 2)
    while "digest" not in game.log[-1] or game.turn < 2:
        play(game, rng.choice(legal_actions(game)))
    first, second = list(game.units)[:2]
    for asks_first in ("copy", "original"):
        twin = game.copy()
        twin.changing(first).men += 1
        game.changing(second).men += 1
        order = (twin, game) if asks_first == "copy" else (game, twin)
        digests = [state.digest() for state in order]
        assert digests == [_written_anew(state) for state in order]
        assert digests[0] != digests[1]
        game.changing(second).men -= 1


@pytest.mark.parametrize(
    ("scenario", "seed"), [("s1-demyansk-pocket", 4), pytest.param("s6-spartakovka", 1, marks=pytest.mark.slow)]
)
def test_17_0_the_designations_patched_by_the_units_changed_are_those_worked_out_anew(
    scenario: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """17.0: the Assault Phase offers one designation a marked hex. Kept for the phase and worked
    out again only for the markers where a unit changed (`assault._phase_actions`): at every
    decision of a game's Assault Phases the listing is what a listing with nothing kept
    offers, and most markers listed are not worked out again."""
    worked = []
    designations = assault._designations

    def counted(game: GameState, h: object, target: object) -> list[object]:
        if game is played:
            worked.append(h)
        return designations(game, h, target)  # type: ignore[arg-type]

    monkeypatch.setattr(assault, "_designations", counted)
    rng, game, listed = random.Random(seed), new_game(SCENARIOS[scenario], seed), 0
    played = game
    while not game.is_over:
        choices = legal_actions(game)
        if game.phase == ASSAULT and not game.assault.get("fight") and game.interrupt is None:
            listed += sum(1 for side, _ in game.assault_markers.values() if side == game.to_act)
            twin = game.copy()
            twin.caches = {}
            assert legal_actions(twin) == choices, f"decision {len(game.log)}"
        play(game, rng.choice(choices))
    assert listed > 50 and len(worked) < listed / 2


def test_17_0_the_marks_kept_per_board_by_unit_and_state_are_those_worked_out_anew() -> None:
    """17.0: markers point toward a hex the unit may enter. The marks are kept per board by the
    hex, the unit and its state (`assault._marks`), for every game of the scenario: at every
    closing of a Scenario 1 game the listing is what a listing with nothing kept offers."""
    rng, game, closings = random.Random(2), new_game(SCENARIOS["s1-demyansk-pocket"], 2), 0
    while not game.is_over:
        choices = legal_actions(game)
        if game.closing:
            kept = game.board.caches.pop("assault_marks")
            twin = game.copy()
            twin.caches = {}
            assert legal_actions(twin) == choices, f"decision {len(game.log)}"
            game.board.caches["assault_marks"] = kept
            closings += 1
        play(game, rng.choice(choices))
    assert closings > 20


def test_8_0_every_phase_starts_with_no_unit_marked_for_the_last() -> None:
    """8.0, 8.3, 8.74, 6.0 H: what a unit holds for one phase (its MPs spent, its move done, a
    leader's cap, the marks of `play._FOR_THE_PHASE`) comes off as the next phase starts, and
    what it holds for a Player Turn (4.0: moved, fired; 8.21, 17.14) as the next starts; a start
    asks only the units changed since the last (`changed_since`). At every phase's start of a
    Scenario 1 game, where copies go other ways between, no unit holds any of it."""
    from engine.game.play import _FOR_THE_PHASE, _FOR_THE_PLAYER_TURN, _UNMOVED
    from engine.game.state import MORALE

    rng, game, starts = random.Random(4), new_game(SCENARIOS["s1-demyansk-pocket"], 4), 0
    while not game.is_over:
        choices = legal_actions(game)
        if rng.random() < 0.1:
            _another_way(game, rng, 30)
        phase = game.phase
        play(game, rng.choice(choices))
        if game.phase != phase and game.turn > 0 and not game.is_over:
            starts += 1
            for u in game.units.values():
                assert _FOR_THE_PHASE.isdisjoint(u.extra), (len(game.log), u.id)
                assert (u.mp_spent, u.move_done, u.allowance_cap, u.led_by) == _UNMOVED, (len(game.log), u.id)
                if game.phase == MORALE:
                    assert not (u.moved or u.fired), (len(game.log), u.id)
                    assert _FOR_THE_PLAYER_TURN.isdisjoint(u.extra), (len(game.log), u.id)
    assert starts > 50


def test_17_13_a_unit_pinned_at_a_closing_marks_no_more() -> None:
    """17.13: 'Only NORMAL status units may assault'; a closing's marks are kept while no unit
    changes (`assault.mark_actions`): a marking unit made PINNED between two listings is offered
    no mark at the next, as a listing with nothing kept offers."""
    from engine.geometry.movement import Morale

    rng, game = random.Random(2), new_game(SCENARIOS["s1-demyansk-pocket"], 2)
    while not (game.closing and any(a.verb == "mark" for a in legal_actions(game))):
        play(game, rng.choice(legal_actions(game)))
    marking = next(a for a in legal_actions(game) if a.verb == "mark").units[0]
    game.changing(marking).morale = Morale.PINNED
    offered = legal_actions(game)
    assert not any(a.units == (marking,) for a in offered)
    fresh = game.copy()
    fresh.caches = {}
    assert legal_actions(fresh) == offered


def test_changed_since_notes_a_unit_changed_again_after_its_reader_asked() -> None:
    """`changing` notes a unit once while it is the last one it noted (a move asks for its units
    again and again); a reader that asks in between, or a copy's, still learns of the next change."""
    game = new_game(SCENARIOS["s1-demyansk-pocket"], 1)
    uid = next(iter(game.units))
    _, mark = game.changed_since(None, "a")
    _, other_mark = game.changed_since(None, "b")
    game.changing(uid)
    game.changing(uid)
    changed, mark = game.changed_since(mark, "a")
    assert changed == {uid}
    game.changing(uid)
    changed, mark = game.changed_since(mark, "a")
    assert changed == {uid}
    twin = game.copy()
    twin.changing(uid)
    assert twin.changed_since(mark, "a")[0] == {uid}
    assert game.changed_since(other_mark, "b")[0] == {uid}
