"""The tools' icons, drawn with QPainter in the map's own colours (no image files to ship).

Each icon is drawn on a 24 x 24 grid, at 1x and 2x for high-density screens. A tool without a
drawing of its own gets a hex with its key letter, so a new feature's tool is never blank.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from .mapview import BUILDING, GROUND, GULLY, HILL, MARSH, ROAD, TREE

INK = QColor("#303030")
WATER = QColor("#2f6fa8")
SIGHT = QColor("#2e7d32")
BLOCKED = QColor("#c62828")
SIZE = 24


def hexagon(cx: float, cy: float, r: float) -> QPolygonF:
    """A flat-topped hex, as the map's."""
    angles = [math.pi / 3 * i for i in range(6)]
    return QPolygonF([QPointF(cx + r * math.cos(a), cy + r * math.sin(a)) for a in angles])


def _ground(p: QPainter, fill: QColor = GROUND) -> None:
    p.setPen(QPen(INK, 1.2))
    p.setBrush(fill)
    p.drawPolygon(hexagon(12, 12, 10.5))


def _tree(p: QPainter, x: float, y: float, r: float = 3.6) -> None:
    p.setPen(QPen(TREE.darker(140), 0.8))
    p.setBrush(TREE)
    p.drawEllipse(QPointF(x, y), r, r)


def _sign(p: QPainter, plus: bool) -> None:
    """A + or - badge at the bottom right."""
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#1565c0") if plus else BLOCKED)
    p.drawEllipse(QPointF(18.5, 18.5), 5, 5)
    p.setPen(QPen(QColor("white"), 1.8))
    p.drawLine(QPointF(16, 18.5), QPointF(21, 18.5))
    if plus:
        p.drawLine(QPointF(18.5, 16), QPointF(18.5, 21))


def _trees(plus: bool) -> Callable[[QPainter], None]:
    def draw(p: QPainter) -> None:
        _ground(p)
        _tree(p, 9, 9)
        _tree(p, 15, 10)
        _tree(p, 10, 15.5)
        _sign(p, plus)

    return draw


def _level(p: QPainter) -> None:
    _ground(p, HILL[1])
    p.setPen(QPen(INK, 1))
    p.setBrush(HILL[2])
    p.drawPolygon(hexagon(12, 12, 5.5))


def _hill_name(p: QPainter) -> None:
    _level(p)
    p.setPen(INK)
    p.setFont(QFont("DejaVu Sans", 7, QFont.Weight.Bold))
    p.drawText(QRectF(0, 0, SIZE, SIZE), Qt.AlignmentFlag.AlignCenter, "K")


def _building(p: QPainter) -> None:
    _ground(p)
    p.setPen(QPen(INK, 0.8))
    p.setBrush(BUILDING)
    p.drawRect(QRectF(7, 9, 10, 8))
    roof = QPolygonF([QPointF(6, 9.5), QPointF(12, 4.5), QPointF(18, 9.5)])
    p.drawPolygon(roof)


def _marsh(p: QPainter) -> None:
    _ground(p, MARSH)
    p.setPen(QPen(WATER, 1.2))
    for y in (9, 13, 17):
        wave = QPainterPath(QPointF(6, y))
        wave.cubicTo(QPointF(9, y - 2.5), QPointF(11, y + 2.5), QPointF(14, y))
        wave.cubicTo(QPointF(16, y - 2.5), QPointF(17, y + 1), QPointF(18, y))
        p.drawPath(wave)


