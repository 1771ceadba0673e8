"""The set-up (24.1): the side that sets up first places its units in their deployment zones, then
its IPs (18.1), mines (19.11-19.14, secretly) and hidden hexes (24.21); then the other side; then
the entries a group chooses before play. A scenario's `setup:` (the editor's test set-up) is
where a game begins: what it places is placed, the rest is left to the players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.geometry.movement import State
from engine.hexgrid import Hex, parse_label
from engine.model.setup import side_setups
from engine.model.setup_limits import Capped, cap_excess
from engine.model.tables import table_values
from engine.validate.placements import may_stand

from .actions import DONE, ENTRY, FACE, HIDE, HOLD, IP, MINE, PLACE, STATE, Action, IllegalAction
from .facing import facing_choices, facing_index
from .stacks import over_stacked
from .state import ENTRY_CHOICE, GameState
from .units import ON_MAP, WAITING, Unit


def deploying(game: GameState, unit: Unit) -> bool:
    """A unit with a deployment zone deploys; one its group only enters with is placed by no one."""
    return bool(deployment_area(game, unit))


def _deployments(game: GameState, unit: Unit) -> list[dict[str, Any]]:
    """24.1: the deployments naming the unit, else those naming its group."""
    found: dict[str, list[dict[str, Any]]] = {"unit": [], "group": []}
    for d in game.scenario.data["sides"][unit.side].get("deployment") or []:
        if game.names(d, unit):
            found["group" if d.get("group") is not None else "unit"].append(d)
    return found["unit"] or found["group"]


def deployment_area(game: GameState, unit: Unit) -> frozenset[Hex]:
    """24.1: the zones of the deployments naming the unit, else those naming its group; kept for
    the phase by the unit's id (the set-up lists the units still to place at every placement)."""
    kept: dict[Any, frozenset[Hex]] = game.caches.setdefault("setup", {})
    key = ("area", unit.id)
    found = kept.get(key)
    if found is None:
        found = kept[key] = frozenset().union(*(game.zone_hexes(d["zone"]) for d in _deployments(game, unit)))
    return found


def _caps(game: GameState, unit: Unit) -> list[tuple[dict[str, Any], frozenset[Hex]]]:
    """R83: the unit's capped deployments, each with the hexes where the unit counts against it
    (in the capped zone and in none of the unit's other deployment zones); kept for the set-up."""
    kept: dict[Any, list[tuple[dict[str, Any], frozenset[Hex]]]] = game.caches.setdefault("setup", {})
    key = ("caps", unit.id)
    if key not in kept:
        deployments = _deployments(game, unit)
        kept[key] = [
            (
                d,
                frozenset(game.zone_hexes(d["zone"])).difference(
                    *(game.zone_hexes(o["zone"]) for o in deployments if o is not d)
                ),
            )
            for d in deployments
            if d.get("limit")
        ]
    return kept[key]


def _capped(unit: Unit) -> Capped:
    """The unit as a cap counts it, in the scenario's words (R83)."""
    if unit.squad is not None:
        return Capped("squad", unit.squad, unit.type)
    return Capped({"cw": "crew_weapon"}.get(unit.kind, unit.kind), unit.type)


def over_cap(game: GameState, unit: Unit, h: Hex) -> str | None:
    """Why placing the unit in h breaks a deployment's `limit:` (24.1, R83), else None."""
    for d, only_here in _caps(game, unit):
        if h not in only_here:
            continue
        excess = _cap_excess(game, unit, d)
        if excess:
            zone = d["zone"] if isinstance(d["zone"], str) else "its zone"
            return f"{excess[0].what} in {zone}: the deployment's limit allows {excess[0].most}"
    return None


def _capped_out(game: GameState, unit: Unit) -> set[Hex]:
    """The hexes where placing the unit breaks a deployment's `limit:` (`over_cap` of each)."""
    out: set[Hex] = set()
    for d, only_here in _caps(game, unit):
        if _cap_excess(game, unit, d):
            out |= only_here
    return out


