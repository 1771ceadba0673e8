"""How many values of a file are read from the rulebook's words rather than printed as numbers."""

from __future__ import annotations

from collections.abc import Iterator

from engine.model.provenance import count_sourced, sourced_values
from engine.model.source import SourceDocument
from engine.problems import Problem, Severity
from engine.validate.check import Check

CHECK = Check(
    id="inferred-values",
    rule=None,
    severity=Severity.INFO,
    summary="The file holds values marked `inferred`: the rulebook's words give them without printing the number "
    "(an example that names no unit, a limit that implies a crew).",
    fix="`iceditor provenance FILE` lists them with the words and the reasoning; mark one `printed` where your copy "
    "prints it.",
)


def check_document(doc: SourceDocument) -> Iterator[Problem]:
    n = count_sourced(sourced_values(doc))["inferred"]
    if n:
        plural = "s" if n != 1 else ""
        message = f"{n} inferred value{plural}: read from the rulebook's words, not printed as numbers"
        yield CHECK.problem(doc, (), message)
