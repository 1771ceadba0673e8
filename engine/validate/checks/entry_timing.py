"""When units enter: on a turn of the game, in a phase of the sequence of play in which units move
(6.0, 24.1).

24.1: 'Units which enter the map during the course of the game always do so in the Movement
Phase of their side's Player Turn, unless noted otherwise.' The schema admits the two phases
in which units move (6.0 C Movement, D Reaction Movement); this check holds the structured
phase to the printed text: the phase it names, else the Movement Phase.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.context import ScenarioContext
from engine.validate.starts import Start, starts

TURN = Check(
    id="entry-turn",
    rule="24.1",
    severity=Severity.ERROR,
    summary="An entry's turn is not a turn of the game (1 to the game length).",
    fix="Enter on a Game Turn from 1 to `game_length`.",
)
PHASE = Check(
    id="entry-phase",
    rule="24.1",
    severity=Severity.ERROR,
    summary="An entry's phase is not the one its printed text names (the Movement Phase unless it notes "
    "otherwise), or the text names a phase in which units do not move or that the sequence of play lacks.",
    fix="Set `phase:` to the phase the text names (`reaction_movement` for the Reaction Movement Phase), or "
    "leave it out for the Movement Phase.",
)

# The phases of a Player Turn (6.0 A-H), and those in which units move: the entry phases.
SEQUENCE_OF_PLAY = (
    "Morale",
    "Support Fire",
    "Movement",
    "Reaction Movement",
    "Defensive Fire",
    "Moving Fire",
    "Assault",
    "Free Up/Down State Change",
)
ENTRY_PHASES = {"Movement": "movement", "Reaction Movement": "reaction_movement"}
NAMED_PHASE = re.compile(r"((?:[A-Z][\w/]*\s+){1,6})Phase\b")
SIDE_WORDS = {"German", "Russian", "Phasing", "Non-phasing", "Non-Phasing"}


def check_scenario(ctx: ScenarioContext) -> Iterator[Problem]:
    length = ctx.scenario.game_length
    for start in starts(ctx.scenario, ctx.counters):
        if start.turn is None:
            continue
        if not 1 <= start.turn <= length:
            yield TURN.problem(
                ctx.doc,
                (*start.path, "turn"),
                f"{_who(start)} enter on turn {start.turn}; the game lasts {length} turns (1-{length})",
            )
        if start.printed:
            yield from _phase(ctx, start)


def _phase(ctx: ScenarioContext, start: Start) -> Iterator[Problem]:
    """The phases the option's printed text names, else those its instruction's text names."""
    where = (*start.path, "phase")
    named = printed_phases(start.printed or "") or printed_phases(start.instruction_printed or "")
    for name in named:
        if name not in SEQUENCE_OF_PLAY:
            yield PHASE.problem(
                ctx.doc,
                where,
                f"the printed text names the {name} Phase, which the sequence of play does not have "
                f"(6.0: {', '.join(SEQUENCE_OF_PLAY)})",
            )
        elif name not in ENTRY_PHASES:
            yield PHASE.problem(
                ctx.doc,
                where,
                f"the printed text names the {name} Phase: units enter by moving, and only the Movement and "
                f"Reaction Movement Phases move units (6.0 C, D)",
            )
    moving = [ENTRY_PHASES[n] for n in named if n in ENTRY_PHASES]
    if moving and start.phase not in moving:
        yield PHASE.problem(
            ctx.doc, where, f"the printed text enters in the {_name(moving[0])} Phase; the data says {start.phase}"
        )
    elif not named and start.phase != "movement":
        yield PHASE.problem(
            ctx.doc,
            where,
            f"the printed text names no phase, so {_who(start)} enter in the Movement Phase ('unless noted "
            f"otherwise'); the data says {start.phase}",
        )


def printed_phases(text: str) -> list[str]:
    """The phases a printed instruction names: 'during the Russian Reaction Movement Phase' -> [Reaction
    Movement]. A name the sequence of play does not have is returned as printed."""
    found = []
    for match in NAMED_PHASE.finditer(text):
        words = [w for w in match.group(1).split() if w not in SIDE_WORDS]
        known = [p for p in SEQUENCE_OF_PLAY if _ends_with(words, p.split())]
        found.append(max(known, key=len) if known else " ".join(words))
    return [name for name in dict.fromkeys(found) if name]


def _ends_with(words: list[str], tail: list[str]) -> bool:
    return [w.lower() for w in words[-len(tail) :]] == [t.lower() for t in tail]


def _name(phase: str) -> str:
    return next(name for name, value in ENTRY_PHASES.items() if value == phase)


def _who(start: Start) -> str:
    units = ", ".join(ref.describe() for ref in start.units) or "the units"
    return f"{start.side.capitalize()} {units}"
