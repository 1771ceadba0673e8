"""A batch as a folder: DIR/scenario.yaml (what is played), DIR/batch.json (how), and the list of
its games. The same command on the same folder resumes it: the games already finished are not played
again, and a folder holding another batch is refused rather than mixed with it."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write
from engine.game import ScenarioNotPlayable, new_game
from engine.model.board import resolve_errata_path, resolve_map_path
from engine.model.counters import SIDES
from engine.model.load_errors import LOAD_FAILURES, load_failure
from engine.model.scenario import scenario_from_document
from engine.model.source import SourceDocument
from engine.resources import data_path
from engine.terminal_text import PATH_LIMIT, shown

from .games import GameTask, side_players
from .scenario_file import played_data, scenario_text

BATCH_FORMAT = "iron-cross-batch/1"
# The files a batch writes in its folder besides its plots (*.png), its games (games/) and the
# copies of its maps: plan.py, report.py, html.py.
WRITTEN = ("scenario.yaml", "batch.json", "report.json", "games.csv", "report.html")


class BatchError(ValueError):
    """A batch that cannot be played as asked: the message names the file or option and why."""


@dataclass(frozen=True)
class BatchSpec:
    games: int
    players: tuple[str, str]  # by side, in SIDES order
    swap: bool = False  # every second game with the players exchanged
    seed: int = 0  # game i's seed is seed + i
    given_setup: bool = False  # R265: play from the file's test `setup:`
    max_actions: int = 1_000_000
    advanced: bool = False  # the advanced rules (21.0-23.0, R319); batch.json says so only when on

    def players_of(self, i: int) -> tuple[str, str]:
        german, russian = self.players
        return (russian, german) if self.swap and i % 2 == 1 else (german, russian)


def prepare(
    doc: SourceDocument, spec: BatchSpec, out: Path, *, path: str | None = None, value: Any = None
) -> list[GameTask]:
    """Write the batch's scenario and settings to `out` (checking both can be played, and that `out`
    holds no other batch) and return its games. BatchError with the reason otherwise."""
    if spec.games < 1:
        raise BatchError(f"--games {spec.games}: a batch plays at least one game")
    if len(spec.players) != len(SIDES):
        raise BatchError(f"--players names {len(SIDES)} players, {' then '.join(SIDES)}")
    for name in set(spec.players):
        try:
            side_players((name, name), 0)
        except ValueError as exc:
            raise BatchError(f"--players: {exc}") from None
    out = out.resolve()
    target = out / "scenario.yaml"
    note = "" if spec.given_setup else ", without its test set-up (R265)"
    if path is not None:
        note += f", with {path} = {json.dumps(value)}"
    data = played_data(doc, given_setup=spec.given_setup, path=path, value=value)
    maps, errata = _inputs(data, Path(doc.file).parent)
    carried = [found for name, found in maps if not _bundled(found, name)]
    _refuse_inputs(out, Path(doc.file), [*carried, *([errata] if errata is not None else [])])
    text = scenario_text(_carry_files(data, maps, errata, out), doc.file, note)
    try:
        _check_playable(text, target)
    except BatchError:
        atomic_write(target, text)  # the message's lines are this file's: left there to read
        raise
    settings = {
        "format": BATCH_FORMAT,
        "source": doc.file,
        "scenario_sha256": hashlib.sha256(text.encode()).hexdigest(),
        "vary": {"path": path, "value": value} if path is not None else None,
        **{k: v for k, v in asdict(spec).items() if k != "games" and (k != "advanced" or v)},
        "players": list(spec.players),
    }
    _claim(out, settings)
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        atomic_write(target, text)
    atomic_write(out / "batch.json", json.dumps({**settings, "games": spec.games}, indent=1, sort_keys=True) + "\n")
    return [
        GameTask(f"g{i:05d}", str(target), spec.seed + i, spec.players_of(i), str(out), spec.max_actions, spec.advanced)
        for i in range(spec.games)
    ]


def _inputs(data: Any, folder: Path) -> tuple[list[tuple[str, Path]], Path | None]:
    """The maps the scenario names (each name and the file found for it) and its errata file."""
    if not isinstance(data, dict):
        return [], None
    try:
        maps = [(str(name), resolve_map_path(str(name), folder)) for name in data.get("maps") or []]
        errata = data.get("errata", True)
        return maps, resolve_errata_path(errata, folder) if isinstance(errata, str) else None
    except LOAD_FAILURES as exc:
        raise BatchError(load_failure(Path(folder), exc)) from None


def _refuse_inputs(out: Path, scenario: Path, carried: list[Path]) -> None:
    """BatchError, before anything is written, if the batch would write over a file it reads (its
    scenario, maps, errata), however the paths are spelled: DIR/scenario.yaml, batch.json, a report,
    a plot, a game in DIR/games, or the copy of a map in DIR that is another file of the same name."""
    folder, games = os.path.realpath(out), os.path.realpath(out / "games")
    copies = {found.name: os.path.realpath(found) for found in carried}  # DIR/NAME: the copy of that file
    for given in (scenario, *carried):
        real = os.path.realpath(given)
        where, name = os.path.dirname(real), os.path.basename(real)
        written = name in WRITTEN or name.endswith(".png") or copies.get(name, real) != real
        if where == games or (where == folder and written):
            raise BatchError(
                f"--out {shown(out, PATH_LIMIT)}: not written: the batch would write over "
                f"{shown(given, PATH_LIMIT)}, a file this command reads; give the batch a folder of its own"
            )


def refuse_summaries(out: Path, names: Sequence[str], docs: Sequence[SourceDocument]) -> None:
    """BatchError, before anything is played, if a sweep's or a compare's own files at the top of
    DIR (`names`: sweep.json, compare.html...) would be a file one of its scenarios reads (the
    scenario, a map, the errata), however the paths are spelled (issue 24)."""
    for doc in docs:
        maps, errata = _inputs(doc.data, Path(doc.file).parent)
        reads = [Path(doc.file), *(found for _, found in maps), *([errata] if errata is not None else [])]
        for name in names:
            for given in reads:
                if os.path.realpath(given) == os.path.realpath(out / name):
                    raise BatchError(
                        f"--out {shown(out, PATH_LIMIT)}: not written: {name} would write over "
                        f"{shown(given, PATH_LIMIT)}, a file this command reads; give the batch a folder of its own"
                    )


def _carry_files(data: Any, maps: list[tuple[str, Path]], errata: Path | None, out: Path) -> Any:
    """Maps and errata the scenario names as files are copied into DIR and named there, so that
    DIR/scenario.yaml reads them (a worker elsewhere sees them in the shared DIR too); bundled
    names stay names."""
    if not isinstance(data, dict):
        return data
    if maps:
        data["maps"] = [_carried(found, name, out) for name, found in maps]
    if errata is not None:
        data["errata"] = _carried(errata, str(data["errata"]), out)
    return data


def _bundled(found: Path, name: str) -> bool:
    return found.resolve() == data_path("maps", f"{name}.yaml").resolve()


def _carried(found: Path, name: str, out: Path) -> str:
    if _bundled(found, name):
        return name  # a bundled map: every installation has it
    copy = out / found.name
    text = found.read_text(encoding="utf-8")
    if not copy.is_file() or copy.read_text(encoding="utf-8") != text:
        atomic_write(copy, text)
    return found.name


def _check_playable(text: str, target: Path) -> None:
    from engine.model.source import parse_yaml

    try:
        scenario = scenario_from_document(parse_yaml(text, str(target)))
        new_game(scenario, 0)
    except ScenarioNotPlayable as exc:
        raise BatchError(f"{target} (the scenario as this batch plays it) cannot be played:\n{exc}") from None
    except LOAD_FAILURES as exc:
        raise BatchError(f"the scenario as this batch plays it cannot be played: {load_failure(target, exc)}") from None


def _claim(out: Path, settings: dict[str, Any]) -> None:
    """`out` is new, empty, or holds this same batch (then it is resumed)."""
    kept = out / "batch.json"
    if not kept.is_file():
        if out.is_dir() and (out / "games").is_dir():
            raise BatchError(f"{out}: holds games but no batch.json: not a folder of `iceditor playtest`")
        return
    try:
        before = json.loads(kept.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BatchError(f"{kept}: cannot be read ({exc}): remove the folder or pick another --out") from None
    differ = [k for k in settings if k != "source" and before.get(k) != settings[k]]
    if differ:
        raise BatchError(
            f"{out} holds another batch (its {', '.join(differ)} differ{'s' if len(differ) == 1 else ''}): "
            "pick another --out, or remove that folder to start again"
        )
