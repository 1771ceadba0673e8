"""A test set-up drawn on the map's units layer: each unit a small labelled square in its side's
colour (a stack fanned out so every counter shows), DOWN units marked, facing units with a
wedge towards the hex they face (8.7); IP and mine markers, hidden hexes outlined, the
Infiltration Hex marked. Items only draw: the set-up panel and tool edit the scenario."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneContextMenuEvent, QStyleOptionGraphicsItem, QWidget

from engine.hexgrid import Hex

from .mapview import HEX_SIZE, centre, hex_polygon
from .scenario_data import DataPath

SIDE_COLOURS = {"german": QColor("#9fb0bf"), "russian": QColor("#d39a66")}
COUNTER = 17.0  # a counter's side in pixels (a hex is 2 * HEX_SIZE across)
FAN = 3.5  # how far each counter of a stack sits from the one below
PROBLEM = QColor("#d01c1c")
SELECTED = QColor("#ffd21f")


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
        self.setZValue(
            {"hidden": 0, "improved_position": 1, "mines": 1, "infiltration": 1}.get(piece.kind, 2 + stacked)
        )

    def anchor(self) -> QPointF:
        """The centre of what is drawn, before any drag."""
        c = centre(self.piece.hex)
        if self.piece.kind == "unit":
            shift = FAN * self.stacked - 5
            return QPointF(c.x() + shift, c.y() + shift)
        if self.piece.kind == "improved_position":
            return QPointF(c.x() - HEX_SIZE * 0.5, c.y() + HEX_SIZE * 0.5)
        if self.piece.kind == "mines":
            return QPointF(c.x() + HEX_SIZE * 0.5, c.y() + HEX_SIZE * 0.5)
        if self.piece.kind == "infiltration":
            return QPointF(c.x(), c.y() - HEX_SIZE * 0.5)
        return c

    def boundingRect(self) -> QRectF:
        if self.piece.kind == "hidden":
            return hex_polygon(self.piece.hex).boundingRect().adjusted(-2, -2, 2, 2)
        a = self.anchor()
        r = COUNTER
        return QRectF(a.x() - r, a.y() - r, 2 * r, 2 * r)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        if self.piece.kind == "hidden":
            path.addPolygon(hex_polygon(self.piece.hex))
        else:
            a, half = self.anchor(), COUNTER / 2
            path.addRect(QRectF(a.x() - half, a.y() - half, COUNTER, COUNTER))
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        colour = SIDE_COLOURS.get(self.piece.side, QColor("#cccccc"))
        outline = PROBLEM if self.problem else SELECTED if self.selected else QColor("#2b2b2b")
        width = 2.0 if self.problem or self.selected else 0.8
        if self.piece.kind == "hidden":
            painter.setPen(
                QPen(outline if self.problem or self.selected else colour.darker(160), 2, Qt.PenStyle.DashLine)
            )
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(hex_polygon(self.piece.hex, 0.86))
            return
        a = self.anchor()
        half = COUNTER / 2
        rect = QRectF(a.x() - half, a.y() - half, COUNTER, COUNTER)
        painter.setPen(QPen(outline, width))
        if self.piece.kind == "unit":
            painter.setBrush(QBrush(colour))
            painter.drawRect(rect)
            if self.piece.down:  # DOWN (3.12): the lower right corner blacked
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(QColor("#222222")))
                corner = rect.bottomRight()
                painter.drawPolygon(QPolygonF([corner, corner - QPointF(7, 0), corner - QPointF(0, 7)]))
            if self.piece.facing is not None:
                self._wedge(painter, a)
        else:
            painter.setBrush(QBrush(QColor("white")))
            painter.drawEllipse(rect.adjusted(1, 1, -1, -1))
        painter.setPen(QColor("#111111"))
        painter.setFont(QFont("DejaVu Sans", 4))
        top, bottom = self.piece.text
        painter.drawText(QRectF(rect.left(), rect.top() + 1, COUNTER, half), Qt.AlignmentFlag.AlignCenter, top)
        painter.drawText(
            QRectF(rect.left(), rect.top() + half - 1, COUNTER, half), Qt.AlignmentFlag.AlignCenter, bottom
        )

    def _wedge(self, painter: QPainter, a: QPointF) -> None:
        """A wedge on the counter's edge towards the hex it faces: its frontal hexside (8.7)."""
        assert self.piece.facing is not None
        c, f = centre(self.piece.hex), centre(self.piece.facing)
        angle = math.atan2(f.y() - c.y(), f.x() - c.x())
        ux, uy = math.cos(angle), math.sin(angle)
        base = QPointF(a.x() + ux * COUNTER * 0.5, a.y() + uy * COUNTER * 0.5)
        tip = QPointF(a.x() + ux * COUNTER * 0.95, a.y() + uy * COUNTER * 0.95)
        side = QPointF(-uy * 4, ux * 4)
        painter.setPen(QPen(QColor("#111111"), 0.6))
        painter.setBrush(QBrush(QColor("#111111")))
        painter.drawPolygon(QPolygonF([tip, base + side, base - side]))

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        if self.menu is not None:
            self.menu(self, event)
