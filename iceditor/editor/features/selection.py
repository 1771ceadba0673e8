"""Selecting hexes (S): a rectangle, or with Ctrl a lasso; copy, paste and delete what is selected.

The selected hexes are the window's `selected` (the Properties panel edits them) and are drawn
highlighted. A drag selects the rectangle of columns and rows from the pressed hex to the hex
under the cursor (a click: that hex), a lasso the hexes whose centres it encloses; Shift adds to
the selection. Copy (Ctrl+C) keeps the printed terrain of the selected
hexes; Paste (Ctrl+V) puts it down with its top-left hex on the hex under the cursor, the
shape kept (axial offsets), as one undo step; Delete clears the selected hexes to clear terrain.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QKeySequence, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsPathItem, QWidget

from engine.hexgrid import Hex, Offset, hex_to_offset
from engine.model.terrain import CLEAR, Terrain

from ..mapview import HexSetItem, centre
from ..overlays import clear_action
from ..tool_options import OptionsTool, RadioChoice, hexes_text
from ..window import MainWindow

ORDER = 40
SELECTED = QColor(40, 110, 220, 70)
SELECTED_OUTLINE = QColor(30, 90, 200)


class SelectTool(OptionsTool):
    name = "select"
    label = "Select"
    shortcut = "S"
    tip = "Select hexes: drag a rectangle (Ctrl: a lasso), click a hex; Shift adds to the selection"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.start: Hex | None = None
        self.points: list[QPointF] = []  # the lasso
        self.lasso = False
        self.kept: set[Hex] = set()  # the selection a Shift-drag adds to
        self.outline = QGraphicsPathItem(window.scene.layers["overlays"])
        self.outline.setPen(QPen(SELECTED_OUTLINE, 1.5, Qt.PenStyle.DashLine))
        self.outline.setZValue(6)
        self.shapes = RadioChoice("select", ("rectangle", "lasso"), self.settings_changed)

    def options(self) -> QWidget:
        return self.shapes.widget()

    def describe(self) -> str:
        shape, other = ("a lasso", "a rectangle") if self.shapes.chosen() == "lasso" else ("a rectangle", "a lasso")
        return (
            f"drag {shape} round hexes (Ctrl: {other}), click a hex; Shift adds; "
            "Ctrl+C copies, Ctrl+V pastes at the cursor, Delete clears"
        )

    def deactivate(self) -> None:
        self.start = None
        self.outline.setPath(QPainterPath())
        super().deactivate()

    def press(self, h: Hex, event: Any) -> None:
        modifiers = event.modifiers()
        self.lasso = (self.shapes.chosen() == "lasso") != bool(modifiers & Qt.KeyboardModifier.ControlModifier)
        self.kept = set(self.window.selected) if modifiers & Qt.KeyboardModifier.ShiftModifier else set()
        self.start = h
        self.points = [event.scenePos()]
        self._select({h})

    def move(self, h: Hex, event: Any) -> None:
        self.hover(h)
        if self.start is None:
            return
        if self.lasso:
            self.points.append(event.scenePos())
            self.outline.setPath(self._lasso())
            self._select(self._in_lasso())
        else:
            self._select(self._in_rectangle(h))

    def release(self, h: Hex | None, event: Any) -> None:
        if self.start is None:
            return
        if self.lasso and len(self.points) > 2:
            self._select(self._in_lasso())
        elif not self.lasso and h is not None:
            self._select(self._in_rectangle(h))
        self.start = None
        self.outline.setPath(QPainterPath())

    def _in_rectangle(self, end: Hex) -> set[Hex]:
        """The hexes from the pressed hex's column and row to this hex's: a rectangle of printed labels."""
        assert self.start is not None
        board = self.window.document.board
        (c0, r0), (c1, r1) = (hex_to_offset(x, board.offset) for x in (self.start, end))
        columns, rows = range(min(c0, c1), max(c0, c1) + 1), range(min(r0, r1), max(r0, r1) + 1)
        return {x for x in board.hexes if (at := hex_to_offset(x, board.offset))[0] in columns and at[1] in rows}

    def _lasso(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(QPolygonF(self.points))
        path.closeSubpath()
        return path

    def _in_lasso(self) -> set[Hex]:
        """The hexes whose centres the lasso encloses, and the hex it started on."""
        assert self.start is not None
        shape = self._lasso()
        return {h for h in self.window.document.board.hexes if shape.contains(centre(h))} | {self.start}

    def _select(self, hexes: set[Hex]) -> None:
        set_selection(self.window, hexes | self.kept)


def set_selection(window: MainWindow, hexes: set[Hex]) -> None:
    if hexes != window.selected:
        window.selected = set(hexes)
        window.selection_changed.emit(window.selected)


class Clipboard(QObject):
    """The selected hexes drawn highlighted; copy, paste and delete on them (the Edit menu)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("clipboard")
        self.window = window
        self.copied: dict[Hex, Terrain] = {}  # axial offsets from the copy's top-left hex
        self.copied_at: Hex | None = None
        self.cursor: Hex | None = None
        window.scene.hovered.connect(self._hovered)
        self.highlight = HexSetItem(window.scene.layers["overlays"], SELECTED, SELECTED_OUTLINE)
        self.highlight.setZValue(4)
        window.selection_changed.connect(self.highlight.set_hexes)
        menu = window.menus["Edit"]
        menu.addSeparator()
        for name, text, keys, slot in (
            ("copy", "&Copy hexes", QKeySequence.StandardKey.Copy, self.copy),
            ("paste", "&Paste hexes", QKeySequence.StandardKey.Paste, self.paste),
            ("delete", "&Delete hexes", QKeySequence.StandardKey.Delete, self.delete),
            ("select-all", "Select &all hexes", QKeySequence.StandardKey.SelectAll, self.select_all),
            ("select-none", "Select &none", QKeySequence("Ctrl+Shift+A"), self.select_none),
        ):
            action = QAction(text, window)
            action.setObjectName(f"hexes-{name}")
            action.setShortcut(keys)
            action.triggered.connect(slot)
            menu.addAction(action)
        clear_action(window).triggered.connect(self.select_none)  # Esc clears the selection with the overlays

    def _hovered(self, h: Hex | None) -> None:
        self.cursor = h

    def copy(self) -> None:
        selected = self.window.selected
        if not selected:
            return
        document = self.window.document
        self.copied_at = top_left(selected, document.board.offset)
        self.copied = {h - self.copied_at: document.printed(h) for h in selected}
        self.window.statusBar().showMessage(f"Copied {hexes_text(len(selected))}", 4000)

    def paste(self) -> None:
        """Put the copy down at the hex under the cursor (off the map: at the selection, or where it was)."""
        if self.copied_at is None:
            return
        document = self.window.document
        target = self.cursor
        if target is None:
            target = top_left(self.window.selected, document.board.offset) if self.window.selected else self.copied_at
        changes = {target + offset: t for offset, t in self.copied.items() if target + offset in document.board.hexes}
        if not changes:
            return
        self.window.paint(f"Paste {hexes_text(len(changes))}", changes)
        set_selection(self.window, set(changes))

    def delete(self) -> None:
        selected = self.window.selected
        changed = {h: CLEAR for h in selected if self.window.document.printed(h) != CLEAR}
        if changed:
            self.window.paint(f"Delete {hexes_text(len(changed))}", changed)

    def select_all(self) -> None:
        set_selection(self.window, set(self.window.document.board.hexes))

    def select_none(self) -> None:
        set_selection(self.window, set())


def top_left(hexes: set[Hex], offset: Offset) -> Hex:
    """The hex of the lowest column, then the lowest row: where a copy is picked up and put down."""
    return min(hexes, key=lambda h: hex_to_offset(h, offset))


def install(window: MainWindow) -> None:
    window.add_tool(SelectTool(window))
    Clipboard(window)
