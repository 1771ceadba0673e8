"""The board in play's symbols in the map's legend (View > Legend), each drawn by the play items'
own painters: a counter's print, the P and S markers, the marks, the markers and the play
session's marks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from engine.hexgrid import DIRECTIONS

from ..hex_layout import centre
from ..legend import HERE, Entry, terrain_sample
from .counter_items import CounterItem
from .faces import Face
from .markers import CHIT_AT, AssaultMarkerItem, ChitItem, MortarItem, ReachItem

FACE = Face("C LMG", "9-12", "PR10", "German Squad C LMG PR10", "")


def _counter(**unit: Any) -> Callable[[QPainter], None]:
    data = {"id": "", "side": "german", "kind": "infantry", "state": "up", "morale": "normal", **unit}
    return _drawn(lambda: CounterItem(data, FACE, HERE, None, centre(HERE), None))


def _drawn(make: Callable[[], QGraphicsItem], shift: Any = None) -> Callable[[QPainter], None]:
    def draw(painter: QPainter) -> None:
        terrain_sample("ground")(painter)
        if shift is not None:
            painter.translate(-shift)
        make().paint(painter, QStyleOptionGraphicsItem())

    return draw


def _chit(kind: str, text: str) -> Callable[[QPainter], None]:
    return _drawn(lambda: ChitItem(kind, HERE, text, "", None), CHIT_AT[kind])


def _reach() -> ReachItem:
    item = ReachItem(None)
    item.reach = {HERE: 2.5}
    return item


def _objective() -> ReachItem:
    item = ReachItem(None)
    item.objectives = {HERE: "german"}
    return item


def play_entries() -> list[Entry]:
    up, down = "black print: UP", "white print on the darker back: DOWN (3.0)"
    return [
        Entry(
            "play-counter",
            "Counter in play",
            f"the unit, AP factor-range (an AFV: AT factor, frontal/flank armour), PR; {up}, {down}",
            _counter(),
        ),
        Entry("pinned", "P marker", "PINNED (3.21): it may not fire or assault, moves less", _counter(morale="pinned")),
        Entry(
            "suppressed",
            "S marker",
            "SUPPRESSED (3.21): it may not move, fire or assault",
            _counter(morale="suppressed"),
        ),
        Entry(
            "moved-fired",
            "Moved, fired",
            "M: moved, F: fired this Player Turn (4.0, 10.11)",
            _counter(moved=True, fired=True),
        ),
        Entry(
            "hidden-unit",
            "Hidden unit",
            "H, dashed: one's own unit the enemy does not see (24.21)",
            _counter(hidden=True),
        ),
        Entry("wreck", "Wreck", "an AFV destroyed here (12.4)", _chit("wreck", "WRECK")),
        Entry(
            "revealed-mines",
            "Mines revealed",
            "AP/AT factors of a minefield revealed (19.22)",
            _chit("revealed_mines", "0/2"),
        ),
        Entry(
            "assault-marker",
            "Assault marker",
            "its stack assaults the hex it points at (17.0)",
            _drawn(lambda: AssaultMarkerItem("russian", HERE, HERE + DIRECTIONS[0], None)),
        ),
        Entry(
            "mortar-target",
            "Mortar target",
            "the hex a mortar fires at this Player Turn (14.0 a)",
            _drawn(lambda: MortarItem("mortar_target", HERE, "", "", None)),
        ),
        Entry(
            "mortar-impact",
            "Mortar round",
            "where a round landed, its number (14.3)",
            _drawn(lambda: MortarItem("impact", HERE, "1", "", None)),
        ),
        Entry("play-reach", "Reach in play", "a hex the selection can reach, its MP cost (8.4)", _drawn(_reach)),
        Entry("objective", "Objective", "outlined in the colour of the side that holds it (R210)", _drawn(_objective)),
    ]
