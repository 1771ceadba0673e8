"""The Tool options bar: the chosen tool's settings (a brush's level, hill name, building id...)
beside a line that says what the tool does with them, and the hex under the cursor outlined.

Map-editing tools derive from `OptionsTool`; each builds its settings once, shown only while it
is the chosen tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QRadioButton, QToolBar, QWidget

from engine.hexgrid import Hex

from .mapview import HexSetItem
from .window import Tool

if TYPE_CHECKING:
    from .window import MainWindow

CURSOR = QColor(40, 40, 40, 30)
CURSOR_OUTLINE = QColor("#202020")


def options_bar(window: MainWindow) -> QToolBar:
    """The window's "Tool options" bar, made once, on a row of its own under the tools."""
    bar = window.findChild(QToolBar, "tool-options")
    if isinstance(bar, QToolBar):
        return bar
    window.addToolBarBreak()
    bar = QToolBar("Tool options", window)
    bar.setObjectName("tool-options")
    window.addToolBar(bar)
    window.menus["View"].addAction(bar.toggleViewAction())
    return bar


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
        self._action: QAction | None = None
        self._summary = QLabel()
        self._summary.setObjectName(f"summary-{self.name}")
        self._cursor = HexSetItem(window.scene.layers["overlays"], CURSOR, CURSOR_OUTLINE)
        self._cursor.setZValue(10)

    def options(self) -> QWidget | None:
        """The settings (built once, the first time the tool is chosen); None: the tool has none."""
        return None

    def describe(self) -> str:
        """What the tool does with its current settings (the options bar and the status bar say it)."""
        return self.tip

    def activate(self) -> None:
        if self._action is None:
            box = QWidget()
            layout = QHBoxLayout(box)
            layout.setContentsMargins(4, 0, 4, 0)
            title = QLabel(f"<b>{self.label}</b>")
            layout.addWidget(title)
            settings = self.options()
            if settings is not None:
                layout.addWidget(settings)
            self._summary.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
            layout.addWidget(self._summary, 1)
            self._action = options_bar(self.window).addWidget(box)
        self._action.setVisible(True)
        self.settings_changed()

    def deactivate(self) -> None:
        if self._action is not None:
            self._action.setVisible(False)
        self._cursor.set_hexes(())

    def settings_changed(self, *_: Any) -> None:
        """Say what the tool now does (call after a setting changes)."""
        text = self.describe()
        self._summary.setText(text)
        self.window.statusBar().showMessage(f"{self.label}: {text}", 5000)

    def hover(self, h: Hex | None) -> None:
        self._cursor.set_hexes(() if h is None else (h,))
