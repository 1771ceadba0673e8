"""Crew replacements (20.0): at the end of its own Movement Phase a side may make an infantry unit
stacked with a CW that is not fully crewed part of that CW's crew (20.1, `replace INFANTRY CW`);
which crew members a loss takes, and the replacements' return to the map once no original crew
member is left (20.3).

A CW's roster is its original crew members first, then its replacements in the order taken:
`extra["original_crew"]` (how many originals are left) and `extra["replacements"]` (the ids of
the infantry units in its crew, a tuple: a copied state shares `extra`'s values). Both are set
with the first replacement; a CW without them has only its original crew. A replacement unit is
off the map (`where` IN_CREW) until it is killed with the crew (ELIMINATED) or reverts (20.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.geometry.movement import Morale, State

from .actions import Action, IllegalAction, verb
from .state import MOVEMENT, GameState
from .units import ELIMINATED, ON_MAP, Unit

REPLACE = verb("replace")  # 20.1: replace INFANTRY CW
IN_CREW = "crew"  # where a replacement is: 'removed from the map', in a CW's crew (20.1)

Events = list[dict[str, Any]]


def replacements(cw: Unit) -> tuple[str, ...]:
    """The ids of the infantry units in the CW's crew (20.1), in the order taken."""
    return tuple(cw.extra.get("replacements", ()))


def original_crew(cw: Unit) -> int:
    """How many of the CW's original crew members are left (20.2, 20.3)."""
    return int(cw.extra.get("original_crew", cw.men - len(replacements(cw))))


def may_replace(unit: Unit) -> bool:
    """R118: 20.0's 'regular infantry units': an infantry counter of a squad (rifles, SMGs, LMGs),
    not a commander (5.1) nor a flamethrower (2.21's FT, a unit of its own kind)."""
    return unit.kind == "infantry"


def replacement_actions(game: GameState) -> list[Action]:
    """20.1: 'At the end of a friendly Movement Phase' (R117: the side's own Movement Phase, 6.0 C,
    not its Reaction Movement Phase) 'an infantry unit stacked with a CW unit may become a
    replacement': for each CW of the phasing side on the map short of its full crew (20.0) with an
    original crew member left (20.2), each infantry unit of that side in its hex."""
    if game.phase != MOVEMENT:
        return []
    side = game.phasing
    kept: dict[str, tuple[str, ...]] = game.caches.setdefault("crew_weapons", {})  # ids: copies share it
    if side not in kept:  # the side's CWs by id, for the phase (a closing lists them after every marker)
        kept[side] = tuple(sorted(u.id for u in game.side_units(side) if u.kind == "cw"))
    actions = []
    for cw in [game.units[i] for i in kept[side]]:
        if not cw.on_map or cw.hex is None:
            continue
        if cw.men >= int(cw.extra.get("full_crew", cw.men)) or original_crew(cw) <= 0:
            continue
        stacked = sorted((u for u in game.at(cw.hex) if u.side == side and may_replace(u)), key=lambda u: u.id)
        actions += [Action(REPLACE, (u.id,), cw.id) for u in stacked]
    return actions


def apply_replacement(game: GameState, action: Action) -> list[dict[str, Any]]:
    """20.1: 'The infantry unit is removed from the map and its unit designation is noted next to
    that CW unit's crew boxes': the CW's crew one more, the unit off the map in its crew."""
    if action not in replacement_actions(game):
        raise IllegalAction(f"{action.text()}: an infantry unit stacked with a CW short of crew", "20.1")
    unit, cw = game.changing(action.units[0]), game.changing(action.arg)
    cw.extra["original_crew"] = original_crew(cw)
    cw.extra["replacements"] = (*replacements(cw), unit.id)
    cw.men += 1
    game.relocate(unit, IN_CREW, None)
    return [
        {
            "event": "replacement",
            "unit": unit.id,
            "cw": cw.id,
            "hex": game.label(cw.hex),
            "crew": cw.men,
            "rule": "20.1",
        }
    ]


def lose_members(game: GameState, cw: Unit, killed: int, rule: str, members: Sequence[int] | None) -> Events:
    """A CW with replacements loses `killed` crew members (results.lose_crew calls this). R119:
    `members` are the positions in the roster (originals first, then replacements) of those killed,
    where each crew member rolled for himself (11.43's 'two dice per crew member', in roster order);
    without them each loss falls at random on a member left (`game.dice`). Killed replacements are
    eliminated; then 20.3. The caller eliminates a CW left with no crew."""
    originals, crew = original_crew(cw), list(replacements(cw))
    roster: list[str | None] = [None] * originals + list(crew)
    if members is None:
        chosen: list[int] = []
        for _ in range(min(killed, len(roster))):
            left = [i for i in range(len(roster)) if i not in chosen]
            chosen.append(left[_pick(game, len(left))])
        members = chosen
    dead = set(members)
    events: Events = []
    for i in sorted(dead):
        replacement = roster[i]
        if replacement is not None:
            game.relocate(game.unit(replacement), ELIMINATED, None)
            events.append({"event": "eliminated", "unit": replacement, "in_crew_of": cw.id, "rule": rule})
    originals -= sum(1 for i in dead if roster[i] is None)
    crew = [r for i, r in enumerate(roster) if r is not None and i not in dead]
    cw = game.changing(cw)
    cw.extra["original_crew"], cw.extra["replacements"] = originals, tuple(crew)
    cw.men = originals + len(crew)
    game.units_changed()
    if originals == 0 and crew:
        events += _revert(game, cw)
    return events


def _pick(game: GameState, n: int) -> int:
    """One of n (at most 6) alike at random with one die: faces past the last multiple of n are
    rolled again."""
    assert 1 <= n <= 6
    if n == 1:
        return 0
    per = 6 // n
    while True:
        (face,) = game.dice.roll(1)
        if face <= per * n:
            return (face - 1) // per


def _revert(game: GameState, cw: Unit) -> Events:
    """20.3: 'If, at any time, all the original crew members are eliminated and only replacements
    remain in the crew, the replacements revert to being infantry units. The CW unit is removed and
    the appropriate infantry units are placed in that hex in a SUPPRESSED morale status' (R120: DOWN
    as well, 3.25; the CW counts as eliminated)."""
    h = cw.hex
    back = replacements(cw)
    cw = game.changing(cw)
    for unit_id in back:
        unit = game.changing(unit_id)
        game.relocate(unit, ON_MAP, h)
        unit.morale, unit.state, unit.hidden = Morale.SUPPRESSED, State.DOWN, cw.hidden
    cw.extra["replacements"] = ()
    cw.men = 0
    game.relocate(cw, ELIMINATED, None)
    cw.hidden = False
    return [
        {"event": "reverted", "cw": cw.id, "hex": game.label(h), "units": list(back), "rule": "20.3"},
        {"event": "eliminated", "unit": cw.id, "hex": game.label(h), "rule": "20.3"},
    ]


def crew_eliminated(game: GameState, cw: Unit, rule: str) -> Events:
    """A CW eliminated as a whole (an E in an assault, an overrun) takes its replacements with it."""
    events: Events = []
    for unit_id in replacements(cw):
        game.relocate(game.unit(unit_id), ELIMINATED, None)
        events.append({"event": "eliminated", "unit": unit_id, "in_crew_of": cw.id, "rule": rule})
    if events:
        game.changing(cw).extra["replacements"] = ()
    return events
