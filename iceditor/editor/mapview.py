"""The hex map: a QGraphicsScene with one item per hex, drawn from the board's terrain.

Flat-topped hexes at engine.hexgrid's layout (sheet units scaled by HEX_SIZE pixels). Each
layer is a parent item that can be shown or hidden: terrain, roads, labels, zones, units,
overlays. A terrain edit repaints only the hexes it touched (Board.set_terrain's watchers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from engine.hexgrid import DIRECTIONS, Hex
from engine.model.board import Board
from engine.model.tables import terrain_effects
from engine.model.terrain import Terrain

from .hex_layout import HEX_SIZE, centre, hex_at, hex_polygon, hex_rect
from .map_symbols import BUILDING as BUILDING  # the map's colours, for what draws like it (tool icons)
from .map_symbols import GROUND as GROUND
from .map_symbols import GULLY as GULLY
from .map_symbols import HILL as HILL
from .map_symbols import MARSH as MARSH
from .map_symbols import ROAD as ROAD
from .map_symbols import TREE as TREE
from .map_symbols import paint_bridge, paint_terrain, road_pen

LAYERS = ("terrain", "roads", "labels", "zones", "units", "overlays")


class HexItem(QGraphicsRectItem):
    """One hex's terrain, drawn by its symbols' painters (map_symbols.py). A rectangle item for its
    bounds: Qt asks every hex its bounds at each repaint of the map, and a Python boundingRect
    made that a call into Python per hex (1,107 on Scenario 6) at every hover (issue 22)."""

    def __init__(self, board: Board, h: Hex, parent: QGraphicsItem) -> None:
        super().__init__(hex_rect(h).adjusted(-1, -1, 1, 1), parent)
        self.setPen(Qt.PenStyle.NoPen)  # the bounds are the rectangle's own
        self.board, self.hex = board, h
        # drawn once into a pixmap: an overlay moving over the map (an LOS line under the
        # cursor) then costs a copy per hex, not the trees and symbols again
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        paint_terrain(painter, self.hex, self.board.terrain(self.hex), self.around)

    def around(self, h: Hex) -> Terrain | None:
        return self.board.terrain(h) if h in self.board.hexes else None


class RoadItem(QGraphicsItem):
    """The roads: each chain drawn from hex centre to hex centre across the hexsides it uses. One
    item over the whole map, so every repaint of the map paints it: it draws the chains and bridges
    that meet the exposed rectangle only (a LOS hover repaints a strip), from paths kept until the
    board's roads change."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # option.exposedRect
        self._drawn: tuple[tuple[tuple[Hex, ...], ...], tuple[Hex, ...]] | None = None  # the roads `_paths` are of
        self._paths: list[tuple[QRectF, QPainterPath]] = []  # each chain's path and the box its pen covers

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        roads = (tuple(map(tuple, self.board.roads)), tuple(self.board.bridges))
        if roads != self._drawn:
            self._drawn, self._paths = roads, [(_drawn_over(path), path) for path in map(road_path, roads[0])]
        exposed = option.exposedRect
        painter.setPen(road_pen())
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for box, path in self._paths:
            if box.intersects(exposed):
                painter.drawPath(path)
        for b in roads[1]:
            if _drawn_over(centre(b)).intersects(exposed):
                paint_bridge(painter, centre(b))


ROAD_REACH = 10.0  # a road's pen and a bridge's deck reach less far than this from the line or the hex centre


def _drawn_over(drawn: QPainterPath | QPointF) -> QRectF:
    """The box a road's path or a bridge at a point covers (a straight road's own box has no width)."""
    box = drawn.controlPointRect() if isinstance(drawn, QPainterPath) else QRectF(drawn, drawn)
    return box.adjusted(-ROAD_REACH, -ROAD_REACH, ROAD_REACH, ROAD_REACH)


def road_path(road: Sequence[Hex]) -> QPainterPath:
    path = QPainterPath(centre(road[0]))
    for h in road[1:]:
        path.lineTo(centre(h))
    return path


NUMBER_SIZE = 7.0  # a hex number's height (em) in scene units: its size on the printed sheet
LEGIBLE_PX = 6.0  # on screen, hex numbers that would be smaller are hidden, as map tools hide labels
LARGEST_PX = 12.0  # zoomed in, the numbers stop growing
NUMBER = QColor("#3b3527")
NAME_SIZE = 11.0  # hill names and building ids, in scene units
HILL_NAME = QColor("#5b4215")
BUILDING_ID = QColor("#ffffff")  # on the roof


