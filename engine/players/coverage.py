"""Rules coverage: how often each rule's events happen in a game's log (benchmarks/coverage.py
prints it over many `heuristic` games; a rule that never happens is a gap in the players or the
engine). Each rule is recognised by the events the engine logs for it, or by the action taken."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from engine.game.state import MOVEMENT, REACTION

Entry = dict[str, Any]
Event = dict[str, Any]


def _event(name: str) -> Callable[[Entry, Event | None], bool]:
    return lambda entry, event: event is not None and event["event"] == name


def _verb(name: str) -> Callable[[Entry, Event | None], bool]:
    return lambda entry, event: event is None and str(entry.get("action", "")).split(" ")[0] == name


def _opportunity(entry: Entry, event: Event | None) -> bool:
    return event is not None and event["event"] == "attack" and entry.get("phase") in (MOVEMENT, REACTION)


def _afv_moved(entry: Entry, event: Event | None) -> bool:
    return event is not None and event["event"] == "faced" and entry.get("phase") in (MOVEMENT, REACTION)


# (what happens, its rule, how the log shows it), in the rulebook's order
RULES: tuple[tuple[str, str, Callable[[Entry, Event | None], bool]], ...] = (
    ("morale recovered", "7.0", _event("recovered")),
    ("leader directed movement", "8.3 A", _verb("lead")),
    ("detach from a leader", "8.3 C", _verb("detach")),
    ("a facing changed in movement", "8.7", _afv_moved),
    ("bog roll", "8.54", _event("bog_roll")),
    ("wreck pushed", "8.65", _event("wreck pushed")),
    ("overrun", "9.0", _event("overrun")),
    ("overrun: defensive AT fire", "9.2 A", _event("overrun at fire")),
    ("overrun: defensive infantry fire", "9.2 B", _event("overrun infantry fire")),
    ("overrun attack", "9.2 C", _event("overrun attack")),
    ("AP attack", "10.0, 11.0", _event("attack")),
    ("combined fire", "11.13", _event("join")),
    ("MG intensive fire", "11.15", _event("intensive")),
    ("unit eliminated", "11.43", _event("eliminated")),
    ("AT fire", "12.0", _event("at roll")),
    ("AFV destroyed", "12.32", _event("destroyed")),
    ("opportunity fire", "13.0", _opportunity),
    ("mortar attack", "14.0", _event("mortar attack")),
    ("mortar spotting", "14.13", _event("spotting PC")),
    ("grenade", "15.0", _event("grenade roll")),
    ("flamethrower", "16.0", _event("flame roll")),
    ("Assault marker", "17.0", _event("assault marker")),
    ("assault with defenders", "17.2", _event("assault fight")),
    ("improved position placed", "18.1", _event("ip")),
    ("mine attack", "19.2", _event("mine_attack")),
    ("crew replacement", "20.1", _event("replacement")),
    ("entry onto the map", "24.1", _event("entered_map")),
    ("hidden hex", "24.21", _event("hidden hex")),
    ("hidden units revealed", "24.22", _event("revealed")),
    ("infiltration", "24.33", _event("infiltration roll")),
)


def rule_events(log: Iterable[Entry]) -> Counter[str]:
    """How many times each rule of RULES happened in one game's log (by its label)."""
    found: Counter[str] = Counter()
    for entry in log:
        for label, _, happened in RULES:
            if happened(entry, None):
                found[label] += 1
        for event in entry.get("events", ()):
            for label, _, happened in RULES:
                if happened(entry, event):
                    found[label] += 1
    return found
