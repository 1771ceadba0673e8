"""How a counter is drawn, in the set-up (setup_items.py) and in play (play/counter_items.py): a
square in its side's colour with three lines of print, its state strip along the bottom and, for a
unit that faces a hexside, a wedge on the edge towards the hex it faces (8.7).

3.0: 'The front of a combat unit counter (black print) represents its UP state and the back (white
print) the DOWN state': an UP counter is its side's colour printed black over a light strip, a
DOWN one a darker shade printed white over a black strip.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QPolygonF

from engine.hexgrid import Hex

from .hex_layout import centre
from .mapview import font_of_size

SIDE_COLOURS = {"german": QColor("#9fb0bf"), "russian": QColor("#d39a66")}
COUNTER = 24.0  # a counter's side in pixels (a hex is 2 * HEX_SIZE across)
LINE = 7.5  # the first line's height: what shows of a counter under the next one of a stack
LEGIBLE_PX = 3.5  # counter texts smaller than this on screen are left out (the colours and state still show)
PROBLEM = QColor("#d01c1c")
SELECTED = QColor("#ffd21f")
INK = QColor("#111111")
EDGE = QColor("#2b2b2b")  # a counter's outline
WHITE = QColor("white")
DOWN_SHADE = 165  # QColor.darker's factor for a counter's back (3.0: the DOWN face)


def side_colour(side: str, down: bool = False) -> QColor:
    colour = SIDE_COLOURS.get(side, QColor("#cccccc"))
    return colour.darker(DOWN_SHADE) if down else colour


def paint_counter(
    painter: QPainter,
    rect: QRectF,
    side: str,
    lines: tuple[str, str, str],
    down: bool,
    scale: float,
    outline: QColor = EDGE,
    width: float = 0.8,
) -> None:
    """One counter in `rect`: `lines` its first line (the unit, bold), its second (its values) and
    its strip's; `scale` screen pixels per unit (texts too small to read are left out)."""
    colour = side_colour(side, down)
    ink = WHITE if down else INK
    painter.setPen(QPen(outline, width))
    painter.setBrush(QBrush(colour))
    painter.drawRect(rect)
    size = rect.width()
    strip = QRectF(rect.left(), rect.bottom() - size * 0.27, size, size * 0.27)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(INK if down else colour.lighter(125)))
    painter.drawRect(strip.adjusted(width / 2, 0, -width / 2, -width / 2))
    top, middle, bottom = lines
    first = QRectF(rect.left() + 1, rect.top() + 0.5, size - 2, LINE * size / COUNTER)
    write(painter, first, top, 7.0 * size / COUNTER, scale, True, ink)
    second = QRectF(first.left(), first.bottom(), first.width(), strip.top() - first.bottom())
    write(painter, second, middle, 6.5 * size / COUNTER, scale, True, ink)
    write(painter, strip, bottom, 5.5 * size / COUNTER, scale, True, ink)


def paint_wedge(painter: QPainter, anchor: QPointF, size: float, h: Hex, facing: Hex) -> None:
    """A wedge on the edge of the counter centred on `anchor` towards the hex it faces: its frontal
    hexside (8.7)."""
    c, f = centre(h), centre(facing)
    angle = math.atan2(f.y() - c.y(), f.x() - c.x())
    ux, uy = math.cos(angle), math.sin(angle)
    reach = size * 0.5 / max(abs(ux), abs(uy))  # from the centre to the square's edge
    base = QPointF(anchor.x() + ux * reach, anchor.y() + uy * reach)
    tip = QPointF(base.x() + ux * 6, base.y() + uy * 6)
    across = QPointF(-uy * 4.5, ux * 4.5)
    painter.setPen(QPen(WHITE, 0.8))
    painter.setBrush(QBrush(INK))
    painter.drawPolygon(QPolygonF([tip, base + across, base - across]))


def write(
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


def paint_chit(
    painter: QPainter,
    rect: QRectF,
    text: str,
    fill: QColor,
    edge: QColor,
    width: float,
    scale: float,
    ink: QColor = INK,
) -> None:
    """A marker (an IP, mines, a Wreck...): a small rounded chit with its text."""
    painter.setPen(QPen(edge, width))
    painter.setBrush(QBrush(fill))
    painter.drawRoundedRect(rect, 2, 2)
    write(painter, rect, text, 5.5 * rect.height() / 9, scale, True, ink)
