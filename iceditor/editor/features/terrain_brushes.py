"""Terrain brushes, erase and flood fill: paint the map files' hexes.

One brush per feature of a hex (trees + and -, level and crest, hill name, building id, marsh,
gully) and Erase. A drag paints each hex it crosses once (the hexes between two mouse events
included) and is one undo step; Fill paints the connected hexes that hold the same terrain as
the clicked one with the last brush chosen, as one undo step. Brushes paint the printed map
(`document.printed`): the errata stay on top, and roads are the road tool's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QSpinBox, QWidget

from engine.hexgrid import Hex, hex_line
from engine.model.terrain import CLEAR, Terrain

from ..commands import Stroke
from ..tool_options import OptionsTool, hexes_text, row
from ..window import MainWindow

ORDER = 20
MAX_TREES = 9  # the map format's range of Tree symbols (docs/formats.md)
NEW_BUILDING = "New building"


class Brush(OptionsTool):
    """A drag paints each hex it crosses once, as one undo step."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.stroke: Stroke | None = None
        self._last: Hex | None = None
        self.fill: FillTool | None = None  # fills with the last brush chosen

    def activate(self) -> None:
        super().activate()
        if self.fill is not None:
            self.fill.use_brush(self)

    def deactivate(self) -> None:
        self.release(None, None)  # another tool chosen mid-stroke: what is painted is one undo step
        super().deactivate()

    def _name_choice(self, name: str, length: int, tip: str) -> QComboBox:
        """A name to paint (a hill's, a building's id): typed, or chosen from those on the map."""
        box = QComboBox(editable=True)
        box.setObjectName(name)
        box.setMinimumContentsLength(length)
        box.setToolTip(tip)
        box.currentTextChanged.connect(self.settings_changed)
        return box

    # What a brush does: subclasses say it.
    def begin(self, start: Terrain) -> None:
        """A stroke starts on a hex holding `start` (toggle brushes decide here whether they add or remove)."""

    def paint_hex(self, t: Terrain) -> Terrain:
        """A hex's terrain after the brush."""
        return t

    def paint_name(self) -> str:
        """What the brush paints now, for undo labels ("Trees +", "Level 1", "Hill K")."""
        return self.label

    def fill_name(self) -> str:
        name = self.paint_name()
        return name[:1].lower() + name[1:]

    # The mouse.
    def press(self, h: Hex, event: Any) -> None:
        document = self.window.document
        self.begin(document.printed(h))
        self.stroke = Stroke(document, self.paint_name())
        self._last = h
        self._paint(h)

    def move(self, h: Hex, event: Any) -> None:
        self.hover(h)
        if self.stroke is None or self._last is None or h == self._last:
            return
        for crossed in hex_line(self._last, h)[1:]:  # a fast drag skips hexes between two events
            if crossed in self.window.document.board.hexes:
                self._paint(crossed)
        self._last = h

    def release(self, h: Hex | None, event: Any) -> None:
        if self.stroke is None:
            return
        command = self.stroke.command()
        self.stroke = self._last = None
        if command is not None:
            self.window.undo_stack.push(command)

    def _paint(self, h: Hex) -> None:
        assert self.stroke is not None
        before = self.stroke.before.get(h, self.window.document.printed(h))  # each hex once per stroke
        self.stroke.paint(h, self.paint_hex(before))


class TreesBrush(Brush):
    def __init__(self, window: MainWindow, sign: int) -> None:
        self.sign = sign
        self.name = "trees-add" if sign > 0 else "trees-remove"
        self.label = "Trees +" if sign > 0 else "Trees -"
        self.shortcut = "T" if sign > 0 else "Shift+T"
        self.tip = f"{'Add' if sign > 0 else 'Remove'} Tree symbols (two or more make a Woods hex, 8.54)"
        super().__init__(window)
        self.amount = QSpinBox(minimum=1, maximum=MAX_TREES)
        self.amount.setObjectName(f"{self.name}-amount")
        self.amount.setToolTip("How many Tree symbols each hex gains or loses")
        self.amount.valueChanged.connect(self.settings_changed)

    def options(self) -> QWidget:
        return row(QLabel("by"), self.amount)

    def describe(self) -> str:
        n = self.amount.value()
        verb = "adds" if self.sign > 0 else "removes"
        return f"{verb} {n} Tree symbol{'s' if n != 1 else ''} in each hex (0 to {MAX_TREES}; 2 or more: Woods, 8.54)"

    def paint_hex(self, t: Terrain) -> Terrain:
        return t.changed({"trees": min(max(t.trees + self.sign * self.amount.value(), 0), MAX_TREES)})


