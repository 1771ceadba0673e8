"""The line tables of boards and their bare terrain's sight matrices, kept on disk between processes
(issue 22: a scenario's first game, validation, errata impact and the editor's first LOS no longer
build the table, or the all-pairs matrix, of a board seen before).

A table depends only on the board's hexes, the LOS values of the rule tables (SightTerrain) and
the code that builds it, so that is its key: a changed map layout, rule table or the code of
line_table.py, ragged.py, building_symbols.py, lattice.py or sight.py is a new key, never a
stale table. A matrix adds the terrain arrays it is worked from, the firer's state and
los_kernel.py. Files are plain numpy arrays
(`np.load(allow_pickle=False)`: data, never code), written atomically, one file a key, in
engine/cache_folder.py's folder. A file that cannot be read or written is ignored: the table or
matrix is built as if there were none."""

from __future__ import annotations

import hashlib
import io
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.cache_folder import cache_folder
from engine.file_writing import atomic_write
from engine.hexgrid import Hex

from . import building_symbols, lattice, line_table, ragged, sight
from .line_table import DeltaTable
from .sight import FirerState, SightTerrain

if TYPE_CHECKING:
    from .los_kernel import SightKernel

_SCALARS = ("grid_shape",)  # a tuple of ints; every other field is an array or a dict of arrays


@cache
def _code_version() -> str:
    """The code that builds a table: the lines (line_table, its ragged arrays and the Building
    symbol's parts), the lattice they are walked on, and the LOS values' derived scale (sight); a
    change to any of them is a new key."""
    digest = hashlib.sha256()
    for module in (line_table, ragged, building_symbols, lattice, sight):
        digest.update(Path(str(module.__file__)).read_bytes())  # modules of files: never None
    return digest.hexdigest()[:16]


def table_key(order: Sequence[Hex], terrain: SightTerrain) -> str:
    digest = hashlib.sha256(_code_version().encode())
    digest.update(repr(terrain).encode())
    digest.update(np.array([[h.q, h.r] for h in order], dtype=np.int64).tobytes())
    return digest.hexdigest()[:32]


def _to_arrays(table: DeltaTable) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for f in fields(table):
        value = getattr(table, f.name)
        if isinstance(value, dict):
            out.update({f"{f.name}.{k}": v for k, v in value.items()})
        else:
            out[f.name] = np.asarray(value, dtype=np.int64) if f.name in _SCALARS else value
    return out


def _from_arrays(arrays: dict[str, np.ndarray]) -> DeltaTable:
    given: dict[str, object] = {}
    for f in fields(DeltaTable):
        if f.name in arrays:
            value = arrays[f.name]
            given[f.name] = tuple(int(x) for x in value) if f.name in _SCALARS else value
        else:
            prefix = f"{f.name}."
            given[f.name] = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
    return DeltaTable(**given)  # type: ignore[arg-type]


def kept_table(
    order: Sequence[Hex], terrain: SightTerrain, build: Callable[[Sequence[Hex], SightTerrain], DeltaTable]
) -> DeltaTable:
    """The table of these hexes, from the cache when it holds it, else built and kept."""
    folder = cache_folder()
    if folder is None:
        return build(order, terrain)
    path = folder / f"lines-{table_key(order, terrain)}.npz"
    stored = _read(path)
    if stored is not None:
        try:
            return _from_arrays(stored)
        except (KeyError, TypeError, ValueError):
            pass  # not a table of this code's making: built again below
    table = build(order, terrain)
    _write(path, _to_arrays(table))
    return table


def kept_matrix(kernel: SightKernel, firer: FirerState) -> np.ndarray:
    """`kernel.matrix(firer)`, the bare terrain's all-pairs blocked matrix, from the cache when it
    holds it (a scenario's first fire phase built it in 1.2 s on Scenario 6), else built and kept.
    Its key is the table's and the terrain arrays the matrix is worked from, the firer's state and
    the kernel's code. A board with a hex of its own footprint is built each time: its lines are
    tested against shapes the arrays do not hold."""
    folder = cache_folder()
    arrays = kernel.arrays()
    if folder is None or arrays.custom.any():
        return kernel.matrix(firer)
    code = _code_of(type(kernel).__module__)
    digest = hashlib.sha256(f"{table_key(kernel.order, kernel.terrain)} {code} {firer.value}".encode())
    for f in fields(arrays):
        if f.init:  # the terrain columns; not what is worked out of them
            digest.update(f.name.encode() + np.ascontiguousarray(getattr(arrays, f.name), dtype=np.int64).tobytes())
    path = folder / f"sight-{digest.hexdigest()[:32]}.npz"
    n = len(kernel.order)
    stored = _read(path)
    packed = None if stored is None else stored.get("blocked")
    if packed is not None and packed.dtype == np.uint8 and packed.shape == ((n * n + 7) // 8,):
        return np.unpackbits(packed, count=n * n).view(np.bool_).reshape(n, n)
    matrix = kernel.matrix(firer)
    _write(path, {"blocked": np.packbits(matrix)})
    return matrix


@cache
def _code_of(module: str) -> str:
    return hashlib.sha256(Path(str(sys.modules[module].__file__)).read_bytes()).hexdigest()[:16]


def _read(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of a file of ours; None when there is none or it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None


def _write(path: Path, arrays: dict[str, np.ndarray]) -> None:
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, buffer.getvalue())
    except OSError:
        pass  # a cache that cannot be written is no cache, never an error
