"""Advanced rule 21.0 in the fire phases and at an interrupt: Fire Lane and Spray attacks (21.2,
21.3) and the mid-phase change to Spray (21.42).

`lane UNIT` is an FL MG's attack on every unit along its lane, friendly ones too (21.23); at an
interrupt (21.22, 13.12) on the units in the hex entered, if it is a lane hex (13.13, R311).
`spray UNIT HEX` is one SP attack, at half the AP firepower rounded down (21.35), on a hex of the
spray fire area the player chooses (21.33), each hex once a phase (R312). The fire PC is taken at
the first attack of a phase only (21.24, 21.34); the attacks of the Player Turn are its one fire
combat (21.27, 21.37). FL and SP attacks are made in the Support and Defensive Fire Phases and at
the interrupts of either movement phase (21.22, 21.32, 13.12), never in the Moving Fire Phase
(R313). `switch UNIT` is the PC to change to SP mode (21.42).
"""

from __future__ import annotations

from typing import Any

from engine.geometry.movement import Morale
from engine.hexgrid import Hex

from .actions import Action, IllegalAction, verb
from .advanced import advanced
from .ammo import cost, may_spend, spend
from .fire import fire_pcs, movers_after_fire, resolve_ap
from .firing import firing_side, may_fire
from .mg_modes import FL, SP, lane_now, mode_of, reach, set_mode
from .performance import Check
from .shot import Part, Shot, ap_shot, fire_pc_modifier, is_mg, visible_enemies
from .state import DEFENSIVE_FIRE, SUPPORT_FIRE, GameState
from .units import Unit

LANE = verb("lane", arg=False, rule="21.2")  # lane UNIT: the FL attacks along the MG's lane (21.23)
SPRAY = verb("spray")  # spray UNIT HEX: an SP attack on one hex of the spray fire area (21.33)
SWITCH = verb("switch", arg=False, rule="21.42")  # switch UNIT: the PC to change to SP mode (21.42)
MG_VERBS = frozenset((LANE, SPRAY, SWITCH))

_SPRAY_HALF = Part("Spray: half the AP firepower, rounded down", 0, "21.35")
_SWITCH_HALF = Part("changed to SP mode this Player Turn: halved (R314)", 0, "21.42")


def mg_actions(game: GameState) -> list[Action]:
    """The FL, SP and mode-change choices open now (none but with the advanced rules)."""
    if not advanced(game) or game.attack is not None:
        return []
    if game.interrupt is None and game.phase not in (SUPPORT_FIRE, DEFENSIVE_FIRE):
        return []
    actions: list[Action] = []
    for unit in game.side_units(firing_side(game)):
        if not (is_mg(unit) and unit.on_map):
            continue
        mode = mode_of(game, unit)[0]
        if mode == FL and ready(game, unit) and _paid(game, unit, LANE) and lane_targets(game, unit):
            actions.append(Action(LANE, (unit.id,)))
        if mode == SP and ready(game, unit) and _paid(game, unit, SPRAY):
            actions += [Action(SPRAY, (unit.id,), game.label_of(h)) for h in spray_targets(game, unit)]
        if mode != SP and _may_switch(game, unit):
            actions.append(Action(SWITCH, (unit.id,)))
    return actions


def _paid(game: GameState, unit: Unit, verb: str) -> bool:
    """R344, R356: the pool pays the attack's 22.2 points: a lane's 2 and a spray's first hex 1 at
    the combat's first attack, a spray's second hex 1 more; the rest of a combat paid in full goes
    on with none left (22.2: 'regardless of the number of hexes'; 21.27, 21.37: one fire combat)."""
    return may_spend(game, unit, next_attack_cost(game, unit, verb))


