"""The line of sight tool (L): click the firer's hex, then the target's (or drag from one to the other).

The line is drawn centre to centre (10.3), the hexes it passes through, runs along (hexside
pairs, 10.31 b) and touches at a corner are marked, and the hex that blocks it is outlined
with the rule. After the first click the line follows the cursor. For units on different
levels the "Sighting profile" dock charts 10.32 b. Every answer is the engine's
(SightKernel.sight); one kernel is kept per board state and rebuilt after a terrain edit.

In a scenario whose test set-up (`setup:`) puts units in the firer's hex, the chosen line also
shows the exact odds of their fire at the target hex: the engine's `fire_odds`, as `iceditor odds
fire` prints them (every firer's PC, every modifier with its rule, each target unit's chances).
With "Advanced rules" ticked they are the advanced game's (`iceditor odds fire --advanced`), after
the observation of the target hex by the firer's hex: its base, each 23.2 modifier for the target
or the observer, the chance (the engine's `describe_observation`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.geometry.sight import Sight, SightTerrain
from engine.hexgrid import Hex
from engine.model.tables import sighting_rules
from engine.problems import Severity

from ..hex_layout import HEX_SIZE
from ..mapview import HexSetItem, SparseItem, centre
from ..overlays import (
    OverlayTool,
    Tag,
    add_overlay_dock,
    clear_action,
    firer_choice,
    firer_state,
    show_dock,
    watch_board,
)
from ..sighting_chart import SightingChart
from ..window import MainWindow

if TYPE_CHECKING:
    from engine.game.state import GameState
    from engine.geometry.los_kernel import SightKernel  # numpy: imported at the tool's first line

ORDER = 60
ODDS_HEIGHT = 300  # the Sighting profile dock's height when it shows fire odds
CHART_MARGIN = 56  # the dock's title bar, its tab and the chart's margins, above its own minimum height

# What each blocking rule says, for the tag on the blocking hex (10.31, 10.32).
RULE_WORDS = {
    "10.31 a": "Building symbol or higher Hill hex",
    "10.31 b": f"more than {sighting_rules().max_trees_along} Trees/AFVs/Wrecks along",
    "10.31 c": "Marsh hex, firer DOWN",
    "10.32 b": "obstacle touching or above the line",
}
CLEAR_LINE = QColor("#2e7d32")
BLOCKED_LINE = QColor("#c62828")
PASSED = QColor(255, 225, 90, 90)  # a hex the line passes through
ALONG = QColor(250, 150, 40, 100)  # the two hexes of a hexside the line runs along (10.31 b)
CORNER = QColor(120, 150, 220, 90)  # a hex the line touches at a corner only
ENDS = QColor(30, 90, 170, 60), QColor(30, 90, 170)  # the two units' hexes: fill, outline
LINE_WIDTH = 3.0


def paint_sight(painter: QPainter, a: QPointF, b: QPointF, stop: QPointF | None) -> None:
    """The line from `a` to `b`, green as far as the firer sees, red dashed beyond `stop`, the point
    nearest the blocking hex's middle (10.33; None: a clear line)."""
    painter.setPen(QPen(CLEAR_LINE, LINE_WIDTH, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    painter.drawLine(a, b if stop is None else stop)
    if stop is not None:
        painter.setPen(QPen(BLOCKED_LINE, LINE_WIDTH, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap))
        painter.drawLine(stop, b)


Ends = tuple[QPointF, QPointF, QPointF | None]  # paint_sight's a, b and stop


class SightLine(SparseItem):
    """The line drawn over the map; a new line repaints the strips along the old one and the new one,
    not their boxes (issue 22: the hover)."""

    def __init__(self, parent: Any) -> None:
        super().__init__(parent)
        self.ends: Ends | None = None
        self.setZValue(2)

    def set_line(self, ends: Ends | None) -> None:
        before, self.ends = self.ends, ends
        self.repaint(_strips(before) + _strips(ends))

    def shape(self) -> QPainterPath:
        """The stroke only: the tooltip is the line's."""
        path = QPainterPath()
        if self.ends is not None:
            path.moveTo(self.ends[0])
            path.lineTo(self.ends[1])
        stroke = QPainterPathStroker()
        stroke.setWidth(LINE_WIDTH)
        stroke.setCapStyle(Qt.PenCapStyle.RoundCap)
        return stroke.createStroke(path)

    def paint(self, painter: QPainter, option: Any, widget: Any = None) -> None:
        if self.ends is not None:
            paint_sight(painter, *self.ends)


def _strips(ends: Ends | None) -> list[QRectF]:
    """Boxes along a line, each at most a hex radius long, that hold its stroke and round caps."""
    if ends is None:
        return []
    a, b = ends[0], ends[1]
    pieces = max(1, math.ceil(QLineF(a, b).length() / HEX_SIZE))
    step, margin = (b - a) / pieces, LINE_WIDTH / 2 + 1
    return [
        QRectF(a + step * i, a + step * (i + 1)).normalized().adjusted(-margin, -margin, margin, margin)
        for i in range(pieces)
    ]


class LosTool(OverlayTool):
    name = "los"
    label = "Line of sight"
    shortcut = "L"
    tip = (
        "Line of sight: click the firer's hex, then the target's (or drag); after the first click it follows the cursor"
    )

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.source: Hex | None = None
        self.fixed = False  # the second hex is chosen: the line stays until the next click
        self.sight: Sight | None = None
        self._terrain = SightTerrain.from_effects()
        self._kernel: SightKernel | None = None
        self._game: tuple[object, GameState] | None = None  # the set-up as a game, for fire_odds
        layer = window.scene.layers["overlays"]
        self.passed = HexSetItem(layer, PASSED)
        self.along = HexSetItem(layer, ALONG)
        self.corners = HexSetItem(layer, CORNER)
        self.ends = HexSetItem(layer, *ENDS)
        # an outline only: the building's number or the hill's name it blocks at stays readable
        self.blocking = HexSetItem(layer, QColor(0, 0, 0, 0), BLOCKED_LINE, width=3.0)
        self.line = SightLine(layer)
        self.rule_tag = Tag(layer, BLOCKED_LINE)
        self.range_tag = Tag(layer, QColor("#1e3a5f"))
        self.firer = firer_choice()
        self.firer.currentIndexChanged.connect(self._redraw)
        self.advanced = QCheckBox("Advanced rules (21.0-23.0): observation, MG modes")
        self.advanced.setToolTip(
            "The odds and the observation chance under the advanced rules (R319), as a playtest with them"
        )
        self.advanced.toggled.connect(self._rules_changed)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chart = SightingChart(lambda h: self.board.label(h))
        panel = QWidget()
        row = QHBoxLayout(panel)
        column = QVBoxLayout()
        column.addWidget(self.firer)
        column.addWidget(self.advanced)
        scroll = QScrollArea()  # the fire odds run to many lines: they scroll within the dock
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.summary)
        scroll.setMinimumWidth(340)
        column.addWidget(scroll, 1)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop)
        row.addLayout(column)
        row.addWidget(self.chart, 1)
        self.dock = add_overlay_dock(window, "Sighting profile", panel)
        watch_board(window, self._terrain_changed, self._document_replaced)
        clear_action(window).triggered.connect(self.clear)
        self.clear()

    # -- the engine ---------------------------------------------------------------------------
    def kernel(self) -> SightKernel:
        """The LOS kernel of the board as it is now (its building joins follow the terrain)."""
        if self._kernel is None:
            from engine.geometry.los_kernel import SightKernel

            self._kernel = SightKernel(self.board, self._terrain)
        return self._kernel

    def _terrain_changed(self, hexes: frozenset[Hex]) -> None:
        self._kernel = self._game = None
        self._redraw()

    def _rules_changed(self) -> None:
        self._game = None
        self._redraw()

    def _document_replaced(self) -> None:
        self._kernel = self._game = None
        self.clear()

    def odds_text(self, source: Hex, target: Hex) -> str:
        """The odds of fire by the set-up's units in `source` at `target` (fire_odds); '' when the
        document is no scenario or nothing there may be fired at. The game engine is imported at
        the first odds asked for, not with the window (issue 22)."""
        from engine.game import new_game
        from engine.game.fire_odds import describe_observation, describe_odds, fire_odds

        document = self.window.document
        session = document.session
        if document.scenario is None or session is None:
            return ""
        scenario = session.context.scenario
        if self._game is None or self._game[0] is not scenario:
            if any(p.severity is Severity.ERROR for p in document.problems()):
                return "Fire odds: the scenario has errors (see Problems)."
            options = {"advanced": True} if self.advanced.isChecked() else None
            self._game = (scenario, new_game(scenario, 0, options, board=self.board, validated=True))
        game = self._game[1]
        shooters = game.at(source)
        if not shooters or not any(u.side != shooters[0].side and not u.hidden for u in game.at(target)):
            return ""
        seen = describe_observation(game, source, target)  # 23.2: '' in the basic game
        try:
            odds = describe_odds(fire_odds(game, [source], target))
        except ValueError as exc:
            odds = f"Fire odds: {exc}"
        return f"{seen}\n\n{odds}" if seen else odds

    # -- mouse ----------------------------------------------------------------------------------
    def activate(self) -> None:
        show_dock(self.dock)

    def press(self, h: Hex, event: Any) -> None:
        if self.source is None or self.fixed:
            self.source, self.fixed = h, False
            self.show_line(h, h)
        elif h != self.source:
            self.fixed = True
            self.show_line(self.source, h)

    def move(self, h: Hex, event: Any) -> None:
        self.hover(h)

    def release(self, h: Hex | None, event: Any) -> None:
        if h is not None and self.source is not None and h != self.source and not self.fixed:
            self.fixed = True  # a drag from the firer to the target
            self.show_line(self.source, h)

    def hover(self, h: Hex | None) -> None:
        if h is not None and self.source is not None and not self.fixed:
            self.show_line(self.source, h)

    # -- drawing --------------------------------------------------------------------------------
    def show_line(self, source: Hex, target: Hex) -> Sight | None:
        """Draw the LOS from `source` to `target` (the same hex: only the firer's hex marked)."""
        self.source = source
        if source == target:
            self._draw(None)
            self.ends.set_hexes([source])
            return None
        if self.sight is not None and (self.sight.source, self.sight.target) == (source, target):
            return self.sight  # the cursor moved within the same hex
        sight = self.kernel().sight(source, target, firer_state(self.firer))
        self._draw(sight)
        if self.fixed:
            odds = self.odds_text(source, target)
            if odds:
                self.summary.setText(f"{self.summary.text()}\n\n{odds}")
                show_dock(self.dock)
                self._room(ODDS_HEIGHT)  # for the odds' lines (they scroll beyond)
        return sight

    def clear(self) -> None:
        self.source, self.fixed = None, False
        self._draw(None)

    def _redraw(self) -> None:
        """Draw the shown line again: the terrain or the firer's state changed."""
        if self.sight is not None:
            source, target = self.sight.source, self.sight.target
            self.sight = None
            self.show_line(source, target)

    def _draw(self, sight: Sight | None) -> None:
        self.sight = sight
        label = self.board.label
        if sight is None:
            for item in (self.passed, self.along, self.corners, self.ends, self.blocking):
                item.set_hexes([])
            self.line.set_line(None)
            self.rule_tag.show_text("", QPointF())
            self.range_tag.show_text("", QPointF())
            self.summary.setText("Click the firer's hex, then the target's.")
            self.chart.show_sight(None)
            return
        along = {h for pair in sight.hexsides for h in pair}
        self.passed.set_hexes([h for h in sight.hexes if h not in along])
        self.along.set_hexes(along)
        self.corners.set_hexes(sight.corners)
        self.ends.set_hexes([sight.source, sight.target])
        self.blocking.set_hexes([sight.blocking_hex] if sight.blocking_hex else [])
        a, b = centre(sight.source), centre(sight.target)
        stop = None if sight.blocking_hex is None else _nearest_on_line(a, b, centre(sight.blocking_hex))
        self.line.set_line((a, b, stop))
        text = describe(sight, label)
        self.line.setToolTip(text)
        if sight.blocking_hex is not None:
            assert sight.rule is not None
            words = f"{sight.rule}: {RULE_WORDS[sight.rule]}"
            self.rule_tag.show_text(words, centre(sight.blocking_hex))
        else:
            self.rule_tag.show_text("", QPointF())
        self.range_tag.show_text(f"range {sight.range}", b)
        self.summary.setText(text)
        self.window.statusBar().showMessage(text.replace("\n", "; "))
        self.chart.show_sight(sight)
        if sight.firer_level != sight.target_level:
            show_dock(self.dock)
            self._room(self.chart.minimumHeight() + CHART_MARGIN)  # the whole chart, not its top strip

    def _room(self, height: int) -> None:
        """Make the Sighting profile dock (and the bottom docks with it) at least `height` high."""
        if self.dock.height() < height:
            self.window.resizeDocks([self.dock], [height], Qt.Orientation.Vertical)


