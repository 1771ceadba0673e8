"""Saving a file keeps every line that was not edited byte for byte.

The round-trip YAML writer keeps comments and key order but writes some things its own way (a
long flow mapping or a road list wrapped at another column). So a save does not write the
writer's text as is: it takes the writer's text of the file as read (`baseline`) and of the
edited document (`edited`), and applies the lines that changed between those two to the file
as it was read (`original`), a three-way merge. Where an edit falls on lines the writer words
differently (a road list it re-wraps), the edited lines are written the writer's way; all other
lines stay as the user wrote them, and a document edited back to how it was read saves the
original bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher


def keep_unedited_lines(original: str, baseline: str, edited: str) -> str:
    """`original` with the changes that turn `baseline` into `edited`; where those fall on lines
    the writer words differently from `original`, the edited lines.

    >>> keep_unedited_lines("a: [1,  2]\\nb: 3\\n", "a: [1, 2]\\nb: 3\\n", "a: [1, 2]\\nb: 4\\n")
    'a: [1,  2]\\nb: 4\\n'
    """
    if edited == baseline:
        return original
    if original == baseline:
        return edited
    o, b, e = (text.splitlines(keepends=True) for text in (original, baseline, edited))
    theirs, ours = _opcodes(b, o), _opcodes(b, e)
    hunks = sorted(
        [(i1, i2, False) for tag, i1, i2, _, _ in theirs if tag != "equal"]
        + [(i1, i2, True) for tag, i1, i2, _, _ in ours if tag != "equal"]
    )
    out: list[str] = []
    done = 0  # baseline lines dealt with
    n = 0
    while n < len(hunks):
        lo, hi, edit = hunks[n]
        n += 1
        # overlapping hunks, or two insertions at one place (their order unknown), are one group
        while n < len(hunks) and (hunks[n][0] < hi or lo == hi == hunks[n][0] == hunks[n][1]):
            hi, edit = max(hi, hunks[n][1]), edit or hunks[n][2]
            n += 1
        out += b[done:lo]  # the same in all three
        if edit:
            first, last = _span(ours, lo, hi)
            out += e[first:last]
        else:
            first, last = _span(theirs, lo, hi)
            out += o[first:last]
        done = hi
    out += b[done:]
    return "".join(out)


Opcodes = Sequence[tuple[str, int, int, int, int]]


def _opcodes(a: list[str], b: list[str]) -> Opcodes:
    return SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


def _span(opcodes: Opcodes, lo: int, hi: int) -> tuple[int, int]:
    """The lines that baseline lines `lo:hi` became on the other side (the group's hunks are whole)."""
    starts, ends = [], []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            if i1 <= lo <= i2:
                starts.append(j1 + lo - i1)
            if i1 <= hi <= i2:
                ends.append(j1 + hi - i1)
        elif lo <= i1 and i2 <= hi:
            starts.append(j1)
            ends.append(j2)
    return min(starts), max(ends)
