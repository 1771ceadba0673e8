"""The exact odds of one concrete shot (10.0 c-f): who may fire from the given hexes at the target
hex and why not, every modifier with its rule, the firepower, the dice for each target unit and
each unit's result probabilities with the firers' PC chances included, by enumerating which
firers pass (never by sampling); a mortar's round by its scatter and direction dice (14.0-14.5).
`iceditor odds fire`, the editor's LOS tool and the AI players read the same function; the
numbers, and the modifiers of the PCs, are the engine's own functions (shot.py, mortars.py).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from itertools import product
from typing import Any

from engine.geometry.movement import Morale
from engine.hexgrid import Hex
from engine.odds import FACES, ap_chances, at_chance, dice_totals

from .actions import Action, IllegalAction
from .advanced import advanced
from .combining import group_fire_leader, may_combine
from .firing import FIRE_PHASES, firing_side, may_fire
from .mg_fire import LANE, SPRAY, lane_targets, mg_shot, pc_passed, ready, spray_targets
from .mg_modes import FL, direct_fire, mode_of
from .mortars import (
    MORTAR,
    attack_dice,
    declaration,
    firepower,
    is_mortar,
    landing,
    scatter_modifier,
    scatter_result,
)
from .observation import (
    PENALTY_BARRED,
    PENALTY_MOVED,
    Observation,
    mark_penalty,
    observation,
    observed_chance,
    observers,
)
from .shot import ap_shot, at_shot, fire_pc_modifier, may_aim, may_antitank
from .special_roll import special_roll
from .state import SUPPORT_FIRE, GameState
from .units import Unit

MOST_FIRERS = 16  # 2**16 pass/fail cases: still well under a second


def pc_chance(pr: int, modifier: int = 0) -> Fraction:
    """4.0: two dice plus the modifier at most the PR."""
    return sum((p for total, p in dice_totals(2).items() if total + modifier <= pr), Fraction(0))


def fire_pc_chance(game: GameState, unit: Unit) -> Fraction:
    """The chance `unit` passes its PC to fire now (10.12), with the modifier the dice take (13.17)."""
    return pc_chance(unit.pr, fire_pc_modifier(game, unit))


def as_firing_side(game: GameState, side: str) -> GameState:
    """The state to judge a shot by `side` in: as it is when `side` fires now (a fire phase or an
    interrupt), else a copy in `side`'s Support Fire Phase (where every kind of combining is open)."""
    now = game.phase in FIRE_PHASES or game.interrupt is not None
    if now and game.attack is None and firing_side(game) == side and not game.is_over:
        return game
    twin = game.copy()
    twin.phase, twin.phasing, twin.to_act, twin.interrupt, twin.attack = SUPPORT_FIRE, side, side, None, None
    return twin


def fire_odds(
    game: GameState, sources: list[Hex], target: Hex, picked: Collection[str] | None = None
) -> dict[str, Any]:
    """Every unit in `sources` that may fire at `target` now, the AP attack they would make together
    (each that may combine, in order) and each AT shot, with exact probabilities. With `picked`,
    only those units fire (the player's pick of the firers, 11.13); `units` still lists them all,
    each with `picked`."""
    present = [u for h in sources for u in game.at(h)]
    if not present:
        raise ValueError(f"no units in {', '.join(game.label_of(h) for h in sources)}")
    firers = present if picked is None else [u for u in present if u.id in picked]
    sides = {u.side for u in present}
    if len(sides) > 1:
        raise ValueError("the firing hexes hold units of both sides")
    side = sides.pop()
    game = as_firing_side(game, side)
    units = [
        {"unit": u.id, **_eligibility(game, u, target), **({} if picked is None else {"picked": u.id in picked})}
        for u in present
    ]
    aimers = [u for u in firers if may_aim(game, u, target) and direct_fire(game, u)]  # 21.26, 21.36
    attack: list[Unit] = []
    for unit in aimers:
        if may_combine(game, [*attack, unit]):
            attack.append(unit)
    return {
        "phase": game.phase,
        "side": side,
        "target": game.label_of(target),
        "units": units,
        "ap": _ap(game, attack, target) if attack else None,
        "at": [_at(game, u, target) for u in firers if may_antitank(game, u, target)],
        "mortar": [_mortar(game, u, target) for u in firers if _mortar_refusal(game, u, target) is None],
        **({"mg": [_mg(game, u, target) for u in firers if not direct_fire(game, u)]} if advanced(game) else {}),
    }