def _nearest_on_line(a: QPointF, b: QPointF, p: QPointF) -> QPointF:
    """The point of segment ab nearest to p: where the line enters the blocking hex's middle (10.33)."""
    d = b - a
    t = QPointF.dotProduct(p - a, d) / QPointF.dotProduct(d, d)
    return a + d * min(max(t, 0.0), 1.0)


def describe(sight: Sight, label: Callable[[Hex], str]) -> str:
    """The tooltip, status and dock text of a line of sight."""
    verdict = f"blocked at {label(sight.blocking_hex)} ({sight.rule})" if sight.blocking_hex else "clear"
    difference = sight.level_difference
    levels = f"level {sight.firer_level} → {sight.target_level}" + (
        f" (target {'higher' if difference > 0 else 'lower'} by {abs(difference)})" if difference else " (same level)"
    )
    lines = [
        f"LOS {label(sight.source)} → {label(sight.target)}: {verdict}",
        f"range {sight.range}; Trees/AFVs/Wrecks along {sight.trees_along}; Marsh hexes along {len(sight.marsh_along)}",
        levels,
    ]
    if sight.hexsides:
        lines.append("along hexsides " + ", ".join(f"{label(x)}|{label(y)}" for x, y in sight.hexsides))
    return "\n".join(lines)


def install(window: MainWindow) -> None:
    window.add_tool(LosTool(window))
