"""What a check is: a stable code, a severity, the rule it enforces, and how to fix it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.model.source import JsonPath, SourceDocument, pointer
from engine.problems import Problem, Severity


@dataclass(frozen=True)
class Check:
    id: str
    rule: str | None
    severity: Severity
    summary: str
    fix: str

    def problem(
        self,
        doc: SourceDocument | None,
        path: JsonPath,
        message: str,
        *,
        hex: str | None = None,
        severity: Severity | None = None,
        rule: str | None = None,
    ) -> Problem:
        """A problem of this check at `path` of `doc` (line and column from the YAML source);
        `rule` names the one rule of several the check enforces that this problem breaks."""
        position = doc.position(path) if doc is not None else None
        return Problem(
            code=self.id,
            severity=severity or self.severity,
            message=message,
            rule=rule or self.rule,
            file=doc.file if doc is not None else None,
            line=position.line if position else None,
            column=position.column if position else None,
            pointer=pointer(path),
            hex=hex,
        )