def _cap_excess(game: GameState, unit: Unit, d: dict[str, Any]) -> list[Any]:
    """What the capped deployment d would hold over its limit with the unit placed where it counts
    (R83): the units d names that stand only in its zone, counted by the validator's own function."""
    standing = [
        u
        for u in game.side_units(unit.side)
        if u.on_map and any(u.hex in area for cap, area in _caps(game, u) if cap is d)
    ]
    return cap_excess(d["limit"], [_capped(u) for u in [*standing, unit]])


def side_area(game: GameState, side: str) -> frozenset[Hex]:
    """24.21: 'that area of the map in which the player is permitted to deploy'; kept for the phase
    (the set-up lists the hidden hexes at every choice)."""
    kept: dict[Any, frozenset[Hex]] = game.caches.setdefault("setup", {})
    key = ("side_area", side)
    found = kept.get(key)
    if found is None:
        deployments = game.scenario.data["sides"][side].get("deployment") or []
        found = kept[key] = frozenset().union(*(game.zone_hexes(d["zone"]) for d in deployments))
    return found


def to_place(game: GameState, side: str) -> list[Unit]:
    """The side's deploying units not yet placed nor held for an entry, in order."""
    units = game.units
    return [units[i] for i in _deployers(game, side) if units[i].where == WAITING and i not in game.held]


def _deployers(game: GameState, side: str) -> tuple[str, ...]:
    """The ids of the side's units that deploy, in order; kept for the set-up (a unit's deployments
    never change, and `to_place` is asked at every placement)."""
    kept: dict[Any, tuple[str, ...]] = game.caches.setdefault("setup", {})
    key = ("deployers", side)
    found = kept.get(key)
    if found is None:
        found = kept[key] = tuple(u.id for u in game.side_units(side) if deploying(game, u))
    return found


def apply_given_setup(game: GameState) -> list[dict[str, Any]]:
    """Place what the scenario's `setup:` places (docs/formats.md, Scenario set-up); the
    validator has checked it."""
    events: list[dict[str, Any]] = []
    for side_setup in side_setups(game.scenario):
        side = side_setup.side
        for placement in side_setup.units:
            for unit in _placed_by(game, side, placement):
                h = game.hex(placement.hex)
                unit = _put(game, unit, h, placement.state or str(unit.extra.get("listed_state", "up")))
                if placement.facing is not None:
                    unit.facing = facing_index(h, parse_label(placement.facing, game.board.offset))
                events.append({"event": "placed", "unit": unit.id, "hex": placement.hex, "from": "setup"})
        for ip in side_setup.improved_positions:
            game.improved_positions[game.hex(ip.hex)] = ip.points
            _use_ip(game, side, ip.points)
        for mined in side_setup.mines:
            mines, h = game.secrets[side].mines, game.hex(mined.hex)
            placed = mines.get(h, {"ap": 0, "at": 0})  # a new dict, not counted up in place: copies share them
            mines[h] = {"ap": placed["ap"] + mined.ap_factors, "at": placed["at"] + mined.at_factors}
        for hidden in side_setup.hidden_hexes:
            events.append(_hide(game, side, game.hex(hidden.hex)))
    return events


def _placed_by(game: GameState, side: str, placement: Any) -> list[Unit]:
    """The waiting units a `setup:` entry names: one squad member, the squad's rest, or one unit."""
    waiting = [u for u in game.side_units(side) if u.where == WAITING]
    if placement.kind == "squad":
        members = [u for u in waiting if u.squad == placement.type]
        if placement.member is None:
            return members
        weapon, _, pr = placement.member.partition(" PR")
        for u in members:
            if u.type == weapon and (not pr or u.pr == int(pr)):
                return [u]
        return []
    key: dict[str, Any] = {placement.kind: placement.type}
    if placement.number is not None:
        key["number"] = placement.number
    if placement.pr is not None:
        key["pr"] = placement.pr
    found = [u for u in waiting if game.names({"units": [key]}, u)]
    return found[:1]


