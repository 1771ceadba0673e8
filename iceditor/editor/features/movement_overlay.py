"""Movement (M): choose a unit class, its state, morale and the phase; click a hex to shade the hexes
it can enter this phase in bands of MP cost (8.1, 8.5); the cheapest path to the hex under the
cursor is drawn with its cost. The answers are engine.geometry.movement's `reach` and
`cheapest_path` (its movement graphs follow terrain edits).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QComboBox, QGraphicsPathItem, QGridLayout, QLabel, QSpinBox, QWidget

from engine.geometry.movement import (
    ONE_HEX,
    Morale,
    MovementError,
    Mover,
    NoPathError,
    Phase,
    Reach,
    State,
    UnitClass,
    cheapest_path,
    reach,
)
from engine.hexgrid import Hex

from ..mapview import HexSetItem, centre
from ..overlays import (
    HexTextItem,
    OverlayTool,
    Tag,
    add_overlay_action,
    add_overlay_dock,
    clear_action,
    ramp,
    show_dock,
    watch_board,
)
from ..window import MainWindow

ORDER = 64

PATH = QColor("#1e3a5f")
UNIT_NAMES = {
    UnitClass.INFANTRY: "Infantry",
    UnitClass.CW: "CW (crew weapon)",
    UnitClass.AFV: "AFV",
    UnitClass.FT: "FT (flamethrower)",
}


def band(cost: float) -> int:
    """The cost band of a hex: band n holds the hexes costing more than n - 1 and at most n MPs."""
    return math.ceil(cost)


def band_colour(cost: float, top: float) -> QColor:
    """Cheap hexes pale, dear ones dark (`top`: the dearest band shown)."""
    return ramp(band(cost) / max(band(top), 1), alpha=130)


class MovementTool(OverlayTool):
    name = "movement"
    label = "Movement"
    shortcut = "M"
    tip = "Movement: click a hex to see where a unit there can go this phase; hover for the cheapest path"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.origin: Hex | None = None  # the hex clicked (kept when the unit chosen cannot move, to try another)
        self.reach: Reach | None = None
        self.mover: Mover | None = None
        self.path_goal: Hex | None = None
        layer = window.scene.layers["overlays"]
        self.bands = HexSetItem(layer, QColor(0, 0, 0, 0))
        self.start = HexSetItem(layer, QColor(30, 90, 170, 90), QColor(30, 90, 170))
        self.costs = HexTextItem(layer)
        self.path = QGraphicsPathItem(layer)
        self.path.setPen(QPen(PATH, 3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        self.path.setZValue(2)
        self.path_tag = Tag(layer, PATH)
        self.unit, self.state, self.morale, self.phase = (
            _choice(UnitClass, UNIT_NAMES),
            _choice(State, {s: s.upper() for s in State}),
            _choice(Morale, {m: m.upper() for m in Morale}),
            _choice(Phase, {p: p.capitalize() for p in Phase}),
        )
        self.mp = QSpinBox()
        self.mp.setRange(0, 20)
        self.mp.setValue(4)
        self.mp.setToolTip("A CW's Movement Factor, printed on its counter (8.12)")
        self.result = QLabel("Click a hex with the Movement tool (M).")
        self.result.setWordWrap(True)
        panel = QWidget()
        grid = QGridLayout(panel)
        for i, (name, box) in enumerate(
            (
                ("Unit", self.unit),
                ("State", self.state),
                ("Morale", self.morale),
                ("Phase", self.phase),
                ("CW MP", self.mp),
            )
        ):
            grid.addWidget(QLabel(name), i % 3, 2 * (i // 3))
            grid.addWidget(box, i % 3, 2 * (i // 3) + 1)
        grid.addWidget(self.result, 0, 4, 3, 1)
        grid.setColumnStretch(4, 1)
        self.result.setMinimumWidth(240)
        self.result.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.dock = add_overlay_dock(window, "Movement", panel)
        self.morale.currentIndexChanged.connect(self._morale_chosen)
        for box in (self.unit, self.state, self.phase):
            box.currentIndexChanged.connect(self._refresh)
        self.mp.valueChanged.connect(self._refresh)
        self._after_edit = QTimer(window, singleShot=True, interval=0)
        self._after_edit.timeout.connect(self._refresh)
        watch_board(window, lambda hexes: self._after_edit.start(), self.clear)
        clear_action(window).triggered.connect(self.clear)
        self._refresh()

    def chosen_mover(self) -> Mover:
        """The unit set in the dock; MovementError if the rules do not allow it (a PINNED AFV...)."""
        unit = UnitClass(self.unit.currentData())
        mp = float(self.mp.value()) if unit is UnitClass.CW else None
        return Mover(
            unit,
            State(self.state.currentData()),
            Morale(self.morale.currentData()),
            Phase(self.phase.currentData()),
            mp,
        )

    def set_mover(self, mover: Mover) -> None:
        """Set the dock's choices (the snapshot command's `reach:HEX:UNIT`)."""
        for box, value in ((self.unit, mover.unit), (self.morale, mover.morale), (self.state, mover.state)):
            box.setCurrentIndex(box.findData(value.value))
        self.phase.setCurrentIndex(self.phase.findData(mover.phase.value))
        if mover.mp is not None:
            self.mp.setValue(int(mover.mp))

    # -- mouse ----------------------------------------------------------------------------------
    def activate(self) -> None:
        show_dock(self.dock)

    def press(self, h: Hex, event: Any) -> None:
        self.show_reach(h)

    def hover(self, h: Hex | None) -> None:
        if self.reach is not None and h is not None:
            self.show_path(h)

    # -- drawing --------------------------------------------------------------------------------
    def show_reach(self, start: Hex) -> Reach | None:
        """Shade where the chosen unit can go from `start` this phase, in cost bands."""
        self.clear()
        self.origin = start
        self.start.set_hexes([start])
        try:
            self.mover = self.chosen_mover()
            found = reach(self.board, start, self.mover)
        except MovementError as exc:
            self.mover = None
            self.result.setText(f"{exc}")
            return None
        self.reach = found
        top = max(found.costs.values(), default=0.0)
        self.bands.set_hexes({h: band_colour(mp, top) for h, mp in found.costs.items() if h != start})
        self.costs.set_texts({h: f"{mp:g}" for h, mp in found.costs.items() if h != start})
        allowance = found.allowance if found.allowance == ONE_HEX else f"{found.allowance:g} MP"
        text = (
            f"{self.board.label(start)}: {self.mover.describe()}, allowance {allowance}: {len(found.costs) - 1} hexes"
        )
        if found.allowance == ONE_HEX:
            text += " (one hex whatever it costs: the costs shown are the terrain's)"
        if found.immobilization:
            text += f"; immobilization roll entering {len(found.immobilization)} of them (8.54, 8.55)"
        self.result.setText(text)
        self.window.statusBar().showMessage(text)
        return found

    def show_path(self, goal: Hex) -> None:
        """Draw the cheapest path from the reach's start to `goal`, however many phases it takes."""
        assert self.reach is not None and self.mover is not None
        if goal == self.path_goal:
            return
        self.path_goal = goal
        if goal == self.reach.start:
            self._hide_path()
            return
        try:
            found = cheapest_path(self.board, self.reach.start, goal, self.mover)
        except NoPathError as exc:
            self._hide_path()
            self.window.statusBar().showMessage(f"{self.board.label(goal)}: {exc}")
            return
        line = QPainterPath(centre(found.hexes[0]))
        for h in found.hexes[1:]:
            line.lineTo(centre(h))
        self.path.setPath(line)
        self.path.setVisible(True)
        within = goal in self.reach.costs
        words = f"{found.cost:g} MP" + ("" if within else " (beyond this phase)")
        self.path_tag.show_text(words, centre(goal))
        steps = " ".join(f"{self.board.label(h)}+{mp:g}" for h, mp in zip(found.hexes[1:], found.steps, strict=True))
        self.window.statusBar().showMessage(
            f"{self.board.label(found.hexes[0])} → {self.board.label(goal)}: {words}: {steps}"
        )

    def clear(self) -> None:
        self.origin, self.reach = None, None
        for item in (self.bands, self.start):
            item.set_hexes([])
        self.costs.set_texts({})
        self._hide_path()

    def _hide_path(self) -> None:
        self.path_goal = None
        self.path.setVisible(False)
        self.path_tag.show_text("", QPointF())

    def _morale_chosen(self) -> None:
        if Morale(self.morale.currentData()) is not Morale.NORMAL:  # 3.25, 3.26: never UP
            self.state.setCurrentIndex(self.state.findData(State.DOWN.value))
        self._refresh()

    def _refresh(self) -> None:
        """Recompute the reach shown: the unit or the terrain changed."""
        self.mp.setEnabled(UnitClass(self.unit.currentData()) is UnitClass.CW)
        if self.origin is not None:
            self.show_reach(self.origin)


def _choice(values: Iterable[StrEnum], names: Mapping[Any, str]) -> QComboBox:
    box = QComboBox()
    for value in values:
        box.addItem(names[value], value.value)
    return box


def install(window: MainWindow) -> None:
    tool = MovementTool(window)
    window.add_tool(tool)
    action = QAction("&Movement from a hex", window)
    action.triggered.connect(lambda: window.use_tool(tool.name))
    add_overlay_action(window, action)
