"""Pushing Wrecks (8.65): the AFV's declaration, its PC at the phase's end, where the Wreck goes."""

from __future__ import annotations

from typing import Any

from engine.hexgrid import DIRECTIONS, Hex
from engine.validate.placements import may_stand

from .actions import PUSH, WRECK, Action, IllegalAction
from .morale import reveal_hex
from .performance import performance_check
from .stacks import side_afvs
from .state import MOVEMENT, GameState
from .steps import _movement_cost, _step, may_start
from .units import Unit


def _push_actions(game: GameState, side: str) -> list[Action]:
    """8.65: 'To push a Wreck, an AFV must spend its entire Movement Phase (not Reaction Movement
    Phase) in a hex adjacent to the Wreck': an AFV that has not moved this phase, the Wreck across
    its frontal hexside (8.74: it enters the Wreck's hex as it moves, R90), somewhere to push it to."""
    if game.phase != MOVEMENT or not game.wrecks:
        return []
    actions = []
    for afv in side_afvs(game, side):
        if afv.moved or afv.facing is None or not may_start(game, afv):
            continue
        assert afv.hex is not None
        wreck = afv.hex + DIRECTIONS[afv.facing]
        if wreck not in game.wrecks or any(u.side != side and not u.hidden for u in game.at(wreck)):
            continue  # 8.23: the AFV may not enter a visible enemy unit's hex
        if _movement_cost(game, afv.hex, wreck, afv.mover(game.phase)) is None or not _wreck_to(game, afv, wreck):
            continue
        actions.append(Action(PUSH, (afv.id,), game.label_of(wreck)))
    return actions


def _wreck_to(game: GameState, afv: Unit, wreck: Hex) -> list[Hex]:
    """The hexes the Wreck may be pushed into: next to it, not the pusher's, no AFV or other Wreck
    there (8.61), ground an AFV may stand on (R90)."""
    return [
        h
        for h in game.neighbours(wreck)
        if h != afv.hex
        and h not in game.wrecks
        and not any(u.is_afv for u in game.at(h))
        and may_stand(game.board, h, afv=True, state="up")
    ]


def _declare_push(game: GameState, afv: Unit, wreck: Hex) -> list[dict[str, Any]]:
    """The AFV spends its Movement Phase on the push (it has MOVED, 4.0); the PC comes at the end."""
    afv = game.changing(afv)
    afv.moved = afv.move_done = True
    afv.extra["push"] = wreck
    return [{"event": "push", "unit": afv.id, "wreck": game.label(wreck), "rule": "8.65"}]


def pushing(game: GameState) -> list[Unit]:
    """The AFVs whose push is still to be resolved, in a fixed order."""
    return [u for u in game.units.values() if u.extra.get("push") is not None]


def resolve_pushes(game: GameState) -> list[dict[str, Any]]:
    """8.65: 'At the end of the Movement Phase, the AFV takes a PC. If it passes, the Wreck is placed
    in an adjacent hex' (its owner chooses: `wreck_actions`) 'and the AFV enters the hex previously
    occupied by the Wreck. If it fails, the Wreck does not move.' One push at a time, so that each
    Wreck placed counts for the next. The PC is 8.65's own, taken before the first shot too."""
    events: list[dict[str, Any]] = []
    for afv in pushing(game):
        if afv.extra.get("push_passed"):
            return events  # its owner places the Wreck first
        afv = game.changing(afv)
        wreck: Hex = afv.extra["push"]
        check = performance_check(game.dice, afv.pr)
        events.append(
            {"event": "pc", "unit": afv.id, "for": "pushing a wreck", "check": check.describe(), "rule": "8.65"}
        )
        hidden = [u for u in game.at(wreck) if u.side != afv.side and u.hidden]
        if check.passed and hidden:  # 24.23, R88: revealed as the AFV is about to enter; it does not
            events += reveal_hex(game, hidden[0].side, wreck, f"{afv.id} is about to enter it")
            afv = game.unit(afv.id)
        elif check.passed and _wreck_to(game, afv, wreck):
            afv.extra["push_passed"] = True
            return events
        elif check.passed:
            events.append({"event": "push", "unit": afv.id, "wreck": game.label(wreck), "why": "nowhere to push it"})
        del afv.extra["push"]
    return events


def wreck_actions(game: GameState) -> list[Action]:
    """Where the owner of the AFV that passed its push PC may place the Wreck (8.65)."""
    afv = next((u for u in pushing(game) if u.extra.get("push_passed")), None)
    if afv is None:
        return []
    return [Action(WRECK, (afv.id,), game.label_of(h)) for h in _wreck_to(game, afv, afv.extra["push"])]


def apply_wreck(game: GameState, action: Action) -> list[dict[str, Any]]:
    """The Wreck goes where its owner chose, and the AFV enters the Wreck's hex as any move (8.54 and
    8.55 roll there, the other side is asked whether it reacts)."""
    if action not in wreck_actions(game):
        raise IllegalAction(f"{action.text()}: the Wreck pushed goes to a hex next to it (8.65)", "8.65")
    afv = game.changing(action.units[0])
    wreck: Hex = afv.extra.pop("push")
    del afv.extra["push_passed"]
    game.wrecks.remove(wreck)
    game.wrecks.add(game.hex(action.arg))
    events = [{"event": "wreck pushed", "unit": afv.id, "from": game.label(wreck), "to": action.arg, "rule": "8.65"}]
    return events + _step(game, [afv], wreck)