def _put(game: GameState, unit: Unit, h: Hex, state: str) -> Unit:
    """The unit placed in h in `state`: the state's own unit, as changed (copy-on-write)."""
    unit = game.changing(unit)
    game.relocate(unit, ON_MAP, h)
    unit.state = State(state)
    game.control[h] = unit.side
    return unit


# -- the set-up decisions -----------------------------------------------------------------


def setup_actions(game: GameState) -> list[Action]:
    side = game.to_act
    facing = _needs_facing(game, side)
    if facing is not None:  # 8.7: a unit that faces a hexside is placed with its facing
        return facing_choices(game, facing)
    units = to_place(game, side)
    if units:
        unit = units[0]
        actions = _placements(game, unit)
        if _may_hold(game, unit):
            actions.append(Action(HOLD, (unit.id,)))
        return actions
    # 3.12: 'A unit may start the game or enter the map in either state': those placed and those to enter
    kept: dict[Any, Any] = game.caches.setdefault("setup", {})
    downs = kept.get(("down", side))  # each made once, where each listing made them all again
    if downs is None:
        downs = kept[("down", side)] = {u.id: Action(STATE, (u.id,), "down") for u in game.side_units(side)}
    actions = [downs[u.id] for u in game.side_units(side) if u.where in (ON_MAP, WAITING) and u.state == State.UP]
    actions += _ip_actions(game, side) + mine_actions(game, side) + _hide_actions(game, side)
    actions.append(Action(DONE))
    return actions


def _needs_facing(game: GameState, side: str) -> Unit | None:
    return next((u for u in game.side_units(side) if u.on_map and u.faces_hexside and u.facing is None), None)


def _placements(game: GameState, unit: Unit) -> list[Action]:
    """`place UNIT HEX` for each hex of `_standing` that takes the unit now (`_may_place`), each
    action made once per board: only the hexes units stand in are asked for 8.62's limit, as an
    empty one takes the unit unless it alone breaks the limit."""
    area = deployment_area(game, unit)
    key = (unit.id, area, unit.is_afv, str(unit.state))
    kept: dict[Any, list[tuple[Hex, Action]]] = game.board.caches.setdefault("game_placements", {})
    placements = kept.get(key)
    if placements is None:
        placements = kept[key] = [(h, Action(PLACE, (unit.id,), game.label_of(h))) for h in _standing(game, unit)]
    occupied = game.occupied()
    refused = _capped_out(game, unit)
    refused.update(h for h in occupied if over_stacked(game, unit.side, h, [unit]))
    empty = next((h for h, _ in placements if h not in occupied), None)
    if empty is not None and over_stacked(game, unit.side, empty, [unit]):  # the unit alone is over it
        refused.update(h for h, _ in placements if h not in occupied)
    return [action for h, action in placements if h not in refused]


def _standing(game: GameState, unit: Unit) -> list[Hex]:
    """The deployment area's hexes the unit may stand in, in order: kept per board by the area
    (most units of a side share theirs) and how the unit stands (the game never edits the terrain)."""
    return _standing_in(game, deployment_area(game, unit), unit.is_afv, str(unit.state))


def _standing_in(game: GameState, area: frozenset[Hex], afv: bool, state: str) -> list[Hex]:
    kept: dict[Any, list[Hex]] = game.board.caches.setdefault("game_standing", {})
    key = (area, afv, state)
    found = kept.get(key)
    if found is None:
        found = kept[key] = [h for h in sorted(area) if may_stand(game.board, h, afv=afv, state=state)]
    return found


def _may_place(game: GameState, unit: Unit, h: Hex) -> bool:
    """A hex the unit may stand in takes it now: 8.62's limit, a deployment's cap (R83)."""
    return not over_stacked(game, unit.side, h, [unit]) and over_cap(game, unit, h) is None


