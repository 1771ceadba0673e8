"""Actions and events in words, for a screen and a bot (docs/engine.md, Actions).

`describe(game, action)` tells what an action does before it is played: its units, from and to
hexes, the MPs it costs and leaves (8.1, 8.5, 8.74, 3.13), the PCs it needs with their chance
(4.0, 4.12) and a sentence. `describe_event(event)` gives an event's sentence with its rule and
dice. `options(game, unit=, hex=)` is `legal_actions` for one unit or one hex. All of it is worked
out only when asked: `legal_actions` stays as fast as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from engine.geometry.movement import ONE_HEX, entry_cost
from engine.hexgrid import LabelError, parse_label
from engine.model.terrain import Terrain

from .actions import DETACH, FACE, LEAD, MOVE, PUSH, STATE, Action, IllegalAction
from .assault import ASSAULT
from .facing import _turn_cost, facing_index
from .fire import AIM, ANTITANK, JOIN, SHOOT
from .fire_odds import pc_chance
from .flamethrower import FLAME
from .grenades import GRENADE
from .mortars import MORTAR
from .overrun import OVERRUN
from .paths import _checked, is_path
from .performance import modifier
from .play import legal_actions
from .shot import fire_pc_modifier
from .state import ASSAULT as ASSAULT_PHASE
from .state import MOVEMENT, REACTION, GameState
from .steps import _movement_cost, _state_change_cost, budget, left, pc_needed
from .units import Unit

# what each verb does, in words (the verbs of actions.py and of the modules that add theirs)
_DOES = {
    "done": "is done with the phase (6.0)",
    "pass": "lets the move go on (13.0)",
    "place": "places",
    "hold": "holds back for its group's limited entry (24.1, R15)",
    "hide": "makes a hidden hex (24.21)",
    "ip": "places an improved position (18.1)",
    "mine": "lays a mine factor (19.11)",
    "entry": "chooses an entry option (24.1)",
    "move": "moves",
    "lead": "takes the leader's PC for his hex (8.3 A)",
    "detach": "moves off with the leader's PR (8.3 C)",
    "state": "changes state (3.13)",
    "face": "turns (8.7)",
    "stop": "ends its move (8.0)",
    "reveal": "reveals a hidden hex (24.22)",
    "push": "spends its Movement Phase pushing a Wreck (8.65)",
    "wreck": "places the Wreck it pushed (8.65)",
    "infiltrate": "attempts to infiltrate (24.31)",
    "grenade": "throws a grenade (15.1)",
    "aim": "opens an AP attack (10.0 a)",
    "join": "joins the attack (11.13, 11.14)",
    "intensive": "fires intensively (11.15)",
    "shoot": "fires the declared attack (10.0 c-f)",
    "cancel": "drops the declared attack (R97)",
    "antitank": "fires AT (12.0)",
    "mode": "sets its machine gun mode, in secret (21.41)",
    "lane": "fires along its Fire Lane (21.2)",
    "spray": "sprays a hex of its fire area (21.3)",
    "switch": "tries to change to Spray mode (21.42)",
    "flame": "attacks with the flamethrower (16.0)",
    "mortar": "fires the mortar (14.0)",
    "replace": "joins a CW's crew (20.1)",
    "overrun": "overruns (9.0)",
    "mark": "places an Assault marker (17.0)",
    "assault": "assaults (17.0)",
    "remove": "is removed, the owner's choice (17.23)",
}


class Description(NamedTuple):
    """What an action does, before it is played. `mp_cost`/`mp_left`: the first unit's (None where
    no MPs are spent); `pcs`: each PC it takes, (unit, PR less the modifier, chance of passing)."""

    action: Action
    units: tuple[str, ...]
    from_hex: str | None
    to_hex: str | None
    mp_cost: float | None
    mp_left: float | None
    pcs: tuple[tuple[str, int, float], ...]
    sentence: str


def options(game: GameState, unit: str | None = None, hex: str | None = None) -> list[Action]:
    """`legal_actions` naming `unit`, or naming `hex` (its argument, or the hex its first unit stands in)."""
    found = legal_actions(game)
    if unit is not None:
        found = [a for a in found if unit in a.units]
    if hex is not None:
        found = [a for a in found if hex in a.arg.split() or (a.units and _hex_of(game, a.units[0]) == hex)]
    return found


def describe(game: GameState, action: Action) -> Description:
    """What `action` does now, in numbers and words."""
    units = [game.unit(i) for i in action.units if i in game.units]
    lead = units[0] if units else None
    from_hex = _hex_of(game, lead.id) if lead is not None else None
    to_hex = _to_hex(game, action)
    cost = _mp_cost(game, action, lead)
    rest = None if cost is None or lead is None else left(game, lead) - cost
    pcs = _pcs(game, action, units)
    return Description(
        action,
        action.units,
        from_hex,
        to_hex,
        cost,
        rest,
        pcs,
        _sentence(game, action, units, from_hex, to_hex, cost, rest, pcs),
    )


def _hex_of(game: GameState, unit_id: str) -> str | None:
    unit = game.units.get(unit_id)
    return game.label(unit.hex) if unit is not None and unit.on_map else None


def _to_hex(game: GameState, action: Action) -> str | None:
    """The hex the action goes to or aims at: a path's last, else the hex its argument names (not
    a facing's hex across the hexside, 8.7)."""
    if is_path(action):
        return action.arg.split()[-1]
    if action.verb == FACE:
        return None
    return next((part for part in action.arg.split() if len(part) == 4 and part.isdigit()), None)


