"""Names and files a command did not expect (issue 24): a name too long for the system, a file that
is not ours, a map where a scenario is wanted, a title that would rewrite the terminal. Each gets
words, quoting at most about 60 characters of a value and nothing of a file that is not ours."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.terminal_text import shown
from iceditor.entry import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "game"


def _duel(tmp_path: Path, title: str | None = None) -> Path:
    shutil.copy(FIXTURE / "duel-map.yaml", tmp_path / "duel-map.yaml")
    text = (FIXTURE / "duel.yaml").read_text(encoding="utf-8")
    if title is not None:
        text = text.replace("title: Engine test", f'title: "{title}"')
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shown_escapes_control_and_bidi_characters_and_cuts_long_values() -> None:
    assert shown("a\u202eb\x1b[31mc") == "a\\u202eb\\x1b[31mc"
    assert shown("x" * 1000) == "x" * 60 + "..."
    assert shown("Demyansk Pocket") == "Demyansk Pocket"


def test_a_map_name_over_255_bytes_is_refused_with_words_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _duel(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("duel-map", "m" * 300), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "cannot be a file: File name too long" in out and "m" * 61 not in out


def test_a_file_that_is_not_ours_is_not_quoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin\n", encoding="utf-8")
    link = tmp_path / "s.yaml"
    link.symlink_to(secret)
    assert main(["zone", str(link), "x"]) == 2
    assert capsys.readouterr().err == (
        f"{link}: error: not a scenario file: this command wants a scenario "
        "(its first key is format: iron-cross-scenario/2 or /1)\n"
    )
    assert main(["los", str(link), "0101", "0202"]) == 2
    err = capsys.readouterr().err
    assert "not a map or scenario file" in err and "root:x" not in err


def test_zone_given_a_map_says_it_wants_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["zone", "map1"]) == 2
    err = capsys.readouterr().err
    assert "a map file, not a scenario file: this command wants a scenario" in err and "required property" not in err


def test_play_escapes_a_title_that_would_rewrite_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _duel(tmp_path, title="Engine \\u202etest" + "x" * 200)
    assert main(["play", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Engine \\u202etest" + "x" * 48 + "..., seed 0:") and "\u202e" not in out


HOSTILE = "Engine \u202etest \x1b[2J" + "x" * 200  # a bidi override, a clear-screen, a long tail
UNSAFE = ("\u202e", "\x1b")


def _hostile_duel(tmp_path: Path, *, error: bool = False) -> Path:
    """The duel scenario in a file whose name holds a bidi override and an escape, with a title and
    a map name that do too (and, with `error`, a set-up hex off the map)."""
    escaped_title = HOSTILE.replace("\u202e", "\\u202e").replace("\x1b", "\\e")
    text = (
        (FIXTURE / "duel.yaml").read_text(encoding="utf-8").replace("title: Engine test", f'title: "{escaped_title}"')
    )
    if error:
        text = text.replace('hex: "1107"}', 'hex: "9999"}', 1)
    (tmp_path / "duel-map.yaml").write_text(
        (FIXTURE / "duel-map.yaml")
        .read_text(encoding="utf-8")
        .replace("name: Engine test map", f'name: "{escaped_title}"'),
        encoding="utf-8",
    )
    path = tmp_path / "du\u202eel\x1b[31m.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command",
    [
        ["validate", "{s}"],
        ["validate", "--format", "github", "{s}"],
        ["zone", "{s}", "objective"],
        ["los", "{s}", "1207", "1206"],
        ["errata", "impact", "{s}"],
        ["play", "{s}", "--log", "{tmp}/g.jsonl"],
        ["turns", "{s}", "german-area", "objective", "--unit", "infantry"],
        ["zone", "{s}", "no-such-zone"],
        ["validate", "{error}"],
        ["play", "{error}"],
    ],
    ids=lambda command: "-".join(word for word in command if not word.startswith("{"))[:40],
)
def test_every_command_prints_names_escaped_and_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """A scenario's title, its map's name and its file's name as a terminal shows them in every
    command's text output: no control or bidi character reaches it, and no name runs on for more
    than about 60 characters (`xxx...`)."""
    names = {"s": str(_hostile_duel(tmp_path)), "tmp": str(tmp_path)}
    (tmp_path / "e").mkdir()
    names["error"] = str(_hostile_duel(tmp_path / "e", error=True))
    assert main([word.format(**names) for word in command]) in (0, 1, 2)
    captured = capsys.readouterr()
    printed = captured.out + captured.err
    assert printed.strip()
    assert not any(c in printed for c in UNSAFE), printed
    assert "x" * 61 not in printed, printed
    if "du" in printed:
        assert "du\\u202eel\\x1b[31m.yaml" in printed


def test_replay_prints_the_title_escaped_and_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _hostile_duel(tmp_path)
    assert main(["play", str(path), "--log", str(tmp_path / "g.jsonl")]) == 0
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "g.jsonl"), "--verify"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Engine \\u202etest \\x1b[2J" + "x" * 43 + "...: turn 2") and "\x1b" not in out
