"""The map's terrain symbols: which ones a hex shows, how each is drawn, and what each means.

A hex is drawn as the list of symbols `terrain_symbols` gives it, each by its painter, so the
map cannot draw a symbol the legend (`SYMBOLS`) does not explain. The painters look at the
neighbouring hexes (`Around`): a building's symbol joins its neighbours of the same building,
a gully runs on into the next gully hex, a crest hex is shaded towards the higher ground and a
hill's edge is drawn where the level drops. The map view, the legend and the print share them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF

from engine.hexgrid import DIRECTIONS, Hex, corner_offsets
from engine.model.tables import terrain_effects
from engine.model.terrain import Terrain

from .hex_layout import HEX_SIZE, centre, hex_polygon

# Colours of a printed sheet: pale ground, hills by shade with a brown edge, green woods, red roofs.
GROUND = QColor("#efe8d0")
HILL = {1: QColor("#dcc28e"), 2: QColor("#c09a5a")}
HILL_EDGE = QColor("#7a5a2a")
MARSH = QColor("#9fc7c0")
GULLY = QColor("#8a6d4b")
TREE = QColor("#2f6b2a")
WOODS = QColor(92, 150, 70, 120)  # translucent: a wooded hill keeps its level's shade
BUILDING = QColor("#a4533f")  # roof red
ROOF_LINE = QColor("#5a2a1e")
ROAD = QColor("#a0522d")
GRID = QColor("#8c8474")

TREE_LOBE = HEX_SIZE * 0.15  # the radius of each of a Tree symbol's three lobes

Around = Callable[[Hex], Terrain | None]  # a neighbour's terrain; None off the map


@dataclass(frozen=True)
class Symbol:
    """A legend entry: the symbol's name and what it means in the rules."""

    key: str
    name: str
    meaning: str


def _woods_meaning() -> str:
    return (
        f"{terrain_effects().woods_min_trees} or more Tree symbols (8.54): the hex is shaded green;"
        " each Tree still counts (10.31 b, chart note b)"
    )


SYMBOLS: dict[str, Symbol] = {
    s.key: s
    for s in (
        Symbol("ground", "Clear, level 0", "open ground at the foot of the hills"),
        Symbol("level-1", "Level 1 Hill", "one level up (8.53: +1 MP uphill)"),
        Symbol("level-2", "Level 2 Hill", "two levels up; a higher Hill hex blocks LOS (10.31 a)"),
        Symbol("hill-edge", "Hill edge", "brown hexside: the level drops to the next hex"),
        Symbol(
            "crest",
            "Crest hex",
            "two levels in one hex, the upper shaded towards the higher ground; it counts as the lower (10.34)",
        ),
        Symbol("tree", "Tree symbol", "one Tree is not a Woods hex (errata); +1 Observation per Tree (note b)"),
        Symbol("woods", "Woods hex", ""),  # the meaning reads the table: see symbol()
        Symbol("building", "Building", "red roof; hexes of one building are joined; blocks LOS (10.31 a)"),
        Symbol("marsh", "Marsh", "blocks a DOWN firer's LOS (10.31 c); AFVs may bog down (8.55)"),
        Symbol("gully", "Gully", "runs on into the next gully hex"),
        Symbol("road", "Road", "across the hexsides it uses: 1/2 MP per hex along it (8.52)"),
        Symbol("bridge", "Bridge", "a Road hex crossing a Gully, treated as a Road hex (chart note a)"),
    )
}


def symbol(key: str) -> Symbol:
    """A legend entry; the Woods entry says the chart's number of Trees."""
    if key == "woods":
        return Symbol("woods", "Woods hex", _woods_meaning())
    return SYMBOLS[key]


def terrain_symbols(h: Hex, t: Terrain, around: Around) -> list[str]:
    """The symbols hex `h` shows, bottom first (roads and bridges are drawn by the road layer)."""
    keys = [f"level-{t.level}" if t.level in HILL else "ground"]
    if _drops(h, t, around):
        keys.append("hill-edge")
    if t.upper_level is not None:
        keys.append("crest")
    keys += [key for key, on in (("marsh", t.marsh), ("gully", t.gully)) if on]
    if t.trees and t.is_woods:
        keys.append("woods")
    if t.building is not None:
        keys.append("building")
    if t.trees:
        keys.append("tree")
    return keys


