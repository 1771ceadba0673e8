"""How many values of a file the rulebook does not print (provenance policy)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.model.source import SourceDocument
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="assumed-values",
    rule=None,
    severity=Severity.INFO,
    summary="The file holds values the rulebook does not print, marked `assumed`.",
    fix="If you own the printed game, check them against it and mark the ones you confirm `printed`.",
)


def count_assumed(data: Any) -> int:
    """Values marked `assumed:`; a map marked assumed as a whole counts each hex, road and bridge."""
    if isinstance(data, dict):
        # a scenario's top-level `assumed:` maps each field it does not print to the reason
        own = len(data["assumed"]) if isinstance(data.get("assumed"), dict) else int("assumed" in data)
        if data.get("format") == "iron-cross-map/1" and "assumed" in (data.get("provenance") or {}):
            own += len(data.get("hexes") or {}) + len(data.get("roads") or []) + len(data.get("bridges") or [])
        return own + sum(count_assumed(v) for k, v in data.items() if k != "provenance")
    if isinstance(data, list):
        return sum(count_assumed(v) for v in data)
    return 0


def check_document(doc: SourceDocument) -> Iterator[Problem]:
    n = count_assumed(doc.data)
    if n:
        yield CHECK.problem(
            doc, (), f"{n} assumed value{'s' if n != 1 else ''}: not printed in the rulebook, check against your copy"
        )
