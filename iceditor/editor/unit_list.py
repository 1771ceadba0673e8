"""The units an instruction names when it names units rather than a group (`units: [{squad: C},
{commander: PL}]`, docs/formats.md): a deployment's, an entry's (24.1) or a movement restriction's.
A panel shows the list under its table for the row chosen; units are added from the side's order
of battle and removed, each change one undo step. The last unit stays: the instruction names one
at least (the schema's `minItems: 1`), and is removed as a whole in its panel instead. An
instruction that names a group can name its units instead (all of them, to be removed from), and
one that names units can name a group again. The list and its buttons sit side by side: the
panels share a short dock at 1366x768.
"""

from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QListWidget,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine.model.counters import SIDES
from engine.model.scenario import UNIT_KINDS
from engine.validate.placements import describe_key, key_of

from .panel_widgets import Message
from .scenario_data import DataPath, Edit, find, flow, like_siblings, node, sequence
from .scenario_panels import ScenarioPanels


def placement_key(unit: Any) -> dict[str, Any]:
    """The keys an instruction or a set-up entry names a fielded unit by (docs/formats.md,
    Scenario set-up): `{squad: C}`, `{commander: PL, pr: 10}`, `{crew_weapon: MMG, number: 1}`."""
    kind = next(k for k in UNIT_KINDS if k in unit)
    keys = {"squad": (), "commander": ("pr",), "crew_weapon": ("number",), "afv": ("number",)}[kind]
    return {kind: unit[kind], **{k: unit[k] for k in keys if k in unit}}


def describe(unit: Any) -> str:
    return describe_key(key_of(unit))


