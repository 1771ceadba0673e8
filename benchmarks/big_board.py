"""Synthetic boards for scaling figures: Maps 1 and 2 (Scenario 6's board) tiled `n` x `n`.

    python benchmarks/big_board.py [--tiles 2] [--out DIR]

Writes DIR/board.yaml (one map, columns 10..10+40n, rows 1..27n: the two maps as printed,
copied side by side and one above the other) and DIR/scenario.yaml (the Hill P example's
forces and victory, set on Hill J of the first copy). `--tiles 1` is Maps 1 and 2 as one
file: the 1x board of the same scenario, so 1x and 4x differ only in the board's size.
Copies shift by an even number of columns, so every copy keeps the printed sheet's hex shapes;
a later copy drops its first column (it lands on the previous copy's last). Each copy's
buildings and hills get their own names, its roads and bridges come along. Both files pass
`iceditor validate` (errata off: the printed errata name the printed maps' hexes).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import yaml

from engine.hexgrid import hex_to_offset, parse_label
from engine.resources import data_path

FIRST_COLUMN, LAST_COLUMN, ROWS = 10, 50, 27
WIDTH = LAST_COLUMN - FIRST_COLUMN  # columns one copy adds: the copies overlap by one column


def _shifted(label: str, copy: tuple[int, int]) -> str | None:
    """The label of hex `label` in copy (i, j), None when that copy drops its column."""
    column, row = hex_to_offset(parse_label(label))
    i, j = copy
    if i and column == FIRST_COLUMN:
        return None
    return f"{column + WIDTH * i:02d}{row + ROWS * j:02d}"


def _renamed(keys: dict[str, Any], copy: tuple[int, int]) -> dict[str, Any]:
    if copy == (0, 0):
        return keys
    tag = f"{copy[0]}{copy[1]}"
    out = dict(keys)
    for key in ("building", "hill"):
        if key in out:
            out[key] = f"{out[key]}{tag}"
    return out


def board_document(tiles: int) -> dict[str, Any]:
    """The map file's data: Maps 1 and 2 tiled `tiles` x `tiles`."""
    sheets = [yaml.safe_load(data_path("maps", f"{name}.yaml").read_text()) for name in ("map1", "map2")]
    copies = [(i, j) for j in range(tiles) for i in range(tiles)]
    hexes: dict[str, Any] = {}
    roads: list[list[str]] = []
    bridges: list[str] = []
    for copy in copies:
        for sheet in sheets:
            for label, keys in (sheet.get("hexes") or {}).items():
                if (moved := _shifted(label, copy)) is not None:
                    hexes[moved] = _renamed(keys, copy)
            for road in sheet.get("roads") or []:
                run: list[str] = []
                for label in road:  # a dropped column cuts the road: each run on its own
                    if (moved := _shifted(label, copy)) is None:
                        roads += [run] if len(run) > 1 else []
                        run = []
                    else:
                        run.append(moved)
                roads += [run] if len(run) > 1 else []
            bridges += [m for b in sheet.get("bridges") or [] if (m := _shifted(b, copy)) is not None]
    return {
        "format": "iron-cross-map/1",
        "name": f"Maps 1 and 2, {tiles} x {tiles}",
        "provenance": {"assumed": "synthetic: the bundled Maps 1 and 2 tiled, for benchmarks only"},
        "grid": {"columns": [FIRST_COLUMN, LAST_COLUMN + WIDTH * (tiles - 1)], "rows": [1, ROWS * tiles]},
        "hexes": hexes,
        "roads": roads,
        "bridges": sorted(set(bridges)),
    }


def scenario_document() -> dict[str, Any]:
    """The Hill P example's scenario, on board.yaml and Hill J (Map 2 as printed)."""
    doc: dict[str, Any] = yaml.safe_load(data_path("scenarios", "examples", "hill-p-counterattack.yaml").read_text())
    doc["title"] = "Counterattack at Hill J (synthetic board)"
    doc["maps"] = ["board.yaml"]
    doc["errata"] = False
    doc["north"] = {"hex": "5002", "toward": "5001"}
    text = yaml.safe_dump(doc, sort_keys=False).replace("hill: P", "hill: J").replace("Hill P", "Hill J")
    out: dict[str, Any] = yaml.safe_load(text)
    return out


def write_board(tiles: int, folder: Path) -> Path:
    """Write board.yaml and scenario.yaml into `folder`; the scenario's path."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "board.yaml").write_text(yaml.safe_dump(board_document(tiles), sort_keys=False))
    scenario = folder / "scenario.yaml"
    scenario.write_text(yaml.safe_dump(scenario_document(), sort_keys=False))
    return scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    print(write_board(args.tiles, args.out or Path(tempfile.mkdtemp(prefix="big-board-"))))


if __name__ == "__main__":
    main()
