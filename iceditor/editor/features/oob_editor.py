"""The order of battle (24.1): side -> groups -> units, chosen from the countersheet.

A squad lists its men with the ones its "less"/"only" clause removes struck out; every counter
shows its values from counters/counters.yaml, an assumed one marked `*` with the reason in its
tooltip. Double-click a group's name, a unit's ammo, its clause, a squad's printed unit count or a
unit's state to edit them ("less LMG PR8, R PR9"; "only MP PR10, LMG PR9 (10)": a kept unit's own
ammo in brackets; "3"; "down"). Units and squad members are dragged from here onto the map to place
them in the test set-up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QToolBar,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.model.counter_values import CounterValue, counter_values
from engine.model.counters import SIDES, Clause, Counters, fielded_members
from engine.model.scenario import UNIT_KINDS, SquadAmmo
from engine.model.setup import side_setups
from engine.validate.placements import Placed, place

from ..marks import MarksBox
from ..panel_widgets import Message
from ..scenario_data import DataPath, Edit, block, flow, like_siblings, node, quoted, sequence
from ..scenario_panels import ScenarioPanels, delete_pressed, panels, show_dock
from ..setup_drag import setup_mime
from ..unit_list import describe, placement_key
from ..window import MainWindow

ORDER = 41
PATH = Qt.ItemDataRole.UserRole  # the item's path in the scenario data
DRAG = Qt.ItemDataRole.UserRole + 1  # (side, set-up entry) a drag onto the map places
COUNTER = Qt.ItemDataRole.UserRole + 2  # the counter's values, for the details pane

# Counter value columns: header, the counters.yaml keys shown (joined by "/"), what they mean.
VALUES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("PR", ("pr",), "Performance Rating (4.0)"),
    ("AP", ("ap_factor",), "AP factor (11.2)"),
    ("Range", ("initial_range", "ap_range"), "initial range; an AFV's AP range (11.2)"),
    ("AT", ("at_factor",), "AT factor (12.2)"),
    ("Assault", ("assault_rating", "overrun"), "assault rating (17.23); an AFV's overrun factor (9.2)"),
    ("Crew", ("crew",), "a CW's crew (8.63)"),
    ("MP", ("movement",), "MPs in the Movement Phase (8.1); a CW's Movement Factor"),
    ("Armour", ("frontal", "flank"), "frontal / flank armour modifiers (12.31)"),
)
# What each value of counters/counters.yaml is, in the rulebook's words (the details pane).
NAMES = {
    "weapon": "Weapon",
    "pr": "Performance Rating (4.0)",
    "ap_factor": "AP factor (11.2)",
    "initial_range": "Initial range (11.2)",
    "ap_range": "AP range (11.2)",
    "at_factor": "AT factor (12.2)",
    "assault_rating": "Assault rating (17.23)",
    "overrun": "Overrun factor (9.2)",
    "crew": "Crew (8.63)",
    "movement": "Movement Phase MPs (8.1)",
    "reaction_movement": "Reaction Movement MPs (8.1)",
    "frontal": "Frontal armour (12.31)",
    "flank": "Flank armour (12.31)",
    "facing": "Faces a hexside (8.7)",
    "turret": "Turret (10.23)",
}
UNIT, AMMO, CLAUSE, PLACED, COUNT, STATE = range(6)
HEADERS = ("Unit", "Ammo", "Less / only", "Set-up", "Count", "State", *(v[0] for v in VALUES))
STATES = ("up", "down")  # the two combat states (3.0)
REMOVED = QColor("#9a948a")
ASSUMED = QColor("#8a4b00")
PROBLEM = QColor("#f6d5d0")


# "18", "18 pool" (both LMGs of the squad fire from one number) or "20 each" (R81); also as the file
# and the Problems panel write them, "{pool: 18}", "each: 20".
AMMO_TEXT = re.compile(r"(?P<points>\d+)(?:,?\s*(?:one\s+)?(?P<split>pool|each))?")
AMMO_YAML = re.compile(r"\{?\s*(?P<split>pool|each)\s*:?\s*(?P<points>\d+)\s*\}?")


def _provenance(value: CounterValue) -> str:
    return "assumed" if value.assumed else "inferred" if value.inferred else "printed"


def ammo_text(unit: dict[str, Any]) -> str:
    """A unit's ammo as the tree shows and takes it: `18`, `18 pool`, `20 each`."""
    if "ammo" not in unit:
        return ""
    ammo = SquadAmmo.of(unit["ammo"])
    return f"{ammo.points} {ammo.split}" if ammo.split else str(ammo.points)


