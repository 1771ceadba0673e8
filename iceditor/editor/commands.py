"""Undoable edits. Every change to what is open goes through a QUndoCommand on the window's stack."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtGui import QUndoCommand

from engine.hexgrid import Hex
from engine.model.terrain import Terrain

from .busy import BIG_EDIT, busy
from .document import EditorDocument


class TerrainCommand(QUndoCommand):
    """Terrain painted on the map files: a brush stroke, a fill, a paste, an erratum applied.

    `applied`: the change is already on the document (a stroke shown while it is drawn), so
    the stack's first redo does nothing.
    """

    def __init__(
        self,
        document: EditorDocument,
        label: str,
        before: Mapping[Hex, Terrain],
        after: Mapping[Hex, Terrain],
        *,
        applied: bool = False,
    ) -> None:
        super().__init__(label)
        self.document = document
        self.before, self.after = dict(before), dict(after)
        self._skip = applied

    def redo(self) -> None:
        if self._skip:
            self._skip = False
            return
        self._paint(self.after)

    def undo(self) -> None:
        self._paint(self.before)

    def _paint(self, terrain: dict[Hex, Terrain]) -> None:
        """All the hexes in one board edit: the board's watchers (validation, the map) follow it
        once. A big edit shows the wait cursor, and its revalidation is done under it too (the
        window's refresh that follows then finds every answer ready)."""
        if len(terrain) < BIG_EDIT:
            self.document.set_printed(terrain)
            return
        with busy():
            self.document.set_printed(terrain)
            self.document.problems()


class DataCommand(QUndoCommand):
    """A change to the scenario file's own data (metadata, OOB, zones, victory, set-up)."""

    def __init__(self, label: str, do: Callable[[], None], undo: Callable[[], None]) -> None:
        super().__init__(label)
        self._do, self._undo = do, undo

    def redo(self) -> None:
        self._do()

    def undo(self) -> None:
        self._undo()


class Stroke:
    """A brush stroke in progress: each hex painted once, shown at once, one undo step at the end."""

    def __init__(self, document: EditorDocument, label: str) -> None:
        self.document, self.label = document, label
        self.before: dict[Hex, Terrain] = {}
        self.after: dict[Hex, Terrain] = {}

    def paint(self, h: Hex, terrain: Terrain) -> None:
        if h not in self.before:
            self.before[h] = self.document.printed(h)
        if terrain != self.document.printed(h):
            self.after[h] = terrain
            self.document.set_printed({h: terrain})

    def command(self) -> TerrainCommand | None:
        """The finished stroke as an undo step, or None if it changed nothing."""
        changed = {h: t for h, t in self.after.items() if t != self.before[h]}
        if not changed:
            return None
        label = f"{self.label} ({len(changed)} hex{'es' if len(changed) != 1 else ''})"
        return TerrainCommand(self.document, label, {h: self.before[h] for h in changed}, changed, applied=True)