def _gully(p: QPainter) -> None:
    _ground(p)
    p.setPen(QPen(GULLY, 2.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawPolyline(QPolygonF([QPointF(5, 8), QPointF(10, 13), QPointF(14, 12), QPointF(19, 17)]))


def _erase(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(-35)
    p.setPen(QPen(INK, 1))
    p.setBrush(QColor("#f2a7b0"))
    p.drawRoundedRect(QRectF(-9, -5, 12, 10), 1.5, 1.5)
    p.setBrush(QColor("#eeeeee"))
    p.drawRoundedRect(QRectF(3, -5, 6, 10), 1.5, 1.5)


def _fill(p: QPainter) -> None:
    p.setPen(QPen(INK, 1.1))
    p.setBrush(QColor("#e0e0e0"))
    p.drawPolygon(QPolygonF([QPointF(5, 10), QPointF(12, 4), QPointF(19, 11), QPointF(12, 18)]))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(TREE)
    drop = QPainterPath(QPointF(19, 13))
    drop.cubicTo(QPointF(22, 17), QPointF(22, 20), QPointF(19.5, 20.5))
    drop.cubicTo(QPointF(17, 20.5), QPointF(16.5, 17), QPointF(19, 13))
    p.drawPath(drop)


def _road(p: QPainter) -> None:
    _ground(p)
    p.setPen(QPen(ROAD, 3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(3, 16), QPointF(21, 8))


def _north(p: QPainter) -> None:
    p.setPen(QPen(INK, 1))
    p.setBrush(INK)
    p.drawPolygon(QPolygonF([QPointF(12, 2), QPointF(17, 12), QPointF(12, 9.5), QPointF(7, 12)]))
    p.setFont(QFont("DejaVu Sans", 8, QFont.Weight.Bold))
    p.drawText(QRectF(0, 11, SIZE, 13), Qt.AlignmentFlag.AlignCenter, "N")


def _select(p: QPainter) -> None:
    p.setPen(QPen(QColor("#1565c0"), 1.4, Qt.PenStyle.DashLine))
    p.setBrush(QColor(21, 101, 192, 40))
    p.drawRect(QRectF(3.5, 3.5, 17, 17))


def _setup(p: QPainter) -> None:
    p.setPen(QPen(INK, 1))
    p.setBrush(QColor("#9aa07a"))
    p.drawRoundedRect(QRectF(4, 4, 16, 16), 2, 2)
    p.setPen(QPen(INK, 1.3))
    p.drawLine(QPointF(7, 9), QPointF(17, 15))  # the infantry symbol: a crossed box
    p.drawLine(QPointF(7, 15), QPointF(17, 9))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(QRectF(7, 9, 10, 6))


def _eye(p: QPainter, cx: float, cy: float) -> None:
    p.setPen(QPen(INK, 1.1))
    p.setBrush(QColor("white"))
    eye = QPainterPath(QPointF(cx - 5, cy))
    eye.quadTo(QPointF(cx, cy - 5), QPointF(cx + 5, cy))
    eye.quadTo(QPointF(cx, cy + 5), QPointF(cx - 5, cy))
    p.drawPath(eye)
    p.setBrush(INK)
    p.drawEllipse(QPointF(cx, cy), 1.6, 1.6)


def _los(p: QPainter) -> None:
    p.setPen(QPen(SIGHT, 2))
    p.drawLine(QPointF(9, 12), QPointF(16, 12))
    p.setPen(QPen(BLOCKED, 2, Qt.PenStyle.DashLine))
    p.drawLine(QPointF(16, 12), QPointF(23, 12))
    _eye(p, 6, 12)


def _viewshed(p: QPainter) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(60, 120, 220, 110))
    p.drawPolygon(QPolygonF([QPointF(6, 12), QPointF(23, 3), QPointF(23, 21)]))
    _eye(p, 6, 12)


def _movement(p: QPainter) -> None:
    for i, (x, y) in enumerate(((5, 18), (10, 13), (15, 9), (20, 5))):
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(250, 150 - 30 * i, 40, 230))
        p.drawEllipse(QPointF(x, y), 2.6, 2.6)
    p.setPen(QPen(INK, 1.4))
    p.drawLine(QPointF(17, 4), QPointF(21, 4))
    p.drawLine(QPointF(21, 4), QPointF(21, 8))


def _map_edge(p: QPainter) -> None:
    """A map sheet with its top edge's row of hexes shaded as a zone (the Zones panel's blue)."""
    p.setPen(QPen(INK, 1.2))
    p.setBrush(GROUND)
    p.drawRect(QRectF(3, 3, 18, 18))
    p.setPen(QPen(QColor("#1f4e9c"), 1))
    p.setBrush(QColor(60, 120, 216, 150))
    for x in (7, 12, 17):
        p.drawPolygon(hexagon(x, 6.5, 3))


DRAWINGS: dict[str, Callable[[QPainter], None]] = {
    "trees-add": _trees(True),
    "trees-remove": _trees(False),
    "level": _level,
    "hill": _hill_name,
    "building": _building,
    "marsh": _marsh,
    "gully": _gully,
    "erase": _erase,
    "fill": _fill,
    "road": _road,
    "north": _north,
    "map-edge": _map_edge,
    "select": _select,
    "setup": _setup,
    "los": _los,
    "viewshed": _viewshed,
    "movement": _movement,
}


def _letter(key: str) -> Callable[[QPainter], None]:
    def draw(p: QPainter) -> None:
        _ground(p)
        p.setPen(INK)
        p.setFont(QFont("DejaVu Sans", 9, QFont.Weight.Bold))
        p.drawText(QRectF(0, 0, SIZE, SIZE), Qt.AlignmentFlag.AlignCenter, key[-1:].upper() or "?")

    return draw


def tool_icon(name: str, key: str = "") -> QIcon:
    """The icon of the tool `name` (`key`: its shortcut, the letter of a tool with no drawing)."""
    draw = DRAWINGS.get(name) or _letter(key or name)
    icon = QIcon()
    for scale in (1, 2):
        pixmap = QPixmap(SIZE * scale, SIZE * scale)
        pixmap.setDevicePixelRatio(scale)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        draw(p)
        p.end()
        icon.addPixmap(pixmap)
    return icon
