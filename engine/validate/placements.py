"""The units a test set-up places, resolved against the scenario's set-up list and the counters,
and the areas the scenario lets them deploy in (24.1, 24.21). Shared by the set-up checks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.geometry.movement import terrain_cost
from engine.geometry.zones import ZoneError, resolve
from engine.hexgrid import Hex, LabelError
from engine.model.board import Board
from engine.model.counters import Clause, Counters, Member, fielded_members
from engine.model.scenario import UNIT_KINDS, Scenario, UnitRef, describe_unit
from engine.model.setup import Placement
from engine.model.setup_limits import LIMIT_KINDS, limit_capacity
from engine.model.source import JsonPath

from .context import ScenarioContext

# A unit as an instruction names it: kind, type, number, PR (docs/formats.md, unit ids).
Key = tuple[str, str, int | None, int | None]


def key_of(entry: dict[str, Any]) -> Key:
    """The key of a unit entry, unit_key or placement."""
    kind = next(k for k in UNIT_KINDS if k in entry)
    return kind, str(entry[kind]), entry.get("number"), entry.get("pr")


def names(key: Key, ref: UnitRef, counters: Counters) -> bool:
    """Whether `key` names the fielded unit `ref`; a commander's PR may be left out where the
    side has one commander of that rank (docs/formats.md)."""
    kind, type_, number, pr = key
    if (kind, type_) != (ref.kind, ref.type):
        return False
    if kind in ("crew_weapon", "afv"):
        return number == ref.number
    if kind == "commander":
        a, b = _commander_pr(counters, ref.side, type_, pr), _commander_pr(counters, ref.side, type_, ref.pr)
        return a is None or b is None or a == b
    return True


def _commander_pr(counters: Counters, side: str, rank: str, pr: int | None) -> int | None:
    if pr is not None:
        return pr
    prs = [p for r, p in counters.commanders[side] if r == rank]
    return prs[0] if len(prs) == 1 else None


def describe_key(key: Key) -> str:
    return describe_unit(*key)


# -- counter values the Counters model does not carry ----------------------------------------


def counter_value(counters: Counters, *path: str | int) -> Any:
    """A value of counters/counters.yaml by its keys and list indexes (`crew_weapons`, side, type,
    `crew`), a sourced value unwrapped; None if absent."""
    node: Any = counters.doc.data if counters.doc is not None else None
    for key in path:
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            return None
    return node.get("value") if isinstance(node, dict) and "value" in node else node


def crew(counters: Counters, side: str, cw_type: str) -> int | None:
    """The men of a CW (8.63: 'indicated on its counter'); None if the counters do not say."""
    value = counter_value(counters, "crew_weapons", side, cw_type, "crew")
    return int(value) if value is not None else None


# -- placed units -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A set-up entry and the fielded unit it places; for a squad, the members it places."""

    placement: Placement
    ref: UnitRef
    members: tuple[Member, ...] = ()

    @property
    def state(self) -> str:
        """3.12: the owner's choice; the group's `state` when the entry gives none, else UP."""
        return self.placement.state or str(self.ref.data.get("state", "up"))

    def men(self, counters: Counters, per_infantry_unit: int) -> int | None:
        """Men in the hex (8.63): `per_infantry_unit` each infantry unit, a CW its crew, an AFV none."""
        if self.ref.kind == "squad":
            return len(self.members) * per_infantry_unit
        if self.ref.kind == "commander":
            return per_infantry_unit
        if self.ref.kind == "crew_weapon":
            return crew(counters, self.ref.side, self.ref.type)
        return 0

    def faces_hexside(self, counters: Counters) -> bool:
        """8.7: 'Only ATG's, MG's (both MMG and LMG) and AFV's must face a hexside'; the counters say which
        CWs and infantry weapons (a squad: any of the members placed; a commander: his weapon)."""
        side, kind = self.ref.side, self.ref.kind
        if kind == "afv":
            return True
        if kind == "crew_weapon":
            return bool(counter_value(counters, "crew_weapons", side, self.ref.type, "facing"))
        if kind == "squad":
            weapons = {m.weapon for m in self.members}
        else:
            pr = _commander_pr(counters, side, self.ref.type, self.ref.pr)
            weapons = {
                str(counter_value(counters, "commanders", side, i, "weapon"))
                for i, (rank, rank_pr) in enumerate(counters.commanders[side])
                if (rank, rank_pr) == (self.ref.type, pr)
            }
        return any(counter_value(counters, "infantry_weapons", side, weapon, "facing") for weapon in weapons)


