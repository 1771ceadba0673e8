"""Russian Infiltration (24.3): a pre-play step after both set-ups (R126) in a scenario that gives
the option. The Russian player designates one squad and at most one commander and an Infiltration
Hex (`infiltrate russian/A+russian/PL-PR10 3818`) or declines (`done`, 24.31); the German player may
reveal a hidden hex closer to it than his nearest on-map unit (`reveal HEX`, 24.32; asked whatever
is hidden until `done`, R170); two dice on the Infiltration Resolution Table (24.33, R127).
SN/SP/SS: the Russian places each infiltrator within two hexes (`place UNIT HEX STATE`, 24.34,
R128); hidden hexes stacked with or next to them are then revealed (24.36), AP mines attack
(24.37), and the game begins with the Russian Support Fire Phase (R129). F#: # infiltrators,
picked by the dice, are removed; the rest enter as if nothing happened.
An Infiltration Hex that is a German hidden hex fails at once (24.35). The step's progress is
`GameState.infiltration` (public: the hex is announced, the units are placed in sight).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.geometry.movement import Morale, State
from engine.hexgrid import Hex, hex_distance, within
from engine.model.setup import side_setups
from engine.model.tables import table_values
from engine.validate.placements import may_stand

from .actions import DONE, PLACE, REVEAL, Action, IllegalAction, verb
from .facing import face_on_placing, facing_choices
from .grenades import grenade_attack
from .mines import infiltration_attack
from .morale import reveal_hex
from .results import apply_result, eliminate
from .stacks import over_stacked
from .state import GameState, other
from .units import ELIMINATED, ON_MAP, WAITING, Unit

Events = list[dict[str, Any]]
INFILTRATION = "infiltration"  # the phase: between the set-ups and the first Game Turn (R126)
INFILTRATE = verb("infiltrate")  # 24.31, 24.32: infiltrate SIDE/SQUAD[+COMMANDER] HEX
# steps of game.infiltration["step"]
DESIGNATE, GERMAN_REVEAL, DEPLOY, DISPLACE, OVER = "designate", "reveal", "deploy", "displace", "over"


@cache
def _table() -> dict[str, Any]:
    values: dict[str, Any] = table_values("combat")["infiltration"]
    return values


def _side(game: GameState) -> str:
    return str(game.scenario.data["infiltration"]["side"])


def _hexes(game: GameState, labels: list[str]) -> list[Hex]:
    return [game.hex(label) for label in labels]


# -- the step's opening and end (play.py calls these) ----------------------------------------------


def infiltration_open(game: GameState) -> bool:
    """24.3: 'Infiltration may only be used if the option is present in the scenario instructions',
    with a squad still off the map to attempt it."""
    return bool(game.scenario.data.get("infiltration")) and bool(_squads(game, _side(game)))


def start_infiltration(game: GameState) -> Events:
    """24.31: 'After the German player sets up his units ... the Russian player may designate'. A
    scenario's `setup:` that names the infiltration designates it (docs/formats.md)."""
    game.phase = INFILTRATION
    game.infiltration = {"step": DESIGNATE}
    game.to_act = _side(game)
    events: Events = [{"event": "phase", "turn": 0, "phase": INFILTRATION, "rule": "24.31"}]
    given = next((s.infiltration for s in side_setups(game.scenario) if s.infiltration is not None), None)
    if given is None:
        return events
    waiting = [u for u in game.side_units(_side(game)) if u.where == WAITING]
    units = [u for key, _ in given.units for u in waiting if game.names({"units": [key]}, u)]
    return events + _designate(game, units, game.hex(given.hex), "setup")


def infiltration_over(game: GameState) -> bool:
    return game.phase == INFILTRATION and game.infiltration.get("step") == OVER


def begins_at_support_fire(game: GameState) -> bool:
    """24.34 SN, SP, SS: 'The scenario begins with the Russian player turn Support Fire Phase' (R129)."""
    return bool(game.infiltration.get("succeeded")) and game.scenario.data["moves_first"] == _side(game)


# -- the decisions ---------------------------------------------------------------------------------


def _squads(game: GameState, side: str) -> dict[str, list[Unit]]:
    """24.31: the squads that may infiltrate: every fielded member still off the map (CWs and AFVs
    may not: they are no squad's)."""
    squads: dict[str, list[Unit]] = {}
    for unit in game.side_units(side):
        if unit.kind in ("infantry", "ft") and unit.squad is not None and unit.id not in game.held:
            squads.setdefault(unit.squad, []).append(unit)
    return {k: v for k, v in sorted(squads.items()) if all(u.where == WAITING for u in v)}


def _commanders(game: GameState, side: str) -> list[Unit]:
    return [u for u in game.side_units(side) if u.kind == "commander" and u.where == WAITING]


