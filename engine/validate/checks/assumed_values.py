"""How many values of a file the rulebook does not print (provenance policy)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.provenance import count_sourced, sourced_values
from engine.model.source import SourceDocument
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="assumed-values",
    rule=None,
    severity=Severity.INFO,
    summary="The file holds values the rulebook does not print, marked `assumed`.",
    fix="If you own the printed game, check them against it (`iceditor provenance --assumed FILE` lists exactly "
    "these) and mark the ones you confirm `printed`.",
)


def check_document(doc: SourceDocument) -> Iterator[Problem]:
    n = count_sourced(sourced_values(doc))["assumed"]
    if n:
        yield CHECK.problem(
            doc, (), f"{n} assumed value{'s' if n != 1 else ''}: not printed in the rulebook, check against your copy"
        )
