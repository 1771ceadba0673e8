"""View > Legend: a panel explaining every symbol the map draws, drawn by the map's painters."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QScrollArea, QWidget

from ..legend import legend_size, paint_legend
from ..window import MainWindow

MARGIN = 4.0


class LegendView(QWidget):
    """The legend laid out to the panel's width, as tall as that makes it (the panel scrolls)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("legend")
        self.setMinimumWidth(240)

    def sizeHint(self) -> QSize:
        width = max(self.width(), 300)
        return QSize(width, self._height(width))

    def _height(self, width: int) -> int:
        return round(legend_size(width - 2 * MARGIN)[1] + 2 * MARGIN)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.setMinimumHeight(self._height(self.width()))
        super().resizeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        paint_legend(painter, QPointF(MARGIN, MARGIN), self.width() - 2 * MARGIN)
        painter.end()


def install(window: MainWindow) -> None:
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)  # the legend takes the panel's width
    scroll.setWidget(LegendView())
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    dock = window.add_dock("Legend", scroll)
    dock.toggleViewAction().setToolTip("What each symbol on the map means")
    dock.hide()
