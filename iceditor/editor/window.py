"""The editor's main window: the map in the middle, docks around it, one undo stack for everything.

Features (tools, panels, overlays) live in iceditor/editor/features/, one module each with an
`install(window)` function, found and installed when the window opens. Tools get the map's
mouse events as hexes through the window's active tool.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QUndoView,
    QWidget,
)

from engine.hexgrid import Hex
from engine.model.terrain import Terrain
from engine.problems import Problem, Severity

from . import features
from .commands import TerrainCommand
from .document import EditorDocument
from .mapview import LAYERS, MapScene, MapView


class Tool:
    """A map tool: it receives presses, drags, releases and hovers as hexes."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    tip = ""

    def __init__(self, window: MainWindow) -> None:
        self.window = window

    def activate(self) -> None:
        """The tool was chosen."""

    def deactivate(self) -> None:
        """Another tool was chosen."""

    def press(self, h: Hex, event: Any) -> None:
        """Left button down on a hex."""

    def move(self, h: Hex, event: Any) -> None:
        """Dragged onto a hex with the left button down."""

    def release(self, h: Hex | None, event: Any) -> None:
        """Left button up (h is None off the map)."""

    def hover(self, h: Hex | None) -> None:
        """The cursor is over a hex (None: off the map)."""


class MainWindow(QMainWindow):
    document_changed = Signal()  # after every edit, undo or redo (views and panels refresh)
    problems_changed = Signal(list)
    selection_changed = Signal(object)  # set[Hex]: the selected hexes
    document_replaced = Signal(object)  # EditorDocument: another document is shown (opened, new, restored)
    file_opened = Signal(object)  # Path: the user opened this file (at start or File > Open)
    save_requested = Signal()  # save the edits (features/file_menu.py does; it reports a failure)
    saved = Signal()  # the document's edits are on disk
    closed = Signal()  # the window closed with the user's agreement (a clean close)

    def __init__(self, document: EditorDocument) -> None:
        super().__init__()
        self.document = document
        self.undo_stack = QUndoStack(self)
        self.scene = MapScene(document.board)
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.tools: dict[str, Tool] = {}
        self.tool: Tool | None = None
        self._tool_actions = QActionGroup(self)
        self.menus: dict[str, QMenu] = {}
        for name in ("File", "Edit", "View", "Tools", "Overlays", "Help"):
            self.menus[name] = self.menuBar().addMenu(f"&{name}")
        self.tool_bar = self.addToolBar("Tools")
        self.tool_bar.setObjectName("tools")
        self.problems: list[Problem] = []
        self.selected: set[Hex] = set()
        self._hover: Hex | None = None
        self._status = QLabel()
        self.statusBar().addPermanentWidget(self._status, 1)
        self._build_edit_menu()
        self._build_docks()
        self._revalidate = QTimer(self, singleShot=True, interval=0)
        self._revalidate.timeout.connect(self.refresh_problems)
        self.undo_stack.indexChanged.connect(self._edited)
        self.undo_stack.cleanChanged.connect(self._update_title)
        self.scene.hex_pressed.connect(lambda h, e: self.tool and self.tool.press(h, e))
        self.scene.hex_moved.connect(lambda h, e: self.tool and self.tool.move(h, e))
        self.scene.hex_released.connect(lambda h, e: self.tool and self.tool.release(h, e))
        self.scene.hovered.connect(self._hovered)
        for module in _feature_modules():
            module.install(self)
        self._update_title()
        self.resize(1400, 900)
        self.refresh_problems()

    # -- tools ----------------------------------------------------------------------------
    def add_tool(self, tool: Tool) -> QAction:
        """Register a tool: a checkable action in the Tools menu and tool bar, with its shortcut."""
        self.tools[tool.name] = tool
        action = QAction(tool.label, self, checkable=True)
        action.setObjectName(f"tool-{tool.name}")
        if tool.shortcut:
            action.setShortcut(QKeySequence(tool.shortcut))
        action.setToolTip(f"{tool.tip or tool.label} ({tool.shortcut})" if tool.shortcut else tool.tip or tool.label)
        action.triggered.connect(lambda: self.use_tool(tool.name))
        self._tool_actions.addAction(action)
        self.menus["Tools"].addAction(action)
        self.tool_bar.addAction(action)
        return action

    def use_tool(self, name: str) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = self.tools[name]
        for action in self._tool_actions.actions():
            action.setChecked(action.objectName() == f"tool-{name}")
        self.tool.activate()
        self.statusBar().showMessage(self.tool.tip or self.tool.label, 3000)

    def add_dock(
        self, title: str, widget: QWidget, area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower().replace(" ", "-"))
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.menus["View"].addAction(dock.toggleViewAction())
        return dock

    # -- edits ------------------------------------------------------------------------------
    def paint(self, label: str, changes: Mapping[Hex, Terrain]) -> None:
        """Paint terrain as one undo step (fill, paste, erratum)."""
        before = {h: self.document.printed(h) for h in changes}
        changed = {h: t for h, t in changes.items() if t != before[h]}
        if changed:
            self.undo_stack.push(TerrainCommand(self.document, label, {h: before[h] for h in changed}, changed))

    def set_document(self, document: EditorDocument) -> None:
        """Show another document in this window: the map drawn afresh, the undo history emptied."""
        self.document = document
        self.undo_stack.clear()
        self.scene.set_board(document.board)
        self.selected = set()
        self.selection_changed.emit(self.selected)
        self.document_replaced.emit(document)
        self._edited()
        self.fit()

    def mark_saved(self) -> None:
        """The document's files were written: the history is clean and the title loses its '*'."""
        self.undo_stack.setClean()
        self._update_title()
        self.saved.emit()

    def _edited(self) -> None:
        self.document_changed.emit()
        self._show_hover()
        self._update_title()
        self._revalidate.start()

    def refresh_problems(self) -> None:
        self.problems = self.document.problems()
        self.problems_changed.emit(self.problems)

    # -- docks --------------------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.problem_list = QListWidget()
        self.problem_list.setObjectName("problems")
        self.problem_list.itemActivated.connect(self._problem_chosen)
        self.problem_list.itemClicked.connect(self._problem_chosen)
        self.problems_changed.connect(self._show_problems)
        self.add_dock("Problems", self.problem_list, Qt.DockWidgetArea.BottomDockWidgetArea)
        history = QUndoView(self.undo_stack)
        history.setEmptyLabel("Opened")
        self.add_dock("History", history)
        layers = QListWidget()
        for name in LAYERS:
            item = QListWidgetItem(name.capitalize())
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            layers.addItem(item)
        layers.itemChanged.connect(
            lambda item: self.scene.set_layer_visible(
                item.data(Qt.ItemDataRole.UserRole), item.checkState() == Qt.CheckState.Checked
            )
        )
        self.layer_list = layers
        self.add_dock("Layers", layers)

    def _show_problems(self, problems: list[Problem]) -> None:
        self.problem_list.clear()
        icons = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}
        for p in problems:
            where = f"{Path(p.file).name}:{p.line}" if p.file else ""
            hexes = f" [{p.hex}]" if p.hex else ""
            item = QListWidgetItem(f"{icons[p.severity]} {p.message} ({p.rule or '-'}) [{p.code}] {where}{hexes}")
            item.setData(Qt.ItemDataRole.UserRole, p)
            self.problem_list.addItem(item)
        errors = sum(1 for p in problems if p.severity is Severity.ERROR)
        self.statusBar().showMessage(
            f"{errors} error{'s' if errors != 1 else ''}, {len(problems) - errors} other", 4000
        )

    def _problem_chosen(self, item: QListWidgetItem) -> None:
        problem: Problem = item.data(Qt.ItemDataRole.UserRole)
        self.select_problem(problem)

    def select_problem(self, problem: Problem) -> None:
        """Show where a problem is: its hex centred and selected on the map."""
        if problem.hex:
            try:
                h = self.document.board.hex(problem.hex)
            except ValueError:
                return
            self.view.centre_on(h)
            self.selected = {h}
            self.selection_changed.emit(self.selected)

    # -- status and title ---------------------------------------------------------------------
    def _hovered(self, h: Hex | None) -> None:
        self._hover = h
        self._show_hover()
        if self.tool is not None:
            self.tool.hover(h)

    def _show_hover(self) -> None:
        """The hex under the cursor and its terrain, in the status bar (again after each edit)."""
        h = self._hover
        if h is None or h not in self.document.board.hexes:
            self._status.setText("")
        else:
            self._status.setText(f"{self.document.board.label(h)}  {describe_terrain(self.document.board.terrain(h))}")

    def _update_title(self) -> None:
        # unsaved: edits since the last save (an undo back to it clears the mark), or a document
        # that starts unsaved (a new map, a restored autosave)
        unsaved = not self.undo_stack.isClean() or (self.document.dirty and self.undo_stack.count() == 0)
        mark = "*" if unsaved else ""
        self.setWindowTitle(f"{mark}{self.document.path.name} - iceditor")

    def _build_edit_menu(self) -> None:
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.menus["Edit"].addActions([undo, redo])
        for label, keys, factor in (
            ("Zoom &in", QKeySequence.StandardKey.ZoomIn, 1.25),
            ("Zoom &out", QKeySequence.StandardKey.ZoomOut, 0.8),
        ):
            action = QAction(label, self)
            action.setShortcut(keys)
            action.triggered.connect(lambda checked=False, f=factor: self.view.zoom(f))
            self.menus["View"].addAction(action)
        fit = QAction("&Fit the map", self, shortcut=QKeySequence("Ctrl+0"))
        fit.triggered.connect(self.fit)
        self.menus["View"].addAction(fit)

    def fit(self) -> None:
        self.view.fitInView(self.scene.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    # -- closing ---------------------------------------------------------------------------------
    def confirm_discard(self, doing: str) -> bool:
        """Ask before unsaved edits would be lost; True when it is fine to go on."""
        if not self.document.dirty:
            return True
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"{self.document.path.name} has unsaved changes. Save them before {doing}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            self.save_requested.emit()
            return not self.document.dirty  # not saved (cancelled, or it failed): stay
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.confirm_discard("closing"):
            event.accept()
            self.closed.emit()
        else:
            event.ignore()


def describe_terrain(t: Terrain) -> str:
    """The status bar's words for a hex."""
    parts = []
    if t.elevation or t.upper_level is not None:
        level = f"level {t.level}" + (f"/{t.upper_level}" if t.upper_level is not None else "")
        parts.append(level + (f" (Hill {t.hill})" if t.hill else ""))
    if t.trees:
        parts.append(f"{t.trees} tree{'s' if t.trees != 1 else ''}" + (" (woods)" if t.is_woods else ""))
    if t.building is not None:
        parts.append(f"Building {t.building}")
    parts += [
        name for name, on in (("marsh", t.marsh), ("gully", t.gully), ("road", t.road), ("bridge", t.bridge)) if on
    ]
    return ", ".join(parts) or "clear"


def _feature_modules() -> list[Any]:
    found = [importlib.import_module(f"{features.__name__}.{m.name}") for m in pkgutil.iter_modules(features.__path__)]
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))