def _may_hold(game: GameState, unit: Unit) -> bool:
    """R15: up to an entry's `limit` of each kind of its group's units enter instead of deploying."""
    kinds = {"infantry": "squads", "ft": "squads", "commander": "commanders", "cw": "crew_weapons", "afv": "afvs"}
    for entry in game.scenario.data["sides"][unit.side].get("entries") or []:
        limit = entry.get("limit")
        if not limit or not game.names(entry, unit):
            continue
        value = limit.get(kinds[unit.kind])
        if value is None:
            continue
        count, types = (value["count"], value["types"]) if isinstance(value, dict) else (value, None)
        if types is not None and unit.type not in types:
            continue
        held = [game.unit(i) for i in game.held if game.names(entry, game.unit(i))]
        if unit.kind in ("infantry", "ft"):  # a squad enters whole: the limit counts squads
            squads = {u.squad for u in held if u.kind in ("infantry", "ft")}
            if unit.squad in squads or len(squads) < count:
                return True
        elif sum(1 for u in held if kinds[u.kind] == kinds[unit.kind]) < count:
            return True
    return False


def _ip_markers(game: GameState, side: str) -> list[dict[str, Any]]:
    """The side's IP markers not yet placed: (points, zone, group), one entry per marker (24.1, 18.1)."""
    data = game.scenario.data["sides"][side]
    markers = []
    for holder, group in [(data, None), *((g, g["name"]) for g in data["groups"])]:
        for ip in holder.get("improved_positions") or []:
            markers += [{"points": int(ip["points"]), "zone": ip.get("zone"), "group": group}] * int(ip["count"])
    for points in game.ips_used.get(side, []):
        marker = next((m for m in markers if m["points"] == points), None)
        if marker is not None:
            markers.remove(marker)
    return markers


def _use_ip(game: GameState, side: str, points: int) -> None:
    game.ips_used.setdefault(side, []).append(points)


def _ip_actions(game: GameState, side: str) -> list[Action]:
    """18.1: 'any hex that can be occupied by infantry and CW units', in the side's deployment area
    (or its group's) and the marker's zone; one IP a hex (R86)."""
    actions: list[Action] = []
    kept: dict[Any, Any] = game.caches.setdefault("setup", {})
    used = ("ip_markers", side, tuple(game.ips_used.get(side, ())))  # the markers left change as one is placed
    markers = kept.get(used)
    if markers is None:
        markers = kept[used] = list({m["points"]: m for m in _ip_markers(game, side)}.values())
    placed = tuple(game.improved_positions)  # R86: one IP a hex; each listing asked every candidate
    for marker in markers:
        key = ("ip_hexes", side, marker["points"], marker["group"], str(marker["zone"]))
        if key not in kept:  # where this marker may go does not change in the set-up
            kept[key] = _ip_candidates(game, side, marker)
        found = kept.get((key, placed))
        if found is None:
            found = kept[(key, placed)] = [a for h, a in kept[key] if h not in game.improved_positions]
        actions += found
    return actions


def _ip_candidates(game: GameState, side: str, marker: dict[str, Any]) -> list[tuple[Hex, Action]]:
    area = side_area(game, side)
    if marker["group"] is not None:
        area = frozenset().union(
            *(deployment_area(game, u) for u in game.side_units(side) if u.group == marker["group"])
        )
    if marker["zone"] is not None:
        area &= game.zone_hexes(marker["zone"])
    return [
        (h, Action(IP, (), f"{marker['points']} {game.label_of(h)}")) for h in _standing_in(game, area, False, "up")
    ]


def mine_factors(game: GameState, side: str) -> dict[str, int]:
    """Factors left to place: the side's and its groups' (24.1)."""
    data = game.scenario.data["sides"][side]
    total = {"ap": 0, "at": 0}
    for holder in (data, *data["groups"]):
        mines = holder.get("mines") or {}
        total["ap"] += int(mines.get("ap_factors", 0))
        total["at"] += int(mines.get("at_factors", 0))
    for placed in game.secrets[side].mines.values():
        total["ap"] -= placed["ap"]
        total["at"] -= placed["at"]
    return total


