"""Changes to a scenario file's round-trip data, as steps that can be undone exactly.

An `Edit` is one undo step: a list of primitive changes (set a key, remove a key or item,
insert an item) applied in order and undone in reverse, each finding its container by path
when it runs, so the data after an undo is the data before the edit, comments and key order
included. New values are written as the file writes its neighbours: `flow()` mappings where
the siblings are flow mappings, hex labels and squad members double-quoted.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from engine.model.source import SourceError, check_yaml

DataPath = tuple[str | int, ...]


def node(root: Any, path: DataPath) -> Any:
    for key in path:
        root = root[key]
    return root


def find(root: Any, path: DataPath) -> Any:
    """The value at `path`, or None where the path leaves the data."""
    for key in path:
        in_list = isinstance(root, list) and isinstance(key, int) and 0 <= key < len(root)
        if not (in_list or (isinstance(root, Mapping) and key in root)):
            return None
        root = root[key]
    return root


def parse_pointer(pointer: str) -> DataPath:
    """A JSON pointer (as problems carry) to a path; list indexes become ints."""
    if not pointer:
        return ()
    steps = [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")]
    return tuple(int(p) if p.isdigit() else p for p in steps)


def quoted(text: str) -> DoubleQuotedScalarString:
    """A hex label or squad member written as the files write them: "4307", "LMG PR8"."""
    return DoubleQuotedScalarString(text)


def flow(**values: Any) -> CommentedMap:
    """A mapping written on one line, `{squad: C, hex: "4307"}`; None values are left out."""
    out = CommentedMap((k, v) for k, v in values.items() if v is not None)
    out.fa.set_flow_style()
    return out


def block(items: Iterable[tuple[str, Any]]) -> CommentedMap:
    return CommentedMap(items)


def sequence(items: Iterable[Any], *, flow_style: bool = False) -> CommentedSeq:
    out = CommentedSeq(items)
    if flow_style:
        out.fa.set_flow_style()
    return out


class Edit:
    """One undo step of changes to the data (see the module's docstring)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.steps: list[_Step] = []

    def set(
        self, path: DataPath, key: str | int, value: Any, *, after: str | None = None, before: str | None = None
    ) -> Edit:
        """`node(path)[key] = value`; a new key of a mapping goes after `after` (if there), else
        before `before` (if there), else last."""
        self.steps.append(_Set(path, key, value, after, before))
        return self

    def remove(self, path: DataPath, key: str | int) -> Edit:
        """Remove a key of a mapping or an item of a list (put back where it was on undo)."""
        self.steps.append(_Remove(path, key))
        return self

    def insert(self, path: DataPath, index: int | None, value: Any) -> Edit:
        """Insert an item into a list (None: at its end)."""
        self.steps.append(_Insert(path, index, value))
        return self

    def __bool__(self) -> bool:
        return bool(self.steps)

    def apply(self, root: Any) -> None:
        for step in self.steps:
            step.do(root)

    def revert(self, root: Any) -> None:
        for step in reversed(self.steps):
            step.undo(root)


class _Step:
    def __init__(self, path: DataPath, key: Any) -> None:
        self.path, self.key = path, key

    def do(self, root: Any) -> None:
        raise NotImplementedError

    def undo(self, root: Any) -> None:
        raise NotImplementedError


_ABSENT = object()


class _Set(_Step):
    def __init__(self, path: DataPath, key: Any, value: Any, after: str | None, before: str | None = None) -> None:
        super().__init__(path, key)
        self.value, self.after, self.ahead_of = value, after, before
        self.before: Any = _ABSENT

    def do(self, root: Any) -> None:
        container = node(root, self.path)
        if isinstance(container, list):
            self.before = container[self.key]
        else:
            self.before = container.get(self.key, _ABSENT)
        if self.before is _ABSENT and isinstance(container, CommentedMap) and self.after in container:
            container.insert(list(container).index(self.after) + 1, self.key, self.value)
        elif self.before is _ABSENT and isinstance(container, CommentedMap) and self.ahead_of in container:
            container.insert(list(container).index(self.ahead_of), self.key, self.value)
        else:
            container[self.key] = self.value

    def undo(self, root: Any) -> None:
        container = node(root, self.path)
        if self.before is _ABSENT:
            del container[self.key]
        else:
            container[self.key] = self.before


class _Remove(_Step):
    def __init__(self, path: DataPath, key: Any) -> None:
        super().__init__(path, key)
        self.value: Any = None
        self.position = 0
        self.comment: Any = None

    def do(self, root: Any) -> None:
        container = node(root, self.path)
        self.value = container[self.key]
        if isinstance(container, CommentedMap):
            self.position = list(container).index(self.key)
            self.comment = container.ca.items.get(self.key)
        del container[self.key]

    def undo(self, root: Any) -> None:
        container = node(root, self.path)
        if isinstance(container, CommentedMap):
            container.insert(self.position, self.key, self.value)
            if self.comment is not None:
                container.ca.items[self.key] = self.comment
        elif isinstance(container, list):
            container.insert(self.key, self.value)
        else:
            container[self.key] = self.value


class _Insert(_Step):
    def __init__(self, path: DataPath, index: int | None, value: Any) -> None:
        super().__init__(path, index)
        self.item, self.at = value, 0

    def do(self, root: Any) -> None:
        container = node(root, self.path)
        self.at = len(container) if self.key is None else self.key
        container.insert(self.at, self.item)

    def undo(self, root: Any) -> None:
        del node(root, self.path)[self.at]


def renaming_maps(data: Any, renames: Mapping[str, str]) -> Edit:
    """The edit that makes the scenario name each map of `renames` by its new name: its `maps:`
    entry and every reference to it (a zone's `{map: map1}`, a map edge's `map:`, a victory's
    `per_building_controlled: {map: ...}`), for Save copies. Printed text and notes are words, left as written."""
    edit = Edit("Rename maps")

    def walk(value: Any, path: DataPath) -> None:
        items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list) else ()
        for key, item in items:
            if key in ("printed", "note", "printed_notes", "background"):
                continue
            named = path == ("maps",) or key == "map"
            if named and isinstance(item, str) and item in renames:
                edit.set(path, key, type(item)(renames[item]) if type(item) is not str else renames[item])
            else:
                walk(item, (*path, key))

    walk(data, ())
    return edit


def like_siblings(value: Mapping[str, Any], siblings: Iterable[Any]) -> CommentedMap:
    """A new list item written as the list's first item is: flow when it is a one-line mapping."""
    first = next(iter(siblings), None)
    out = CommentedMap(value)
    if first is None or (isinstance(first, CommentedMap) and first.fa.flow_style()):
        out.fa.set_flow_style()
    return out


def yaml_text(value: Any) -> str:
    """Round-trip data (a zone expression, a condition) as the file writes it, comments and flow style kept."""
    from .document import _yaml  # the document's writer: one YAML configuration for the editor

    out = io.StringIO()
    _yaml().dump(value, out)
    return out.getvalue()


def typed_yaml(text: str, what: str) -> Any:
    """Text a panel takes as YAML (a zone, a condition, a cap) as round-trip data, through the
    engine's limits and words first (check_yaml), as a file is; ValueError saying why it is not YAML."""
    from .document import _yaml  # the document's writer: one YAML configuration for the editor

    try:
        check_yaml(text, what)
        return _yaml().load(text)
    except SourceError as exc:
        raise ValueError(f"not YAML: {exc.message.removeprefix('not valid YAML: ')}") from None
    except YAMLError as exc:
        raise ValueError(f"not YAML: {str(exc).splitlines()[-1].strip()}") from None
