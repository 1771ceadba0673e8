"""Problems found in a file: what every loader and check reports, and how it prints."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from engine.terminal_text import PATH_LIMIT, shown


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Problem:
    """One problem, with a stable code, the rule it enforces and where it is.

    `line` and `column` are 1-based positions in the YAML source; `pointer` is the JSON
    pointer of the offending value; `hex` the printed label where a hex is concerned.
    """

    code: str
    severity: Severity
    message: str
    rule: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    hex: str | None = None

    def text(self) -> str:
        """`path:line:col: severity: message (rule) [code]`."""
        where = f"{shown(self.file, PATH_LIMIT) if self.file else '<input>'}:{self.line or 1}:{self.column or 1}"
        rule = f" ({self.rule})" if self.rule else ""
        return f"{where}: {self.severity.value}: {self.message}{rule} [{self.code}]"

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["severity"] = self.severity.value
        del data["pointer"]
        return data


def by_severity(problems: list[Problem]) -> list[Problem]:
    """Errors first, then warnings, then info; each in the order found (file by file, check by check)."""
    order = list(Severity)
    return sorted(problems, key=lambda p: order.index(p.severity))


def count_errors(problems: list[Problem]) -> int:
    return sum(1 for p in problems if p.severity is Severity.ERROR)
