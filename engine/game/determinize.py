"""A full state consistent with one side's View, for a player to search on (ISMCTS samples one per
iteration): what the view shows as it shows it, the enemy's unseen units hidden in hexes of their
deployment areas (24.21) and its mines laid where they may lie (19.12, 19.14), drawn from the
caller's generator; the state has dice of its own, seeded from that generator (R181).
"""

from __future__ import annotations

import random
from copy import deepcopy

from engine.geometry.movement import State
from engine.hexgrid import Hex
from engine.model.scenario import Scenario
from engine.validate.placements import may_stand

from .advanced import advanced
from .mg_modes import DF, FL, SP, reach
from .play import new_game
from .setup import deployment_area, lay_mine, mine_actions, mine_factors
from .shot import is_mg
from .stacks import over_stacked
from .state import MORALE, GameState, Secrets, other
from .units import ON_MAP, WAITING, Extra, Unit
from .views import PUBLIC_FIELDS, View


def determinize(view: View, scenario: Scenario, rng: random.Random) -> GameState:
    """A state of `scenario` agreeing with `view` on everything it shows; what it does not show
    drawn from `rng` (the same view and generator state give the same state)."""
    game = new_game(scenario, rng.randrange(2**32), view.record["options"], validated=True)
    unseen = _overlay(game, view)
    enemy = other(view.side)
    if enemy in game.setup_done:  # its set-up is over: what it placed unseen, and its mines
        _hide_units(game, enemy, unseen, rng)
        _lay_mines(game, enemy, rng)
    if advanced(game):
        _draw_modes(game, enemy, view, rng)
    game.caches = {}
    return game


def known_state(view: View, base: GameState) -> GameState:
    """What `view`'s side knows as a state, nothing drawn: a copy of `base` (a game of the same
    scenario, made once) with the view's fields and units, the enemy's unseen units off the map
    and no enemy mines. A player that does not search asks it its paths (paths.py) and odds
    (fire_odds.py): what it answers, the side may know. It shares the view's
    public fields: it is asked, never played on. Its caches are `base`'s, shared: their
    keys say all their values depend on."""
    game = base.copy()
    _overlay(game, view, fresh=False)
    return game


def _overlay(game: GameState, view: View, *, fresh: bool = True) -> list[Unit]:
    """`game` given what `view` shows as it shows it; the enemy's units it does not show, off the
    map (returned, for a draw to place). `fresh=False` shares the view's own copies of the public
    fields (a state only asked, never played on: a view is made for one decision)."""
    record, side = view.record, view.side
    enemy = other(side)
    for name in PUBLIC_FIELDS:
        setattr(game, name, deepcopy(record[name]) if fresh else record[name])
    game.control = dict(record["control"])
    known = {u.id: u for u in record["units"]}
    unseen = [u for u in game.side_units(enemy) if u.id not in known]
    for unit in game.units.values():
        if unit.id in known:
            seen = known[unit.id]
            unit.__dict__.update({**seen.__dict__, "extra": Extra(seen.extra)})  # its own `extra`, as a copy's
    for unit in unseen:  # not where the scenario's `setup:` hid them: drawn like the rest
        unit = game.changing(unit)
        game.relocate(unit, WAITING, None)
        unit.hidden, unit.facing, unit.state = False, None, State(unit.extra.get("listed_state", "up"))
    game.secrets = {side: _copy(record["secrets"]), enemy: Secrets()}
    game.ammo = {**game.ammo, **record["ammo"]}  # 22.3: its own points; the enemy's as the scenario gives (R355)
    game.units_changed()
    game.log = list(view.log)  # what the side saw: the revealed hidden hexes are counted from it
    return unseen


def _copy(secrets: Secrets) -> Secrets:
    return Secrets({h: dict(m) for h, m in secrets.mines.items()}, set(secrets.hidden_hexes), dict(secrets.modes))


