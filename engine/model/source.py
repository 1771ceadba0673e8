"""YAML documents with the source position of every value.

Files are data, never code, and may be hostile: the document is built straight from the
event stream of PyYAML's (C)SafeLoader, which parses without recursion, so the limits below
are enforced before anything is built: nesting depth, what aliases expand to (a "billion
laughs" file of a few hundred bytes would otherwise expand to 10^9 values), file size, and
numbers (finite, of a length Python converts). Only plain scalars, lists and mappings are
built. Each value's position is kept so that a problem found anywhere (schema, reference,
rule) names the line and column it comes from.
"""

from __future__ import annotations

import copy
import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from engine.terminal_text import PATH_LIMIT, shown

from .yaml_messages import Message, reader_message, syntax_message

JsonPath = tuple[str | int, ...]

MAX_BYTES = 16 * 1024 * 1024  # the bundled files are under 100 kB
MAX_DEPTH = 40  # nesting of lists and mappings; the bundled files nest at most 11 deep
TOO_DEEP = f"lists and mappings nested more than {MAX_DEPTH} deep: no file of the game does"
MAX_ALIAS_VALUES = 10_000  # values that aliases (*name) may add to a file, all aliases together
# values (scalars, lists and mappings, keys not counted) in a file: the bundled ones hold at most
# 1,235; a file of a million list items would take 12 s and 640 MB to check (issue 24)
MAX_VALUES = 50_000


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


