"""The markers of the board in play, each an item of its own so that a test can find it: Wrecks
(12.4), IPs (18.0), mines (19.0: one's own, secret, and those revealed), one's own hidden hexes
(24.21), Assault markers (17.0), mortar targets and impacts (14.0, 14.3), the Infiltration Hex
(24.3); and what the play session shows over them: the hexes a selection can reach with their
MP cost, the path it would take, the target hex, and the objective hexes with who holds them."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from engine.hexgrid import Hex

from ..counter_drawing import COUNTER, INK, LINE, PROBLEM, WHITE, paint_chit, side_colour, write
from ..hex_layout import HEX_SIZE, centre, hex_polygon
from ..setup_items import CHIT, FIRST, MARKER_AT, MARKER_COLOURS
from .counter_items import HIDDEN

WRECK = QColor("#4a4a4a")
MORTAR = QColor("#b0127a")
REACH = QColor(60, 170, 90, 70)
PATH = QColor("#1f5fd1")
TARGET = QColor("#e0201c")
# where each chit sits, from the hex centre: beside the stack (the set-up's places for IPs and mines)
CHIT_AT = {
    "improved_position": MARKER_AT["improved_position"],
    "mines": MARKER_AT["mines"],
    "revealed_mines": MARKER_AT["mines"],
    "infiltration": MARKER_AT["infiltration"] + QPointF(0, 10),
    "wreck": FIRST,  # 12.4: the bottom of its hex's stack, its first line showing under the counters
}
CHIT_RECTS = {"wreck": QRectF(-COUNTER / 2, -COUNTER / 2, COUNTER, COUNTER)}  # a counter's size
CHIT_FILLS = {**MARKER_COLOURS, "revealed_mines": QColor("#e0523f"), "wreck": WRECK}


class ChitItem(QGraphicsItem):
    """A marker chit: `kind` one of CHIT_AT's, `text` what it prints, `tip` in words."""

    def __init__(self, kind: str, h: Hex, text: str, tip: str, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.kind, self.hex, self.text = kind, h, text
        self.setToolTip(tip)
        self.setZValue(9 if kind == "wreck" else 50)  # a Wreck under the counters stacked on it
        self._rect = CHIT_RECTS.get(kind, CHIT).translated(centre(h) + CHIT_AT[kind])

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        edge = PROBLEM.darker(120) if "mines" in self.kind else INK
        ink = WHITE if self.kind in ("wreck", "revealed_mines") else INK  # white print on the dark chits
        wreck = self.kind == "wreck"
        paint_chit(painter, self._rect, "" if wreck else self.text, CHIT_FILLS[self.kind], edge, 1.2, scale, ink)
        if wreck:  # written on its first line, as a counter's unit: what shows of it under a stack
            line = QRectF(self._rect.left() + 1, self._rect.top() + 0.5, COUNTER - 2, LINE)
            write(painter, line, self.text, 7.0, scale, True, WHITE)


class HiddenHexItem(QGraphicsItem):
    """One's own hidden hex (24.21): a dashed outline, as in the set-up."""

    def __init__(self, side: str, h: Hex, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.side, self.hex = side, h
        self.setToolTip(f"{side.capitalize()} hidden hex (24.21): the enemy does not see its units")
        self.setZValue(1)

    def boundingRect(self) -> QRectF:
        return hex_polygon(self.hex).boundingRect().adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(QPen(HIDDEN, 2, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(hex_polygon(self.hex, 0.86))


class AssaultMarkerItem(QGraphicsItem):
    """17.0: an Assault marker, its side's arrow across the hexside towards the hex it assaults."""

    def __init__(self, side: str, h: Hex, toward: Hex, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.side, self.hex, self.toward = side, h, toward
        self.setToolTip(f"{side.capitalize()} Assault marker (17.0): its stack assaults the hex it points at")
        self.setZValue(60)
        a, b = centre(h), centre(toward)
        self._from, self._to = a + (b - a) * 0.3, a + (b - a) * 0.75

    def boundingRect(self) -> QRectF:
        return QRectF(self._from, self._to).normalized().adjusted(-10, -10, 10, 10)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        d = self._to - self._from
        length = math.hypot(d.x(), d.y()) or 1.0
        ux, uy = d.x() / length, d.y() / length
        across = QPointF(-uy, ux)
        head = self._to - QPointF(ux, uy) * 7
        body = [
            self._from + across * 3,
            head + across * 3,
            head + across * 7,
            self._to,
            head - across * 7,
            head - across * 3,
            self._from - across * 3,
        ]
        painter.setPen(QPen(TARGET.darker(130), 1.2))
        painter.setBrush(QBrush(side_colour(self.side)))
        painter.drawPolygon(QPolygonF(body))
        middle = (self._from + head) / 2
        write(painter, QRectF(middle.x() - 5, middle.y() - 4, 10, 8), "A", 6.5, scale, True)


class MortarItem(QGraphicsItem):
    """14.0 a: a mortar's target hex (a ring with a cross) or, 14.3, a round's impact (a burst, its
    round's number) in the hex it hit."""

    def __init__(self, kind: str, h: Hex, text: str, tip: str, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.kind, self.hex, self.text = kind, h, text  # kind: mortar_target | impact
        self.setToolTip(tip)
        self.setZValue(70)

    def boundingRect(self) -> QRectF:
        c = centre(self.hex)
        r = HEX_SIZE * 0.8
        return QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        c = centre(self.hex)
        if self.kind == "mortar_target":
            r = HEX_SIZE * 0.7
            painter.setPen(QPen(MORTAR, 2.0, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(c, r, r)
            painter.setPen(QPen(MORTAR, 1.4))
            for dx, dy in ((1, 0), (0, 1)):
                painter.drawLine(c + QPointF(dx, dy) * (r + 3), c + QPointF(dx, dy) * (r - 6))
                painter.drawLine(c - QPointF(dx, dy) * (r + 3), c - QPointF(dx, dy) * (r - 6))
            return
        at = c + QPointF(HEX_SIZE * 0.45, -HEX_SIZE * 0.5)  # the top right: beside the stack
        points = [
            at + QPointF(math.cos(a) * (8 if n % 2 == 0 else 4), math.sin(a) * (8 if n % 2 == 0 else 4))
            for n, a in enumerate(i * math.pi / 6 for i in range(12))
        ]
        painter.setPen(QPen(MORTAR.darker(140), 0.8))
        painter.setBrush(QBrush(QColor("#ffb020")))
        painter.drawPolygon(QPolygonF(points))
        write(painter, QRectF(at.x() - 4, at.y() - 4, 8, 8), self.text, 6.0, scale, True)


class ReachItem(QGraphicsItem):
    """The hexes a selection can reach, shaded, each with its MP cost (8.4); the cheapest path to
    the hex under the cursor or chosen (R190), a line from hex centre to hex centre; the target
    hex, a red ring; the objective hexes, outlined in the colour of the side that holds them."""

    def __init__(self, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.reach: dict[Hex, float] = {}
        self.path: list[Hex] = []
        self.target: Hex | None = None
        self.objectives: dict[Hex, str | None] = {}
        self._bounds = QRectF()
        self.setZValue(0.5)  # over the hidden hexes, under the counters

    def changed(self) -> None:
        self.prepareGeometryChange()
        rect = QRectF()
        for h in (*self.reach, *self.path, *self.objectives, *((self.target,) if self.target else ())):
            rect = rect.united(hex_polygon(h).boundingRect())
        self._bounds = rect.adjusted(-4, -4, 4, 4) if not rect.isNull() else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(REACH))
        for h in self.reach:
            painter.drawPolygon(hex_polygon(h, 0.95))
        for h, cost in self.reach.items():  # the cost low in the hex: under the stack's counters
            c = centre(h)
            box = QRectF(c.x() - HEX_SIZE * 0.5, c.y() + HEX_SIZE * 0.42, HEX_SIZE, 9)
            write(painter, box, f"{cost:g}", 7.5, scale, True, QColor("#14522a"))
        for h, holder in self.objectives.items():
            painter.setPen(QPen(side_colour(holder).darker(150) if holder else QColor("#7a7a7a"), 3.2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(hex_polygon(h, 0.9))
            c = centre(h)
            label = f"held: {holder}" if holder else "held by no one"
            write(painter, QRectF(c.x() - HEX_SIZE, c.y() - HEX_SIZE * 1.25, 2 * HEX_SIZE, 9), label, 7, scale, True)
        if len(self.path) > 1:
            line = QPainterPath(centre(self.path[0]))
            for h in self.path[1:]:
                line.lineTo(centre(h))
            painter.setPen(QPen(PATH, 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(line)
            painter.setBrush(QBrush(PATH))
            for h in self.path[1:]:
                painter.drawEllipse(centre(h), 3.0, 3.0)
        if self.target is not None:
            painter.setPen(QPen(TARGET, 3.0))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(hex_polygon(self.target, 0.92))
