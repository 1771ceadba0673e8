"""The hex map: a QGraphicsScene with one item per hex, drawn from the board's terrain.

Flat-topped hexes at engine.hexgrid's layout (sheet units scaled by HEX_SIZE pixels). Each
layer is a parent item that can be shown or hidden: terrain, roads, labels, zones, units,
overlays. A terrain edit repaints only the hexes it touched (Board.set_terrain's watchers).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from engine.hexgrid import DIRECTIONS, Hex, corner_offsets, hex_to_point, point_to_hex
from engine.model.board import Board
from engine.model.terrain import Terrain

HEX_SIZE = 24.0  # pixels from a hex centre to a corner
LAYERS = ("terrain", "roads", "labels", "zones", "units", "overlays")

# Colours of the map (what a wargamer expects from a printed sheet: pale ground, green woods).
GROUND = QColor("#efe8d0")
HILL = {1: QColor("#dcc79a"), 2: QColor("#c9a86a")}
MARSH = QColor("#9fc7c0")
GULLY = QColor("#8a6d4b")
TREE = QColor("#3f7a35")
BUILDING = QColor("#7b6f66")
ROAD = QColor("#a0522d")
GRID = QColor("#8c8474")


def centre(h: Hex) -> QPointF:
    x, y = hex_to_point(h, HEX_SIZE)
    return QPointF(x, y)


def hex_polygon(h: Hex, scale: float = 1.0) -> QPolygonF:
    c = centre(h)
    return QPolygonF([QPointF(c.x() + dx * scale, c.y() + dy * scale) for dx, dy in corner_offsets(HEX_SIZE)])


def hex_at(point: QPointF) -> Hex:
    return point_to_hex(point.x(), point.y(), HEX_SIZE)


class HexItem(QGraphicsItem):
    """One hex's terrain: hill shade, marsh, gully, trees by count, building footprint."""

    def __init__(self, board: Board, h: Hex, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self.hex = board, h
        self._shape = hex_polygon(h)
        self._bounds = self._shape.boundingRect().adjusted(-1, -1, 1, 1)
        # drawn once into a pixmap: an overlay moving over the map (an LOS line under the
        # cursor) then costs a copy per hex, not the trees and symbols again
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        paint_terrain(painter, self.board, self.hex, self.board.terrain(self.hex), self._shape)


def paint_terrain(painter: QPainter, board: Board, h: Hex, t: Terrain, shape: QPolygonF) -> None:
    """Draw one hex (used by the view and by the print-ready render)."""
    painter.setPen(QPen(GRID, 0.6))
    painter.setBrush(QBrush(HILL.get(t.elevation, GROUND) if t.elevation else GROUND))
    painter.drawPolygon(shape)
    c = centre(h)
    if t.upper_level is not None:  # a crest: the upper level shaded in the upper half (10.34)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(HILL.get(t.upper_level, GROUND)))
        painter.drawPolygon(hex_polygon(h, 0.45))
    if t.marsh:
        painter.setPen(QPen(MARSH.darker(130), 1.2))
        for dy in (-6, 0, 6):
            painter.drawLine(QPointF(c.x() - 9, c.y() + dy), QPointF(c.x() + 9, c.y() + dy))
    if t.gully:
        painter.setPen(QPen(GULLY, 3))
        painter.drawLine(QPointF(c.x() - 14, c.y() + 4), QPointF(c.x() + 14, c.y() - 4))
    if t.building is not None:
        painter.setPen(QPen(BUILDING.darker(150), 1))
        painter.setBrush(QBrush(BUILDING))
        painter.drawPath(building_path(board, h, t))
    if t.trees:
        painter.setPen(QPen(TREE.darker(140), 0.8))
        painter.setBrush(QBrush(TREE))
        for i in range(t.trees):  # one Tree symbol each, on a small circle round the centre
            angle = 2 * math.pi * i / max(t.trees, 1) - math.pi / 2
            r = 0 if t.trees == 1 else HEX_SIZE * 0.42
            painter.drawEllipse(QPointF(c.x() + r * math.cos(angle), c.y() + r * math.sin(angle)), 4.5, 4.5)


def building_path(board: Board, h: Hex, t: Terrain) -> QPainterPath:
    """The Building symbol as the LOS rules see it: the footprint, joined to the same building's
    neighbours (tables/terrain-effects.yaml `building_footprint`; a hex's own `footprint`)."""
    from engine.model.tables import terrain_effects

    effects = terrain_effects()
    c = centre(h)
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)  # the bands overlap the footprint: one solid symbol
    outline = t.footprint or effects.footprint
    path.addPolygon(QPolygonF([QPointF(c.x() + x * HEX_SIZE, c.y() + y * HEX_SIZE) for x, y in outline]))
    path.closeSubpath()
    half = effects.join_width * HEX_SIZE / 2
    for d in DIRECTIONS:
        if board.terrain(h + d).building == t.building:
            n = centre(h + d)
            mid = QPointF((c.x() + n.x()) / 2, (c.y() + n.y()) / 2)
            length = math.hypot(n.x() - c.x(), n.y() - c.y())
            px, py = -(n.y() - c.y()) / length * half, (n.x() - c.x()) / length * half
            band = QPolygonF(
                [
                    QPointF(c.x() + px, c.y() + py),
                    QPointF(mid.x() + px, mid.y() + py),
                    QPointF(mid.x() - px, mid.y() - py),
                    QPointF(c.x() - px, c.y() - py),
                ]
            )
            path.addPolygon(band)
            path.closeSubpath()
    return path.simplified()


