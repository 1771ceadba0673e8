"""A unit of the view drawn as its counter (counter_drawing.py, the set-up's drawing): its face
(faces.py), UP or DOWN (3.0), its facing wedge (8.7), a P or S marker on it (3.21), and marks for
what it did this Player Turn: moved (4.0) and fired (10.11). A unit of one's own that is hidden
(24.21) has a dashed edge and an H mark: the enemy does not see it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from engine.hexgrid import Hex

from ..counter_drawing import COUNTER, EDGE, INK, SELECTED, WHITE, paint_counter, paint_wedge, write
from .faces import Face

# 3.21: 'A unit stacked with a 'P' marker is in a PINNED morale status ... an 'S' marker ... SUPPRESSED'
MORALE_MARKERS = {"pinned": ("P", QColor("#f2d13a"), INK), "suppressed": ("S", QColor("#c8322a"), WHITE)}
# 4.0, 10.11: what it did this Player Turn; 24.21: one's own unit the enemy does not see
HIDDEN = QColor("#6a3d9a")  # its mark, its edge and its hidden hex's outline
MARKS = {"moved": ("M", QColor("#2f6fd0")), "fired": ("F", QColor("#e07a12")), "hidden": ("H", HIDDEN)}
MARKER = 10.0  # a P or S marker's side, over the counter's top right corner
BADGE = 4.0  # a moved or fired mark's radius, on the counter's left edge


def state_words(unit: dict[str, Any]) -> str:
    """A unit's state in the rulebook's words: 'UP, NORMAL', 'DOWN, PINNED, moved, fired'."""
    return ", ".join((f"{str(unit['state']).upper()} {str(unit['morale']).upper()}", *marks(unit)))


def marks(unit: dict[str, Any]) -> list[str]:
    """What the unit did this Player Turn and what else its counter shows beyond its state."""
    words = [mark for mark in ("moved", "fired") if unit.get(mark)]
    if unit.get("immobilized"):
        words.append("immobilized (8.54)")
    if unit.get("hidden"):
        words.append("hidden (24.21)")
    if "ammo" in unit:  # the advanced rules: the points left on the roster (22.3)
        words.append(f"{unit['ammo']} ammo points left (22.3)" if unit["ammo"] else "out of ammo (22.1)")
    return words


class CounterItem(QGraphicsItem):
    """`unit` a unit's data in the view (views.py: id, side, kind, type, hex, state, morale, facing,
    men, hidden, immobilized, moved, fired; with the advanced rules its ammo points left), drawn at
    `at` (its centre), `size` units across."""

    def __init__(
        self,
        unit: dict[str, Any],
        face: Face,
        h: Hex,
        facing: Hex | None,
        at: QPointF,
        parent: QGraphicsItem | None,
        size: float = COUNTER,
    ) -> None:
        super().__init__(parent)
        self.unit, self.face, self.hex, self.facing = unit, face, h, facing
        self.at, self.size = at, size  # fixed: a counter moved is a new item (board_items.py)
        half, margin = size / 2, 8.0 * size / COUNTER  # the wedge, the marker and the marks stand out of the square
        self._rect = QRectF(at.x() - half, at.y() - half, size, size)
        self._bounds = self._rect.adjusted(-margin, -margin, margin, margin)  # asked for at every repaint
        self.selected = False
        self.setToolTip(f"{face.name}: {state_words(unit)}\n{face.detail}")

    @property
    def uid(self) -> str:
        return str(self.unit["id"])

    def rect(self) -> QRectF:
        return QRectF(self._rect)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self.rect())
        return path

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        rect, unit, k = self.rect(), self.unit, self.size / COUNTER
        down = unit["state"] == "down"
        hidden = bool(unit.get("hidden"))
        strip = self.face.strip
        if self.face.crew is not None and unit.get("men") is not None and unit["men"] < self.face.crew:
            strip += f" c{unit['men']}"  # 8.12, 20.1: a crew short of its full strength
        outline, width = (SELECTED, 2.4 * k) if self.selected else (EDGE, 0.8 * k)
        paint_counter(
            painter, rect, unit["side"], (self.face.unit, self.face.values, strip), down, scale, outline, width
        )
        if hidden:  # 24.21: a dashed edge round it, as round its hidden hex
            painter.setPen(QPen(HIDDEN, 1.4 * k, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(-1.5, -1.5, 1.5, 1.5))
        if self.facing is not None:
            paint_wedge(painter, self.at, self.size, self.hex, self.facing)
        marker = MORALE_MARKERS.get(str(unit["morale"]))
        if marker is not None:
            text, fill, ink = marker
            side = MARKER * k
            square = QRectF(rect.right() - side * 0.45, rect.top() - side * 0.45, side, side)  # clear of the print
            painter.setPen(QPen(INK, 0.8 * k))
            painter.setBrush(QBrush(fill))
            painter.drawRect(square)
            write(painter, square, text, side * 0.85, scale, True, ink)
        for n, mark in enumerate(m for m in MARKS if unit.get(m)):  # outside the left edge, low: the print shows
            text, fill = MARKS[mark]
            r = BADGE * k
            middle = QPointF(rect.left() - r * 0.4, rect.bottom() - r - n * 2.1 * r)
            painter.setPen(QPen(WHITE, 0.8 * k))
            painter.setBrush(QBrush(fill))
            painter.drawEllipse(middle, r, r)
            write(painter, QRectF(middle.x() - r, middle.y() - r, 2 * r, 2 * r), text, r * 1.5, scale, True, WHITE)
        if unit.get("immobilized"):  # 8.54, 8.55: a bar across the strip
            painter.setPen(QPen(QColor("#c8322a"), 1.6 * k))
            painter.drawLine(
                QPointF(rect.left() + 2, rect.bottom() - 2), QPointF(rect.right() - 2, rect.bottom() - 8 * k)
            )
