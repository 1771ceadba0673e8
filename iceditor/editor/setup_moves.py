"""Moving a test set-up's pieces on the map (features/setup_editor.py): the Set-up panel's markers
to drag from (an IP, a mined hex, a hidden hex), drops of units and markers on the map view, and
the Set-up tool (U) that drags a placed counter or marker to another hex."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QEvent, QMimeData, QObject, Qt
from PySide6.QtGui import QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem

from engine.hexgrid import Hex

from .mapview import hex_at
from .setup_drag import read_setup_mime, setup_mime
from .setup_items import PieceItem
from .window import MainWindow, Tool

if TYPE_CHECKING:
    from .features.setup_editor import SetupPanel


class MarkerList(QListWidget):
    """IPs, mined hexes and hidden hexes to drag onto the map, for the panel's side."""

    def __init__(self, panel: SetupPanel) -> None:
        super().__init__(objectName="setup-markers")
        self.panel = panel
        self.setFlow(QListWidget.Flow.LeftToRight)
        self.setMaximumHeight(30)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        for section, text, tip in (
            ("improved_positions", "Improved position", "an IP marker of the points shown (18.1)"),
            ("mines", "Mined hex", "AP and AT mine factors in a hex (19.11-19.14)"),
            ("hidden_hexes", "Hidden hex", "a hidden hex (24.2)"),
        ):
            item = QListWidgetItem(text, self)
            item.setData(Qt.ItemDataRole.UserRole, section)
            item.setToolTip(f"drag onto the map: {tip}")

    def mimeData(self, items: list[QListWidgetItem]) -> QMimeData:
        section = items[0].data(Qt.ItemDataRole.UserRole)
        panel = self.panel
        entry: dict[str, Any] = {}
        if section == "improved_positions":
            entry = {"points": panel.ip_points.value()}
        elif section == "mines":
            factors = {"ap_factors": panel.ap_factors.value(), "at_factors": panel.at_factors.value()}
            entry = {k: v for k, v in factors.items() if v} or {"ap_factors": 0}
        return setup_mime(panel.side.currentText(), section, entry)


class Drops(QObject):
    """Units and markers dropped on the map view: the hex under the pointer is marked while dragging."""

    def __init__(self, window: MainWindow, panel: SetupPanel) -> None:
        super().__init__(window)
        self.window, self.panel = window, panel
        window.view.viewport().setAcceptDrops(True)
        window.view.viewport().installEventFilter(self)

    def hex_of(self, event: QDropEvent) -> Hex | None:
        h = hex_at(self.window.view.mapToScene(event.position().toPoint()))
        return h if h in self.window.document.board.hexes else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop, QEvent.Type.DragLeave):
            return False
        if kind == QEvent.Type.DragLeave:
            self.panel.target.set_hexes([])
            return False
        drag = cast(QDragMoveEvent, event)
        found = read_setup_mime(drag.mimeData())
        if found is None or not self.panel.shared.active:
            return False
        h = self.hex_of(drag)
        if kind == QEvent.Type.Drop:
            self.panel.target.set_hexes([])
            if h is not None:
                drag.acceptProposedAction()
                side, section, entry = found
                self.panel.add(side, section, entry, h)
            return True
        self.panel.target.set_hexes([h] if h is not None else [])
        if h is not None or kind == QEvent.Type.DragEnter:
            drag.acceptProposedAction()
        else:
            drag.ignore()
        return True


class SetupTool(Tool):
    name = "setup"
    label = "Set-up"
    shortcut = "U"
    group = "scenario"
    tip = "Move set-up counters and markers: drag them to another hex; click to select; right-click for more"

    def __init__(self, window: MainWindow, panel: SetupPanel) -> None:
        super().__init__(window)
        self.panel = panel
        self.held: PieceItem | None = None
        self.origin: Any = None

    def press(self, h: Hex, event: Any) -> None:
        pieces = [i for i in self.window.scene.items(event.scenePos()) if isinstance(i, PieceItem)]
        if not pieces:
            pieces = sorted((i for i in self.panel.items if i.piece.hex == h), key=lambda i: -i.zValue())
        self.held = pieces[0] if pieces else None
        self.origin = event.scenePos()
        if self.held is not None:
            self.panel.select(self.held.piece.path)
            self.held.setZValue(100)

    def move(self, h: Hex, event: Any) -> None:
        if self.held is not None:
            self.held.setPos(event.scenePos() - self.origin)
            self.panel.target.set_hexes([h])

    def release(self, h: Hex | None, event: Any) -> None:
        held, self.held = self.held, None
        self.panel.target.set_hexes([])
        if held is None:
            return
        if h is None or h == held.piece.hex or not self.panel.move(held.piece.path, h):
            self.panel.refresh()
