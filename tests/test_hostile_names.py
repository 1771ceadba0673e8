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