def _eligibility(game: GameState, unit: Unit, target: Hex) -> dict[str, Any]:
    if not may_fire(game, unit):
        return {"fires": False, "why": "not eligible to fire now (10.11, 10.13-10.16)"}
    if is_mortar(unit):
        refusal = _mortar_refusal(game, unit, target)
        return {"fires": True, "pc": float(pc_chance(unit.pr))} if refusal is None else {"fires": False, "why": refusal}
    if may_aim(game, unit, target) or may_antitank(game, unit, target):
        return {"fires": True, "pc": float(fire_pc_chance(game, unit))}
    return {"fires": False, "why": "no LOS, out of range or arc, or nothing it may fire at there (10.2, 10.23, 11.2)"}


def _ap(game: GameState, firers: list[Unit], target: Hex) -> dict[str, Any]:
    """The attack if every PC passes, and each target unit's odds over every pass/fail case; with
    the advanced rules, over observed and unobserved too (23.2, 23.32), and the observation's odds."""
    firers = firers[:MOST_FIRERS]
    if not advanced(game):
        return _with_special_rolls(game, _ap_case(game, firers, target, True))
    p_seen, seen = observed_chance(game, firers, target, group_fire_leader(game, firers))
    marked = _penalised(game, seen)
    cases = {
        (hex_seen, moved): (p, _ap_case(marked if moved else game, firers, target, hex_seen))
        for (hex_seen, moved), p in _observation_cases(seen).items()
    }
    first_moved = bool(seen) and seen[0].penalty == PENALTY_MOVED  # the first observer always tries
    shown, unobserved = cases[(True, first_moved)][1], cases[(False, marked is not game)][1]
    for i, target_odds in enumerate(shown["targets"]):
        target_odds["p"] = {
            k: sum(p * case["targets"][i]["p"][k] for p, case in cases.values()) for k in target_odds["p"]
        }
    return _with_special_rolls(
        game,
        {
            **shown,
            "observation": {"p_observed": round(p_seen, 4), "attempts": [o.describe() for o in seen]},
            "unobserved_firepower": unobserved["firepower"],
        },
    )


def _observation_cases(seen: list[Observation]) -> dict[tuple[bool, bool], float]:
    """The chance of each (observed, a firing hex counted as moved by 23.2's Optional Penalty a),
    the observers trying in turn until one succeeds (23.13; fire.attack_observed). Both keys of
    an outcome are always there (a chance of 0 if it cannot happen)."""
    cases = {(o, m): 0.0 for o in (True, False) for m in (False, any(x.penalty == PENALTY_MOVED for x in seen))}
    going = {False: 1.0}
    for one in seen:
        after: dict[bool, float] = {}
        for moved, p in going.items():
            moved = moved or one.penalty == PENALTY_MOVED
            cases[(True, moved)] += p * one.chance
            after[moved] = after.get(moved, 0.0) + p * (1 - one.chance)
        going = after
    for moved, p in going.items():
        cases[(False, moved)] += p
    return cases


def _penalised(game: GameState, seen: list[Observation]) -> GameState:
    """The state with the first penalised observer's hex counted as moved (23.2 Optional Penalty
    a: the attack's 11.32 die holds if any firer moved, so one hex is enough); `game` if none is."""
    first = next((o for o in seen if o.penalty == PENALTY_MOVED), None)
    if first is None:
        return game
    twin = game.copy()
    where = twin.unit(first.observer).hex
    assert where is not None
    mark_penalty(twin, where)
    return twin


def _with_special_rolls(game: GameState, attack: dict[str, Any]) -> dict[str, Any]:
    """11.45: a SUPPRESSED target's S result is the Special Roll (a PC, or the Optional Special
    Roll: special_roll.py, the engine's own): its chance to eliminate, and the S result's share of
    eliminations, beside the attack's result chances. Only SUPPRESSED non-AFV targets carry it."""
    for target in attack["targets"]:
        unit = game.unit(target["unit"])
        if unit.morale == Morale.SUPPRESSED and not unit.is_afv:
            roll = special_roll(game, unit)
            chance = float(roll.chance())
            target["special_roll"] = {
                "what": roll.describe(),
                "optional": roll.optional,
                "p_eliminates": chance,
                "p_eliminated_by_it": target["p"]["S"] * chance,
                "rule": "11.45",
            }
    return attack


