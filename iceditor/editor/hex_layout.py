"""Where a hex is drawn: flat-topped hexes at engine.hexgrid's layout, HEX_SIZE pixels from a
centre to a corner (the map view, the symbols, the legend and the print all use these)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPolygonF

from engine.hexgrid import SQRT3, Hex, corner_offsets, hex_to_point, point_to_hex

HEX_SIZE = 24.0  # pixels from a hex centre to a corner


def centre(h: Hex) -> QPointF:
    x, y = hex_to_point(h, HEX_SIZE)
    return QPointF(x, y)


def hex_polygon(h: Hex, scale: float = 1.0) -> QPolygonF:
    c = centre(h)
    return QPolygonF([QPointF(c.x() + dx * scale, c.y() + dy * scale) for dx, dy in corner_offsets(HEX_SIZE)])


def hex_rect(h: Hex) -> QRectF:
    """The box of hex_polygon(h): a flat-topped hex is two radii wide, sqrt(3) radii high."""
    c = centre(h)
    return QRectF(c.x() - HEX_SIZE, c.y() - HEX_SIZE * SQRT3 / 2, 2 * HEX_SIZE, HEX_SIZE * SQRT3)


def hex_at(point: QPointF) -> Hex:
    return point_to_hex(point.x(), point.y(), HEX_SIZE)
