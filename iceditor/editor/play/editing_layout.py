"""The editing window kept while the map plays: its docks and bars, the tool, the menus that edit,
the layers the set-up draws, the map's zoom and middle. Playing puts them away; going back to
editing brings them back as they were, and the map's middle in play is kept for the next time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QPointF, Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QDockWidget

from .faces import PLAY_ZOOM

if TYPE_CHECKING:
    from ..window import MainWindow

EDITING_MENUS = ("Edit", "Tools", "Overlays", "Errata")  # no edit while playing: Back to editing first
EDITING_LAYERS = ("units", "zones", "overlays")  # the set-up's counters and the tools' drawings


class EditingLayout:
    def __init__(self, window: MainWindow, play_dock: QDockWidget) -> None:
        self.window = window
        self.play_dock = play_dock
        self._docks: list[QDockWidget] = []
        self._fronts: list[QDockWidget] = []
        self._tool: Any = None
        self._state: QByteArray | None = None  # the window's docks and bars while editing
        self._view: tuple[QTransform, QPointF] | None = None  # the editing map's zoom and middle
        self._play_middle: QPointF | None = None  # the map's middle in play, on leaving it

    def put_away(self) -> None:
        """The map gets the window: the editing docks, bars, tool, menus and layers go, the map is
        at play's zoom (and where it was in play before)."""
        window, view = self.window, self.window.view
        self._state = window.saveState()
        self._view = (view.transform(), view.mapToScene(view.viewport().rect().center()))
        view.resetTransform()
        view.scale(PLAY_ZOOM, PLAY_ZOOM)
        if self._play_middle is not None:
            view.centerOn(self._play_middle)
        self._docks = [d for d in window.findChildren(QDockWidget) if d.isVisible() and d is not self.play_dock]
        # of docks sharing a place as tabs, the ones in front (a tab behind others shows nothing)
        self._fronts = [d for d in self._docks if not d.visibleRegion().isEmpty()]
        for dock in self._docks:
            dock.hide()
        for bar in (window.tool_bar, window.options_bar):
            bar.hide()
        self._tool, window.tool = window.tool, None  # clicks go to the board in play only
        window._tool_actions.setEnabled(False)
        self._enable_menus(False)
        for layer in EDITING_LAYERS:
            window.scene.layers[layer].setVisible(False)

    def bring_back(self) -> None:
        """Back to editing: everything put away as it was, each layer as the Layers list checks it."""
        window, view = self.window, self.window.view
        for bar in (window.tool_bar, window.options_bar):
            bar.show()
        for dock in self._docks:
            dock.show()
        for dock in self._fronts:
            dock.raise_()
        if self._state is not None:
            window.restoreState(self._state)
        self._play_middle = view.mapToScene(view.viewport().rect().center())
        if self._view is not None:
            view.setTransform(self._view[0])
            view.centerOn(self._view[1])
        window.tool = self._tool
        window._tool_actions.setEnabled(True)
        self._enable_menus(True)
        for layer in EDITING_LAYERS:
            checked = any(
                window.layer_list.item(i).data(Qt.ItemDataRole.UserRole) == layer
                and window.layer_list.item(i).checkState() == Qt.CheckState.Checked
                for i in range(window.layer_list.count())
            )
            window.scene.layers[layer].setVisible(checked)

    def forget_play_middle(self) -> None:
        """Another file in the window: its play starts where the map is."""
        self._play_middle = None

    def _enable_menus(self, enabled: bool) -> None:
        for name in EDITING_MENUS:
            if name in self.window.menus:
                self.window.menus[name].setEnabled(enabled)
