"""What the overlay features (LOS, viewshed, movement) share: the Clear overlays action (Esc),
the firer's state choice, texts written on the map and the colour ramp of bands and heatmaps.

Everything here only draws; the answers drawn come from engine/geometry.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QBrush, QColor, QFont, QFontMetricsF, QKeySequence, QPainter, QPen
from PySide6.QtWidgets import QComboBox, QDockWidget, QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from engine.geometry.sight import FirerState
from engine.hexgrid import Hex
from engine.model.board import Board

from .mapview import HEX_SIZE, SparseItem, centre, hex_polygon
from .window import MainWindow, Tool

if TYPE_CHECKING:
    from .document import EditorDocument

FONT = "DejaVu Sans"


class OverlayTool(Tool):
    """A tool that draws the engine's answers about the board shown in the window."""

    group = "analysis"

    @property
    def board(self) -> Board:
        return self.window.document.board


def clear_action(window: MainWindow) -> QAction:
    """The Overlays menu's "Clear overlays" (Esc), made once per window: each overlay clears itself
    on it, and the selection goes too (features/selection.py)."""
    action = window.findChild(QAction, "clear-overlays")
    if isinstance(action, QAction):
        return action
    action = QAction("&Clear overlays", window)
    action.setObjectName("clear-overlays")
    action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    action.setToolTip(
        "Remove the LOS line, viewshed, heatmap and movement overlays from the map, and clear the selection (Esc)"
    )
    menu = window.menus["Overlays"]
    menu.addSeparator()
    menu.addAction(action)
    return action


def add_overlay_action(window: MainWindow, action: QAction) -> None:
    """Put an overlay's menu entry in the Overlays menu, above the separator and Clear overlays."""
    menu = window.menus["Overlays"]
    actions = menu.actions()
    separator = actions[actions.index(clear_action(window)) - 1]
    menu.insertAction(separator, action)


def watch_board(window: MainWindow, edited: Callable[[frozenset[Hex]], None], replaced: Callable[[], None]) -> None:
    """Follow the board of the window's document: `edited(hexes)` after each terrain edit, and
    `replaced()` once another document is shown in the window (the watch moves to its board)."""
    watched = [window.document.board]
    watched[0].watchers.append(edited)

    def moved(document: EditorDocument) -> None:
        if edited in watched[0].watchers:
            watched[0].watchers.remove(edited)
        watched[0] = document.board
        document.board.watchers.append(edited)
        replaced()

    window.document_replaced.connect(moved)


def add_overlay_dock(window: MainWindow, title: str, widget: QWidget) -> QDockWidget:
    """A dock for an overlay's options and answers, hidden until its tool is used: a tab of the
    Problems panel's place at the bottom, where it has the window's width (the Sighting Chart
    needs it; beside the Problems panel it would be squeezed on a laptop's screen)."""
    dock = window.add_dock(title, widget, Qt.DockWidgetArea.BottomDockWidgetArea)
    dock.setProperty("overlay", True)
    window.tab_with_problems(dock)
    dock.hide()
    return dock


def show_dock(dock: QDockWidget) -> None:
    dock.show()
    dock.raise_()


def firer_choice() -> QComboBox:
    """UP or DOWN for the firing unit (10.31 c: a DOWN firer does not see through a Marsh hex)."""
    box = QComboBox()
    box.setToolTip("The firing unit's state: a DOWN firer's LOS is blocked by a Marsh hex on its level (10.31 c)")
    for state in FirerState:
        box.addItem(f"Firer {state.upper()}", state.value)
    return box


def firer_state(box: QComboBox) -> FirerState:
    return FirerState(box.currentData())


def ramp(share: float, alpha: int = 150) -> QColor:
    """A colour from pale yellow (share 0) through orange to deep red (share 1)."""
    share = min(max(share, 0.0), 1.0)
    stops = ((0.0, (255, 245, 160)), (0.5, (250, 150, 40)), (1.0, (180, 20, 30)))
    for (s0, c0), (s1, c1) in pairwise(stops):
        if share <= s1:
            f = (share - s0) / (s1 - s0)
            r, g, b = (round(a + (z - a) * f) for a, z in zip(c0, c1, strict=True))
            return QColor(r, g, b, alpha)
    raise AssertionError("share is clamped to [0, 1]")


class HexTextItem(QGraphicsItem):
    """Short texts written in the middle of hexes (MP costs, how many watchers see a hex)."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.texts: dict[Hex, str] = {}
        self._bounds = QRectF()
        self.setZValue(3)

    def set_texts(self, texts: dict[Hex, str]) -> None:
        self.prepareGeometryChange()
        self.texts = dict(texts)
        rect = QRectF()
        for h in self.texts:
            rect = rect.united(hex_polygon(h).boundingRect())
        self._bounds = rect
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setFont(QFont(FONT, 7, QFont.Weight.Bold))
        for h, text in self.texts.items():
            c = centre(h)
            box = QRectF(c.x() - HEX_SIZE, c.y() - 6, 2 * HEX_SIZE, 12)
            painter.setPen(QColor(255, 255, 255, 200))  # a light halo keeps the text readable on any terrain
            painter.drawText(box.translated(0.6, 0.6), Qt.AlignmentFlag.AlignCenter, text)
            painter.setPen(QColor("#202020"))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class Tag(SparseItem):
    """A short text on a pale box at a point of the map: a rule, a range, a path's cost. A new text
    repaints the old box and the new one (a SparseItem, as the line it labels)."""

    def __init__(self, parent: QGraphicsItem, colour: QColor) -> None:
        super().__init__(parent)
        self.text, self.colour = "", colour
        self._font = QFont(FONT, 8, QFont.Weight.Bold)
        self._box = QRectF()
        self.setZValue(4)

    def show_text(self, text: str, at: QPointF) -> None:
        """Show `text` just above and right of `at` (a hex centre); left or below it near the map's
        edge; '' shows none."""
        before = self.drawn()
        self.text = text
        size = QFontMetricsF(self._font).size(0, text)
        box = QRectF(0, 0, size.width() + 8, size.height() + 4)
        x, y = at.x() + HEX_SIZE * 0.5, at.y() - HEX_SIZE * 0.9 - box.height()
        edge = self.scene().sceneRect() if self.scene() is not None else QRectF()
        if x + box.width() > edge.right():
            x = at.x() - HEX_SIZE * 0.5 - box.width()
        if y < edge.top():
            y = at.y() + HEX_SIZE * 0.9
        self._box = box.translated(x, y)
        self.repaint([r for r in (before, self.drawn()) if not r.isNull()])

    def drawn(self) -> QRectF:
        """Where the text is drawn (a null rectangle: nowhere)."""
        return self._box.adjusted(-1, -1, 1, 1) if self.text else QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not self.text:
            return
        painter.setPen(QPen(self.colour, 1.2))
        painter.setBrush(QBrush(QColor(255, 255, 250, 235)))
        painter.drawRoundedRect(self._box, 3, 3)
        painter.setFont(self._font)
        painter.setPen(self.colour)
        painter.drawText(self._box, Qt.AlignmentFlag.AlignCenter, self.text)