class SourceError(Exception):
    """A file that cannot be read, is not YAML at all, or is empty."""

    def __init__(self, file: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.file = file
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Duplicate:
    """A mapping key given twice: where the repeat is, and where the key was first given."""

    path: JsonPath
    position: Position
    first: Position


@dataclass
class SourceDocument:
    """A parsed YAML document and where each of its values stands in the file."""

    file: str
    data: Any
    positions: dict[JsonPath, Position] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)
    keys: dict[JsonPath, Position] = field(default_factory=dict)  # where each mapping key is written

    def position(self, path: JsonPath) -> Position:
        """The position of the value at `path`, or of its nearest ancestor that exists."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, Position(1, 1))

    def key_position(self, path: JsonPath) -> Position:
        """Where the key of the value at `path` is written (a block mapping's value starts a line lower)."""
        return self.keys.get(tuple(path)) or self.position(path)


def pointer(path: JsonPath) -> str:
    """A JSON pointer (RFC 6901) for a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _mark(event: Any) -> Position:
    return Position(event.start_mark.line + 1, event.start_mark.column + 1)


def _key(value: Any) -> str:
    # JSON's data model: mapping keys are strings. An unquoted hex label (1203) is the label "1203".
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    return str(value)


_PLAIN_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_STR_TAG = "tag:yaml.org,2002:str"
# a scalar's tag written out (`!!int 3`) may be one of the plain ones; `!!binary`, `!!timestamp`,
# `!!python/...` and `!custom` are refused as the lists' and mappings' other tags are
_PLAIN_SCALAR_TAGS = (None, "!", *(f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null")))

# libyaml's parser when PyYAML was built with it (same safe constructor, several times faster).
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Built(NamedTuple):
    """A value built from the stream, how many values it holds, and how deep they nest."""

    value: Any
    size: int
    height: int  # 0 for a scalar, 1 for a list or mapping of scalars


class _Builder:
    """Builds one document from the loader's events, refusing what the limits do not allow."""

    def __init__(self, loader: yaml.SafeLoader, file: str) -> None:
        self.loader: Any = loader  # its parser's methods are untyped in types-PyYAML
        self.doc = SourceDocument(file, None)
        self.anchors: dict[str, Built] = {}
        self.open_anchors: dict[str, Position] = {}  # anchors whose value is being built
        self.alias_values = 0
        self.values = 0

    def error(self, message: str, at: Position) -> SourceError:
        return SourceError(self.doc.file, message, at.line, at.column)

    def document(self) -> SourceDocument:
        loader = self.loader
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            raise SourceError(self.doc.file, "the file is empty (no YAML, only blank lines or comments)")
        loader.get_event()  # document start
        self.doc.data = self.value((), 0).value
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            second = _mark(loader.peek_event())
            raise self.error(
                f"a second YAML document starts on line {second.line} (`---`): a file holds one document", second
            )
        if self.doc.data is None:
            raise SourceError(self.doc.file, "the file is empty (its only document holds no value)")
        return self.doc

    def value(self, path: JsonPath, depth: int) -> Built:
        """The next value in the stream, at `depth` lists and mappings down."""
        event: Any = self.loader.get_event()
        at = _mark(event)
        self.doc.positions[path] = at
        self.values += 1
        if self.values > MAX_VALUES:
            raise self.error(f"more than {MAX_VALUES:,} values: no file of the game holds a tenth of that", at)
        if isinstance(event, yaml.AliasEvent):
            return self.alias(str(event.anchor), at, depth)
        self.check_depth(depth, at)
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self.open_anchors[anchor] = at
        if isinstance(event, yaml.ScalarEvent):
            built = Built(self.scalar(event, at), 1, 0)
        elif isinstance(event, yaml.SequenceStartEvent):
            self.plain_tag(event, at)
            built = self.sequence(path, depth)
        else:
            self.plain_tag(event, at)
            built = self.mapping(path, depth)
        if anchor is not None:
            del self.open_anchors[anchor]
            self.anchors[anchor] = built
        return built

    def check_depth(self, depth: int, at: Position) -> None:
        if depth > MAX_DEPTH:
            raise self.error(TOO_DEEP, at)

    def alias(self, name: str, at: Position, depth: int) -> Built:
        if name in self.open_anchors:
            start = self.open_anchors[name]
            raise self.error(
                f"*{name} stands inside the value it refers to (&{name} on line {start.line}): "
                "a value cannot contain itself",
                at,
            )
        if name not in self.anchors:
            raise self.error(f"*{name} refers to no anchor: write &{name} on the value above it", at)
        built = self.anchors[name]
        self.check_depth(depth + built.height, at)  # an alias puts its value's nesting at this depth
        self.alias_values += built.size
        if self.alias_values > MAX_ALIAS_VALUES:
            raise self.error(
                f"aliases (*name) expand to more than {MAX_ALIAS_VALUES} values; the file would be far "
                "larger than it looks (an alias bomb?): write the values out",
                at,
            )
        # A copy, so that editing one use of an anchored value does not edit the others.
        return Built(copy.deepcopy(built.value), built.size, built.height)

    def plain_tag(self, event: Any, at: Position) -> None:
        if event.tag not in _PLAIN_TAGS:
            raise self.error(f"the tag {excerpt(event.tag)} is not allowed: files are plain data", at)

    def sequence(self, path: JsonPath, depth: int) -> Built:
        items: list[Any] = []
        size = height = 1
        while not self.loader.check_event(yaml.SequenceEndEvent):
            item = self.value((*path, len(items)), depth + 1)
            items.append(item.value)
            size, height = size + item.size, max(height, item.height + 1)
        self.loader.get_event()
        return Built(items, size, height)

    def mapping(self, path: JsonPath, depth: int) -> Built:
        result: dict[str, Any] = {}
        first_seen: dict[str, Position] = {}
        merged: list[dict[str, Any]] = []
        size = height = 1
        while not self.loader.check_event(yaml.MappingEndEvent):
            key_event = self.loader.peek_event()
            at = _mark(key_event)
            if not isinstance(key_event, yaml.ScalarEvent):
                raise self.error("a key must be a plain value (a name or a number), not a list or mapping", at)
            self.loader.get_event()
            if self.tag_of(key_event) == _MERGE_TAG:
                sources = self.value((*path, "<<"), depth + 1)
                merged += self.merge_sources(sources.value, at)
                size, height = size + sources.size, max(height, sources.height + 1)
                continue
            key = _key(self.scalar(key_event, at))
            if key in first_seen:
                self.doc.duplicates.append(Duplicate((*path, key), at, first_seen[key]))
            else:
                first_seen[key] = self.doc.keys[(*path, key)] = at
            item = self.value((*path, key), depth + 1)
            result[key] = item.value
            size, height = size + item.size, max(height, item.height + 1)
        self.loader.get_event()
        for source in merged:  # `<<: *base`: keys the mapping does not give itself
            for key, value in source.items():
                result.setdefault(key, value)
        return Built(result, size, height)

    def merge_sources(self, value: Any, at: Position) -> list[dict[str, Any]]:
        sources = value if isinstance(value, list) else [value]
        if not all(isinstance(s, dict) for s in sources):
            raise self.error("a merge key (<<) takes a mapping or a list of mappings", at)
        return sources

    def tag_of(self, event: Any) -> str:
        if event.tag is None or event.tag == "!":
            return str(self.loader.resolve(yaml.ScalarNode, event.value, event.implicit))
        return str(event.tag)

    def scalar(self, event: Any, at: Position) -> Any:
        if event.tag not in _PLAIN_SCALAR_TAGS:
            raise self.error(f"the tag {excerpt(event.tag)} is not allowed: files are plain data", at)
        tag = self.tag_of(event)
        if tag == _STR_TAG:  # most values: the text as written, no constructor needed
            return event.value
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            value = self.loader.construct_object(node, deep=True)
        except ValueError:
            # int() refuses more than 4300 digits; a date like 2001-13-45 is no date.
            raise self.error(f"{excerpt(event.value)} cannot be read as a {node.tag.rsplit(':', 1)[-1]}", at) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise self.error(
                f"{excerpt(event.value)} is not a finite number (infinite, not-a-number, or too large): "
                "every number in these files is an ordinary finite value",
                at,
            )
        return value


def excerpt(value: Any, limit: int = 60) -> str:
    """A value as a message quotes it: short, so that no message carries a file's contents.

    >>> excerpt(10**400)
    '100000... (401 digits)'
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    if isinstance(value, int):
        return f"{text[:6]}... ({len(text.lstrip('-'))} digits)"
    return text[: limit - 5] + " ..." + text[-1]


def parse_yaml(text: str, file: str) -> SourceDocument:
    """Parse one YAML document; raise SourceError naming file, line and column if it is not YAML,
    is empty, or breaks the limits above."""
    try:
        loader = _Loader(text)  # the pure-Python reader checks the characters here
    except yaml.reader.ReaderError as exc:
        raise _not_yaml(file, reader_message(exc, text)) from None
    try:
        return _Builder(loader, file).document()
    except yaml.reader.ReaderError as exc:
        raise _not_yaml(file, reader_message(exc, text)) from None
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" in str(exc.problem):  # libyaml 0.2.5+ refuses deep nesting as it scans ahead
            mark = exc.problem_mark
            line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            raise SourceError(file, TOO_DEEP, line, column) from None
        raise _not_yaml(file, syntax_message(exc, text)) from None
    except yaml.YAMLError as exc:
        raise SourceError(file, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def _not_yaml(file: str, found: Message) -> SourceError:
    message, line, column = found
    return SourceError(file, f"not valid YAML: {message}", line, column)


def check_yaml(text: str, file: str) -> None:
    """Raise SourceError if `text` is not a file iceditor reads: what a round-trip loader (the
    editor's ruamel.yaml) calls first, so that it never builds a hostile file."""
    parse_yaml(text, file)


def read_text(path: Path | str) -> str:
    """A file's text; SourceError if it cannot be read, is not UTF-8, or is too large."""
    path = Path(path)
    name = shown(path, PATH_LIMIT)  # a 300-byte name is refused by the system: not echoed whole
    try:
        # non-blocking: opening a FIFO no one writes would wait for ever; only a regular file is read
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as stream:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):
                kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) else "a special file"
                raise SourceError(name, f"is {kind}, not a regular file: iceditor reads files only")
            os.set_blocking(fd, True)
            data = stream.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise SourceError(name, f"larger than {MAX_BYTES // 1024 // 1024} MB, the most iceditor reads")
        return data.decode("utf-8")
    except FileNotFoundError:
        raise SourceError(name, "no such file") from None
    except IsADirectoryError:
        raise SourceError(name, "is a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise SourceError(name, f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise SourceError(name, f"cannot be read: {exc.strerror}") from None


def load_yaml(path: Path | str) -> SourceDocument:
    """Read and parse a YAML file; raise SourceError if it cannot be read or parsed."""
    return parse_yaml(read_text(path), str(path))
