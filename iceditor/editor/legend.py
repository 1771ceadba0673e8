"""The map's legend: every symbol the map draws, each drawn by the map's own painter beside its
name and what it means in the rules. The View > Legend panel and `iceditor render` show it.

Entries are keyed: the terrain symbols by map_symbols' keys, the set-up by the pieces' kinds,
so a test can check that nothing the map draws is left unexplained.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from engine.hexgrid import DIRECTIONS, Hex
from engine.model.tables import terrain_effects
from engine.model.terrain import Terrain

from .hex_layout import HEX_SIZE, centre
from .map_symbols import PAINTERS, SYMBOLS, paint_bridge, paint_terrain, road_pen, symbol
from .mapview import BUILDING_ID, HILL_NAME, NAME_SIZE, NUMBER_SIZE, HexSetItem, font_of_size, number_rect, paint_number
from .setup_items import Piece, PieceItem

SAMPLE = HEX_SIZE * 2.2  # a sample's box: one hex with a little room
TEXT_SIZE = 9.0
HERE = Hex(0, 0)  # samples are drawn round this hex, whose centre is the origin, then moved into their box


@dataclass(frozen=True)
class Entry:
    key: str
    name: str
    meaning: str
    sample: Callable[[QPainter], None]  # draws round HERE's centre


def entries(overlays: bool = True) -> list[Entry]:
    """The legend, in reading order: the ground, woods and buildings, roads, labels, the set-up,
    and (`overlays`: in the editor, not on a print) what the tools draw over the map."""
    out = [Entry(key, symbol(key).name, symbol(key).meaning, terrain_sample(key)) for key in SYMBOLS]
    out += [
        Entry("hex-number", "Hex number", "column and row (XXYY), as printed", _number_sample),
        Entry("hill-name", "Hill name", "written once, in the middle of the hill", _hill_name_sample),
        Entry("building-id", "Building number", "written once on the building's roof", _building_id_sample),
        Entry("north", "NORTH indicator", "placed as the scenario says (24.1): north on the map", _north_sample),
        Entry(
            "unit",
            "Counters",
            "German grey, Russian brown: the unit (type and squad letter or number), its member, PR or count",
            _units_sample,
        ),
        Entry(
            "down",
            "DOWN",
            "the back of the counter: darker, white print, black strip (3.0); UP: black print, light strip",
            _piece_sample("unit", ("Sq A", "x6"), down=True),
        ),
        Entry(
            "facing", "Facing", "wedge across the frontal hexside (8.7)", _piece_sample("unit", ("MMG", "#1"), facing=1)
        ),
        Entry(
            "improved_position",
            "Improved position",
            "IP and its points (18.3)",
            _piece_sample("improved_position", ("IP", "1")),
        ),
        Entry(
            "mines",
            "Mines",
            "red edge: the AP/AT mine factors in the hex (19.11)",
            _piece_sample("mines", ("mines", "2/1")),
        ),
        Entry("hidden", "Hidden hex", "dashed outline: a hidden hex of the set-up (24.2)", _piece_sample("hidden")),
        Entry(
            "infiltration",
            "Infiltration Hex",
            "the Russian Infiltration Hex (24.32)",
            _piece_sample("infiltration", ("INF", "")),
        ),
    ]
    if not overlays:
        return out
    from .play.legend_entries import play_entries  # the board in play's, drawn by its items

    return out + _overlay_entries() + play_entries()


def legend_size(width: float, overlays: bool = True) -> tuple[float, float]:
    """The legend's width and height, laid out `width` wide."""
    return width, sum(_row_height(e, width) for e in entries(overlays))


def paint_legend(painter: QPainter, top_left: QPointF, width: float, overlays: bool = True) -> float:
    """Draw the legend from `top_left`, `width` wide; its height."""
    y = top_left.y()
    for entry in entries(overlays):
        height = _row_height(entry, width)
        painter.save()
        painter.translate(top_left.x() + SAMPLE / 2, y + height / 2)
        entry.sample(painter)
        painter.restore()
        text = _text_rect(top_left.x(), y, width, height)
        painter.setPen(QColor("#202020"))
        painter.setFont(font_of_size(TEXT_SIZE, bold=True))
        name_height = QFontMetricsF(painter.font()).height()
        painter.drawText(text, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, entry.name)
        painter.setFont(font_of_size(TEXT_SIZE * 0.85))
        painter.drawText(
            text.adjusted(0, name_height, 0, 0),
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
            entry.meaning,
        )
        y += height
    return y - top_left.y()