@dataclass(frozen=True)
class Misplaced:
    """A set-up entry that places nothing: `unknown` (the side fields no such unit) or `twice`."""

    placement: Placement
    reason: str  # unknown | twice
    message: str


@dataclass(frozen=True)
class Unplaced:
    """A fielded unit the set-up does not place; for a squad, its members left (`partial`: some are placed)."""

    ref: UnitRef
    members: tuple[Member, ...] = ()
    partial: bool = False


@dataclass
class SidePlacements:
    placed: list[Placed] = field(default_factory=list)
    misplaced: list[Misplaced] = field(default_factory=list)
    unplaced: list[Unplaced] = field(default_factory=list)


def place(scenario: Scenario, counters: Counters, side: str, entries: Sequence[Placement]) -> SidePlacements:
    """Resolve a side's `units:` entries. A squad's member entries take their men first; a whole-squad
    entry then takes the fielded members left. Results keep the order of the file."""
    refs = [r for r in scenario.units if r.side == side]
    left: dict[JsonPath, list[Member]] = {}
    for ref in refs:
        members = counters.squad(side, ref.type) if ref.kind == "squad" else None
        if members is not None:  # a squad not in the counters is placed whole (unknown-unit reports it)
            left[ref.path] = fielded_members(ref.data, members)[0]
    fielded = {path: len(members) for path, members in left.items()}
    taken: set[JsonPath] = set()
    results: dict[JsonPath, Placed | Misplaced] = {}
    for p in sorted(entries, key=lambda p: p.kind != "squad" or p.member is None):
        results[p.path] = _place_one(p, refs, left, taken, counters)
    out = SidePlacements()
    for p in entries:
        result = results[p.path]
        if isinstance(result, Placed):
            out.placed.append(result)
        else:
            out.misplaced.append(result)
    for ref in refs:
        if left.get(ref.path) or (ref.path not in left and ref.path not in taken):
            rest = tuple(left.get(ref.path, ()))
            out.unplaced.append(Unplaced(ref, rest, 0 < len(rest) < fielded.get(ref.path, 0)))
    return out


def _place_one(
    p: Placement, refs: list[UnitRef], left: dict[JsonPath, list[Member]], taken: set[JsonPath], counters: Counters
) -> Placed | Misplaced:
    """`left`: the fielded members of each squad (by its path in the scenario) not placed yet;
    `taken`: the units (whole squads) placed."""
    key: Key = (p.kind, p.type, p.number, p.pr)
    ref = next((r for r in refs if names(key, r, counters)), None)
    side = p.side.capitalize()
    if ref is None:
        return Misplaced(p, "unknown", f"{side} side fields no {describe_key(key)}")
    if ref.path not in left:
        if ref.path in taken:
            return Misplaced(p, "twice", f"{side} {ref.describe()} is placed twice")
        taken.add(ref.path)
        return Placed(p, ref)
    if p.member is None:
        if ref.path in taken or not left[ref.path]:
            return Misplaced(p, "twice", f"every {side} {ref.describe()} member is placed already")
        taken.add(ref.path)
        members, left[ref.path] = tuple(left[ref.path]), []
        return Placed(p, ref, members)
    clause = Clause.parse(p.member)
    match = next((m for m in left[ref.path] if clause.matches(m)), None)
    if match is None:
        fielded = fielded_members(ref.data, counters.squad(ref.side, ref.type) or [])[0]
        if any(clause.matches(m) for m in fielded):
            return Misplaced(p, "twice", f"no {side} {ref.describe()} {p.member} is left to place: placed already")
        roster = ", ".join(m.describe() for m in fielded)
        return Misplaced(p, "unknown", f"{side} {ref.describe()} fields no {p.member} (fielded: {roster})")
    left[ref.path].remove(match)
    return Placed(p, ref, (match,))


# -- where units deploy -------------------------------------------------------------------------


