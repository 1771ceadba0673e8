"""What a player may decide, as small values with a text form a person, a bot and a log share.

`move german/C/R-PR9-1 4305` moves a unit (or, joined by `+`, a stack led by its first unit, 8.3,
8.4) one hex; every action has one text form and one JSON form, and `parse` reads the text back.
"""

from __future__ import annotations

from typing import NamedTuple


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why, with the rule number."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason = reason
        self.rule = rule


class Action(NamedTuple):
    """verb, the units it moves or changes (ids), and its argument (a hex label, a state, a facing...).
    A named tuple: listing the choices makes and compares thousands of them a game."""

    verb: str
    units: tuple[str, ...] = ()
    arg: str = ""

    def text(self) -> str:
        return " ".join(p for p in (self.verb, "+".join(self.units), self.arg) if p)

    def to_json(self) -> dict[str, object]:
        return {"verb": self.verb, "units": list(self.units), "arg": self.arg}

    def __str__(self) -> str:
        return self.text()


# The verbs, the words of the rules they carry out; other modules add theirs with `verb`.
VERBS: set[str] = set()


def verb(name: str) -> str:
    """Register an action verb (`parse` reads only registered verbs)."""
    VERBS.add(name)
    return name


DONE = verb("done")  # the acting side is done with this phase (or, at an interrupt, does not react)
PASS = verb("pass")  # at an interrupt (a hex entered): no reaction (13.0 and 19.2 add choices here)
PLACE = verb("place")  # set-up (24.1): place UNIT HEX (3.12: state; 8.7: facing)
HOLD = verb("hold")  # set-up: a unit of a deploying group enters by the entry its limit allows instead (R15)
HIDE = verb("hide")  # set-up: a hidden hex (24.21)
IP = verb("ip")  # set-up: an improved position (18.1): ip POINTS HEX
MINE = verb("mine")  # set-up: one mine factor, secretly (19.11): mine ap|at HEX
ENTRY = verb("entry")  # before play: the entry option a group takes (24.1, choose: before_play)
MOVE = verb("move")  # one hex (8.0); an off-map unit enters on its entry hex
LEAD = verb("lead")  # 8.3 A: the leader's PC to move the stack (lead LEADER)
DETACH = verb("detach")  # 8.3 C: a unit of the stack moves on its own with the leader's PR (detach UNIT LEADER)
STATE = verb("state")  # 3.13 / phase H: state UNIT up|down
FACE = verb("face")  # 8.7: face UNIT HEX (the hex across the new frontal hexside)
STOP = verb("stop")  # the unit ends its movement for this phase
REVEAL = verb("reveal")  # 24.22: a hidden hex revealed by its owner
PUSH = verb("push")  # 8.65: push AFV HEX: the AFV spends its Movement Phase pushing the Wreck in HEX
WRECK = verb("wreck")  # 8.65: wreck AFV HEX: the pushing AFV passed its PC; its owner places the Wreck in HEX

SET_UP_VERBS = (PLACE, HOLD, HIDE, IP, MINE)


def parse(text: str) -> Action:
    """The action a text form names; ValueError for a text that is not one."""
    parts = text.split()
    if not parts:
        raise ValueError("an empty action")
    name, rest = parts[0], parts[1:]
    if name not in VERBS:
        raise ValueError(f"no action {name!r} (actions: {', '.join(sorted(VERBS))})")
    units: tuple[str, ...] = ()
    if rest and "/" in rest[0]:
        units = tuple(rest[0].split("+"))
        rest = rest[1:]
    return Action(name, units, " ".join(rest))
