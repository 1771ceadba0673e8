"""What loading a data file can raise when the file, not the program, is at fault, and its words.

Its own module so that every loader (maps, tables, counters, errata, scenarios) can raise it
without importing another loader (issue 22: the model's imports point one way)."""

from __future__ import annotations

from pathlib import Path

from engine.problems import Problem, count_errors

from .source import SourceError


class LoadError(Exception):
    """A file that does not describe what it claims to: it is reported, never half-loaded."""

    def __init__(self, file: str, problems: list[Problem]) -> None:
        super().__init__(f"{file}: {count_errors(problems)} error(s)")
        self.file = file
        self.problems = problems


LOAD_FAILURES = (SourceError, LoadError, FileNotFoundError, ValueError)


def load_failure(path: Path | str, exc: Exception) -> str:
    """Why a file could not be loaded, as `file:line:col: error: message` lines."""
    if isinstance(exc, SourceError):
        return f"{exc.file}:{exc.line}:{exc.column}: error: {exc.message}"
    if isinstance(exc, LoadError):
        return "\n".join(p.text() for p in exc.problems)
    return f"{path}: error: {exc}"
