"""Mutated copies of the bundled files, for the hostile-file tests and benchmarks/fuzz_validate.py.

Each mutation is what a careless edit, a broken download or a hostile author produces: a
number made huge, infinite or negative, a range turned round, a line lost, doubled or
re-indented, a tab, an unclosed bracket or quote, deep nesting, an alias bomb, a recursive
alias, a tag, a file cut short, a text or a key replaced (a hex off the map, a path out of
the folder, a key that belongs elsewhere), more values than a file may hold, or a FIFO in the
file's place. `iceditor validate` must answer every one with exit 0, 1 or 2
and a message, never exit 3 (internal error), a traceback, or a hang.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from iceditor.cli import main

NUMBER = re.compile(r"(?<![\w.\"'])-?\d+(?:\.\d+)?(?![\w.\"'])")
PAIR = re.compile(r"\[(\d+), (\d+)\]")
HOSTILE_NUMBERS = ["1.0e+400", ".inf", "-.inf", ".nan", "-1", "-7", "0", str(2**63), "1" + "0" * 400, "9" * 5000, "0.5"]
HOSTILE_TOKENS = ["\t", ":", ": ", "{", "[", "}", "]", "'", '"', "&a ", "*a", "- ", "#", "%", "@", "`", "|", ">", "? "]
HOSTILE_TOKENS += ["<<: ", "!!python/object/apply:os.system "]


def _replace_one(
    rng: random.Random, text: str, pattern: re.Pattern[str], new: Callable[[re.Match[str]], str], group: int = 0
) -> str:
    """`text` with one match of `pattern` (its `group`), chosen at random, replaced by `new(match)`."""
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    return text[: m.start(group)] + new(m) + text[m.end(group) :]


def _number(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, NUMBER, lambda m: rng.choice(HOSTILE_NUMBERS))


def _range(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, PAIR, lambda m: f"[{m.group(2)}, {m.group(1)}]")


def _lines(rng: random.Random, text: str) -> str:
    lines = text.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines[i] = " " * rng.choice((1, 2, 3)) + lines[i]
    else:
        lines[i] = lines[i].lstrip(" ")
    return "".join(lines)


def _token(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(HOSTILE_TOKENS) + text[i:]


def _nesting(rng: random.Random, text: str) -> str:
    depth = rng.choice((30, 60, 500, 5000, 50000))
    value = rng.choice(("[" * depth + "]" * depth, "{a: " * depth + "1" + "}" * depth))
    return text.rstrip("\n") + f"\nnested: {value}\n"


def _aliases(rng: random.Random, text: str) -> str:
    if rng.random() < 0.5:
        bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
            bomb += f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n"
        return text.rstrip("\n") + "\n" + bomb
    if rng.random() < 0.5:  # each anchored value within the nesting limit, stacked past it by aliases
        deep = "d0: &d0 " + "[" * 30 + "]" * 30 + "\n"
        deep += "".join(f"d{i}: &d{i} " + "[" * 30 + f"*d{i - 1}" + "]" * 30 + "\n" for i in range(1, 40))
        return text.rstrip("\n") + "\n" + deep
    return text.rstrip("\n") + "\nself: &s [1, *s]\n"


QUOTED = re.compile(r'"[^"\n]*"')
HOSTILE_STRINGS = ['"9999"', '"0000"', '""', '"4307"', '"x"', '"../../../../etc/passwd"', '"/dev/zero"']
HOSTILE_STRINGS.append('"' + "y" * 3000 + '"')
KEY = re.compile(r"^(\s*)([a-z_]+):", re.MULTILINE)


def _string(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, QUOTED, lambda m: rng.choice(HOSTILE_STRINGS))


def _key(rng: random.Random, text: str) -> str:
    return _replace_one(rng, text, KEY, lambda m: rng.choice(("zone", "hexes", "any_of", "unit", "turn", "x")), 2)


def _values(rng: random.Random, text: str) -> str:
    """A value-count bomb: more list items than a file may hold (MAX_VALUES), or just fewer."""
    count = rng.choice((40_000, 60_000, 1_000_000))
    items = "\n" + "- 1\n" * count if rng.random() < 0.5 else " [" + "1, " * count + "1]\n"
    return text.rstrip("\n") + "\nbomb:" + items


def _fifo(rng: random.Random, text: str) -> str:
    """The file is a FIFO no one writes (validate_mutant makes it one): it is refused, never waited on."""
    return text


def _cut(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(len(text) + 1)]


MUTATIONS: dict[str, Callable[[random.Random, str], str]] = {
    "number": _number,
    "range": _range,
    "line": _lines,
    "token": _token,
    "nesting": _nesting,
    "aliases": _aliases,
    "cut": _cut,
    "string": _string,
    "key": _key,
    "values": _values,
    "fifo": _fifo,
}


@dataclass(frozen=True)
class Mutant:
    source: Path  # the bundled file it was made from
    mutation: str
    text: str


def mutants(sources: list[Path], count: int, seed: int, leave_out: tuple[str, ...] = ()) -> Iterator[Mutant]:
    """`count` mutants of the files, the same for the same seed; one to three mutations each (of
    MUTATIONS but those left out)."""
    rng = random.Random(seed)
    allowed = [name for name in MUTATIONS if name not in leave_out]
    texts = {path: path.read_text(encoding="utf-8") for path in sources}
    for _ in range(count):
        source = rng.choice(sources)
        text, names = texts[source], []
        for _ in range(rng.choice((1, 1, 2, 3))):
            name = rng.choice(allowed)
            text = MUTATIONS[name](rng, text)
            names.append(name)
        yield Mutant(source, "+".join(names), text)


@dataclass(frozen=True)
class Outcome:
    status: int
    output: str  # stdout and stderr together


def validate_mutant(mutant: Mutant, folder: Path) -> Outcome:
    """`iceditor validate` on the mutant, written beside copies of the maps it may name."""
    path = folder / mutant.source.name
    fifo = "fifo" in mutant.mutation.split("+")
    if fifo:
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    else:
        path.write_text(mutant.text, encoding="utf-8")
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = main(["validate", str(path)])
    finally:
        if fifo:  # the next mutant of this file is written, not waited on
            path.unlink()
    return Outcome(status, out.getvalue())
