"""Every sourced value of a data file: printed (with its source), inferred (with the words it is read
from and the reasoning) or assumed (with its reason)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .source import JsonPath, SourceDocument, pointer

# Keys that describe a sourced entry rather than being its value.
_NOTE_KEYS = {"printed", "inferred", "assumed", "note", "ruling", "printed_as"}
# The kinds of provenance, as a value may carry them (one each).
KINDS = ("printed", "inferred", "assumed")
# Formats whose top-level `provenance:` sources the file as a whole, and the keys whose entries it sources.
_WHOLE_FILE = {"iron-cross-map/1": ("hexes", "roads", "bridges")}


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
    """Each sourced value of the file, in file order: every mapping marked `printed:`, `inferred:` or
    `assumed:`, each field of a scenario's top-level `assumed:` mapping, and each hex, road and bridge
    of a map whose `provenance:` sources it as a whole (with the map's source or reason).

    These are the values `iceditor provenance` lists and `count_sourced` counts: a count the
    validator reports is always the length of a list the user can print.
    """
    yield from _walk(doc, doc.data, ())


def count_sourced(values: Iterable[Sourced]) -> dict[str, int]:
    """How many of the values are of each kind, every kind of KINDS present (in that order)."""
    counts = dict.fromkeys(KINDS, 0)
    for v in values:
        counts[v.provenance] += 1
    return counts


def _walk(doc: SourceDocument, data: Any, path: JsonPath) -> Iterator[Sourced]:
    if isinstance(data, dict) and isinstance(data.get("assumed"), dict):
        # a scenario's top-level fields the source does not give: {game_length: why, ...}
        for key, why in data["assumed"].items():
            where = doc.position((*path, key)).line
            yield Sourced(doc.file, where, (*path, key), str(data.get(key)), "assumed", str(why))
    if isinstance(data, dict):
        for kind in ("assumed", "inferred", "printed"):
            if isinstance(data.get(kind), str) and path != ():
                yield Sourced(doc.file, doc.position(path).line, path, _describe(data), kind, data[kind])
                break
        whole = _whole_file(data) if path == () else None
        for key, value in data.items():
            if whole is not None and key == "provenance":
                continue  # the source of the entries below, not a value
            if whole is not None and key in whole[2]:
                yield from _entries(doc, value, key, whole[0], whole[1])
            elif key not in _NOTE_KEYS:
                yield from _walk(doc, value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _walk(doc, value, (*path, i))


def _whole_file(data: dict[str, Any]) -> tuple[str, str, tuple[str, ...]] | None:
    """(kind, source or reason, keys) of a file sourced as a whole, or None."""
    keys = _WHOLE_FILE.get(str(data.get("format")))
    marker = data.get("provenance")
    if keys is None or not isinstance(marker, dict):
        return None
    for kind in KINDS:
        if isinstance(marker.get(kind), str):
            return kind, marker[kind], keys
    return None


def _entries(doc: SourceDocument, container: Any, key: str, kind: str, note: str) -> Iterator[Sourced]:
    """Each entry of a file sourced as a whole (a hex, a road, a bridge), with the file's source."""
    items = container.items() if isinstance(container, dict) else enumerate(container or [])
    for name, entry in items:
        path = (key, name)
        if isinstance(entry, dict):
            value = _describe(entry)
        elif isinstance(entry, list):
            value = " ".join(map(str, entry))
        else:
            value = str(entry)
        yield Sourced(doc.file, doc.position(path).line, path, value, kind, note)


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
