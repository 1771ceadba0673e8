"""The Properties panel: the printed terrain of the selected hexes, and edits to it.

Each key of a hex (docs/formats.md) is shown with the selected hexes' value, or "mixed" when
they differ; changing a field sets that key on every selected hex as one undo step. Roads and
bridges (the road tool's) and the errata (shown on the map on top of the printed terrain) are
said, not edited here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from engine.hexgrid import Hex
from engine.model.errata import Change
from engine.model.terrain import CLEAR, Footprint

from ..tool_options import hexes_text
from ..window import MainWindow
from .terrain_brushes import MAX_TREES

ORDER = 45
MIXED = "mixed"
NO_UPPER = "none"
FOOTPRINT_TIP = (
    "The Building symbol's outline in hex-local units (x right, y down, 1 = centre to corner): "
    "x,y pairs separated by spaces, e.g. -0.5,-0.4 0.5,-0.4 0.5,0.4 -0.5,0.4; empty: the table's symbol"
)


class PropertyPanel(QWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.setObjectName("properties")
        self.editor = window  # not `window`: a QWidget's window() is its top-level widget
        self.hexes: list[Hex] = []
        self._filling = False
        form = QFormLayout(self)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        form.addRow(self.heading)

        self.trees = QSpinBox(maximum=MAX_TREES)
        self.trees.setKeyboardTracking(False)  # typing "3" then Enter is one edit
        self.trees.valueChanged.connect(lambda v: v >= 0 and self._set("trees", v, str(v)))
        self.level = self._choice(["0", "1", "2"], lambda text: self._set("level", int(text), text))
        self.upper = self._choice(
            [NO_UPPER, "1", "2"],
            lambda text: self._set("upper_level", None if text == NO_UPPER else int(text), text),
        )
        self.hill = self._name_field("hill", "no hill")
        self.building = self._name_field("building", "no building")
        self.footprint = QLineEdit()
        self.footprint.setPlaceholderText("the table's symbol")
        self.footprint.setToolTip(FOOTPRINT_TIP)
        self.footprint.editingFinished.connect(self._footprint_edited)
        self.marsh = self._flag("marsh")
        self.gully = self._flag("gully")
        self.roads = QLabel()
        self.errata = QLabel()
        for label in (self.roads, self.errata):
            label.setWordWrap(True)  # long texts wrap: the panel keeps its width and the map stays put
        for key, label, field in (
            ("trees", "Trees", self.trees),
            ("level", "Level", self.level),
            ("upper-level", "Upper level", self.upper),
            ("hill", "Hill", self.hill),
            ("building", "Building", self.building),
            ("footprint", "Footprint", self.footprint),
            ("marsh", "", self.marsh),
            ("gully", "", self.gully),
            ("roads", "Roads", self.roads),
            ("errata", "Errata", self.errata),
        ):
            field.setObjectName(f"property-{key}")
            form.addRow(label, field)
        window.selection_changed.connect(self.show_hexes)
        window.document_changed.connect(self.refresh)
        self.show_hexes(window.selected)

    # -- fields -------------------------------------------------------------------------------------
    def _choice(self, items: list[str], chosen: Callable[[str], Any]) -> QComboBox:
        box = QComboBox()
        box.addItems(items)
        box.textActivated.connect(lambda text: text != MIXED and chosen(text))
        return box

    def _name_field(self, key: str, empty: str) -> QComboBox:
        box = QComboBox(editable=True)
        box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        box.setMinimumContentsLength(8)
        line = box.lineEdit()
        assert line is not None
        line.setPlaceholderText(empty)

        def edited() -> None:
            text = box.currentText().strip()
            if self._filling or (not text and line.placeholderText() == MIXED):
                return
            self._set(key, text or None, text or f"no {key}")

        line.editingFinished.connect(edited)
        box.textActivated.connect(lambda _: edited())
        return box

    def _flag(self, key: str) -> QCheckBox:
        box = QCheckBox(key.capitalize())
        box.clicked.connect(lambda: self._set(key, box.checkState() == Qt.CheckState.Checked or None, ""))
        return box

    # -- showing ------------------------------------------------------------------------------------
    def show_hexes(self, hexes: set[Hex]) -> None:
        board = self.editor.document.board
        self.hexes = sorted(hexes, key=board.label)
        self.refresh()

    def refresh(self) -> None:
        document = self.editor.document
        board = document.board
        self.setEnabled(bool(self.hexes))
        labels = [board.label(h) for h in self.hexes]
        shown = ", ".join(labels[:12]) + (f" and {len(labels) - 12} more" if len(labels) > 12 else "")
        self.heading.setText(
            f"<b>{hexes_text(len(labels))}</b>: {shown}"
            if labels
            else "No hexes selected: select hexes with the Select tool (S)."
        )
        # nothing selected: the fields show clear terrain, never what the last selection held ("mixed")
        printed = [document.printed(h) for h in self.hexes] or [CLEAR]
        self._filling = True
        try:
            self._show_number(self.trees, {t.trees for t in printed})
            self._show_choice(self.level, {str(t.level) for t in printed})
            self._show_choice(self.upper, {NO_UPPER if t.upper_level is None else str(t.upper_level) for t in printed})
            self._show_name(self.hill, "hill", {t.hill for t in printed}, sorted(board.hills()))
            self._show_name(self.building, "building", {t.building for t in printed}, sorted(board.buildings()))
            self._show_footprint({t.footprint for t in printed})
            for box, key in ((self.marsh, "marsh"), (self.gully, "gully")):
                self._show_flag(box, {getattr(t, key) for t in printed})
        finally:
            self._filling = False
        if not self.hexes:
            self.roads.setText("")
            self.errata.setText("")
            return
        road = [h for h in self.hexes if h in board.road_neighbours]
        bridges = [board.label(h) for h in self.hexes if h in board.bridges]
        self.roads.setText(
            f"{len(road)} of {hexes_text(len(self.hexes))} on a road"
            + (f"; bridges {', '.join(bridges)}" if bridges else "")
            + " (the Road tool, R)"
        )
        self.errata.setText(errata_text(document.errata.changes if document.errata else [], set(labels)))

    def _show_number(self, box: QSpinBox, values: set[int]) -> None:
        mixed = len(values) > 1
        box.setMinimum(-1 if mixed else 0)
        box.setSpecialValueText(MIXED if mixed else "")
        box.setValue(-1 if mixed else values.pop())

    def _show_choice(self, box: QComboBox, values: set[str]) -> None:
        at = box.findText(MIXED)
        if len(values) > 1:
            if at < 0:
                box.addItem(MIXED)
            box.setCurrentText(MIXED)
            return
        if at >= 0:
            box.removeItem(at)
        box.setCurrentText(values.pop())

    def _show_name(self, box: QComboBox, key: str, values: set[str | None], names: list[str]) -> None:
        box.clear()
        box.addItems(names)
        line = box.lineEdit()
        assert line is not None
        line.setPlaceholderText(MIXED if len(values) > 1 else f"no {key}")
        box.setCurrentText("" if len(values) > 1 else (values.pop() or ""))

    def _show_footprint(self, values: set[Footprint | None]) -> None:
        mixed = len(values) > 1
        self.footprint.setPlaceholderText(MIXED if mixed else "the table's symbol")
        footprint = None if mixed else values.pop()
        self.footprint.setText(format_footprint(footprint) if footprint else "")
        self.footprint.setStyleSheet("")  # an outline that was refused is shown as it is again

    def _show_flag(self, box: QCheckBox, values: set[bool]) -> None:
        box.setTristate(len(values) > 1)
        if len(values) > 1:
            box.setCheckState(Qt.CheckState.PartiallyChecked)
        else:
            box.setChecked(values.pop())

    # -- editing ------------------------------------------------------------------------------------
    def _set(self, key: str, value: Any, shown: str) -> None:
        """Set one key on every selected hex, as one undo step."""
        if self._filling or not self.hexes:
            return
        document = self.editor.document
        changes = {h: document.printed(h).changed({key: value}) for h in self.hexes}
        changed = {h: t for h, t in changes.items() if t != document.printed(h)}
        if not changed:
            return
        words = key.replace("_", " ")
        what = f"Set {words} {shown}" if shown else ("Set " if value else "Clear ") + words
        self.editor.paint(f"{what} ({hexes_text(len(changed))})", changed)

    def _footprint_edited(self) -> None:
        text = self.footprint.text().strip()
        if self._filling or (not text and self.footprint.placeholderText() == MIXED):
            return
        try:
            footprint = parse_footprint(text)
        except ValueError as exc:
            self.footprint.setStyleSheet("border: 1px solid #c62828")
            self.editor.statusBar().showMessage(f"Footprint not set: {exc}", 6000)
            return
        self._set("footprint", footprint, "")


def errata_text(changes: list[Change], labels: set[str]) -> str:
    """The errata that change these hexes (the map shows the hexes with them; the panel edits the printed map)."""
    lines = [
        f"{', '.join(sorted(labels & set(c.hexes)))}: " + ", ".join(f"{k} {v}" for k, v in c.values.items())
        for c in changes
        if labels & set(c.hexes)
    ]
    return "; ".join(lines) + " (shown on the map, over the printed terrain)" if lines else "none"


def format_footprint(footprint: Footprint) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in footprint)


def parse_footprint(text: str) -> Footprint | None:
    """`x,y x,y ...` in hex-local units; empty: None (the table's symbol)."""
    if not text:
        return None
    points = []
    for pair in text.split():
        try:
            x, y = (float(v) for v in pair.split(","))
        except ValueError:
            raise ValueError(f"{pair!r} is not x,y") from None
        if not (-2 <= x <= 2 and -2 <= y <= 2):
            raise ValueError(f"{pair}: hex-local units run from -2 to 2 (1 = centre to corner)")
        points.append((x, y))
    if len(points) < 3:
        raise ValueError("an outline needs at least 3 points")
    return tuple(points)


def install(window: MainWindow) -> None:
    window.add_dock("Properties", PropertyPanel(window))
