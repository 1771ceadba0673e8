"""The marks of one item of a scenario (docs/formats.md, "Keeping the printed text" and "Your own
scenarios"): its `printed` text, `printed_as`, `note`, `ruling`, its `assumed:` reason and its
`correction:` of a misprint, each offered only where the schema takes it (keys_at). A panel shows
the box under its list and gives it the path of the row chosen; every field is one undo step.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLineEdit, QVBoxLayout, QWidget

from engine.model.schema import keys_at

from .panel_widgets import Message
from .scenario_data import DataPath, Edit, block, find
from .scenario_panels import ScenarioPanels

# The marks, in the order the files write them, with what each says.
MARKS: dict[str, str] = {
    "printed": "the instruction as printed, word for word",
    "printed_as": "how the book prints it, when the data reads it otherwise",
    "note": "a note of your own",
    "ruling": "the ruling of docs/rulings.md the structured form follows (R and its number: R16)",
    "assumed": "what the source does not give, and why this value: counted as an assumed value",
}
CORRECTION = {
    "printed": "the words as printed",
    "reads": "the words as read",
    "why": "why they read so",
    "ruling": "the ruling (R16), if any",
}
NEEDED = ("printed", "reads", "why")  # schema: a correction's required keys


class MarksBox(QGroupBox):
    """The marks of the item at `path` (see the module's docstring); check the title to open it."""

    def __init__(self, shared: ScenarioPanels, name: str, title: str = "Marks: printed, assumed, correction") -> None:
        super().__init__(title)
        self.heading = title
        self.setObjectName(name)
        self.shared = shared
        self.path: DataPath | None = None
        self.setCheckable(True)
        self.setChecked(False)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 2, 4, 2)
        self.body = QWidget()
        outer.addWidget(self.body)
        self.form = QFormLayout(self.body)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.of = QComboBox(objectName=f"{name}-of", toolTip="Whose marks: the row's, or what it belongs to")
        self.of.activated.connect(lambda i: self._of_chosen(i))
        self.form.addRow("Of", self.of)
        self.choices: list[tuple[str, DataPath]] = []
        self.fields: dict[str, QLineEdit] = {}
        for key, meaning in MARKS.items():
            field = QLineEdit(objectName=f"{name}-{key}", toolTip=meaning, placeholderText=meaning)
            field.editingFinished.connect(lambda k=key: self._mark_edited(k))
            self.fields[key] = field
            self.form.addRow(key.replace("_", " ").capitalize(), field)
        self.correction: dict[str, QLineEdit] = {}
        for key, meaning in CORRECTION.items():
            field = QLineEdit(objectName=f"{name}-correction-{key}", toolTip=meaning, placeholderText=meaning)
            field.editingFinished.connect(self._correction_edited)
            self.correction[key] = field
            self.form.addRow(f"Correction: {key}", field)
        self.message = Message(f"{name}-message")
        self.form.addRow(self.message)
        self.toggled.connect(self.body.setVisible)
        self.body.setVisible(False)
        shared.data_changed.connect(self.refresh)
        self.show_path(None)

    def open(self) -> None:
        """Unfold the box (a problem points into a mark)."""
        self.setChecked(True)

    def show_path(self, path: DataPath | None) -> None:
        """Edit the marks of the item at `path` (None: nothing chosen)."""
        self.show_choices([("", path)] if path is not None else [])

    def show_choices(self, choices: list[tuple[str, DataPath]]) -> None:
        """Edit the marks of the first of `choices` (label, path); the Of list offers the others
        (an entry option's row: the option, or its entry)."""
        self.choices = choices
        self.of.blockSignals(True)
        self.of.clear()
        self.of.addItems([label for label, _ in choices])
        self.of.blockSignals(False)
        shown = len(choices) > 1
        self.of.setVisible(shown)
        label = self.form.labelForField(self.of)
        if label is not None:
            label.setVisible(shown)
        self._set_path(choices[0][1] if choices else None)

    def _of_chosen(self, index: int) -> None:
        if 0 <= index < len(self.choices):
            self._set_path(self.choices[index][1])

    def _set_path(self, path: DataPath | None) -> None:
        self.path = path
        self.message.clear()
        self.setTitle(f"Marks of {'/'.join(map(str, path))}" if path else self.heading)
        self.refresh()

    def item(self) -> Any:
        if self.path is None or not self.shared.active:
            return None
        found = find(self.shared.data, self.path)
        return found if isinstance(found, dict) else None

    def refresh(self) -> None:
        item = self.item()
        allowed = keys_at("scenario", self.path) if item is not None and self.path is not None else frozenset()
        for key, field in self.fields.items():
            self._show(field, key in allowed and not isinstance((item or {}).get(key), dict), (item or {}).get(key))
        correction = (item or {}).get("correction")
        for key, field in self.correction.items():
            self._show(field, "correction" in allowed, (correction or {}).get(key))
        self.setEnabled(item is not None)

    def _show(self, field: QLineEdit, shown: bool, value: Any) -> None:
        field.setVisible(shown)
        label = self.form.labelForField(field)
        if label is not None:
            label.setVisible(shown)
        if not field.hasFocus() or not shown:  # the user's typing stays while they type
            field.setText("" if value is None else str(value))
            field.setCursorPosition(0)  # a long line shows its start

    def _mark_edited(self, key: str) -> None:
        item = self.item()
        if item is None or self.path is None:
            return
        text = self.fields[key].text().strip()
        if text == str(item.get(key, "")):
            return
        what = "/".join(str(p) for p in self.path)
        if not text:
            self._push(Edit(f"{what}: no {key}").remove(self.path, key))
        else:
            self._push(Edit(f"{what}: {key}").set(self.path, key, text))

    def _correction_edited(self) -> None:
        item = self.item()
        if item is None or self.path is None:
            return
        typed = {k: f.text().strip() for k, f in self.correction.items()}
        old = {k: str(v) for k, v in (item.get("correction") or {}).items()}
        if {k: v for k, v in typed.items() if v} == old:
            return
        what = "/".join(str(p) for p in self.path)
        if not any(typed.values()):
            self._push(Edit(f"{what}: no correction").remove(self.path, "correction"))
            return
        missing = [k for k in NEEDED if not typed[k]]
        if missing:  # the fields typed stay: the user fills in the rest
            self.message.setText(
                f"A correction says what was printed, how it reads and why: give {', '.join(missing)} too"
            )
            return
        value = block((k, v) for k, v in typed.items() if v)
        self._push(Edit(f"{what}: correction").set(self.path, "correction", value))

    def _push(self, edit: Edit) -> None:
        self.message.clear()
        if not self.shared.push(edit):
            self.message.setText(self.shared.window.statusBar().currentMessage())
            self.refresh()