def _ap_case(game: GameState, firers: list[Unit], target: Hex, observed_hex: bool) -> dict[str, Any]:
    firers = [game.unit(u.id) for u in firers]  # as `game` has them (a twin's: _penalised)
    shot = ap_shot(game, firers, target, observed=observed_hex)
    passes = [fire_pc_chance(game, u) for u in firers]
    totals: list[dict[str, Fraction]] = [dict.fromkeys(("E", "S", "P", "none"), Fraction(0)) for _ in shot.targets]
    kept: dict[tuple[int, ...], Any] = {}
    chances: dict[tuple[int, int], dict[str, Fraction]] = {}
    for case in product((True, False), repeat=len(firers)):
        weight = Fraction(1)
        for passed, p in zip(case, passes, strict=True):
            weight *= p if passed else 1 - p
        firing = tuple(i for i, passed in enumerate(case) if passed)
        if not firing:
            for t in totals:
                t["none"] += weight
            continue
        if firing not in kept:
            kept[firing] = ap_shot(game, [firers[i] for i in firing], target, observed=observed_hex)
        sub = kept[firing]
        for t, dice in zip(totals, sub.dice, strict=True):
            key = (sub.firepower, dice.count)
            if key not in chances:
                chances[key] = ap_chances(*key)
            for result, p in chances[key].items():
                t[result] += weight * p
    return {
        **shot.describe(game),
        "targets": [
            {"unit": u.id, "dice": d.count, "why": list(d.why), "p": {k: float(v) for k, v in t.items()}}
            for u, d, t in zip(shot.targets, shot.dice, totals, strict=True)
        ],
    }


def _at(game: GameState, firer: Unit, target: Hex) -> dict[str, Any]:
    shot = at_shot(game, firer, target)
    hit = at_chance(shot.firepower, shot.armor, shot.dice[0].count, shot.higher)
    pc = fire_pc_chance(game, firer)
    if not advanced(game):
        return {**shot.describe(game), "p_fires": float(pc), "p_destroyed": float(pc * hit)}
    seen = observation(game, firer, target)  # 23.31: no AT fire at a hex not observed
    fires = float(pc) * seen.chance
    return {**shot.describe(game), "p_fires": fires, "p_destroyed": fires * float(hit), "observation": seen.describe()}


def _mg(game: GameState, mg: Unit, target: Hex) -> dict[str, Any]:
    """An MG in FL or SP mode (21.0): its attacks now, each hex's units with their odds, the PC
    included (none if it passed one this phase: 21.24, 21.34), by the engine's own `mg_shot`; or why
    it makes none that reaches `target` (the hexes it would attack, 21.22, 21.32, R311-R313)."""
    mode, lane_target = mode_of(game, mg)
    entry: dict[str, Any] = {"unit": mg.id, "mode": mode, **({"lane_target": lane_target} if mode == FL else {})}
    label = game.label_of(target)
    if not ready(game, mg):
        return {**entry, "fires": False, "why": "not eligible to fire now (10.11, 21.24, 21.34)"}
    hexes = lane_targets(game, mg) if mode == FL else spray_targets(game, mg)
    if target not in hexes:
        what = f"its fire lane (to {lane_target})" if mode == FL else "its spray fire area"
        shown = ", ".join(game.label_of(h) for h in hexes) or "none"
        why = f"{what} makes no attack at {label} now (attacks now: {shown}; 21.22, 21.32)"
        return {**entry, "fires": False, "why": why}
    pc = Fraction(1) if pc_passed(game, mg) else fire_pc_chance(game, mg)
    verb = LANE if mode == FL else SPRAY
    attacks = []
    for h in hexes if mode == FL else [target]:  # a lane attacks every hex with units; a Spray the hex chosen
        shot = mg_shot(game, mg, verb, h)
        targets = []
        for unit, dice in zip(shot.targets, shot.dice, strict=True):
            chances = {k: pc * v for k, v in ap_chances(shot.firepower, dice.count).items()}
            chances["none"] += 1 - pc
            targets.append(
                {
                    "unit": unit.id,
                    "dice": dice.count,
                    "why": list(dice.why),
                    "p": {k: float(v) for k, v in chances.items()},
                }
            )
        attacks.append(_with_special_rolls(game, {**shot.describe(game), "targets": targets}))
    rule = "21.25" if mode == FL else "21.35"
    return {**entry, "fires": True, "p_fires": float(pc), "rule": rule, "attacks": attacks}


def _mortar_refusal(game: GameState, mortar: Unit, target: Hex) -> str | None:
    """Why the mortar may not fire one round of direct fire at `target` now (the engine's own
    refusal, with its rule), None if it may."""
    if not is_mortar(mortar):
        return "not a mortar"
    try:
        declaration(game, Action(MORTAR, (mortar.id,), f"{game.label_of(target)} 1"))
    except IllegalAction as refused:
        return str(refused)
    return None


