"""Mortar fire (14.0-14.52): the declaration, the rounds, their scatter and their attacks.

`mortar MORTAR HEX ROUNDS` declares all of a mortar's fire of a Player Turn at once (14.0 a: the
rounds and the target hex before any is resolved; 14.11: all in one fire phase); with a spotter,
`mortar MORTAR+COMMANDER HEX ROUNDS` is indirect fire at a hex the mortar cannot see (14.22).
fire.py offers `mortar_actions` in the Support Fire, Defensive Fire and Moving Fire Phases while
`mortar_first` holds (14.0: mortar fire is resolved before any other fire of the phase) and
applies them with `apply_mortar`.

Each round scatters or hits (14.3, the Mortar Round Scatter Table and the Scatter Diagram of
tables/combat.yaml `mortar.scatter`) and attacks every unit in the hex it hits with the mortar's
printed AP factor (14.51), on dice read as AP fire's without Trees, AFV/Wreck cover or elevation
(14.4), one round resolved completely before the next (14.52). Results go through results.py.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geometry.movement import Morale
from engine.geometry.sight import FirerState
from engine.hexgrid import DIRECTIONS, Hex, hex_distance
from engine.model.board import UnknownHexError
from engine.model.tables import table_values
from engine.odds import ap_levels, ap_result

from .actions import Action, IllegalAction, verb
from .advanced import advanced
from .ammo import ammo_left, cost, spend
from .firing import FIRE_PHASES, ap_dice, combat_rolled, firing_side, mark_fired, may_fire
from .observation import counts_as_moved, observe
from .performance import performance_check
from .results import apply_result
from .sightlines import open_lines
from .state import GameState
from .units import Unit, side_ids

Events = list[dict[str, Any]]

MORTAR = verb("mortar")  # 14.0 a: mortar MORTAR[+SPOTTER] HEX ROUNDS
MORTAR_TYPE = "MOR"  # the mortar counters of counters/counters.yaml (crew_weapons: MOR)
# 14.4: mortar dice ignore 'Trees, AFV's, Wrecks, and elevation differences' (ap_dice adds no
# elevation die; "afv_cover" is 11.33's AFV/Wreck cover; "trees": R131)
IGNORED_FOR_DICE = ("afv_cover", "trees")
# the Scatter Diagram's words (tables/combat.yaml mortar.scatter.diagram) as hexgrid.DIRECTIONS
COMPASS = dict(zip(("up", "up_right", "down_right", "down", "down_left", "up_left"), DIRECTIONS, strict=True))


@cache
def _rules() -> dict[str, Any]:
    rules: dict[str, Any] = table_values("combat")["mortar"]
    return rules


def is_mortar(unit: Unit) -> bool:
    return unit.kind == "cw" and unit.type == MORTAR_TYPE


def mortar_first(game: GameState) -> bool:
    """14.0: 'Mortar fire resolution takes place before any other type of fire combat in a phase':
    no mortar may be declared once a unit other than a mortar has attempted fire in this phase
    (R132). Read off the units' fire marks (firing.mark_fired), so it needs no state of its own."""
    return not any(
        u.fired and u.extra.get("fired_phase") == game.phase and not is_mortar(u) for u in game.units.values()
    )


def max_rounds(mortar: Unit, indirect: bool) -> int:
    """14.11-14.13: five rounds with the full crew, three with two men, two with one; two with
    indirect fire."""
    rules = _rules()
    by_crew = {int(k): int(v) for k, v in rules["max_rounds_by_crew"].items()}
    most = min(int(rules["max_rounds"]), by_crew.get(mortar.men, int(rules["max_rounds"])))
    return min(most, int(rules["max_rounds_indirect"])) if indirect else most


