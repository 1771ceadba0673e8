"""YAML documents with the source position of every value.

Files are data, never code: the document is composed by PyYAML's (C)SafeLoader, which builds
only plain scalars, lists and mappings. Each value's position is kept so that a problem
found anywhere (schema, reference, rule) names the line and column it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

JsonPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Position:
    line: int  # 1-based
    column: int  # 1-based


class SourceError(Exception):
    """A file that cannot be read, or is not YAML at all."""

    def __init__(self, file: str, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.file = file
        self.message = message
        self.line = line
        self.column = column


@dataclass
class SourceDocument:
    """A parsed YAML document and where each of its values stands in the file."""

    file: str
    data: Any
    positions: dict[JsonPath, Position] = field(default_factory=dict)
    duplicates: list[tuple[JsonPath, Position]] = field(default_factory=list)

    def position(self, path: JsonPath) -> Position:
        """The position of the value at `path`, or of its nearest ancestor that exists."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, Position(1, 1))


def pointer(path: JsonPath) -> str:
    """A JSON pointer (RFC 6901) for a path."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _mark(node: yaml.Node) -> Position:
    return Position(node.start_mark.line + 1, node.start_mark.column + 1)


def _key(value: Any) -> str:
    # JSON's data model: mapping keys are strings. An unquoted hex label (1203) is the label "1203".
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    return str(value)


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:omap")


def _build(node: yaml.Node, path: JsonPath, doc: SourceDocument, constructor: yaml.SafeLoader) -> Any:
    doc.positions[path] = _mark(node)
    if isinstance(node, yaml.CollectionNode) and node.tag not in _PLAIN_TAGS:
        raise yaml.constructor.ConstructorError(
            None, None, f"the tag {node.tag!r} is not allowed: files are plain data", node.start_mark
        )
    if isinstance(node, yaml.MappingNode):
        constructor.flatten_mapping(node)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = _key(constructor.construct_object(key_node, deep=True))
            if key in result:
                doc.duplicates.append(((*path, key), _mark(key_node)))
            result[key] = _build(value_node, (*path, key), doc, constructor)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), doc, constructor) for i, item in enumerate(node.value)]
    return constructor.construct_object(node, deep=True)


# libyaml's parser when PyYAML was built with it (same safe constructor, several times faster).
_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, file: str) -> SourceDocument:
    """Parse one YAML document; raise SourceError naming file, line and column if it is not YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        doc = SourceDocument(file, None)
        doc.data = _build(node, (), doc, loader) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        raise SourceError(file, f"not valid YAML: {message}", line, column) from None
    except yaml.YAMLError as exc:
        raise SourceError(file, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return doc


def load_yaml(path: Path | str) -> SourceDocument:
    """Read and parse a YAML file; raise SourceError if it cannot be read or parsed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SourceError(str(path), "no such file") from None
    except IsADirectoryError:
        raise SourceError(str(path), "is a folder, not a file") from None
    except UnicodeDecodeError as exc:
        raise SourceError(str(path), f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise SourceError(str(path), f"cannot be read: {exc.strerror}") from None
    return parse_yaml(text, str(path))
