"""Every sourced value of a data file: printed (with its source), inferred (with the words it is read
from and the reasoning) or assumed (with its reason)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .source import JsonPath, SourceDocument, pointer

# Keys that describe a sourced entry rather than being its value.
_NOTE_KEYS = {"printed", "inferred", "assumed", "note", "ruling", "printed_as"}
# The kinds of provenance, as a value may carry them (one each).
KINDS = ("printed", "inferred", "assumed")


@dataclass(frozen=True)
class Sourced:
    file: str
    line: int
    path: JsonPath
    value: str
    provenance: str  # printed | inferred | assumed
    note: str

    @property
    def pointer(self) -> str:
        return pointer(self.path)


def sourced_values(doc: SourceDocument) -> Iterator[Sourced]:
    """Each mapping marked `printed:` or `assumed:`, in file order.

    A map marked assumed as a whole yields one entry for the map, not one per hex.
    """
    yield from _walk(doc, doc.data, ())


def _walk(doc: SourceDocument, data: Any, path: JsonPath) -> Iterator[Sourced]:
    if isinstance(data, dict) and isinstance(data.get("assumed"), dict):
        # a scenario's top-level fields the source does not give: {game_length: why, ...}
        for key, why in data["assumed"].items():
            where = doc.position((*path, key)).line
            yield Sourced(doc.file, where, (*path, key), str(data.get(key)), "assumed", str(why))
    if isinstance(data, dict):
        for kind in ("assumed", "inferred", "printed"):
            if isinstance(data.get(kind), str) and not (path == () or (path == ("provenance",) and kind == "printed")):
                yield Sourced(doc.file, doc.position(path).line, path, _describe(data), kind, data[kind])
                break
        for key, value in data.items():
            if key not in _NOTE_KEYS:
                yield from _walk(doc, value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _walk(doc, value, (*path, i))


def _describe(entry: dict[str, Any]) -> str:
    if "value" in entry:
        return str(entry["value"])
    shown = []
    for key, value in entry.items():
        if key in _NOTE_KEYS:
            continue
        if isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            shown.append(f"{key}: {' '.join(map(str, value))}")
        elif isinstance(value, dict) and all(not isinstance(v, dict | list) for v in value.values()):
            shown.append(f"{key}: " + ", ".join(f"{k}={v}" for k, v in value.items()))
        elif not isinstance(value, dict | list):
            shown.append(f"{key}: {value}")
    return "; ".join(shown) or "(the whole entry)"
