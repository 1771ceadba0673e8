"""A test set-up (the scenario's `setup:`, docs/formats.md "Scenario set-up") built on the map.

Drag a unit or a squad member from the Order of battle onto a hex to place it (UP or DOWN as
"Place as" says; a unit that must face a hexside, 8.7, faces north until you turn it), and an
IP, a mined hex or a hidden hex from the Set-up panel's markers. With the Set-up tool (U) drag
a counter or marker to another hex; click one to select it; right-click it to turn it UP or
DOWN, change its facing or remove it. Each placement is one undo step, and the set-up checks
report at once. The panel lists the side's set-up with its state and facing, and the units
not yet placed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGraphicsSceneContextMenuEvent,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.hexgrid import Hex, LabelError, neighbours, parse_label
from engine.model.counters import SIDES, Counters
from engine.model.setup import Placement, SideSetup, side_setups
from engine.model.setup_limits import setup_limits
from engine.validate.placements import (
    Placed,
    deployment_zones,
    describe_key,
    key_of,
    may_stand,
    place,
    union,
    zone_hexes,
)

from ..mapview import HexSetItem
from ..panel_widgets import DeletableTable
from ..scenario_data import DataPath, Edit, block, find, flow, like_siblings, quoted, sequence
from ..scenario_panels import ScenarioPanels, panels, show_dock
from ..setup_items import Piece, PieceItem
from ..setup_moves import Drops, MarkerList, SetupTool
from ..window import MainWindow
from . import file_menu

ORDER = 43
WHAT, HEX, STATE, FACING = range(4)
TARGET = QColor(255, 210, 31, 120)
MARKERS = {"improved_positions": "IP", "mines": "mined hex", "hidden_hexes": "hidden hex"}


class SetupPanel(QWidget):
    def __init__(self, window: MainWindow, shared: ScenarioPanels) -> None:
        super().__init__()
        self.setObjectName("setup")
        self.window, self.shared = window, shared
        self.items: list[PieceItem] = []
        self.rows: list[DataPath] = []
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.side = QComboBox(objectName="setup-side")
        self.side.addItems(SIDES)
        self.side.currentTextChanged.connect(lambda: self.refresh_table())
        self.state = QComboBox(objectName="setup-state")
        self.state.addItems(["up", "down"])
        self.state.setToolTip("The state a unit dropped on the map is placed in (3.12)")
        choose = QHBoxLayout()
        choose.addWidget(self.side)
        choose.addWidget(QLabel("Place as"))
        choose.addWidget(self.state)
        form.addRow("Side", choose)
        self.ip_points = QSpinBox(minimum=1, maximum=9, prefix="IP")
        self.ap_factors = QSpinBox(minimum=0, maximum=9, prefix="AP ", value=2)
        self.at_factors = QSpinBox(minimum=0, maximum=9, prefix="AT ")
        values = QHBoxLayout()
        for spin in (self.ip_points, self.ap_factors, self.at_factors):
            values.addWidget(spin)
        form.addRow("Markers", values)
        layout.addLayout(form)
        self.markers = MarkerList(self)
        layout.addWidget(self.markers)
        self.table = DeletableTable(0, 4, objectName="setup-table")
        self.table.setHorizontalHeaderLabels(["Placed", "Hex", "State", "Facing"])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(WHAT, QHeaderView.ResizeMode.Stretch)
        for column, width in ((HEX, 50), (STATE, 70), (FACING, 80)):
            self.table.setColumnWidth(column, width)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.currentCellChanged.connect(lambda *args: self.show_selected())
        self.table.deleted.connect(self.remove_selected)
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        remove = QPushButton("Remove", toolTip="Take the selected entry off the map (Del)")
        remove.clicked.connect(self.remove_selected)
        buttons.addWidget(remove)
        buttons.addStretch()
        self.partial = QCheckBox("Partial: still being built", objectName="setup-partial")
        self.partial.setToolTip(
            "A set-up being built (R230): what it does not place yet is info, not an error; "
            "untick it once every unit is placed"
        )
        self.partial.toggled.connect(self._set_partial)
        buttons.addWidget(self.partial)
        layout.addLayout(buttons)
        self.unplaced = QLabel(wordWrap=True, objectName="setup-unplaced")
        self.unplaced.setStyleSheet("color: #5a5446")
        layout.addWidget(self.unplaced)
        self.target = HexSetItem(window.scene.layers["overlays"], TARGET)
        self.refresh()

    # -- reading the set-up ---------------------------------------------------------------------
    def counters(self) -> Counters:
        session = self.window.document.session
        assert session is not None
        return session.context.counters

    def setups(self) -> list[SideSetup]:
        return side_setups(self.shared.scenario) if self.shared.active else []

    def placed(self, setup: SideSetup) -> dict[DataPath, Placed]:
        found = place(self.shared.scenario, self.counters(), setup.side, setup.units).placed
        return {p.placement.path: p for p in found}

    def pieces(self) -> list[Piece]:
        out: list[Piece] = []
        for setup in self.setups():
            placed = self.placed(setup)
            for p in setup.units:
                h = self.shared.hex(p.hex)
                if h is not None:
                    out.append(self._unit_piece(p, placed.get(p.path), h))
            for ip in setup.improved_positions:
                out += self._marker(ip.path, setup.side, "improved_position", ip.hex, ("IP", str(ip.points)))
            for mine in setup.mines:
                text = ("mines", f"{mine.ap_factors}/{mine.at_factors}")
                out += self._marker(mine.path, setup.side, "mines", mine.hex, text)
            for hidden in setup.hidden_hexes:
                out += self._marker(hidden.path, setup.side, "hidden", hidden.hex, ("", ""))
            if setup.infiltration is not None:
                out += self._marker(
                    setup.infiltration.path, setup.side, "infiltration", setup.infiltration.hex, ("INF", "")
                )
        return out

    def _unit_piece(self, p: Placement, placed: Placed | None, h: Hex) -> Piece:
        down = (placed.state if placed is not None else p.state) == "down"
        try:
            facing = parse_label(p.facing, self.window.document.board.offset) if p.facing else None
        except LabelError:
            facing = None
        if p.kind == "squad":
            count = f"x{len(placed.members)}" if placed is not None else ""
            text = (f"{p.type} {p.member.split()[0]}", p.member.split()[-1]) if p.member else (f"Sq {p.type}", count)
        elif p.kind == "commander":
            pr = p.pr or (placed.ref.pr if placed is not None else None)
            text = (p.type, f"PR{pr}" if pr else "")
        else:
            text = (p.type, f"#{p.number}")
        state = "DOWN" if down else "UP"
        tip = f"{p.side.capitalize()} {p.describe()} in {p.hex}, {state}" + (f", facing {p.facing}" if p.facing else "")
        return Piece(p.path, p.side, "unit", h, text, tip, down, facing)

    def _marker(self, path: DataPath, side: str, kind: str, label: str, text: tuple[str, str]) -> list[Piece]:
        h = self.shared.hex(label)
        if h is None:
            return []  # setup-hex-off-map reports it
        what = {"improved_position": f"IP{text[1]}", "mines": f"mines AP/AT {text[1]}", "hidden": "hidden hex"}
        tip = f"{side.capitalize()} {what.get(kind, 'Infiltration Hex')} in {label}"
        return [Piece(path, side, kind, h, text, tip)]

    # -- showing ----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """After every edit: the pieces drawn again, the table and what is still to place."""
        for item in self.items:
            self.window.scene.removeItem(item)
        self.items = []
        stacks: dict[Hex, int] = {}
        layer = self.window.scene.layers["units"]
        for piece in self.pieces():
            stacked = stacks.get(piece.hex, 0)
            if piece.kind == "unit":
                stacks[piece.hex] = stacked + 1
            item = PieceItem(piece, stacked, layer)
            item.menu = self.piece_menu
            self.items.append(item)
        self.refresh_table()
        self.show_problems()

    def _set_partial(self, partial: bool) -> None:
        side = self.side.currentText()
        section = find(self.shared.data, ("setup", side))
        if section is None or bool(section.get("partial", False)) == partial:
            return
        edit = Edit(f"{side.capitalize()} set-up {'partial' if partial else 'complete'}")
        if partial:
            edit.set(("setup", side), "partial", True, after="note")
        else:
            edit.remove(("setup", side), "partial")
        self.shared.push(edit)

    def _show_partial(self) -> None:
        section = find(self.shared.data, ("setup", self.side.currentText())) if self.shared.active else None
        self.partial.blockSignals(True)
        self.partial.setEnabled(section is not None)
        self.partial.setChecked(section is not None and bool(section.get("partial", False)))
        self.partial.blockSignals(False)

    def refresh_table(self) -> None:
        current = self.rows[self.table.currentRow()] if 0 <= self.table.currentRow() < len(self.rows) else None
        self.table.setRowCount(0)
        self.rows = []
        side = self.side.currentText()
        setup = next((s for s in self.setups() if s.side == side), None)
        self._show_unplaced(side, setup)
        self._show_partial()
        if setup is None:
            return
        placed = self.placed(setup)
        for p in setup.units:
            whole_squad = p.path in placed and p.kind == "squad" and p.member is None
            what = p.describe() + (f" ({len(placed[p.path].members)} men)" if whole_squad else "")
            row = self._row(p.path, what, p.hex)
            faces = p.path in placed and placed[p.path].faces_hexside(self.counters())
            self._unit_cells(row, p, placed.get(p.path), faces)
        for ip in setup.improved_positions:
            self._row(ip.path, f"IP{ip.points} (18.1)", ip.hex)
        for mine in setup.mines:
            self._row(mine.path, f"mines: AP {mine.ap_factors}, AT {mine.at_factors} (19.11)", mine.hex)
        for hidden in setup.hidden_hexes:
            self._row(hidden.path, "hidden hex (24.2)", hidden.hex)
        if setup.infiltration is not None:
            self._row(setup.infiltration.path, "Infiltration Hex (24.32)", setup.infiltration.hex)
        if current in self.rows:
            self.table.selectRow(self.rows.index(current))

    def _row(self, path: DataPath, what: str, label: str) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.rows.append(path)
        self.table.setItem(row, WHAT, QTableWidgetItem(what))
        self.table.setItem(row, HEX, QTableWidgetItem(label))
        return row

    def _unit_cells(self, row: int, p: Placement, placed: Placed | None, faces: bool) -> None:
        state = QComboBox()
        state.addItems(["up", "down"])
        state.setCurrentText(placed.state if placed is not None else p.state or "up")
        state.currentTextChanged.connect(lambda v, path=p.path: self.set_state(path, v))
        self.table.setCellWidget(row, STATE, state)
        if not faces and not p.facing:
            self.table.setItem(row, FACING, QTableWidgetItem("all round"))
            return
        h = self.shared.hex(p.hex)
        facing = QComboBox()
        facing.setToolTip("the adjacent hex across its frontal hexside (8.7)")
        choices = [c for c in (self._label(n) for n in sorted(neighbours(h))) if c] if h is not None else []
        if p.facing and p.facing not in choices:
            choices.append(p.facing)  # not adjacent: setup-facing reports it
        facing.addItems(["", *choices])
        facing.setCurrentText(p.facing or "")
        facing.currentTextChanged.connect(lambda v, path=p.path: self.set_facing(path, v))
        self.table.setCellWidget(row, FACING, facing)

    def _label(self, h: Hex) -> str:
        try:
            return self.shared.label(h)
        except LabelError:
            return ""

    def _show_unplaced(self, side: str, setup: SideSetup | None) -> None:
        if not self.shared.active:
            self.unplaced.setText("")
            return
        if setup is None:
            self.unplaced.setText(f"The {side} side has no set-up yet: drag its units from the Order of battle.")
            return
        left = place(self.shared.scenario, self.counters(), side, setup.units).unplaced
        names = [
            u.ref.describe() + (f" ({', '.join(m.describe() for m in u.members)})" if u.partial else "") for u in left
        ]
        self.unplaced.setText("Not placed: " + "; ".join(names) if names else "Every unit is placed.")

    def show_problems(self) -> None:
        for item in self.items:
            item.problem = bool(self.shared.problems_under(item.piece.path))
            item.update()

    def show_selected(self) -> None:
        row = self.table.currentRow()
        path = self.rows[row] if 0 <= row < len(self.rows) else None
        for item in self.items:
            item.selected = item.piece.path == path
            item.update()

    # -- editing ----------------------------------------------------------------------------------
    def add(self, side: str, section: str, entry: dict[str, Any], h: Hex) -> bool:
        """Put a unit or marker of `side` in hex `h`: one undo step. A squad the hex cannot hold
        (8.62) may be spread over the hexes beside it; a side's first placement starts its set-up
        as a partial one (R230), ticked complete in the panel once built."""
        label = quoted(self.shared.label(h))
        data = self.shared.data
        present = find(data, ("setup", side, section))
        placements = [(entry, h)]
        if section == "hidden_hexes":
            if present is not None and str(label) in [str(x) for x in present]:
                self.window.statusBar().showMessage(f"{label} is already a hidden hex", 4000)
                return False
            values: list[Any] = [label]
        else:
            spread = self._spread(side, entry, h) if section == "units" else None
            if spread is not None:
                answer = self._ask_spread(entry, h, spread)
                if answer is None:
                    return False
                placements = spread if answer == "Spread" else placements
            values = []
            for one, at in placements:
                keys = {k: quoted(v) if k == "member" else v for k, v in one.items()}
                where = quoted(self.shared.label(at))
                keys = {**keys, "hex": where} if section == "units" else {"hex": where, **keys}
                if section == "units":
                    keys.update(self._unit_extras(side, one, at))
                values.append(flow(**keys) if present is None else like_siblings(keys, present))
        what = describe_entry(entry) if section == "units" else MARKERS[section]
        spread_to = sorted({str(quoted(self.shared.label(at))) for _, at in placements} - {str(label)})
        edit = Edit(f"Place {side} {what} in {label}" + (f" and {', '.join(spread_to)}" if spread_to else ""))
        if present is not None:
            for value in values:
                edit.insert(("setup", side, section), None, value)
        else:
            new = sequence(values, flow_style=section == "hidden_hexes")
            if "setup" not in data:
                edit.set((), "setup", block([(side, block([("partial", True), (section, new)]))]))
            elif side not in data["setup"]:
                edit.set(("setup",), side, block([("partial", True), (section, new)]))
            else:
                edit.set(("setup", side), section, new)
        if not self.shared.push(edit):
            return False
        self.side.setCurrentText(side)
        return True

    def _spread(self, side: str, entry: dict[str, Any], h: Hex) -> list[tuple[dict[str, Any], Hex]] | None:
        """Where a whole squad dropped on `h` goes when the hex cannot hold its men (8.62: six men of
        a side in a hex, a CW counting its crew, 8.63): as many as there is room for stay in `h`
        (the whole-squad entry, which takes the men no member entry places), the others man by man
        in the hexes beside it with room, those of its deployment area first. None: the hex holds it,
        or the hexes around cannot."""
        kind, type_, number, pr = key_of(entry)
        if kind != "squad" or entry.get("member") is not None:
            return None
        scenario, counters, board = self.shared.scenario, self.counters(), self.window.document.board
        given = next((s for s in self.setups() if s.side == side), None)
        probe = Placement(side, kind, type_, number, pr, None, self.shared.label(h), None, None, ("dropped",))
        found = place(scenario, counters, side, [*(given.units if given else ()), probe]).placed
        dropped = next((p for p in found if p.placement.path == ("dropped",)), None)
        limits = setup_limits()
        per = limits.men_per_infantry_unit
        men: Counter[str] = Counter()
        for p in found:
            if p is not dropped:
                men[p.placement.hex] += p.men(counters, per) or 0
        if dropped is None or len(dropped.members) * per + men[self.shared.label(h)] <= limits.max_men:
            return None
        stay = max(0, limits.max_men - men[self.shared.label(h)]) // per
        rest = list(dropped.members[stay:])
        session = self.window.document.session
        area = (
            union(zone_hexes(session.context, z, path) for z, path in deployment_zones(scenario, dropped.ref, counters))
            if session is not None
            else None
        )
        state = dropped.state
        beside = [n for n in neighbours(h) if n in board.hexes and may_stand(board, n, afv=False, state=state)]
        beside.sort(key=lambda n: (area is not None and n not in area, self.shared.label(n)))
        out: list[tuple[dict[str, Any], Hex]] = [(entry, h)] if stay else []
        for n in beside:
            while rest and men[self.shared.label(n)] + per <= limits.max_men:
                member = rest.pop(0)
                out.append(({**entry, "member": member.describe()}, n))
                men[self.shared.label(n)] += per
        return None if rest else out

    def _ask_spread(self, entry: dict[str, Any], h: Hex, spread: list[tuple[dict[str, Any], Hex]]) -> str | None:
        """Spread, Place all here, or None (Cancel)."""
        where: dict[str, list[str]] = {}
        for one, at in spread:
            where.setdefault(self.shared.label(at), []).append(str(one.get("member") or "the rest"))
        lines = "\n".join(f"  {label}: {', '.join(men)}" for label, men in where.items())
        return file_menu.choose(
            self.window,
            "Spread the squad?",
            f"{describe_entry(entry)} does not fit in {self.shared.label(h)}: a hex holds at most "
            f"{setup_limits().max_men} men of a side (8.62, a CW counts its crew, 8.63). Spread it:\n\n{lines}",
            ["Spread", "Place all here"],
        )

    def _unit_extras(self, side: str, entry: dict[str, Any], h: Hex) -> dict[str, Any]:
        """`state` when not the default, and a facing (north) for a unit that must face a hexside (8.7)."""
        kind, type_, number, pr = key_of(entry)
        probe = Placement(side, kind, type_, number, pr, entry.get("member"), "", None, None, ())
        found = place(self.shared.scenario, self.counters(), side, [probe]).placed
        default = found[0].state if found else "up"
        extras: dict[str, Any] = {}
        if self.state.currentText() != default:
            extras["state"] = self.state.currentText()
        north = self.shared.data.get("north") or {}
        at, toward = self.shared.hex(north.get("hex")), self.shared.hex(north.get("toward"))
        if found and found[0].faces_hexside(self.counters()) and at is not None and toward is not None:
            label = self._label(h + (toward - at))
            if label:
                extras["facing"] = quoted(label)
        return extras

    def move(self, path: DataPath, h: Hex) -> bool:
        """Move a placed unit or marker to `h` (a unit keeps facing the same way)."""
        label = quoted(self.shared.label(h))
        value = find(self.shared.data, path)
        edit = Edit(f"Move {'/'.join(str(p) for p in path[1:])} to {label}")
        if isinstance(value, str):  # a hidden hex
            if str(value) == str(label):
                return False
            edit.set(path[:-1], path[-1], label)
        else:
            old = self.shared.hex(value.get("hex"))
            if old == h:
                return False
            edit.set(path, "hex", label)
            if value.get("facing") and old is not None:
                try:
                    facing = self.shared.label(
                        parse_label(str(value["facing"]), self.window.document.board.offset) + (h - old)
                    )
                    edit.set(path, "facing", quoted(facing))
                except LabelError:
                    edit.remove(path, "facing")
        return self.shared.push(edit)

    def set_state(self, path: DataPath, state: str) -> None:
        entry = find(self.shared.data, path)
        if entry is None or entry.get("state", "up") == state:
            return
        edit = Edit(f"{'/'.join(str(p) for p in path[1:])}: {state.upper()}").set(path, "state", state, after="hex")
        QTimer.singleShot(0, lambda: self.shared.push(edit))

    def set_facing(self, path: DataPath, label: str) -> None:
        entry = find(self.shared.data, path)
        if entry is None or str(entry.get("facing", "")) == label:
            return
        edit = Edit(f"{'/'.join(str(p) for p in path[1:])}: facing {label or 'none'}")
        if label:
            edit.set(path, "facing", quoted(label), after="state" if "state" in entry else "hex")
        else:
            edit.remove(path, "facing")
        QTimer.singleShot(0, lambda: self.shared.push(edit))

    def remove(self, path: DataPath) -> bool:
        if path[-1] == "infiltration":
            edit = Edit(f"Remove the {path[1]} Infiltration Hex").remove(path[:-1], "infiltration")
        else:
            edit = Edit(f"Remove {'/'.join(str(p) for p in path[1:])}").remove(path[:-1], path[-1])
        return self.shared.push(edit)

    def remove_selected(self) -> bool:
        row = self.table.currentRow()
        return 0 <= row < len(self.rows) and self.remove(self.rows[row])

    def piece_menu(self, item: PieceItem, event: QGraphicsSceneContextMenuEvent) -> None:
        path = item.piece.path
        menu = QMenu(self)
        if item.piece.kind == "unit":
            for state in ("up", "down"):
                action = menu.addAction(state.upper(), lambda checked=False, s=state: self.set_state(path, s))
                action.setCheckable(True)
                action.setChecked(item.piece.down == (state == "down"))
            facing = menu.addMenu("Facing")
            for n in sorted(neighbours(item.piece.hex)):
                label = self._label(n)
                if label:
                    action = facing.addAction(label, lambda checked=False, v=label: self.set_facing(path, v))
                    action.setCheckable(True)
                    action.setChecked(item.piece.facing == n)
            facing.addAction("none", lambda: self.set_facing(path, ""))
        menu.addAction("Remove", lambda: self.remove(path))
        self.select(path)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.screenPos())

    # -- problems and selection ---------------------------------------------------------------------
    def select(self, path: DataPath) -> bool:
        if len(path) < 3 or path[0] != "setup" or path[1] not in SIDES:
            return False
        show_dock(self)
        self.side.setCurrentText(str(path[1]))
        rows = [i for i, p in enumerate(self.rows) if path[: len(p)] == p]
        if rows:
            self.table.selectRow(rows[0])
            item = next((i for i in self.items if i.piece.path == self.rows[rows[0]]), None)
            if item is not None:
                self.window.view.centre_on(item.piece.hex)
        return True


def describe_entry(entry: dict[str, Any]) -> str:
    """A unit entry of the OOB or the set-up as the rulebook names it: `Squad C LMG PR10`, `PL PR10`, `MMG #1`."""
    return describe_key(key_of(entry)) + (f" {entry['member']}" if "member" in entry else "")


def install(window: MainWindow) -> None:
    shared = panels(window)
    panel = SetupPanel(window, shared)
    shared.add_dock("Set-up", panel)
    shared.on_pointer(panel.select)
    shared.add_tool(SetupTool(window, panel))
    Drops(window, panel)
    window.document_changed.connect(panel.refresh)
    window.problems_changed.connect(lambda problems: panel.show_problems())