def _most(game: GameState, mortar: Unit, indirect: bool) -> int:
    """max_rounds, and no more than the ammo points left (22.2: 'Mortar: 1 point per round', R344)."""
    left = ammo_left(game, mortar)
    most = max_rounds(mortar, indirect)
    return most if left is None else min(most, left // cost("mortar_per_round"))


def may_declare(game: GameState, mortar: Unit) -> bool:
    """The mortar may declare its fire now: eligible (10.1), not from a building hex (14.0), before
    any other fire of the phase (14.0)."""
    return (
        game.phase in FIRE_PHASES
        and is_mortar(mortar)
        and may_fire(game, mortar)
        and mortar.hex is not None
        and game.board.terrain(mortar.hex).building is None
        and mortar_first(game)
    )


def target_hexes(game: GameState, mortar: Unit) -> list[Hex]:
    """10.21, 14.2, 14.21: hexes holding enemy units the firing side can see (not hidden), other
    than the mortar's own; no maximum range (R133)."""
    found = {
        u.hex
        for u in game.units.values()
        if u.on_map and u.hex is not None and u.side != mortar.side and not u.hidden and u.hex != mortar.hex
    }
    return sorted(found, key=game.label_of)


def spotters(game: GameState, mortar: Unit) -> list[Unit]:
    """14.22 a: NORMAL commanders of the mortar's side within two hexes of it that have not moved
    or fired this Player Turn (nor failed to spot in this phase: 4.0, R134)."""
    assert mortar.hex is not None
    reach = int(_rules()["indirect_spotter_range"])
    return sorted(
        (
            u
            for u in game.units.values()
            if u.kind == "commander"
            and u.side == mortar.side
            and u.on_map
            and u.hex is not None
            and u.morale == Morale.NORMAL
            and not (u.moved or u.fired)
            and u.extra.get("spot_failed") != _phase_key(game)
            and hex_distance(u.hex, mortar.hex) <= reach
        ),
        key=lambda u: u.id,
    )


def mortar_actions(game: GameState) -> list[Action]:
    """Every mortar declaration the firing side may make now, in a fixed order: by mortar, target
    hex (label), direct fire before each spotter's indirect fire, then rounds."""
    actions: list[Action] = []
    side = firing_side(game)
    for i in sorted(side_ids(game, "mortar_ids", side, is_mortar)):  # a counter's kind never changes
        mortar = game.units[i]
        if not may_declare(game, mortar):
            continue
        assert mortar.hex is not None
        targets = target_hexes(game, mortar)
        direct = open_lines(game, [(mortar.hex, t) for t in targets], FirerState(mortar.state))
        unseen = [t for t, open_line in zip(targets, direct, strict=True) if not open_line]
        sees = {s.id: _seen(game, s, unseen) for s in spotters(game, mortar)} if unseen else {}
        for target, open_line in zip(targets, direct, strict=True):
            label = game.label_of(target)
            if open_line:
                actions += [
                    Action(MORTAR, (mortar.id,), f"{label} {n}") for n in range(1, _most(game, mortar, False) + 1)
                ]
                continue
            most = _most(game, mortar, True)
            for spotter_id, seen in sees.items():
                if target in seen:
                    actions += [Action(MORTAR, (mortar.id, spotter_id), f"{label} {n}") for n in range(1, most + 1)]
    return actions


def _seen(game: GameState, spotter: Unit, targets: list[Hex]) -> set[Hex]:
    """The hexes of `targets` the spotter has an LOS to (from his own UP/DOWN state)."""
    assert spotter.hex is not None
    lines = open_lines(game, [(spotter.hex, t) for t in targets], FirerState(spotter.state))
    return {t for t, open_line in zip(targets, lines, strict=True) if open_line}


def apply_mortar(game: GameState, action: Action) -> Events:
    """Carry out a mortar declaration (14.0 a-c): the spotter's PC for indirect fire (14.22 b), the
    mortar's PC (10.12), then each round in turn: scatter (14.3) and attacks (14.4-14.52)."""
    mortar, spotter, target, rounds = declaration(game, action)
    assert mortar.hex is not None
    label = game.label_of(target)
    events: Events = [
        {
            "event": "mortar declared",
            "unit": mortar.id,
            "target": label,
            "rounds": rounds,
            "spotter": spotter.id if spotter else None,
            "rule": "14.0",
        }
    ]
    if spotter is not None:  # 14.22 b: 'The commander must pass a PC to spot for the mortar unit'
        check = performance_check(game.dice, spotter.pr)
        events.append({"event": "spotting PC", "unit": spotter.id, "check": check.describe(), "rule": "14.22"})
        if not check.passed:  # 'the mortar may not use indirect fire'; it took no PC: not fired (R135)
            game.changing(spotter).extra["spot_failed"] = _phase_key(game)
            return events
    observed = True
    if advanced(game):  # 23.11: before the PC; 23.33: an unobserved hex scatters more; the spotter observes
        observed, seen = observe(game, spotter or mortar, target)
        events += seen
    check = performance_check(game.dice, mortar.pr)  # R136: one PC for all the rounds declared
    events.append({"event": "fire PC", "unit": mortar.id, "check": check.describe(), "rule": "10.12"})
    events += mark_fired(game, [mortar])  # 4.0, 10.11: pass or fail, it has fired
    mortar = game.changing(mortar)
    same_target = mortar.extra.get("mortar_target") == label
    mortar.extra["mortar_target"] = label  # 14.3 a: the target of the last Player Turn it fired in (R137)
    if not check.passed:
        return events
    events += spend(game, mortar, rounds * cost("mortar_per_round"))  # 22.1: only rounds actually fired
    modifier, why = scatter_modifier(
        game, mortar, target, rounds, indirect=spotter is not None, same=same_target, observed=observed
    )
    for number in range(1, rounds + 1):
        events += _round(game, mortar, target, number, modifier, why)
    return events


def declaration(game: GameState, action: Action) -> tuple[Unit, Unit | None, Hex, int]:
    """The mortar, spotter, target hex and rounds of a declaration, or IllegalAction with the rule
    (the odds of a mortar's fire give that reason too)."""
    if action.verb != MORTAR or len(action.units) not in (1, 2):
        raise IllegalAction(f"{action.text()}: mortar MORTAR[+COMMANDER] HEX ROUNDS", "14.0")
    try:
        mortar = game.unit(action.units[0])
        spotter = game.unit(action.units[1]) if len(action.units) == 2 else None
        label, count = action.arg.split()
        target, rounds = game.hex(label), int(count)
    except (KeyError, ValueError, UnknownHexError) as error:
        raise IllegalAction(f"{action.text()}: {error}", "14.0") from error
    if not is_mortar(mortar):
        raise IllegalAction(f"{mortar.id} is not a mortar", "14.0")
    if game.phase not in FIRE_PHASES or not may_fire(game, mortar):
        raise IllegalAction(f"{mortar.id} may not fire now", "10.1")
    assert mortar.hex is not None
    if game.board.terrain(mortar.hex).building is not None:
        raise IllegalAction(f"{mortar.id}: 'Mortars may not fire from building hexes'", "14.0")
    if not mortar_first(game):
        raise IllegalAction("other fire has been resolved in this phase: mortar fire comes first", "14.0")
    if target == mortar.hex:
        raise IllegalAction(f"{mortar.id}: 'A mortar may not fire into its own hex'", "14.21")
    if target not in target_hexes(game, mortar):
        raise IllegalAction(f"{label}: a target hex holds enemy units the firer can see", "10.21")
    if spotter is None:
        if not open_lines(game, [(mortar.hex, target)], FirerState(mortar.state))[0]:
            raise IllegalAction(f"{mortar.id} has no LOS to {label}: indirect fire needs a spotter", "14.2")
    else:
        if open_lines(game, [(mortar.hex, target)], FirerState(mortar.state))[0]:
            raise IllegalAction(f"{mortar.id} sees {label}: indirect fire is at a hex it cannot see", "14.22")
        if spotter not in spotters(game, mortar):
            raise IllegalAction(f"{spotter.id} may not spot for {mortar.id}", "14.22")
        assert spotter.hex is not None
        if not open_lines(game, [(spotter.hex, target)], FirerState(spotter.state))[0]:
            raise IllegalAction(f"{spotter.id} has no LOS to {label}", "14.22")
    most = _most(game, mortar, spotter is not None)
    if not 1 <= rounds <= most:
        rule = "14.13" if spotter is not None and most == int(_rules()["max_rounds_indirect"]) else "14.12"
        raise IllegalAction(f"{mortar.id} may fire 1 to {most} rounds now, not {rounds}", rule)
    return mortar, spotter, target, rounds


def scatter_modifier(
    game: GameState, mortar: Unit, target: Hex, rounds: int, *, indirect: bool, same: bool, observed: bool = True
) -> tuple[int, list[str]]:
    """14.3 a's die roll modifiers (cumulative), and why."""
    assert mortar.hex is not None
    modifiers = _rules()["scatter"]["modifiers"]
    parts = [
        (same, "same_target_as_previous_turn", "the same target hex as the last Player Turn it fired in"),
        (indirect, "indirect_fire", "indirect fire (14.22)"),
        (rounds > 3, "more_than_three_rounds", "more than three rounds"),
        (
            hex_distance(mortar.hex, target) < int(mortar.value("initial_range")),
            "under_minimum_range",
            "the target hex under the minimum range (14.21)",
        ),
    ]
    total, why = 0, []
    if not observed:  # 23.33 (the advanced rules): not printed, assumed (R349)
        total += int(_rules()["unobserved_scatter_modifier"])
        why.append(f"+{_rules()['unobserved_scatter_modifier']} the target hex unobserved (23.33, R349)")
    for applies, key, words in parts:
        if applies:
            total += int(modifiers[key])
            why.append(f"{int(modifiers[key]):+d} {words}")
    return total, why


def scatter_result(die: int, modifier: int) -> str:
    """The Mortar Round Scatter Table (14.3): "T", "S1" or "S2" for a die and its modifiers, the
    modified roll kept within 1..6.

    >>> scatter_result(3, 0), scatter_result(1, -1), scatter_result(4, 3), scatter_result(6, -3)
    ('T', 'T', 'S2', 'T')
    """
    scatter = _rules()["scatter"]
    low, high = (int(v) for v in scatter["clamp"])
    roll = min(high, max(low, die + modifier))
    return next(str(row["result"]) for row in scatter["results"] if roll in row["rolls"])


def scatter_direction(die: int) -> Hex:
    """The Scatter Diagram (tables/combat.yaml mortar.scatter.diagram, assumed): a direction die's
    face as one of hexgrid.DIRECTIONS."""
    return COMPASS[str(_rules()["scatter"]["diagram"][str(die)])]


def landing(target: Hex, result: str, direction: int) -> Hex:
    """Where a round lands (14.3 b): the target hex on a "T"; on "S#", '#' hexes from it in the
    direction the direction die gives on the Scatter Diagram (the hex may lie off the map: R138)."""
    if result == "T":
        return target
    step, distance = scatter_direction(direction), int(result[1:])
    return Hex(target.q + step.q * distance, target.r + step.r * distance)


def _round(game: GameState, mortar: Unit, target: Hex, number: int, modifier: int, why: list[str]) -> Events:
    """One round, resolved completely (14.52): where it lands (14.3), then its attacks (14.4-14.51)."""
    scatter = _rules()["scatter"]
    combat_rolled(game)  # 8.22: dice rolled to resolve combat
    (die,) = game.dice.roll(int(scatter["dice"]))
    result = scatter_result(die, modifier)
    event: dict[str, Any] = {
        "event": "mortar round",
        "unit": mortar.id,
        "round": number,
        "target": game.label_of(target),
        "die": die,
        "modifiers": why,
        "result": result,
        "rule": "14.3",
    }
    hit = target
    if result != "T":
        (face,) = game.dice.roll(int(scatter["direction_dice"]))
        hit = landing(target, result, face)
        event["direction"] = face
    if hit not in game.board.hexes:  # R138: a round scattered off the map is lost
        event["hits"] = None
        return [event]
    event["hits"] = game.label_of(hit)
    events: Events = [event]
    for unit in sorted(game.at(hit), key=lambda u: u.id):  # R138: every unit there, of either side
        events += attack(game, mortar, unit)
    return events


def firepower(mortar: Unit) -> int:
    """14.51: a round's firepower is the mortar's printed AP factor, never modified."""
    return int(mortar.value("ap_factor"))


def attack_dice(game: GameState, mortar: Unit, unit: Unit) -> tuple[int, list[str]]:
    """A round's dice on `unit`: AP fire's without Trees and AFV/Wreck cover (14.4, R131), and why."""
    return ap_dice(game, unit, moved=counts_as_moved(game, mortar), ignore=IGNORED_FOR_DICE)


def attack(game: GameState, mortar: Unit, unit: Unit) -> Events:
    """One round's attack on one unit in the hex it hit: the printed AP factor, never modified
    (14.51), against dice as AP fire's (14.4), the result read and applied as AP fire's (14.5)."""
    if not unit.on_map:  # an earlier result of this round removed it
        return []
    dice, why = attack_dice(game, mortar, unit)
    faces = game.dice.roll(dice)
    result = ap_result(sum(faces), faces, ap_levels(firepower(mortar)))
    events: Events = [
        {
            "event": "mortar attack",
            "unit": mortar.id,
            "target": unit.id,
            "firepower": firepower(mortar),
            "dice": why,
            "rolled": list(faces),
            "result": result,
            "rule": "14.5",
        }
    ]
    return events + apply_result(game, unit, result, "14.5")


def _phase_key(game: GameState) -> tuple[int, str]:
    """This phase of this Player Turn (Player Turns are counted from the game's start)."""
    return (game.player_turns, game.phase)