class RoadItem(QGraphicsItem):
    """The roads: each chain drawn from hex centre to hex centre across the hexsides it uses."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        paint_roads(painter, self.board)


def paint_roads(painter: QPainter, board: Board) -> None:
    painter.setPen(QPen(ROAD, 3.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for road in board.roads:
        path = QPainterPath(centre(road[0]))
        for h in road[1:]:
            path.lineTo(centre(h))
        painter.drawPath(path)
    painter.setPen(QPen(QColor("#303030"), 1.5))
    for b in board.bridges:
        c = centre(b)
        painter.drawRect(QRectF(c.x() - 6, c.y() - 4, 12, 8))


class LabelItem(QGraphicsItem):
    """Printed hex labels (XXYY), painted only where exposed."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds
        self.setZValue(2)
        # without it the option's exposedRect is the whole map: every repaint drew every label
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setFont(QFont("DejaVu Sans", 5))
        painter.setPen(QColor("#5a5446"))
        exposed = option.exposedRect  # type: ignore[attr-defined]
        for h in self.board.hexes:
            c = centre(h)
            if exposed.contains(c):
                painter.drawText(
                    QRectF(c.x() - 14, c.y() - HEX_SIZE * 0.86, 28, 8),
                    Qt.AlignmentFlag.AlignHCenter,
                    self.board.label(h),
                )


