"""A scenario: everything rule 24.1 lists, as the scenario file states it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.geometry.compass import Compass
from engine.geometry.zones import ZoneContext
from engine.problems import count_errors

from .board import Board, load_board
from .counters import SIDES
from .load_errors import LoadError
from .schema import schema_problems
from .source import JsonPath, SourceDocument, load_yaml

UNIT_KINDS = ("squad", "commander", "crew_weapon", "afv")

# Format 2 (docs/formats.md) says whether a two-LMG squad's ammo is one pool or each LMG's.
LATEST_FORMAT = "iron-cross-scenario/2"


@dataclass(frozen=True)
class SquadAmmo:
    """A squad's ammo points (24.1): `split` is "pool" (both LMGs fire from one number), "each"
    (every LMG has the number) or None (a bare number, which only a one-LMG squad can leave so)."""

    points: int
    split: str | None

    @staticmethod
    def of(value: Any) -> SquadAmmo:
        if isinstance(value, dict):
            ((split, points),) = value.items()
            return SquadAmmo(int(points), str(split))
        return SquadAmmo(int(value), None)

    def describe(self) -> str:
        """`18`, `18, one pool` or `20 each`."""
        return {None: f"{self.points}", "pool": f"{self.points}, one pool", "each": f"{self.points} each"}[self.split]


@dataclass(frozen=True)
class UnitRef:
    """A unit (or squad) a scenario fields, as in its set-up list."""

    side: str
    kind: str  # squad | commander | crew_weapon | afv
    type: str  # squad letter, commander rank, CW or AFV type
    number: int | None
    pr: int | None
    data: dict[str, Any]
    path: JsonPath

    def describe(self) -> str:
        return describe_unit(self.kind, self.type, self.number, self.pr)


def describe_unit(kind: str, type_: str, number: int | None, pr: int | None) -> str:
    """A unit as the set-up lists print it: "Squad C", "PL PR10", "MMG #1"."""
    if kind == "squad":
        return f"Squad {type_}"
    if kind == "commander":
        return type_ + (f" PR{pr}" if pr is not None else "")
    return f"{type_} #{number}"


@dataclass
class Scenario:
    number: int
    title: str
    maps: list[str]
    errata: bool | str
    north: tuple[str, str]
    game_length: int
    zones: dict[str, dict[str, Any]]
    units: list[UnitRef]
    data: dict[str, Any]
    file: str = "<memory>"
    doc: SourceDocument | None = field(default=None, repr=False)

    @property
    def format_version(self) -> int:
        return int(str(self.data.get("format", LATEST_FORMAT)).rsplit("/", 1)[1])

    @property
    def folder(self) -> Path:
        return Path(self.file).parent

    def load_board(self) -> Board:
        return load_board(self.maps, self.errata, relative_to=self.folder)

    def zone_context(self, board: Board) -> ZoneContext:
        compass = Compass.from_indicator(board.hex(self.north[0]), board.hex(self.north[1]))
        named = {name: zone["area"] for name, zone in self.zones.items()}
        maps = dict(zip(self.maps, board.maps, strict=True))
        return ZoneContext(board, compass, named, maps)

    def zone_expressions(self) -> Iterator[tuple[JsonPath, Any]]:
        """Every zone expression of the file with its path: named zones first, then uses."""
        for name, zone in self.zones.items():
            yield ("zones", name, "area"), zone["area"]
        yield from _zone_fields(self.data, ())


def _zone_fields(data: Any, path: JsonPath) -> Iterator[tuple[JsonPath, Any]]:
    if isinstance(data, dict):
        for key, value in data.items():
            if path == () and key == "zones":
                continue
            if key == "zone":
                yield (*path, key), value
            else:
                yield from _zone_fields(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _zone_fields(value, (*path, i))


def _units(data: dict[str, Any]) -> list[UnitRef]:
    """The units of the set-up lists; in a half-made file (`partial_scenario`) what is not yet a
    unit (a group without `units:`, an entry naming no kind) is passed over."""
    refs = []
    for side in SIDES:
        for g, group in enumerate(_list(_mapping(_mapping(data.get("sides")).get(side)).get("groups"))):
            for u, unit in enumerate(_list(_mapping(group).get("units"))):
                kind = next((k for k in UNIT_KINDS if k in _mapping(unit)), None)
                if kind is None:
                    continue
                refs.append(
                    UnitRef(
                        side,
                        kind,
                        str(unit[kind]),
                        unit.get("number"),
                        unit.get("pr"),
                        unit,
                        ("sides", side, "groups", g, "units", u),
                    )
                )
    return refs


def scenario_from_document(doc: SourceDocument, *, checked: bool = False) -> Scenario:
    """The scenario a document holds; LoadError if it does not meet the schema (`checked`: the
    caller has just found that it does, as the validator has before its scenario checks)."""
    if not checked:
        problems = list(schema_problems(doc, "scenario"))
        if count_errors(problems):
            raise LoadError(doc.file, problems)
    d: dict[str, Any] = doc.data
    return Scenario(
        number=d["number"],
        title=d["title"],
        maps=list(d["maps"]),
        errata=d.get("errata", True),
        north=(d["north"]["hex"], d["north"]["toward"]),
        game_length=d["game_length"],
        zones=dict(d.get("zones") or {}),
        units=_units(d),
        data=d,
        file=doc.file,
        doc=doc,
    )


def partial_scenario(doc: SourceDocument) -> Scenario:
    """The scenario of a half-made file (a new one, or one still being written): what it states,
    and neutral values for what it lacks or states wrongly (no title, no maps, north nowhere, no
    turns), so that an editor can show it while the schema's problems are listed. Never for
    play or for the scenario checks, which run only on a file that meets the schema."""
    d = _mapping(doc.data)
    north = _mapping(d.get("north"))
    errata = d.get("errata", True)
    return Scenario(
        number=d["number"] if type(d.get("number")) is int else 0,
        title=d["title"] if isinstance(d.get("title"), str) else "",
        maps=[str(m) for m in _list(d.get("maps")) if isinstance(m, str | int) and str(m)],
        errata=errata if isinstance(errata, bool | str) else True,
        north=(str(north.get("hex", "")), str(north.get("toward", ""))),
        game_length=d["game_length"] if type(d.get("game_length")) is int else 0,
        zones={str(k): z for k, z in _mapping(d.get("zones")).items() if isinstance(z, dict) and "area" in z},
        units=_units(d),
        data=d,
        file=doc.file,
        doc=doc,
    )


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def load_scenario(path: Path | str) -> Scenario:
    return scenario_from_document(load_yaml(path))
