"""`iceditor snapshot` and `iceditor render`: the editor window, or the map alone, drawn to a file.

snapshot: the main window with a file open, and optionally an overlay (a line of sight, a
viewshed, a unit's reach) as a user would make it with the tools, saved as a PNG for
documentation and tests. render: the map, print-ready (every hex with its label and
terrain, roads and bridges, a scenario's set-up and NORTH indicator) with its title, a north
arrow and the legend beside it, as SVG or as a PNG at a print resolution.

Both draw offscreen: on a machine without a display (no DISPLAY or WAYLAND_DISPLAY) Qt is
told so before the application starts, and the window is never put on a screen.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.file_writing import atomic_write, refuse_inputs
from engine.geometry.movement import MovementError, Mover, UnitClass, allowance
from engine.hexgrid import Hex

from .boardarg import BadInput, hex_arg
from .display import display_missing
from .editor.play.faces import PLAY_ZOOM
from .file_args import file_arg
from .output import command_error, file_error

if TYPE_CHECKING:
    from .editor.document import EditorDocument
    from .editor.window import MainWindow

OVERLAYS = "los:FROM:TO, viewshed:HEX, zones:SEEING:SEEN or reach:HEX:UNIT[:MP]"
HEX_MM = 16.0  # across the flats: room for 1/2-inch counters (assumed; the rulebook gives no map scale)


def add_parsers(commands: Any) -> None:
    snapshot = commands.add_parser(
        "snapshot",
        description="Open FILE in the editor offscreen, optionally show overlays, and save the window as a PNG.",
    )
    snapshot.add_argument(
        "file",
        type=file_arg,
        metavar="FILE",
        help="a scenario or map file, or a bundled name (s6); or a saved game (.jsonl): its board in play",
    )
    snapshot.add_argument("--out", type=Path, required=True, metavar="PNG")
    snapshot.add_argument(
        "--overlay",
        action="append",
        default=[],
        metavar="SPEC",
        help=(
            f"{OVERLAYS} (SEEING, SEEN: zone names of the scenario; UNIT: {', '.join(u.value for u in UnitClass)};"
            " MP: a CW's Movement Factor); repeatable"
        ),
    )
    snapshot.add_argument(
        "--hover", metavar="HEX", help="the cursor over HEX: the movement overlay draws its cheapest path to it"
    )
    snapshot.add_argument(
        "--frame",
        metavar="FROM:TO",
        help="frame the hexes from FROM to TO (two corners) in place of the overlays'",
    )
    snapshot.add_argument("--legend", action="store_true", help="show the Legend panel (View > Legend)")
    snapshot.add_argument("--size", metavar="WxH", help="window size in pixels (default 1400x900)")
    snapshot.add_argument("--at", type=int, metavar="N", help="a game: after action N (0: the start; default: the end)")
    snapshot.add_argument("--side", metavar="SIDE", help="a game: as german or russian saw it (default: whole)")
    snapshot.add_argument(
        "--zoom",
        type=float,
        default=PLAY_ZOOM,
        help=f"a game: screen pixels a map unit (default {PLAY_ZOOM:g}, the play zoom: counters legible)",
    )
    render = commands.add_parser(
        "render",
        description="Draw the map of FILE (a map, or a scenario's maps with its errata): hex labels, all terrain.",
    )
    render.add_argument("file", type=file_arg, metavar="FILE", help="a scenario or map file, or a bundled name (map2)")
    render.add_argument("--out", type=Path, required=True, metavar="PNG|SVG")
    render.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300)")
    render.add_argument(
        "--hex-mm", type=float, default=HEX_MM, help=f"hex width across the flats in mm (default {HEX_MM:g})"
    )
    render.add_argument(
        "--no-legend", action="store_true", help="the map alone, without the title, north arrow and legend beside it"
    )


def run(args: argparse.Namespace) -> int | None:
    if args.command == "snapshot":
        return _snapshot(args)
    if args.command == "render":
        return _render(args)
    return None


def use_offscreen_without_display() -> None:
    """Qt cannot open a window on a Unix machine without a display: draw offscreen instead."""
    if display_missing():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


def start_application() -> None:
    """The Qt application the pictures are drawn in (offscreen without a display)."""
    from .editor.app import application

    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        _without_offscreen_chatter()
    application()


def _open(path: Path) -> EditorDocument:
    from .editor.app import OpenFailed, load

    start_application()
    try:
        return load(path)
    except OpenFailed as exc:
        raise BadInput(str(exc)) from None  # load_failure names the file, line and rule


def _without_offscreen_chatter() -> None:
    """The offscreen platform warns that it "does not support propagateSizeHints()" for every
    window it draws: true, and of no use to the user; other Qt messages still print."""
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


# -- snapshot -----------------------------------------------------------------------------------


def _snapshot(args: argparse.Namespace) -> int:
    if args.file.suffix.lower() == ".jsonl":  # a saved game (engine/game/log.py)
        from .cli_game_snapshot import snapshot_game

        _suffix(args.out, (".png",), "snapshot")
        return snapshot_game(args)
    for name, flag in (("at", "--at"), ("side", "--side")):
        if getattr(args, name) is not None:
            raise BadInput(command_error("snapshot", f"{flag} is for a saved game (.jsonl), not {args.file}"))
    size = _size(args.size or "1400x900")
    corners = args.frame.split(":") if args.frame else []
    if args.frame and len(corners) != 2:
        raise BadInput(f"iceditor snapshot: --frame {args.frame!r}: expected FROM:TO, two hexes")
    _suffix(args.out, (".png",), "snapshot")
    use_offscreen_without_display()
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget

    from .editor.app import application
    from .editor.window import MainWindow

    document = _open(args.file)
    app = application()
    window = MainWindow(document)
    window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    window.setMinimumSize(*size)  # an explicit minimum: the docks' own minimums no longer grow the window
    window.resize(*size)
    window.show()
    app.processEvents()
    framed: list[Hex] = []
    for spec in args.overlay:
        framed += _overlay(window, spec, args.file)
    if corners:
        framed = [hex_arg(document.board, c, args.file) for c in corners]
    if args.legend:
        legend = next(d for d in window.findChildren(QDockWidget) if d.objectName() == "legend")
        legend.show()
        legend.raise_()
    if args.hover and window.tool is not None:
        window.tool.hover(hex_arg(document.board, args.hover, args.file))
    app.processEvents()  # the docks the overlays opened take their place before the map is framed
    _frame(window, framed, exact=bool(args.frame))
    app.processEvents()
    picture = window.grab()
    save_png(picture, args.out, [args.file])
    window.deleteLater()
    app.processEvents()
    print(f"{args.out}: {picture.width()}x{picture.height()} px, the editor window with {args.file}")
    return 0


def save_png(picture: Any, out: Path, inputs: list[Path]) -> None:
    """A QImage or QPixmap written as PNG by the rules of every save (engine/file_writing.py): atomic,
    a device written in place, a folder or an input of the command refused with words."""
    from PySide6.QtCore import QBuffer, QIODevice

    refuse_inputs(out, inputs, "the file drawn")
    data = QBuffer()
    data.open(QIODevice.OpenModeFlag.WriteOnly)
    if not picture.save(data, "PNG"):
        raise BadInput(file_error(out, "cannot write the picture"))
    atomic_write(out, bytes(data.data().data()))


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise BadInput(command_error("snapshot", f"--size {text!r}: expected WxH in pixels, e.g. 1400x900")) from None
    if not (320 <= width <= 8000 and 240 <= height <= 8000):
        raise BadInput(command_error("snapshot", f"--size {text!r}: width 320-8000 and height 240-8000 pixels"))
    return width, height


def _suffix(path: Path, allowed: tuple[str, ...], command: str) -> str:
    suffix = path.suffix.lower()
    if suffix not in allowed:
        raise BadInput(command_error(command, f"--out {path}: the file name must end in {' or '.join(allowed)}"))
    return suffix


def _overlay(window: MainWindow, spec: str, path: Path) -> list[Hex]:
    """Show one overlay with its tool, as a user would; the hexes the picture should frame."""
    kind, _, rest = spec.partition(":")
    parts = rest.split(":") if rest else []
    board = window.document.board
    if kind == "los" and len(parts) == 2:
        source, target = (hex_arg(board, p, path) for p in parts)
        window.use_tool("los")
        window.tools["los"].show_line(source, target)  # type: ignore[attr-defined]
        return [source, target]
    if kind == "viewshed" and len(parts) == 1:
        window.use_tool("viewshed")
        window.tools["viewshed"].show_from(hex_arg(board, parts[0], path))  # type: ignore[attr-defined]
        return sorted(board.hexes)
    if kind == "zones" and len(parts) == 2:
        viewshed: Any = window.tools["viewshed"]
        names = viewshed.zone_names()
        for name in parts:
            if name not in names:
                zones = ", ".join(names) or "none"
                raise BadInput(command_error("snapshot", f"--overlay {spec}: no zone {name!r} (zones: {zones})"))
        window.use_tool("viewshed")
        counts = viewshed.show_zones(*parts)
        if not counts:
            raise BadInput(command_error("snapshot", f"--overlay {spec}: {viewshed.result.text()}"))
        return sorted(board.hexes)
    if kind == "reach" and len(parts) in (2, 3):
        start = hex_arg(board, parts[0], path)
        mover = _mover(spec, parts[1:])
        tool: Any = window.tools["movement"]
        window.use_tool("movement")
        tool.set_mover(mover)
        found = tool.show_reach(start)
        if found is None:
            raise BadInput(command_error("snapshot", f"--overlay {spec}: {tool.result.text()}"))
        return list(found.costs)
    raise BadInput(command_error("snapshot", f"--overlay {spec!r}: expected {OVERLAYS}"))


def _mover(spec: str, parts: list[str]) -> Mover:
    try:
        mover = Mover(UnitClass(parts[0]), mp=float(parts[1]) if len(parts) > 1 else None)
        allowance(mover)
    except MovementError as exc:
        raise BadInput(command_error("snapshot", f"--overlay {spec}: {exc} (reach:HEX:cw:MP)")) from None
    except ValueError:
        units = ", ".join(u.value for u in UnitClass)
        raise BadInput(command_error("snapshot", f"--overlay {spec}: UNIT is one of {units}, MP a number")) from None
    return mover


def _frame(window: MainWindow, hexes: list[Hex], exact: bool = False) -> None:
    """Fit the map in the view, or the overlays' hexes with a margin (at least a dozen hexes across);
    `exact`: the hexes alone (--frame)."""
    if not hexes:
        window.fit()
        return
    from PySide6.QtCore import QRectF, Qt

    from .editor.mapview import HEX_SIZE, hex_polygon
    from .editor.overlays import Tag

    rect = QRectF()
    for h in hexes:
        rect = rect.united(hex_polygon(h).boundingRect())
    for item in window.scene.layers["overlays"].childItems():
        if isinstance(item, Tag) and item.text:  # a rule or a cost written beside its hex
            rect = rect.united(item.mapRectToScene(item.drawn()))
    least_x, least_y = (0.0, 0.0) if exact else (12 * 1.5 * HEX_SIZE, 8 * math.sqrt(3) * HEX_SIZE)
    margin = HEX_SIZE * (0.0 if exact else 2)
    grow_x = max(0.0, least_x - rect.width()) / 2 + margin
    grow_y = max(0.0, least_y - rect.height()) / 2 + margin
    window.view.fitInView(rect.adjusted(-grow_x, -grow_y, grow_x, grow_y), Qt.AspectRatioMode.KeepAspectRatio)


# -- render -------------------------------------------------------------------------------------


def _render(args: argparse.Namespace) -> int:
    suffix = _suffix(args.out, (".png", ".svg"), "render")
    if not (50 <= args.dpi <= 1200) or not (5.0 <= args.hex_mm <= 60.0):
        raise BadInput(command_error("render", "--dpi 50-1200 and --hex-mm 5-60"))
    use_offscreen_without_display()
    from PySide6.QtCore import QBuffer, QRectF, QSize
    from PySide6.QtGui import QColor, QImage, QPainter

    from .editor.mapview import HEX_SIZE
    from .editor.print_sheet import sheet

    document = _open(args.file)
    page = sheet(document, args.hex_mm, legend=not args.no_legend)
    mm_per_unit = args.hex_mm / (math.sqrt(3) * HEX_SIZE)
    units_wide, units_high = page.size()
    width_mm, height_mm = units_wide * mm_per_unit, units_high * mm_per_unit
    if suffix == ".svg":
        from PySide6.QtSvg import QSvgGenerator

        # 96 units per inch, as on screen: the labels keep their size relative to the hexes
        width, height = round(width_mm / 25.4 * 96), round(height_mm / 25.4 * 96)
        generator = QSvgGenerator()
        svg = QBuffer()  # written to the file as any save is (engine/file_writing.py), not by Qt
        generator.setOutputDevice(svg)
        generator.setResolution(96)
        generator.setSize(QSize(width, height))
        generator.setViewBox(QRectF(0, 0, width, height))
        generator.setTitle(f"{page.title}: map")
        generator.setDescription(f"iceditor render {args.file}: hexes {args.hex_mm:g} mm across the flats")
        device: Any = generator
    else:
        width, height = round(width_mm / 25.4 * args.dpi), round(height_mm / 25.4 * args.dpi)
        device = QImage(width, height, QImage.Format.Format_RGB32)
        device.fill(QColor("white"))
    painter = QPainter(device)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    page.paint(painter, width / units_wide)
    painter.end()
    if suffix == ".png":
        dots_per_metre = round(args.dpi / 0.0254)  # the print size travels with the file
        device.setDotsPerMeterX(dots_per_metre)
        device.setDotsPerMeterY(dots_per_metre)
        save_png(device, args.out, [args.file])
    else:
        refuse_inputs(args.out, [args.file], "the file drawn")
        atomic_write(args.out, bytes(svg.data().data()))
    print(
        f"{args.out}: {width}x{height} {'px' if suffix == '.png' else 'SVG units'}, {width_mm:.0f}x{height_mm:.0f} mm"
    )
    return 0
