"""What the scenario panels of a window share: their docks, their edits and the problems.

Every panel edits the scenario through `push(edit)`: the edit is applied, checked against the
scenario schema, the scenario validated afresh (document.scenario_changed), and it becomes one
DataCommand on the window's undo stack. An edit the schema rejects is taken back and reported
instead (in a half-made scenario, an edit that makes a schema error it did not have), so the open
document never gets worse. A problem clicked in the Problems panel that points into the scenario
file is offered to each panel (`on_pointer`), which selects the matching field.

The panels are built for every window but shown only while the document is a scenario: the
window may open a map, or another scenario, in their place (MainWindow.set_document).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QByteArray, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QLabel, QScrollArea, QTabWidget, QWidget

from engine.hexgrid import Hex, LabelError
from engine.model.scenario import Scenario
from engine.model.schema import schema_problems
from engine.model.source import pointer
from engine.problems import Problem, Severity

from .commands import DataCommand
from .scenario_data import DataPath, Edit, parse_pointer

if TYPE_CHECKING:
    from .window import MainWindow, Tool


WIDTH = 470  # the left docks: room for the OOB's counter values and the set-up table


class ScenarioPanels(QObject):
    """The scenario panels of one window (see the module's docstring)."""

    rejected = Signal(str)  # an edit taken back: why
    # after an edit, undo or redo that changed the scenario's own data, or another document shown;
    # a terrain edit does not (a panel that shows only the scenario's data need not rebuild)
    data_changed = Signal()

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.docks: list[QDockWidget] = []
        self.tool_actions: list[QAction] = []
        self._handlers: list[Callable[[DataPath], bool]] = []
        self._problem_handlers: list[Callable[[Problem], bool]] = []
        self._document = window.document
        self._scenario = self._reading()  # what the panels last showed
        self._layout: QByteArray | None = None  # the window's layout when a map hid the panels
        window.document_changed.connect(self._document_changed)  # before the panels' own refresh
        window.problem_chosen.connect(self.show_problem)

    # -- the scenario ---------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """The document is a scenario: the panels show it."""
        return self.window.document.scenario is not None

    def _reading(self) -> Scenario | None:
        session = self.window.document.session
        return session.context.scenario if self.active and session is not None else None

    def _document_changed(self) -> None:
        scenario = self._reading()
        replaced = self.window.document is not self._document
        if replaced:
            self._document = self.window.document
            self._show_docks(self.active)
            for action in self.tool_actions:
                action.setEnabled(self.active)
        # every data edit reads the scenario afresh (document.scenario_changed); a terrain edit keeps it
        if replaced or scenario is not self._scenario:
            self._scenario = scenario
            self.data_changed.emit()

    def _show_docks(self, shown: bool) -> None:
        """Show or hide the panels' docks. Qt re-docks a hidden tabbed dock where it likes (the
        Order of battle squeezed to two rows under a stray tab bar, after a map then a scenario
        opened): the window's layout as it was when they were hidden is put back."""
        if not shown and any(d.isVisible() for d in self.docks):
            self._layout = self.window.saveState()
        for dock in self.docks:
            dock.toggleViewAction().setVisible(shown)
            dock.setVisible(shown)
        if shown and self._layout is not None:
            self.window.restoreState(self._layout)
            self._layout = None
        elif shown and self.docks:  # shown for the first time (the window opened on a map): sized as at the start
            first = self.docks[0]  # once the window has laid the docks out: after the layout's own posted events
            QTimer.singleShot(0, lambda: QTimer.singleShot(0, lambda: self._size_first(first)))

    @property
    def data(self) -> Any:
        """The scenario file's round-trip data (what the edits change)."""
        assert self.window.document.scenario is not None
        return self.window.document.scenario.data

    @property
    def scenario(self) -> Scenario:
        """The engine's reading of the current data (rebuilt after every edit)."""
        session = self.window.document.session
        assert session is not None
        return session.context.scenario

    def hex(self, label: Any) -> Hex | None:
        """The hex of a label on the board, None for anything else."""
        try:
            return self.window.document.board.hex(str(label))
        except LabelError:
            return None

    def label(self, h: Hex) -> str:
        return self.window.document.board.label(h)

    # -- edits ----------------------------------------------------------------------------------
    def push(self, edit: Edit) -> bool:
        """Apply `edit` as one undo step; False (and `rejected`) if the schema does not allow it."""
        if not edit:
            return False
        document = self.window.document
        assert document.scenario is not None
        # A half-made scenario (a new one) has schema errors until its panels are filled in: an
        # edit is taken back only for an error it makes, checked before the document revalidates.
        had = {(p.pointer, p.message) for p in self._schema_errors()}
        edit.apply(self.data)
        errors = [p for p in self._schema_errors() if (p.pointer, p.message) not in had]
        if errors:
            edit.revert(self.data)
            why = "; ".join(p.message for p in errors[:2])
            self.window.statusBar().showMessage(f"{edit.label}: not done: {why}", 8000)
            self.rejected.emit(why)
            return False
        document.scenario_changed()
        first = [True]  # the edit is already applied: the stack's first redo does nothing

        def redo() -> None:
            if first[0]:
                first[0] = False
            else:
                self._run(edit.apply)

        self.window.undo_stack.push(DataCommand(edit.label, redo, lambda: self._run(edit.revert)))
        return True

    def push_told(self, edit: Edit, message: QLabel) -> bool:
        """`push`, with a refusal said in a panel's own message line as in the status bar (the line
        cleared first: a message stays only as long as what it is about)."""
        message.clear()
        if self.push(edit):
            return True
        message.setText(self.window.statusBar().currentMessage())
        return False

    def _schema_errors(self) -> list[Problem]:
        scenario = self.window.document.scenario
        assert scenario is not None
        return [p for p in schema_problems(scenario.document(), "scenario") if p.severity is Severity.ERROR]

    def _run(self, change: Callable[[Any], None]) -> None:
        change(self.data)
        self.window.document.scenario_changed()

    # -- docks ----------------------------------------------------------------------------------
    def add_dock(self, title: str, widget: QWidget, *, tabbed: bool = True) -> QDockWidget:
        """A dock on the left; `tabbed` docks share one tabbed area below the others."""
        dock = self.window.add_dock(title, widget, Qt.DockWidgetArea.LeftDockWidgetArea)
        if not self.docks:  # once the window has laid its docks out; the first as high as it needs
            QTimer.singleShot(0, lambda: self._size_first(dock))
        if tabbed:
            first = next((d for d in self.docks if d.property("tabbed")), None)
            if first is not None:
                self.window.tabifyDockWidget(first, dock)
                first.raise_()
            dock.setProperty("tabbed", True)
        self.docks.append(dock)
        dock.toggleViewAction().setVisible(self.active)
        dock.setVisible(self.active)
        return dock

    def add_page(self, title: str, page: str, widget: QWidget) -> QDockWidget:
        """`widget` as a page `page` of the tabbed dock `title` (made with the first page): two
        panels in one tab of the left area, which more tabs would widen (the map's room)."""
        dock = next((d for d in self.docks if d.windowTitle() == title), None)
        if dock is None:
            dock = self.add_dock(title, QTabWidget(objectName=f"{title.lower()}-pages"))
        from .window import scrolled  # the window's own docks' scroll area (window imports no panel)

        pages = cast(QTabWidget, cast(QScrollArea, dock.widget()).widget())
        pages.addTab(scrolled(widget), page)
        return dock

    def _size_first(self, dock: QDockWidget) -> None:
        """The left docks WIDTH wide, the first (Scenario) as high as it needs, the tabbed ones the rest."""
        self.window.resizeDocks([dock], [WIDTH], Qt.Orientation.Horizontal)
        content = cast(QScrollArea, dock.widget()).widget()
        tabbed = next((d for d in self.docks if d.property("tabbed") and d.isVisible()), None)
        if tabbed is None:
            self.window.resizeDocks([dock], [content.sizeHint().height()], Qt.Orientation.Vertical)
            return
        need = content.sizeHint().height() + dock.height() - cast(QScrollArea, dock.widget()).viewport().height()
        rest = max(dock.height() + tabbed.height() - need, tabbed.minimumSizeHint().height())
        self.window.resizeDocks([dock, tabbed], [need, rest], Qt.Orientation.Vertical)
        # no taller than that when the window grows or fits the screen after: the room is the tabbed
        # panels' (at 1366x768 the Order of battle's tree kept two rows, the Scenario panel blank space)
        dock.setMaximumHeight(need)

    def add_tool(self, tool: Tool) -> QAction:
        """A map tool that edits the scenario: usable while the document is one."""
        action = self.window.add_tool(tool)
        action.setEnabled(self.active)
        self.tool_actions.append(action)
        return action

    # -- problems -------------------------------------------------------------------------------
    def on_problem(self, handler: Callable[[Problem], bool]) -> None:
        """`handler(problem)` shows where a problem is fixed, True if it did: asked before the
        pointers, for a problem fixed elsewhere than where it points (a group no deployment names)."""
        self._problem_handlers.append(handler)

    def on_pointer(self, handler: Callable[[DataPath], bool]) -> None:
        """`handler(path)` selects the field at `path` of the scenario data, True if it did."""
        self._handlers.append(handler)

    def show_problem(self, problem: Problem) -> bool:
        """Select the field a problem points to, in the first panel that has it."""
        scenario = self.window.document.scenario
        if not problem.pointer or scenario is None or problem.file is None:
            return False
        if Path(problem.file).resolve() != scenario.path.resolve():
            return False
        if any(handler(problem) for handler in self._problem_handlers):
            return True
        path = parse_pointer(problem.pointer)
        return any(handler(path) for handler in self._handlers)

    def problems_under(self, path: DataPath) -> list[Problem]:
        """The current problems whose pointer is `path` or inside it."""
        prefix = pointer(path)
        return [
            p
            for p in self.window.problems
            if p.pointer is not None and (p.pointer == prefix or p.pointer.startswith(prefix + "/"))
        ]


def panels(window: MainWindow) -> ScenarioPanels:
    """The window's scenario panels (made when the first panel is installed)."""
    return window.findChild(ScenarioPanels) or ScenarioPanels(window)


def show_dock(widget: QWidget) -> None:
    """Bring the dock holding `widget` to the front (a problem chose one of its fields)."""
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QDockWidget):
        if isinstance(parent, QTabWidget):  # a page of a dock (add_page): its pages are the tab stack's children
            pages = (parent.widget(i) for i in range(parent.count()))
            page = next((p for p in pages if p is widget or p.isAncestorOf(widget)), None)
            if page is not None:
                parent.setCurrentWidget(page)
        parent = parent.parentWidget()
    if parent is not None:
        parent.show()
        parent.raise_()


def delete_pressed(view: QAbstractItemView, event: QEvent) -> bool:
    """Whether `event` is Del for a panel's selected row: the panel takes it before the window's
    Delete shortcut (which deletes hexes), and leaves it to a cell editor while one is open.
    The caller accepts the event and, on the key press itself, removes the row."""
    kinds = (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
    return (
        event.type() in kinds
        and cast(QKeyEvent, event).key() == Qt.Key.Key_Delete
        and view.state() != QAbstractItemView.State.EditingState
    )