def paint_terrain(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    """Draw one hex: its level with the hex's outline, then its other symbols in order (a building
    joined across a hexside is not cut by the grid)."""
    level, *others = terrain_symbols(h, t, around)
    PAINTERS[level](painter, h, t, around)
    for key in others:
        PAINTERS[key](painter, h, t, around)


def _paint_level(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    painter.setPen(QPen(GRID, 0.6))
    painter.setBrush(QBrush(HILL.get(t.level, GROUND)))
    painter.drawPolygon(hex_polygon(h))


# -- the painters ---------------------------------------------------------------------------------


def _side(h: Hex, i: int) -> tuple[QPointF, QPointF]:
    """The two corners of the hexside towards DIRECTIONS[i]."""
    c, corners = centre(h), corner_offsets(HEX_SIZE)
    a, b = corners[(i + 4) % 6], corners[(i + 5) % 6]
    return QPointF(c.x() + a[0], c.y() + a[1]), QPointF(c.x() + b[0], c.y() + b[1])


def _drops(h: Hex, t: Terrain, around: Around) -> list[int]:
    """The directions in which the level drops (the hill's edge); a crest hex holding this level
    does not drop (its own contour is the edge)."""
    found = []
    for i, d in enumerate(DIRECTIONS):
        n = around(h + d)
        if n is not None and max(n.level, n.upper_level or 0) < t.level:
            found.append(i)
    return found


def _paint_hill_edge(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    painter.setPen(QPen(HILL_EDGE, 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    for i in _drops(h, t, around):
        painter.drawLine(*_side(h, i))


def _paint_crest(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    """The upper level in the wedges towards neighbours at least that high, its edge a contour;
    with none (a knoll), a smaller hex in the middle."""
    assert t.upper_level is not None
    upper = HILL.get(t.upper_level, HILL[2])
    c = centre(h)
    uphill = [i for i, d in enumerate(DIRECTIONS) if (n := around(h + d)) is not None and n.level >= t.upper_level]
    painter.setBrush(QBrush(upper))
    if not uphill:
        painter.setPen(QPen(HILL_EDGE, 1.2))
        painter.drawPolygon(hex_polygon(h, 0.5))
        return
    painter.setPen(Qt.PenStyle.NoPen)
    upper_part = QPainterPath()
    for i in uphill:  # one shape: no seams between the wedges
        wedge = QPainterPath()
        wedge.addPolygon(QPolygonF([c, *_side(h, i)]))
        wedge.closeSubpath()
        upper_part = upper_part.united(wedge)
    painter.drawPath(upper_part)
    painter.setPen(QPen(HILL_EDGE, 1.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    for i in uphill:  # the contour: each radius between an upper wedge and a lower one
        a, b = _side(h, i)
        if (i - 1) % 6 not in uphill:
            painter.drawLine(c, a)
        if (i + 1) % 6 not in uphill:
            painter.drawLine(c, b)


def _paint_marsh(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(QColor(MARSH.red(), MARSH.green(), MARSH.blue(), 170)))
    painter.drawPolygon(hex_polygon(h, 0.92))
    c = centre(h)
    painter.setPen(QPen(MARSH.darker(170), 1.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    for dx, dy in ((-9, -4), (5, -7), (-3, 6), (10, 5)):  # tufts of reeds
        base = QPointF(c.x() + dx, c.y() + dy)
        painter.drawLine(QPointF(base.x() - 4, base.y()), QPointF(base.x() + 4, base.y()))
        for lean in (-2.0, 0.0, 2.0):
            painter.drawLine(base, QPointF(base.x() + lean, base.y() - 3.5))


def _paint_gully(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    """The gully's bed from the centre to each neighbouring gully hex (a short bar when alone)."""
    c = centre(h)
    ends = [
        QPointF((c.x() + centre(h + d).x()) / 2, (c.y() + centre(h + d).y()) / 2)
        for d in DIRECTIONS
        if (n := around(h + d)) is not None and n.gully
    ]
    if not ends:
        ends = [QPointF(c.x() - 14, c.y() + 4), QPointF(c.x() + 14, c.y() - 4)]
    for colour, width in ((GULLY.darker(130), 6.0), (GULLY.lighter(125), 3.0)):
        painter.setPen(QPen(colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        for end in ends:
            painter.drawLine(c, end)


def _paint_woods(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    painter.setPen(QPen(TREE, 1.0, Qt.PenStyle.DotLine))
    painter.setBrush(QBrush(WOODS))
    painter.drawPolygon(hex_polygon(h, 0.9))


def tree_positions(h: Hex, trees: int) -> list[QPointF]:
    """Where a hex's Tree symbols stand: low in the hex, clear of its number at the top."""
    c = centre(h)
    middle = QPointF(c.x(), c.y() + HEX_SIZE * 0.12)
    if trees == 1:
        return [middle]
    r = HEX_SIZE * (0.3 if trees <= 3 else 0.42)
    start = -math.pi / 2 if trees % 2 else 0.0
    return [
        QPointF(
            middle.x() + r * math.cos(start + 2 * math.pi * i / trees),
            middle.y() + r * math.sin(start + 2 * math.pi * i / trees) * 0.85,
        )
        for i in range(trees)
    ]


@cache
def tree_crown() -> QPainterPath:
    """A Tree symbol's crown round the origin: three round lobes (its trunk stands below);
    made once, moved to each Tree."""
    r = TREE_LOBE
    crown = QPainterPath()
    for dx, dy in ((-0.7, 0.25), (0.7, 0.25), (0.0, -0.5)):
        lobe = QPainterPath()
        lobe.addEllipse(QPointF(dx * r, dy * r - r * 0.4), r, r)
        crown = crown.united(lobe)
    return crown


def _paint_trees(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    r = TREE_LOBE
    for at in tree_positions(h, t.trees):
        painter.setPen(QPen(QColor("#5b3a1e"), 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawLine(QPointF(at.x(), at.y()), QPointF(at.x(), at.y() + r * 1.5))
        painter.setPen(QPen(QColor("#f4f1e4"), 0.8))  # a pale rim: the crown stands out on woods green
        painter.setBrush(QBrush(TREE))
        painter.drawPath(tree_crown().translated(at))


def building_path(h: Hex, t: Terrain, around: Around) -> QPainterPath:
    """The Building symbol as the LOS rules see it: the footprint, joined to the same building's
    neighbours (tables/terrain-effects.yaml `building_footprint`; a hex's own `footprint`)."""
    effects = terrain_effects()
    c = centre(h)
    path = QPainterPath()
    outline = t.footprint or effects.footprint
    path.addPolygon(QPolygonF([QPointF(c.x() + x * HEX_SIZE, c.y() + y * HEX_SIZE) for x, y in outline]))
    path.closeSubpath()
    half = effects.join_width * HEX_SIZE / 2
    for mid in _joins(h, t, around):
        length = math.hypot(mid.x() - c.x(), mid.y() - c.y())
        px, py = -(mid.y() - c.y()) / length * half, (mid.x() - c.x()) / length * half
        band = QPainterPath()
        band.addPolygon(
            QPolygonF(
                [
                    QPointF(c.x() + px, c.y() + py),
                    QPointF(mid.x() + px, mid.y() + py),
                    QPointF(mid.x() - px, mid.y() - py),
                    QPointF(c.x() - px, c.y() - py),
                ]
            )
        )
        band.closeSubpath()
        path = path.united(band)  # one outline: no seams or holes where the band meets the footprint
    return path


def _joins(h: Hex, t: Terrain, around: Around) -> list[QPointF]:
    """The middles of the hexsides this building hex shares with hexes of the same building."""
    c = centre(h)
    out = []
    for d in DIRECTIONS:
        n = around(h + d)
        if n is not None and n.building == t.building:
            other = centre(h + d)
            out.append(QPointF((c.x() + other.x()) / 2, (c.y() + other.y()) / 2))
    return out


def _paint_building(painter: QPainter, h: Hex, t: Terrain, around: Around) -> None:
    """A roof seen from above: the symbol in roof red with a dark edge; a lone house's hip roof
    (corners to the top), or the ridges running on into the same building's other hexes."""
    painter.setPen(QPen(ROOF_LINE, 1.2))
    painter.setBrush(QBrush(BUILDING))
    painter.drawPath(building_path(h, t, around))
    c = centre(h)
    joins = _joins(h, t, around)
    if joins:
        painter.setPen(QPen(ROOF_LINE, 1.4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        for mid in joins:
            painter.drawLine(c, mid)
        return
    painter.setPen(QPen(ROOF_LINE.lighter(130), 0.8))
    for x, y in t.footprint or terrain_effects().footprint:
        painter.drawLine(c, QPointF(c.x() + x * HEX_SIZE * 0.92, c.y() + y * HEX_SIZE * 0.92))


PAINTERS: dict[str, Callable[[QPainter, Hex, Terrain, Around], None]] = {
    "ground": _paint_level,
    "level-1": _paint_level,
    "level-2": _paint_level,
    "hill-edge": _paint_hill_edge,
    "crest": _paint_crest,
    "marsh": _paint_marsh,
    "gully": _paint_gully,
    "woods": _paint_woods,
    "building": _paint_building,
    "tree": _paint_trees,
}


def road_pen() -> QPen:
    return QPen(ROAD, 3.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)


def paint_bridge(painter: QPainter, at: QPointF) -> None:
    """A bridge: a plank deck with rails across the road, over the gully."""
    painter.setPen(QPen(QColor("#303030"), 1.5))
    painter.setBrush(QBrush(QColor("#d9c7a0")))
    painter.drawRect(QRectF(at.x() - 7, at.y() - 4.5, 14, 9))
