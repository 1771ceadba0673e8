"""Tools with settings (a brush's level, hill name, building id...): in the window's Tool options
bar beside a line that says what the tool does with them, and the hex under the cursor outlined.

Map-editing tools derive from `OptionsTool`; each builds its settings once, shown only while it
is the chosen tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QRadioButton, QWidget

from engine.hexgrid import Hex

from .mapview import HexSetItem
from .window import Tool, fitted_label, options_page

if TYPE_CHECKING:
    from .window import MainWindow

CURSOR = QColor(40, 40, 40, 30)
CURSOR_OUTLINE = QColor("#202020")


def hexes_text(n: int) -> str:
    """'1 hex', '7 hexes': the counts of undo labels."""
    return f"{n} hex{'es' if n != 1 else ''}"


def row(*widgets: QWidget) -> QWidget:
    """Settings side by side."""
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        layout.addWidget(w)
    return box


class RadioChoice:
    """One of a few named choices, as radio buttons in a row (objects named `{prefix}-{choice}`)."""

    def __init__(self, prefix: str, choices: tuple[str, ...], on_change: Callable[..., Any]) -> None:
        self.choices = choices
        self.group = QButtonGroup()
        self.buttons: list[QRadioButton] = []
        for i, choice in enumerate(choices):
            button = QRadioButton(choice.capitalize())
            button.setObjectName(f"{prefix}-{choice}")
            self.group.addButton(button, i)
            self.buttons.append(button)
        self.buttons[0].setChecked(True)
        self.group.idToggled.connect(on_change)

    def widget(self) -> QWidget:
        return row(*self.buttons)

    def chosen(self) -> str:
        return self.choices[max(self.group.checkedId(), 0)]


class OptionsTool(Tool):
    """A tool whose settings sit in the Tool options bar while it is chosen, with a line saying
    what it does with them now (`describe`); the hex under the cursor is outlined."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._summary = fitted_label("")
        self._summary.setObjectName(f"summary-{self.name}")
        self._cursor = HexSetItem(window.scene.layers["overlays"], CURSOR, CURSOR_OUTLINE)
        self._cursor.setZValue(10)
        # what a tool does can follow the map (a new building's id): the line is said again after each edit
        window.document_changed.connect(self._edited)

    def options(self) -> QWidget | None:
        """The settings (built once, the first time the tool is chosen); None: the tool has none."""
        return None

    def describe(self) -> str:
        """What the tool does with its current settings (the options bar and the status bar say it)."""
        return self.tip

    def options_page(self) -> QWidget:
        return options_page(self, self._summary, self.options())

    def activate(self) -> None:
        self.settings_changed()

    def deactivate(self) -> None:
        self._cursor.set_hexes(())

    def settings_changed(self, *_: Any) -> None:
        """Say what the tool now does (call after a setting changes)."""
        self.show_summary()
        if self.window.tool is self:  # a setting filled in while another tool is chosen says nothing
            self.window.statusBar().showMessage(f"{self.label}: {self._summary.text()}", 5000)

    def show_summary(self) -> None:
        """The options bar's line again, for what changed besides the settings (an edit)."""
        text = self.describe()
        self._summary.setText(text)
        self._summary.setToolTip(text)

    def _edited(self) -> None:
        if self.window.tool is self:
            self.show_summary()

    def hover(self, h: Hex | None) -> None:
        self._cursor.set_hexes(() if h is None else (h,))
