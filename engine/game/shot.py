"""The numbers of one attack: who may fire at a hex (10.1, 10.2, 10.23, 13.1, 13.2; who may combine,
11.12-11.14: combining.py), the firepower with every modifier and its rule (11.1, 11.15, 11.16, 11.2; 12.1,
12.16), the dice for each target unit (11.3, 12.2) and the AT modifiers (12.31). The engine's
fire combat and the odds calculator (`iceditor odds fire`) read the same `Shot`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.geometry.sight import FirerState
from engine.hexgrid import DIRECTIONS, Hex, hex_distance, hex_to_point
from engine.model.tables import table_values
from engine.odds import ap_levels

from .firing import ap_dice, is_stug, may_fire
from .mortars import is_mortar
from .observation import counts_as_moved
from .sightlines import (
    bare_index,
    bare_row,
    bare_rows,
    blockers,
    blockers_key,
    level_difference,
    line_open,
    open_lines,
    trees_along,
)
from .state import REACTION, GameState
from .units import Unit, side_ids


@dataclass(frozen=True)
class Part:
    """One term of a firepower total: what it is, its value, the rule."""

    what: str
    value: float
    rule: str


@dataclass(frozen=True)
class Dice:
    """The dice rolled against one target unit, and why (11.3, 12.2)."""

    count: int
    why: tuple[str, ...]


@dataclass
class Shot:
    kind: str  # "ap" | "at"
    firers: list[Unit]
    target: Hex
    targets: list[Unit]
    firepower: int
    parts: list[Part]
    dice: list[Dice]
    levels: dict[str, int] = field(default_factory=dict)  # AP: 11.42
    armor: int = 0  # AT: 12.31
    higher: bool = False  # AT: 12.31

    def describe(self, game: GameState) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "firers": [u.id for u in self.firers],
            "hex": game.label(self.target),
            "firepower": self.firepower,
            "parts": [{"what": p.what, "value": p.value, "rule": p.rule} for p in self.parts],
            "targets": [
                {"unit": u.id, "dice": d.count, "why": list(d.why)}
                for u, d in zip(self.targets, self.dice, strict=True)
            ],
            **({"levels": self.levels} if self.kind == "ap" else {"armor": self.armor, "higher": self.higher}),
        }


# -- what a unit is, for fire --------------------------------------------------------------------


def is_mg(unit: Unit) -> bool:
    return unit.type in ("LMG", "MMG")


def is_atg(unit: Unit) -> bool:
    """An anti-tank gun: a CW with AT factors that is not an ATR."""
    return unit.kind == "cw" and unit.type != "ATR" and unit.value("at_factor") is not None


def _ap_factor(unit: Unit) -> int:
    return int(unit.value("ap_factor") or 0)


def _initial_range(unit: Unit) -> int:
    """The range increment of the unit's AP factors (2.2; an AFV's AP range)."""
    return int(unit.value("ap_range") if unit.is_afv else unit.value("initial_range", 1))


def attenuated(factor: int, initial_range: int, distance: int) -> int:
    """11.21, 11.22: no reduction within the initial range, then one less for each multiple (or
    fraction) of it: AP 4, range 7: 4 to 7 hexes, 3 to 14, 2 to 21."""
    if distance <= initial_range:
        return factor
    return factor - (math.ceil(distance / initial_range) - 1)


# -- frontal areas (10.23, 12.31, 13.14) ---------------------------------------------------------------


@cache
def _half_angle() -> float:
    return float(table_values("combat")["frontal_area"]["half_angle_degrees"])


def in_frontal_area(origin: Hex, facing: int | None, target: Hex) -> bool:
    """Whether target lies in the frontal area of a unit in origin facing `facing`: the wedge
    through the frontal hexside (tables/combat.yaml frontal_area; assumed: the diagram is not
    printed), the hexes on its edges included."""
    if facing is None or target == origin:
        return facing is None
    fx, fy = hex_to_point(DIRECTIONS[facing])
    tx, ty = hex_to_point(target - origin)
    cosine = (fx * tx + fy * ty) / (math.hypot(fx, fy) * math.hypot(tx, ty))
    return cosine >= math.cos(math.radians(_half_angle())) - 1e-9


def _frontal_only(unit: Unit) -> bool:
    """10.23: ATGs, MGs and German Stugs fire only into their frontal area."""
    return is_atg(unit) or is_mg(unit) or is_stug(unit)


# -- who may fire at a hex ---------------------------------------------------------------------


def target_hexes(game: GameState, side: str) -> list[Hex]:
    """10.21: enemy-occupied hexes, as `side` sees them (a hex of hidden units alone is none: R93)."""
    found = game.kept(("target_hexes", side), lambda: _target_hexes(game, side))
    hexes: list[Hex] = found
    return hexes


def _target_hexes(game: GameState, side: str) -> list[Hex]:
    return sorted(h for h, units in game.occupied().items() if any(u.side != side and not u.hidden for u in units))


def visible_enemies(game: GameState, side: str, h: Hex) -> list[Unit]:
    """The enemy units `side` sees in h: a hex of hidden units alone is no target (10.21, R93)."""
    return [u for u in game.occupied().get(h, ()) if u.side != side and not u.hidden]


def opportunity_fire(game: GameState) -> bool:
    """13.0: the fire now is opportunity fire, at a stack that moved into a hex (an interrupt)."""
    return game.interrupt is not None


def _opportunity_kind(game: GameState, unit: Unit) -> bool:
    """13.11: in the Movement Phase 'infantry, AFV, MG, ATR, and ATG units'; 13.12: in the Reaction
    Movement Phase ATR and ATG units (that did not move: may_fire, CWs that moved)."""
    if game.phase == REACTION:
        return is_atg(unit) or unit.type == "ATR"
    return unit.kind in ("infantry", "commander", "afv") or is_atg(unit) or is_mg(unit) or unit.type == "ATR"


def _opens(game: GameState, unit: Unit, target: Hex, enemies: list[Unit]) -> tuple[bool, bool]:
    """(may aim, may fire AT) at `target` but for eligibility (10.1) and LOS (10.21): a visible enemy
    (10.2) and for AT an AFV (12.12), the interrupt's limits (13.11, 13.12), the frontal area
    (10.23, 13.14) and the range (11.2, 12.16, 13.2)."""
    assert unit.hex is not None
    aims, antitanks, frontal_only = _fire_kind(unit)
    distance = hex_distance(unit.hex, target)
    if not (aims or antitanks) or not enemies or distance == 0 or distance > _reach(game, unit):
        return False, False
    opportunity = opportunity_fire(game)
    if opportunity and not _opportunity_kind(game, unit):
        return False, False
    if (frontal_only or (opportunity and unit.is_afv)) and not in_frontal_area(unit.hex, unit.facing, target):
        return False, False
    aim = aims and _factor_at(game, unit, target) > 0
    antitank = antitanks and any(u.is_afv for u in enemies) and _at_factor(unit, target) > 0
    return aim, antitank


def _fire_kind(unit: Unit) -> tuple[bool, bool, bool]:
    """Whether the unit fires AP (not mortars, 14.0, nor FTs, 16.0), fires AT, and fires only into
    its frontal area (10.23); kept on the unit (its counter's values never change)."""
    if "_fire_kind" not in unit.extra:
        aims = _ap_factor(unit) > 0 and not is_mortar(unit) and unit.kind != "ft"
        unit.extra["_fire_kind"] = (aims, unit.value("at_factor") is not None, _frontal_only(unit))
    kind: tuple[bool, bool, bool] = unit.extra["_fire_kind"]
    return kind


def _line(game: GameState, unit: Unit, target: Hex) -> bool:
    assert unit.hex is not None
    return line_open(game, unit.hex, target, FirerState(str(unit.state)))


def may_aim(game: GameState, unit: Unit, target: Hex) -> bool:
    """Whether `unit` may open an AP attack at `target` now (10.1, 10.2, 11.0, 13.2)."""
    if unit.hex is None or not may_fire(game, unit):
        return False
    return _opens(game, unit, target, visible_enemies(game, unit.side, target))[0] and _line(game, unit, target)


def may_antitank(game: GameState, unit: Unit, target: Hex) -> bool:
    """Whether `unit` may fire its AT factors at the AFV in `target` (12.0, 12.12, 12.16)."""
    if unit.hex is None or not may_fire(game, unit):
        return False
    return _opens(game, unit, target, visible_enemies(game, unit.side, target))[1] and _line(game, unit, target)


def opening_hexes(game: GameState, side: str) -> list[Hex]:
    """The hexes `side` may open fire at now: the hex just entered at an interrupt (13.13), else
    every target hex (10.21)."""
    if game.interrupt is not None:
        return [game.hex(game.interrupt["hex"])]
    return target_hexes(game, side)


def openings(game: GameState, side: str, hexes: list[Hex]) -> list[tuple[Unit, Hex, bool, bool]]:
    """(unit, hex, may aim, may fire AT) for every unit of `side` that may open fire at one of
    `hexes` now, by unit id, then hex: may_aim and may_antitank for them all, their lines checked
    against the bare terrain's matrix, then the AFVs and Wrecks on them (10.3)."""
    if game.interrupt is not None:  # a new hex at each step: nothing worth keeping
        return _openings(game, side, hexes)
    each = openings_by_unit(game, side, hexes)
    return [(game.units[i], h, aim, antitank) for i, its in each.items() for h, aim, antitank in its]


def openings_by_unit(game: GameState, side: str, hexes: list[Hex]) -> dict[str, Sequence[tuple[Hex, bool, bool]]]:
    """`openings` of a fire phase by unit id (every unit of the side on the map, in the order of
    their ids), kept until units move (`GameState.kept`) and patched by the units changed since the
    last listing (`GameState.changed_since`; a changed unit's openings a new list): a fire phase
    lists them again after every shot, when only the firers have changed. The rest they depend on
    (the phase, the hexes, the ammunition pools, 22.1) changed, all anew."""
    context = (side, game.phase, game.player_turns, hexes, tuple(game.ammo.items()))
    held: list[Any] = game.kept(("openings", side), list)  # [(mark, context, each unit's)]: copies share it
    last = held[0] if held else None
    changed, mark = game.changed_since(last[0] if last is not None else None)
    if last is None or changed is None or last[1] != context:
        units = sorted(_may_open(game, side), key=lambda u: u.id)
        each: dict[str, Sequence[tuple[Hex, bool, bool]]]
        each = dict.fromkeys([u.id for u in units if u.on_map and u.hex is not None], ())
        each.update(_lined_openings(game, side, hexes, units))
    else:
        each = last[2]
        touched = [game.units[i] for i in changed if i in each]
        if touched:
            each = {**each, **dict.fromkeys([u.id for u in touched], ())}
            each.update(_lined_openings(game, side, hexes, touched))
    held[:] = [(mark, context, each)]
    return each


def _lined_openings(
    game: GameState, side: str, hexes: list[Hex], units: Sequence[Unit]
) -> dict[str, list[tuple[Hex, bool, bool]]]:
    """`_openings` of a fire phase for those of `units` that may fire now, by id, each a new list:
    each unit's openings with their lines, worked out once it may fire, kept for the phase by the
    target hexes with their AFVs and where the AFVs and Wrecks stand (what the lines and targets
    depend on), and then by the unit's id, hex, facing and state; may_fire asked anew (after men
    are lost, no line has changed)."""
    every: dict[tuple[Any, ...], dict[tuple[Any, ...], list[tuple[Hex, bool, bool]]]]
    every = game.caches.setdefault("lined_openings", {})
    lined = every.get(key := game.kept(("lined_key", side, tuple(hexes)), lambda: _lined_key(game, side, hexes)))
    if lined is None:
        lined = every[key] = {}
    firing = [
        (u, (u.id, u.hex, u.facing, u.state)) for u in units if u.on_map and u.hex is not None and may_fire(game, u)
    ]
    missing = [u for u, own in firing if own not in lined]
    if missing:
        lined.update((own, []) for u, own in firing if own not in lined)
        for u, h, aim, antitank in _openings(game, side, hexes, missing):
            lined[(u.id, u.hex, u.facing, u.state)].append((h, aim, antitank))
    return {u.id: list(its) for u, own in firing if (its := lined[own])}


def _lined_key(game: GameState, side: str, hexes: list[Hex]) -> tuple[Any, ...]:
    """What a unit's lined openings depend on besides the unit: the target hexes with whether an
    AFV is among the enemies seen there (12.12), and where the AFVs and Wrecks stand (10.31 b)."""
    targets = tuple([(h, any(u.is_afv for u in visible_enemies(game, side, h))) for h in hexes])
    return side, targets, blockers_key(game)


def _openings(
    game: GameState, side: str, hexes: list[Hex], units: Sequence[Unit] | None = None
) -> list[tuple[Unit, Hex, bool, bool]]:
    """may_aim and may_antitank for every unit and hex: may_fire now, then each unit's openings but
    for the line at the targets the bare terrain leaves in its sight (`bare_index`: most lines
    are blocked by the terrain alone), kept from phase to phase by all they depend on
    (`_unit_openings`); then the AFVs and Wrecks on those lines (`open_lines`, 10.31 b). `units`:
    those units on the map, which may fire now (the caller asked)."""
    targets = [
        (h, enemies, any(u.is_afv for u in enemies)) for h in hexes if (enemies := visible_enemies(game, side, h))
    ]
    if not targets:
        return []
    kept: dict[tuple[Any, ...], list[tuple[Hex, bool, bool]]] = game.caches.setdefault("unit_openings", {})
    fire = _fire_now(game)
    index = bare_index(game)
    if index is not None:
        columns = [index[h] for h, _, _ in targets]
        rows, single = bare_rows(game), len(targets) == 1
    wanted = []
    for unit in _may_open(game, side) if units is None else units:
        if (h := unit.hex) is None or not unit.on_map:
            continue
        if index is None:
            near = targets
        else:  # the terrain's line first, a byte of the firer's kept row: it blocks most
            row = rows.get((h, unit.state)) or bare_row(game, h, unit.state)
            if single:  # an interrupt's one hex (13.13), with no comprehension's call a unit
                near = [] if row[columns[0]] else targets
            else:
                near = [t for t, i in zip(targets, columns, strict=True) if not row[i]]
        if near:
            reach = _reach(game, unit)
            near = [t for t in near if hex_distance(h, t[0]) <= reach]
        if not near or (units is None and not may_fire(game, unit)):
            continue
        key = (unit.id, unit.hex, unit.facing, fire, tuple((h, afv) for h, _, afv in near))
        its = kept.get(key)
        if its is None:
            its = kept[key] = _unit_openings(game, unit, near)
        wanted += [(unit, h, aim, antitank) for h, aim, antitank in its]
    if not wanted:  # most hexes entered at an interrupt: no line to ask
        return []
    if index is not None and not blockers(game):  # no AFV or Wreck: the terrain's lines are the lines
        return sorted(wanted, key=lambda w: (w[0].id, w[1]))
    found = []
    for state in (FirerState.UP, FirerState.DOWN):
        some = [w for w in wanted if w[0].state == state]
        pairs = [(w[0].hex, w[1]) for w in some]
        found += [w for w, ok in zip(some, open_lines(game, pairs, state), strict=True) if ok]  # type: ignore[arg-type]
    return sorted(found, key=lambda w: (w[0].id, w[1]))


def _may_open(game: GameState, side: str) -> tuple[Unit, ...]:
    """The side's units whose kind may fire now: at an interrupt 13.11's and 13.12's, kept for the phase."""
    if not opportunity_fire(game):
        return game.side_units(side)
    ids = side_ids(game, "opportunity_kinds", side, lambda u: _opportunity_kind(game, u))
    return tuple([game.units[i] for i in ids])


def _fire_now(game: GameState) -> tuple[bool, bool]:
    """What of the phase `_opens` depends on: opportunity fire (13.0), and in which phase (13.11, 13.12)."""
    opportunity = opportunity_fire(game)
    return opportunity, opportunity and game.phase == REACTION


def _unit_openings(
    game: GameState, unit: Unit, targets: list[tuple[Hex, list[Unit], bool]]
) -> list[tuple[Hex, bool, bool]]:
    """(hex, may aim, may fire AT) for a unit that may fire now at each target but for the line
    (10.2): by its id, hex and facing, the targets' hexes and AFVs, and `_fire_now`."""
    kept: dict[tuple[Any, ...], tuple[bool, bool]] = game.caches.setdefault("opens", {})
    fire = _fire_now(game)
    found = []
    for h, enemies, afv in targets:
        key = (unit.id, unit.hex, unit.facing, h, afv, fire)  # all _opens depends on
        if key not in kept:
            kept[key] = _opens(game, unit, h, enemies)
        aim, antitank = kept[key]
        if aim or antitank:
            found.append((h, aim, antitank))
    return found


def _reach(game: GameState, unit: Unit) -> float:
    """The farthest hex the unit may open fire at now: where range attenuation (11.22) or 13.2's
    opportunity ranges leave it a factor; AT fire but an ATR's has unlimited range (12.16). Kept
    on the unit (its counter's values never change)."""
    key = "_reach_opportunity" if opportunity_fire(game) else "_reach"
    if key not in unit.extra:
        unit.extra[key] = _reach_now(game, unit)
    reach: float = unit.extra[key]
    return reach


def _reach_now(game: GameState, unit: Unit) -> float:
    if unit.value("at_factor") is not None and unit.type != "ATR":
        return math.inf
    reaches = [0.0]
    if unit.type == "ATR":
        reaches.append(int(unit.value("at_factor")) * int(unit.value("initial_range")))
    factor, increment = _ap_factor(unit), _initial_range(unit)
    reach = float(factor * increment)  # attenuated(factor, increment, d) > 0 up to here
    if opportunity_fire(game):
        ranges = table_values("combat")["opportunity_fire_ranges"]
        if unit.is_afv:
            reach = min(reach, float(ranges["afv_ap_max_range"]))
        elif is_mg(unit):
            reach = min(reach, float(increment))
        elif unit.kind in ("infantry", "commander"):
            reach = min(reach, float(ranges["infantry"]))
    return max(*reaches, reach)


def _factor_at(game: GameState, unit: Unit, target: Hex) -> int:
    """The unit's AP factor at that range, 0 beyond 13.2's opportunity ranges."""
    assert unit.hex is not None
    distance = hex_distance(unit.hex, target)
    factor, increment = _ap_factor(unit), _initial_range(unit)
    if opportunity_fire(game):
        ranges = table_values("combat")["opportunity_fire_ranges"]
        if unit.is_afv:  # 13.2: 'AP factors (4 factors maximum) up to a maximum range of ten hexes'
            if distance > int(ranges["afv_ap_max_range"]):
                return 0
            factor = min(factor, int(ranges["afv_ap_max_factors"]))
        elif is_mg(unit) and distance > increment:  # 'MG's may not opportunity fire beyond their initial range'
            return 0
        elif unit.kind in ("infantry", "commander") and not is_mg(unit) and distance > int(ranges["infantry"]):
            return 0  # 'Infantry: three hexes'
    return attenuated(factor, increment, distance)


def _at_factor(unit: Unit, target: Hex) -> int:
    """12.16: AT fire has unlimited range but an ATR's, which attenuates (11.23)."""
    factor = int(unit.value("at_factor"))
    if unit.type != "ATR":
        return factor
    assert unit.hex is not None
    return attenuated(factor, int(unit.value("initial_range")), hex_distance(unit.hex, target))


def fire_pc_modifier(game: GameState, unit: Unit) -> int:
    """The modifier of `unit`'s PC to fire now, for the dice and for the odds alike: 0 but in
    opportunity fire (13.17: +1 for infantry and AFVs in the Movement Phase, not MGs, ATRs, ATGs;
    +1 for every unit in the Reaction Movement Phase)."""
    if not opportunity_fire(game):
        return 0
    values = table_values("combat")["performance_check"]["opportunity_fire_pc"]
    if game.phase == REACTION:
        return int(values["reaction_phase_all"])
    if unit.kind in ("infantry", "commander", "afv") and not is_mg(unit):
        return int(values["movement_phase_infantry_afv"])
    return int(values["movement_phase_mg_atr_atg"])


# -- the attack's numbers ----------------------------------------------------------------------


def ap_shot(
    game: GameState,
    firers: list[Unit],
    target: Hex,
    *,
    intensive: tuple[str, ...] = (),
    halved: tuple[Part, ...] = (),
    every_unit: bool = False,
    observed: bool = True,
) -> Shot:
    """11.1: each firer's factors after range attenuation (11.2), then doubling and halving (11.15,
    11.16 d; an MG's Spray, 21.35, 21.42: each of `halved` halves it, rounded down), then the other
    reductions (11.16 a-c), in that order; last, 23.32's halving of the final total at an
    unobserved hex (`observed` False: the advanced rules' observation failed; a Fire Lane or a
    Spray is never halved so, 23.35: it does not observe). `every_unit`: a Fire Lane attacks
    friendly units too (21.23)."""
    ap = table_values("combat")["ap_fire"]
    parts: list[Part] = []
    total = 0
    for unit in firers:
        assert unit.hex is not None
        factor = _factor_at(game, unit, target)
        parts.append(Part(f"{unit.id} AP {_ap_factor(unit)} at {hex_distance(unit.hex, target)} hexes", factor, "11.2"))
        if unit.id in intensive:
            factor *= int(ap["intensive_mg_multiplier"])
            parts.append(Part(f"{unit.id} intensive fire: doubled", factor, "11.15"))
        if unit.type == "MMG" and unit.men < int(unit.extra.get("full_crew", unit.men)):
            factor = math.ceil(factor * float(ap["firepower_reductions"]["mmg_not_fully_crewed_multiplier"]))
            parts.append(Part(f"{unit.id} not fully crewed: halved, rounded up (R95)", factor, "11.16 d"))
        for half in halved:
            factor //= 2
            parts.append(Part(half.what, factor, half.rule))
        total += factor
    reductions = ap["firepower_reductions"]
    terrain = game.board.terrain(target)
    in_hex = terrain.trees + sum(1 for u in game.at(target) if u.is_afv) + (1 if target in game.wrecks else 0)
    if in_hex:
        total += in_hex * int(reductions["per_tree_afv_wreck_in_target_hex"])
        parts.append(Part("Trees, AFVs and Wrecks in the target hex", -in_hex, "11.16 a"))
    higher = False
    for h in sorted({u.hex for u in firers if u.hex is not None}):
        along = trees_along(game, h, target)
        if along:
            total += along * int(reductions["per_tree_afv_wreck_along_los"])
            parts.append(Part(f"Trees/AFVs/Wrecks along the LOS from {game.label(h)}", -along, "11.16 b"))
        higher = higher or level_difference(game, h, target) > 0
    if higher:  # 'made if either hex is lower but not minus two if both are lower'
        total += int(reductions["target_higher_level"])
        parts.append(Part("the target hex is higher", int(reductions["target_higher_level"]), "11.16 c"))
    firepower = max(0, total)
    if not observed and not needs_no_observation(game, firers, target):
        firepower = math.ceil(firepower * float(reductions["unobserved_multiplier"]))  # 'rounded up'
        parts.append(Part("the target hex unobserved: halved, rounded up", firepower, "23.32"))
    moved = any(counts_as_moved(game, u) for u in firers)  # 11.32 (and 23.2's Optional Penalty a)
    targets = [u for u in game.at(target) if every_unit or u.side != firers[0].side]  # 10.24, hidden too (R93)
    dice = []
    for unit in targets:
        count, why = ap_dice(game, unit, moved=moved)
        dice.append(Dice(count, tuple(why)))
    return Shot("ap", firers, target, targets, firepower, parts, dice, levels=ap_levels(firepower))


def needs_no_observation(game: GameState, firers: list[Unit], target: Hex) -> bool:
    """23.34: 'AFV's and MG's do not have to observe target hexes that are Buildings to fire their
    full AP fire factors'; an attack with any other firer is halved whole (R348)."""
    building = game.board.terrain(target).building is not None
    return building and all(u.is_afv or is_mg(u) for u in firers)


def at_shot(game: GameState, firer: Unit, target: Hex) -> Shot:
    """12.1: the firer's AT factors (an ATR's attenuated, 12.16), never modified for terrain (12.15);
    12.2's dice; 12.31's armor (frontal if the firer is in the target's frontal area) and +1 for a
    higher target."""
    assert firer.hex is not None
    afv = next(u for u in visible_enemies(game, firer.side, target) if u.is_afv)
    factor = _at_factor(firer, target)
    parts = [Part(f"{firer.id} AT {firer.value('at_factor')}", factor, "12.1" if firer.type != "ATR" else "12.16")]
    rules = table_values("combat")["at_fire"]["dice"]
    moved = counts_as_moved(game, firer)  # 12.2 (and 23.2's Optional Penalty a)
    count = int(rules["moved"] if moved else rules["not_moved"])
    why = (f"{count}: the firer {'moved' if moved else 'has not moved'} this Player Turn (12.2)",)
    frontal = in_frontal_area(target, afv.facing, firer.hex)
    armor = int(afv.value("frontal") if frontal else afv.value("flank"))
    higher = level_difference(game, firer.hex, target) > 0
    return Shot("at", [firer], target, [afv], factor, parts, [Dice(count, why)], armor=armor, higher=higher)
