"""PyYAML's parser errors in words a scenario designer knows, at the line to fix, with a hint.

PyYAML reports what its parser expected ("while parsing a block mapping did not find expected
key"); libyaml and the pure-Python parser word it differently. The cause is read from the
text itself where it can be (a tab in the indentation, a line indented unlike its
neighbours, a bracket or quote never closed, a closing bracket with no opening one), else
from the parser's context.
"""

from __future__ import annotations

import yaml

_CLOSERS = {"{": "}", "[": "]"}

Message = tuple[str, int, int]  # the words, line and column (1-based)


def syntax_message(exc: yaml.MarkedYAMLError, text: str) -> Message:
    """What is wrong, for a parser error in `text`, and where."""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line, mark.column) if mark else (0, 0)
    lines = text.splitlines()
    context, problem = exc.context or "", exc.problem or ""
    start = exc.context_mark
    at = (line + 1, column + 1)

    tab = _tab_in_indentation(lines, line)
    if tab is not None or "tab" in problem or "'\\t'" in problem:
        row = tab if tab is not None else line
        where = lines[row].index("\t") + 1 if row < len(lines) and "\t" in lines[row] else column + 1
        words = "a tab character in the indentation: YAML indents with spaces only (replace the tab with spaces)"
        return words, row + 1, where
    if "escape" in problem:
        return (
            "a backslash in double quotes starts an escape YAML does not know: write \\\\ for a backslash, "
            "or put the value in single quotes",
            *at,
        )
    if "quoted scalar" in context and "end of stream" in problem and start is not None:
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
            *at,
        )
    if "mapping values are not allowed" in problem:
        return _colon(lines, line, column)
    if "block mapping" in context or "block collection" in context:
        return _block(lines, line, column, context, start)
    if "cannot start any token" in problem:
        return f"{_char(lines, line, column)} cannot start a value (YAML reserves it): put the value in quotes", *at
    if "undefined alias" in problem:
        return "an alias (*name) refers to no anchor (&name) above it", *at
    return " ".join(part for part in (context, problem) if part), *at


def reader_message(exc: yaml.reader.ReaderError, text: str) -> Message:
    """A character YAML does not allow anywhere in a file (a control character, a stray NUL)."""
    line = text.count("\n", 0, exc.position) + 1
    column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
    return f"a control character (#x{exc.character:04x}) at this place: files hold printable text only", line, column


def _colon(lines: list[str], line: int, column: int) -> Message:
    """`mapping values are not allowed here`: a ':' where the parser reads a value."""
    here = lines[line] if line < len(lines) else ""
    at = (line + 1, column + 1)
    above = _previous_content_line(lines, line)
    if above is not None and ":" not in _before(here, column):
        previous = lines[above]
        if _indent(here) > _indent(previous):
            return (
                f"this line is indented more than line {above + 1} above it, which already has its value: "
                "indent a key like the other keys of its mapping, or end the line above with ':' to open a "
                "mapping under it",
                line + 1,
                _indent(here) + 1,
            )
        if ":" not in previous and not previous.lstrip().startswith("-"):
            return f"line {above + 1} has no ':' after its key (write `key: value`)", above + 1, _indent(previous) + 1
    return "a second ': ' on one line: a value that contains ': ' must be quoted (write key: \"a: b\")", *at


def _block(lines: list[str], line: int, column: int, context: str, start: yaml.Mark | None) -> Message:
    """A block mapping or list that goes on with something that is neither a key nor an item."""
    here = lines[line] if line < len(lines) else ""
    at = (line + 1, column + 1)
    char = here[column] if column < len(here) else ""
    if char in "]}" and char:
        return f"a closing '{char}' with no opening bracket before it: remove it", *at
    if column > _indent(here):
        return "unexpected text after a value: a quoted value must be the whole value (quote all of it)", *at
    if start is None:
        return f"{context}: unexpected text", *at
    opened = (start.line + 1, start.column + 1)
    if "block collection" in context:
        return (
            f"bad indentation: the list that starts on line {opened[0]} (items '- ' in column {opened[1]}) goes "
            "on with a line that is not an item: start it with '- ' in that column, or indent it under an item",
            *at,
        )
    if char == "-":
        return (
            f"a list item where the mapping of line {opened[0]} expects a key: put the list under a key "
            "that ends with ':'",
            *at,
        )
    spaces = _indent(here)
    return (
        f"bad indentation: this line is indented by {spaces} space{'s' if spaces != 1 else ''}, but the keys "
        f"of the mapping it belongs to (line {opened[0]}) start in column {opened[1]}: line up the keys of "
        "one mapping in the same column",
        *at,
    )


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