def _visible_germans(game: GameState) -> list[Hex]:
    """24.33: 'the nearest visible Germans' (hidden units are not on the map: 24.23)."""
    enemy = other(_side(game))
    return sorted({h for h, units in game.occupied().items() if any(u.side == enemy and not u.hidden for u in units)})


def _infiltration_hexes(game: GameState) -> list[Hex]:
    """24.32: 'any hex on the map within the scenario's infiltration restrictions ... may not be
    occupied by an on-map German unit, though it may be adjacent to one. The hex may contain any
    type of terrain.'"""
    taken = set(_visible_germans(game))
    zone = game.zone_hexes(game.scenario.data["infiltration"]["zone"])
    return [h for h in sorted(zone) if h in game.board.hexes and h not in taken]


def infiltration_actions(game: GameState) -> list[Action]:
    step = game.infiltration.get("step")
    if step == DESIGNATE:
        side = _side(game)
        keys = [f"{side}/{squad}" for squad in _squads(game, side)]
        leaders: list[tuple[str, ...]] = [(), *((u.id,) for u in _commanders(game, side))]
        hexes = [game.label_of(h) for h in _infiltration_hexes(game)]
        actions = [Action(INFILTRATE, (key, *leader), label) for key in keys for leader in leaders for label in hexes]
        return [*actions, Action(DONE)]  # 24.31: 'The Russian player may choose not to infiltrate'
    if step == GERMAN_REVEAL:
        return [*(Action(REVEAL, (), game.label_of(h)) for h in _closer_hidden(game)), Action(DONE)]
    if "facing" in game.infiltration:  # R161: an LMG placed faces before anything else happens
        return facing_choices(game, game.unit(game.infiltration["facing"]))
    if step in (DEPLOY, DISPLACE):
        unit = game.unit(game.infiltration["to_place"][0])
        return [Action(PLACE, (unit.id,), arg) for arg in _placements(game, unit)]
    return []


def apply_infiltration(game: GameState, action: Action) -> Events:
    if action not in infiltration_actions(game):
        raise IllegalAction(f"{action.text()} is not an infiltration choice open now", "24.3")
    if "facing" in game.infiltration:
        faced = face_on_placing(game, game.unit(game.infiltration.pop("facing")), action)
        return [faced, *_next_to_place(game)]
    step = game.infiltration["step"]
    if step == DESIGNATE:
        if action.verb == DONE:
            game.infiltration = {"step": OVER, "declined": True}
            return [{"event": "no infiltration", "side": _side(game), "rule": "24.31"}]
        squad = action.units[0].split("/")[1]
        units = _squads(game, _side(game))[squad] + [game.unit(i) for i in action.units[1:]]
        return _designate(game, units, game.hex(action.arg), "designated")
    if step == GERMAN_REVEAL:
        if action.verb == DONE:
            return _resolve(game)
        h = game.hex(action.arg)
        return reveal_hex(game, other(_side(game)), h, "revealed before the infiltration roll (24.32)")
    return _place(game, action)


def _designate(game: GameState, units: list[Unit], h: Hex, how: str) -> Events:
    """24.31, 24.32: the units and the Infiltration Hex, announced; 24.35 or the German's option."""
    game.infiltration = {"step": DESIGNATE, "units": [u.id for u in units], "hex": game.label_of(h)}
    events: Events = [
        {"event": "infiltration", "units": [u.id for u in units], "hex": game.label_of(h), "how": how, "rule": "24.32"}
    ]
    german = other(_side(game))
    if h in game.secrets[german].hidden_hexes:
        return events + _hidden_hex_failure(game, h)
    if not game.scenario.data["sides"][german].get("hidden_hexes"):
        return events + _resolve(game)  # 24.2: the scenario gives him no hidden hex (public)
    # 24.32: he is asked whether or not a hidden hex is closer, and until he is done, so that being
    # asked tells the Russian nothing (R170)
    game.infiltration["step"] = GERMAN_REVEAL
    game.to_act = german
    return events


def _closer_hidden(game: GameState) -> list[Hex]:
    """24.32: 'If the German player has a hidden hex closer to the Infiltration Hex than the nearest
    German on-map unit, he may voluntarily reveal the hidden hex and place ALL the units deployed
    there on the map.'"""
    target = game.hex(game.infiltration["hex"])
    nearest = min((hex_distance(target, h) for h in _visible_germans(game)), default=None)
    hidden = game.secrets[other(_side(game))].hidden_hexes
    return sorted(h for h in hidden if nearest is None or hex_distance(target, h) < nearest)


