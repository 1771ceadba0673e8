"""The line tables and sight matrices kept on disk (engine/geometry/table_cache.py, issue 22): what
is read back is what was built, its key changes with what it depends on, and a cache that is
broken, off or unwritable never changes an answer or raises."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import pytest

from engine.geometry.line_table import DeltaTable, delta_table
from engine.geometry.los_kernel import SightKernel
from engine.geometry.sight import FirerState, SightTerrain
from engine.geometry.table_cache import kept_matrix, kept_table, table_key
from engine.model.scenario import load_scenario
from engine.resources import given_or_bundled


@pytest.fixture(scope="module")
def order() -> list:  # type: ignore[type-arg]
    board = load_scenario(given_or_bundled("s1")).load_board()
    return SightKernel(board, SightTerrain.from_effects()).order


def _same(a: DeltaTable, b: DeltaTable) -> bool:
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, dict):
            if x.keys() != y.keys() or not all(np.array_equal(x[k], y[k]) and x[k].dtype == y[k].dtype for k in x):
                return False
        elif isinstance(x, tuple):
            if x != y:
                return False
        elif not (np.array_equal(x, y) and x.dtype == y.dtype):
            return False
    return True


def _counting() -> tuple[list[int], object]:
    built: list[int] = []

    def build(order, terrain):  # type: ignore[no-untyped-def]
        built.append(1)
        return delta_table(order, terrain)

    return built, build


def test_a_table_read_back_is_the_table_built(order, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    terrain = SightTerrain.from_effects()
    built, build = _counting()
    first = kept_table(order, terrain, build)  # type: ignore[arg-type]
    again = kept_table(order, terrain, build)  # type: ignore[arg-type]
    assert built == [1], "the second table came from the disk"
    assert [p.name for p in tmp_path.iterdir()] == [f"lines-{table_key(order, terrain)}.npz"]
    assert _same(first, again) and _same(again, delta_table(order, terrain))


def test_the_key_follows_the_hexes_and_the_los_values(order) -> None:
    terrain = SightTerrain.from_effects()
    key = table_key(order, terrain)
    assert key == table_key(list(order), SightTerrain.from_effects())
    assert key != table_key(order[:-1], terrain)
    assert key != table_key(order, replace(terrain, join_width=terrain.join_width + 0.01))
    assert key != table_key(order, replace(terrain, low_ground=not terrain.low_ground))


def test_a_broken_file_is_built_again(order, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    terrain = SightTerrain.from_effects()
    (tmp_path / f"lines-{table_key(order, terrain)}.npz").write_bytes(b"PK\x03\x04 not a zip")
    built, build = _counting()
    table = kept_table(order, terrain, build)  # type: ignore[arg-type]
    assert built == [1] and _same(table, delta_table(order, terrain))
    assert kept_table(order, terrain, build) is not None and built == [1], "the broken file was replaced"


def test_off_keeps_nothing(order, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    built, build = _counting()
    kept_table(order, SightTerrain.from_effects(), build)  # type: ignore[arg-type]
    kept_table(order, SightTerrain.from_effects(), build)  # type: ignore[arg-type]
    assert built == [1, 1] and not list(tmp_path.iterdir())


def test_a_folder_that_cannot_be_written_is_no_error(order, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(blocked / "cache"))
    terrain = SightTerrain.from_effects()
    assert _same(kept_table(order, terrain, delta_table), delta_table(order, terrain))


@pytest.fixture(scope="module")
def kernel() -> SightKernel:
    return SightKernel(load_scenario(given_or_bundled("s1")).load_board(), SightTerrain.from_effects())


def _counting_matrices(kernel: SightKernel, monkeypatch: pytest.MonkeyPatch) -> list[FirerState]:
    built: list[FirerState] = []
    build = SightKernel.matrix

    def counted(self: SightKernel, firer: FirerState = FirerState.UP) -> np.ndarray:
        built.append(firer)
        return build(self, firer)

    monkeypatch.setattr(SightKernel, "matrix", counted)
    return built


def test_a_sight_matrix_read_back_is_the_matrix_built(
    kernel: SightKernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    built = _counting_matrices(kernel, monkeypatch)
    up, down = kept_matrix(kernel, FirerState.UP), kept_matrix(kernel, FirerState.DOWN)
    assert built == [FirerState.UP, FirerState.DOWN] and not np.array_equal(up, down)
    again = kept_matrix(kernel, FirerState.UP)
    assert built == [FirerState.UP, FirerState.DOWN], "the second matrix came from the disk"
    assert again.dtype == np.bool_ and np.array_equal(again, up) and np.array_equal(up, kernel.matrix(FirerState.UP))
    assert len(list(tmp_path.glob("sight-*.npz"))) == 2, "one file a firer state"


def test_a_sight_matrix_follows_the_terrain(
    kernel: SightKernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board whose terrain differs (one more Tree symbol: 10.31 b) is another key."""
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    kept_matrix(kernel, FirerState.UP)
    board = load_scenario(given_or_bundled("s1")).load_board()
    h = next(h for h in kernel.order if board.terrain(h).trees == 0 and board.terrain(h).building is None)
    board.terrain_map[h] = replace(board.terrain(h), trees=2)
    other = SightKernel(board, kernel.terrain)
    built = _counting_matrices(kernel, monkeypatch)
    assert np.array_equal(kept_matrix(other, FirerState.UP), other.matrix(FirerState.UP))
    assert built[:1] == [FirerState.UP], "built for the changed board, not read from the first one's file"


def test_a_broken_or_wrong_sight_matrix_is_built_again(
    kernel: SightKernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    expected = kept_matrix(kernel, FirerState.UP)
    (path,) = tmp_path.glob("sight-*.npz")
    for broken in (b"PK\x03\x04 not a zip", b""):
        path.write_bytes(broken)
        built = _counting_matrices(kernel, monkeypatch)
        assert np.array_equal(kept_matrix(kernel, FirerState.UP), expected) and built == [FirerState.UP]
    np.savez(path, blocked=np.zeros(3, dtype=np.uint8))  # a matrix of another size
    built = _counting_matrices(kernel, monkeypatch)
    assert np.array_equal(kept_matrix(kernel, FirerState.UP), expected) and built == [FirerState.UP]


def test_a_sight_matrix_off_or_unwritable_is_built_each_time(
    kernel: SightKernel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(blocked / "cache"))
    built = _counting_matrices(kernel, monkeypatch)
    kept_matrix(kernel, FirerState.UP)
    kept_matrix(kernel, FirerState.UP)
    monkeypatch.setenv("ICEDITOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ICEDITOR_CACHE", "off")
    kept_matrix(kernel, FirerState.UP)
    assert built == [FirerState.UP] * 3 and list(tmp_path.iterdir()) == [blocked]
