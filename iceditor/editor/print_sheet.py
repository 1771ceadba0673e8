"""The print-ready sheet of `iceditor render`: the map as the editor draws it (terrain, roads,
hex numbers at their printed size, the scenario's set-up and NORTH indicator) and, beside it,
the title, a north arrow and the legend.

The map is the editor window's own scene, so the sheet shows what the editor shows; the
window is never put on a screen. Zone highlights and tool overlays are left out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsScene

from engine.hexgrid import Hex

from .document import EditorDocument
from .hex_layout import HEX_SIZE, centre
from .legend import legend_size, paint_legend
from .mapview import font_of_size

PANEL = 250.0  # the side panel's width in scene units (the legend's column)
GAP = HEX_SIZE  # between the map and the panel
TITLE_SIZE = 18.0
COMPASS = 70.0  # the north arrow's box
NORTH = QColor("#8b1a1a")


@dataclass
class Sheet:
    """What is printed: the scene, the part of it that is the map, and the panel's texts."""

    scene: QGraphicsScene
    map_area: QRectF
    title: str
    subtitle: str
    north: tuple[Hex, Hex] | None  # the NORTH indicator's hex and the hex it points to
    window: Any  # the hidden editor window that owns the scene (kept alive while printing)
    legend: bool = True

    def size(self) -> tuple[float, float]:
        """The sheet's width and height in scene units."""
        if not self.legend:
            return self.map_area.width(), self.map_area.height()
        return self.map_area.width() + GAP + PANEL + GAP / 2, max(self.map_area.height(), self._panel_height())

    def _panel_height(self) -> float:
        return self._legend_top() + legend_size(PANEL, overlays=False)[1] + HEX_SIZE / 2

    def _legend_top(self) -> float:
        title = QFontMetricsF(font_of_size(TITLE_SIZE, bold=True)).height()
        return HEX_SIZE / 2 + title * 2 + 40 + COMPASS + 16

    def paint(self, painter: QPainter, scale: float) -> None:
        """Draw the sheet, `scale` device units per scene unit, from the device's top left."""
        self.scene.render(
            painter,
            QRectF(0, 0, self.map_area.width() * scale, self.map_area.height() * scale),
            self.map_area,
        )
        if not self.legend:
            return
        painter.save()
        painter.scale(scale, scale)
        left = self.map_area.width() + GAP
        y = HEX_SIZE / 2
        painter.setPen(QColor("#202020"))
        painter.setFont(font_of_size(TITLE_SIZE, bold=True))
        title_box = QRectF(left, y, PANEL, QFontMetricsF(painter.font()).height() * 2)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
        painter.drawText(title_box, flags, self.title)
        painter.setFont(font_of_size(8.5))
        painter.drawText(QRectF(left, title_box.bottom(), PANEL, 40), flags, self.subtitle)
        self._paint_compass(painter, QPointF(left + COMPASS / 2, title_box.bottom() + 40 + COMPASS / 2))
        paint_legend(painter, QPointF(left, self._legend_top()), PANEL, overlays=False)  # a print has no overlays
        painter.restore()

    def _paint_compass(self, painter: QPainter, at: QPointF) -> None:
        """The north arrow: the direction the NORTH indicator points to (for a map alone, none yet)."""
        painter.setPen(QPen(QColor("#8c8474"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(at, COMPASS / 2, COMPASS / 2)
        text = QRectF(at.x() + COMPASS / 2 + 8, at.y() - COMPASS / 2, PANEL - COMPASS - 8, COMPASS)
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap)
        painter.setFont(font_of_size(8.5))
        painter.setPen(QColor("#202020"))
        if self.north is None:
            painter.drawText(text, flags, "North: where each scenario's NORTH indicator points (24.1)")
            return
        at_hex, toward = self.north
        a, b = centre(at_hex), centre(toward)
        painter.save()
        painter.translate(at)
        painter.rotate(math.degrees(math.atan2(b.y() - a.y(), b.x() - a.x())) + 90)  # drawn pointing up, then turned
        r = COMPASS / 2
        painter.setPen(QPen(NORTH, 0.8))
        painter.setBrush(QBrush(NORTH))
        painter.drawPolygon(QPolygonF([QPointF(0, -r * 0.62), QPointF(r * 0.16, 0), QPointF(-r * 0.16, 0)]))
        painter.setBrush(QBrush(QColor("white")))
        painter.drawPolygon(QPolygonF([QPointF(0, r * 0.62), QPointF(r * 0.16, 0), QPointF(-r * 0.16, 0)]))
        painter.setFont(font_of_size(11, bold=True))
        painter.drawText(QRectF(-8, -r, 16, r * 0.38), Qt.AlignmentFlag.AlignCenter, "N")
        painter.restore()
        painter.setFont(font_of_size(8.5))
        painter.setPen(QColor("#202020"))
        labels = f"the NORTH indicator in {self.label(at_hex)} points to {self.label(toward)} (24.1)"
        painter.drawText(text, flags, f"North: {labels}")

    def label(self, h: Hex) -> str:
        return str(self.window.document.board.label(h))


def sheet(document: EditorDocument, hex_mm: float, legend: bool = True) -> Sheet:
    """The sheet of a document: its map in a hidden editor window, the title and the north."""
    from .features.scenario_panel import NorthArrow
    from .window import MainWindow

    window = MainWindow(document)
    scene = window.scene
    scene.setBackgroundBrush(QColor("white"))
    for name in ("zones", "overlays"):
        scene.set_layer_visible(name, False)
    scene.labels.zoom_aware = False  # printed numbers keep their size on the sheet
    board = document.board
    if document.scenario is not None:
        data = document.scenario.current()
        title = f"Scenario {data.get('number', '')}: {data.get('title', '')}"
        north_data = data.get("north") or {}
        try:
            north = board.hex(str(north_data["hex"])), board.hex(str(north_data["toward"]))
        except (KeyError, ValueError):
            north = None
        if north is not None:
            arrow = NorthArrow(scene.layers["units"])  # the indicator on the map, as the editor shows it
            arrow.place(*north)
        maps = ", ".join(m.path.name for m in document.maps)
        subtitle = f"{document.path.name} on {maps}, errata applied"
    else:
        title, north = str(document.maps[0].current().get("name", document.path.stem)), None
        subtitle = document.path.name
    subtitle += f"; hexes {hex_mm:g} mm across the flats, 10 m (2.1)"
    area = (
        scene.layers["terrain"]
        .childrenBoundingRect()
        .adjusted(-HEX_SIZE / 2, -HEX_SIZE / 2, HEX_SIZE / 2, HEX_SIZE / 2)
    )
    return Sheet(scene, area, title, subtitle, north, window, legend)
