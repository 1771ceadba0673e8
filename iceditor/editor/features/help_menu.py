"""The Help menu: the user guide (docs/editor.md, read in the editor), the keys (every shortcut
of the window's menus, as bound now), the checks the validator runs, and About.

The dialogs are not modal: the guide or the keys can stay open beside the map.
"""

from __future__ import annotations

import platform
from typing import TYPE_CHECKING

import PySide6
from PySide6.QtCore import QObject, QUrl, qVersion
from PySide6.QtGui import QAction, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.resources import data_root
from engine.validate.registry import all_checks

if TYPE_CHECKING:
    from ..window import MainWindow

ORDER = 90  # after every feature: the Help menu ends the menu bar

GUIDE = "docs/editor.md"
MOUSE = (  # what no menu lists
    ("Map", "Zoom", "mouse wheel"),
    ("Map", "Pan", "middle button drag, or the scroll bars"),
    ("Map", "Add to the selection (Select tool)", "Shift+drag"),
    ("Map", "Lasso selection (Select tool)", "Ctrl+drag"),
    ("Map", "Remove road links (Road tool)", "Alt+drag"),
)


def shortcut_rows(window: MainWindow) -> list[tuple[str, str, str]]:
    """(menu, action, keys) for every action of the menu bar with a shortcut, in menu order."""
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, path: str) -> None:
        for action in menu.actions():
            if action.menu() is not None:
                walk(action.menu(), f"{path} > {action.menu().title().replace('&', '')}")
            elif action.shortcuts():
                keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
                rows.append((path, action.text().replace("&", ""), keys))

    for top in window.menuBar().actions():
        if top.menu() is not None:
            walk(top.menu(), top.menu().title().replace("&", ""))
    return rows


def table(headers: list[str], rows: list[tuple[str, ...]], name: str) -> QTableWidget:
    """A read-only table, one row per entry, the last column stretched."""
    view = QTableWidget(len(rows), len(headers), objectName=name)
    view.setHorizontalHeaderLabels(headers)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setWordWrap(True)
    view.verticalHeader().hide()
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            item = QTableWidgetItem(value)
            item.setToolTip(value)
            view.setItem(r, c, item)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    # wrapped texts: each row as high as its text at the columns' widths of the moment
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return view


def searchable(view: QTableWidget, placeholder: str) -> QWidget:
    """The table under a search box that hides the rows missing any of its words."""
    box = QWidget()
    search = QLineEdit(objectName=f"{view.objectName()}-search", placeholderText=placeholder)
    search.setClearButtonEnabled(True)

    def filter_rows(text: str) -> None:
        words = text.lower().split()
        for r in range(view.rowCount()):
            row = " ".join(view.item(r, c).text().lower() for c in range(view.columnCount()))
            view.setRowHidden(r, not all(w in row for w in words))

    search.textChanged.connect(filter_rows)
    layout = QVBoxLayout(box)
    layout.addWidget(search)
    layout.addWidget(view)
    return box


class HelpMenu(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.dialogs: dict[str, QDialog] = {}
        menu = window.menus["Help"]
        for name, text, keys, slot in (
            ("guide", "&User guide", QKeySequence.StandardKey.HelpContents, self.show_guide),
            ("keys", "&Keys and mouse", None, self.show_keys),
            ("checks", "&Checks the validator runs", None, self.show_checks),
        ):
            action = QAction(text, window, objectName=f"help-{name}")
            if keys is not None:
                action.setShortcut(keys)
            action.triggered.connect(slot)
            menu.addAction(action)
        menu.addSeparator()
        about = QAction("&About iceditor", window, objectName="help-about")
        about.triggered.connect(self.show_about)
        menu.addAction(about)

    def _dialog(self, name: str, title: str, contents: QWidget, size: tuple[int, int]) -> QDialog:
        """A dialog made once and brought to the front each time it is asked for, fitting the screen."""
        dialog = self.dialogs.get(name)
        if dialog is None:
            dialog = self.dialogs[name] = QDialog(self.window, objectName=f"help-{name}-dialog")
            dialog.setWindowTitle(title)
            QVBoxLayout(dialog).addWidget(contents)
            screen = self.window.screen().availableGeometry()
            dialog.resize(min(size[0], screen.width() - 40), min(size[1], screen.height() - 80))
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def show_guide(self) -> QDialog:
        browser = QTextBrowser(objectName="help-guide-text")
        browser.setOpenLinks(True)
        path = data_root() / GUIDE
        if path.is_file():
            browser.setSource(QUrl.fromLocalFile(str(path)), QTextDocument.ResourceType.MarkdownResource)
        else:  # an installed wheel carries the data, not the docs
            browser.setMarkdown(
                f"# The user guide\n\nThe guide, `{GUIDE}`, is not installed with this copy of iceditor: "
                "it is in iceditor's source (the repository or the source archive)."
            )
        return self._dialog("guide", "iceditor: user guide", browser, (900, 900))

    def show_keys(self) -> QDialog:
        rows = shortcut_rows(self.window) + list(MOUSE)
        view = table(["Menu", "Action", "Keys"], rows, "help-keys-table")
        return self._dialog("keys", "iceditor: keys and mouse", searchable(view, "Search the keys"), (640, 760))

    def show_checks(self) -> QDialog:
        rows = [(c.id, c.severity.value, c.rule or "-", c.summary, c.fix) for c in all_checks()]
        view = table(["Code", "Severity", "Rule", "What it means", "How to fix it"], rows, "help-checks-table")
        view.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        view.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        return self._dialog(
            "checks", "iceditor: the checks", searchable(view, "Search: code, rule or words"), (1200, 760)
        )

    def show_about(self) -> QMessageBox:
        # importlib.metadata (30-90 ms with its email parser) only when About is asked for, not at every start
        from importlib.metadata import PackageNotFoundError, version

        try:
            mine = version("iceditor")
        except PackageNotFoundError:
            mine = "(not installed)"
        box = QMessageBox(QMessageBox.Icon.Information, "About iceditor", "", parent=self.window)
        box.setObjectName("help-about-dialog")
        box.setText(
            f"<h3>iceditor {mine}</h3>"
            "<p>A scenario and map editor for <i>Iron Cross</i>, the tactical hex wargame of the Russian "
            "front, 1941-42, with the rulebook's rules built in: every problem names its rule.</p>"
            "<p>Values the rulebook does not print are marked <i>assumed</i> "
            "(<code>iceditor provenance --assumed</code> lists them).</p>"
            f"<p>Python {platform.python_version()}, PySide6 {PySide6.__version__}, Qt {qVersion()}. "
            "MIT licence.</p>"
        )
        box.open()  # not modal: the editor goes on
        return box


def install(window: MainWindow) -> None:
    HelpMenu(window)
