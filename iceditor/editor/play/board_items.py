"""The board in play: a layer over the editor's MapScene drawn from one side's view and nothing
else (house style: "The board in play is drawn from the acting side's view, never from the game
state"). `show(view.data, view.log)` draws what the view holds: its units as counters
(counter_items.py), Wrecks, IPs, its own mines and those revealed, its own hidden hexes, Assault
markers, this Player Turn's mortar targets and impacts (markers.py); `state.view(None)` with
`state.log` draws the whole board, for a referee or a replay. The layer never holds a GameState:
what the view leaves out it cannot draw.

A click on a lone counter picks its unit (`unit_picked`); a click on a stack opens it, each unit
at full size in a row above the hex with its state, and a click on one of them picks it; a click
anywhere else on the map is `hex_clicked`. The play session shows the selection, the reach and its
MP costs, the path, the target and the objectives with the set_ methods.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from engine.game.state import PLAYER_TURN
from engine.hexgrid import Hex, parse_label

from ..counter_drawing import COUNTER, INK, write
from ..hex_layout import HEX_SIZE, centre
from ..mapview import LAYERS, MapScene
from ..setup_items import FAN, FIRST
from .counter_items import CounterItem, marks
from .faces import PLAY_ZOOM as PLAY_ZOOM  # the default zoom of the board in play
from .faces import Face
from .markers import AssaultMarkerItem, ChitItem, HiddenHexItem, MortarItem, ReachItem

OPENED = COUNTER * 1.5  # a counter's side in an opened stack
GAP = 10.0  # between the counters of an opened stack
FANNED = 3  # a stack of more counters fans out closer, so that it stays in its hex
UNKNOWN = Face("?", "", "", "a unit", "")  # a unit of the view the scenario does not field (never, but drawn)


class PlayBoardLayer(QGraphicsObject):
    """The board in play over `scene`, the counters printed as `faces` gives them (faces.py)."""

    unit_picked = Signal(str)  # a unit id
    hex_clicked = Signal(object)  # a Hex
    stack_opened = Signal(object)  # the Hex of the stack opened, or None when it closes

    def __init__(self, scene: MapScene, faces: Mapping[str, Face]) -> None:
        super().__init__()
        self.scene_, self.faces = scene, faces
        self.setZValue(LAYERS.index("units") + 0.5)  # over the set-up's counters, under the tools' overlays
        scene.addItem(self)
        self.marks = ReachItem(self)
        self.counters: dict[str, CounterItem] = {}
        self.stacks: dict[Hex, list[str]] = {}
        self.markers: list[Any] = []  # markers.py's items, each with its `key`
        self.opened: StackItem | None = None
        self.selected: set[str] = set()
        self.side: str | None = None  # whose view is shown (its secrets are the only ones): None, the whole board
        # hexes whose click is a decision even on counters (a unit off the map placed or entering
        # there): never a pick
        self.decides_at: frozenset[Hex] = frozenset()
        scene.hex_pressed.connect(self._pressed)
        self.setup_shown = scene.layers["units"].isVisible()
        scene.set_layer_visible("units", False)  # the set-up's pieces: in play the counters are the game's

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        return

    def detach(self) -> None:
        """Leave the scene (back to editing): the set-up's pieces show again if they did before."""
        self.scene_.hex_pressed.disconnect(self._pressed)
        self.scene_.set_layer_visible("units", self.setup_shown)
        self.scene_.removeItem(self)

    # -- drawing a view ---------------------------------------------------------------------------

    def show(self, view_data: dict[str, Any] | None = None, log: Sequence[dict[str, Any]] = ()) -> None:
        """Draw `view_data` (View.data, or GameState.view(None) for the whole board) and the mortar
        fire of this Player Turn in `log` (View.log, or the state's log with the whole board).
        Without data: show the layer (QGraphicsItem.show)."""
        self.setVisible(True)
        if view_data is None:
            return
        self.close_stack()
        board = self.scene_.board
        secrets = view_data.get("secrets") or {}
        self.side = next(iter(secrets)) if len(secrets) == 1 else None
        self.stacks = {}
        for unit in view_data.get("units", ()):
            if unit.get("hex") is not None and unit.get("where", "on_map") == "on_map":
                self.stacks.setdefault(board.hex(unit["hex"]), []).append(str(unit["id"]))
        ammo = view_data.get("ammo") or {}  # 22.3: the side's own roster (the advanced rules only)
        by_id = {
            str(u["id"]): {**u, "ammo": ammo[u["id"]]} if u["id"] in ammo else u for u in view_data.get("units", ())
        }
        # a counter or marker drawn as before is kept: a decision changes a few, and a scene whose
        # items are all made again repaints the whole view (docs/editor.md, The board in play)
        old, self.counters = self.counters, {}
        wrecks = {board.hex(label) for label in view_data.get("wrecks") or ()}
        for h, ids in self.stacks.items():
            under = int(h in wrecks)  # 12.4: a Wreck is the bottom of its hex's stack
            step = FAN if len(ids) + under <= FANNED else FAN * (FANNED - 1) / (len(ids) + under - 1)
            for n, uid in enumerate(ids, start=under):
                unit = by_id[uid]
                # the hex it faces may be off the map (a unit on its edge facing out): a label, not a board hex
                facing = parse_label(unit["facing"], board.offset) if unit.get("facing") else None
                at = centre(h) + FIRST + step * n
                kept = old.pop(uid, None)
                if kept is not None and (kept.unit, kept.hex, kept.facing, kept.at) == (unit, h, facing, at):
                    self.counters[uid] = kept
                    continue
                if kept is not None:
                    self.scene_.removeItem(kept)
                item = CounterItem(dict(unit), self.faces.get(uid, UNKNOWN), h, facing, at, self)
                item.setZValue(10 + n)
                item.set_selected(uid in self.selected)
                self.counters[uid] = item
        for item in old.values():
            self.scene_.removeItem(item)
        drawn = {marker.key: marker for marker in self.markers}
        self.markers = []
        for key in self._markers(view_data, log):
            marker = drawn.pop(key, None) or key[0](*key[1:], self)
            marker.key = key
            self.markers.append(marker)
        for marker in drawn.values():
            self.scene_.removeItem(marker)

    def clear(self) -> None:
        """No counters, markers or marks: an empty board (the layer stays on the scene)."""
        self.close_stack()
        for item in (*self.counters.values(), *self.markers):
            self.scene_.removeItem(item)
        self.counters, self.stacks, self.markers = {}, {}, []
        for mark in (self.set_reach, self.set_objectives):
            mark({})
        self.set_path([])
        self.set_target(None)

    def _markers(self, data: dict[str, Any], log: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
        """The markers the view holds, each as its item's class and arguments (its key)."""
        hex_of = self.scene_.board.hex
        out: list[tuple[Any, ...]] = []
        for label, points in (data.get("improved_positions") or {}).items():
            out.append(
                (ChitItem, "improved_position", hex_of(label), f"IP{points}", f"Improved position, {points} (18.3)")
            )
        for label in data.get("wrecks") or ():
            out.append((ChitItem, "wreck", hex_of(label), "WRECK", "Wreck (12.4): an AFV destroyed here"))
        for label, mine in (data.get("revealed_mines") or {}).items():
            text = _mine_text(mine)
            out.append((ChitItem, "revealed_mines", hex_of(label), text, f"Mines revealed (19.22): AP/AT {text}"))
        for side, secret in (data.get("secrets") or {}).items():
            for label, mine in (secret.get("mines") or {}).items():
                text = _mine_text(mine)
                out.append(
                    (ChitItem, "mines", hex_of(label), text, f"{side.capitalize()} mines, secret (19.11): AP/AT {text}")
                )
            out += [(HiddenHexItem, side, hex_of(label)) for label in secret.get("hidden_hexes") or ()]
        for marker in data.get("assault_markers") or ():
            out.append((AssaultMarkerItem, marker["side"], hex_of(marker["hex"]), hex_of(marker["toward"])))
        infiltration = data.get("infiltration") or {}
        if infiltration.get("hex") and infiltration.get("step") != "over":
            out.append((ChitItem, "infiltration", hex_of(infiltration["hex"]), "INF", "Infiltration Hex (24.3)"))
        for kind, label, text, tip in mortar_fire(log, data.get("turn")):
            out.append((MortarItem, kind, hex_of(label), text, tip))
        return out

    # -- what the play session asks ---------------------------------------------------------------

    def units_at(self, h: Hex) -> list[str]:
        """The ids of the units drawn in `h`, bottom of the stack first."""
        return list(self.stacks.get(h, ()))

    def unit_item(self, uid: str) -> CounterItem | None:
        return self.counters.get(uid)

    def hex_of_unit(self, uid: str) -> Hex | None:
        item = self.counters.get(uid)
        return item.hex if item is not None else None

    def set_selected(self, uids: Iterable[str]) -> None:
        self.selected = set(uids)
        for uid, item in self.counters.items():
            item.set_selected(uid in self.selected)
        if self.opened is not None:
            for item in self.opened.counters:
                item.set_selected(item.uid in self.selected)

    def set_reach(self, costs: Mapping[Hex, float]) -> None:
        """The hexes the selection can reach, shaded, each with its MP cost; {} clears them."""
        self.marks.reach = dict(costs)
        self.marks.changed()

    def set_path(self, path: Sequence[Hex]) -> None:
        self.marks.path = list(path)
        self.marks.changed()

    def set_target(self, h: Hex | None) -> None:
        self.marks.target = h
        self.marks.changed()

    def set_objectives(self, held: Mapping[Hex, str | None]) -> None:
        """The objective hexes, each outlined in its holder's colour ('german', 'russian', None)."""
        self.marks.objectives = dict(held)
        self.marks.changed()

    # -- clicks -----------------------------------------------------------------------------------

    def open_stack(self, h: Hex) -> StackItem | None:
        """Show every unit of the stack in `h` at full size, with its state, to pick one."""
        self.close_stack()
        ids = self.stacks.get(h)
        if not ids:
            return None
        self.opened = StackItem(h, self.scene_.board.label(h), [self.counters[uid] for uid in ids], self)
        for item in self.opened.counters:
            item.set_selected(item.uid in self.selected)
        self.stack_opened.emit(h)
        return self.opened

    def close_stack(self) -> None:
        if self.opened is not None:
            self.scene_.removeItem(self.opened)
            self.opened = None
            self.stack_opened.emit(None)

    def _pressed(self, h: Hex, event: QGraphicsSceneMouseEvent) -> None:
        if not self.isVisible():
            return
        self.click(event.scenePos(), h)

    def click(self, at: QPointF, h: Hex | None) -> None:
        """A left click at `at` (scene coordinates) in hex `h`: pick, open a stack, or a hex."""
        if self.opened is not None:
            picked = next((i for i in self.opened.counters if i.rect().contains(at)), None)
            inside = self.opened.boundingRect().contains(at)
            self.close_stack()
            if picked is not None:
                self.unit_picked.emit(picked.uid)
                return
            if inside:
                return
        if h is not None and h in self.decides_at:
            self.hex_clicked.emit(h)
            return
        hit = [c for c in self.counters.values() if c.rect().contains(at)]
        if hit:
            top = max(hit, key=lambda c: c.zValue())
            if len(self.stacks[top.hex]) > 1:
                self.open_stack(top.hex)
            else:
                self.unit_picked.emit(top.uid)
            return
        if h is not None:
            self.hex_clicked.emit(h)


class StackItem(QGraphicsItem):
    """An opened stack: its units side by side above the hex, each at full size with its state."""

    def __init__(self, h: Hex, label: str, units: list[CounterItem], parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.hex, self.label = h, label
        self.setToolTip(f"The stack in {label}: click a unit to pick it, anywhere else to close")
        self.setZValue(1000)
        width = len(units) * (OPENED + GAP) + GAP
        c = centre(h)
        self._panel = QRectF(c.x() - width / 2, c.y() - HEX_SIZE - OPENED - 34, width, OPENED + 34)
        self.counters = [
            CounterItem(
                u.unit,
                u.face,
                u.hex,
                u.facing,
                QPointF(
                    self._panel.left() + GAP + OPENED / 2 + n * (OPENED + GAP), self._panel.top() + 12 + OPENED / 2
                ),
                self,
                OPENED,
            )
            for n, u in enumerate(units)
        ]
        self.labels = [(f"{u.unit['state']} {u.unit['morale']}".upper(), ", ".join(marks(u.unit))) for u in units]

    def boundingRect(self) -> QRectF:
        return self._panel.adjusted(-12, -12, 12, 12)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        painter.setPen(QPen(INK, 1.0))
        painter.setBrush(QBrush(QColor(255, 252, 240, 235)))
        painter.drawRoundedRect(self._panel, 4, 4)
        c = centre(self.hex)
        painter.drawLine(QPointF(c.x(), self._panel.bottom()), QPointF(c.x(), c.y() - HEX_SIZE * 0.6))
        title = QRectF(self._panel.left(), self._panel.top() + 1, self._panel.width(), 10)
        count = len(self.counters)
        write(painter, title, f"{self.label}: {count} unit{'s' if count > 1 else ''}", 7, scale, True)
        for item, (state, done) in zip(self.counters, self.labels, strict=True):
            r = item.rect()
            below = QRectF(r.left() - GAP / 2, r.bottom() + 1, r.width() + GAP, 8)
            write(painter, below, state, 6.0, scale, True)
            write(painter, below.translated(0, 8), done, 6.0, scale)
        painter.setPen(Qt.PenStyle.NoPen)


def _mine_text(mine: dict[str, Any]) -> str:
    return f"{mine.get('ap', 0)}/{mine.get('at', 0)}"


def mortar_fire(log: Sequence[dict[str, Any]], turn: Any) -> list[tuple[str, str, str, str]]:
    """This Player Turn's mortar fire in `log`: each declared target hex (14.0 a) and each round's
    impact (14.3), as (kind, hex, text, tip). The Player Turn is the log's last run of entries of
    the view's game turn whose phases do not go back (6.0: its phases A-H in order)."""
    order = {p: n for n, p in enumerate(PLAYER_TURN)}
    found: list[tuple[str, str, str, str]] = []
    after = len(PLAYER_TURN)
    for entry in reversed(log):
        phase = order.get(str(entry.get("phase")))
        if entry.get("turn") != turn or phase is None or phase > after:
            break
        after = phase
        for event in reversed(entry.get("events", ())):
            if event.get("event") == "mortar declared":
                tip = f"Mortar target (14.0 a): {event['unit']}, {event['rounds']} rounds"
                found.append(("mortar_target", event["target"], "", tip))
            elif event.get("event") == "mortar round" and event.get("hits"):
                tip = f"Mortar round {event['round']} of {event['unit']} (14.3): {event['result']}"
                found.append(("impact", event["hits"], str(event["round"]), tip))
    return found[::-1]
