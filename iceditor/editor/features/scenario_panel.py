"""The scenario's metadata (24.1): title, number, game length, who sets up and moves first, and
the NORTH indicator, which is drawn on the map as an arrow and placed with the North tool (N):
press in the indicator's hex and drag onto the adjacent hex it points to."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QComboBox,
    QGraphicsItem,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QStyleOptionGraphicsItem,
    QWidget,
)

from engine.hexgrid import Hex, are_adjacent, neighbours
from engine.model.schema import integer_range

from ..mapview import HEX_SIZE, centre
from ..scenario_data import DataPath, Edit, quoted
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..window import MainWindow, Tool

ORDER = 40
SIDES = ("german", "russian")
ARROW = QColor("#8b1a1a")


class MetadataPanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("scenario-metadata")
        self.window, self.shared = window, shared
        grid = QGridLayout(self)
        grid.setContentsMargins(6, 4, 6, 4)
        self.title = QLineEdit(objectName="title")
        self.title.editingFinished.connect(lambda: self._set("title", self.title.text().strip(), "Title"))
        self.number = _spin("number", *integer_range("scenario", "number"))
        self.number.valueChanged.connect(lambda v: self._set("number", v, "Scenario number"))
        self.game_length = _spin("game_length", *integer_range("scenario", "game_length"))
        self.game_length.setSuffix(" turns")
        self.game_length.valueChanged.connect(lambda v: self._set("game_length", v, "Game length"))
        self.sets_up_first = _sides("sets_up_first")
        self.sets_up_first.currentTextChanged.connect(lambda v: self._set("sets_up_first", v, "Sets up first"))
        self.moves_first = _sides("moves_first")
        self.moves_first.currentTextChanged.connect(lambda v: self._set("moves_first", v, "Moves first"))
        self.north_hex = QLineEdit(objectName="north")
        self.north_hex.setInputMask("9999")
        self.north_hex.setToolTip("The hex the NORTH indicator is placed in (24.1); or use the North tool (N)")
        self.north_hex.editingFinished.connect(self._north_hex_edited)
        self.north_toward = QComboBox(objectName="north_toward")
        self.north_toward.setToolTip("The adjacent hex the indicator points to: north on the map")
        self.north_toward.activated.connect(self._north_toward_chosen)
        rows = (
            (("Title", self.title),),
            (("Number", self.number), ("Game length", self.game_length)),
            (("Sets up first", self.sets_up_first), ("Moves first", self.moves_first)),
            (("North in", self.north_hex), ("pointing to", self.north_toward)),
        )
        for row, fields in enumerate(rows):
            for i, (text, widget) in enumerate(fields):
                grid.addWidget(QLabel(text), row, 2 * i)
                grid.addWidget(widget, row, 2 * i + 1, 1, 3 if len(fields) == 1 else 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.fields: dict[str, QWidget] = {
            "title": self.title,
            "number": self.number,
            "game_length": self.game_length,
            "sets_up_first": self.sets_up_first,
            "moves_first": self.moves_first,
            "north": self.north_hex,
        }
        self.setMaximumHeight(self.sizeHint().height())
        self.refresh()

    def refresh(self) -> None:
        if not self.shared.active:
            return
        data = self.shared.data
        for widget in self.fields.values():
            widget.blockSignals(True)
        self.north_toward.blockSignals(True)
        self.title.setText(str(data.get("title", "")))
        self.number.setValue(int(data.get("number", 1)))
        self.game_length.setValue(int(data.get("game_length", 1)))
        self.sets_up_first.setCurrentText(str(data.get("sets_up_first", "")))
        self.moves_first.setCurrentText(str(data.get("moves_first", "")))
        north = data.get("north") or {}
        self.north_hex.setText(str(north.get("hex", "")))
        self.north_toward.clear()
        at = self.shared.hex(north.get("hex"))
        for n in sorted(neighbours(at)) if at is not None else []:
            if n in self.window.document.board.hexes:
                self.north_toward.addItem(self.shared.label(n))
        self.north_toward.setCurrentText(str(north.get("toward", "")))
        for widget in self.fields.values():
            widget.blockSignals(False)
        self.north_toward.blockSignals(False)

    def _set(self, key: str, value: Any, label: str) -> None:
        if value == self.shared.data.get(key) or value in ("", None):
            return
        if not self.shared.push(Edit(f"{label}: {value}").set((), key, value, after="game_length")):
            self.refresh()

    def _north_hex_edited(self) -> None:
        at = self.shared.hex(self.north_hex.text())
        north = self.shared.data.get("north") or {}
        old_at, old_toward = self.shared.hex(north.get("hex")), self.shared.hex(north.get("toward"))
        if at is None or at == old_at:
            self.refresh()
            return
        toward = at + (old_toward - old_at) if old_at is not None and old_toward is not None else None
        if toward not in self.window.document.board.hexes:
            toward = next((n for n in sorted(neighbours(at)) if n in self.window.document.board.hexes), None)
        if toward is not None:
            set_north(self.shared, at, toward)

    def _north_toward_chosen(self) -> None:
        at, toward = self.shared.hex(self.north_hex.text()), self.shared.hex(self.north_toward.currentText())
        if at is not None and toward is not None:
            set_north(self.shared, at, toward)

    def select(self, path: DataPath) -> bool:
        widget = self.fields.get(str(path[0])) if path else None
        if widget is None:
            return False
        show_dock(self)
        widget.setFocus()
        return True


def set_north(shared: ScenarioPanels, at: Hex, toward: Hex) -> bool:
    """Place the NORTH indicator in `at` pointing to the adjacent `toward`, as one undo step."""
    north = shared.data.get("north") or {}
    labels = shared.label(at), shared.label(toward)
    if (north.get("hex"), north.get("toward")) == labels or not are_adjacent(at, toward):
        return False
    edit = Edit(f"North indicator {labels[0]} -> {labels[1]}")
    edit.set(("north",), "hex", quoted(labels[0])).set(("north",), "toward", quoted(labels[1]))
    return shared.push(edit)


class NorthArrow(QGraphicsItem):
    """The NORTH indicator: an arrow from its hex across the hexside it points through, marked N."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.at: Hex | None = None
        self.toward: Hex | None = None
        self.setZValue(5)

    def place(self, at: Hex | None, toward: Hex | None) -> None:
        self.prepareGeometryChange()
        self.at, self.toward = at, toward
        self.update()

    def boundingRect(self) -> QRectF:
        if self.at is None:
            return QRectF()
        c = centre(self.at)
        r = HEX_SIZE * 2
        return QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.at is None or self.toward is None:
            return
        a, b = centre(self.at), centre(self.toward)
        angle = math.atan2(b.y() - a.y(), b.x() - a.x())
        ux, uy = math.cos(angle), math.sin(angle)
        tail = QPointF(a.x() - ux * HEX_SIZE * 0.55, a.y() - uy * HEX_SIZE * 0.55)
        tip = QPointF(a.x() + ux * HEX_SIZE * 1.25, a.y() + uy * HEX_SIZE * 1.25)
        head = HEX_SIZE * 0.45
        left = QPointF(tip.x() - head * math.cos(angle - 0.45), tip.y() - head * math.sin(angle - 0.45))
        right = QPointF(tip.x() - head * math.cos(angle + 0.45), tip.y() - head * math.sin(angle + 0.45))
        path = QPainterPath(tail)
        path.lineTo(tip)
        painter.setPen(QPen(QColor("white"), 5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawPath(path)
        painter.setPen(QPen(ARROW, 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.drawPath(path)
        painter.setBrush(QBrush(ARROW))
        painter.setPen(QPen(QColor("white"), 1))
        painter.drawPolygon(QPolygonF([tip, left, right]))
        painter.setFont(QFont("DejaVu Sans", 9, QFont.Weight.Bold))
        painter.setPen(ARROW)
        # the N beside the head, so the arrow reads "north is this way" whichever way it points
        n = QPointF(tip.x() - ux * head * 0.9 - uy * head * 1.1, tip.y() - uy * head * 0.9 + ux * head * 1.1)
        painter.drawText(QRectF(n.x() - 8, n.y() - 8, 16, 16), Qt.AlignmentFlag.AlignCenter, "N")


class NorthTool(Tool):
    name = "north"
    label = "North indicator"
    shortcut = "N"
    group = "scenario"
    tip = "Place the NORTH indicator: press in its hex, drag onto the hex it points to"

    def __init__(self, window: MainWindow, shared: ScenarioPanels, arrow: NorthArrow) -> None:
        super().__init__(window)
        self.shared, self.arrow = shared, arrow
        self.at: Hex | None = None
        self.toward: Hex | None = None

    def press(self, h: Hex, event: Any) -> None:
        if not self.shared.active:
            return
        north = self.shared.data.get("north") or {}
        old_at, old_toward = self.shared.hex(north.get("hex")), self.shared.hex(north.get("toward"))
        self.at = h
        self.toward = h + (old_toward - old_at) if old_at is not None and old_toward is not None else None
        self.arrow.place(self.at, self.toward)

    def move(self, h: Hex, event: Any) -> None:
        if self.at is not None and are_adjacent(self.at, h):
            self.toward = h
            self.arrow.place(self.at, self.toward)

    def release(self, h: Hex | None, event: Any) -> None:
        at, toward = self.at, self.toward
        self.at = self.toward = None
        if at is None:
            return
        if toward is None or toward not in self.window.document.board.hexes:
            self.window.statusBar().showMessage("The NORTH indicator points to an adjacent hex of the map", 4000)
        elif set_north(self.shared, at, toward):
            return
        show_north(self.shared, self.arrow)


def show_north(shared: ScenarioPanels, arrow: NorthArrow) -> None:
    north = (shared.data.get("north") or {}) if shared.active else {}
    arrow.place(shared.hex(north.get("hex")), shared.hex(north.get("toward")))


def _spin(name: str, low: int, high: int | None) -> QSpinBox:
    """A number box offering what the schema allows (high None: any number from `low`)."""
    spin = QSpinBox(objectName=name)
    spin.setRange(low, 2**31 - 1 if high is None else high)
    spin.setKeyboardTracking(False)  # one edit when the value is entered, not one per digit
    return spin


def _sides(name: str) -> QComboBox:
    combo = QComboBox(objectName=name)
    combo.addItems(SIDES)
    return combo


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = MetadataPanel(window, shared)
    shared.add_dock("Scenario", panel, tabbed=False)
    shared.on_pointer(panel.select)
    arrow = NorthArrow(window.scene.layers["overlays"])
    shared.add_tool(NorthTool(window, shared, arrow))
    show_north(shared, arrow)

    def changed() -> None:
        panel.refresh()
        show_north(shared, arrow)

    window.document_changed.connect(changed)