def modifiers(game: GameState, units: list[Unit], h: Hex) -> list[tuple[int, str]]:
    """The Infiltration Resolution Table's die roll modifiers, each with what it is for (R127)."""
    table = _table()
    best = max(u.pr for u in units)
    found = [(_lookup(table["best_pr_modifier"], best, "modifier"), f"best PR {best}")]
    terrain = game.board.terrain(h)
    kinds = table["terrain_modifier"]
    if terrain.building is not None:
        size = len(game.board.buildings()[terrain.building])
        name = "multi_hex_building" if size > 1 else "single_hex_building"
        found.append((int(kinds[name]), name.replace("_", " ")))
    if terrain.gully:
        found.append((int(kinds["gully"]), "gully"))
    if terrain.trees:
        found.append((terrain.trees * int(kinds["per_tree"]), f"{terrain.trees} Trees"))
    germans = _visible_germans(game)
    if germans:  # 'DO NOT count the infiltration hex; DO count the closest German unit's hex'
        distance = min(hex_distance(h, g) for g in germans)
        found.append((_lookup(table["distance_modifier"], distance, "modifier"), f"{distance} hexes to a German"))
    return [(m, why) for m, why in found if m]


def _lookup(rows: list[dict[str, Any]], value: int, key: str) -> Any:
    for row in rows:
        if row.get("min", value) <= value <= row.get("max", value):
            return row[key] if key != "modifier" else int(row[key])
    raise ValueError(f"{value} is on no row of the Infiltration Resolution Table")


def _resolve(game: GameState) -> Events:
    """24.33: 'The Russian player rolls two dice and the result is modified by terrain, leadership
    and proximity to the nearest visible Germans.'"""
    units = [game.unit(i) for i in game.infiltration["units"]]
    h = game.hex(game.infiltration["hex"])
    dice = game.dice.roll(int(_table()["dice"]))
    found = modifiers(game, units, h)
    total = sum(dice) + sum(m for m, _ in found)
    result = str(_lookup(_table()["results"], total, "result"))
    game.infiltration["result"] = result
    game.to_act = _side(game)
    events: Events = [
        {
            "event": "infiltration roll",
            "dice": list(dice),
            "modifiers": [f"{m:+d} {why}" for m, why in found],
            "total": total,
            "result": result,
            "rule": "24.33, 24.34",
        }
    ]
    if result.startswith("F"):
        return events + _casualties(game, units, int(result[1:]), "24.34 F#") + _finish(game)
    game.infiltration.update(step=DEPLOY, to_place=[u.id for u in units], succeeded=True)
    return events + _next_to_place(game)


