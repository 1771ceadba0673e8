"""PyYAML's parser errors in words a scenario designer knows, at the line to fix, with a hint.

PyYAML reports what its parser expected ("while parsing a block mapping did not find expected
key"); libyaml and the pure-Python parser word it differently. The cause is read from the
text itself where it can be (a tab in the indentation, a line indented unlike its
neighbours, a bracket or quote never closed), else from the parser's context.
"""

from __future__ import annotations

import yaml

_CLOSERS = {"{": "}", "[": "]"}


def syntax_message(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, int, int]:
    """(message, line, column), 1-based, for a parser error in `text`."""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line, mark.column) if mark else (0, 0)
    lines = text.splitlines()
    context, problem = exc.context or "", exc.problem or ""
    start = exc.context_mark
    here = lines[line] if line < len(lines) else ""

    tab = _tab_in_indentation(lines, line)
    if tab is not None or "tab" in problem or "'\\t'" in problem:
        at = tab if tab is not None else line
        return (
            "a tab character in the indentation: YAML indents with spaces only (replace the tab with spaces)",
            at + 1,
            lines[at].index("\t") + 1 if at < len(lines) and "\t" in lines[at] else column + 1,
        )
    if "quoted scalar" in context and start is not None:
        quote = _char(lines, start.line, start.column)
        return (
            f"the quote {quote} opened on line {start.line + 1}, column {start.column + 1} is never closed "
            f"(close it with {quote} at the end of the value)",
            start.line + 1,
            start.column + 1,
        )
    if "flow" in context and start is not None:
        opener = _char(lines, start.line, start.column)
        closer = repr(_CLOSERS.get(opener.strip("'"), "]"))
        return (
            f"the {opener} opened on line {start.line + 1}, column {start.column + 1} is not closed: "
            f"expected ',' or {closer} before this point (add the missing {closer}, or a ',' between items)",
            line + 1,
            column + 1,
        )
    if "mapping values are not allowed" in problem:
        above = _previous_content_line(lines, line)
        if above is not None and _indent(here) > _indent(lines[above]) and ":" not in _before(here, column):
            return (
                f"this line is indented more than line {above + 1} above it, which already has its value: "
                "indent a key like the other keys of its mapping, or end the line above with ':' to open a "
                "mapping under it",
                line + 1,
                _indent(here) + 1,
            )
        return (
            "a second ': ' on one line: a value that contains ': ' must be quoted (write key: \"a: b\")",
            line + 1,
            column + 1,
        )
    if "block mapping" in context and start is not None:
        return (
            f"bad indentation: this line is indented by {_indent(here)} spaces, but the keys of the mapping "
            f"it belongs to (line {start.line + 1}) start in column {start.column + 1}: line up the keys "
            "of one mapping in the same column",
            line + 1,
            column + 1,
        )
    if "block collection" in context and start is not None:
        return (
            f"bad indentation: the list that starts on line {start.line + 1} (items '- ' in column "
            f"{start.column + 1}) goes on with a line that is not an item: start it with '- ' in that "
            "column, or indent it under an item",
            line + 1,
            column + 1,
        )
    if "cannot start any token" in problem:
        char = _char(lines, line, column)
        return (
            f"{char} cannot start a value (YAML reserves it): put the value in quotes",
            line + 1,
            column + 1,
        )
    if "undefined alias" in problem:
        return "an alias (*name) refers to no anchor (&name) above it", line + 1, column + 1
    message = " ".join(part for part in (context, problem) if part)
    return message, line + 1, column + 1


def _tab_in_indentation(lines: list[str], line: int) -> int | None:
    """The line (0-based) at or just above `line` whose indentation holds a tab."""
    for i in (line, line - 1):
        if 0 <= i < len(lines):
            indentation = lines[i][: len(lines[i]) - len(lines[i].lstrip(" \t"))]
            if "\t" in indentation and lines[i].strip():
                return i
    return None


def _previous_content_line(lines: list[str], line: int) -> int | None:
    for i in range(min(line, len(lines)) - 1, -1, -1):
        stripped = lines[i].strip()
        if stripped and not stripped.startswith("#"):
            return i
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _before(line: str, column: int) -> str:
    return line[:column].strip()


def _char(lines: list[str], line: int, column: int) -> str:
    """The character at a position, quoted for a message."""
    if line < len(lines) and column < len(lines[line]):
        return repr(lines[line][column])
    return "the character"
