"""The Problems panel: the validator's problems, errors first, with counts per severity that
also filter, a search box, problems of one check grouped under one row, and each row's
tooltip giving the whole message, where it is and how to fix it (the check's own words).

The panel only shows problems; choosing one emits `chosen(problem)` and the window shows it.
"""

from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.problems import Problem, Severity
from engine.validate.check import Check
from engine.validate.registry import all_checks

ORDER = (Severity.ERROR, Severity.WARNING, Severity.INFO)
MARKS = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}
PLURALS = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "info"}
PROBLEM, WHERE = 0, 1  # the tree's columns


@cache
def _checks() -> dict[str, Check]:
    return {c.id: c for c in all_checks()}


def where(problem: Problem) -> str:
    """`map2.yaml:12 [4307]`: the file's line and the hex."""
    place = f"{Path(problem.file).name}:{problem.line or 1}" if problem.file else ""
    return " ".join(part for part in (place, f"[{problem.hex}]" if problem.hex else "") if part)


def sort_key(problem: Problem) -> tuple[int, str, str, int, int]:
    """Errors first, then warnings, then info; within one, by check, file and line."""
    return (ORDER.index(problem.severity), problem.code, problem.file or "", problem.line or 0, problem.column or 0)


def tooltip(problem: Problem) -> str:
    """The whole problem, as `iceditor validate` prints it, and how to fix it: rich text, which
    Qt wraps (a plain tooltip would be one line across the screen)."""
    check = _checks().get(problem.code)
    fix = f"<p><b>How to fix it:</b> {escape(check.fix)}</p>" if check is not None and check.fix else ""
    return f"<p>{escape(problem.text())}</p>{fix}"


def matches(problem: Problem, words: str) -> bool:
    """The search box: every word found in the message, code, rule, file or hex."""
    text = " ".join(str(v) for v in (problem.message, problem.code, problem.rule, problem.file, problem.hex) if v)
    return all(w in text.lower() for w in words.lower().split())


class ProblemsPanel(QWidget):
    chosen = Signal(object)  # Problem: the user clicked it (or pressed Enter on it)

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[Problem] = []
        # the groups (by check code) the user opened or closed stay so; errors' groups start open
        self.expanded: dict[str, bool] = {}
        self.severity_buttons: dict[Severity, QToolButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for severity in ORDER:
            button = QToolButton(checkable=True, checked=True, objectName=f"problems-{severity.value}")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setToolTip(f"Show the {PLURALS[severity]}")
            button.toggled.connect(self._show)
            self.severity_buttons[severity] = button
            bar.addWidget(button)
        self.search = QLineEdit(objectName="problems-search", placeholderText="Search: words of the message, code, hex")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._show)
        bar.addWidget(self.search, 1)
        self.shown = QLabel(objectName="problems-shown")
        bar.addWidget(self.shown)
        self.tree = QTreeWidget(objectName="problems")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Problem", "Where"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(PROBLEM, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(WHERE, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        self.tree.itemExpanded.connect(lambda item: self._opened(item, True))
        self.tree.itemCollapsed.connect(lambda item: self._opened(item, False))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.tree, 1)
        self.set_problems([])

    def set_problems(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=sort_key)
        for severity, button in self.severity_buttons.items():
            n = sum(1 for p in self.problems if p.severity is severity)
            button.setText(f"{MARKS[severity]} {n} {PLURALS[severity] if n != 1 else severity.value}")
        self._show()

    def visible_problems(self) -> list[Problem]:
        """The problems the filters and the search let through, in the panel's order."""
        kinds = {s for s, b in self.severity_buttons.items() if b.isChecked()}
        words = self.search.text()
        return [p for p in self.problems if p.severity in kinds and matches(p, words)]

    def rows(self) -> list[QTreeWidgetItem]:
        """Every problem's row (inside its group or not), top to bottom."""
        found = []
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            found += [top.child(j) for j in range(top.childCount())] if top.childCount() else [top]
        return found

    def _show(self) -> None:
        self.tree.clear()
        visible = self.visible_problems()
        groups: dict[str, list[Problem]] = {}
        for p in visible:
            groups.setdefault(p.code, []).append(p)
        for code, members in groups.items():
            if len(members) == 1:
                self.tree.addTopLevelItem(self._row(members[0]))
                continue
            first = members[0]
            check = _checks().get(code)
            summary = check.summary if check is not None else first.message
            group = QTreeWidgetItem([f"{MARKS[first.severity]} {len(members)} × {summary} [{code}]", ""])
            group.setData(PROBLEM, Qt.ItemDataRole.UserRole, code)
            group.setToolTip(
                PROBLEM,
                f"<p>{len(members)} problems of the check {code}: click to list them.</p><p>{escape(summary)}</p>",
            )
            group.addChildren([self._row(p) for p in members])
            self.tree.addTopLevelItem(group)
            group.setExpanded(self.expanded.get(code, first.severity is Severity.ERROR))
        filtered = len(visible) != len(self.problems)
        self.shown.setText(f"{len(visible)} of {len(self.problems)} shown" if filtered else "")

    def _opened(self, group: QTreeWidgetItem, expanded: bool) -> None:
        self.expanded[group.data(PROBLEM, Qt.ItemDataRole.UserRole)] = expanded

    def _row(self, problem: Problem) -> QTreeWidgetItem:
        rule = f" ({problem.rule})" if problem.rule else ""
        item = QTreeWidgetItem([f"{MARKS[problem.severity]} {problem.message}{rule} [{problem.code}]", where(problem)])
        item.setData(PROBLEM, Qt.ItemDataRole.UserRole, problem)
        text = tooltip(problem)
        item.setToolTip(PROBLEM, text)
        item.setToolTip(WHERE, text)
        return item

    def _clicked(self, item: QTreeWidgetItem, column: int = 0) -> None:
        problem = item.data(PROBLEM, Qt.ItemDataRole.UserRole)
        if isinstance(problem, Problem):
            self.chosen.emit(problem)
