"""Viewshed (V): click a hex to shade every hex a unit there sees (10.3), firer UP or DOWN; and the
zone-to-zone heatmap: each hex of one zone of the scenario shaded by how many hexes of another
zone see it (the deployment-exposure question, hex by hex).

The fans come from engine.geometry.viewshed.Viewsheds: for a scenario, the validation context's
own (already built for the checks, kept current by terrain edits); for a map alone, one made here
that follows the board's edits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QPushButton, QWidget

from engine.hexgrid import Hex

from ..busy import busy
from ..mapview import HexSetItem
from ..overlays import (
    HexTextItem,
    OverlayTool,
    add_overlay_action,
    add_overlay_dock,
    clear_action,
    firer_choice,
    firer_state,
    ramp,
    show_dock,
    watch_board,
)
from ..window import MainWindow

if TYPE_CHECKING:
    from engine.geometry.viewshed import Viewsheds  # numpy: imported at the overlay's first use

ORDER = 62

SEEN = QColor(70, 160, 225, 95)
UNSEEN_IN_ZONE = QColor(90, 90, 110, 110)  # a hex of the watched zone that no watcher sees


class ViewshedTool(OverlayTool):
    name = "viewshed"
    label = "Viewshed"
    shortcut = "V"
    tip = "Viewshed: click a hex to shade what a unit there sees"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._own: Viewsheds | None = None
        self.source: Hex | None = None
        self.zone_pair: tuple[str, str] | None = None  # the heatmap shown: watching zone, watched zone
        self.visible: frozenset[Hex] = frozenset()
        self.counts: dict[Hex, int] = {}
        layer = window.scene.layers["overlays"]
        self.shade = HexSetItem(layer, SEEN)
        self.origin = HexSetItem(layer, QColor(200, 30, 30, 110), QColor(150, 20, 20))
        self.watchers = HexSetItem(layer, QColor(0, 0, 0, 0), QColor(30, 90, 170))
        self.numbers = HexTextItem(layer)
        self.firer = firer_choice()
        self.firer.currentIndexChanged.connect(self._refresh)
        self.watching, self.watched = QComboBox(), QComboBox()
        for box in (self.watching, self.watched):
            box.setMinimumContentsLength(26)  # zone names are long: russian-group-4-entry-turn-10
        self.heatmap = QPushButton("Show heatmap")
        self.heatmap.setToolTip("Shade each hex of the second zone by how many hexes of the first see it")
        self.heatmap.clicked.connect(lambda: self.show_zones(self.watching.currentText(), self.watched.currentText()))
        self.result = QLabel("Click a hex with the Viewshed tool (V).")
        self.result.setWordWrap(True)
        panel = QWidget()
        grid = QGridLayout(panel)
        grid.addWidget(self.firer, 0, 0)
        grid.addWidget(self.result, 1, 0, 3, 1)
        grid.addWidget(QLabel("Zone seeing"), 0, 1)
        grid.addWidget(self.watching, 0, 2)
        grid.addWidget(QLabel("Zone seen"), 1, 1)
        grid.addWidget(self.watched, 1, 2)
        grid.addWidget(self.heatmap, 2, 2)
        grid.setColumnStretch(0, 1)
        self.result.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.result.setMinimumWidth(300)
        self.dock = add_overlay_dock(window, "Viewshed", panel)
        # after every watcher of the board (the validation context's viewsheds) has seen the edit
        self._after_edit = QTimer(window, singleShot=True, interval=0)
        self._after_edit.timeout.connect(self._refresh)
        watch_board(window, lambda hexes: self._after_edit.start(), self._document_replaced)
        window.document_changed.connect(self._list_zones)
        clear_action(window).triggered.connect(self.clear)
        self.zones_action = QAction("Zone visibility &heatmap...", window)
        self.zones_action.triggered.connect(self._ask_zones)
        self._list_zones()

    # -- the engine ---------------------------------------------------------------------------
    def viewsheds(self) -> Viewsheds:
        session = self.window.document.session
        shared = session.context.viewsheds if session is not None else None
        if shared is not None:
            return shared
        if self._own is None:
            from engine.geometry.viewshed import Viewsheds

            self._own = Viewsheds(self.board)
            self.board.watchers.append(self._own.changed)
        return self._own

    def zone_names(self) -> list[str]:
        session = self.window.document.session
        return list(session.context.scenario.zones) if session is not None else []

    def _list_zones(self) -> None:
        """The scenario's zones in both drop-downs (again after an edit adds or renames one): the
        zones chosen stay chosen; at first the first two zones."""
        names = self.zone_names()
        for control in (self.heatmap, self.zones_action):
            control.setEnabled(bool(names))
        if names == [self.watching.itemText(i) for i in range(self.watching.count())]:
            return
        chosen = (self.watching.currentText(), self.watched.currentText())
        for box in (self.watching, self.watched):
            box.clear()
            box.addItems(names)
        self.watched.setCurrentIndex(min(1, len(names) - 1))
        self._choose(*chosen)

    def _choose(self, watching: str, watched: str) -> None:
        """The drop-downs name these zones (those drawn), where the scenario has them."""
        for box, name in ((self.watching, watching), (self.watched, watched)):
            if box.findText(name) >= 0:
                box.setCurrentText(name)

    def _document_replaced(self) -> None:
        self._own = None  # the map's own viewsheds were of the board shown before
        self.clear()
        self._list_zones()

    # -- mouse ----------------------------------------------------------------------------------
    def activate(self) -> None:
        show_dock(self.dock)

    def press(self, h: Hex, event: Any) -> None:
        self.show_from(h)

    # -- drawing --------------------------------------------------------------------------------
    def show_from(self, source: Hex) -> frozenset[Hex]:
        """Shade the hexes a unit in `source` sees."""
        self._clear_items()
        self.source = source
        self.visible = self.viewsheds().visible_from(source, firer_state(self.firer))
        self.shade.set_hexes(self.visible)
        self.origin.set_hexes([source])
        label = self.board.label(source)
        firer = firer_state(self.firer).upper()
        text = f"{label} ({firer}) sees {len(self.visible)} of {len(self.board.hexes) - 1} hexes"
        self.result.setText(text)
        self.window.statusBar().showMessage(text)
        return self.visible

    def show_zones(self, watching: str, watched: str) -> dict[Hex, int]:
        """Shade each hex of `watched` by how many hexes of `watching` see it (both zones of the scenario)."""
        self._clear_items()
        session = self.window.document.session
        assert session is not None, "zones are a scenario's"
        zones = {name: session.context.zone(name) for name in (watching, watched)}
        missing = [name for name, hexes in zones.items() if not hexes]
        if missing:
            self.result.setText(f"Zone {missing[0]!r} cannot be resolved: see the Problems panel [zone-empty].")
            return {}
        seeing, seen = zones[watching], zones[watched]
        assert seeing is not None and seen is not None
        self.zone_pair = (watching, watched)
        self._choose(watching, watched)  # the drop-downs say which zones are drawn (a snapshot's --overlay)
        with busy():  # a fan from every hex of the watching zone not worked yet: 1 s for a big zone
            visibility = self.viewsheds().zones(seeing, seen, firer_state(self.firer))
        self.counts = dict(visibility.seen_by)
        most = max(self.counts.values(), default=0) or 1
        self.shade.set_hexes({h: ramp(n / most) if n else UNSEEN_IN_ZONE for h, n in self.counts.items()})
        self.numbers.set_texts({h: str(n) for h, n in self.counts.items()})
        self.watchers.set_hexes(seeing)
        self.result.setText(
            f"{watching} ({len(seeing)} hexes) sees {len(visibility.seen)} of the {len(seen)} hexes of {watched} "
            f"({visibility.share_seen:.0%}); {visibility.visible_pairs} of {visibility.pairs} pairs in LOS. "
            f"Darker: seen from more hexes (at most {most}); grey: from none."
        )
        self.window.statusBar().showMessage(self.result.text())
        return self.counts

    def clear(self) -> None:
        self._clear_items()
        self.result.setText("Click a hex with the Viewshed tool (V).")

    def _clear_items(self) -> None:
        self.source, self.zone_pair = None, None
        self.visible, self.counts = frozenset(), {}
        for item in (self.shade, self.origin, self.watchers):
            item.set_hexes([])
        self.numbers.set_texts({})

    def _refresh(self) -> None:
        """Shade again what is shown: the terrain or the firer's state changed."""
        if self.source is not None:
            self.show_from(self.source)
        elif self.zone_pair is not None:
            self.show_zones(*self.zone_pair)

    def _ask_zones(self) -> None:
        show_dock(self.dock)
        self.watching.setFocus()


def install(window: MainWindow) -> None:
    tool = ViewshedTool(window)
    window.add_tool(tool)
    action = QAction("&Viewshed from a hex", window)
    action.triggered.connect(lambda: window.use_tool(tool.name))
    add_overlay_action(window, action)
    add_overlay_action(window, tool.zones_action)