def _casualties(game: GameState, units: list[Unit], count: int, rule: str) -> Events:
    """24.34 F#: '# is the number of randomly selected infiltrating Russian units that are removed';
    each picked with the same chance for every unit left, counted in the order designated (R130):
    among six or fewer one die, a face beyond them rolled again; among more (a squad of seven and
    its commander) two dice read as 1-36, a number beyond the largest multiple of their count
    rolled again, the rest counted round them."""
    pool = list(units)
    events: Events = []
    while count > 0 and pool:
        faces = game.dice.roll(1 if len(pool) <= 6 else 2)
        number = faces[0] if len(faces) == 1 else (faces[0] - 1) * 6 + faces[1]
        if number > len(pool) * (6 ** len(faces) // len(pool)):
            continue
        unit = pool.pop((number - 1) % len(pool))
        game.relocate(unit, ELIMINATED, None)
        events.append({"event": "eliminated", "unit": unit.id, "dice": list(faces), "hex": None, "rule": rule})
        count -= 1
    return events


def _hidden_hex_failure(game: GameState, h: Hex) -> Events:
    """24.35: 'the infiltration mission automatically fails. The Russian player rolls one die and
    the result is the number of casualties ... The German units in the hidden hex are permanently
    revealed and a Grenade Attack (15.6) is performed against it. Pinned and Suppressed results are
    ignored.' (R130: no Russian grenade is used.)"""
    game.infiltration["result"] = "hidden hex"
    events = reveal_hex(game, other(_side(game)), h, "the Infiltration Hex is a hidden hex (24.35)")
    (die,) = game.dice.roll(int(_table()["hidden_hex_casualty_dice"]))
    events.append({"event": "infiltration failed", "die": die, "casualties": die, "rule": "24.35"})
    units = [game.unit(i) for i in game.infiltration["units"]]
    events += _casualties(game, units, die, "24.35")
    events += grenade_attack(game, h, "24.35", True, attacked=other(_side(game)))
    return events + _finish(game)


# -- placing the infiltrators (24.34, 24.36) ----------------------------------------------------------


def _placements(game: GameState, unit: Unit) -> list[str]:
    """24.34: 'within two hexes of the Infiltration hex (inclusive) but no closer to any German unit
    than the Infiltration hex is ... within stacking limits'; SN 'either the UP or DOWN state', SP and
    SS DOWN. 24.36's displaced unit: a hex next to the hidden hex it stood in (R128)."""
    if game.infiltration["step"] == DISPLACE:
        origin = game.hex(game.infiltration["from"])
        germans = set(_visible_germans(game))
        hexes = [h for h in game.neighbours(origin) if h not in germans]
        states = ["down"]
    else:
        source = game.hex(game.infiltration["hex"])
        germans_at = _visible_germans(game)
        hexes = [
            h
            for h in within(source, int(_table()["deploy_within_hexes"]))
            if h in game.board.hexes and all(hex_distance(h, g) >= hex_distance(source, g) for g in germans_at)
        ]
        states = ["up", "down"] if game.infiltration["result"] == "SN" else ["down"]
    return [
        f"{game.label_of(h)} {state}"
        for h in sorted(hexes)
        for state in states
        if may_stand(game.board, h, afv=False, state=state) and not over_stacked(game, unit.side, h, [unit])
    ]


def _place(game: GameState, action: Action) -> Events:
    unit = game.changing(action.units[0])
    label, state = action.arg.split()
    game.relocate(unit, ON_MAP, game.hex(label))
    unit.state = State(state)
    game.control[game.hex(label)] = unit.side
    displaced = game.infiltration["step"] == DISPLACE
    if not displaced:
        unit.morale = {"SP": Morale.PINNED, "SS": Morale.SUPPRESSED}.get(game.infiltration["result"], Morale.NORMAL)
    game.infiltration["to_place"].pop(0)
    events: Events = [
        {
            "event": "placed",
            "unit": unit.id,
            "hex": label,
            "state": state,
            "morale": str(unit.morale),
            "rule": "24.36" if displaced else "24.34",
        }
    ]
    if unit.faces_hexside and unit.facing is None:
        game.infiltration["facing"] = unit.id
        return events
    return events + _next_to_place(game)


def _hidden_hexes_near(game: GameState) -> Events:
    """24.36: 'the German player announces any German hidden hexes that are stacked with or adjacent
    to infiltrating units. If infiltrating units are stacked with a hidden hex each Russian unit is
    immediately SUPPRESSED and placed in an adjacent hex (which in turn could reveal other hidden
    hexes). The German units in the hidden hex are subject to a Grenade Attack as in (24.35). Russian
    units adjacent to revealed hidden hexes are immediately PINNED in that hex.' One hex at a time,
    nearest first (the stacked ones), then 24.37's mines."""
    german = other(_side(game))
    infiltrators = [game.unit(i) for i in game.infiltration["units"] if game.unit(i).on_map]
    near = sorted(
        h
        for h in game.secrets[german].hidden_hexes
        if any(u.hex is not None and hex_distance(u.hex, h) <= 1 for u in infiltrators)
    )
    if not near:
        return _mines(game, infiltrators)
    stacked = [h for h in near if any(u.hex == h for u in infiltrators)]
    h = stacked[0] if stacked else near[0]
    events = reveal_hex(game, german, h, "stacked with or adjacent to infiltrating units (24.36)")
    here = [u for u in infiltrators if u.hex == h]
    for unit in infiltrators:
        if unit.hex is not None and unit not in here and hex_distance(unit.hex, h) == 1:
            events += apply_result(game, unit, "P", "24.36")
    if not here:
        return events + _hidden_hexes_near(game)
    for unit in here:
        events += apply_result(game, unit, "S", "24.36")
    events += grenade_attack(game, h, "24.36", True, attacked=german)
    movers = [u for u in here if u.on_map]
    game.infiltration.update(step=DISPLACE, to_place=[u.id for u in movers], **{"from": game.label_of(h)})
    return events + _next_to_place(game)


def _next_to_place(game: GameState) -> Events:
    """The next unit to place; one with no hex it may go to is eliminated (R128); with none left,
    24.36's hidden hexes."""
    events: Events = []
    rule = "24.36" if game.infiltration["step"] == DISPLACE else "24.34"
    while game.infiltration["to_place"]:
        unit = game.unit(game.infiltration["to_place"][0])
        if _placements(game, unit):
            return events
        game.infiltration["to_place"].pop(0)
        events += eliminate(game, unit, rule)
    game.infiltration["step"] = DEPLOY
    return events + _hidden_hexes_near(game)


def _mines(game: GameState, infiltrators: list[Unit]) -> Events:
    """24.37: 'Any infiltrating units placed on AP (only) mined hexes, including the Infiltration Hex
    itself, reveal the presence of the mine AFTER any hidden German units are revealed.'"""
    events: Events = []
    for h in sorted({u.hex for u in infiltrators if u.on_map and u.hex is not None}):
        events += infiltration_attack(game, h, [u for u in infiltrators if u.hex == h and u.on_map])
    return events + _finish(game)


def _finish(game: GameState) -> Events:
    game.infiltration["step"] = OVER
    game.infiltration.pop("to_place", None)
    return []
