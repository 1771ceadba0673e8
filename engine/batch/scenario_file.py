"""The scenario a batch plays, written to DIR/scenario.yaml so that every game's log names a file
that replays it: the designer's file as printed, without its test `setup:` unless asked (R265),
with a what-if value put in at a PATH (`--vary sides.german.grenades=2,4,6`)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import yaml

from engine.model.source import SourceDocument


class VaryError(ValueError):
    """A --vary PATH or value that does not fit the scenario: the message says what to write."""


@dataclass(frozen=True)
class Vary:
    path: str  # "sides.german.grenades", "sides.russian.groups.main.units.A.less"
    values: tuple[Any, ...]

    def slug(self, value: Any) -> str:
        """The folder of one value's batch: `sides.german.grenades=4`."""
        text = json_text(value)
        return f"{self.path}={text}".replace("/", "_").replace(" ", "_")


def json_text(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10_000).strip().removesuffix("...").strip()


def parse_vary(text: str) -> Vary:
    """`PATH=V1,V2,..`: each value YAML (`4`, `true`, `[LMG PR8]`); commas inside [] or {} belong to
    the value.

    >>> parse_vary("sides.german.grenades=2,4,6")
    Vary(path='sides.german.grenades', values=(2, 4, 6))
    >>> parse_vary("sides.russian.groups.main.units.A.less=[],[LMG PR8, R PR9]").values
    ([], ['LMG PR8', 'R PR9'])
    """
    path, sep, values = text.partition("=")
    if not sep or not path.strip() or not values.strip():
        raise VaryError(f"--vary {text!r}: write PATH=V1,V2,.. (for instance sides.german.grenades=2,4,6)")
    parts, depth, start = [], 0, 0
    for i, char in enumerate(values):
        depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(values[start:i])
            start = i + 1
    parts.append(values[start:])
    try:
        parsed = tuple(yaml.safe_load(p.strip()) if p.strip() else None for p in parts)
    except yaml.YAMLError as exc:
        raise VaryError(f"--vary {text!r}: a value is not YAML ({exc.__class__.__name__})") from None
    if any(v is None for v in parsed):
        raise VaryError(f"--vary {text!r}: an empty value (two commas together, or one at the end?)")
    return Vary(path.strip(), parsed)


def played_data(doc: SourceDocument, *, given_setup: bool, path: str | None = None, value: Any = None) -> Any:
    """The scenario's data as the batch plays it (the document is left as it was)."""
    data = copy.deepcopy(doc.data)
    if not given_setup:
        data.pop("setup", None)  # R265: the players set up, as the printed scenario has them do
    if path is not None:
        set_path(data, path, value)
    return data


def scenario_text(data: Any, source: str, note: str) -> str:
    """The YAML of a batch's scenario, saying where it came from."""
    head = f"# Played by `iceditor playtest` from {source}{note}: every game log of this folder names this file.\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def set_path(data: Any, path: str, value: Any) -> None:
    """Put `value` at the dotted PATH of the scenario's data. A segment is a mapping's key; in a list,
    an index, or the entry it names: a group's `name`, a squad's letter (`A`), a commander's rank
    (`PL`, `PL10` for PR10), a weapon or AFV with its number (`MMG1`). The last key may be new (a
    unit's `less:`); every other must be there. VaryError says where the path stops and what is there."""
    segments = path.split(".")
    if not all(segments):
        raise VaryError(f"--vary {path}: an empty segment in the path (two dots together?)")
    node, walked = data, list[str]()
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        where = ".".join(walked) or "the scenario"
        if isinstance(node, dict):
            if segment not in node and not last:
                raise VaryError(f"--vary {path}: {where} has no key {segment!r} (it has: {_keys(node)})")
            if last:
                node[segment] = value
                return
            node = node[segment]
        elif isinstance(node, list):
            index = _list_index(node, segment, path, where)
            if last:
                node[index] = value
                return
            node = node[index]
        else:
            raise VaryError(f"--vary {path}: {where} is a value ({node!r}), not a mapping or list to go into")
        walked.append(segment)


def _keys(node: dict[str, Any]) -> str:
    return ", ".join(str(k) for k in node) or "nothing"


def _list_index(items: list[Any], segment: str, path: str, where: str) -> int:
    if segment.isdigit():
        if int(segment) >= len(items):
            raise VaryError(f"--vary {path}: {where} has {len(items)} entries (0 to {len(items) - 1}), not {segment}")
        return int(segment)
    found = [i for i, item in enumerate(items) if segment in _names(item)]
    if len(found) != 1:
        named = ", ".join(sorted({n for item in items for n in _names(item)[:1]})) or "none"
        how = "no entry" if not found else f"{len(found)} entries"
        raise VaryError(f"--vary {path}: {how} of {where} named {segment!r} (entries: {named}; or an index)")
    return found[0]


def _names(item: Any) -> list[str]:
    """What a list entry answers to in a path, its plainest name first."""
    if not isinstance(item, dict):
        return []
    names = []
    if "name" in item:
        names.append(str(item["name"]))
    for kind in ("squad", "commander", "crew_weapon", "afv"):
        if kind in item:
            own = str(item[kind])
            number = item.get("number", item.get("pr"))
            names += [own + str(number)] if number is not None else []
            names.append(own)
    if "group" in item:
        names.append(str(item["group"]))
    return names
