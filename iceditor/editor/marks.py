"""The marks of one item of a scenario (docs/formats.md, "Keeping the printed text" and "Your own
scenarios"): its `printed` text, `printed_as`, `note`, `ruling`, its `assumed:` reason, its
`correction:` of a misprint and the printed `erratum:` applied to it (the words it changes, comma
separated), each offered only where the schema takes it (keys_at). A panel shows
the box under its list and gives it the path of the row chosen; every field is one undo step.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLineEdit, QVBoxLayout, QWidget

from engine.model.schema import keys_at

from .panel_widgets import Message
from .scenario_data import DataPath, Edit, block, find, quoted, sequence
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
ERRATUM = {
    "printed": "the erratum as printed (Terrain Clarifications and Errata)",
    "was": "the words it changes, comma separated: 5115, 5127",
    "now": "what they now read, comma separated: 5015, 5027",
}
LISTS = ("was", "now")  # an erratum's lists of words
# schema: a correction's and an erratum's fields, all of which each requires but a ruling
COMPOUNDS: dict[str, dict[str, str]] = {"correction": CORRECTION, "erratum": ERRATUM}
NEEDS = {
    "correction": "A correction says what was printed, how it reads and why",
    "erratum": "An erratum gives its printed text, the words it changes and what they now read",
}


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
        self.compounds: dict[str, dict[str, QLineEdit]] = {}
        for compound, keys in COMPOUNDS.items():
            self.compounds[compound] = {}
            for key, meaning in keys.items():
                field = QLineEdit(objectName=f"{name}-{compound}-{key}", toolTip=meaning, placeholderText=meaning)
                field.editingFinished.connect(lambda c=compound: self._compound_edited(c))
                self.compounds[compound][key] = field
                self.form.addRow(f"{compound.capitalize()}: {key}", field)
        self.correction, self.erratum = self.compounds["correction"], self.compounds["erratum"]
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
        for compound, fields in self.compounds.items():
            value = (item or {}).get(compound) or {}
            for key, field in fields.items():
                shown = value.get(key)
                self._show(field, compound in allowed, ", ".join(map(str, shown)) if key in LISTS and shown else shown)
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

    def _compound_edited(self, compound: str) -> None:
        """A correction or an erratum: written once every field it requires is typed (the typed
        fields stay meanwhile); all cleared removes it."""
        item = self.item()
        if item is None or self.path is None:
            return
        typed = {k: f.text().strip() for k, f in self.compounds[compound].items()}
        value: dict[str, Any] = {k: v for k, v in typed.items() if v}
        for key in LISTS if compound == "erratum" else ():
            if key in value:
                value[key] = sequence([quoted(w.strip()) for w in value[key].split(",") if w.strip()], flow_style=True)
        old = item.get(compound) or {}
        if value == {k: list(v) if isinstance(v, list) else str(v) for k, v in old.items()}:
            return
        what = "/".join(str(p) for p in self.path)
        if not value:
            self._push(Edit(f"{what}: no {compound}").remove(self.path, compound))
            return
        missing = [k for k in COMPOUNDS[compound] if k != "ruling" and not value.get(k)]
        if missing:
            self.message.setText(f"{NEEDS[compound]}: give {', '.join(missing)} too")
            return
        self._push(Edit(f"{what}: {compound}").set(self.path, compound, block(value.items())))

    def _push(self, edit: Edit) -> None:
        if not self.shared.push_told(edit, self.message):
            self.refresh()
