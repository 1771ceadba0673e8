"""JSON Schema validation of YAML documents, with problems located in the YAML source."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from engine.problems import Problem, Severity
from engine.resources import data_path

from .source import SourceDocument, pointer

LABEL_PATTERN = "^[0-9]{4}$"

# The `format:` key of each file names its schema.
FORMATS = {
    "iron-cross-map/1": "map",
    "iron-cross-errata/1": "errata",
    "iron-cross-scenario/1": "scenario",
    "iron-cross-counters/1": "counters",
    "iron-cross-table/1": "table",
}


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    return {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(data_path("schemas").glob("*.schema.json"))
    }


@cache
def _registry() -> Registry:
    resources = [(s["$id"], Resource.from_contents(s)) for s in _schemas().values()]
    return Registry().with_resources(resources)


@cache
def validator(name: str) -> Draft202012Validator:
    schema = _schemas()[name]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def schema_name(doc: SourceDocument) -> str | None:
    """The schema a document declares with its `format:` key, or None."""
    if isinstance(doc.data, dict):
        return FORMATS.get(str(doc.data.get("format")))
    return None


def _located(error: ValidationError) -> tuple[tuple[str | int, ...], str]:
    """The path to point at and the message for one schema error."""
    path = tuple(error.absolute_path)
    if error.context:
        deepest = best_match(error.context)
        if deepest is not None:
            return _located(deepest)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            known = ", ".join(sorted(allowed)) or "none"
            return (*path, extra[0]), f"unknown key {extra[0]!r} (allowed here: {known})"
    if "propertyNames" in error.schema_path and isinstance(error.instance, str):
        path = (*path, error.instance)
    if error.validator == "pattern" and error.schema.get("pattern") == LABEL_PATTERN:
        return path, f'{error.instance!r} is not a hex label (four digits, column then row: "4307")'
    if error.validator == "type" and isinstance(error.instance, int) and error.validator_value == "string":
        return path, f'{error.instance} must be a quoted string here (write "{error.instance}")'
    return path, error.message


def schema_problems(doc: SourceDocument, name: str | None = None) -> Iterator[Problem]:
    """Every schema problem of a document, each at its line and column."""
    for path, position in doc.duplicates:
        yield Problem(
            "duplicate-key",
            Severity.ERROR,
            f"{pointer(path)} is given twice; the second would silently replace the first",
            file=doc.file,
            line=position.line,
            column=position.column,
            pointer=pointer(path),
        )
    name = name or schema_name(doc)
    if name is None:
        found = doc.data.get("format") if isinstance(doc.data, dict) else None
        known = ", ".join(sorted(FORMATS))
        yield Problem(
            "unknown-format",
            Severity.ERROR,
            f"format {found!r} is not one iceditor reads (known: {known})",
            file=doc.file,
            line=doc.position(("format",)).line,
            column=doc.position(("format",)).column,
            pointer="/format",
        )
        return
    errors = sorted(validator(name).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors:
        path, message = _located(error)
        position = doc.position(path)
        where = pointer(path) or "the document"
        yield Problem(
            "schema",
            Severity.ERROR,
            f"{where}: {message}",
            file=doc.file,
            line=position.line,
            column=position.column,
            pointer=pointer(path),
        )