def _mp_cost(game: GameState, action: Action, unit: Unit | None) -> float | None:
    """The MPs the first unit spends (8.5 terrain and the road, 24.1 entering, 8.74 turns, 3.13)."""
    if unit is None or game.phase not in (MOVEMENT, REACTION) or game.interrupt is not None:
        return None
    if action.verb == MOVE and is_path(action):
        try:
            return _checked(game, action)[1][unit.id]
        except IllegalAction:
            return None  # playing it says why (R191)
    if action.verb == MOVE:
        if budget(game, unit) == ONE_HEX:
            return 0.0
        target = game.hex(action.arg)
        mover = unit.mover(game.phase)
        if unit.on_map and unit.hex is not None:
            return _movement_cost(game, unit.hex, target, mover)
        return entry_cost(game.board, target, mover)
    if action.verb == FACE:
        facing = None if unit.hex is None else facing_index(unit.hex, parse_label(action.arg, game.board.offset))
        return _turn_cost(unit, facing) if unit.is_afv and unit.facing is not None and facing is not None else 0.0
    if action.verb == STATE:
        return _state_change_cost(unit)
    return None


def _pcs(game: GameState, action: Action, units: list[Unit]) -> tuple[tuple[str, int, float], ...]:
    """The PCs the action takes (4.0), each with 4.12's modifier: a move's start (8.22, an overrun's
    too), a leader's (8.3 A, C), a push's at the phase's end (8.65), each firer's at `shoot` (10.12,
    13.17 in opportunity fire), an AT shot's (12.0), a mortar's and its spotter's (14.13, R136), a
    grenade's (15.2), a flamethrower's (16.1), each assaulting unit's or the leader's (17.12)."""
    verb = action.verb
    movement = game.phase in (MOVEMENT, REACTION) and game.interrupt is None
    found: list[tuple[Unit, int]] = []
    if verb in (MOVE, FACE, STATE, OVERRUN) and movement:
        found = [(u, 0) for u in units if u.id not in game.active and pc_needed(game, u)]
    elif verb == LEAD:
        found = [(units[0], modifier("assault") if game.phase == ASSAULT_PHASE else 0)]
    elif verb == DETACH and action.arg in game.units:
        found = [(game.unit(action.arg), modifier("leader_directed_movement"))]
    elif verb in (AIM, JOIN, ANTITANK) and units:
        found = [(units[0], _fire_modifier(game, units[0]))]
    elif verb == SHOOT and game.attack is not None:
        found = [(u, _fire_modifier(game, u)) for u in map(game.unit, game.attack["units"])]
    elif verb == ASSAULT:
        found = [(u, modifier("assault")) for u in units]
    elif verb == GRENADE:
        found = [(units[0], modifier("grenade_attack"))]
    elif verb in (FLAME, PUSH, MORTAR):
        found = [(u, 0) for u in reversed(units)]  # a mortar's spotter first
    return tuple((u.id, u.pr - m, float(pc_chance(u.pr, m))) for u, m in found)


