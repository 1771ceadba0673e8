"""Zones: expressions in scenario files that resolve to sets of hexes on the board.

Scenario instructions name areas in words ("north of road 1014-1315-...-3014", "east of hex
column 35xx (exclusive)", "any building or tree hex adjacent to the road"); a zone expression
says the same in data and resolves against the assembled board, so an erratum or a repainted
map changes the zone with it. The grammar is in docs/formats.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from engine.hexgrid import Hex, hex_line, hex_to_offset, hex_to_point, parse_label
from engine.model.board import Board, NoPathError, UnknownHexError
from engine.model.mapsheet import MapSheet

from .compass import BEARINGS, Compass, edge_facing

if TYPE_CHECKING:
    from shapely import LineString, Point

Expr = Mapping[str, Any]
Path = tuple[str | int, ...]


class ZoneError(ValueError):
    """An expression that cannot be resolved; `path` locates the culprit inside the expression."""

    def __init__(self, message: str, path: Path = (), hex: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.hex = hex  # the label of a hex the message names


@dataclass
class ZoneContext:
    board: Board
    compass: Compass
    named: Mapping[str, Expr] = field(default_factory=dict)
    maps: Mapping[str, MapSheet] = field(default_factory=dict)
    _cache: dict[str, frozenset[Hex]] = field(default_factory=dict)
    _resolving: list[str] = field(default_factory=list)
    # Expressions that do not read terrain (hex lists, lines, map edges, roads, sides of them):
    # kept across terrain edits (Board.set_terrain), since an edit cannot change them.
    _geometric: dict[str, frozenset[Hex]] = field(default_factory=dict)
    # Those with a gully leg read the hexes' Gully flags only: kept until an edit changes one.
    _along_gullies: dict[str, frozenset[Hex]] = field(default_factory=dict)

    def terrain_changed(self) -> None:
        """The board's terrain was edited (its `previous`: the hexes before): named zones are resolved
        again; expressions that do not read terrain are kept, those along gullies unless a Gully changed."""
        self._cache.clear()
        if any(before.gully != self.board.terrain(h).gully for h, before in self.board.previous.items()):
            self._along_gullies.clear()


TERRAIN_TESTS: dict[str, Callable[[Any], bool]] = {
    "clear": lambda t: t.is_clear,
    "woods": lambda t: t.is_woods,
    "trees": lambda t: t.trees >= 1,
    "building": lambda t: t.building is not None,
    "marsh": lambda t: t.marsh,
    "gully": lambda t: t.gully,
    "road": lambda t: t.road,
    "bridge": lambda t: t.bridge,
    "hill": lambda t: t.level > 0 or t.hill is not None,
}


def resolve(expr: Expr, ctx: ZoneContext, path: Path = ()) -> frozenset[Hex]:
    """The hexes an expression names. ZoneError for an expression that names nothing resolvable."""
    if not isinstance(expr, Mapping) or len(expr) != 1:
        raise ZoneError("a zone expression is a mapping with exactly one key", path)
    ((key, arg),) = expr.items()
    handler = _HANDLERS.get(key)
    if handler is None:
        raise ZoneError(f"unknown zone expression {key!r} (known: {', '.join(sorted(_HANDLERS))})", path)
    if key not in _GEOMETRIC:
        return handler(arg, ctx, (*path, key))
    kept = ctx._along_gullies if "gully" in json.dumps(arg) else ctx._geometric
    memo = json.dumps(expr, sort_keys=True)
    if memo not in kept:
        kept[memo] = handler(arg, ctx, (*path, key))
    return kept[memo]


def resolve_named(name: str, ctx: ZoneContext, path: Path = ()) -> frozenset[Hex]:
    if name in ctx._cache:
        return ctx._cache[name]
    if name not in ctx.named:
        raise ZoneError(f"no zone named {name!r} (zones: {', '.join(sorted(ctx.named)) or 'none'})", path)
    if name in ctx._resolving:
        raise ZoneError(f"zone {name!r} refers to itself: {' -> '.join([*ctx._resolving, name])}", path)
    ctx._resolving.append(name)
    try:
        result = resolve(ctx.named[name], ctx, ("zones", name, "area"))
    finally:
        ctx._resolving.pop()
    ctx._cache[name] = result
    return result


def _hex(label: Any, ctx: ZoneContext, path: Path) -> Hex:
    try:
        return ctx.board.hex(str(label))
    except UnknownHexError as exc:
        raise ZoneError(str(exc), path, hex=str(label)) from None
    except ValueError as exc:
        raise ZoneError(str(exc), path) from None


def _hexes(arg: Sequence[str], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    return frozenset(_hex(label, ctx, (*path, i)) for i, label in enumerate(arg))


def _line(arg: Sequence[str], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    if len(arg) != 2:
        raise ZoneError("a line names two hexes: [FROM, TO]", path)
    a, b = _hex(arg[0], ctx, (*path, 0)), _hex(arg[1], ctx, (*path, 1))
    return frozenset(hex_line(a, b))


def _map(arg: str, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    sheet = _sheet(arg, ctx, path)
    return sheet.hexes() & ctx.board.hexes


def _sheet(name: str, ctx: ZoneContext, path: Path) -> MapSheet:
    if name not in ctx.maps:
        raise ZoneError(f"map {name!r} is not one of this scenario's maps ({', '.join(ctx.maps)})", path)
    return ctx.maps[name]


def _map_edge(arg: Any, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    if isinstance(arg, str):
        direction, hexes = arg, ctx.board.hexes
    else:
        direction = arg.get("edge")
        hexes = _map(arg["map"], ctx, (*path, "map")) if "map" in arg else ctx.board.hexes
    if direction not in BEARINGS:
        raise ZoneError(f"{direction!r} is not a compass direction ({', '.join(BEARINGS)})", path)
    try:
        edge = edge_facing(ctx.compass, direction)
    except ValueError as exc:
        raise ZoneError(str(exc), path) from None
    return edge_hexes(hexes, edge, ctx.board)


def edge_hexes(hexes: frozenset[Hex], edge: str, board: Board) -> frozenset[Hex]:
    """The hexes of a rectangular block of hexes on one of its borders (top, bottom, left, right);
    kept with the board, whose hexes no edit changes (entry-off-edge asks after every one)."""
    kept: dict[tuple[frozenset[Hex], str], frozenset[Hex]] = board.caches.setdefault("edge hexes", {})
    if (hexes, edge) not in kept:
        kept[hexes, edge] = _edge_hexes(hexes, edge, board)
    return kept[hexes, edge]


def _edge_hexes(hexes: frozenset[Hex], edge: str, board: Board) -> frozenset[Hex]:
    offsets = {h: hex_to_offset(h, board.offset) for h in hexes}
    columns = [c for c, _ in offsets.values()]
    rows = [r for _, r in offsets.values()]
    index, value = {
        "top": (1, min(rows)),
        "bottom": (1, max(rows)),
        "left": (0, min(columns)),
        "right": (0, max(columns)),
    }[edge]
    return frozenset(h for h, position in offsets.items() if position[index] == value)


def _hill(arg: Any, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    if arg == "any":
        return frozenset(h for h in ctx.board.hexes if TERRAIN_TESTS["hill"](ctx.board.terrain(h)))
    hills = ctx.board.hills()
    if str(arg) not in hills:
        raise ZoneError(f"no hill {arg!r} on {ctx.board.describe()} (hills: {', '.join(hills) or 'none'})", path)
    return hills[str(arg)]


def _building(arg: Any, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    buildings = ctx.board.buildings()
    if arg == "any":
        return frozenset().union(*buildings.values())
    if arg == "multi_hex":
        return frozenset().union(*(b for b in buildings.values() if len(b) > 1))
    if str(arg) not in buildings:
        raise ZoneError(f"no building {arg!r} on {ctx.board.describe()}", path)
    return buildings[str(arg)]


def _terrain(arg: str, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    test = TERRAIN_TESTS.get(arg)
    if test is None:
        raise ZoneError(f"unknown terrain {arg!r} (known: {', '.join(TERRAIN_TESTS)})", path)
    return frozenset(h for h in ctx.board.hexes if test(ctx.board.terrain(h)))


def _road(arg: Sequence[str], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    return frozenset(_route_hexes([{"road": arg}], ctx, path, leg_paths=[path[:-1]]))


def _adjacent_to(arg: Expr, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    inner = resolve(arg, ctx, path)
    return frozenset(n for h in inner for n in ctx.board.neighbours(h)) - inner


def _any_of(arg: Sequence[Expr], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    return frozenset().union(*(resolve(e, ctx, (*path, i)) for i, e in enumerate(arg)))


def _all_of(arg: Sequence[Expr], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    sets = [resolve(e, ctx, (*path, i)) for i, e in enumerate(arg)]
    return frozenset.intersection(*sets) if sets else frozenset()


def _minus(arg: Sequence[Expr], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    if len(arg) != 2:
        raise ZoneError("minus takes two expressions: [FROM, LESS]", path)
    return resolve(arg[0], ctx, (*path, 0)) - resolve(arg[1], ctx, (*path, 1))


def _zone(arg: str, ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    return resolve_named(str(arg), ctx, path)


# -- side_of ---------------------------------------------------------------------------------

LEG_KINDS = ("road", "gully", "straight")


def _route_hexes(legs: Sequence[Expr], ctx: ZoneContext, path: Path, leg_paths: list[Path]) -> list[Hex]:
    """The hexes of a route made of road, gully and straight legs, in order."""
    hexes: list[Hex] = []
    for leg, leg_path in zip(legs, leg_paths, strict=True):
        if not isinstance(leg, Mapping) or len(leg) != 1 or next(iter(leg)) not in LEG_KINDS:
            raise ZoneError(f"a route leg is one of {', '.join(LEG_KINDS)}: {{road: [HEX, ...]}}", leg_path)
        ((kind, waypoints),) = leg.items()
        for i, label in enumerate(waypoints):
            _hex(label, ctx, (*leg_path, kind, i))
        try:
            if kind == "road":
                part = ctx.board.road_path(waypoints)
            elif kind == "gully":
                part = ctx.board.gully_path(waypoints)
            else:
                part = [parse_label(str(w), ctx.board.offset) for w in waypoints]
        except NoPathError as exc:
            raise ZoneError(str(exc), (*leg_path, kind)) from None
        hexes.extend(part)
    return hexes


def _side_of(arg: Mapping[str, Any], ctx: ZoneContext, path: Path) -> frozenset[Hex]:
    side = arg.get("side")
    if side not in BEARINGS:
        raise ZoneError(f"side {side!r} is not a compass direction ({', '.join(BEARINGS)})", (*path, "side"))
    include = arg.get("boundary", "exclude") == "include"
    direction = ctx.compass.vector(side)
    if "column" in arg or "row" in arg:
        return _side_of_number(arg, direction, include, ctx, path)
    kinds = [k for k in (*LEG_KINDS, "route") if k in arg]
    if len(kinds) != 1:
        raise ZoneError("side_of needs exactly one of road, gully, straight, route, column, row", path)
    kind = kinds[0]
    if kind == "route":
        legs = list(arg["route"])
        leg_paths: list[Path] = [(*path, "route", i) for i in range(len(legs))]
    else:
        legs = [{kind: arg[kind]}]
        leg_paths = [path]
    line_hexes = _route_hexes(legs, ctx, path, leg_paths)
    if len(line_hexes) < 2:
        raise ZoneError("the line of a side_of needs at least two hexes", path)
    return split_side(ctx.board, line_hexes, direction, include, side, path)


def _side_of_number(
    arg: Mapping[str, Any], direction: tuple[float, float], include: bool, ctx: ZoneContext, path: Path
) -> frozenset[Hex]:
    # "east of hex column 35xx", "south of hexrow xx06": by the printed numbers, not geometry.
    index, number, (dx, dy) = (0, arg["column"], direction) if "column" in arg else (1, arg["row"], direction)
    along = dx if index == 0 else dy
    across = dy if index == 0 else dx
    if abs(along) < abs(across):
        what = "column" if index == 0 else "row"
        raise ZoneError(f"the {arg['side']} side of a hex {what} is not defined: the {what} runs {arg['side']}", path)
    result = set()
    for h in ctx.board.hexes:
        value = hex_to_offset(h, ctx.board.offset)[index]
        if value == number:
            if include:
                result.add(h)
        elif (value > number) == (along > 0):
            result.add(h)
    return frozenset(result)


def split_side(
    board: Board, line_hexes: Sequence[Hex], direction: tuple[float, float], include: bool, side: str, path: Path
) -> frozenset[Hex]:
    """The board hexes on the `direction` side of the line through the hex centres.

    The line is extended straight beyond both ends past the border, and shapely splits the
    board's bounding box along it. Which piece is the named side: the side the line's
    right-hand normals, summed along its length, point to (or away from).
    """
    # shapely (0.05 s to import, numpy aside) only for a zone on one side of a line, not at every start
    from shapely import LineString, Point, Polygon, prepared
    from shapely.geometry import box
    from shapely.ops import split

    points = [hex_to_point(h) for h in line_hexes]
    points = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    xs = [hex_to_point(h)[0] for h in board.hexes]
    ys = [hex_to_point(h)[1] for h in board.hexes]
    frame = box(min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2)
    reach = 2 * (frame.bounds[2] - frame.bounds[0] + frame.bounds[3] - frame.bounds[1])
    line = LineString([_extend(points[1], points[0], reach), *points, _extend(points[-2], points[-1], reach)])
    pieces = [g for g in split(frame, line).geoms if isinstance(g, Polygon) and g.area > 1e-9]
    if len(pieces) < 2:
        raise ZoneError("the line does not divide the map in two", path)

    # Sum of right-hand normals (on a y-down sheet, right of (x, y) is (-y, x)).
    coords = list(line.coords)[1:-1]
    nx_sum = sum(-(b[1] - a[1]) for a, b in pairwise(coords))
    ny_sum = sum(b[0] - a[0] for a, b in pairwise(coords))
    facing = nx_sum * direction[0] + ny_sum * direction[1]
    if abs(facing) < 1e-6 * max(1.0, abs(nx_sum) + abs(ny_sum)):
        raise ZoneError(f"the line runs {side}: it has no {side} side", path)
    want_right = facing > 0

    boundary = set(line_hexes)
    chosen = [prepared.prep(p) for p in pieces if _is_right_of(line, p.representative_point()) == want_right]
    result = set()
    for h in board.hexes:
        if h in boundary:
            if include:
                result.add(h)
            continue
        centre = Point(hex_to_point(h))
        if line.distance(centre) < 1e-9:
            if include:
                result.add(h)
        elif any(p.contains(centre) for p in chosen):
            result.add(h)
    return frozenset(result)


def _extend(a: tuple[float, float], b: tuple[float, float], reach: float) -> tuple[float, float]:
    """A point `reach` beyond b on the line from a through b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    return b[0] + dx / length * reach, b[1] + dy / length * reach


def _is_right_of(line: LineString, point: Point) -> bool:
    d = line.project(point)
    q = line.interpolate(d)
    a = line.interpolate(max(d - 1e-3, 0.0))
    b = line.interpolate(min(d + 1e-3, line.length))
    tx, ty = b.x - a.x, b.y - a.y
    return bool(tx * (point.y - q.y) - ty * (point.x - q.x) > 0)


_GEOMETRIC = frozenset({"hexes", "line", "map", "map_edge", "side_of", "road"})  # gully routes read terrain
_HANDLERS: dict[str, Callable[[Any, ZoneContext, Path], frozenset[Hex]]] = {
    "hexes": _hexes,
    "line": _line,
    "map": _map,
    "map_edge": _map_edge,
    "side_of": _side_of,
    "hill": _hill,
    "building": _building,
    "terrain": _terrain,
    "road": _road,
    "adjacent_to": _adjacent_to,
    "any_of": _any_of,
    "all_of": _all_of,
    "minus": _minus,
    "zone": _zone,
}
