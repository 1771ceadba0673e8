"""`iceditor snapshot GAME.jsonl`: the board in play of a saved game drawn to a PNG, after action N
(`--at`, 0: the start; default the end), as one side saw it (`--side`: its View, views.py) or
whole (the referee's view, every unit and secret), at the default play zoom or `--zoom`.

The picture is the map with the play layer over it (editor/play/board_items.py, drawn from the
view alone) under a line that says where the game is: the turn, the phase, who acts, and the
result once there is one; at the end the objective hexes are outlined with who holds them.
"""

from __future__ import annotations

import argparse
import math

from engine.game.state import LETTER, SETUP, GameState
from engine.game.victory import objectives
from engine.game.views import player_view
from engine.model.counters import SIDES
from engine.terminal_text import shown

from .boardarg import BadInput, hex_arg
from .cli_game import replayed
from .cli_snapshot import save_png, start_application, use_offscreen_without_display
from .output import command_error

CAPTION_PX = 15  # the caption's letters, in pixels


def snapshot_game(args: argparse.Namespace) -> int:
    """Draw the game log `args.file` (the snapshot command's arguments) to `args.out`."""
    for name, flag in (("overlay", "--overlay"), ("hover", "--hover"), ("legend", "--legend"), ("size", "--size")):
        if getattr(args, name):
            raise BadInput(command_error("snapshot", f"{flag} draws a scenario or map in the editor, not a game log"))
    if args.side is not None and args.side not in SIDES:
        raise BadInput(command_error("snapshot", f"--side {args.side!r}: one of {', '.join(SIDES)}"))
    if args.at is not None and args.at < 0:
        raise BadInput(command_error("snapshot", f"--at {args.at}: an action number, 0 (the start) or more"))
    if not (0.2 <= args.zoom <= 6.0):
        raise BadInput(command_error("snapshot", f"--zoom {args.zoom:g}: 0.2-6 screen pixels a map unit"))
    use_offscreen_without_display()
    game, log = replayed(args.file, upto=args.at)
    actions = len(log.entries) - 1
    if args.at is not None and args.at > actions:
        raise BadInput(command_error("snapshot", f"--at {args.at}: {args.file} has {actions} actions (0-{actions})"))
    corners = args.frame.split(":") if args.frame else []
    if args.frame and len(corners) != 2:
        raise BadInput(command_error("snapshot", f"--frame {args.frame!r}: expected FROM:TO, two hexes"))
    framed = [hex_arg(game.board, c, args.file) for c in corners]

    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter

    wrap = Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap

    from .editor.hex_layout import HEX_SIZE, hex_polygon
    from .editor.mapview import MapScene
    from .editor.play.board_items import PlayBoardLayer
    from .editor.play.faces import printed_faces

    start_application()
    scene = MapScene(game.board)
    layer = PlayBoardLayer(scene, printed_faces(game.scenario, game.counters))
    if args.side is None:
        layer.show(game.view(None), game.log)
    else:
        view = player_view(game, args.side)
        layer.show(view.data, view.log)
    if game.result is not None:
        layer.set_objectives(objectives(game, args.side))
    if framed:
        rect = hex_polygon(framed[0]).boundingRect().united(hex_polygon(framed[1]).boundingRect())
        rect = rect.adjusted(-HEX_SIZE * 0.5, -HEX_SIZE * 0.5, HEX_SIZE * 0.5, HEX_SIZE * 0.5)
    else:
        rect = scene.sceneRect()
    zoom = args.zoom
    width = math.ceil(rect.width() * zoom)
    text = caption(game, args.side, args.at if args.at is not None else actions, actions)
    font = QFont("DejaVu Sans")
    font.setPixelSize(CAPTION_PX)
    font.setBold(True)
    lines = QFontMetricsF(font).boundingRect(QRectF(0, 0, width - 12, 10_000), wrap, text)
    top = math.ceil(lines.height()) + 10  # the caption wraps on a narrow picture
    height = math.ceil(rect.height() * zoom) + top
    if width * height > 60_000_000:
        too_large = f"{width}x{height} px is too large: --frame a part of the map, or a lower --zoom"
        raise BadInput(command_error("snapshot", too_large))
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#f4f1e8"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, QRectF(0, top, width, height - top), rect, Qt.AspectRatioMode.IgnoreAspectRatio)
    painter.setFont(font)
    painter.setPen(QColor("#111111"))
    painter.drawText(QRectF(6, 5, width - 12, top - 5), wrap, text)
    painter.end()
    save_png(image, args.out, [args.file])
    print(f"{args.out}: {width}x{height} px, {text}")
    return 0


def caption(game: GameState, side: str | None, at: int, actions: int) -> str:
    """Where the game is, in words: its scenario, turn, phase, the side to act, and whose view."""
    if game.phase == SETUP:
        where = "set-up"
    elif game.result is not None:
        where = f"the end, turn {game.turn}"
    else:
        letter = LETTER.get(game.phase)
        phase = game.phase.replace("_", " ") + (f" ({letter})" if letter else "")
        where = f"turn {game.turn}, {game.phasing} {phase}"
    acting = f", {game.to_act} to act" if game.to_act and game.result is None else ""
    seen = f"as the {side.capitalize()} saw it" if side else "the whole board"
    result = ""
    if game.result is not None:
        winner = game.result.get("winner")
        result = f"; {'a draw' if winner == 'draw' else f'{winner} victory'} ({game.result.get('by')})"
    return f"{shown(game.scenario.title)}: {where}{acting}, after action {at} of {actions}, {seen}{result}"
