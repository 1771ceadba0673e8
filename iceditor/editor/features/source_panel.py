"""Where a scenario comes from (docs/formats.md, "Your own scenarios"): its background, the rule
that prints it and the printed header lines, whether the printed errata apply, `source:` (the
publication, author, issue... of a scenario that is not the rulebook's), the `assumed:` marks
of its top-level fields (what the source does not give, and why: counted as assumed values) and
its `assertions:` (the facts its design relies on, assertions_box). Every field is one undo step.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.model.schema import keys_at

from ..assertions_box import AssertionsBox
from ..marks import MarksBox
from ..panel_widgets import Message, fit_rows, narrow, row, table
from ..scenario_data import DataPath, Edit, block, find
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..window import MainWindow

ORDER = 46
SOURCE: dict[str, str] = {
    "publication": 'the magazine, book or site; "own design" for yours (required)',
    "author": "who designed it",
    "issue": "the issue, number or volume, as printed",
    "date": "when it was published",
    "page": "the page",
    "url": "where it is online",
    "note": "anything else a reader should know",
}
PRINTED: dict[str, str] = {
    "heading": "the scenario's heading as printed",
    "map": "the MAP line as printed",
    "game_length": "the GAME LENGTH line as printed",
}

PRINTED_LABELS = {"heading": "Heading", "map": "MAP line", "game_length": "LENGTH line"}


class SourcePanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("source")
        self.window, self.shared = window, shared
        layout = QVBoxLayout(self)
        top = QFormLayout()
        self.background = QPlainTextEdit(objectName="source-background")
        self.background.setPlaceholderText("the scenario's background, as printed (24.1)")
        self.background.setMaximumHeight(70)
        self.background.installEventFilter(self)  # the text is applied when the field is left
        top.addRow("Background", self.background)
        self.errata = QCheckBox("apply the printed errata", objectName="source-errata")
        self.errata.toggled.connect(self._errata_toggled)
        top.addRow("Errata", self.errata)
        self.rule = self._line("source-rule", 'the rule that prints the scenario: "24.4" (the rulebook\'s own)')
        self.rule.editingFinished.connect(lambda: self._text((), "rule", self.rule))
        top.addRow("Rule", self.rule)
        self.printed: dict[str, QLineEdit] = {}
        for key, meaning in PRINTED.items():
            field = self._line(f"source-printed-{key}", meaning)
            field.editingFinished.connect(lambda k=key: self._printed(k))
            self.printed[key] = field
            top.addRow(PRINTED_LABELS[key], field)
        layout.addLayout(top)
        box = QGroupBox("Source (a scenario not the rulebook's)")
        form = QFormLayout(box)
        self.source: dict[str, QLineEdit] = {}
        for key, meaning in SOURCE.items():
            field = self._line(f"source-{key}", meaning)
            field.editingFinished.connect(lambda k=key: self._source(k))
            self.source[key] = field
            form.addRow(key.capitalize(), field)
        layout.addWidget(box)
        layout.addWidget(self._assumed_box())
        self.north_marks = MarksBox(shared, "source-north-marks", "Marks of the NORTH indicator")
        layout.addWidget(self.north_marks)
        self.assertions = AssertionsBox(shared)
        layout.addWidget(self.assertions)
        self.message = Message("source-message")
        layout.addWidget(self.message)
        layout.addStretch()
        self.refresh()

    def _line(self, name: str, meaning: str) -> QLineEdit:
        return QLineEdit(objectName=name, toolTip=meaning, placeholderText=meaning)

    def _assumed_box(self) -> QWidget:
        box = QGroupBox("Assumed: fields the source does not give")
        layout = QVBoxLayout(box)
        self.assumed = table(["Field", "Why this value"], "source-assumed")
        layout.addWidget(self.assumed)
        self.assumed_field = QComboBox(objectName="source-assumed-field")
        self.assumed_field.addItems(sorted(keys_at("scenario", ("assumed",))))
        narrow(self.assumed_field, 8)
        self.assumed_reason = self._line("source-assumed-reason", "why the field has this value (one line)")
        add = QPushButton("Mark assumed", objectName="source-assumed-add")
        add.clicked.connect(self.mark_assumed)
        remove = QPushButton("Remove mark", objectName="source-assumed-remove")
        remove.clicked.connect(self.remove_mark)
        layout.addLayout(row(self.assumed_field, self.assumed_reason))
        layout.addLayout(row(add, remove))
        return box

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.background and event.type() == QEvent.Type.FocusOut:
            self.apply_background()
        return super().eventFilter(watched, event)

    # -- showing ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not self.shared.active:
            return
        data = self.shared.data
        if self.north_marks.path is None and "north" in data:
            self.north_marks.show_path(("north",))
        if not self.background.hasFocus():
            self.background.setPlainText(str(data.get("background", "")))
        self.errata.blockSignals(True)
        self.errata.setChecked(bool(data.get("errata", True)))
        self.errata.blockSignals(False)
        _show(self.rule, data.get("rule"))
        printed = data.get("printed") if isinstance(data.get("printed"), dict) else {}
        for key, field in self.printed.items():
            _show(field, printed.get(key))
        for key, field in self.source.items():
            _show(field, (data.get("source") or {}).get(key))
        marks = data.get("assumed") or {}
        self.assumed.setRowCount(0)
        for i, (key, reason) in enumerate(marks.items()):
            self.assumed.insertRow(i)
            self.assumed.setCellWidget(i, 0, QLabel(str(key)))
            self.assumed.setCellWidget(i, 1, QLabel(str(reason), toolTip=str(reason)))
        fit_rows(self.assumed)
        self.assertions.refresh()

    # -- editing ------------------------------------------------------------------------------------
    def apply_background(self) -> bool:
        text = self.background.toPlainText().strip()
        if text == str(self.shared.data.get("background", "")).strip():
            return False
        if not text:
            self.message.setText("A scenario has a background (24.1): write a line at least")
            return False
        return self._push(Edit("Background").set((), "background", text, after="title"))

    def _errata_toggled(self, on: bool) -> None:
        self._push(Edit(f"Errata {'applied' if on else 'not applied'}").set((), "errata", on, after="maps"))

    def _text(self, path: DataPath, key: str, field: QLineEdit) -> None:
        text, old = field.text().strip(), find(self.shared.data, (*path, key))
        if text == ("" if old is None else str(old)):
            return
        if text:
            self._push(Edit(f"{key.capitalize()}: {text}").set(path, key, text, after="title"))
        else:
            self._push(Edit(f"No {key}").remove(path, key))

    def _printed(self, key: str) -> None:
        printed = self.shared.data.get("printed")
        text = self.printed[key].text().strip()
        if printed is None:
            if text:
                self._push(Edit(f"Printed {key}").set((), "printed", block([(key, text)]), after="rule"))
            return
        if not text and list(printed) == [key]:  # the last line gone: no `printed:` left (schema: not empty)
            self._push(Edit("No printed header").remove((), "printed"))
            return
        self._text(("printed",), key, self.printed[key])

    def _source(self, key: str) -> None:
        source = self.shared.data.get("source")
        text = self.source[key].text().strip()
        value: Any = int(text) if key in ("issue", "page") and text.isdigit() else text
        if source is None:
            if not text:
                return
            if key != "publication":
                self.message.setText('A source names its publication first ("own design" for yours)')
                return
            self._push(Edit(f"Source: {text}").set((), "source", block([("publication", value)]), after="title"))
            return
        if text == str(source.get(key, "")):
            return
        if text:
            self._push(Edit(f"Source {key}: {text}").set(("source",), key, value))
        elif key == "publication":
            if len(source) > 1:
                self.message.setText("A source names its publication (required): clear the other fields first")
                self.refresh()
                return
            self._push(Edit("No source").remove((), "source"))
        else:
            self._push(Edit(f"Source: no {key}").remove(("source",), key))

    def mark_assumed(self) -> bool:
        key, reason = self.assumed_field.currentText(), self.assumed_reason.text().strip()
        if not reason:
            self.message.setText(f"Say why {key} has its value: the reason is what a reader checks")
            return False
        edit = Edit(f"{key} assumed")
        if "assumed" in self.shared.data:
            edit.set(("assumed",), key, reason)
        else:
            edit.set((), "assumed", block([(key, reason)]), after="source" if "source" in self.shared.data else "title")
        if not self._push(edit):
            return False
        self.assumed_reason.clear()
        return True

    def remove_mark(self) -> bool:
        marks = list(self.shared.data.get("assumed") or {})
        i = self.assumed.currentRow()
        if not 0 <= i < len(marks):
            self.message.setText("Choose the mark to remove")
            return False
        if len(marks) == 1:  # schema: an `assumed:` mapping holds one mark at least
            return self._push(Edit(f"{marks[i]} not assumed").remove((), "assumed"))
        return self._push(Edit(f"{marks[i]} not assumed").remove(("assumed",), marks[i]))

    def _push(self, edit: Edit) -> bool:
        if self.shared.push_told(edit, self.message):
            return True
        self.refresh()
        return False

    # -- problems -------------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        fields = {"background": self.background, "rule": self.rule, "errata": self.errata}
        if not path or path[0] not in (*fields, "source", "assumed", "printed", "assertions"):
            return False
        show_dock(self)
        if path[0] == "assertions" and len(path) > 1 and isinstance(path[1], int):
            self.assertions.table.selectRow(path[1])
            self.assertions.table.setFocus()
        if path[0] in fields:
            fields[str(path[0])].setFocus()
        elif path[0] == "source":
            self.source.get(str(path[1]) if len(path) > 1 else "publication", self.source["publication"]).setFocus()
        elif path[0] == "printed" and len(path) > 1 and str(path[1]) in self.printed:
            self.printed[str(path[1])].setFocus()
        return True


def _show(field: QLineEdit, value: Any) -> None:
    if not field.hasFocus():
        field.setText("" if value is None else str(value))
        field.setCursorPosition(0)  # a long line shows its start


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = SourcePanel(window, shared)
    shared.add_page("Sides", "Source", panel)
    shared.on_pointer(panel.select)
    shared.data_changed.connect(panel.refresh)
