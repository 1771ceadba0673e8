"""JSON Schema validation proper, with jsonschema (engine/model/schema.py: what needs no jsonschema,
which is imported only for a document the schema cache does not know to be valid, issue 22)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from engine.problems import Problem, Severity

from .schema_cache import remember_valid
from .schema_files import inlined_schemas
from .source import SourceDocument, excerpt, pointer


@cache
def _registry() -> Registry:
    # Each without its `$schema`: jsonschema picks the validator class of a schema another one refers
    # to by its `$schema`, and that plain Draft202012Validator knew none of the keywords below.
    resources = [
        (s["$id"], DRAFT202012.create_resource({k: v for k, v in s.items() if k != "$schema"}))
        for s in inlined_schemas().values()
    ]
    return Registry().with_resources(resources)


def _ascending(validator: Any, wanted: bool, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """`x-ascending`: a [low, high] range or a chart's scale, which JSON Schema cannot require to run upwards."""
    if not (wanted and isinstance(instance, list)) or any(type(v) not in (int, float) for v in instance):
        return
    if instance != sorted(instance):
        if len(instance) == 2:
            yield ValidationError(f"{instance} runs backwards: give the lower end first ({sorted(instance)})")
        else:
            yield ValidationError(f"{excerpt(instance)} is out of order: list the values from lowest to highest")


def _multiple_of(validator: Any, step: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """`multipleOf`, exact for an integer and a fractional step (`within_mp`'s 0.5): jsonschema
    divides the integer by the float first, which for one beyond a float's range (10**400) ended
    validation in an OverflowError instead of a problem."""
    if isinstance(instance, int) and isinstance(step, float) and validator.is_type(instance, "number"):
        if (Fraction(instance) / Fraction(step)).denominator != 1:
            yield ValidationError(f"{instance!r} is not a multiple of {step}")
        return
    yield from Draft202012Validator.VALIDATORS["multipleOf"](validator, step, instance, schema)


_Validator = validators.extend(Draft202012Validator, {"x-ascending": _ascending, "multipleOf": _multiple_of})


@cache
def validator(name: str) -> Draft202012Validator:
    schema = inlined_schemas()[name]
    # the bundled schemas are checked against the metaschema by the tests (test_bundled_data):
    # checking them at every start cost 0.3 s of a launch
    validator: Draft202012Validator = _Validator(schema, registry=_registry())
    return validator


def _deepest(error: ValidationError) -> ValidationError:
    """Of an error about alternatives (anyOf, oneOf), the one that best says what is wrong."""
    deepest = best_match(error.context) if error.context else None
    return _deepest(deepest) if deepest is not None else error


def _about_key(error: ValidationError) -> bool:
    """Whether the error is about a mapping key rather than a value (it points at the key)."""
    return error.validator == "additionalProperties" or "propertyNames" in error.schema_path


def _located(error: ValidationError) -> tuple[tuple[str | int, ...], str]:
    """The path to point at and the message for one schema error (the deepest of alternatives)."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        if extra:
            known = ", ".join(sorted(allowed)) or "none"
            return (*path, extra[0]), f"unknown key {extra[0]!r} (allowed here: {known})"
    if "propertyNames" in error.schema_path and isinstance(error.instance, str):
        path = (*path, error.instance)
    if error.validator == "pattern" and "x-hint" in error.schema:
        # A bare regular expression means nothing to a designer: the schema says what the value may hold.
        return path, f"{excerpt(error.instance)} is not {error.schema['x-hint']}"
    if error.validator == "type" and isinstance(error.instance, int) and error.validator_value == "string":
        return path, f'{error.instance} must be a quoted string here (write "{error.instance}")'
    if error.validator in ("maximum", "minimum"):
        bound = "at most" if error.validator == "maximum" else "at least"
        return path, f"{excerpt(error.instance)} is out of range: {bound} {error.validator_value}"
    return path, error.message.replace(repr(error.instance), excerpt(error.instance))


def schema_errors(doc: SourceDocument, name: str) -> Iterator[Problem]:
    """The `name` schema's errors in a document, each at its line and column."""
    errors = sorted(validator(name).iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        remember_valid(name, doc.data)
    told: set[tuple[str | int, ...]] = set()
    for error in errors:
        error = _deepest(error)
        path, message = _located(error)
        if not isinstance(error.instance, dict | list):
            if path in told:
                continue  # one problem per value: 0.5 is not an integer, and so not "at least 1" either
            told.add(path)
        position = doc.key_position(path) if _about_key(error) else doc.position(path)
        where = pointer(path) or "the document"
        yield Problem(
            "schema",
            Severity.ERROR,
            f"{where}: {message}",
            rule=error.schema.get("x-rule") if isinstance(error.schema, dict) else None,  # the rule a bound enforces
            file=doc.file,
            line=position.line,
            column=position.column,
            pointer=pointer(path),
        )
