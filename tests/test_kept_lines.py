"""The three-way merge that keeps a file's unedited lines byte for byte (iceditor/editor/kept_lines.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from iceditor.editor.kept_lines import keep_unedited_lines

LINES = st.lists(st.sampled_from(["a: 1\n", "b: [1, 2]\n", "# note\n", "\n", "c: {x: 1}\n"]), max_size=12)


@settings(max_examples=60)
@given(original=LINES, baseline=LINES)
def test_nothing_edited_gives_the_original_bytes(original: list[str], baseline: list[str]) -> None:
    o, b = "".join(original), "".join(baseline)
    assert keep_unedited_lines(o, b, b) == o


@settings(max_examples=60)
@given(theirs=LINES, was_before=LINES, was_after=LINES, ours=LINES)
def test_the_user_s_lines_and_the_edit_both_stand_when_a_shared_line_parts_them(
    theirs: list[str], was_before: list[str], was_after: list[str], ours: list[str]
) -> None:
    """The file as read differs from the writer's text before a line all three share, the edit
    after it: the result has the file's lines before it and the edit's after."""
    shared = "# the line between\n"
    original = "".join(theirs) + shared + "".join(was_after)
    baseline = "".join(was_before) + shared + "".join(was_after)
    edited = "".join(was_before) + shared + "".join(ours)
    assert keep_unedited_lines(original, baseline, edited) == "".join(theirs) + shared + "".join(ours)


@settings(max_examples=60)
@given(
    head=st.lists(st.sampled_from(["k1: 1\n", "k2: 2\n"]), min_size=1, max_size=4),
    tail=st.lists(st.sampled_from(["z1: 1\n", "z2: 2\n"]), min_size=1, max_size=4),
    edit=st.sampled_from(["k1: 9\n", "new: 1\n", ""]),
)
def test_an_edit_away_from_a_rewrapped_line_keeps_the_user_s_wrapping(
    head: list[str], tail: list[str], edit: str
) -> None:
    """The writer joins a wrapped list onto one line; an edit elsewhere leaves it as the user wrapped it."""
    wrapped, joined = "roads: [1,\n        2]\n", "roads: [1, 2]\n"
    stable = "# ---\n"
    original = "".join(head) + stable + wrapped + stable + "".join(tail)
    baseline = "".join(head) + stable + joined + stable + "".join(tail)
    edited = "".join(head[:-1]) + edit + stable + joined + stable + "".join(tail)
    assert keep_unedited_lines(original, baseline, edited) == "".join(
        head[:-1]
    ) + edit + stable + wrapped + stable + "".join(tail)


def test_an_edit_of_a_rewrapped_line_is_written_the_writer_s_way() -> None:
    original = "a: 1\nroads: [1,\n        2]\nb: 2\n"
    baseline = "a: 1\nroads: [1, 2]\nb: 2\n"
    assert keep_unedited_lines(original, baseline, "a: 1\nroads: [1, 2, 3]\nb: 2\n") == "a: 1\nroads: [1, 2, 3]\nb: 2\n"