def _may_switch(game: GameState, unit: Unit) -> bool:
    """21.42: 'An MG may change to the SP mode ANYTIME it is eligible to fire': it may fire now
    (10.11: it has not fired this Player Turn), has not tried this Player Turn, and would have an SP
    attack to make once in SP mode, an enemy in its spray fire area (the hex entered at an
    interrupt): eligible to fire at something (R351)."""
    return (
        unit.extra.get("switch_tried") != game.player_turns and may_fire(game, unit) and bool(spray_targets(game, unit))
    )


def _attacks(game: GameState) -> str:
    """What one FL or SP attack is made at: the phase, or the interrupt (its hex and movers)."""
    if game.interrupt is None:
        return game.phase
    return f"{game.interrupt['hex']} {'+'.join(game.interrupt['units'])}"


def ready(game: GameState, unit: Unit) -> bool:
    """10.1 for the first attack of the phase; later ones need no PC (21.24, 21.34) while the MG
    stays NORMAL. An MG whose FL or SP attacks began in an earlier phase of the Player Turn may go
    on with its one fire combat (21.27, 21.37), the phase's first attack with a new PC, unless a PC
    of it failed ('it will never fire during that Player Turn'; R354)."""
    turn = game.player_turns
    if unit.extra.get("mg_passed") == [turn, game.phase]:
        return unit.morale == Morale.NORMAL
    if _combat(game, unit):
        return unit.extra.get("mg_failed") != turn and may_fire(game, unit, again=True)
    return may_fire(game, unit)


def _combat(game: GameState, unit: Unit) -> int:
    """The FL or SP attacks the MG has made this Player Turn: its one fire combat (21.27, 21.37)."""
    turn, attacks = unit.extra.get("mg_combat", (None, 0))
    return int(attacks) if turn == game.player_turns else 0


def lane_targets(game: GameState, unit: Unit) -> list[Any]:
    """The lane's hexes with units to attack now: every hex with a unit if an enemy unit is in the
    lane (21.22, 21.23); at an interrupt the hex entered, if it is a lane hex (R311)."""
    if _attacks(game) in unit.extra.get("mg_attacked", ()):
        return []
    hexes = lane_now(game, unit)
    if game.interrupt is not None:
        entered = game.hex(game.interrupt["hex"])
        hexes = [h for h in hexes if h == entered]
    if not any(visible_enemies(game, unit.side, h) for h in hexes):
        return []
    return [h for h in hexes if game.at(h)]


def spray_targets(game: GameState, unit: Unit) -> list[Any]:
    """21.31-21.33: the hexes of the spray fire area with a visible enemy, each once a phase (R312);
    at an interrupt only the hex entered (13.13)."""
    done = unit.extra.get("mg_attacked", ())
    hexes = [h for h in reach(game, unit) if visible_enemies(game, unit.side, h)]
    if game.interrupt is not None:
        hexes = [h for h in hexes if game.label_of(h) == game.interrupt["hex"] and _attacks(game) not in done]
    return [h for h in hexes if game.label_of(h) not in done]


def apply_mg(game: GameState, action: Action) -> list[dict[str, Any]]:
    if action not in mg_actions(game):
        raise IllegalAction(f"{action.text()} is not a legal machine gun choice now", "21.0")
    unit = game.unit(action.units[0])
    if action.verb == SWITCH:
        return _switch(game, unit)
    if action.verb == LANE:
        hexes, done = lane_targets(game, unit), _attacks(game)
    else:
        target = game.hex(action.arg)
        hexes, done = [target], game.label_of(target) if game.interrupt is None else _attacks(game)
    events: list[dict[str, Any]] = []
    if unit.extra.get("mg_passed") != [game.player_turns, game.phase]:
        mode, target_label = mode_of(game, unit)  # 21.0: 'need not be revealed until the unit fires'
        events.append({"event": "mode shown", "unit": unit.id, "mode": mode, "target": target_label, "rule": "21.0"})
        passed, pcs = fire_pcs(game, [unit])
        events += pcs
        if not passed:  # 21.24, 21.34: 'if it fails it will never fire during that Player Turn'
            game.changing(unit.id).extra["mg_failed"] = game.player_turns
            return [*events, *movers_after_fire(game)] if game.interrupt is not None else events
        unit = game.changing(passed[0])
        unit.extra["mg_passed"] = [game.player_turns, game.phase]
    unit = game.changing(unit)
    unit.extra["mg_attacked"] = [*unit.extra.get("mg_attacked", ()), done]
    unit.extra["mg_combat"] = [game.player_turns, _combat(game, unit) + 1]
    events += spend(game, unit, attack_cost(action.verb, _combat(game, unit)))
    rule = "21.25" if action.verb == LANE else "21.35"
    for h in hexes:  # 21.23, 21.33: a separate attack on each hex's units, never combined (21.26, 21.36)
        if game.at(h):
            events += resolve_ap(game, mg_shot(game, game.unit(unit.id), action.verb, h), rule)
    return [*events, *movers_after_fire(game)] if game.interrupt is not None else events