def mine_actions(game: GameState, side: str, hexes: Iterable[Hex] | None = None) -> list[Action]:
    """19.12: at most 4 AP and 7 AT factors a hex, AT at least 2 (so the first AT placement in a hex
    is two factors, and none leaves a last factor no hex may take); 19.14: any terrain but Buildings.
    `hexes`: those hexes' only (determinize)."""
    actions = []
    placed = game.secrets[side].mines
    factors = mine_factors(game, side)
    for kind in ("ap", "at"):
        refused = _refused(placed, kind, _mine_refusals(game, side, kind, factors[kind]))
        candidates = _mine_candidates(game, kind)
        # whether a hex with no mines is refused does not depend on which hex it is: asked of one
        unmined = next((h for h in candidates if h not in placed), None)
        open_unmined = unmined is not None and not refused(unmined)
        if hexes is not None:
            actions += [
                candidates[h] for h in hexes if h in candidates and (not refused(h) if h in placed else open_unmined)
            ]
        elif open_unmined:  # the candidates less the mined hexes refused, in order (the set-up lists
            barred = [h for h in placed if h in candidates and refused(h)]  # them at every placement:
            open_now = dict(candidates) if barred else candidates  # the few mined hexes asked, not all;
            for h in barred:  # copied only to take the refused out
                del open_now[h]
            actions += open_now.values()
        else:  # the mined hexes not refused, in the candidates' order (the hexes', sorted)
            actions += [candidates[h] for h in sorted(placed) if h in candidates and not refused(h)]
    return actions


def _refused(
    placed: dict[Hex, dict[str, int]], kind: str, refusal: Callable[[Hex], tuple[str, str] | None]
) -> Callable[[Hex], bool]:
    """Whether `refusal` refuses a hex, asked once for each count of the kind's factors in a hex:
    all it reads of the hex but its label (each listing asked every mined hex)."""
    by_count: dict[int, bool] = {}

    def refused(h: Hex) -> bool:
        have = placed[h][kind] if h in placed else 0
        found = by_count.get(have)
        if found is None:
            found = by_count[have] = refusal(h) is not None
        return found

    return refused


def _mine_refusals(
    game: GameState, side: str, kind: str, left: int | None = None
) -> Callable[[Hex], tuple[str, str] | None]:
    """Why one more placement of the side's `kind` mines in a hex is refused (reason, rule), else
    None; the hexes' terrain is 19.14's, left to `_mine_candidates`. `left`: the factors of the
    kind left to place, where the caller has them (each reads every mine of the side)."""
    limits = table_values("combat")["mines"]
    left = mine_factors(game, side)[kind] if left is None else left
    placed = game.secrets[side].mines
    most = int(limits[f"max_{kind}_factors_per_hex"])
    least = int(limits["min_at_factors_per_hex"]) if kind == "at" else 1
    with_room = sum(1 for m in placed.values() if 0 < m[kind] < most)
    name = kind.upper()

    def why_not(h: Hex) -> tuple[str, str] | None:
        have = placed[h][kind] if h in placed else 0
        step = least if have == 0 else 1
        if step > left:
            return f"{left} {name} mine factors left to place, {step} needed", "19.11, 19.12"
        if have + step > most:
            return f"{have} {name} mine factors in {game.label_of(h)}, at most {most}", "19.12"
        room_after = with_room - (0 < have < most) + (have + step < most)
        if 0 < left - step < least and room_after == 0:  # the last factor would have no hex to go in
            return f"it would leave {left - step} {name} factor that no mined hex has room for", "19.12"
        return None

    return why_not


def _mine_candidates(game: GameState, kind: str) -> dict[Hex, Action]:
    """Every hex but Buildings (19.14), in order, with its `mine KIND HEX` action, kept per board."""
    kept: dict[str, dict[Hex, Action]] = game.board.caches.setdefault("mine_candidates", {})
    if kind not in kept:
        kept[kind] = {
            h: Action(MINE, (), f"{kind} {game.label_of(h)}")
            for h in sorted(game.board.hexes)
            if game.board.terrain(h).building is None
        }
    return kept[kind]