class LevelBrush(Brush):
    name = "level"
    label = "Level"
    shortcut = "H"
    tip = "Paint hill levels 0, 1, 2, or crest hexes that hold two levels (10.34)"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.level = QComboBox()
        self.level.setObjectName("level-choice")
        self.level.addItems(["0", "1", "2"])
        self.level.setCurrentIndex(1)
        self.crest = QCheckBox("crest")
        self.crest.setObjectName("level-crest")
        self.crest.setToolTip("The hex also holds the next level up; it counts as the lower one (10.34)")
        self.level.currentIndexChanged.connect(self._level_chosen)
        self.crest.toggled.connect(self.settings_changed)

    def options(self) -> QWidget:
        return row(QLabel("level"), self.level, self.crest)

    def _level_chosen(self) -> None:
        self.crest.setEnabled(self.level.currentIndex() < 2)  # no level 3 above a level 2 crest
        if not self.crest.isEnabled():
            self.crest.setChecked(False)
        self.settings_changed()

    def upper(self) -> int | None:
        return self.level.currentIndex() + 1 if self.crest.isChecked() else None

    def paint_name(self) -> str:
        level, upper = self.level.currentIndex(), self.upper()
        return f"Crest {level}/{upper}" if upper is not None else f"Level {level}"

    def describe(self) -> str:
        level, upper = self.level.currentIndex(), self.upper()
        if upper is not None:
            return f"paints crest hexes holding levels {level} and {upper}; they count as level {level} (10.34)"
        if level == 0:
            return "paints level 0: the hexes leave their hill"
        return f"paints Level {level} Hill hexes (+1 MP uphill, 8.53)"

    def paint_hex(self, t: Terrain) -> Terrain:
        level, upper = self.level.currentIndex(), self.upper()
        values: dict[str, Any] = {"level": level, "upper_level": upper}
        if level == 0 and upper is None:
            values["hill"] = None  # a Hill hex is level 1 or 2 (8.53)
        return t.changed(values)


class HillBrush(Brush):
    name = "hill"
    label = "Hill name"
    shortcut = "Shift+H"
    tip = "Paint the name of the hill the hexes belong to (hexes sharing a name form one hill)"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.hill = self._name_choice("hill-choice", 6, "The hill's name (empty: the hexes belong to no hill)")
        window.document_changed.connect(self._list_hills)
        self._list_hills()

    def options(self) -> QWidget:
        return row(QLabel("hill"), self.hill)

    def _list_hills(self) -> None:
        _offer(self.hill, list(self.window.document.board.hills()))

    def paint_name(self) -> str:
        name = self.hill.currentText().strip()
        return f"Hill {name}" if name else "No hill"

    def describe(self) -> str:
        name = self.hill.currentText().strip()
        if not name:
            return "removes the hexes from their hill"
        return f"adds the hexes to Hill {name}; a level 0 hex becomes level 1 (a Hill hex is level 1 or 2, 8.53)"

    def paint_hex(self, t: Terrain) -> Terrain:
        name = self.hill.currentText().strip() or None
        values: dict[str, Any] = {"hill": name}
        if name and t.level == 0 and t.upper_level is None:
            values["level"] = 1
        return t.changed(values)


class BuildingBrush(Brush):
    name = "building"
    label = "Building"
    shortcut = "B"
    tip = "Paint a building id (hexes sharing an id form one multi-hex building, 24.9)"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.building = self._name_choice(
            "building-choice", 12, f"The building id; '{NEW_BUILDING}': each stroke makes a building with a new id"
        )
        self._id = ""  # the id of the stroke being painted
        window.document_changed.connect(self._list_buildings)
        self._list_buildings()

    def options(self) -> QWidget:
        return row(QLabel("id"), self.building)

    def _list_buildings(self) -> None:
        _offer(self.building, [NEW_BUILDING, *sorted(self.window.document.board.buildings(), key=_natural)])
        if not self.building.currentText():
            self.building.setCurrentText(NEW_BUILDING)

    def new_id(self) -> str:
        """The next free building id: one more than the highest number in use."""
        numbers = [int(b) for b in self.window.document.board.buildings() if b.isdigit()]
        return str(max(numbers, default=0) + 1)

    def chosen(self) -> str:
        text = self.building.currentText().strip()
        return self.new_id() if text in ("", NEW_BUILDING) else text

    def begin(self, start: Terrain) -> None:
        self._id = self.chosen()

    def paint_name(self) -> str:
        return f"Building {self._id or self.chosen()}"

    def describe(self) -> str:
        text = self.building.currentText().strip()
        if text in ("", NEW_BUILDING):
            return f"each stroke paints a new building (next id {self.new_id()}); the symbol is the table's footprint"
        return f"paints Building {text}; the symbol is the table's footprint unless the Properties panel sets one"

    def paint_hex(self, t: Terrain) -> Terrain:
        return t.changed({"building": self._id})

    def release(self, h: Hex | None, event: Any) -> None:
        super().release(h, event)
        self._id = ""


