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
        verb, units, arg = self.verb, "+".join(self.units), self.arg
        if verb and units and arg:  # most actions (every play writes one in the log)
            return f"{verb} {units} {arg}"
        return " ".join(p for p in (verb, units, arg) if p)

    def to_json(self) -> dict[str, object]:
        return {"verb": self.verb, "units": list(self.units), "arg": self.arg}

    def __str__(self) -> str:
        return self.text()


# The verbs, the words of the rules they carry out; other modules add theirs with `verb`.
VERBS: set[str] = set()
# A verb that never takes units or never an argument: (takes units, takes an argument, its rule).
_BARE: dict[str, tuple[bool, bool, str]] = {}


def verb(name: str, *, units: bool = True, arg: bool = True, rule: str = "") -> str:
    """Register an action verb (`parse` reads only registered verbs); `units=False`, `arg=False`:
    it never takes them, and `parse` and `play` refuse it with them (with `rule`, the verb's)."""
    VERBS.add(name)
    if not (units and arg):
        _BARE[name] = (units, arg, rule)
    return name


def malformed(action: Action) -> IllegalAction | None:
    """The refusal of an action given units or an argument its verb never takes (`done extra`)."""
    bare = _BARE.get(action.verb)
    if bare is None:
        return None
    units, arg, rule = bare
    if action.units and not units:
        return IllegalAction(f"{action.text()}: {action.verb} takes no units", rule)
    if action.arg and not arg:
        return IllegalAction(f"{action.text()}: {action.verb} takes no argument", rule)
    return None


DONE = verb("done", units=False, arg=False, rule="6.0")  # the acting side is done with this phase
PASS = verb("pass", units=False, arg=False, rule="13.0")  # at an interrupt (a hex entered): no reaction (13.0, 19.2)
PLACE = verb("place")  # set-up (24.1): place UNIT HEX (3.12: state; 8.7: facing)
HOLD = verb("hold", arg=False, rule="R15")  # set-up: a deploying unit enters by its group's limited entry (R15)
HIDE = verb("hide", units=False, rule="24.21")  # set-up: a hidden hex (24.21)
IP = verb("ip", units=False, rule="18.1")  # set-up: an improved position (18.1): ip POINTS HEX
MINE = verb("mine", units=False, rule="19.11")  # set-up: one mine factor, secretly (19.11): mine ap|at HEX
ENTRY = verb("entry")  # before play: the entry option a group takes (24.1, choose: before_play)
MOVE = verb("move")  # one hex (8.0); an off-map unit enters on its entry hex
LEAD = verb("lead")  # 8.3 A: the leader's PC to move the stack (lead LEADER)
DETACH = verb("detach")  # 8.3 C: a unit of the stack moves on its own with the leader's PR (detach UNIT LEADER)
STATE = verb("state")  # 3.13 / phase H: state UNIT up|down
FACE = verb("face")  # 8.7: face UNIT HEX (the hex across the new frontal hexside)
STOP = verb("stop", arg=False, rule="8.0")  # the unit ends its movement for this phase
REVEAL = verb("reveal", units=False, rule="24.22")  # 24.22: a hidden hex revealed by its owner
PUSH = verb("push")  # 8.65: push AFV HEX: the AFV spends its Movement Phase pushing the Wreck in HEX
WRECK = verb("wreck")  # 8.65: wreck AFV HEX: the pushing AFV passed its PC; its owner places the Wreck in HEX

SET_UP_VERBS = (PLACE, HOLD, HIDE, IP, MINE)


def parse(text: str) -> Action:
    """The action a text form names; ValueError for a text that is not one (IllegalAction, one, for
    units or an argument its verb never takes)."""
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
    action = Action(name, units, " ".join(rest))
    refused = malformed(action)
    if refused is not None:
        raise refused
    return action
