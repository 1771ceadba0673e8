"""JSON Schema validation of YAML documents, with problems located in the YAML source."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from engine.problems import Problem, Severity
from engine.resources import data_path

from .schema_cache import known_valid, remember_valid
from .source import SourceDocument, excerpt, pointer

# The `format:` key of each file names its schema.
FORMATS = {
    "iron-cross-map/1": "map",
    "iron-cross-errata/1": "errata",
    "iron-cross-scenario/1": "scenario",
    "iron-cross-scenario/2": "scenario",
    "iron-cross-counters/1": "counters",
    "iron-cross-table/1": "table",
}


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    return {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(data_path("schemas").glob("*.schema.json"))
    }


def integer_range(name: str, key: str) -> tuple[int, int | None]:
    """The lowest and highest value the `name` schema allows for its top-level integer `key`
    (None: no highest), for editors that offer the number."""
    field = _schemas()[name]["properties"][key]
    return int(field.get("minimum", 0)), field.get("maximum")


def keys_at(name: str, path: tuple[str | int, ...]) -> frozenset[str]:
    """The keys the `name` schema allows in the mapping at `path` of a document (list indexes
    and names of `additionalProperties` mappings walk into their items), whichever branch of a
    `oneOf`/`anyOf` applies: for editors that offer a field only where the file may hold it.
    Empty where the path leads to no mapping. References into another schema are not followed."""
    root = _schemas()[name]

    def resolved(node: Any) -> list[dict[str, Any]]:
        """The node and every schema it is made of (references, branches)."""
        if not isinstance(node, dict):
            return []
        out = [node]
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = root
            for part in ref[2:].split("/"):
                target = target[part]
            out += resolved(target)
        for branch in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(branch) or []:
                out += resolved(sub)
        return out

    nodes = resolved(root)
    for step in path:
        found: list[dict[str, Any]] = []
        for node in nodes:
            if isinstance(step, int):
                found += resolved(node.get("items"))
            elif step in (node.get("properties") or {}):
                found += resolved(node["properties"][step])
            elif isinstance(node.get("additionalProperties"), dict):
                found += resolved(node["additionalProperties"])
        nodes = found
    return frozenset(key for node in nodes for key in node.get("properties") or {})


# Keys beside a `$ref` that validation ignores: such a reference may be replaced by what it names.
_ANNOTATIONS = frozenset({"$ref", "description", "title", "$comment", "examples", "default"})
_DATA = frozenset({"const", "enum", "default", "examples"})  # values, not schemas: kept as they are


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with each reference to one of its own definitions replaced by that definition
    (one shared object), so that validation does not resolve it again at every value: resolving
    took jsonschema 40% of a bundled file's validation. The same checks and the same errors: a
    reference with other keywords beside it (`x-rule`, a bound), one into another schema and one
    back into a definition being inlined (a recursive one) stay references."""
    done: dict[str, Any] = {}
    expanding: set[str] = set()

    def definition(ref: str) -> Any:
        if ref not in done:
            node: Any = schema
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            expanding.add(ref)
            done[ref] = walk(node)
            expanding.discard(ref)
        return done[ref]

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and node.keys() <= _ANNOTATIONS and ref not in expanding:
            return definition(ref)
        return {k: v if k in _DATA else walk(v) for k, v in node.items()}

    out: dict[str, Any] = walk({k: v for k, v in schema.items() if k != "$defs"})
    if "$defs" in schema:  # what the references left in place (and other schemas' references) name
        out["$defs"] = {
            name: definition("#/$defs/" + name.replace("~", "~0").replace("/", "~1")) for name in schema["$defs"]
        }
    return out


@cache
def _inlined_schemas() -> dict[str, dict[str, Any]]:
    return {name: inlined(schema) for name, schema in _schemas().items()}


@cache
def _registry() -> Registry:
    # Each without its `$schema`: jsonschema picks the validator class of a schema another one refers
    # to by its `$schema`, and that plain Draft202012Validator knew none of the keywords below.
    resources = [
        (s["$id"], DRAFT202012.create_resource({k: v for k, v in s.items() if k != "$schema"}))
        for s in _inlined_schemas().values()
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
    schema = _inlined_schemas()[name]
    # the bundled schemas are checked against the metaschema by the tests (test_bundled_data):
    # checking them at every start cost 0.3 s of a launch
    validator: Draft202012Validator = _Validator(schema, registry=_registry())
    return validator


def schema_name(doc: SourceDocument) -> str | None:
    """The schema a document declares with its `format:` key, or None."""
    if isinstance(doc.data, dict):
        return FORMATS.get(str(doc.data.get("format")))
    return None


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


def schema_problems(doc: SourceDocument, name: str | None = None) -> Iterator[Problem]:
    """Every schema problem of a document, each at its line and column."""
    for duplicate in doc.duplicates:
        yield Problem(
            "duplicate-key",
            Severity.ERROR,
            f"{pointer(duplicate.path)} is given twice (first on line {duplicate.first.line}); "
            "the second would silently replace the first",
            file=doc.file,
            line=duplicate.position.line,
            column=duplicate.position.column,
            pointer=pointer(duplicate.path),
        )
    name = name or schema_name(doc)
    if name is None:
        known = ", ".join(sorted(FORMATS))
        if not isinstance(doc.data, dict):
            why = "the file holds a single value or a list, not a mapping of keys starting with `format:`"
        elif "format" not in doc.data:
            why = "the file has no `format:` key"
        else:
            why = f"format {excerpt(doc.data['format'])} is not one iceditor reads"
        yield Problem(
            "unknown-format",
            Severity.ERROR,
            f"{why} (known: {known})",
            file=doc.file,
            line=doc.position(("format",)).line,
            column=doc.position(("format",)).column,
            pointer="/format",
        )
        return
    if known_valid(name, doc.data):
        return
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
