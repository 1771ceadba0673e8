"""Validation verdicts kept on disk between processes (issue 22: `iceditor validate` of files that
have not changed, and a scenario's first game, redid every check in each new process).

A verdict is kept under a key of the file's name (as given, and where it is) and text (or data),
the folders --allow-dir allows, the code that validates (every module of engine/, the schemas), the
bundled maps, tables and counters (loaded once a process: not read again for every file) and the
versions of Python and of the installed packages. With it are kept the fingerprints of
everything the checks read (engine/file_reads.py: the maps and errata a scenario names, the
folders and places they were looked for in): a verdict is used only when all of them read the
same now, so an edited map, a new file where a map was looked for, or changed code is validated
again, never answered from the cache. A file that cannot be read, is not of this version or was
cut short is no verdict; one that cannot be written is no cache, never an error.
`ICEDITOR_CACHE=off` keeps nothing (engine/cache_folder.py)."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from engine.cache_folder import cache_folder, installed_packages
from engine.file_reads import fingerprints, recording, unchanged
from engine.file_writing import atomic_write
from engine.model.map_folders import extra_folders
from engine.problems import Problem, Severity
from engine.resources import data_path

FORMAT = 1  # of the files: another format is no verdict
_DATA = (("schemas", "*.schema.json"), ("maps", "*.yaml"), ("tables", "*.yaml"), ("counters", "*.yaml"))


def kept_problems(
    kind: str,
    file: str,
    source: str,
    compute: Callable[[], list[Problem]],
    keep: Callable[[list[Problem]], bool] = lambda _: True,
) -> list[Problem]:
    """`compute()`, the problems of `file` whose text (or data's repr) is `source`, from the cache
    when it holds a verdict that still holds; else computed, and kept when `keep` says so. `kind`
    names what is validated ("validate": every check; "playable": the errors that refuse a game)."""
    folder = cache_folder()
    if folder is None:
        return compute()
    path = folder / f"verdict-{_key(kind, file, source)}.json"
    found = _read(path)
    if found is not None:
        return found
    with recording() as reads:
        problems = compute()
    if keep(problems):
        _write(path, {"format": FORMAT, "reads": fingerprints(reads), "problems": [_stored(p) for p in problems]})
    return problems


def _key(kind: str, file: str, source: str) -> str:
    digest = hashlib.sha256(_code_version().encode())
    # the file where it is (a relative name is another file from another folder) and as it is named
    for part in (kind, file, os.path.abspath(file), *map(str, extra_folders())):
        digest.update(part.encode() + b"\0")
    digest.update(source.encode())
    return digest.hexdigest()[:32]


@cache
def _code_version() -> str:
    """The code that validates: engine/'s modules, the schemas and bundled data, Python, the packages."""
    digest = hashlib.sha256(f"{FORMAT} {sys.version}".encode())
    digest.update(installed_packages().encode())
    engine = Path(__file__).resolve().parents[1]
    data = [data_path(folder).glob(pattern) for folder, pattern in _DATA]
    for path in sorted([*engine.rglob("*.py"), *(p for found in data for p in found)]):
        digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _stored(problem: Problem) -> dict[str, object]:
    data = dict(vars(problem))
    data["severity"] = problem.severity.value
    return data


def _read(path: Path) -> list[Problem] | None:
    try:
        stored = json.loads(path.read_bytes())
        if stored["format"] != FORMAT or not unchanged(stored["reads"]):
            return None
        return [Problem(**{**p, "severity": Severity(p["severity"])}) for p in stored["problems"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # none yet, or not a verdict of this code's making: validated again


def _write(path: Path, verdict: dict[str, object]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(verdict, separators=(",", ":")))
    except OSError:
        pass  # a cache that cannot be written is no cache, never an error