def lay_mine(game: GameState, side: str, kind: str, h: Hex) -> None:
    """One `mine KIND HEX` placement: one factor, the first AT in a hex two (19.12)."""
    placed = game.secrets[side].mines.get(h, {"ap": 0, "at": 0})
    limits = table_values("combat")["mines"]
    added = int(limits["min_at_factors_per_hex"]) if kind == "at" and placed[kind] == 0 else 1
    game.secrets[side].mines[h] = {**placed, kind: placed[kind] + added}  # a new dict: copies share them


def _hide_actions(game: GameState, side: str) -> list[Action]:
    """24.21: hidden hexes from the side's deployment area, holding its units, no AFV among them."""
    allowed = int(game.scenario.data["sides"][side].get("hidden_hexes", 0))
    hidden = game.secrets[side].hidden_hexes
    if len(hidden) >= allowed:
        return []
    # kept until units move, hide or are revealed (a mine, an IP or a state change leaves them)
    found: list[Action] = game.kept(("hide", side, frozenset(hidden)), lambda: _hideable(game, side, hidden))
    return found


def _hideable(game: GameState, side: str, hidden: set[Hex]) -> list[Action]:
    area = side_area(game, side)
    hexes = sorted({u.hex for u in game.side_units(side) if u.on_map and u.hex in area and u.hex not in hidden})
    return [
        Action(HIDE, (), game.label_of(h))
        for h in hexes
        if h is not None and not game.totals(side, h)[1]  # the side's AFVs there
    ]


def _hide(game: GameState, side: str, h: Hex) -> dict[str, Any]:
    """24.21: the side's units in h are hidden; the event names them for the referee's log (the
    other side's log leaves it out and, with it, their placements: R180)."""
    game.secrets[side].hidden_hexes.add(h)
    units = [u for u in game.at(h) if u.side == side]
    for unit in units:
        game.changing(unit).hidden = True
    game.units_changed()
    return {
        "event": "hidden hex",
        "side": side,
        "hex": game.label_of(h),
        "units": [u.id for u in units],
        "secret": True,
        "rule": "24.21",
    }


def apply_setup(game: GameState, action: Action) -> list[dict[str, Any]]:
    if not _legal(game, action):
        raise IllegalAction(*(_refusal(game, action) or (f"{action.text()} is not a legal set-up choice now", "24.1")))
    side = game.to_act
    if action.verb == PLACE:
        unit = game.unit(action.units[0])
        _put(game, unit, game.hex(action.arg), "up")
        return [{"event": "placed", "unit": unit.id, "hex": action.arg, "rule": "24.1"}]
    if action.verb == HOLD:
        game.held.add(action.units[0])
        return [{"event": "held for entry", "unit": action.units[0], "rule": "24.1"}]
    if action.verb == FACE:
        unit = game.changing(action.units[0])
        assert unit.hex is not None
        unit.facing = facing_index(unit.hex, parse_label(action.arg, game.board.offset))
        return [{"event": "faced", "unit": unit.id, "toward": action.arg, "rule": "8.7"}]
    if action.verb == STATE:
        game.changing(action.units[0]).state = State(action.arg)
        return [{"event": "state", "unit": action.units[0], "state": action.arg, "rule": "3.12"}]
    if action.verb == IP:
        points, label = action.arg.split()
        game.improved_positions[game.hex(label)] = int(points)
        _use_ip(game, side, int(points))
        return [{"event": "ip", "hex": label, "points": int(points), "rule": "18.1"}]
    if action.verb == MINE:
        kind, label = action.arg.split()
        lay_mine(game, side, kind, game.hex(label))
        return [{"event": "mine", "side": side, "secret": True, "rule": "19.11"}]
    if action.verb == HIDE:
        return [_hide(game, side, game.hex(action.arg))]
    return []  # DONE: the caller moves on