def round_landings(target: Hex, modifier: int) -> dict[Hex, Fraction]:
    """Where one mortar round aimed at `target` lands (14.3), exactly: the scatter die with its
    modifiers, then on a scatter the direction die (one die each, as `mortars._round` rolls)."""
    lands: dict[Hex, Fraction] = {}
    sixth = Fraction(1, len(FACES))
    for die in FACES:
        result = scatter_result(die, modifier)
        for direction in FACES if result != "T" else (0,):
            h = landing(target, result, direction)
            lands[h] = lands.get(h, Fraction(0)) + (sixth if result == "T" else sixth * sixth)
    return lands


def _mortar(game: GameState, mortar: Unit, target: Hex) -> dict[str, Any]:
    """One round of the mortar's direct fire at `target`, of a declaration of up to three rounds
    (14.3 a: more adds to the scatter die): its one PC (R136), where the round lands (14.3, R138: off
    the map it is lost) and each unit of the target hex's results (14.4-14.51), PC included."""
    label = game.label_of(target)
    same = mortar.extra.get("mortar_target") == label
    modifier, why = scatter_modifier(game, mortar, target, 1, indirect=False, same=same)
    pc = pc_chance(mortar.pr)
    lands = round_landings(target, modifier)
    hit = pc * lands.get(target, Fraction(0))
    landed: dict[str | None, Fraction] = {}  # by label, the hexes off the map as one (R138: lost)
    for h, p in sorted(lands.items(), key=lambda item: (item[0] != target, -item[1], item[0])):
        where = game.label_of(h) if h in game.board.hexes else None
        landed[where] = landed.get(where, Fraction(0)) + p
    targets = []
    for unit in sorted(game.at(target), key=lambda u: u.id):  # R138: every unit there, of either side
        dice, dice_why = attack_dice(game, mortar, unit)
        chances = {result: hit * chance for result, chance in ap_chances(firepower(mortar), dice).items()}
        chances["none"] += 1 - hit
        p_results = {k: float(v) for k, v in chances.items()}
        targets.append({"unit": unit.id, "dice": dice, "why": dice_why, "p": p_results})
    return _with_special_rolls(
        game,
        {
            "unit": mortar.id,
            "firepower": firepower(mortar),
            "rule": "14.51",
            "p_fires": float(pc),
            "scatter_modifier": modifier,
            "modifiers": why,
            "lands": [{"hex": where, "p": float(p)} for where, p in landed.items()],
            "targets": targets,
        },
    )


def describe_odds(odds: dict[str, Any]) -> str:
    """The odds as lines a person reads (the command line's text, the editor's LOS tool)."""
    lines = [f"Fire by {odds['side']} at {odds['target']} ({odds['phase'].replace('_', ' ')} phase):"]
    for unit in odds["units"]:
        shown = f"PC {unit['pc']:.0%}" if unit["fires"] else unit["why"]
        if unit["fires"] and unit.get("picked") is False:
            shown += ", not picked to fire"
        lines.append(f"  {unit['unit']}: {shown}")
    ap = odds["ap"]
    if ap is not None:
        levels = ap["levels"]
        lines.append(f"AP firepower {ap['firepower']} (P {levels['P']}, S {levels['S']}, E {levels['E']}):")
        lines += [f"  {part['value']:+g} {part['what']} ({part['rule']})" for part in ap["parts"]]
        seen = ap.get("observation")
        if seen is not None:
            lines.append(
                f"  observed {seen['p_observed']:.1%} (23.2); "
                f"unobserved: firepower {ap['unobserved_firepower']} (23.32)"
            )
            lines += [f"    {_observation(o)}" for o in seen["attempts"]]
        for target in ap["targets"]:
            lines += _target_lines(target, "  ", f"PCs{' and observation' if seen else ''}")
    for shot in odds["at"]:
        lines.append(
            f"AT {shot['firers'][0]}: factor {shot['firepower']} against armor {shot['armor']}"
            f"{' +1 higher' if shot['higher'] else ''}, {_dice(shot['targets'][0]['dice'])}: "
            f"destroyed {shot['p_destroyed']:.1%} (PC {shot['p_fires']:.0%} included)"
        )
        if "observation" in shot:
            lines.append(f"  observation included (23.31): {_observation(shot['observation'])}")
    for mortar in odds["mortar"]:
        modifiers = ", ".join(mortar["modifiers"]) or "no modifier"
        landed = ", ".join(f"{land['hex'] or 'off the map'} {land['p']:.1%}" for land in mortar["lands"])
        lines.append(
            f"Mortar {mortar['unit']}, each round (of up to three declared): PC {mortar['p_fires']:.0%} (R136); "
            f"scatter die: {modifiers} (14.3 a); lands {landed} (14.3)"
        )
        lines.append(f"  AP {mortar['firepower']} on each unit where it lands, never modified (14.51)")
        for target in mortar["targets"]:
            lines += _target_lines(target, "  ", "PC and scatter")
    for mg in odds.get("mg", ()):
        lines += _mg_lines(mg)
    if ap is None and not odds["at"] and not odds["mortar"] and not any(m["fires"] for m in odds.get("mg", ())):
        lines.append("  no unit there may fire at that hex now")
    return "\n".join(lines)