def clause_text(unit: dict[str, Any]) -> str:
    for key in ("less", "only"):
        if key in unit:
            entries = [f"{e['unit']} ({e['ammo']})" if isinstance(e, dict) else str(e) for e in unit[key]]
            return f"{key} {', '.join(entries)}"
    return ""


def parse_clause(text: str, weapons: set[str]) -> tuple[str | None, list[Any]]:
    """`less R PR9, PR8` or `only MP PR10, LMG PR9 (10)` -> (key, entries); ValueError if malformed.
    `weapons`: the infantry weapon types a clause may name."""
    text = text.strip()
    if not text:
        return None, []
    key, _, rest = text.partition(" ")
    if key not in ("less", "only"):
        raise ValueError("a clause starts with 'less' or 'only' (24.1)")
    entries: list[Any] = []
    for part in (p.strip() for p in rest.split(",")):
        if not part:
            continue
        ammo = re.fullmatch(r"(.+?)\s*\((\d+)\)", part)
        clause = Clause.parse(ammo[1] if ammo else part)
        if clause.weapon is not None and clause.weapon not in weapons:
            raise ValueError(f"{clause.weapon!r} is not a squad member's weapon ({', '.join(sorted(weapons))})")
        if ammo and key == "less":
            raise ValueError("ammo in brackets belongs to a unit an 'only' clause keeps")
        entries.append(flow(unit=quoted(ammo[1]), ammo=int(ammo[2])) if ammo else quoted(part))
    if not entries:
        raise ValueError(f"'{key}' names no unit")
    return key, entries


class OobTree(QTreeWidget):
    """The tree; an item with a set-up entry can be dragged onto the map. Del removes the selected
    row (taken here, before the window's Delete shortcut, which deletes hexes)."""

    deleted = Signal()

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:
        side, entry = items[0].data(0, DRAG)
        return setup_mime(side, "units", entry)

    def event(self, event: QEvent) -> bool:
        if delete_pressed(self, event):
            if event.type() == QEvent.Type.KeyPress:
                self.deleted.emit()
            event.accept()
            return True
        return super().event(event)


class OobPanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("oob")
        self.window, self.shared = window, shared
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        bar = QToolBar()
        self.add_group = self._menu_button(bar, "Add group", "A new group, with the unit chosen")
        self.add_unit = self._menu_button(bar, "Add unit", "A unit of the countersheet, to the selected group")
        self.remove = QAction("Remove", self, toolTip="Remove the selected unit or group (Del)")
        self.remove.triggered.connect(self.remove_selected)
        bar.addAction(self.remove)
        layout.addWidget(bar)
        # the reason an edit is refused, above the tree: in view however short the dock is
        self.message = Message("oob-message")
        layout.addWidget(self.message)
        self.tree = OobTree(objectName="oob-tree")
        self.tree.setColumnCount(len(HEADERS))
        self.tree.setHeaderLabels(HEADERS)
        for i, (_, _, meaning) in enumerate(VALUES):
            self.tree.headerItem().setToolTip(STATE + 1 + i, f"{meaning}; * assumed, not printed")
        self.tree.headerItem().setToolTip(PLACED, "the hexes the test set-up places it in")
        self.tree.headerItem().setToolTip(COUNT, 'a squad\'s printed unit count ("3 units", 24.1), checked')
        self.tree.headerItem().setToolTip(STATE, "up or down (3.0): the state a test set-up places it in")
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.tree.setUniformRowHeights(True)
        self.tree.itemChanged.connect(self._item_edited)
        self.tree.deleted.connect(self.remove_selected)
        layout.addWidget(self.tree, 3)
        self.details = QTableWidget(0, 2, objectName="oob-counter")
        self.details.setHorizontalHeaderLabels(["Counter value", "Source (* assumed: not printed)"])
        self.details.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.details.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.details.verticalHeader().hide()
        self.details.verticalHeader().setDefaultSectionSize(20)
        self.details.setWordWrap(False)
        self.details.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.currentItemChanged.connect(self.show_counter)
        # At 1366x768 (about 700 pixels inside a desktop's title and task bars) the tree had under
        # four rows: it keeps five, the counter's values one at least (the rest scroll, or the dock).
        self.details.setMinimumHeight(self.details.horizontalHeader().sizeHint().height() + 20 + 4)
        self.tree.setMinimumHeight(
            self.tree.header().sizeHint().height()
            + 5 * self.tree.fontMetrics().lineSpacing()
            + self.tree.horizontalScrollBar().sizeHint().height()
            + 2 * self.tree.frameWidth()
            + 4
        )
        layout.addWidget(self.details, 1)
        self.marks = MarksBox(shared, "oob-marks")  # the chosen group's or unit's printed text, assumed, correction
        layout.addWidget(self.marks)
        self.tree.currentItemChanged.connect(lambda item: self.marks.show_path(self.selected_path() or None))
        shared.rejected.connect(self.message.setText)
        self.items: dict[DataPath, QTreeWidgetItem] = {}
        self.sized = False  # the columns fitted to a scenario's units (not to an empty tree: a map opened first)
        self.refresh()

    def _menu_button(self, bar: QToolBar, text: str, tip: str) -> QMenu:
        menu = QMenu(text, self)
        menu.aboutToShow.connect(lambda: self._fill_counters(menu))
        button = QToolButton(text=text, toolTip=tip, popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setMenu(menu)
        bar.addWidget(button)
        return menu

    # -- showing ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        expanded = {path for path, item in self.items.items() if item.isExpanded()}
        current = self.tree.currentItem()
        selected = current.data(0, PATH) if current is not None else None
        self.tree.blockSignals(True)
        self.tree.clear()
        self.items = {}
        if not self.shared.active:
            self.tree.blockSignals(False)
            return
        counters = self._counters()
        for side in SIDES:
            data = (self.shared.data.get("sides") or {}).get(side)
            if data is None:
                continue
            side_item = self._item(self.tree.invisibleRootItem(), ("sides", side), side.capitalize())
            side_item.setFont(UNIT, _bold())
            placed = self._placed(side)
            for g, group in enumerate(data.get("groups") or []):
                path = ("sides", side, "groups", g)
                group_item = self._item(side_item, path, str(group.get("name", "")))
                group_item.setFlags(group_item.flags() | Qt.ItemFlag.ItemIsEditable)
                group_item.setToolTip(UNIT, str(group.get("printed", "")) or "double-click to rename")
                for u, unit in enumerate(group.get("units") or []):
                    self._unit(group_item, side, (*path, "units", u), unit, counters, placed)
        for path, item in self.items.items():
            item.setExpanded(path in expanded or len(path) <= 4)
        if selected in self.items:
            self.tree.setCurrentItem(self.items[selected])
        self.tree.blockSignals(False)
        if not self.sized and len(self.items) > 2:
            self.sized = True
            for column in range(len(HEADERS)):
                self.tree.resizeColumnToContents(column)
            self.tree.setColumnWidth(UNIT, max(self.tree.columnWidth(UNIT), 150))
        self.show_problems()

    def _item(self, parent: QTreeWidgetItem, path: DataPath, text: str) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [text])
        item.setData(0, PATH, path)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        self.items[path] = item
        return item

    def _unit(
        self,
        parent: QTreeWidgetItem,
        side: str,
        path: DataPath,
        unit: dict[str, Any],
        counters: Counters,
        placed: list[Placed],
    ) -> None:
        kind = next(k for k in UNIT_KINDS if k in unit)
        item = self._item(parent, path, describe(unit))
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsDragEnabled)
        item.setData(0, DRAG, (side, placement_key(unit)))
        item.setText(AMMO, ammo_text(unit))
        item.setText(CLAUSE, clause_text(unit))
        item.setText(COUNT, str(unit.get("count", "")))
        item.setText(STATE, str(unit.get("state", "")))
        item.setToolTip(UNIT, "\n".join(str(unit[k]) for k in ("printed_as", "note") if k in unit) or "")
        mine = [p for p in placed if p.ref.path == path]
        item.setText(PLACED, ", ".join(dict.fromkeys(p.placement.hex for p in mine)))
        members = counters.squad(side, str(unit[kind])) if kind == "squad" else None
        if members is None:
            _show_values(item, counter_values(counters, side, kind, str(unit[kind]), pr=unit.get("pr")))
            return
        fielded = {m.index for m in fielded_members(unit, members)[0]}
        item.setText(UNIT, f"{describe(unit)} ({len(fielded)} of {len(members)})")
        for m in members:
            child = QTreeWidgetItem(item, [m.describe()])
            child.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            child.setData(0, PATH, (*path, "member", m.index))
            _show_values(child, counter_values(counters, side, "squad", m.squad, member=m.index))
            if m.index in fielded:
                child.setFlags(child.flags() | Qt.ItemFlag.ItemIsDragEnabled)
                child.setData(0, DRAG, (side, {"squad": m.squad, "member": m.describe()}))
                hexes = [p.placement.hex for p in mine if m in p.members]
                child.setText(PLACED, ", ".join(hexes))
            else:
                font = child.font(UNIT)
                font.setStrikeOut(True)
                child.setFont(UNIT, font)
                for column in range(len(HEADERS)):
                    child.setForeground(column, QBrush(REMOVED))
                child.setToolTip(UNIT, f"not fielded: the clause '{clause_text(unit)}' removes this man (24.1)")

    def _placed(self, side: str) -> list[Placed]:
        scenario = self.shared.scenario
        setup = next((s for s in side_setups(scenario) if s.side == side), None)
        if setup is None:
            return []
        return place(scenario, self._counters(), side, setup.units).placed

    def _counters(self) -> Counters:
        session = self.window.document.session
        assert session is not None
        return session.context.counters

    def show_problems(self) -> None:
        """Tint the rows a problem points into; the problems in their tooltips."""
        blocked = self.tree.blockSignals(True)
        for path, item in self.items.items():
            if len(path) < 4:
                continue
            found = [p for p in self.shared.problems_under(path) if len(path) > 4 or "/units/" not in p.pointer]
            colour = QBrush(PROBLEM) if found else QBrush()
            for column in range(len(HEADERS)):
                item.setBackground(column, colour)
            if found:
                item.setToolTip(AMMO, "\n".join(f"{p.message} ({p.rule}) [{p.code}]" for p in found))
        self.tree.blockSignals(blocked)

    def show_counter(self, item: QTreeWidgetItem | None) -> None:
        """Every value of the selected counter with its source, the assumed ones marked."""
        values: list[CounterValue] = (item.data(0, COUNTER) if item is not None else None) or []
        order = list(NAMES)
        values = sorted(values, key=lambda v: order.index(v.name) if v.name in order else len(order))
        self.details.setRowCount(len(values))
        for row, value in enumerate(values):
            name = QTableWidgetItem(f"{NAMES.get(value.name, value.name)}: {_value_text(value)}")
            source = QTableWidgetItem(f"inferred: {value.source}" if value.inferred else value.source)
            source.setToolTip(source.text())
            if value.assumed:
                name.setForeground(QBrush(ASSUMED))
            self.details.setItem(row, 0, name)
            self.details.setItem(row, 1, source)

    # -- editing ------------------------------------------------------------------------------------
    def selected_path(self) -> DataPath:
        item = self.tree.currentItem()
        path: DataPath = item.data(0, PATH) if item is not None else ()
        return path[:6] if "member" in path else path

    def _side(self) -> str:
        path = self.selected_path()
        return str(path[1]) if len(path) > 1 else SIDES[0]

    def _fill_counters(self, menu: QMenu) -> None:
        """The side's countersheet: squads, commanders, CWs and AFVs; those fielded already greyed."""
        menu.clear()
        side, counters = self._side(), self._counters()
        fielded = {tuple(sorted(placement_key(r.data).items())) for r in self.shared.scenario.units if r.side == side}
        new_group = menu.title() == "Add group"
        sections: list[tuple[str, list[dict[str, Any]]]] = [
            ("Squads", [{"squad": letter} for letter in counters.squads[side]]),
            ("Commanders", [{"commander": rank, "pr": pr} for rank, pr in counters.commanders[side]]),
            (
                "Crew weapons",
                [{"crew_weapon": t, "number": n} for t, ids in counters.crew_weapons[side].items() for n in ids],
            ),
            ("AFVs", [{"afv": t, "number": n} for t, ids in counters.afvs[side].items() for n in ids]),
        ]
        for title, units in sections:
            sub = menu.addMenu(title)
            for unit in units:
                action = sub.addAction(describe(unit))
                taken = tuple(sorted(unit.items())) in fielded or (
                    "commander" in unit and tuple(sorted({"commander": unit["commander"]}.items())) in fielded
                )
                action.setEnabled(not taken)
                action.triggered.connect(
                    lambda checked=False, u=unit: self.new_group(side, u) if new_group else self.new_unit(u)
                )

    def new_unit(self, unit: dict[str, Any]) -> bool:
        path = self.selected_path()
        if len(path) < 4:
            self.message.setText("Select a group (or a unit of it) to add the unit to")
            return False
        units_path = (*path[:4], "units")
        units = self._at(units_path)
        index = int(path[5]) + 1 if len(path) > 5 else None
        edit = Edit(f"Add {describe(unit)} to {self._at(path[:4]).get('name')}")
        edit.insert(units_path, index, like_siblings(unit, units))
        return self._push(edit, (*units_path, len(units) if index is None else index))

    def new_group(self, side: str, unit: dict[str, Any]) -> bool:
        groups = self.shared.data["sides"][side]["groups"]
        names = {str(g.get("name")) for g in groups}
        name = next(f"group-{n}" for n in range(len(groups) + 1, len(groups) + 99) if f"group-{n}" not in names)
        group = block([("name", name), ("units", sequence([like_siblings(unit, [])]))])
        edit = Edit(f"Add {side.capitalize()} {name}").insert(("sides", side, "groups"), None, group)
        return self._push(edit, ("sides", side, "groups", len(groups)))

    def remove_selected(self) -> bool:
        path = self.selected_path()
        if len(path) == 6:
            if len(self._at(path[:5])) == 1:
                self.message.setText("A group needs a unit (24.1): remove the group instead")
                return False
            edit = Edit(f"Remove {describe(self._at(path))}").remove(path[:5], path[5])
        elif len(path) == 4:
            if len(self._at(path[:3])) == 1:
                self.message.setText("A side needs a group (24.1)")
                return False
            edit = Edit(f"Remove {path[1]} group {self._at(path).get('name')}").remove(path[:3], path[3])
        else:
            return False
        return self._push(edit, None)

    def _item_edited(self, item: QTreeWidgetItem, column: int) -> None:
        path: DataPath = item.data(0, PATH)
        text = item.text(column).strip()
        if len(path) == 4 and column == UNIT:
            renamed = text and text != self._at(path).get("name")
            edit = Edit(f"Rename group {text}").set(path, "name", text) if renamed else Edit("")
        elif len(path) == 6 and column == AMMO:
            edit = self._ammo_edit(path, text)
        elif len(path) == 6 and column == CLAUSE:
            edit = self._clause_edit(path, text)
        elif len(path) == 6 and column == COUNT:
            edit = self._count_edit(path, text)
        elif len(path) == 6 and column == STATE:
            edit = self._state_edit(path, text.lower())
        else:
            edit = Edit("")
        # After the item's signal returns: the edit rebuilds the tree, and with it the item.
        QTimer.singleShot(0, lambda: (edit and self._push(edit, path)) or self.refresh())

    def _ammo_edit(self, path: DataPath, text: str) -> Edit:
        unit = self._at(path)
        edit = Edit(f"Ammo of {describe(unit)}: {text or 'none'}")
        if text == ammo_text(unit):
            return Edit("")
        if not text:
            return edit.remove(path, "ammo") if "ammo" in unit else Edit("")
        written = AMMO_TEXT.fullmatch(text) or AMMO_YAML.fullmatch(text)
        if written is None or (written["split"] and "squad" not in unit):
            why = (
                f"ammo points are a number (24.1), not {text!r}"
                if "squad" not in unit
                else f"ammo points are a number (24.1), not {text!r}; a squad with two LMGs: "
                "'18 pool' or {pool: 18} (one number for both), '20 each' or {each: 20} (R81)"
            )
            self.refuse(f"Ammo of {describe(unit)}: {why}")
            return Edit("")
        points = int(written["points"])
        if points > 999:
            self.refuse(f"Ammo of {describe(unit)}: out of range: at most 999 (24.1)")
            return Edit("")
        value = flow(**{written["split"]: points}) if written["split"] else points
        after = "number" if "number" in unit else next(k for k in UNIT_KINDS if k in unit)
        return edit.set(path, "ammo", value, after=after)

    def _clause_edit(self, path: DataPath, text: str) -> Edit:
        unit = self._at(path)
        if text == clause_text(unit):
            return Edit("")
        try:
            weapons = {m.weapon for squads in self._counters().squads.values() for s in squads.values() for m in s}
            key, entries = parse_clause(text, weapons)
        except ValueError as exc:
            self.refuse(f"{describe(unit)}: {exc}")
            return Edit("")
        edit = Edit(f"{describe(unit)}: {text or 'no clause'}")
        for old in ("less", "only"):
            if old in unit and old != key:
                edit.remove(path, old)
        if key is not None:
            edit.set(path, key, sequence(entries, flow_style=True))
        return edit

    def _count_edit(self, path: DataPath, text: str) -> Edit:
        """A squad's printed unit count ("3 units"): squad-clause checks it against its clause (24.1)."""
        unit = self._at(path)
        if text == str(unit.get("count", "")):
            return Edit("")
        if not text:
            return Edit(f"{describe(unit)}: no count").remove(path, "count")
        if "squad" not in unit:
            self.refuse(f"Count of {describe(unit)}: only a squad states a unit count (24.1)")
        elif not text.isdigit() or not 1 <= int(text) <= 999:
            self.refuse(f"Count of {describe(unit)}: the printed unit count is a number 1-999 (24.1), not {text!r}")
        else:
            after = next(k for k in ("only", "less", "ammo", "squad") if k in unit)
            return Edit(f"Count of {describe(unit)}: {text}").set(path, "count", int(text), after=after)
        return Edit("")

    def _state_edit(self, path: DataPath, text: str) -> Edit:
        """The unit's combat state, UP or DOWN (3.0): where a test set-up places it, unless the
        set-up entry says otherwise."""
        unit = self._at(path)
        if text == str(unit.get("state", "")):
            return Edit("")
        if not text:
            return Edit(f"{describe(unit)}: no state").remove(path, "state")
        if text not in STATES:
            self.refuse(f"State of {describe(unit)}: a unit is up or down (3.0), not {text!r}")
            return Edit("")
        before = next((k for k in ("note", "assumed") if k in unit), None)
        return Edit(f"{describe(unit)}: {text}").set(path, "state", text, before=before)

    def refuse(self, why: str) -> None:
        """Text a cell does not take: the reason beside the tree, and in the status bar."""
        self.message.setText(why)
        self.window.statusBar().showMessage(why, 8000)

    def _push(self, edit: Edit, select: DataPath | None) -> bool:
        self.message.clear()
        if not self.shared.push(edit):
            return False
        if select is not None and select in self.items:
            self.tree.setCurrentItem(self.items[select])
        return True

    def _at(self, path: DataPath) -> Any:
        return node(self.shared.data, path)

    # -- problems -------------------------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        """A problem in a group (or a unit, or the side's own keys) selects its row."""
        if len(path) < 2 or path[0] != "sides" or (len(path) > 2 and path[2] != "groups"):
            return False  # the side's other fields are the Sides and Zones panels'

        for size in (6, 4, 2):
            item = self.items.get(path[:size])
            if item is not None and len(path) >= size:
                show_dock(self)
                self.tree.setCurrentItem(item)
                self.tree.scrollToItem(item)
                return True
        return False


def _show_values(item: QTreeWidgetItem, values: dict[str, CounterValue]) -> None:
    """The counter's values in the value columns: `4*` where assumed; each source in the tooltip."""
    item.setData(0, COUNTER, list(values.values()))
    for i, (_, keys, meaning) in enumerate(VALUES):
        shown = [values[k] for k in keys if k in values]
        if not shown:
            continue
        column = STATE + 1 + i
        item.setText(column, "/".join(_value_text(v) for v in shown))
        item.setToolTip(
            column,
            f"{meaning}\n" + "\n".join(f"{v.name}: {_provenance(v)}: {v.source}" for v in shown),
        )
        item.setTextAlignment(column, Qt.AlignmentFlag.AlignCenter)


def _value_text(value: CounterValue) -> str:
    shown = {None: "–", True: "yes", False: "no"}
    text = shown[value.value] if value.value is None or isinstance(value.value, bool) else str(value.value)
    return f"{text}*" if value.assumed else text


def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = OobPanel(window, shared)
    shared.add_dock("Order of battle", panel)
    shared.on_pointer(panel.select)
    shared.data_changed.connect(panel.refresh)  # terrain edits leave the order of battle as it is
    window.problems_changed.connect(lambda problems: panel.show_problems())