def _text_rect(x: float, y: float, width: float, height: float) -> QRectF:
    return QRectF(x + SAMPLE + 6, y + 4, width - SAMPLE - 6, height - 4)


def _row_height(entry: Entry, width: float) -> float:
    name = QFontMetricsF(font_of_size(TEXT_SIZE, bold=True)).height()
    text = _text_rect(0, 0, width, 10_000)
    meaning = QFontMetricsF(font_of_size(TEXT_SIZE * 0.85)).boundingRect(
        text, int(Qt.TextFlag.TextWordWrap), entry.meaning
    )
    return max(SAMPLE, name + meaning.height() + 10)


# -- the samples, drawn round HERE -------------------------------------------------------------------


def _sample_terrain(key: str) -> tuple[Terrain, dict[int, Terrain]]:
    """A hex showing the symbol `key`, and its neighbours by direction (the rest off the map)."""
    woods = terrain_effects().woods_min_trees
    same = dict.fromkeys(range(6), Terrain())
    samples: dict[str, tuple[Terrain, dict[int, Terrain]]] = {
        "level-1": (Terrain(level=1), dict.fromkeys(range(6), Terrain(level=1))),
        "level-2": (Terrain(level=2), dict.fromkeys(range(6), Terrain(level=2))),
        "hill-edge": (Terrain(level=1), {i: Terrain(level=1 if i in (0, 1, 5) else 0) for i in range(6)}),
        "crest": (Terrain(level=0, upper_level=1), {i: Terrain(level=1 if i in (0, 1, 5) else 0) for i in range(6)}),
        "tree": (Terrain(trees=1), same),
        "woods": (Terrain(trees=woods), same),
        "building": (Terrain(building="1"), same),
        "marsh": (Terrain(marsh=True), same),
        "gully": (Terrain(gully=True), {i: Terrain(gully=i in (1, 4)) for i in range(6)}),
    }
    return samples.get(key, (Terrain(), same))


def terrain_sample(key: str) -> Callable[[QPainter], None]:
    def draw(painter: QPainter) -> None:
        if key in PAINTERS:
            t, neighbours = _sample_terrain(key)
            by_hex = {HERE + d: neighbours[i] for i, d in enumerate(DIRECTIONS)}
            paint_terrain(painter, HERE, t, by_hex.get)
            return
        paint_terrain(painter, HERE, Terrain(), lambda h: None)
        c = centre(HERE)
        painter.setPen(road_pen())
        painter.drawLine(QPointF(c.x() - HEX_SIZE, c.y()), QPointF(c.x() + HEX_SIZE, c.y()))
        if key == "bridge":
            paint_bridge(painter, c)

    return draw


def _number_sample(painter: QPainter) -> None:
    terrain_sample("ground")(painter)
    painter.setFont(font_of_size(NUMBER_SIZE))
    paint_number(painter, number_rect(HERE), "4307", NUMBER_SIZE, on_roof=False)


def _name(painter: QPainter, text: str, colour: QColor) -> None:
    painter.setFont(font_of_size(NAME_SIZE, bold=True))
    painter.setPen(colour)
    c = centre(HERE)
    painter.drawText(QRectF(c.x() - SAMPLE / 2, c.y() - 8, SAMPLE, 16), Qt.AlignmentFlag.AlignCenter, text)


def _hill_name_sample(painter: QPainter) -> None:
    terrain_sample("level-1")(painter)
    _name(painter, "Hill K", HILL_NAME)


def _building_id_sample(painter: QPainter) -> None:
    terrain_sample("building")(painter)
    _name(painter, "23", BUILDING_ID)


def _north_sample(painter: QPainter) -> None:
    from .features.scenario_panel import NorthArrow  # the map's own arrow, drawn by its feature

    painter.scale(0.7, 0.7)
    painter.translate(0, HEX_SIZE * 0.4)  # the arrow, tail to head, in the middle of its box
    arrow = NorthArrow(None)  # type: ignore[arg-type]
    arrow.place(HERE, HERE + DIRECTIONS[0])
    arrow.paint(painter, QStyleOptionGraphicsItem())


