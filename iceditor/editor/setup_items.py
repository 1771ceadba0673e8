"""A test set-up drawn on the map's units layer: each unit a counter in its side's colour
with its unit written on it (type, squad letter or number, and its member, PR or count) and
its state on a strip along the bottom (UP, or DOWN on black, 3.12); a unit that faces a
hexside has a wedge on the edge towards the hex it faces (8.7). A stack fans out down and to
the right so every counter shows, below the hex number. IP and mine markers are small chits
at the hex's right (mines: the AP/AT factors, edged red), hidden hexes are outlined, the
Infiltration Hex marked INF. Items only draw: the set-up panel and tool edit the scenario."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneContextMenuEvent, QStyleOptionGraphicsItem, QWidget

from engine.hexgrid import Hex

from .counter_drawing import COUNTER, EDGE, INK, PROBLEM, SELECTED, SIDE_COLOURS, paint_chit, paint_counter, paint_wedge
from .hex_layout import HEX_SIZE, centre, hex_polygon
from .scenario_data import DataPath

__all__ = ["COUNTER", "INK", "SIDE_COLOURS", "Piece", "PieceItem"]  # the drawing's constants, for tests
FAN = QPointF(2.5, 8.0)  # each counter of a stack from the one below: the lower one's top line shows
FIRST = QPointF(-3.0, 1.0)  # the bottom counter's centre from the hex's: clear of the hex number above
CHIT = QRectF(-7, -4.5, 14, 9)  # an IP, mines or INF marker, round its anchor
MARKER_AT = {  # a marker's anchor from the hex centre, beside the stack
    "improved_position": QPointF(HEX_SIZE * 0.6, -HEX_SIZE * 0.2),
    "mines": QPointF(HEX_SIZE * 0.55, HEX_SIZE * 0.3),
    "infiltration": QPointF(HEX_SIZE * 0.55, HEX_SIZE * 0.3),
}
MARKER_COLOURS = {"improved_position": QColor("#e6d3a3"), "mines": QColor("#f3c7c0"), "infiltration": QColor("#cfe0f5")}


@dataclass(frozen=True)
class Piece:
    """One thing the set-up puts on the map, at `path` of the scenario data."""

    path: DataPath
    side: str
    kind: str  # unit | improved_position | mines | hidden | infiltration
    hex: Hex
    text: tuple[str, str]  # two short lines (a counter's type and its number or PR)
    tip: str
    down: bool = False
    facing: Hex | None = None


class PieceItem(QGraphicsItem):
    """A piece as drawn; `stacked` is its place in the hex's stack of units (0: the bottom)."""

    def __init__(self, piece: Piece, stacked: int, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.piece, self.stacked = piece, stacked
        self.problem = False
        self.selected = False
        self.menu: Callable[[PieceItem, QGraphicsSceneContextMenuEvent], None] | None = None
        self.setToolTip(piece.tip)
        # hidden hexes under the counters, markers over them (a chit beside a stack stays readable)
        self.setZValue({"hidden": 0, "unit": 1 + stacked}.get(piece.kind, 100))

    def anchor(self) -> QPointF:
        """The centre of what is drawn, before any drag."""
        c = centre(self.piece.hex)
        if self.piece.kind == "unit":
            return c + FIRST + FAN * self.stacked
        if self.piece.kind in MARKER_AT:
            return c + MARKER_AT[self.piece.kind]
        return c

    def _outline(self) -> QRectF:
        a = self.anchor()
        if self.piece.kind == "unit":
            half = COUNTER / 2
            return QRectF(a.x() - half, a.y() - half, COUNTER, COUNTER)
        return CHIT.translated(a)

    def boundingRect(self) -> QRectF:
        if self.piece.kind == "hidden":
            return hex_polygon(self.piece.hex).boundingRect().adjusted(-2, -2, 2, 2)
        return self._outline().adjusted(-COUNTER * 0.5, -COUNTER * 0.5, COUNTER * 0.5, COUNTER * 0.5)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        if self.piece.kind == "hidden":
            path.addPolygon(hex_polygon(self.piece.hex))
        else:
            path.addRect(self._outline())
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = SIDE_COLOURS.get(self.piece.side, QColor("#cccccc"))
        outline = PROBLEM if self.problem else SELECTED if self.selected else EDGE
        width = 2.0 if self.problem or self.selected else 0.8
        if self.piece.kind == "hidden":
            painter.setPen(
                QPen(outline if self.problem or self.selected else colour.darker(160), 2, Qt.PenStyle.DashLine)
            )
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(hex_polygon(self.piece.hex, 0.86))
            return
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        rect = self._outline()
        if self.piece.kind != "unit":
            mines = self.piece.kind == "mines"
            edge = PROBLEM.darker(120) if mines and not self.problem else outline
            kind, value = self.piece.text  # ("IP", points), ("mines", "AP/AT"), ("INF", "")
            fill = MARKER_COLOURS.get(self.piece.kind, QColor("white"))
            paint_chit(painter, rect, value if mines else kind + value, fill, edge, max(width, 1.2), scale)
            return
        state = "DOWN" if self.piece.down else "UP"
        paint_counter(painter, rect, self.piece.side, (*self.piece.text, state), self.piece.down, scale, outline, width)
        if self.piece.facing is not None:
            paint_wedge(painter, self.anchor(), COUNTER, self.piece.hex, self.piece.facing)

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        if self.menu is not None:
            self.menu(self, event)
