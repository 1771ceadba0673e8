"""Problems the loaders report before any check runs: the file is not YAML, not a known format,
or not valid against its schema. Listed here so that every code has its description."""

from __future__ import annotations

from engine.problems import Severity
from engine.validate.check import Check

UNREADABLE = Check(
    id="unreadable",
    rule=None,
    severity=Severity.ERROR,
    summary="The file cannot be read, is empty or not YAML, or breaks a limit of the loader (nesting, aliases, "
    "size, non-finite numbers, YAML tags, which could build objects).",
    fix="Check the path; fix the YAML at the line given (the message says what is wrong); write plain mappings, "
    "lists and scalars only. docs/formats.md, 'Reading a file', lists the limits.",
)
UNKNOWN_FORMAT = Check(
    id="unknown-format",
    rule=None,
    severity=Severity.ERROR,
    summary="The file's `format:` key names no format iceditor reads.",
    fix="Start the file with `format: iron-cross-map/1` (or -errata/1, -scenario/1, -counters/1, -table/1).",
)
DUPLICATE_KEY = Check(
    id="duplicate-key",
    rule=None,
    severity=Severity.ERROR,
    summary="A mapping gives the same key twice; the second would silently replace the first.",
    fix="Remove or merge one of the two entries.",
)
SCHEMA = Check(
    id="schema",
    rule=None,
    severity=Severity.ERROR,
    summary="A value does not have the shape its format requires (schemas/*.schema.json).",
    fix="Correct the value at the line given; docs/formats.md describes every key.",
)