class NamesItem(QGraphicsItem):
    """Hill names and building ids, each written once, in the hex nearest the middle of its area."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds
        self.setZValue(3)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        font = QFont("DejaVu Sans", 9)
        font.setBold(True)
        painter.setFont(font)
        for prefix, colour, areas in (
            ("Hill ", QColor("#6b4f1d"), self.board.hills()),
            ("", QColor("#ffffff"), self.board.buildings()),
        ):
            painter.setPen(colour)
            for name, hexes in areas.items():
                c = centre(_middle(hexes))
                text = f"{prefix}{name}"
                painter.drawText(QRectF(c.x() - 40, c.y() - 8, 80, 16), Qt.AlignmentFlag.AlignCenter, text)


def _middle(hexes: frozenset[Hex]) -> Hex:
    """The hex of an area nearest its centroid (where its name is written)."""
    points = [centre(h) for h in hexes]
    x = sum(p.x() for p in points) / len(points)
    y = sum(p.y() for p in points) / len(points)
    return min(sorted(hexes), key=lambda h: (centre(h).x() - x) ** 2 + (centre(h).y() - y) ** 2)


class HexSetItem(QGraphicsItem):
    """A set of hexes drawn in one colour (zones, viewsheds, reach bands, selections)."""

    def __init__(self, parent: QGraphicsItem, colour: QColor, outline: QColor | None = None) -> None:
        super().__init__(parent)
        self.hexes: dict[Hex, QColor] = {}
        self.colour, self.outline = colour, outline
        self._bounds = QRectF()

    def set_hexes(self, hexes: Iterable[Hex] | dict[Hex, QColor]) -> None:
        self.prepareGeometryChange()
        self.hexes = dict(hexes) if isinstance(hexes, dict) else {h: self.colour for h in hexes}
        rect = QRectF()
        for h in self.hexes:
            rect = rect.united(hex_polygon(h).boundingRect())
        self._bounds = rect.adjusted(-2, -2, 2, 2)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(QPen(self.outline, 1.5) if self.outline else Qt.PenStyle.NoPen)
        for h, colour in self.hexes.items():
            painter.setBrush(QBrush(colour))
            painter.drawPolygon(hex_polygon(h))


class MapScene(QGraphicsScene):
    """The board drawn as items, one parent item per layer; mouse events reported as hexes."""

    hex_pressed = Signal(object, object)  # Hex, QGraphicsSceneMouseEvent
    hex_moved = Signal(object, object)
    hex_released = Signal(object, object)
    hovered = Signal(object)  # Hex or None

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board
        self.layers: dict[str, QGraphicsObject] = {}
        for z, name in enumerate(LAYERS):
            layer = _Layer()
            layer.setZValue(z)
            self.addItem(layer)
            self.layers[name] = layer
        self.items_by_hex: dict[Hex, HexItem] = {}
        self.set_board(board)
        self.setBackgroundBrush(QColor("#d8d2c0"))

    def set_board(self, board: Board) -> None:
        """Draw a board: the hexes, roads and labels; another document's board replaces them, while
        the layers and what features put on them stay."""
        if self.items_by_hex:  # another board was drawn: its items go
            for item in (*self.items_by_hex.values(), self.roads, self.labels, self.names):
                self.removeItem(item)
        self.board = board
        self.items_by_hex = {h: HexItem(board, h, self.layers["terrain"]) for h in sorted(board.hexes)}
        bounds = self.layers["terrain"].childrenBoundingRect()
        self.roads = RoadItem(board, bounds, self.layers["roads"])
        self.labels = LabelItem(board, bounds, self.layers["labels"])
        self.names = NamesItem(board, bounds, self.layers["labels"])
        self.setSceneRect(bounds.adjusted(-HEX_SIZE, -HEX_SIZE, HEX_SIZE, HEX_SIZE))
        board.watchers.append(self.terrain_changed)

    def terrain_changed(self, hexes: frozenset[Hex]) -> None:
        """Repaint the edited hexes and their neighbours (building symbols join across hexsides)."""
        for h in hexes:
            for n in (h, *(h + d for d in DIRECTIONS)):
                item = self.items_by_hex.get(n)
                if item is not None:
                    item.update()
        named = [t for h in hexes for t in (self.board.terrain(h), self.board.previous.get(h))]
        if any(t is not None and (t.hill is not None or t.building is not None) for t in named):
            self.names.update()  # a hill or building may have grown, shrunk or moved

    def set_layer_visible(self, name: str, visible: bool) -> None:
        self.layers[name].setVisible(visible)

    def hex_of(self, event: QGraphicsSceneMouseEvent) -> Hex | None:
        h = hex_at(event.scenePos())
        return h if h in self.board.hexes else None

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        h = self.hex_of(event)
        if h is not None and event.button() == Qt.MouseButton.LeftButton:
            self.hex_pressed.emit(h, event)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        h = self.hex_of(event)
        self.hovered.emit(h)
        if h is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self.hex_moved.emit(h, event)
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        h = self.hex_of(event)
        if event.button() == Qt.MouseButton.LeftButton:
            self.hex_released.emit(h, event)
        super().mouseReleaseEvent(event)


class _Layer(QGraphicsObject):
    """An empty parent item: showing or hiding it shows or hides a layer."""

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        return


class MapView(QGraphicsView):
    """Zoom with the wheel (or Ctrl +/-), pan with the middle button or the scroll bars."""

    def __init__(self, scene: MapScene) -> None:
        super().__init__(scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setMouseTracking(True)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # every item sets its own pen and brush: no need to save the painter's state around each
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self._panning: QPointF | None = None

    def zoom(self, factor: float) -> None:
        current = self.transform().m11()
        factor = max(0.15 / current, min(factor, 8.0 / current))
        self.scale(factor, factor)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)

    def mousePressEvent(self, event):  # type: ignore[no-untyped-def]
        if event.button() == Qt.MouseButton.MiddleButton:
            self._panning = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event):  # type: ignore[no-untyped-def]
        if self._panning is not None:
            delta = event.position() - self._panning
            self._panning = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event):  # type: ignore[no-untyped-def]
        if event.button() == Qt.MouseButton.MiddleButton:
            self._panning = None
            self.unsetCursor()
            return
        super().mouseReleaseEvent(event)

    def centre_on(self, h: Hex) -> None:
        self.centerOn(centre(h))
