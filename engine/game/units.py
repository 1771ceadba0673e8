"""The counters of a game: every unit a scenario fields, with its values from counters/counters.yaml.

A squad is fielded as its members, each a unit of its own (2.21: each infantry counter is one
man). Ids name a unit the way a player does, in a form a log and a command line can carry:
`german/C/R-PR9-1` (squad C's first R PR9), `russian/PL-PR10`, `german/MMG-1`, `russian/T34b-2`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.geometry.movement import Morale, Mover, Phase, State, UnitClass
from engine.hexgrid import Hex
from engine.model.counter_values import counter_values
from engine.model.counters import Counters, fielded_squad
from engine.model.scenario import Scenario, UnitRef

if TYPE_CHECKING:  # state.py imports this module
    from .state import GameState

# Where a unit is: not yet on the map (entering later), on it, or eliminated.
WAITING, ON_MAP, ELIMINATED = "waiting", "on_map", "eliminated"


# The notes under which a shared unit keeps what is worked out of its fields (`while_shared`: the
# digest's parts too; and steps.may_start's for the phase): valid while no state changes it, so a
# state's own copy of it goes without (GameState.changing).
WHILE_SHARED = ("_dynamic", "_may_start", "_digest")


class SharedUnitError(RuntimeError):
    """A unit changed in place while a copy of its state shares it: a bug in the engine (every
    change goes through `GameState.changing`, docs/engine.md "Speed")."""


class Extra(dict[str, Any]):
    """A unit's marks that are not fields (the rules' notes: "moving", "pc_passed"...)."""

    __slots__ = ()


class SharedExtra(Extra):
    """The notes of a `SharedUnit`: written only under keys starting with "_", the engine's caches
    of values keyed by all they depend on (`Unit.mover`, movement.budget), valid in every state
    that shares the unit."""

    __slots__ = ()

    def _refuse(self, key: Any) -> None:
        if not (type(key) is str and key[:1] == "_"):
            raise SharedUnitError(f"a unit's {key!r} changed while a copy of its state shares it")

    def __setitem__(self, key: str, value: Any) -> None:
        self._refuse(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._refuse(key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self._refuse(key)
        return super().pop(key, *default)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._refuse(key)
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._refuse("update")

    def clear(self) -> None:
        self._refuse("clear")

    def popitem(self) -> tuple[str, Any]:
        self._refuse("popitem")
        raise AssertionError  # not reached

    def __ior__(self, other: Any) -> SharedExtra:  # type: ignore[override,misc]
        self._refuse("|=")
        raise AssertionError  # not reached


@dataclass(eq=False)
class Unit:
    """One counter and its state in the game (3.0: UP/DOWN, NORMAL/PINNED/SUPPRESSED; 8.7 facing).

    A Unit is changed in place by the one state that holds it; once a copy of that state shares it,
    it is a `SharedUnit` (copy-on-write: `GameState.changing`, docs/engine.md "Speed")."""

    id: str
    side: str
    kind: str  # infantry | ft | commander | cw | afv
    type: str  # the weapon (R, MP, LMG, FT), the rank (PL, APL, PS), the CW or AFV type
    squad: str | None
    number: int | None
    pr: int
    men: int  # 8.63: an infantry unit one man, a CW its crew, an AFV none
    movement: float | None  # the counter's Movement Factor (CWs, AFVs)
    faces_hexside: bool  # 8.7: ATGs, MGs and AFVs face a hexside
    group: str
    where: str = WAITING
    hex: Hex | None = None
    state: str = State.UP
    morale: str = Morale.NORMAL
    facing: int | None = None  # index of the frontal hexside in hexgrid.DIRECTIONS
    hidden: bool = False
    immobilized: bool = False  # 8.54, 8.55: for the rest of the game
    # this Player Turn (4.0: MOVE means "took a PC for the action", pass or fail)
    moved: bool = False
    fired: bool = False
    mp_spent: float = 0.0
    move_done: bool = False  # its movement this phase is over
    allowance_cap: float | None = None  # 8.3 C: a unit led off on its own moves at most 4 (2) MP
    led_by: str | None = None  # 8.3 B: moves with this leader; takes no PC of its own
    extra: dict[str, Any] = field(default_factory=Extra)  # always an Extra (`GameState.copy` freezes it)
    # the counter's combat values (ap_factor, initial_range, at_factor, assault_rating, frontal,
    # flank, overrun, ap_range, turret), from counters/counters.yaml; never changed in play
    values: dict[str, Any] = field(default_factory=dict, repr=False)

    __hash__ = None  # type: ignore[assignment]  # as a dataclass with eq: units are not hashed

    def __eq__(self, other: object) -> bool:
        """Field by field (a dataclass's eq), a shared unit alike."""
        return isinstance(other, Unit) and self.__dict__ == other.__dict__

    @property
    def on_map(self) -> bool:
        return self.where == ON_MAP

    @property
    def unit_class(self) -> UnitClass:
        return {"ft": UnitClass.FT, "cw": UnitClass.CW, "afv": UnitClass.AFV}.get(self.kind, UnitClass.INFANTRY)

    @property
    def is_afv(self) -> bool:
        return self.kind == "afv"

    @property
    def may_change_state(self) -> bool:
        """3.27: only NORMAL units change their UP/DOWN state; 11.43: an AFV whose commander was killed
        'must remain in the DOWN state for the remainder of the game'."""
        return self.morale == Morale.NORMAL and not self.extra.get("commander_killed")

    @property
    def is_leader_rank(self) -> bool:
        """5.1: commanders (PL, APL, PS) are leaders."""
        return self.kind == "commander"

    def mover(self, phase: str) -> Mover:
        """The unit as the geometry layer's movement rules see it (8.1, 8.5, 8.74)."""
        key = (self.state, self.morale, phase, self.facing)
        if self.extra.get("_mover_key") != key:
            mp = self.movement if self.kind in ("cw", "afv") else None
            facing = self.facing if self.is_afv else None
            self.extra["_mover"] = _mover(
                self.unit_class, str(self.state), str(self.morale), phase == "movement", mp, facing
            )
            self.extra["_mover_key"] = key
        mover: Mover = self.extra["_mover"]
        return mover

    def describe(self) -> str:
        return self.id

    def value(self, name: str, default: Any = None) -> Any:
        """A combat value of the counter (`values`), or `default` where the counter has none."""
        found = self.values.get(name)
        return default if found is None else found


class SharedUnit(Unit):
    """A unit that a state and its copy share: changed by neither in place (`GameState.changing`
    gives a state its own copy first)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise SharedUnitError(f"{self.id}: {name} changed while a copy of its state shares the unit")

    def __delattr__(self, name: str) -> None:
        raise SharedUnitError(f"{self.id}: {name} deleted while a copy of its state shares the unit")


def share_all(units: list[Unit]) -> None:
    """Units a state changed in place, shared from now on (by a copy of it): `SharedUnit`s, their
    notes `SharedExtra`, changed by no state in place."""
    for unit in units:
        fields = unit.__dict__
        object.__setattr__(unit, "__class__", SharedUnit)
        extra = fields["extra"]
        if type(extra) is Extra:
            extra.__class__ = SharedExtra
        elif type(extra) is not SharedExtra:  # a plain dict set by hand (a test's)
            fields["extra"] = SharedExtra(extra)


def own_copy(unit: Unit) -> Unit:
    """A copy of the unit for a state to change in place (not through __init__: its fields' dict
    given whole), without what a shared unit keeps while no state changes it."""
    fields = unit.__dict__.copy()
    fields["extra"] = extra = Extra(fields["extra"])
    for note in WHILE_SHARED:
        extra.pop(note, None)
    twin: Unit = object.__new__(Unit)
    twin.__dict__ = fields
    return twin


# what a stale unit still answers: the counter's own, never changed in play (`changing` finds a
# unit by id)
_FIXED = frozenset(
    (
        *("id", "side", "kind", "type", "squad", "number", "pr", "movement", "faces_hexside", "group", "values"),
        *("is_afv", "unit_class", "is_leader_rank", "value", "describe", "__class__"),
    )
)


class StaleUnit(SharedUnit):
    """A unit `GameState.changing` replaced with the tests' STRICT_UNITS on: reading it is reading
    a stale reference."""

    def __getattribute__(self, name: str) -> Any:
        if name in _FIXED:
            return object.__getattribute__(self, name)
        raise SharedUnitError(f"a unit read through a reference kept across its change ({name})")


def make_stale(unit: Unit) -> None:
    object.__setattr__(unit, "__class__", StaleUnit)


def while_shared(unit: Unit, note: str, work: Callable[[Unit], Any]) -> Any:
    """`work(unit)`, a function of the unit's fields and notes alone, kept under `note` (one of
    WHILE_SHARED) while the unit is shared: no state changes a `SharedUnit`. Its callers ask
    `type(unit) is SharedUnit` first and call `work` for a state's own unit themselves (one call
    less: they are asked of every unit at every listing)."""
    found = unit.extra.get(note)
    if found is None:
        found = unit.extra[note] = work(unit)
    return found


@cache
def _mover(unit: UnitClass, state: str, morale: str, movement: bool, mp: float | None, facing: int | None) -> Mover:
    return Mover(unit, State(state), Morale(morale), Phase.MOVEMENT if movement else Phase.REACTION, mp, facing)


def field_units(scenario: Scenario, counters: Counters) -> list[Unit]:
    """Every unit the scenario's set-up lists field, in file order (24.1); a squad as its members.

    24.1: of several members a less-clause matches, the owner removes one at random; they are
    the same counter (weapon and PR), so which one is left out changes nothing.
    """
    units: list[Unit] = []
    seen: Counter[str] = Counter()
    for index, ref in enumerate(scenario.units):
        group = _group(scenario, ref)
        for position, unit in enumerate(_units_of(ref, counters, group)):
            unit.extra["listed_state"] = str(ref.data.get("state", "up"))  # 3.12: the set-up list's
            unit.extra["_listed"] = (index, position)  # 24.1: its entry and place there (22.0's ammo)
            if unit.kind == "cw":
                unit.extra["full_crew"] = unit.men  # 8.12: a CW without its full crew never moves
            seen[unit.id] += 1
            if seen[unit.id] > 1:  # two alike: number them apart
                unit.id = f"{unit.id}-{seen[unit.id]}"
            units.append(unit)
    return units


def _group(scenario: Scenario, ref: UnitRef) -> str:
    _, side, _, g, *_ = ref.path
    return str(scenario.data["sides"][side]["groups"][g]["name"])


def _units_of(ref: UnitRef, counters: Counters, group: str) -> list[Unit]:
    side = ref.side
    if ref.kind == "squad":
        members = fielded_squad(counters, side, ref.type, ref.data) or []
        alike: Counter[tuple[str, int]] = Counter()
        out = []
        for m in members:
            alike[(m.weapon, m.pr)] += 1
            values = counter_values(counters, side, "squad", ref.type, member=m.index)
            out.append(
                Unit(
                    id=f"{side}/{ref.type}/{m.weapon}-PR{m.pr}-{alike[(m.weapon, m.pr)]}",
                    side=side,
                    kind="ft" if m.weapon == "FT" else "infantry",
                    type=m.weapon,
                    squad=ref.type,
                    number=None,
                    pr=m.pr,
                    men=1,
                    movement=None,
                    faces_hexside=bool(_value(values, "facing", False)),
                    group=group,
                    values=_combat_values(values),
                )
            )
        return out
    if ref.kind == "commander":
        pr = ref.pr if ref.pr is not None else _only_pr(counters, side, ref.type)
        values = counter_values(counters, side, "commander", ref.type, pr=pr)
        return [
            Unit(
                id=f"{side}/{ref.type}-PR{pr}",
                side=side,
                kind="commander",
                type=ref.type,
                squad=None,
                number=None,
                pr=int(pr),
                men=1,
                movement=None,
                faces_hexside=bool(_value(values, "facing", False)),
                group=group,
                values=_combat_values(values),
            )
        ]
    kind = "cw" if ref.kind == "crew_weapon" else "afv"
    values = counter_values(counters, side, ref.kind, ref.type)
    return [
        Unit(
            id=f"{side}/{ref.type}-{ref.number}",
            side=side,
            kind=kind,
            type=ref.type,
            squad=None,
            number=ref.number,
            pr=int(_required(values, "pr", ref)),
            men=int(_required(values, "crew", ref)) if kind == "cw" else 0,
            movement=float(_required(values, "movement", ref)),
            faces_hexside=kind == "afv" or bool(_value(values, "facing", False)),
            group=group,
            values=_combat_values(values),
        )
    ]


def _only_pr(counters: Counters, side: str, rank: str) -> int:
    prs = [pr for r, pr in counters.commanders[side] if r == rank]
    return prs[0]


def _required(values: dict[str, Any], name: str, ref: UnitRef) -> Any:
    """A value the counters must give (they give every value, printed or assumed: provenance policy)."""
    if name not in values:
        raise ValueError(f"counters/counters.yaml gives no {name} for {ref.side} {ref.describe()}")
    return values[name].value


_COMBAT_VALUES = (
    *("ap_factor", "initial_range", "at_factor", "assault_rating"),
    *("frontal", "flank", "overrun", "ap_range", "turret"),
)


def _combat_values(values: dict[str, Any]) -> dict[str, Any]:
    return {name: values[name].value for name in _COMBAT_VALUES if name in values}


def _value(values: dict[str, Any], name: str, default: Any) -> Any:
    found = values.get(name)
    return found.value if found is not None else default


def names_unit(key: dict[str, Any], unit: Unit) -> bool:
    """A unit key (docs/formats.md, unit ids) names a unit: a squad all its members, a commander
    by rank (and PR where given), a CW or AFV by type and number."""
    if "squad" in key:
        return unit.squad == str(key["squad"])
    if "commander" in key:
        return unit.kind == "commander" and unit.type == key["commander"] and key.get("pr") in (None, unit.pr)
    key_name, kind = ("crew_weapon", "cw") if "crew_weapon" in key else ("afv", "afv")
    return unit.kind == kind and unit.type == str(key[key_name]) and unit.number == key.get("number")


def side_ids(game: GameState, name: str, side: str, test: Callable[[Unit], bool]) -> tuple[str, ...]:
    """The ids of the side's units `test` holds for (of a kind: AFVs, mortars...), in the order of
    `side_units`, kept in the game's caches as `name` (ids only: copies share them; LASTING_CACHES
    says whether they outlive the phase), where each listing walked every unit of the side."""
    kept: dict[str, tuple[str, ...]] = game.caches.setdefault(name, {})
    ids = kept.get(side)
    if ids is None:
        ids = kept[side] = tuple(u.id for u in game.side_units(side) if test(u))
    return ids
