"""The countersheet: squads and their members, commanders, crew weapons and AFVs (2.21-2.23)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.problems import count_errors
from engine.resources import data_path

from .load_errors import LoadError
from .schema import schema_problems
from .source import SourceDocument, load_yaml

SIDES = ("german", "russian")


@dataclass(frozen=True)
class Member:
    """One infantry unit of a squad: one man with one weapon (2.21)."""

    squad: str
    weapon: str
    pr: int
    index: int  # position in the squad's list, for telling two R PR9s apart

    def describe(self) -> str:
        return f"{self.weapon} PR{self.pr}"


@dataclass(frozen=True)
class Clause:
    """One entry of a "less" or "only" clause (24.1): a weapon type, a PR, or both."""

    weapon: str | None
    pr: int | None
    text: str

    @classmethod
    def parse(cls, text: str) -> Clause:
        """`"R PR9"`, `"PR8"` (any weapon) or `"FT"` (any PR).

        >>> Clause.parse("LMG PR8")
        Clause(weapon='LMG', pr=8, text='LMG PR8')
        """
        weapon: str | None = None
        pr: int | None = None
        for word in text.split():
            if word.upper().startswith("PR") and word[2:].isdigit():
                pr = int(word[2:])
            elif weapon is None and pr is None:
                weapon = word
            else:
                raise ValueError(f"{text!r} is not 'TYPE PRn', 'PRn' or 'TYPE'")
        if weapon is None and pr is None:
            raise ValueError(f"{text!r} is not 'TYPE PRn', 'PRn' or 'TYPE'")
        return cls(weapon, pr, text)

    def matches(self, member: Member) -> bool:
        return (self.weapon is None or self.weapon == member.weapon) and (self.pr is None or self.pr == member.pr)


@dataclass
class Counters:
    squads: dict[str, dict[str, list[Member]]]
    commanders: dict[str, list[tuple[str, int]]]
    crew_weapons: dict[str, dict[str, list[int]]]
    afvs: dict[str, dict[str, list[int]]]
    file: str = "<memory>"
    doc: SourceDocument | None = field(default=None, repr=False)

    def squad(self, side: str, letter: str) -> list[Member] | None:
        return self.squads.get(side, {}).get(letter)


def counters_from_document(doc: SourceDocument) -> Counters:
    problems = list(schema_problems(doc, "counters"))
    if count_errors(problems):
        raise LoadError(doc.file, problems)
    data: dict[str, Any] = doc.data
    squads = {
        side: {
            letter: [Member(letter, u["weapon"], u["pr"], i) for i, u in enumerate(squad["units"])]
            for letter, squad in (data.get("squads", {}).get(side) or {}).items()
        }
        for side in SIDES
    }
    commanders = {side: [(c["rank"], c["pr"]) for c in data.get("commanders", {}).get(side) or []] for side in SIDES}
    crew = {
        side: {t: list(v["ids"]) for t, v in (data.get("crew_weapons", {}).get(side) or {}).items()} for side in SIDES
    }
    afvs = {side: {t: list(v["ids"]) for t, v in (data.get("afvs", {}).get(side) or {}).items()} for side in SIDES}
    return Counters(squads, commanders, crew, afvs, doc.file, doc)


def load_counters(path: Path | str) -> Counters:
    return counters_from_document(load_yaml(path))


@cache
def bundled_counters() -> Counters:
    return load_counters(data_path("counters", "counters.yaml"))


def fielded_squad(counters: Counters, side: str, squad: str, unit: dict[str, Any]) -> list[Member] | None:
    """The members a squad entry fields; None when the squad is unknown (unknown-unit reports it) or
    its clause names a member it does not have (this check reports it)."""
    members = counters.squad(side, squad)
    if members is None:
        return None
    fielded, failures = fielded_members(unit, members)
    return None if failures else fielded


def fielded_members(unit: dict[str, Any], members: list[Member]) -> tuple[list[Member], list[tuple[int, str, str]]]:
    """The squad members a unit entry fields, and the clause entries that match no member.

    Each clause entry takes one member (24.1: with several matching, the owner picks at random;
    any of them will do for checking).
    """
    failures: list[tuple[int, str, str]] = []
    key = "only" if "only" in unit else "less"
    remaining = list(members)
    taken: list[Member] = []
    for i, entry in enumerate(unit.get(key) or []):
        text = entry["unit"] if isinstance(entry, dict) else str(entry)
        try:
            clause = Clause.parse(text)
        except ValueError as exc:
            failures.append((i, key, str(exc)))
            continue
        match = next((m for m in remaining if clause.matches(m)), None)
        if match is None:
            failures.append((i, key, text))
            continue
        remaining.remove(match)
        taken.append(match)
    return (taken if key == "only" else remaining), failures