def _fire_modifier(game: GameState, unit: Unit) -> int:
    """10.12's PC is a regular one but in opportunity fire (13.17)."""
    return fire_pc_modifier(game, unit) if game.interrupt is not None else 0


def _terrain_words(terrain: Terrain) -> str:
    words = [
        word
        for word, present in (
            ("Building", terrain.building),
            ("Woods", terrain.is_woods),
            ("Marsh", terrain.marsh),
            ("Gully", terrain.gully),
            ("Road", terrain.road),
            ("Hill", terrain.hill),
        )
        if present
    ]
    return ", ".join(words) or "Clear"


def _sentence(
    game: GameState,
    action: Action,
    units: list[Unit],
    from_hex: str | None,
    to_hex: str | None,
    cost: float | None,
    rest: float | None,
    pcs: tuple[tuple[str, int, float], ...],
) -> str:
    who = "+".join(_short(i) for i in action.units) or (f"the {game.to_act}" if game.to_act else "the game")
    does = _DOES.get(action.verb, action.verb)
    if action.verb == MOVE and to_hex is not None:
        if is_path(action):
            sentence = f"{who} from {from_hex or 'off the map'} to {to_hex} by {len(action.arg.split())} hexes"
        else:
            sentence = f"{who} from {from_hex} to {to_hex}" if from_hex else f"{who} onto the map at {to_hex} (24.1)"
        if cost is not None:
            sentence += f": {cost:g} MP" + ("" if is_path(action) else f" ({_terrain_of(game, to_hex)})")
    elif action.arg and action.verb not in ("done", "pass"):
        sentence = f"{who} {does}: {action.arg}"
    else:
        sentence = f"{who} {does}"
    if cost is not None and action.verb != MOVE:
        sentence += f", {cost:g} MP"
    if rest is not None:
        sentence += f", {rest:g} MP left"
    for unit_id, need, chance in pcs:
        sentence += f"; PC for {_short(unit_id)}: {need} or less on two dice, {chance:.0%}"
    return sentence


def _terrain_of(game: GameState, label: str) -> str:
    try:
        return _terrain_words(game.board.terrain(game.hex(label)))
    except LabelError:
        return "off the map"


def _short(unit_id: str) -> str:
    """`german/C/R-PR9-1` as a screen shows it: `C/R-PR9-1`."""
    return unit_id.split("/", 1)[-1]


# -- events -----------------------------------------------------------------------------------


def describe_event(event: dict[str, Any]) -> str:
    """An event's sentence, ending with its dice and its rule where it has them."""
    kind = str(event.get("event", ""))
    unit = _short(str(event["unit"])) if "unit" in event else "+".join(_short(u) for u in event.get("units", []))
    words = _EVENT_WORDS.get(kind)
    if words is not None:
        sentence = words(event, unit)
    else:  # the rest: its name, its unit and what it holds
        shown = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("event", "rule", "dice", "unit", "units"))
        sentence = f"{kind}{f' ({unit})' if unit else ''}{f': {shown}' if shown else ''}"
    if "dice" in event:
        sentence += f"; dice {event['dice']}"
    if event.get("rule"):
        sentence += f" ({event['rule']})"
    return sentence