def zone_hexes(ctx: ScenarioContext, zone: Any, path: JsonPath) -> frozenset[Hex] | None:
    """A zone reference's hexes (a name or an inline expression); None if it does not resolve
    (zone-empty reports why)."""
    if isinstance(zone, str):
        return ctx.zone(zone)
    if ctx.zones is None:
        return None
    try:
        return resolve(zone, ctx.zones, path)
    except ZoneError:
        return None


def group_of(scenario: Scenario, ref: UnitRef) -> str:
    _, side, _, g, *_ = ref.path
    return str(scenario.data["sides"][side]["groups"][g]["name"])


def _instructions(scenario: Scenario, side: str, key: str) -> Iterator[tuple[dict[str, Any], JsonPath]]:
    for i, item in enumerate(scenario.data["sides"][side].get(key) or []):
        yield item, ("sides", side, key, i)


def names_ref(scenario: Scenario, item: dict[str, Any], ref: UnitRef, counters: Counters) -> str | None:
    """`unit` if the instruction lists the unit itself, `group` if it names its group, else None."""
    if any(names(key_of(u), ref, counters) for u in item.get("units") or []):
        return "unit"
    return "group" if item.get("group") == group_of(scenario, ref) else None


def deployment_zones(scenario: Scenario, ref: UnitRef, counters: Counters) -> list[tuple[Any, JsonPath]]:
    """The zones a unit may deploy in: those of the deployments listing it, else of those naming its
    group; none for a unit that enters the map (24.1)."""
    found: dict[str, list[tuple[Any, JsonPath]]] = {"unit": [], "group": []}
    for item, path in _instructions(scenario, ref.side, "deployment"):
        how = names_ref(scenario, item, ref, counters)
        if how:
            found[how].append((item["zone"], (*path, "zone")))
    return found["unit"] or found["group"]


def union(areas: Iterable[frozenset[Hex] | None]) -> frozenset[Hex] | None:
    """The union of areas; None if any of them does not resolve."""
    out: frozenset[Hex] = frozenset()
    for area in areas:
        if area is None:
            return None
        out |= area
    return out


def side_area(ctx: ScenarioContext, side: str) -> frozenset[Hex] | None:
    """24.21: 'that area of the map in which the player is permitted to deploy': all his deployments."""
    items = _instructions(ctx.scenario, side, "deployment")
    return union(zone_hexes(ctx, item["zone"], (*path, "zone")) for item, path in items)


def group_area(ctx: ScenarioContext, side: str, group: str) -> frozenset[Hex] | None:
    items = [(i, p) for i, p in _instructions(ctx.scenario, side, "deployment") if i.get("group") == group]
    return union(zone_hexes(ctx, item["zone"], (*path, "zone")) for item, path in items)


def not_entering(scenario: Scenario, refs: list[UnitRef], counters: Counters) -> list[UnitRef]:
    """The deploying units left off the map that no entry's `limit` lets enter instead (R15: up to
    that many units of each kind may use the entry instead of deploying), taken in order."""
    if not refs:
        return []
    room = [
        (item, {kind: limit_capacity(value) for kind, value in item["limit"].items()})
        for item, _ in _instructions(scenario, refs[0].side, "entries")
        if item.get("limit")
    ]
    left = []
    for ref in refs:
        kind = LIMIT_KINDS[ref.kind]
        for item, capacity in room:
            count, types = capacity.get(kind, (0, None))
            if count and (types is None or ref.type in types) and names_ref(scenario, item, ref, counters):
                capacity[kind] = (count - 1, types)
                break
        else:
            left.append(ref)
    return left


def may_stand(board: Board, h: Hex, *, afv: bool, state: str) -> bool:
    """Whether a unit may stand in h: not "P" on the Movement & Combat Effects Chart (8.5), whose
    columns are "INF & CW" and "AFV", UP or DOWN."""
    return terrain_cost(board.terrain(h), afv=afv, up=state == "up") is not None


def board_hex(ctx: ScenarioContext, label: str) -> Hex | None:
    """The hex a set-up label names; None when it is not on the maps (setup-hex-off-map reports it)."""
    if ctx.board is None:
        return None
    try:
        return ctx.board.hex(label)
    except LabelError:
        return None