def _mg_lines(mg: dict[str, Any]) -> list[str]:
    """An FL or SP MG's attacks (21.25, 21.35), or why it makes none at the hex."""
    mode = {"fl": f"FL mode, a Fire Lane to {mg.get('lane_target')}", "sp": "SP mode, Spray"}[mg["mode"]]
    if not mg["fires"]:
        return [f"MG {mg['unit']} ({mode}): {mg['why']}"]
    pc = "PC passed this phase" if mg["p_fires"] == 1 else f"PC {mg['p_fires']:.0%}"
    lines = [f"MG {mg['unit']} ({mode}, {mg['rule']}), one fire combat ({pc}, 21.24, 21.34):"]
    for attack in mg["attacks"]:
        lines.append(f"  at {attack['hex']}: AP firepower {attack['firepower']}")
        lines += [f"    {part['value']:+g} {part['what']} ({part['rule']})" for part in attack["parts"]]
        for target in attack["targets"]:
            lines += _target_lines(target, "    ", "PC")
    return lines


def _target_lines(target: dict[str, Any], indent: str, included: str) -> list[str]:
    """One target unit's dice and result chances (`included`: what they count in), and for a
    SUPPRESSED one the Special Roll an S brings (11.45)."""
    p = target["p"]
    lines = [
        f"{indent}{target['unit']}: {_dice(target['dice'])}; E {p['E']:.1%}, S {p['S']:.1%}, P {p['P']:.1%}, "
        f"no effect {p['none']:.1%} ({included} included)"
    ]
    roll = target.get("special_roll")
    if roll is not None:
        lines.append(
            f"{indent}  SUPPRESSED already: an S is {roll['what']}, eliminates {roll['p_eliminates']:.1%}; "
            f"eliminated so {roll['p_eliminated_by_it']:.1%} (11.45)"
        )
    return lines


def _observation(seen: dict[str, Any]) -> str:
    """One observer's attempt: automatic (23.0), settled by its hex's attempt at this fire (23.12,
    23.13, R370), or its base, modifiers and chance (23.2)."""
    if seen["automatic"]:
        return f"{seen['observer']}: adjacent, observed (23.0)"
    if seen["rule"] == "23.13":
        return f"{seen['observer']}: its hex observed {seen['hex']} at this fire (23.13)"
    if seen["rule"] == "23.12":
        return f"{seen['observer']}: its hex failed to observe {seen['hex']} at this fire, no second attempt (23.12)"
    mods = ", ".join(f"{m['value']:+d} {m['why']}" for m in seen["modifiers"]) or "no modifier"
    return f"{seen['observer']}: 2 dice at most {seen['base']}; {mods}: {seen['chance']:.1%}{_penalty_words(seen)}"


def _penalty_words(seen: dict[str, Any]) -> str:
    return {
        "": "",
        PENALTY_MOVED: "; Optional Penalty a: its hex counts as moved (23.2)",
        PENALTY_BARRED: "; Optional Penalty b: moved, no attempt (23.2)",
    }[seen.get("penalty", "")]


def describe_observation(game: GameState, source: Hex, target: Hex) -> str:
    """23.2 between two hexes, as lines a person reads (the editor's LOS tool): the observer the
    units in `source` attempt with (23.12-23.14), the Observation Base of `target`, each modifier
    named with its side (for the target or for the observer) and the chance; '' without the
    advanced rules, or with no units in `source` or none of the other side in `target`."""
    present = game.at(source)
    if not advanced(game) or not present or not any(u.side != present[0].side for u in game.at(target)):
        return ""
    lines = [f"Observation of {game.label_of(target)} from {game.label_of(source)} (23.2):"]
    for observer in observers([u for u in present if u.side == present[0].side]):
        seen = observation(game, observer, target).describe()
        if seen["automatic"]:
            lines.append(f"  {_observation(seen)}")
            continue
        lines.append(f"  {seen['observer']}: observed if 2 dice + modifiers <= {seen['base']} (Observation Base)")
        lines += [f"    {m['value']:+d} for the {m['for']}: {m['why']}" for m in seen["modifiers"]] or [
            "    no modifier"
        ]
        lines.append(f"    chance {seen['chance']:.1%}{_penalty_words(seen)}")
    return "\n".join(lines)


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"