def mg_shot(game: GameState, unit: Unit, verb: str, h: Hex) -> Shot:
    """One FL (`verb` LANE) or SP attack on the units of h: the numbers the engine rolls and the odds
    calculator shows. 21.25: 'the MG's full AP firepower (subject to terrain reductions per hex)'
    on every unit there, friendly ones too (21.23); 21.35: 'one-half (rounded down)', and a
    quarter after 21.42's change (R314). Never halved for an unobserved hex (23.35)."""
    if verb == LANE:
        return ap_shot(game, [unit], h, every_unit=True)
    switched = unit.extra.get("sp_halved") == game.player_turns  # 21.42: 'one-quarter its AP firepower'
    return ap_shot(game, [unit], h, halved=(_SWITCH_HALF, _SPRAY_HALF) if switched else (_SPRAY_HALF,))


def pc_passed(game: GameState, unit: Unit) -> bool:
    """The MG's fire PC was passed earlier in this phase: no other is taken (21.24, 21.34)."""
    return bool(unit.extra.get("mg_passed") == [game.player_turns, game.phase])


def next_attack_cost(game: GameState, unit: Unit, verb: str) -> int:
    """What the MG's next FL (`verb` LANE) or SP attack of this Player Turn would spend (22.2)."""
    return attack_cost(verb, _combat(game, unit) + 1)


def attack_cost(verb: str, attacks: int) -> int:
    """22.2: 'MG in FL mode: 2 points regardless of the number of hexes', paid at its first attack
    of the combat; 'MG in SP mode (attacks only 1 hex): 1 point ... (attacks multiple hexes): 2
    points total', the first hex 1 and the second 1 more (21.37: one fire combat a Player Turn).
    `attacks`: the attack's number in the combat, 1 for the first."""
    if verb == LANE:
        return cost("mg_fire_lane") if attacks == 1 else 0
    if attacks == 1:
        return cost("mg_spray_one_hex")
    return cost("mg_spray_multiple_hexes") - cost("mg_spray_one_hex") if attacks == 2 else 0


def _switch(game: GameState, unit: Unit) -> list[dict[str, Any]]:
    """21.42: 'It takes a PC to make the mode change. If it fails it may not change modes although
    it may still fire from its current mode'; if it passes, its AP factors are halved for the rest
    of the Player Turn. The PC is not a fire PC: the MG has not fired (R315)."""
    check = Check(game.dice.roll(2), fire_pc_modifier(game, unit), unit.pr)
    unit = game.changing(unit)
    unit.extra["switch_tried"] = game.player_turns
    events = [{"event": "pc", "unit": unit.id, "for": "mode change", "check": check.describe(), "rule": "21.42"}]
    if check.passed:
        set_mode(game, unit, SP)
        unit.extra["sp_halved"] = game.player_turns
        events.append({"event": "mode shown", "unit": unit.id, "mode": SP, "target": "", "rule": "21.42"})
    return events