def _draw_piece(painter: QPainter, piece: Piece) -> None:
    item = PieceItem(piece, 0, None)  # type: ignore[arg-type]
    if piece.kind != "hidden":
        painter.translate(-item.anchor())
    item.paint(painter, QStyleOptionGraphicsItem())


def _units_sample(painter: QPainter) -> None:
    for side, text, dx in (("german", ("Sq A", "x6"), -0.55), ("russian", ("PL", "PR10"), 0.55)):
        painter.save()
        painter.translate(HEX_SIZE * dx, 0)
        _draw_piece(painter, Piece((), side, "unit", HERE, text, ""))
        painter.restore()


def _piece_sample(
    kind: str, text: tuple[str, str] = ("", ""), down: bool = False, facing: int | None = None
) -> Callable[[QPainter], None]:
    def draw(painter: QPainter) -> None:
        if kind == "hidden":
            terrain_sample("ground")(painter)
        faced = HERE + DIRECTIONS[facing] if facing is not None else None
        _draw_piece(painter, Piece((), "german", kind, HERE, text, "", down, faced))

    return draw


# -- what the tools draw over the map ----------------------------------------------------------------


def _overlay_entries() -> list[Entry]:
    """The tools' colours, from the tools themselves."""
    from .features.los_tool import ALONG, BLOCKED_LINE, CORNER, PASSED, paint_sight
    from .features.movement_overlay import band_colour
    from .features.selection import SELECTED, SELECTED_OUTLINE
    from .features.viewshed_overlay import SEEN
    from .features.zone_editor import ZONE, ZONE_OUTLINE

    def line(painter: QPainter) -> None:
        terrain_sample("ground")(painter)
        c = centre(HERE)
        paint_sight(painter, QPointF(c.x() - HEX_SIZE, c.y()), QPointF(c.x() + HEX_SIZE, c.y()), c)

    def shaded(*colours: QColor, outline: QColor | None = None, width: float = 1.5) -> Callable[[QPainter], None]:
        def draw(painter: QPainter) -> None:
            terrain_sample("ground")(painter)
            for i, colour in enumerate(colours):  # several colours: side by side
                painter.save()
                part = QRectF(
                    -HEX_SIZE + 2 * HEX_SIZE * i / len(colours), -HEX_SIZE, 2 * HEX_SIZE / len(colours), 2 * HEX_SIZE
                )
                painter.setClipRect(part)
                item = HexSetItem(None, colour, outline, width)  # type: ignore[arg-type]
                item.set_hexes([HERE])
                item.paint(painter, QStyleOptionGraphicsItem())
                painter.restore()

        return draw

    return [
        Entry(
            "los-line",
            "Line of sight",
            "green as far as the unit sees, red dashed beyond the blocking hex (10.33)",
            line,
        ),
        Entry(
            "los-hexes",
            "Hexes along a LOS",
            "yellow: passed through; orange: both hexes of a hexside it runs along (10.31 b); blue: a corner",
            shaded(PASSED, ALONG, CORNER),
        ),
        Entry(
            "los-blocking",
            "Blocking hex",
            "red outline, with the rule that blocks",
            shaded(QColor(0, 0, 0, 0), outline=BLOCKED_LINE, width=3.0),
        ),
        Entry("viewshed", "Viewshed", "blue: the hexes a unit in the red hex sees (10.3)", shaded(SEEN)),
        Entry(
            "reach",
            "Movement",
            "the MP to enter each hex, pale cheap to dark dear (8.1)",
            shaded(band_colour(1, 6), band_colour(3, 6), band_colour(6, 6)),
        ),
        Entry(
            "zone",
            "Zone",
            "the hexes of the scenario's zone chosen in the Zones panel",
            shaded(ZONE, outline=ZONE_OUTLINE),
        ),
        Entry(
            "selection",
            "Selected hexes",
            "the hexes the Properties panel edits",
            shaded(SELECTED, outline=SELECTED_OUTLINE),
        ),
    ]
