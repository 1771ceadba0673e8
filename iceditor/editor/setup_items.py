"""A test set-up drawn on the map's units layer: each unit a counter in its side's colour
with its unit written on it (type, squad letter or number, and its member, PR or count) and
its state on a strip along the bottom (UP, or DOWN on black, 3.12); a unit that faces a
hexside has a wedge on the edge towards the hex it faces (8.7). A stack fans out down and to
the right so every counter shows, below the hex number. IP and mine markers are small chits
at the hex's right (mines: the AP/AT factors, edged red), hidden hexes are outlined, the
Infiltration Hex marked INF. Items only draw: the set-up panel and tool edit the scenario."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneContextMenuEvent, QStyleOptionGraphicsItem, QWidget

from engine.hexgrid import Hex

from .hex_layout import HEX_SIZE, centre, hex_polygon
from .mapview import font_of_size
from .scenario_data import DataPath

SIDE_COLOURS = {"german": QColor("#9fb0bf"), "russian": QColor("#d39a66")}
COUNTER = 24.0  # a counter's side in pixels (a hex is 2 * HEX_SIZE across)
FAN = QPointF(2.5, 8.0)  # each counter of a stack from the one below: the lower one's top line shows
FIRST = QPointF(-3.0, 1.0)  # the bottom counter's centre from the hex's: clear of the hex number above
CHIT = QRectF(-7, -4.5, 14, 9)  # an IP, mines or INF marker, round its anchor
MARKER_AT = {  # a marker's anchor from the hex centre, beside the stack
    "improved_position": QPointF(HEX_SIZE * 0.6, -HEX_SIZE * 0.2),
    "mines": QPointF(HEX_SIZE * 0.55, HEX_SIZE * 0.3),
    "infiltration": QPointF(HEX_SIZE * 0.55, HEX_SIZE * 0.3),
}
MARKER_COLOURS = {"improved_position": QColor("#e6d3a3"), "mines": QColor("#f3c7c0"), "infiltration": QColor("#cfe0f5")}
LEGIBLE_PX = 3.5  # counter texts smaller than this on screen are left out (the colours and state still show)
PROBLEM = QColor("#d01c1c")
SELECTED = QColor("#ffd21f")
INK = QColor("#111111")


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
        outline = PROBLEM if self.problem else SELECTED if self.selected else QColor("#2b2b2b")
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
            painter.setPen(QPen(PROBLEM.darker(120) if mines and not self.problem else outline, max(width, 1.2)))
            painter.setBrush(QBrush(MARKER_COLOURS.get(self.piece.kind, QColor("white"))))
            painter.drawRoundedRect(rect, 2, 2)
            kind, value = self.piece.text  # ("IP", points), ("mines", "AP/AT"), ("INF", "")
            _write(painter, rect, value if mines else kind + value, 5.5, scale, bold=True)
            return
        painter.setPen(QPen(outline, width))
        painter.setBrush(QBrush(colour))
        painter.drawRect(rect)
        strip = QRectF(rect.left(), rect.bottom() - COUNTER * 0.27, COUNTER, COUNTER * 0.27)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(INK if self.piece.down else colour.lighter(125)))
        painter.drawRect(strip.adjusted(width / 2, 0, -width / 2, -width / 2))
        top, bottom = self.piece.text
        line = FAN.y() - 0.5  # the top line shows above the next counter of a stack
        first = QRectF(rect.left() + 1, rect.top() + 0.5, COUNTER - 2, line)
        _write(painter, first, top, 7.0, scale, True)
        _write(
            painter,
            QRectF(first.left(), first.bottom(), first.width(), strip.top() - first.bottom()),
            bottom,
            6.0,
            scale,
        )
        _write(
            painter,
            strip,
            "DOWN" if self.piece.down else "UP",
            5.0,
            scale,
            True,
            QColor("white") if self.piece.down else INK,
        )
        if self.piece.facing is not None:
            self._wedge(painter, self.anchor())

    def _wedge(self, painter: QPainter, a: QPointF) -> None:
        """A wedge on the counter's edge towards the hex it faces: its frontal hexside (8.7)."""
        assert self.piece.facing is not None
        c, f = centre(self.piece.hex), centre(self.piece.facing)
        angle = math.atan2(f.y() - c.y(), f.x() - c.x())
        ux, uy = math.cos(angle), math.sin(angle)
        reach = COUNTER * 0.5 / max(abs(ux), abs(uy))  # from the centre to the square's edge
        base = QPointF(a.x() + ux * reach, a.y() + uy * reach)
        tip = QPointF(base.x() + ux * 6, base.y() + uy * 6)
        side = QPointF(-uy * 4.5, ux * 4.5)
        painter.setPen(QPen(QColor("white"), 0.8))
        painter.setBrush(QBrush(INK))
        painter.drawPolygon(QPolygonF([tip, base + side, base - side]))

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        if self.menu is not None:
            self.menu(self, event)


def _write(
    painter: QPainter,
    rect: QRectF,
    text: str,
    size: float,
    scale: float,
    bold: bool = False,
    colour: QColor = INK,
) -> None:
    """Write `text` centred in `rect`, `size` units high or less so that it fits; nothing when it
    would be too small to read at `scale` screen pixels per unit."""
    if not text:
        return
    width = QFontMetricsF(font_of_size(size, bold)).horizontalAdvance(text)
    size *= min(1.0, rect.width() / width) if width else 1.0
    if size * scale < LEGIBLE_PX:
        return
    painter.setFont(font_of_size(size, bold))
    painter.setPen(colour)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
