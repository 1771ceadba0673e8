"""View > Legend: a panel explaining every symbol the map draws, drawn by the map's painters."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QScrollArea, QWidget

from ..legend import legend_size, paint_legend
from ..window import MainWindow

WIDTH = 300.0  # the legend's width in pixels; it scrolls when taller than the panel


class LegendView(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("legend")
        self.setMinimumSize(self.sizeHint())

    def sizeHint(self) -> QSize:
        width, height = legend_size(WIDTH)
        return QSize(round(width) + 8, round(height) + 8)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        paint_legend(painter, QPointF(4, 4), WIDTH)
        painter.end()


def install(window: MainWindow) -> None:
    scroll = QScrollArea()
    scroll.setWidget(LegendView())
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    dock = window.add_dock("Legend", scroll)
    dock.toggleViewAction().setToolTip("What each symbol on the map means")
    dock.hide()
