"""Observation (23.0, an advanced rule): who observes a target hex, the chance and every modifier
(23.2), the dice from the game's generator, and what an unobserved hex does to fire (23.3).

One function, `observation`, gives the modifiers and the chance to the engine and to the odds
calculator alike. What "moved" and "fired" mean for 23.2's modifiers is kept on the units while the
advanced rules are on: `moved_at` (the phase it last changed hex in), `fired_at` and
`intensive_at` (the phase it last fired, and fired intensively, 11.15), each a count of the
phases played with the Morale Phase left out ('Exclude the Morale Phase when counting', R350).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.geometry.lattice import touches
from engine.geometry.movement import State, terrain_row
from engine.hexgrid import Hex, hex_distance
from engine.model.tables import table_values, terrain_effects
from engine.odds import dice_totals

from .advanced import advanced, optional
from .sightlines import level_difference, trees_along
from .state import COUNTED_PHASES, GameState
from .units import Unit


def _recent(game: GameState, at: int | None) -> bool:
    """'within the last three phases': this phase and the two before it (R350)."""
    return at is not None and game.phase_count() - at < int(_rules()["last_phases"])


def note_intensive(game: GameState, unit: Unit) -> None:
    """23.2 observer j: 'MG, using intensive fire' (`fired_at` is firing.mark_fired's)."""
    if advanced(game):
        game.changing(unit).extra["intensive_at"] = game.phase_count()


PENALTY_MOVED, PENALTY_BARRED = "moved", "barred"  # 23.2's Optional Penalty, a) and b)
PENALTY_RULE = "23.2 Optional Penalty"


@dataclass(frozen=True)
class Observation:
    observer: str
    target: str
    automatic: bool  # 23.0: adjacent hexes
    base: int
    modifiers: tuple[tuple[int, str], ...]  # (value, why with its rule)
    chance: float  # of 2d6 + modifiers <= base; 0 for an attempt the Optional Penalty bars
    penalty: str = ""  # with `observation_penalty` and no modifier for the observer: PENALTY_MOVED or _BARRED
    settled: str = ""  # a unit of the observer's hex attempted this hex at this fire: "23.13" seen, "23.12" not

    @property
    def total(self) -> int:
        return sum(v for v, _ in self.modifiers)

    def describe(self) -> dict[str, Any]:
        return {
            "observer": self.observer,
            "hex": self.target,
            "automatic": self.automatic,
            "base": self.base,
            "modifiers": [{"value": v, "why": w, "for": _favours(v)} for v, w in self.modifiers],
            "chance": round(self.chance, 4),
            "rule": self.settled or ("23.0" if self.automatic else "23.2"),
            **({"penalty": self.penalty} if self.penalty else {}),
        }


def _favours(value: int) -> str:
    """23.2's two lists: the modifiers favouring the target add to the roll, those favouring the
    observer take from it (tables/combat.yaml favoring_target, favoring_observer)."""
    return "target" if value > 0 else "observer"


def counts_as_moved(game: GameState, unit: Unit) -> bool:
    """Moved this Player Turn (4.0: took a PC to move), or counted so by 23.2's Optional Penalty a):
    'all of the units in the observing hex are considered to have moved for that Player Turn'
    (11.32's and 12.2's die, 23.2's moved modifiers; not what it may still do: R353)."""
    return unit.moved or _penalised(game, unit)


def _penalty(game: GameState, observer: Unit, modifiers: list[tuple[int, str]]) -> str:
    """23.2 Optional Penalty: 'When there were NO modifiers to the observer: a) if the observing
    units have not yet moved, all of the units in the observing hex are considered to have moved
    ... b) if the observing units have already moved, the observation attempt may NOT be made.'"""
    if not optional(game, "observation_penalty") or any(_favours(v) == "observer" for v, _ in modifiers):
        return ""
    return PENALTY_BARRED if counts_as_moved(game, observer) else PENALTY_MOVED


def mark_penalty(game: GameState, h: Hex) -> list[str]:
    """23.2 Optional Penalty a): every unit in the observing hex counts as moved this Player Turn."""
    marked = []
    for unit in game.at(h):
        game.changing(unit).extra["penalty_moved"] = game.player_turns
        marked.append(unit.id)
    return marked


def _rules() -> dict[str, Any]:
    values: dict[str, Any] = table_values("combat")["observation"]
    return values


def observation_base(game: GameState, h: Hex) -> int:
    """23.2: 'the Observation Base number for the type of terrain found in the target hex'."""
    effects = terrain_effects()
    return effects.row(terrain_row(game.board.terrain(h), effects)).observation_base


def observation(game: GameState, observer: Unit, target: Hex) -> Observation:
    """23.2: the Observation Base of the target hex, each modifier for and against, and the chance."""
    assert observer.hex is not None
    label = game.label_of(target)
    if hex_distance(observer.hex, target) <= 1:  # 23.0: 'Units in adjacent hexes always automatically observe'
        return Observation(observer.id, label, True, 12, (), 1.0)
    earlier = _attempted(game, observer, label)
    if earlier is not None:  # 23.12: no second attempt from the hex; 23.13: its success is the hex's
        return Observation(observer.id, label, False, observation_base(game, target), (), float(earlier),
                           settled="23.13" if earlier else "23.12")  # fmt: skip
    rules = _rules()
    for_target, for_observer = rules["favoring_target"], rules["favoring_observer"]
    effects = terrain_effects()
    terrain = game.board.terrain(target)
    row = terrain_row(terrain, effects)
    base = observation_base(game, target)
    enemies = [u for u in game.at(target) if u.side != observer.side]
    mods: list[tuple[int, str]] = []

    def add(count: int, value: Any, why: str) -> None:
        if count:
            mods.append((count * int(value), why))

    steps = rules["range_steps"]
    beyond = hex_distance(observer.hex, target) - int(steps["initial_hexes"])
    add(
        max(0, beyond) // int(steps["hexes_per_step"]), for_target["per_range_step"], "range beyond five hexes (23.2 a)"
    )
    add(game.improved_positions.get(target, 0), for_target["per_ip_point"], "improved position points (23.2 b)")
    add(terrain.trees, for_target["per_tree_in_target_hex"], "Tree symbols in the target hex (23.2 c)")
    along = trees_along(game, observer.hex, target)
    add(along, for_target["per_tree_afv_wreck_along_los"], "Trees/AFVs/Wrecks along the LOS (23.2 d)")
    between = {observer.hex + t.offset for t in touches(target - observer.hex)} - {observer.hex, target}
    marsh = sum(1 for h in between if game.board.terrain(h).marsh)
    add(marsh, for_target["per_marsh_along_los"], "Marsh hexes along the LOS (23.2 e)")
    people = [u for u in enemies if not u.is_afv]
    add(bool(people) and all(u.state == State.DOWN for u in people), for_target["target_down_non_afv"],
        "the target is DOWN (23.2 f, R350)")  # fmt: skip
    moved = _recent(game, observer.extra.get("moved_at")) or _penalised(game, observer)
    add(moved, for_target["observer_moved"], "the observer moved (23.2 g)")
    when = dict(observer.extra.get("observed", ())).get(label)  # the phase count of its last success
    still = when is not None and all(u.extra.get("moved_at", -1) < when for u in [observer, *enemies])
    previous = when is not None and when < game.player_turns * len(COUNTED_PHASES)  # before this Player Turn
    add(still and previous, for_observer["observed_before_no_move"],
        "observed on a previous Player Turn, nothing moved since (23.2 observer a)")  # fmt: skip
    lower = level_difference(game, observer.hex, target) <= -2 and row not in ("woods", "building")
    add(lower, for_observer["target_two_levels_lower"], "the target hex two or more levels lower (23.2 observer b)")
    target_moved = any(_recent(game, u.extra.get("moved_at")) or _penalised(game, u) for u in enemies)
    add(target_moved, for_observer["target_moved"], "a unit in the target hex moved (23.2 observer c)")
    add(any(u.is_afv for u in enemies), for_observer["afv_in_target"], "an AFV in the target hex (23.2 observer d)")
    add(observer.kind == "commander", for_observer["observer_commander"], "the observer is a commander (23.2 e)")
    add(sum(u.men for u in enemies) >= 4, for_observer["four_or_more_men"], "four or more men (23.2 observer f)")
    fire = _fire_modifier(game, enemies, for_observer)
    if fire is not None:
        mods.append(fire)
    total = sum(v for v, _ in mods)
    penalty = _penalty(game, observer, mods)
    chance = float(sum(p for t, p in dice_totals(int(rules["dice"])).items() if t + total <= base))
    return Observation(
        observer.id, label, False, base, tuple(mods), 0.0 if penalty == PENALTY_BARRED else chance, penalty
    )


def _penalised(game: GameState, unit: Unit) -> bool:
    """Counted as moved this Player Turn by the Optional Penalty a) (23.2 g, observer c: R353)."""
    return unit.extra.get("penalty_moved") == game.player_turns


def _fire_modifier(game: GameState, enemies: list[Unit], values: dict[str, Any]) -> tuple[int, str] | None:
    """23.2 observer g-j: the strongest that holds (R350: one fire modifier, the loudest weapon)."""
    found: list[tuple[int, str]] = []
    for u in enemies:
        fired = _recent(game, u.extra.get("fired_at"))
        atg = u.kind == "cw" and u.type not in ("ATR", "MMG", "MOR") and u.value("at_factor") is not None
        if _recent(game, u.extra.get("intensive_at")) or (fired and (u.is_afv or atg)):
            found.append((int(values["atg_afv_or_intensive_mg_fired"]), "an ATG, AFV or intensive MG fired (23.2 j)"))
        elif fired and u.type in ("MMG", "MOR"):
            found.append((int(values["mmg_or_mortar_fired"]), "an MMG or mortar fired (23.2 i)"))
        elif fired and u.type in ("LMG", "ATR"):
            found.append((int(values["lmg_or_atr_fired"]), "an LMG or ATR fired (23.2 h)"))
        elif fired:
            found.append((int(values["non_mg_ap_fire"]), "a non-MG unit used AP fire (23.2 g)"))
    return min(found) if found else None


def _fire_at(game: GameState) -> str:
    """What an attempt stands for besides its phase (R370): an interrupt's hex and movers."""
    return "" if game.interrupt is None else f"{game.interrupt['hex']} {'+'.join(game.interrupt['units'])}"


def _attempted(game: GameState, observer: Unit, label: str) -> bool | None:
    """Whether a unit of the observer's hex observed the hex `label` at this fire (this phase, this
    interrupt: `observing`, cleared as each phase starts); None if none attempted it (R370)."""
    for at, fire, observed in observer.extra.get("observing", ()):
        if at == label and fire == _fire_at(game):
            return bool(observed)
    return None


def _note_attempt(game: GameState, observer: Unit, label: str, observed: bool) -> None:
    """23.12, 23.13: the attempt stands for every unit of the observer's hex (R370)."""
    assert observer.hex is not None
    for unit in game.at(observer.hex):
        kept = [a for a in unit.extra.get("observing", ()) if a[:2] != (label, _fire_at(game))]
        game.changing(unit).extra["observing"] = (*kept, (label, _fire_at(game), observed))


def observers(firers: list[Unit], leader: Unit | None = None) -> list[Unit]:
    """23.12: one observer a firing hex, its commander if one fires from there (R347), else its
    first firer; in Group Fire only its `leader` (23.14: 'only the leader may be used to observe',
    combining.group_fire_leader; R370)."""
    if leader is not None:
        return [leader]
    hexes: dict[Hex | None, list[Unit]] = {}
    for unit in firers:
        hexes.setdefault(unit.hex, []).append(unit)
    return [next((u for u in here if u.kind == "commander"), here[0]) for here in hexes.values()]


def observed_chance(
    game: GameState, firers: list[Unit], target: Hex, leader: Unit | None = None
) -> tuple[float, list[Observation]]:
    """The chance that some observer of the attack observes the hex (each rolls its own dice)."""
    seen = [observation(game, u, target) for u in observers(firers, leader)]
    missed = 1.0
    for one in seen:
        missed *= 1 - one.chance
    return 1 - missed, seen


def observe(game: GameState, observer: Unit, target: Hex) -> tuple[bool, list[dict[str, Any]]]:
    """23.2: the attempt, its two dice from the game's generator, logged; a success is remembered
    for 23.2 observer a."""
    seen = observation(game, observer, target)
    if seen.automatic:
        return True, [{"event": "observed", "unit": observer.id, "hex": seen.target, "automatic": True, "rule": "23.0"}]
    if seen.settled:  # R370: its hex's attempt at this fire stands (23.13), or bars another (23.12)
        observed = bool(seen.chance)
        why = "a unit of its hex observed it" if observed else "a unit of its hex attempted it already"
        kind = "observed" if observed else "no observation"
        return observed, [{"event": kind, "unit": observer.id, "hex": seen.target, "why": why, "rule": seen.settled}]
    if seen.penalty == PENALTY_BARRED:
        why = "the observer has moved and no modifier favours it"
        refused = {"event": "no observation", "unit": observer.id, "hex": seen.target, "why": why}
        return False, [{**refused, "rule": f"{PENALTY_RULE} b"}]
    faces = game.dice.roll(int(_rules()["dice"]))
    observed = sum(faces) + seen.total <= seen.base
    event: dict[str, Any] = {"event": "observation", **seen.describe(), "dice": list(faces), "observed": observed}
    del event["chance"]
    if seen.penalty == PENALTY_MOVED:
        assert observer.hex is not None
        units = mark_penalty(game, observer.hex)
        event["penalty"] = {"counted_as_moved": units, "rule": f"{PENALTY_RULE} a"}
    _note_attempt(game, observer, seen.target, observed)
    if observed:
        unit = game.changing(observer)
        kept = {k: v for k, v in unit.extra.get("observed", ()) if k != seen.target}
        unit.extra["observed"] = (*kept.items(), (seen.target, game.phase_count()))
    return observed, [event]
