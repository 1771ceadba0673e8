"""What a write may replace (engine/file_writing.py, issue 24): only a regular file, or a new one.
A character device or a FIFO is written in place, the node kept; a folder or a socket is refused
with words; a path that is an input of the same command is refused however it is spelled."""

from __future__ import annotations

import os
import shutil
import socket
import stat
from pathlib import Path

import pytest

from engine.file_writing import WriteRefused, atomic_write, refuse_inputs
from iceditor.entry import main

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "game"
root_only = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")


@root_only
def test_a_character_device_is_written_in_place_and_stays_a_device(tmp_path: Path) -> None:
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # as /dev/null, in a temporary folder
    assert atomic_write(null, "log\n") == null
    assert stat.S_ISCHR(null.stat().st_mode)


@root_only
def test_a_full_device_is_refused_with_words_and_stays_a_device(tmp_path: Path) -> None:
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # as /dev/full
    with pytest.raises(WriteRefused, match="full: error: cannot be written: No space left on device"):
        atomic_write(full, "log\n")
    assert stat.S_ISCHR(full.stat().st_mode)


def test_a_fifo_no_one_reads_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(WriteRefused, match=r"a FIFO no program is reading"):
        atomic_write(fifo, "log\n")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_fifo_with_a_reader_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        atomic_write(fifo, "log\n")
        assert os.read(reader, 100) == b"log\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_socket_and_a_folder_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(WriteRefused, match=r"sock: error: is not a regular file \(a socket"):
            atomic_write(path, "log\n")
    with pytest.raises(WriteRefused, match=r": error: is a folder: name a file to write"):
        atomic_write(tmp_path, "log\n")


def test_an_input_is_refused_however_it_is_spelled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = tmp_path / "my.yaml"
    scenario.write_text("x\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.jsonl").symlink_to("my.yaml")
    monkeypatch.chdir(tmp_path)
    for spelling in ("my.yaml", "./my.yaml", "sub/../my.yaml", "link.jsonl", str(scenario)):
        with pytest.raises(WriteRefused, match="not written: it is an input"):
            refuse_inputs(Path(spelling), [scenario])
    refuse_inputs(Path("game.jsonl"), [scenario])  # another file: no complaint


def _duel(tmp_path: Path) -> Path:
    for name in ("duel.yaml", "duel-map.yaml"):
        shutil.copy(FIXTURE / name, tmp_path / name)
    return tmp_path / "duel.yaml"


def test_play_refuses_a_log_over_its_own_scenario_or_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = _duel(tmp_path)
    kept = scenario.read_text()
    monkeypatch.chdir(tmp_path)
    for log in ("duel.yaml", "./sub/../duel.yaml", "duel-map.yaml"):
        assert main(["play", "duel.yaml", "--log", log]) == 2
        err = capsys.readouterr().err
        assert "error: not written: it is a file this game reads" in err and "Traceback" not in err
    assert scenario.read_text() == kept


def test_play_refuses_a_log_that_is_a_folder_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = _duel(tmp_path)
    assert main(["play", str(scenario), "--log", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"{tmp_path}: error: is a folder: name a file to write\n"


def test_render_writes_by_the_rules_of_every_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`render --out` (and `snapshot --out`, below) write as every save does: a folder,
    a FIFO and a link to the file drawn are refused with words and exit 2; a new file is written."""
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    scenario = _duel(tmp_path)
    kept = scenario.read_text()
    (tmp_path / "folder.png").mkdir()
    os.mkfifo(tmp_path / "fifo.png")
    (tmp_path / "link.png").symlink_to(scenario)
    refusals = {
        "folder.png": "is a folder: name a file to write",
        "fifo.png": "a FIFO no program is reading",
        "link.png": "not written: it is the file drawn",
    }
    for out, words in refusals.items():
        assert main(["render", str(scenario), "--dpi", "50", "--out", str(tmp_path / out)]) == 2
        assert words in capsys.readouterr().err
    assert scenario.read_text() == kept
    assert main(["render", str(scenario), "--dpi", "50", "--out", str(tmp_path / "map.svg")]) == 0
    assert (tmp_path / "map.svg").read_text(encoding="utf-8").startswith("<?xml")


def test_a_games_snapshot_writes_by_the_same_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    scenario = _duel(tmp_path)
    (tmp_path / "folder.png").mkdir()
    log = tmp_path / "game.jsonl"
    assert main(["play", str(scenario), "--log", str(log)]) == 0
    assert main(["snapshot", str(log), "--out", str(tmp_path / "folder.png")]) == 2
    assert main(["snapshot", str(log), "--out", str(tmp_path / "game.png")]) == 0
    assert (tmp_path / "game.png").read_bytes()[:4] == b"\x89PNG"


def test_playtest_out_that_is_a_file_is_refused_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = _duel(tmp_path)
    kept = scenario.read_text()
    assert main(["playtest", str(scenario), "--games", "1", "--no-progress", "--out", str(scenario)]) == 2
    assert "error: cannot be written: Not a directory" in capsys.readouterr().err
    assert scenario.read_text() == kept


@pytest.mark.parametrize(
    ("inputs", "scenario_name", "map_name", "out"),
    [
        (".", "scenario.yaml", "duel-map.yaml", "."),  # DIR/scenario.yaml would be the scenario
        (".", "scenario.yaml", "duel-map.yaml", "link"),  # the same, DIR through a link
        ("games", "s.yaml", "duel-map.yaml", "games/sub/../.."),  # DIR/games, where the games go
        (".", "report.json", "duel-map.yaml", "./"),  # the batch's report
        (".", "s.yaml", "batch.json", "."),  # a map the batch's settings would replace
        (".", "s.yaml", "length.png", "."),  # a map a plot would replace
    ],
)
def test_playtest_out_whose_files_would_be_its_inputs_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inputs: str, scenario_name: str, map_name: str, out: str
) -> None:
    """The batch's folder is checked against the command's inputs by their real paths, as `play
    --log` is: a folder whose DIR/scenario.yaml, batch.json, report, plots or games/ would be the
    scenario or one of its maps is refused with words (exit 2), before anything is written."""
    folder = tmp_path / inputs
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path)
    scenario = _duel_named(folder, scenario_name, map_name)
    kept = {path: path.read_bytes() for path in folder.iterdir() if path.is_file()}
    assert main(["playtest", str(scenario), "--games", "1", "--no-progress", "--out", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err
    assert "not written: the batch would write over" in err and "a file this command reads" in err, err
    assert {path: path.read_bytes() for path in folder.iterdir() if path.is_file()} == kept


def test_playtest_out_beside_its_scenario_is_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder that holds the scenario and its map under names the batch does not write is no
    input written over: the map's copy there is the map itself."""
    scenario = _duel(tmp_path)
    from engine.batch.plan import BatchSpec, prepare
    from engine.model.source import load_yaml

    tasks = prepare(load_yaml(scenario), BatchSpec(1, ("random", "random")), tmp_path)
    assert len(tasks) == 1 and (tmp_path / "scenario.yaml").is_file() and (tmp_path / "duel-map.yaml").is_file()


def _duel_named(folder: Path, scenario_name: str, map_name: str) -> Path:
    """The duel fixture in `folder`, the scenario and its map under the names given."""
    shutil.copy(FIXTURE / "duel-map.yaml", folder / map_name)
    scenario = folder / scenario_name
    scenario.write_text(
        (FIXTURE / "duel.yaml").read_text(encoding="utf-8").replace("[duel-map.yaml]", f"[{map_name}]"),
        encoding="utf-8",
    )
    return scenario


@pytest.mark.parametrize(
    ("scenario_name", "map_name", "command"),
    [
        ("sweep.json", "duel-map.yaml", ["--vary", "turns=2,3"]),  # the sweep's summary
        ("s.yaml", "sweep.png", ["--vary", "turns=2,3"]),  # a map the sweep's plot would replace
        ("compare.html", "duel-map.yaml", ["compare"]),  # the compare's report
    ],
)
def test_a_sweep_or_compare_whose_summary_would_be_an_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario_name: str, map_name: str, command: list[str]
) -> None:
    """Issue 24: `--vary` and `compare` write their own files at the top of DIR (sweep.json,
    sweep.html, sweep.png; compare.json, compare.html): checked against the inputs as the batch's
    are, before a game is played."""
    scenario = _duel_named(tmp_path, scenario_name, map_name)
    kept = {path: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()}
    if command == ["compare"]:
        other = tmp_path / "other.yaml"
        other.write_bytes(scenario.read_bytes())
        kept[other] = other.read_bytes()
        argv = ["playtest", "compare", str(scenario), str(other)]
    else:
        argv = ["playtest", str(scenario), *command]
    assert main([*argv, "--games", "1", "--no-progress", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "would write over" in err and "a file this command reads" in err, err
    assert {path: path.read_bytes() for path in tmp_path.iterdir() if path.is_file()} == kept
    assert not (tmp_path / "games").exists()
