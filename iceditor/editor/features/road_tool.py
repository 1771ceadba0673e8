"""The road tool (R): draw road chains from hex to hex, remove them, mark bridges.

A road is a chain of adjacent hexes joined along hexsides (8.52, docs/formats.md). Draw: a drag
from hex to hex adds a chain (the hexes between two mouse events filled in, a step back undoes
the last step); only the links no road has yet are added, each in the map file that holds both
of its hexes, with a bridge where the new road crosses a gully hex (chart note a). Erase (or
Alt with Draw): a drag removes the road links it runs along, a click every road chain through
the hex. Bridge: a click on a road hex adds or removes its bridge. Each edit is one undo step
that changes the map files' `roads:` and `bridges:` lists and the board's roads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainterPath, QPen, QUndoCommand
from PySide6.QtWidgets import QGraphicsPathItem, QWidget

from engine.hexgrid import Hex, are_adjacent, hex_line

from ..document import EditorDocument, Roads
from ..mapview import centre
from ..tool_options import OptionsTool, RadioChoice, hexes_text
from ..window import MainWindow

ORDER = 30
MODES = ("draw", "erase", "bridge")
DRAW_COLOUR = QColor(160, 82, 45, 170)
ERASE_COLOUR = QColor(200, 30, 30, 200)

Link = frozenset[Hex]


class RoadCommand(QUndoCommand):
    """The road chains and bridges of every map file before and after an edit (swap-style undo)."""

    def __init__(self, window: MainWindow, label: str, before: Sequence[Roads], after: Sequence[Roads]) -> None:
        super().__init__(label)
        self.window, self.before, self.after = window, list(before), list(after)

    def redo(self) -> None:
        self._set(self.after)

    def undo(self) -> None:
        self._set(self.before)

    def _set(self, roads: Sequence[Roads]) -> None:
        self.window.document.set_roads(roads)
        self.window.scene.roads.update()  # roads are one item over the whole map


class RoadTool(OptionsTool):
    name = "road"
    label = "Road"
    shortcut = "R"
    group = "roads"
    tip = "Roads: drag from hex to hex to draw a chain; Alt-drag removes links, Alt-click the roads through a hex"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.path: list[Hex] = []
        self.erasing = False
        self.preview = QGraphicsPathItem(window.scene.layers["overlays"])
        self.preview.setZValue(5)
        self.modes = RadioChoice("road", MODES, self.settings_changed)

    def options(self) -> QWidget:
        return self.modes.widget()

    def mode(self) -> str:
        return self.modes.chosen()

    def describe(self) -> str:
        return {
            "draw": "drag from hex to hex to add a road chain (adjacent hexes only, 8.52); "
            "a bridge is added where it crosses a gully; Alt: erase",
            "erase": "drag along a road to remove its links; click a hex to remove every road chain through it",
            "bridge": "click a road hex to add or remove its bridge (a road crossing a gully, chart note a)",
        }[self.mode()]

    def deactivate(self) -> None:
        self.path = []  # a chain being drawn when another tool is chosen is dropped
        self._show_preview()
        super().deactivate()

    # -- the mouse ---------------------------------------------------------------------------------
    def press(self, h: Hex, event: Any) -> None:
        if self.mode() == "bridge":
            self._toggle_bridge(h)
            return
        alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
        self.erasing = (self.mode() == "erase") != alt
        self.path = [h]
        self._show_preview()

    def move(self, h: Hex, event: Any) -> None:
        self.hover(h)
        if not self.path or h == self.path[-1]:
            return
        for step in hex_line(self.path[-1], h)[1:]:
            if len(self.path) > 1 and step == self.path[-2]:
                self.path.pop()  # back along the chain: the last step is taken back
            elif step in self.window.document.board.hexes:
                self.path.append(step)
        self._show_preview()

    def release(self, h: Hex | None, event: Any) -> None:
        path, self.path = self.path, []
        self._show_preview()
        if not path:
            return
        document = self.window.document
        before = document.roads()
        holds = _holders(document)
        label = document.board.label
        if self.erasing and len(path) == 1:
            after = remove_chains(before, path[0])
            what = f"Remove roads through {label(path[0])}"
        elif self.erasing:
            after = remove_links(before, {frozenset(pair) for pair in pairwise(path)})
            what = f"Remove road {label(path[0])}-{label(path[-1])}"
        else:
            gully = {x for x in path if document.printed(x).gully}
            after = add_chain(before, path, holds, gully)
            what = f"Road {label(path[0])}-{label(path[-1])} ({hexes_text(len(path))})"
        if after != before:
            self.window.undo_stack.push(RoadCommand(self.window, what, before, after))

    def _toggle_bridge(self, h: Hex) -> None:
        document = self.window.document
        label = document.board.label(h)
        if h not in document.board.road_neighbours:
            self.window.statusBar().showMessage(
                f"{label} is not a road hex: a bridge is a road hex (chart note a)", 5000
            )
            return
        adding = h not in document.board.bridges
        if adding and not document.printed(h).gully:
            self.window.statusBar().showMessage(
                f"{label} is not a gully hex: a bridge crosses a gully (chart note a)", 5000
            )
            return
        before = document.roads()
        after = [
            Roads(r.chains, _with_bridge(r.bridges, h, adding)) if any(h in c for c in r.chains) else r for r in before
        ]
        self.window.undo_stack.push(
            RoadCommand(self.window, f"{'Bridge' if adding else 'Remove bridge'} {label}", before, after)
        )

    def _show_preview(self) -> None:
        path = QPainterPath()
        if self.path:
            path.moveTo(centre(self.path[0]))
            for h in self.path[1:]:
                path.lineTo(centre(h))
            if len(self.path) == 1:
                path.addEllipse(centre(self.path[0]), 4, 4)
        colour = ERASE_COLOUR if self.erasing else DRAW_COLOUR
        style = Qt.PenStyle.DashLine if self.erasing else Qt.PenStyle.SolidLine
        self.preview.setPen(QPen(colour, 5, style, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
        self.preview.setPath(path)


# -- road chains as data (no Qt) ----------------------------------------------------------------


def _holders(document: EditorDocument) -> Callable[[Hex], set[int]]:
    """Which map files (their index in `maps`) hold a hex: a seam hex is on two."""
    return lambda h: {i for i, m in enumerate(document.maps) if m.holds(h)}


def add_chain(
    roads: Sequence[Roads], path: Sequence[Hex], holds: Callable[[Hex], set[int]], gully: set[Hex]
) -> list[Roads]:
    """The roads with the links of `path` that no road has yet, as chains of adjacent hexes each in
    the first map file that holds all its hexes, and a bridge on each gully hex of a new chain."""
    existing = {frozenset(pair) for r in roads for chain in r.chains for pair in pairwise(chain)}
    chains: list[tuple[int, list[Hex]]] = []
    run: list[Hex] = []
    files: set[int] = set()
    for a, b in pairwise(path):
        both = holds(a) & holds(b)
        new_link = are_adjacent(a, b) and frozenset((a, b)) not in existing and bool(both)
        if run and new_link and run[-1] == a and files & both:
            run.append(b)
            files &= both
            continue
        if len(run) > 1:
            chains.append((min(files), run))
        run, files = ([a, b], both) if new_link else ([], set())
    if len(run) > 1:
        chains.append((min(files), run))
    out = list(roads)
    for i, chain in chains:
        bridges = out[i].bridges + tuple(h for h in chain if h in gully and h not in out[i].bridges)
        out[i] = Roads((*out[i].chains, tuple(chain)), bridges)
    return out


def remove_links(roads: Sequence[Roads], links: set[Link]) -> list[Roads]:
    """The roads without these links: a chain is cut where a link goes."""
    out = []
    for r in roads:
        pieces: list[tuple[Hex, ...]] = []
        for chain in r.chains:
            piece = [chain[0]]
            for a, b in pairwise(chain):
                if frozenset((a, b)) in links:
                    pieces.append(tuple(piece))
                    piece = [b]
                else:
                    piece.append(b)
            pieces.append(tuple(piece))
        out.append(_kept(pieces, r.bridges))
    return out


def remove_chains(roads: Sequence[Roads], h: Hex) -> list[Roads]:
    """The roads without the chains through this hex."""
    return [_kept([c for c in r.chains if h not in c], r.bridges) for r in roads]


def _kept(chains: Sequence[tuple[Hex, ...]], bridges: tuple[Hex, ...]) -> Roads:
    """What is left of a map's roads: chains of at least two hexes, and the bridges still on one."""
    kept = tuple(c for c in chains if len(c) > 1)
    on_road = {h for c in kept for h in c}
    return Roads(kept, tuple(b for b in bridges if b in on_road))


def _with_bridge(bridges: tuple[Hex, ...], h: Hex, adding: bool) -> tuple[Hex, ...]:
    kept = tuple(b for b in bridges if b != h)
    return (*kept, h) if adding else kept


def install(window: MainWindow) -> None:
    window.add_tool(RoadTool(window))