def font_of_size(size: float, bold: bool = False) -> QFont:
    """A font `size` scene units high (scene units are pixels at 100%, 96 per inch)."""
    font = QFont("DejaVu Sans")
    font.setPointSizeF(size * 72 / 96)
    font.setBold(bold)
    return font


def number_rect(h: Hex, size: float = NUMBER_SIZE) -> QRectF:
    """Where a hex's number is written: across the top of the hex, inside it."""
    c = centre(h)
    return QRectF(c.x() - HEX_SIZE * 0.6, c.y() - HEX_SIZE * 0.84, HEX_SIZE * 1.2, size * 1.25)


class LabelItem(QGraphicsItem):
    """Printed hex numbers (XXYY), painted only where exposed, at a size that follows the zoom:
    hidden below a legible size, no larger than LARGEST_PX on screen. For print (`zoom_aware`
    off) they keep their size on the sheet."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds
        self.zoom_aware = True
        # each hex's number_rect at the size of _rects_size, and its number (the board's, fixed)
        self._rects: dict[Hex, tuple[QRectF, str]] = {}
        self._rects_size = 0.0
        self.setZValue(2)
        # without it the option's exposedRect is the whole map: every repaint drew every label
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def size_at(self, scale: float) -> float | None:
        """The numbers' height in scene units at `scale` screen pixels per scene unit; None: hidden."""
        if not self.zoom_aware:
            return NUMBER_SIZE
        if NUMBER_SIZE * scale < LEGIBLE_PX:
            return None
        return min(NUMBER_SIZE, LARGEST_PX / scale)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        size = self.size_at(QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform()))
        if size is None:
            return
        painter.setFont(font_of_size(size))
        exposed = option.exposedRect  # type: ignore[attr-defined]
        if size != self._rects_size:  # a new zoom: the rects anew (a repaint at one zoom reads them)
            self._rects, self._rects_size = {}, size
        rects = self._rects
        for h in self.board.hexes:
            kept = rects.get(h)
            if kept is None:
                kept = rects[h] = (number_rect(h, size), self.board.label(h))
            if exposed.intersects(kept[0]):  # a repaint of part of a hex may cross its number
                paint_number(painter, kept[0], kept[1], size, self.board.terrain(h).building is not None)


def paint_number(painter: QPainter, rect: QRectF, text: str, size: float, on_roof: bool) -> None:
    """A hex number in the painter's font (`size` high) in its number_rect, on a pale plate over a roof."""
    if on_roof:
        width = QFontMetricsF(painter.font()).horizontalAdvance(text) + 2
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(QColor(255, 252, 240, 200)))
        painter.drawRoundedRect(QRectF(rect.center().x() - width / 2, rect.top(), width, size * 1.2), 1.5, 1.5)
    painter.setPen(NUMBER)
    painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter, text)


