"""Upgrading a format 1 scenario to format 2, byte for byte except what changes.

Format 2 (docs/formats.md) makes a squad that fields two LMGs say whether its ammo number is one
pool or each LMG's (R81). The upgrade reads the printed text the file keeps: "(20 each)" is
`{each: 20}`, a number without "each" is `{pool: N}`. Only the `format:` value and those ammo
numbers are rewritten, in place, so comments, quoting and line breaks stay as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .counters import Counters, fielded_squad
from .scenario import LATEST_FORMAT, Scenario, UnitRef, scenario_from_document
from .source import Position, SourceDocument

FORMAT_1 = "iron-cross-scenario/1"


@dataclass(frozen=True)
class Change:
    line: int
    was: str
    now: str
    why: str

    def describe(self) -> str:
        return f"line {self.line}: {self.was} -> {self.now} ({self.why})"


@dataclass(frozen=True)
class Migration:
    text: str
    changes: tuple[Change, ...]


def migrate_scenario(doc: SourceDocument, text: str, counters: Counters) -> Migration:
    """The format 2 text of a scenario (`doc` is `text` parsed); no changes if it is format 2 already."""
    if doc.data.get("format") != FORMAT_1:
        return Migration(text, ())
    scenario = scenario_from_document(doc)
    edits = [(doc.position(("format",)), FORMAT_1, LATEST_FORMAT, "format 2")]
    for ref in scenario.units:
        split = _ammo_split(scenario, ref, counters)
        if split is not None:
            points = int(ref.data["ammo"])
            printed = f"{points} each" if split == "each" else f"{points}"
            why = f'{ref.side.capitalize()} Squad {ref.type} fields two LMGs; printed "({printed})" (R81)'
            edits.append((doc.position((*ref.path, "ammo")), str(points), f"{{{split}: {points}}}", why))
    lines = text.split("\n")
    changes = []
    # Right to left within a line, so that each column still points at its token.
    for at, was, now, why in sorted(edits, key=lambda e: (e[0].line, -e[0].column)):
        lines[at.line - 1] = _replace_at(lines[at.line - 1], at, was, now)
        changes.append(Change(at.line, was, now, why))
    changes.sort(key=lambda c: c.line)
    return Migration("\n".join(lines), tuple(changes))


def _ammo_split(scenario: Scenario, ref: UnitRef, counters: Counters) -> str | None:
    """The ammo split, "pool" or "each", for a squad with two LMGs and a bare ammo number; None for any other unit."""
    if ref.kind != "squad" or not isinstance(ref.data.get("ammo"), int):
        return None
    fielded = fielded_squad(counters, ref.side, ref.type, ref.data)
    if fielded is None or sum(1 for m in fielded if m.weapon == "LMG") < 2:
        return None
    each = re.compile(rf"Squad {ref.type} \(\s*{ref.data['ammo']}\s+each\s*\)")
    printed = [str(ref.data.get("printed_as", "")), *_group_lines(scenario, ref)]
    return "each" if any(each.search(p) for p in printed) else "pool"


def _group_lines(scenario: Scenario, ref: UnitRef) -> list[str]:
    _, side, _, g, *_ = ref.path
    group = scenario.data["sides"][side]["groups"][g]
    return [str(group.get("printed", ""))]


def _replace_at(line: str, at: Position, was: str, now: str) -> str:
    start = at.column - 1
    quoted = line[start : start + 1] in ("'", '"')
    start += quoted
    if line[start : start + len(was)] != was:
        raise ValueError(f"line {at.line}: expected {was!r} at column {at.column}")
    return line[:start] + now + line[start + len(was) :]