class UnitList(QWidget):
    """The `units:` of the instruction at `path` (see the module's docstring)."""

    def __init__(self, shared: ScenarioPanels, name: str) -> None:
        super().__init__(objectName=name)
        self.shared = shared
        self.path: DataPath | None = None  # the instruction's
        self._shown: DataPath | None = None  # the instruction the dock last scrolled to
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.units = QListWidget(objectName=f"{name}-list")
        self.units.setMaximumHeight(84)
        self.units.setToolTip("The units the instruction names, not a group")
        self.choice = QComboBox(objectName=f"{name}-add", toolTip="A unit of the side's order of battle")
        self.choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # filled once shown
        self.choice.activated.connect(lambda i: self.add(self.choice.itemData(i)))
        remove = QPushButton("Remove unit", objectName=f"{name}-remove")
        remove.clicked.connect(self.remove)
        self.group = QComboBox(objectName=f"{name}-group", toolTip="The instruction names this group instead")
        self.group.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.group.activated.connect(lambda i: self.name_group(self.group.itemData(i)))
        buttons = QVBoxLayout()
        for widget in (self.choice, remove, self.group):
            buttons.addWidget(widget)
        buttons.addStretch()
        self.listing = QWidget(objectName=f"{name}-listing")
        side_by_side = QHBoxLayout(self.listing)
        side_by_side.setContentsMargins(0, 0, 0, 0)
        side_by_side.addWidget(self.units, 1)
        side_by_side.addLayout(buttons)
        layout.addWidget(self.listing)
        self.split = QPushButton("Name units instead of the group", objectName=f"{name}-split")
        self.split.setToolTip("The instruction lists the group's units, to remove those it does not apply to")
        self.split.clicked.connect(self.name_units)
        layout.addWidget(self.split)
        self.message = Message(f"{name}-message")
        layout.addWidget(self.message)
        shared.data_changed.connect(self.refresh)
        self.show_path(None)

    def show_path(self, path: DataPath | None) -> None:
        """Edit the units of the instruction at `path` (None: no row chosen)."""
        self.path = path
        self.message.clear()
        self.refresh()

    def refresh(self) -> None:
        was_listed = self.listing.isVisibleTo(self.window())
        self._fill()
        # another row chosen, or the units just listed: not after each edit of the same list
        if self.listing.isVisibleTo(self.window()) and (self.path != self._shown or not was_listed):
            QTimer.singleShot(0, self._in_view)
        self._shown = self.path

    def _in_view(self) -> None:
        """The panel's dock scrolled, if it must, so that the list shows whole (a short dock)."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None and shiboken6.isValid(self):
            area.ensureWidgetVisible(self, 0, 0)

    @property
    def side(self) -> str:
        """Whose units: the side the instruction is under, or a restriction's `side`."""
        if self.path is not None and self.path[0] == "sides":
            return str(self.path[1])
        return str((self.owner() or {}).get("side", SIDES[0]))

    def listed(self) -> Any:
        owner = self.owner()
        return owner.get("units") if owner is not None else None

    def owner(self) -> Any:
        if self.path is None or not self.shared.active:
            return None
        found = find(self.shared.data, self.path)
        return found if isinstance(found, dict) else None

    def _fill(self) -> None:
        owner, units = self.owner(), self.listed()
        self.setVisible(owner is not None and ("units" in owner or "group" in owner))
        self.listing.setVisible(units is not None)
        self.split.setVisible(units is None)
        if units is None:
            return
        keys = [placement_key(u) for u in units]
        self.units.clear()
        self.units.addItems([describe(k) for k in keys])
        self.choice.clear()
        self.choice.addItem("add a unit...", None)
        self.group.clear()
        self.group.addItem("name a group instead...", None)
        for group in find(self.shared.data, ("sides", self.side, "groups")) or []:
            self.group.addItem(f"the group {group.get('name')}", str(group.get("name")))
            for unit in group.get("units") or []:
                key = placement_key(unit)
                if key not in keys:
                    self.choice.addItem(f"{describe(key)} ({group.get('name')})", key)

    def add(self, key: dict[str, Any] | None) -> bool:
        units = self.listed()
        if key is None or units is None or self.path is None:
            return False
        path = (*self.path, "units")
        edit = Edit(f"{'/'.join(map(str, self.path))}: add {describe(key)}")
        return self.shared.push_told(edit.insert(path, None, like_siblings(key, units)), self.message)

    def remove(self) -> bool:
        units, i = self.listed(), self.units.currentRow()
        if units is None or self.path is None or not 0 <= i < len(units):
            self.message.setText("Choose the unit to remove from the list")
            return False
        if len(units) == 1:
            self.message.setText("The instruction names one unit at least (24.1): remove its row instead")
            return False
        edit = Edit(f"{'/'.join(map(str, self.path))}: remove {describe(node(units, (i,)))}")
        return self.shared.push_told(edit.remove((*self.path, "units"), i), self.message)

    def name_units(self) -> bool:
        """`group: main` becomes `units: [...]`, every unit of the group, where the group was named."""
        owner = self.owner()
        if owner is None or self.path is None or "group" not in owner:
            return False
        groups = find(self.shared.data, ("sides", self.side, "groups")) or []
        group = next((g for g in groups if str(g.get("name")) == str(owner["group"])), None)
        if group is None or not group.get("units"):
            self.message.setText(f"The {self.side} side has no group {owner['group']!r} to take the units of")
            return False
        units = sequence([flow(**placement_key(u)) for u in group["units"]], flow_style=True)
        return self.shared.push_told(
            self._swap(owner, "group", "units", units, f"the units of {owner['group']}"), self.message
        )

    def name_group(self, name: str | None) -> bool:
        """`units: [...]` becomes `group: NAME` where the units were (the group's units, all of them)."""
        owner = self.owner()
        if name is None or owner is None or self.path is None or "units" not in owner:
            return False
        return self.shared.push_told(self._swap(owner, "units", "group", name, f"the group {name}"), self.message)

    def _swap(self, owner: Any, old: str, new: str, value: Any, label: str) -> Edit:
        """The edit that writes `new: value` in place of `old:`, at its place among the keys."""
        assert self.path is not None
        keys = list(owner)
        after = keys[keys.index(old) + 1] if keys[-1] != old else None
        edit = Edit(f"{'/'.join(map(str, self.path))}: {label}")
        return edit.remove(self.path, old).set(self.path, new, value, before=after)