class NamesItem(QGraphicsItem):
    """Hill names and building ids, each written once, in the middle of the hex nearest the middle
    of its area: below that hex's number, never over it."""

    def __init__(self, board: Board, bounds: QRectF, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.board, self._bounds = board, bounds
        self._names: list[Name] | None = None  # kept until a hill or building changes (changed())
        self.setZValue(3)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # the exposed part only

    def boundingRect(self) -> QRectF:
        return self._bounds

    def names(self) -> list[Name]:
        """Each name where it is written: hills brown; buildings white on the roof, made smaller
        when a long id (a hex's own, "2513") would run off its roof."""
        out = []
        roof = terrain_effects().footprint
        for prefix, colour, areas in (
            ("Hill ", HILL_NAME, self.board.hills()),
            ("", BUILDING_ID, self.board.buildings()),
        ):
            for name, hexes in areas.items():
                middle = _middle(hexes)
                c, text, size = centre(middle), f"{prefix}{name}", NAME_SIZE
                if colour is BUILDING_ID:
                    xs = [x for x, _ in self.board.terrain(middle).footprint or roof]
                    room = (max(xs) - min(xs)) * HEX_SIZE - 3
                    width = QFontMetricsF(font_of_size(size, bold=True)).horizontalAdvance(text)
                    size *= min(1.0, room / width)
                box = QFontMetricsF(font_of_size(size, bold=True)).tightBoundingRect(text)
                rect = QRectF(c.x() - box.width() / 2, c.y() - box.height() / 2, box.width(), box.height())
                out.append(Name(text, rect, colour, size))
        return out

    def changed(self) -> None:
        """A hill or building may have grown, shrunk or moved: its name is placed again."""
        self._names = None
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._names is None:
            self._names = self.names()
        exposed = option.exposedRect  # type: ignore[attr-defined]
        for name in self._names:
            if not exposed.intersects(name.rect.adjusted(-4, -4, 4, 4)):
                continue
            painter.setFont(font_of_size(name.size, bold=True))
            painter.setPen(name.colour)
            painter.drawText(name.rect.adjusted(-4, -4, 4, 4), Qt.AlignmentFlag.AlignCenter, name.text)


class Name(NamedTuple):
    """A hill's name or a building's id as written: its text, the rectangle it covers, colour, size."""

    text: str
    rect: QRectF
    colour: QColor
    size: float


def _middle(hexes: frozenset[Hex]) -> Hex:
    """The hex of an area nearest its centroid (where its name is written)."""
    points = [centre(h) for h in hexes]
    x = sum(p.x() for p in points) / len(points)
    y = sum(p.y() for p in points) / len(points)
    return min(sorted(hexes), key=lambda h: (centre(h).x() - x) ** 2 + (centre(h).y() - y) ** 2)


class SparseItem(QGraphicsItem):
    """An overlay that repaints only the parts of the map it changes. Its bounds cover the scene and
    stay: bounds that follow what it draws make Qt repaint the box of all of it at each change (a
    line of sight across the map, its whole box at every hover: issue 22). A change names its parts
    to the scene each apart (`repaint`; the item's own update() unites them into one box), and
    `paint` draws only what the exposed rectangle meets."""

    MOST_PARTS = 256  # more changed parts than this are repainted as their box (a region of many rects costs more)

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self._bounds = QRectF()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)  # option.exposedRect

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        """Nothing to point at (the box is the scene's): the map's items under the cursor stay its own."""
        return QPainterPath()

    def repaint(self, parts: list[QRectF]) -> None:
        """Repaint `parts` (item coordinates) of the map."""
        scene = self.scene()
        if scene is None or not parts:
            return
        box = QRectF(parts[0])
        for part in parts[1:]:
            box = box.united(part)
        if not self._bounds.contains(box):  # the first parts drawn, or a bigger board: the whole is repainted
            self.prepareGeometryChange()
            self._bounds = self.mapRectFromScene(scene.sceneRect()).united(box)
            return
        for part in parts if len(parts) <= self.MOST_PARTS else [box]:
            scene.update(self.mapRectToScene(part))


def exposed(option: QStyleOptionGraphicsItem) -> QRectF | None:
    """The part of an item to draw; None: all of it (an item drawn by hand, as the legend's)."""
    rect = option.exposedRect  # type: ignore[attr-defined]
    return None if rect.isNull() else rect


class HexSetItem(SparseItem):
    """A set of hexes drawn in one colour (zones, viewsheds, reach bands, selections); a change of
    the set repaints the hexes that changed."""

    def __init__(
        self, parent: QGraphicsItem, colour: QColor, outline: QColor | None = None, width: float = 1.5
    ) -> None:
        super().__init__(parent)
        self.hexes: dict[Hex, QColor] = {}
        self.colour, self.outline, self.width = colour, outline, width
        self._inset = 1 - max(width - 1.5, 0) / 2 / HEX_SIZE  # a wide outline stays inside its hex
        self._drawn: dict[Hex, tuple[QRectF, QPolygonF]] = {}  # each hex's box (with its outline) and polygon

    def _drawing(self, h: Hex) -> tuple[QRectF, QPolygonF]:
        drawn = self._drawn.get(h)
        if drawn is None:
            drawn = self._drawn[h] = (hex_rect(h).adjusted(-2, -2, 2, 2), hex_polygon(h, self._inset))
        return drawn

    def set_hexes(self, hexes: Iterable[Hex] | dict[Hex, QColor]) -> None:
        before = self.hexes
        self.hexes = dict(hexes) if isinstance(hexes, dict) else dict.fromkeys(hexes, self.colour)
        after = self.hexes
        changed = [
            h for h in before.keys() | after.keys() if h not in before or h not in after or before[h] != after[h]
        ]
        self.repaint([self._drawing(h)[0] for h in changed])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(QPen(self.outline, self.width) if self.outline else Qt.PenStyle.NoPen)
        rect = exposed(option)
        for h, colour in self.hexes.items():
            box, polygon = self._drawing(h)
            if rect is None or rect.intersects(box):
                painter.setBrush(QBrush(colour))
                painter.drawPolygon(polygon)


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
            self.names.changed()

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
