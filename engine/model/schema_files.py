"""The bundled JSON Schemas as written and as the validator runs them (references inlined)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from engine.resources import data_path


@cache
def written_schemas() -> dict[str, dict[str, Any]]:
    return {
        path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(data_path("schemas").glob("*.schema.json"))
    }


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
def inlined_schemas() -> dict[str, dict[str, Any]]:
    return {name: inlined(schema) for name, schema in written_schemas().items()}
