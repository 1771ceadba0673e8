"""The schemas as the validator runs them (engine/model/schema.py): references inlined, the same problems."""

from __future__ import annotations

import pytest
from referencing import Registry, Resource

from engine.model import schema, schema_files, schema_validation
from engine.model.source import SourceDocument, SourceError, parse_yaml
from engine.resources import bundled_files

from .fuzzing import mutants


def test_inlined_replaces_plain_references_and_keeps_the_others() -> None:
    """A reference with only a description beside it becomes the definition itself; one beside a
    rule, one into another schema and a recursive one stay references."""
    written = {
        "$id": "https://iceditor.example/schemas/test/1.json",
        "$defs": {
            "count": {"type": "integer", "minimum": 0},
            "group": {"type": "object", "additionalProperties": {"$ref": "#/$defs/group"}},
        },
        "properties": {
            "men": {"$ref": "#/$defs/count", "description": "men in the hex"},
            "turns": {"$ref": "#/$defs/count", "maximum": 24, "x-rule": "24.1"},
            "tree": {"$ref": "#/$defs/group"},
            "label": {"$ref": "https://iceditor.example/schemas/map/1.json#/$defs/label"},
            "kind": {"const": {"$ref": "#/$defs/count"}},
        },
    }
    out = schema_files.inlined(written)
    properties = out["properties"]
    assert properties["men"] is out["$defs"]["count"] == {"type": "integer", "minimum": 0}
    assert properties["turns"] == written["properties"]["turns"]
    assert properties["tree"] is out["$defs"]["group"]
    assert properties["tree"]["additionalProperties"] == {"$ref": "#/$defs/group"}
    assert properties["label"] == written["properties"]["label"]
    assert properties["kind"] == {"const": {"$ref": "#/$defs/count"}}  # a value, not a schema
    assert written["properties"]["men"] == {"$ref": "#/$defs/count", "description": "men in the hex"}


@pytest.mark.parametrize("count", [40, pytest.param(150, marks=pytest.mark.slow)])
def test_inlined_schemas_find_the_same_problems_as_the_schemas_as_written(count: int) -> None:
    """Mutants of every bundled file: each schema problem (message, place, rule) is the same."""
    registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schema_files.written_schemas().values()
    )
    as_written = {
        name: schema_validation._Validator(s, registry=registry) for name, s in schema_files.written_schemas().items()
    }
    docs = []
    for mutant in mutants(bundled_files(), count, seed=20261202):
        try:
            docs.append(parse_yaml(mutant.text, str(mutant.source)))
        except SourceError:
            continue
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema_validation, "validator", lambda name: as_written[name])
        expected = [_problems(doc) for doc in docs]
    found = [_problems(doc) for doc in docs]
    assert found == expected
    assert sum(p is not None for p in found) > count // 3 and sum(bool(p) for p in found) > count // 7


def _problems(doc: SourceDocument) -> list[tuple[str, str | None]] | None:
    try:
        return [(p.text(), p.rule) for p in schema.schema_problems(doc)]
    except OverflowError:  # jsonschema's multipleOf on an integer too large for a float (validate: exit 3)
        return None
