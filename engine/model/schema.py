"""JSON Schema validation of YAML documents, with problems located in the YAML source."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.problems import Problem, Severity

from .schema_cache import known_valid
from .schema_files import written_schemas
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


def integer_range(name: str, key: str) -> tuple[int, int | None]:
    """The lowest and highest value the `name` schema allows for its top-level integer `key`
    (None: no highest), for editors that offer the number."""
    field = written_schemas()[name]["properties"][key]
    return int(field.get("minimum", 0)), field.get("maximum")


def keys_at(name: str, path: tuple[str | int, ...]) -> frozenset[str]:
    """The keys the `name` schema allows in the mapping at `path` of a document (list indexes
    and names of `additionalProperties` mappings walk into their items), whichever branch of a
    `oneOf`/`anyOf` applies: for editors that offer a field only where the file may hold it.
    Empty where the path leads to no mapping. References into another schema are not followed."""
    root = written_schemas()[name]

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


def schema_name(doc: SourceDocument) -> str | None:
    """The schema a document declares with its `format:` key, or None."""
    if isinstance(doc.data, dict):
        return FORMATS.get(str(doc.data.get("format")))
    return None


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
    from .schema_validation import schema_errors  # jsonschema (60 ms to import): only for a file not known valid

    yield from schema_errors(doc, name)