def _hide_units(game: GameState, enemy: str, unseen: list[Unit], rng: random.Random) -> None:
    """24.21: the enemy's unseen deploying units, not held for an entry (R15), stand hidden in at
    most its hidden hexes not yet revealed, each in its deployment area, stacked as 8.62 allows, in a
    hex where no unit is seen (R181)."""
    allowed = int(game.scenario.data["sides"][enemy].get("hidden_hexes", 0))
    revealed = {
        e["hex"]
        for entry in game.log
        for e in entry.get("events", ())
        if e["event"] == "revealed" and any(u.startswith(f"{enemy}/") for u in e.get("units", ()))
    }
    budget = max(allowed - len(revealed), 1)
    hidden = game.secrets[enemy].hidden_hexes
    standing: dict[tuple[frozenset[Hex], str], list[Hex]] = {}  # units of a group share their area
    for unit in unseen:
        area = deployment_area(game, unit)
        if unit.id in game.held or not area:
            continue
        fits = [h for h in sorted(hidden & area) if not over_stacked(game, enemy, h, [unit])]
        if not fits or (len(hidden) < budget and rng.random() < 0.5):
            key = (area, str(unit.state))
            if key not in standing:
                standing[key] = [h for h in sorted(area) if may_stand(game.board, h, afv=False, state=key[1])]
            fresh = [h for h in standing[key] if h not in hidden and not game.occupied().get(h)]
            fits = fresh or fits
        if not fits:
            continue
        h = rng.choice(fits)
        unit = game.changing(unit)
        game.relocate(unit, ON_MAP, h)
        unit.hidden = True
        if unit.faces_hexside:
            unit.facing = rng.randrange(6)
        hidden.add(h)
        game.control[h] = enemy


def _draw_modes(game: GameState, enemy: str, view: View, rng: random.Random) -> None:
    """21.0: 'A unit's mode need not be revealed until the unit fires': an enemy MG's mode as it
    showed it since the last Morale Phase (21.41: modes change only there; 21.42's change shows),
    else drawn: DF, SP or a Fire Lane to a hex of its reach, each as likely (R355)."""
    shown: dict[str, tuple[str, str]] = {}
    for entry in reversed(view.log):
        events = entry.get("events", ())
        for e in events:
            if e["event"] == "mode shown":
                shown.setdefault(e["unit"], (e["mode"], e["target"]))
        if any(e["event"] == "phase" and e["phase"] == MORALE for e in events):
            break
    for unit in game.side_units(enemy):
        if not (is_mg(unit) and unit.on_map):
            continue
        mode, target = shown.get(unit.id) or _drawn_mode(game, unit, rng)
        game.secrets[enemy].modes[unit.id] = (mode, target, 0)  # 0: not chosen in this Morale Phase


def _drawn_mode(game: GameState, unit: Unit, rng: random.Random) -> tuple[str, str]:
    mode = rng.choice((DF, SP, FL))
    lanes = reach(game, unit) if mode == FL else []
    return (FL, game.label_of(rng.choice(lanes))) if lanes else (DF if mode == FL else mode, "")


def _lay_mines(game: GameState, enemy: str, rng: random.Random) -> None:
    """19.11: the enemy's revealed mines where they went off (R116: the factors less the side's own
    there), the rest one placement at a time where 19.12 and 19.14 allow, but not where a unit of
    the side stands (an AP mine goes off under any unit, an AT mine under an AFV: 19.21, R181)."""
    own = game.secrets[other(enemy)].mines
    mines = game.secrets[enemy].mines
    for h, shown in game.revealed_mines.items():
        for kind, count in shown.items():
            left = count - own.get(h, {}).get(kind, 0)
            if left > 0:
                mines.setdefault(h, {"ap": 0, "at": 0})[kind] = left
    side_units = [u for u in game.side_units(other(enemy)) if u.on_map]
    under = {"ap": {u.hex for u in side_units}, "at": {u.hex for u in side_units if u.is_afv}}
    for h, shown in game.revealed_mines.items():  # a revealed type's factors are known
        for kind in shown:
            under[kind].add(h)
    # a hex as likely as another, then a type it may take there (one hex listed at a time, not the map)
    pool = sorted(game.board.hexes)  # mine_actions says which may take one
    while pool and any(left > 0 for left in mine_factors(game, enemy).values()):
        h = pool[rng.randrange(len(pool))]
        kinds = [a.arg.split()[0] for a in mine_actions(game, enemy, (h,))]
        open_ = [kind for kind in kinds if h not in under[kind]]
        if not open_:
            pool.remove(h)
            continue
        lay_mine(game, enemy, rng.choice(open_), h)
