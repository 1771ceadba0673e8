"""Printed errata as changes to hexes, applied to a board when a scenario asks for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.problems import count_errors

from .load_errors import LoadError
from .schema import schema_problems
from .source import SourceDocument, load_yaml


@dataclass(frozen=True)
class Change:
    """One printed erratum: set these keys on these hexes."""

    index: int
    hexes: tuple[str, ...]
    values: dict[str, Any]
    printed: str
    assumed: str | None = None


@dataclass
class Errata:
    name: str
    changes: list[Change]
    file: str = "<memory>"
    text: list[dict[str, Any]] = field(default_factory=list)
    doc: SourceDocument | None = field(default=None, repr=False)


def errata_from_document(doc: SourceDocument) -> Errata:
    problems = list(schema_problems(doc, "errata"))
    if count_errors(problems):
        raise LoadError(doc.file, problems)
    data = doc.data
    changes = [
        Change(i, tuple(c["hexes"]), dict(c["set"]), c["printed"], c.get("assumed"))
        for i, c in enumerate(data["changes"])
    ]
    return Errata(data["name"], changes, doc.file, list(data.get("text") or []), doc)


def load_errata(path: Path | str) -> Errata:
    return errata_from_document(load_yaml(path))