class ToggleBrush(Brush):
    """Marsh or gully: a stroke that starts on a hex with the feature removes it, otherwise adds it."""

    def __init__(self, window: MainWindow, key: str, shortcut: str, rule: str) -> None:
        self.key = key
        self.name = key
        self.label = key.capitalize()
        self.shortcut = shortcut
        self.tip = f"Paint {key} hexes ({rule}); a stroke that starts on a {key} hex removes it instead"
        super().__init__(window)
        self.adding = True

    def begin(self, start: Terrain) -> None:
        self.adding = not getattr(start, self.key)

    def paint_name(self) -> str:
        return self.label if self.adding else f"Remove {self.key}"

    def describe(self) -> str:
        return f"paints {self.key}; a stroke that starts on a {self.key} hex removes {self.key} instead"

    def paint_hex(self, t: Terrain) -> Terrain:
        return t.changed({self.key: True if self.adding else None})


class EraseBrush(Brush):
    name = "erase"
    label = "Erase"
    shortcut = "E"
    tip = "Erase hexes back to clear terrain, level 0 (roads stay: remove them with the road tool)"

    def paint_hex(self, t: Terrain) -> Terrain:
        return CLEAR

    def fill_name(self) -> str:
        return "clear"


class FillTool(OptionsTool):
    name = "fill"
    label = "Fill"
    shortcut = "F"
    tip = "Flood fill: paint the connected hexes holding the clicked hex's terrain with a brush"

    def __init__(self, window: MainWindow, brushes: list[Brush]) -> None:
        super().__init__(window)
        self.brushes = brushes
        self.brush = QComboBox()
        self.brush.setObjectName("fill-brush")
        self.brush.setToolTip("The brush the fill paints with (the last brush chosen)")
        for brush in brushes:
            self.brush.addItem(brush.label, brush.name)
        self.brush.currentIndexChanged.connect(self.settings_changed)

    def options(self) -> QWidget:
        return row(QLabel("with"), self.brush)

    def chosen(self) -> Brush:
        return self.brushes[self.brush.currentIndex()]

    def use_brush(self, brush: Brush) -> None:
        self.brush.setCurrentIndex(self.brushes.index(brush))

    def describe(self) -> str:
        brush = self.chosen()
        return f"{brush.label} ({brush.describe()}) on the connected hexes holding the clicked hex's terrain"

    def press(self, h: Hex, event: Any) -> None:
        document = self.window.document
        brush, same = self.chosen(), document.printed(h)
        brush.begin(same)
        after = brush.paint_hex(same)  # every hex of the region holds `same`: each becomes `after`
        if after != same:
            region = connected_same(document.board.neighbours, document.printed, h)
            self.window.paint(f"Fill {brush.fill_name()} ({hexes_text(len(region))})", dict.fromkeys(region, after))


def connected_same(neighbours: Callable[[Hex], list[Hex]], terrain: Callable[[Hex], Terrain], start: Hex) -> set[Hex]:
    """The hexes joined to `start` through hexes holding the same terrain as it."""
    same = terrain(start)
    region, frontier = {start}, [start]
    while frontier:
        for n in neighbours(frontier.pop()):
            if n not in region and terrain(n) == same:
                region.add(n)
                frontier.append(n)
    return region


def _offer(box: QComboBox, choices: list[str]) -> None:
    """Offer these choices, keeping what is typed or chosen."""
    if [box.itemText(i) for i in range(box.count())] == choices:
        return
    text = box.currentText()
    box.blockSignals(True)
    box.clear()
    box.addItems(choices)
    box.setCurrentText(text)
    box.blockSignals(False)


def _natural(building_id: str) -> tuple[int, str]:
    return (int(building_id), "") if building_id.isdigit() else (10**9, building_id)


def install(window: MainWindow) -> None:
    brushes: list[Brush] = [
        TreesBrush(window, +1),
        TreesBrush(window, -1),
        LevelBrush(window),
        HillBrush(window),
        BuildingBrush(window),
        ToggleBrush(window, "marsh", "Shift+M", "8.55"),
        ToggleBrush(window, "gully", "G", "the chart's Gully row"),
        EraseBrush(window),
    ]
    fill = FillTool(window, brushes)
    for brush in brushes:
        brush.fill = fill
        window.add_tool(brush)
    window.add_tool(fill)
