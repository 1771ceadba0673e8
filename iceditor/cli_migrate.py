"""`iceditor migrate`: upgrade format 1 scenario files to format 2 (engine/model/migrate.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine.file_writing import atomic_write
from engine.model.counters import bundled_counters
from engine.model.load_errors import LoadError, load_failure
from engine.model.migrate import Migration, migrate_scenario
from engine.model.schema import schema_name
from engine.model.source import SourceError, parse_yaml, read_text
from engine.terminal_text import data_output

from .boardarg import BadInput


def add_parsers(commands: Any) -> None:
    migrate = commands.add_parser(
        "migrate",
        description=(
            "Rewrite each FILE (a format 1 scenario) as format 2, changing only the format line and the ammo "
            "numbers format 2 asks about (docs/formats.md); comments and layout are kept. Files already in "
            "format 2 are left untouched."
        ),
    )
    migrate.add_argument("files", nargs="+", type=Path, metavar="FILE")
    how = migrate.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file needs migrating")
    how.add_argument("--stdout", action="store_true", help="print the migrated text of one FILE, write nothing")


def run(args: argparse.Namespace) -> int | None:
    if args.command != "migrate":
        return None
    if args.stdout and len(args.files) != 1:
        raise BadInput("iceditor migrate: error: --stdout takes one FILE")
    pending = 0
    for path in args.files:
        migration = _migrated(path)
        if args.stdout:
            data_output().write(migration.text)
            return 0
        if not migration.changes:
            print(f"{path}: already format 2")
            continue
        pending += 1
        if args.check:
            print(f"{path}: needs migrating ({len(migration.changes)} changes):")
        else:
            written = atomic_write(path, migration.text)
            print(f"{path}: migrated to format 2 ({len(migration.changes)} changes), wrote {written}:")
        for change in migration.changes:
            print(f"  {change.describe()}")
    return 1 if args.check and pending else 0


def _migrated(path: Path) -> Migration:
    try:
        text = read_text(path)
        doc = parse_yaml(text, str(path))
        if schema_name(doc) != "scenario":
            raise BadInput(f"{path}: error: not a scenario file (its first key is not format: iron-cross-scenario/1)")
        return migrate_scenario(doc, text, bundled_counters())
    except (SourceError, LoadError) as exc:
        raise BadInput(f"{load_failure(path, exc)}\n{path}: not migrated: fix the file first") from None