def _targets(event: dict[str, Any]) -> str:
    return ", ".join(f"{_short(t['unit'])} {t['dice']} dice" for t in event.get("targets", []))


def _levels(event: dict[str, Any]) -> str:
    levels = event.get("levels") or {}
    return ", ".join(f"{k} at {v} or less" for k, v in levels.items())


_EVENT_WORDS: dict[str, Callable[[dict[str, Any], str], str]] = {
    "moved": lambda e, u: f"{u} moved to {e['hex']}",
    "entered_map": lambda e, u: f"{u} entered the map at {e['hex']}",
    "placed": lambda e, u: f"{u} placed in {e['hex']}",
    "stopped": lambda e, u: (
        f"{u} stopped in {e['hex']} after {e.get('mp', 0):g} MP" + (f": {e['why']}" if e.get("why") else "")
    ),
    "path ended": lambda e, u: (
        f"{u}'s path ended in {e['hex']}" + (": reached" if e.get("reached") else f", short: {e.get('why')}")
    ),
    "pc": lambda e, u: f"{u} PC for {e.get('for')}: {e.get('check')}",
    "phase": lambda e, u: (
        f"turn {e.get('turn')}: the {str(e.get('phase')).replace('_', ' ')} phase"
        + (f" of the {e['phasing']} Player Turn" if e.get("phasing") else "")
    ),
    "faced": lambda e, u: f"{u} faced {e['toward']}",
    "state": lambda e, u: f"{u} went {e['state']}",
    "result": lambda e, u: (
        f"{u}: {e.get('result')} ({e.get('detail')})" + (f", now {e['morale']}" if e.get("morale") else "")
    ),
    "eliminated": lambda e, u: (
        f"{u} eliminated" + (f" in {e['hex']}" if e.get("hex") else "") + (f" (die {e['die']})" if "die" in e else "")
    ),
    "destroyed": lambda e, u: f"{u} destroyed in {e.get('hex')}" + (", a Wreck left" if e.get("wreck") else ""),
    "revealed": lambda e, u: f"hidden units revealed in {e['hex']}: {e.get('why')}",
    "aim": lambda e, u: f"{u} aims an AP attack at {e['hex']}",
    "join": lambda e, u: f"{u} joins the attack at {e['hex']}",
    "attack": lambda e, u: (
        f"{str(e.get('kind', '')).upper()} attack at {e.get('hex')} by "
        + "+".join(_short(f) for f in e.get("firers", []))
        + f", firepower {e.get('firepower')}"
        + (f" ({_levels(e)})" if e.get("levels") else "")
        + (f": {_targets(e)}" if e.get("targets") else "")
    ),
    "ap roll": lambda e, u: f"{u} AP roll ({_levels(e)}): {e.get('result')}",
    "at roll": lambda e, u: (
        f"{u} AT roll, factor {e.get('factor')} against armor {e.get('armor')}"
        + (" from higher" if e.get("higher") else "")
        + (": destroyed" if e.get("destroyed") else ": not destroyed")
    ),
    "bog_roll": lambda e, u: (
        f"{u} bog roll, at most {e.get('at_most')} immobilizes: "
        + ("immobilized" if e.get("immobilized") else "goes on")
    ),
    "mines": lambda e, u: (
        f"{e.get('factors')} {str(e.get('type')).upper()} mine factors revealed in {e.get('hex')}"
        + (f" by {_short(str(e['by']))}" if e.get("by") else "")
    ),
    "mine_attack": lambda e, u: (
        f"{u} {str(e.get('type')).upper()} mine attack, {e.get('factors')} factors "
        + f"in {e.get('hex')}: {e.get('result')}"
    ),
    "morale_roll": lambda e, u: f"{u} morale: {e.get('check')}, now {e.get('morale')}",
    "game over": lambda e, u: (
        f"the game is over: {e['result'].get('winner')} ({e['result'].get('by')})"
        if isinstance(e.get("result"), dict)
        else "the game is over"
    ),
}
