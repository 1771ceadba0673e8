"""The ammo roster of the advanced rules (22.3): "Each time a point is expended, one of the boxes on
the roster next to the appropriate firing unit is marked off." One row a unit of the side on screen
(its view's `ammo`: the other side's roster is not shown, R346), its boxes as the scenario gave
them, the spent ones marked off; a pool shared by a squad's two LMGs (R343) is one roster line."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

SPENT, LEFT = "\u2612", "\u2610"  # a box marked off, a box still open
UNIT, BOXES, POINTS = range(3)
BOXES_A_LINE = 10


def boxes(left: int, given: int) -> str:
    """The roster's boxes: `given - left` marked off, then the open ones, ten to a line (a
    scenario's MMG has up to 28, more than the dock's width holds on one line).

    >>> boxes(2, 5)
    '☒☒☒☐☐'
    >>> print(boxes(11, 12))
    ☒☐☐☐☐☐☐☐☐☐
    ☐☐
    """
    row = SPENT * max(0, given - left) + LEFT * max(0, left)
    return "\n".join(row[i : i + BOXES_A_LINE] for i in range(0, len(row), BOXES_A_LINE))


class AmmoRoster(QWidget):
    """The Ammo tab of the play dock, shown with the advanced rules only."""

    def __init__(self) -> None:
        super().__init__()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel(objectName="ammo-heading")
        self.heading.setWordWrap(True)
        self.tree = QTreeWidget(objectName="ammo-roster")
        self.tree.setHeaderLabels(["Unit", "Boxes (22.3)", "Left"])
        self.tree.setRootIsDecorated(False)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)  # every box shown, or none is read right
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(UNIT, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(BOXES, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(POINTS, QHeaderView.ResizeMode.ResizeToContents)
        self.box_font = QFont(self.font())
        self.box_font.setPointSizeF(self.font().pointSizeF() * 1.4)  # a box to read at a glance
        column.addWidget(self.heading)
        column.addWidget(self.tree, 1)

    def show_roster(self, left: Mapping[str, int], given: Mapping[str, int], pools: Mapping[str, str]) -> None:
        """`left`: each unit's points left, from the side's view; `given`: as the scenario gave them
        (24.1: the number in parentheses beside the unit); `pools`: a unit's pool, where two units
        share one (R343)."""
        self.tree.clear()
        out = 0
        lines: dict[str, list[str]] = {}  # a pool's key -> the units that draw on it, in roster order
        for uid in sorted(left):
            lines.setdefault(pools.get(uid, uid), []).append(uid)
        for uids in lines.values():
            points = left[uids[0]]
            names = " +\n".join(uid.split("/", 1)[-1] for uid in uids)  # a line a unit: the boxes keep the width
            item = QTreeWidgetItem([names, boxes(points, given.get(uids[0], points)), str(points)])
            item.setFont(BOXES, self.box_font)
            item.setToolTip(BOXES, f"{points} of {given.get(uids[0], points)} ammo points left (22.1)")
            if not points:
                out += 1
                for column in (UNIT, BOXES, POINTS):
                    item.setForeground(column, QColor("#a00000"))
                item.setToolTip(UNIT, "Out of ammo: it may fire no more in the game (22.1)")
            self.tree.addTopLevelItem(item)
        units = len(lines)
        self.heading.setText(
            f"{units} roster line{'s' if units != 1 else ''} of the side on screen"
            + (f", {out} out of ammo" if out else "")
            + ". Points are spent once a fire's PC is passed (22.1, 22.2); units without a number "
            "have unlimited ammo."
            if units
            else "No unit of the side on screen has an ammo number: its ammo is unlimited (22.1)."
        )

    def clear(self) -> None:
        """Nothing of either side's roster under the hand-over screen."""
        self.tree.clear()
        self.heading.clear()

    def rows(self) -> list[tuple[str, str, str]]:
        """What the roster shows, row by row (unit, boxes, points left)."""
        items = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        return [(i.text(UNIT), i.text(BOXES), i.text(POINTS)) for i in items if i is not None]
