"""`iceditor list`: the bundled data, with the names every command accepts for each file from any folder."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine.model.schema import schema_name
from engine.model.source import SourceDocument, SourceError, load_yaml
from engine.resources import NAMED_DIRS, bundled_names, data_root, shown_name

from .output import print_json, print_table

# The sections, in the order a reader looks for them: the bundled errata sit among the maps (maps/errata.yaml).
SECTIONS = {
    "map": "maps:",
    "errata": "errata:",
    "scenario": "scenarios:",
    "example": "example scenarios (not printed):",
    "table": "tables:",
    "counters": "counters:",
}
KINDS = ("map", "errata", "scenario", "table", "counters")
# A file's kind is its `format:`; one without a known one is taken for the usual kind of its folder.
FOLDER_KINDS = {"maps": "map", "scenarios": "scenario", "tables": "table", "counters": "counters"}


def add_parsers(commands: Any) -> None:
    listing = commands.add_parser(
        "list",
        description=(
            "The bundled data files. Every command that reads a file also takes a bundled one by name, "
            "from any folder: map2, s1 or s1-demyansk-pocket, errata, maps/map2.yaml."
        ),
    )
    listing.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int | None:
    if args.command != "list":
        return None
    entries = bundled_entries()
    if args.format == "json":
        print_json({"data": str(data_root()), "files": entries})
        return 0
    rows: list[list[str]] = []
    for section, heading in SECTIONS.items():
        found = [["  " + ", ".join(e["names"]), e["file"], _described(e)] for e in entries if _section(e) == section]
        rows += [[heading, "", ""], *found] if found else []
    print_table(rows)
    print(f"\n(in {data_root()}) Every command that reads a file takes these names, from any folder.")
    return 0


def bundled_entries() -> list[dict[str, Any]]:
    """Each bundled file: its kind, the names it answers to (shortest first), where it is, its title;
    a scenario also its number and maps, a map its hex columns."""
    entries = []
    for folder in NAMED_DIRS:
        names: dict[Path, list[str]] = {}
        for name, path in bundled_names(folder).items():
            if not name.endswith(".yaml"):  # the file name and the data path are the entry's "file"
                names.setdefault(path, []).append(name)
        for path, short in sorted(names.items()):
            entries.append(_entry(path, sorted(short, key=len), FOLDER_KINDS[folder]))
    return sorted(entries, key=lambda e: KINDS.index(e["kind"]))


def _entry(path: Path, names: list[str], kind: str) -> dict[str, Any]:
    """One file's entry; a file edited out of shape is still listed, as far as it can be read."""
    entry: dict[str, Any] = {"kind": kind, "names": names, "file": shown_name(path), "path": str(path)}
    try:
        doc = load_yaml(path)
    except SourceError as exc:
        doc = SourceDocument(str(path), None)
        entry["problem"] = exc.message
    fields = doc.data if isinstance(doc.data, dict) else {}
    if schema_name(doc) in KINDS:
        entry["kind"] = schema_name(doc)
    entry["title"] = str(fields.get("title") or fields.get("name") or "")
    if entry["kind"] == "scenario":
        maps = fields.get("maps")
        entry["number"] = fields.get("number")
        entry["maps"] = [str(m) for m in maps] if isinstance(maps, list) else []
        entry["example"] = path.parent.name == "examples"  # a designer's example (scenarios/examples/)
    if entry["kind"] == "map":
        grid = fields.get("grid")
        entry["columns"] = grid.get("columns") if isinstance(grid, dict) else None
    return entry


def _section(entry: dict[str, Any]) -> str:
    return "example" if entry.get("example") else str(entry["kind"])


def _described(entry: dict[str, Any]) -> str:
    if "problem" in entry:
        return f"cannot be read: {entry['problem']}"
    if entry["kind"] == "scenario":
        heading = "Example" if entry["example"] else "Scenario"
        return f"{heading} {entry['number']}: {entry['title']} (on {', '.join(entry['maps'])})"
    if entry["kind"] == "map" and isinstance(entry["columns"], list) and len(entry["columns"]) == 2:
        return f"{entry['title']} (hex columns {entry['columns'][0]}-{entry['columns'][1]})"
    return str(entry["title"])