def _refusal(game: GameState, action: Action) -> tuple[str, str] | None:
    """Why a `place` of the unit to place, in its deployment area, or a `mine` once the units are
    placed, is refused: the cap (R83) or the mine rule it breaks; None for any other refusal."""
    side = game.to_act
    if _needs_facing(game, side) is not None:
        return None
    units = to_place(game, side)
    if action.verb == PLACE and units and action.units == (units[0].id,):
        h = next((h for h in deployment_area(game, units[0]) if game.label_of(h) == action.arg), None)
        over = None if h is None else over_cap(game, units[0], h)
        return None if over is None else (over, "24.1, R83")
    kind, _, label = action.arg.partition(" ")
    if action.verb != MINE or units or kind not in ("ap", "at"):
        return None
    try:
        h = game.hex(label)
    except ValueError:  # not a hex label of the board (UnknownHexError, LabelError)
        return None
    if game.board.terrain(h).building is not None:
        return f"{label} is a Building: no mines there", "19.14"
    return _mine_refusals(game, side, kind)(h)


def _legal(game: GameState, action: Action) -> bool:
    """Whether the action is among setup_actions, listing only the choices of its kind where the
    set-up is at its markers, mines and hidden hexes."""
    side = game.to_act
    units = to_place(game, side) if _needs_facing(game, side) is None else None
    if units and action.verb == PLACE:  # the unit to place, in a hex it may stand in that takes it now
        return action.units == (units[0].id,) and _placed_in(game, units[0], action.arg)
    if units == [] and action.verb == MINE:  # the choices of its hex only
        _, _, label = action.arg.partition(" ")
        try:
            h = game.hex(label)
        except ValueError:  # not a hex label of the board (UnknownHexError, LabelError)
            return False
        return action in mine_actions(game, side, [h])
    if units == []:
        for verb_, choices in ((IP, _ip_actions), (HIDE, _hide_actions)):
            if action.verb == verb_:
                return action in choices(game, side)
    return action in setup_actions(game)


def _placed_in(game: GameState, unit: Unit, label: str) -> bool:
    """Whether `place UNIT LABEL` is among the unit's placements (`setup_actions`), without listing them."""
    try:
        h = game.hex(label)
    except ValueError:  # not a hex label of the board (UnknownHexError, LabelError)
        return False
    return game.label_of(h) == label and h in _standing(game, unit) and _may_place(game, unit, h)


# -- entries chosen before play (24.1) ----------------------------------------------------


def open_entry_choices(game: GameState) -> list[tuple[str, int, dict[str, Any]]]:
    """(side, entry index, entry) of each entry whose option its side chooses before play, not chosen yet."""
    found = []
    for side in (game.scenario.data["sets_up_first"], _other(game.scenario.data["sets_up_first"])):
        for index, entry in enumerate(game.scenario.data["sides"][side].get("entries") or []):
            chosen_before = entry.get("choose") in ("before_play", "before_setup") and len(entry["options"]) > 1
            if chosen_before and (side, index) not in game.entry_choice:
                found.append((side, index, entry))
    return found


def entry_choice_actions(game: GameState) -> list[Action]:
    side, index, entry = open_entry_choices(game)[0]
    return [Action(ENTRY, (), f"{side} {index} {o}") for o in range(len(entry["options"]))]


def apply_entry_choice(game: GameState, action: Action) -> list[dict[str, Any]]:
    if game.phase != ENTRY_CHOICE or action not in entry_choice_actions(game):
        raise IllegalAction(f"{action.text()} is not an entry choice open now", "24.1")
    side, index, option = action.arg.split()
    game.entry_choice[(side, int(index))] = int(option)
    return [{"event": "entry chosen", "side": side, "entry": int(index), "option": int(option), "rule": "24.1"}]


def _other(side: str) -> str:
    return "russian" if side == "german" else "german"
