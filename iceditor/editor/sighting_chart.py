"""The Sighting Chart (10.32 b) drawn for one line of sight between units on different levels.

As on the printed chart, the lower unit stands at the left at its level and the other at its
level at the range between them ("Range to lower hex"); each potential obstacle the engine
found (Sight.profile) stands as a bar at its range from the lower hex, as high as its level
(10.32 a). The straight line joins the two units; a bar touching or crossing above it blocks,
and the first of those (the blocking hex) is drawn red.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.geometry.sight import ProfilePoint, Sight
from engine.hexgrid import Hex, hex_distance

from .overlays import FONT

LEVEL_MARKS = {0.0: "0", 0.5: "1/2", 1.0: "1", 2.0: "2"}  # the printed chart's level rows
BLOCKING = QColor("#c62828")
ALSO_ABOVE = QColor("#ef9a9a")  # above the line too, but beyond the hex that blocks first
OBSTACLE = QColor("#8d7b62")
LINE = QColor("#1e5aa8")


class SightingChart(QWidget):
    def __init__(self, label: Callable[[Hex], str]) -> None:
        super().__init__()
        self.label = label
        self.sight: Sight | None = None
        self.note = "Pick two hexes on different levels with the LOS tool (L) to see the Sighting Chart."
        self.setMinimumSize(420, 230)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def show_sight(self, sight: Sight | None) -> None:
        """Chart `sight` (None, or the same level: only a note, since 10.31 decides then)."""
        if sight is not None and sight.firer_level == sight.target_level:
            self.note = f"Both units are on level {sight.firer_level}: 10.31 decides, the Sighting Chart is not used."
            sight = None
        self.sight = sight
        self.update()

    def lower_hex(self) -> Hex:
        """The unit at the chart's left: the lower one (the firer when both are level)."""
        assert self.sight is not None
        s = self.sight
        return s.source if s.firer_level <= s.target_level else s.target

    def bars(self) -> list[tuple[ProfilePoint, int]]:
        """Each obstacle with its range to the lower hex, as the engine measured it (10.32 b)."""
        assert self.sight is not None
        low = self.lower_hex()
        return [(p, hex_distance(low, p.hex)) for p in self.sight.profile]

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#fbfaf5"))
        painter.setFont(QFont(FONT, 8))
        if self.sight is None:
            painter.setPen(QColor("#555555"))
            painter.drawText(
                QRectF(self.rect()).adjusted(12, 12, -12, -12),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                self.note,
            )
            return
        self._paint_chart(painter, self.sight)

    def _paint_chart(self, painter: QPainter, s: Sight) -> None:
        bars = self.bars()
        top_level = max([2.0, float(s.firer_level), float(s.target_level)] + [p.height for p, _ in bars])
        area = QRectF(self.rect()).adjusted(20, 44, -34, -60)
        n = max(s.range, 1)

        def at(distance: float, level: float) -> QPointF:
            return QPointF(area.left() + area.width() * distance / n, area.bottom() - area.height() * level / top_level)

        title = f"Sighting Chart (10.32 b): {self.label(s.source)} level {s.firer_level} → "
        title += f"{self.label(s.target)} level {s.target_level}"
        verdict = f"Blocked at {self.label(s.blocking_hex)} ({s.rule})" if s.blocking_hex else "Clear"
        painter.setPen(QColor("#202020"))
        painter.setFont(QFont(FONT, 8))
        painter.drawText(QRectF(8, 2, self.width() - 16, 14), Qt.AlignmentFlag.AlignLeft, title)
        painter.setPen(BLOCKING if s.blocking_hex else LINE)
        painter.setFont(QFont(FONT, 9, QFont.Weight.Bold))
        painter.drawText(QRectF(8, 16, self.width() - 16, 16), Qt.AlignmentFlag.AlignLeft, verdict)
        painter.setFont(QFont(FONT, 7))
        painter.setPen(QColor("#555555"))
        painter.drawText(
            QRectF(area.left(), self.height() - 13, area.width(), 12),
            Qt.AlignmentFlag.AlignHCenter,
            "range to lower hex (hexes)",
        )
        painter.drawText(QRectF(area.right() - 10, area.top() - 26, 44, 12), Qt.AlignmentFlag.AlignRight, "level")
        # the level rows (right, as printed) and a tick for each hex of range
        levels = sorted(set(LEVEL_MARKS) | {float(v) for v in range(int(top_level) + 1)})
        for level in levels:
            y = at(0, level).y()
            painter.setPen(QPen(QColor("#d8d3c4"), 1))
            painter.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
            painter.setPen(QColor("#555555"))
            mark = LEVEL_MARKS.get(level, f"{level:g}")
            painter.drawText(QRectF(area.right() + 4, y - 7, 36, 14), Qt.AlignmentFlag.AlignLeft, mark)
        for d in range(n + 1):
            x = at(d, 0).x()
            painter.setPen(QPen(QColor("#8c8474"), 1))
            painter.drawLine(QPointF(x, area.bottom()), QPointF(x, area.bottom() + 3))
            painter.drawText(QRectF(x - 10, area.bottom() + 3, 20, 12), Qt.AlignmentFlag.AlignHCenter, str(d))
        self._paint_bars(painter, bars, at, area.width() / n)
        # the straight edge between the two units
        low_level, high_level = sorted((s.firer_level, s.target_level))
        a, b = at(0, low_level), at(n, high_level)
        painter.setPen(QPen(LINE, 2))
        painter.drawLine(a, b)
        painter.setBrush(QBrush(LINE))
        high_hex = s.target if self.lower_hex() == s.source else s.source
        for point, h, left in ((a, self.lower_hex(), True), (b, high_hex, False)):
            painter.setPen(QPen(LINE, 1))
            painter.drawEllipse(point, 4, 4)
            role = "firer" if h == s.source else "target"
            box = QRectF(point.x() + 6 if left else point.x() - 96, point.y() - 16, 90, 12)
            align = Qt.AlignmentFlag.AlignLeft if left else Qt.AlignmentFlag.AlignRight
            painter.drawText(box, align, f"{role} {self.label(h)}")

    def _paint_bars(
        self,
        painter: QPainter,
        bars: list[tuple[ProfilePoint, int]],
        at: Callable[[float, float], QPointF],
        step: float,
    ) -> None:
        """Obstacles side by side where several share a range (a hexside: both hexes count)."""
        assert self.sight is not None
        by_range: dict[int, list[ProfilePoint]] = defaultdict(list)
        for p, d in bars:
            by_range[d].append(p)
        for d, points in by_range.items():
            width = min(step * 0.7, 28) / len(points)
            for i, p in enumerate(points):
                x = at(d, 0).x() - width * len(points) / 2 + i * width
                colour = BLOCKING if p.hex == self.sight.blocking_hex else ALSO_ABOVE if p.blocks else OBSTACLE
                top = at(d, p.height).y()
                painter.setPen(QPen(colour.darker(130), 1))
                painter.setBrush(QBrush(colour))
                painter.drawRect(QRectF(x + 1, top, width - 2, max(at(d, 0).y() - top, 1.5)))
                painter.save()
                painter.translate(x + width / 2 + 3, at(d, 0).y() + 16)
                painter.rotate(-90)
                painter.setPen(QColor("#303030"))
                painter.drawText(QRectF(-30, -6, 30, 12), Qt.AlignmentFlag.AlignRight, self.label(p.hex))
                painter.restore()
