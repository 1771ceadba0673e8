"""The editor's main window: the map in the middle, docks around it, one undo stack for everything.

Features (tools, panels, overlays) live in iceditor/editor/features/, one module each with an
`install(window)` function, found and installed when the window opens. Tools get the map's
mouse events as hexes through the window's active tool.

The window fits the screen in every state: each dock's contents scroll rather than grow the
window, and the Tool options bar keeps one height whichever tool is chosen, so the map never
moves when another tool is chosen.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStyle,
    QToolBar,
    QToolButton,
    QUndoView,
    QWidget,
)

from engine.file_writing import file_list
from engine.hexgrid import Hex
from engine.model.terrain import Terrain
from engine.problems import Problem, Severity

from . import features
from .commands import TerrainCommand
from .document import EditorDocument
from .mapview import LAYERS, MapScene, MapView, hex_polygon
from .problems_panel import MARKS, ORDER, ProblemsPanel
from .tool_icons import tool_icon
from .view_settings import ViewSettings

# Where a map opens: screen pixels per scene unit at which hex numbers (8.75 px) and hill names
# (14 px) read; fitting Map 2 whole at 1366x768 gave 14 px a hex, its numbers hidden.
READABLE_ZOOM = 1.25

# The tool bar's groups, in order; a tool names its own (Tool.group).
GROUPS = {"terrain": "Terrain", "roads": "Roads", "scenario": "Scenario", "analysis": "Analysis"}


class Tool:
    """A map tool: it receives presses, drags, releases and hovers as hexes."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    tip = ""
    group = "terrain"  # one of GROUPS

    def __init__(self, window: MainWindow) -> None:
        self.window = window

    def options_page(self) -> QWidget:
        """What the Tool options bar shows while the tool is chosen (made once): its name and
        what it does; tools with settings show them here too (tool_options.OptionsTool)."""
        return options_page(self, fitted_label(self.tip))

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
    problem_chosen = Signal(object)  # Problem: the user chose it in the Problems panel (show where it is)
    selection_changed = Signal(object)  # set[Hex]: the selected hexes
    document_replaced = Signal(object)  # EditorDocument: another document is shown (opened, new, restored)
    file_opened = Signal(object)  # Path: the user opened this file (at start or File > Open)
    save_requested = Signal()  # save the edits confirm_discard named (features/file_menu.py does; it reports a failure)
    saved = Signal()  # the document's edits are on disk
    closed = Signal()  # the window closed with the user's agreement (a clean close)

    def __init__(
        self, document: EditorDocument, *, validate: bool = True, settings: ViewSettings | None = None
    ) -> None:
        """`validate=False`: the problems are left to the caller (a launch shows the window first).
        `settings`: where the zoom and the docks' places are remembered between runs (None: nowhere)."""
        super().__init__()
        self.document = document
        self.settings = settings
        self.zoom_wanted = (settings.zoom() if settings else None) or READABLE_ZOOM
        self._shown_zoom: float | None = None  # the zoom show_map chose (None: not shown yet)
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
        self._build_tool_bars()
        self.problems: list[Problem] = []
        self.selected: set[Hex] = set()
        self._hover: Hex | None = None
        # Permanent widgets sit at the right at their own width: a temporary message (a tool's tip,
        # the LOS answer) is drawn left of them, so none of them may stretch over it.
        self._status = QLabel(objectName="status-hex")
        self.problem_count = QToolButton(objectName="status-problems", autoRaise=True)
        self.statusBar().addPermanentWidget(self._status)
        self.statusBar().addPermanentWidget(self.problem_count)
        self._build_edit_menu()
        self._build_docks()
        self._revalidate = QTimer(self, singleShot=True, interval=0)
        self._revalidate.timeout.connect(self._revalidate_step)
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
        if settings is None or not settings.restore(self):
            # the map gets most of the room; the bottom docks start a quarter of the window high:
            # seven rows of problems at 1366x768 (a fifth left them four)
            QTimer.singleShot(
                0, lambda: self.resizeDocks([self.problems_dock], [self.height() // 4], Qt.Orientation.Vertical)
            )
        if validate:
            self.refresh_problems()

    # -- tools ----------------------------------------------------------------------------
    def _build_tool_bars(self) -> None:
        """The tools, by group, and under them the chosen tool's options, on a row of one height."""
        self.tool_bar = self.addToolBar("Tools")
        self.tool_bar.setObjectName("tools")
        self.tool_bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        # the chosen tool stands out whatever the style draws for a checked button
        self.tool_bar.setStyleSheet(
            "QToolButton:checked { background: palette(highlight); border: 1px solid palette(dark);"
            " border-radius: 3px; }"
        )
        # each group ends with a separator in the tool bar and starts with a section in the Tools
        # menu: a tool goes at the end of its group
        self._group_ends: dict[str, tuple[QAction, QAction | None]] = {}
        sections = [self.menus["Tools"].addSection(title) for title in GROUPS.values()]
        for i, group in enumerate(GROUPS):
            self._group_ends[group] = (self.tool_bar.addSeparator(), sections[i + 1] if i + 1 < len(GROUPS) else None)
        self.addToolBarBreak()
        self.options_bar = QToolBar("Tool options", self)
        self.options_bar.setObjectName("tool-options")
        self.options_bar.setMovable(False)
        self.addToolBar(self.options_bar)
        self.options_bar.setFixedHeight(_options_height(self.options_bar))
        hint = QLabel("No tool chosen: choose one above, in the Tools menu or by its key (Help > Keys and mouse)")
        hint.setObjectName("options-none")
        hint.setContentsMargins(4, 0, 4, 0)
        self._option_pages: dict[str, QAction] = {"": self.options_bar.addWidget(hint)}
        self.menus["View"].addActions([self.tool_bar.toggleViewAction(), self.options_bar.toggleViewAction()])

    def add_tool(self, tool: Tool) -> QAction:
        """Register a tool: a checkable action with its icon in its group of the Tools menu and
        tool bar, with its shortcut."""
        if tool.group not in GROUPS:
            raise ValueError(f"tool {tool.name!r}: group {tool.group!r} is not one of {', '.join(GROUPS)}")
        self.tools[tool.name] = tool
        action = QAction(tool_icon(tool.name, tool.shortcut), tool.label, self, checkable=True)
        action.setObjectName(f"tool-{tool.name}")
        action.setProperty("group", tool.group)
        if tool.shortcut:
            action.setShortcut(QKeySequence(tool.shortcut))
        what = tool.tip or tool.label
        action.setToolTip(f"<b>{tool.label}</b> ({tool.shortcut}): {what}" if tool.shortcut else what)
        action.setStatusTip(what)
        action.triggered.connect(lambda: self.use_tool(tool.name))
        self._tool_actions.addAction(action)
        bar_end, menu_end = self._group_ends[tool.group]
        self.tool_bar.insertAction(bar_end, action)
        if menu_end is None:
            self.menus["Tools"].addAction(action)
        else:
            self.menus["Tools"].insertAction(menu_end, action)
        return action

    def use_tool(self, name: str) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = self.tools[name]
        for action in self._tool_actions.actions():
            action.setChecked(action.objectName() == f"tool-{name}")
        self._show_options(self.tool)
        self.tool.activate()
        self.statusBar().showMessage(self.tool.tip or self.tool.label, 3000)

    def _show_options(self, tool: Tool) -> None:
        if tool.name not in self._option_pages:
            self._option_pages[tool.name] = self.options_bar.addWidget(tool.options_page())
        for name, page in self._option_pages.items():
            page.setVisible(name == tool.name)

    def add_dock(
        self, title: str, widget: QWidget, area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea
    ) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.lower().replace(" ", "-"))
        dock.setWidget(widget if isinstance(widget, QAbstractScrollArea) else scrolled(widget))
        self.addDockWidget(area, dock)
        self.menus["View"].addAction(dock.toggleViewAction())
        return dock

    def tab_with_problems(self, dock: QDockWidget) -> None:
        """Make `dock` (at the bottom) a tab of the Problems panel's place, at the window's width,
        when it is first shown: tabbed while hidden, Qt leaves a stray tab bar over the docks."""

        def shown(visible: bool) -> None:
            if visible:
                dock.visibilityChanged.disconnect(shown)
                if dock not in self.tabifiedDockWidgets(self.problems_dock):
                    self.tabifyDockWidget(self.problems_dock, dock)

        dock.visibilityChanged.connect(shown)

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
        self.statusBar().clearMessage()  # a tool's answer (a line of sight) was about the other document
        self.document_replaced.emit(document)
        self._edited()
        self.show_map()

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

    def _revalidate_step(self) -> None:
        """After an edit: one scenario check at a time, back to the event loop between them, so a
        long revalidation (Scenario 6's turn counts) holds up no click or repaint; the problems are
        shown once every check has answered."""
        session = self.document.session
        if session is not None and session.revalidate_one():
            self._revalidate.start()
            return
        self.refresh_problems()

    # -- docks --------------------------------------------------------------------------------
    def _build_docks(self) -> None:
        self.problems_panel = ProblemsPanel()
        self.problem_list = self.problems_panel.tree
        self.problems_panel.chosen.connect(self.problem_chosen)
        self.problem_chosen.connect(self.select_problem)
        self.problems_changed.connect(self._show_problems)
        self.problems_dock = self.add_dock("Problems", self.problems_panel, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.problem_count.clicked.connect(self.show_problems_panel)
        history = QUndoView(self.undo_stack)
        history.setEmptyLabel("Opened")
        history_dock = self.add_dock("History", history)
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
        # two short lists share one place (History in front): the Properties form below has room
        self.tabifyDockWidget(history_dock, self.add_dock("Layers", layers))
        history_dock.raise_()

    def _show_problems(self, problems: list[Problem]) -> None:
        self.problems_panel.set_problems(problems)
        counts = {s: sum(1 for p in problems if p.severity is s) for s in ORDER}
        self.problem_count.setText("  ".join(f"{MARKS[s]} {n}" for s, n in counts.items()))
        self.problem_count.setToolTip(
            f"{counts[Severity.ERROR]} errors, {counts[Severity.WARNING]} warnings, {counts[Severity.INFO]} info:"
            " click to see them in the Problems panel"
        )
        # errors in red: seen even while another panel's tab covers the Problems panel
        self.problem_count.setStyleSheet("color: #c62828; font-weight: bold" if counts[Severity.ERROR] else "")

    def show_problems_panel(self) -> None:
        self.problems_dock.show()
        self.problems_dock.raise_()

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
        redo.setShortcuts(redo_keys())
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

    def show_map(self) -> None:
        """The map at the zoom the user last chose (READABLE_ZOOM at first), centred: opening
        another file keeps it; a map that the view holds whole at a larger zoom is fitted."""
        self.zoom_wanted = self.zoom_to_keep()
        rect, room = self.scene.sceneRect(), self.view.viewport().size()
        fitted = min(room.width() / max(rect.width(), 1.0), room.height() / max(rect.height(), 1.0))
        self.view.resetTransform()
        self.view.zoom(max(self.zoom_wanted, fitted))
        self.view.centerOn(rect.center())
        self._shown_zoom = self.view.transform().m11()

    def show_hexes(self, hexes: Iterable[Hex]) -> None:
        """Scroll the map so that these hexes are in view (centred on them when they are not), at
        the zoom chosen: a zone applied, a problem's hex."""
        rect = QRectF()
        for h in hexes:
            rect = rect.united(hex_polygon(h).boundingRect())
        if rect.isNull():
            return
        shown = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if not shown.contains(rect):
            self.view.centerOn(rect.center())

    def zoom_to_keep(self) -> float:
        """The zoom the user chose: the view's, once zoomed since the map was shown (a map fitted
        because it is small does not make the next one open that large)."""
        current = self.view.transform().m11()
        return current if self._shown_zoom is not None and current != self._shown_zoom else self.zoom_wanted

    def fit_screen(self, available: QRect | None = None) -> None:
        """Size the window to fit the screen it is on (or `available`), title bar and borders
        included, and move it onto it; before the window is shown its borders are estimated."""
        area = available if available is not None else self.screen().availableGeometry()
        frame, inner = self.frameGeometry(), self.geometry()
        border_w, border_h = frame.width() - inner.width(), frame.height() - inner.height()
        if not self.isVisible():
            border_h = max(border_h, self.style().pixelMetric(QStyle.PixelMetric.PM_TitleBarHeight) + 8)
        width = min(self.width(), area.width() - border_w)
        height = min(self.height(), area.height() - border_h)
        self.resize(width, height)
        x = min(max(frame.x(), area.left()), area.left() + area.width() - width - border_w)
        y = min(max(frame.y(), area.top()), area.top() + area.height() - height - border_h)
        self.move(x, y)

    # -- closing ---------------------------------------------------------------------------------
    def confirm_discard(self, doing: str) -> bool:
        """Ask before unsaved edits would be lost, naming every file they are in (a scenario's maps
        too); True when it is fine to go on. Edits undone back to the files on disk ask nothing."""
        unsaved = [f.path for f in self.document.unsaved_files()] if self.document.dirty else []
        if not unsaved:
            return True
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"Unsaved changes {file_list(unsaved)}\n\nSave them before {doing}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            self.save_requested.emit()
            return not self.document.dirty  # not saved (cancelled, or it failed): stay
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.confirm_discard("closing"):
            event.accept()
            if self.settings is not None:
                self.settings.save(self, self.zoom_to_keep())
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


def redo_keys() -> list[QKeySequence]:
    """The platform's redo keys (Ctrl+Shift+Z on most Linux desktops) and Ctrl+Y, which the
    user guide promises and Windows users expect."""
    keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    ctrl_y = QKeySequence("Ctrl+Y")
    return keys if ctrl_y in keys else [*keys, ctrl_y]


def scrolled(widget: QWidget) -> QScrollArea:
    """A dock's contents in a scroll area: a tall form scrolls instead of growing the window."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area


def fitted_label(text: str) -> QLabel:
    """A one-line label of the Tool options bar: cut at the bar's end rather than widening the
    window (the whole text is its tooltip, and the status bar says it too)."""
    label = QLabel(text)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setToolTip(text)
    return label


def options_page(tool: Tool, summary: QLabel, settings: QWidget | None = None) -> QWidget:
    """A tool's page of the Tool options bar: its icon and name, its settings, and a line
    saying what it does (`summary`, to the bar's end)."""
    page = QWidget()
    page.setObjectName(f"options-{tool.name}")
    layout = QHBoxLayout(page)
    layout.setContentsMargins(4, 0, 4, 0)
    icon = QLabel()
    icon.setPixmap(tool_icon(tool.name, tool.shortcut).pixmap(20, 20))
    layout.addWidget(icon)
    layout.addWidget(QLabel(f"<b>{tool.label}</b>"))
    if settings is not None:
        layout.addWidget(settings)
    layout.addWidget(summary, 1)
    return page


def _options_height(bar: QToolBar) -> int:
    """The Tool options bar's one height: the tallest of the settings tools put in it."""
    probe = QWidget()
    layout = QHBoxLayout(probe)
    layout.setContentsMargins(4, 0, 4, 0)
    for w in (QComboBox(editable=True), QSpinBox(), QLineEdit()):
        layout.addWidget(w)
    action = bar.addWidget(probe)
    height = bar.sizeHint().height()
    bar.removeAction(action)
    probe.deleteLater()
    return height


def _feature_modules() -> list[Any]:
    found = [importlib.import_module(f"{features.__name__}.{m.name}") for m in pkgutil.iter_modules(features.__path__)]
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.__name__))
