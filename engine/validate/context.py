"""What a scenario check is given: the scenario, the counters, and (once, lazily) its board,
zones, viewsheds and movement, so that checks share the expensive work."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from engine.geometry.compass import Compass
from engine.geometry.viewshed import Viewsheds
from engine.geometry.zones import ZoneContext, ZoneError, resolve_named
from engine.hexgrid import Hex, LabelError, are_adjacent
from engine.model.board import Board
from engine.model.counters import Counters, bundled_counters
from engine.model.mapsheet import LoadError
from engine.model.scenario import Scenario
from engine.model.source import SourceDocument, SourceError


@dataclass
class ScenarioContext:
    scenario: Scenario
    counters: Counters = field(default_factory=bundled_counters)
    board_error: str | None = None  # why the maps could not be loaded
    load_error: LoadError | None = None

    @property
    def doc(self) -> SourceDocument | None:
        return self.scenario.doc

    @cached_property
    def board(self) -> Board | None:
        """The scenario's maps with its errata; None when they cannot be loaded (reported once)."""
        try:
            return self.scenario.load_board()
        except (SourceError, FileNotFoundError) as exc:
            self.board_error = f"cannot load the maps: {exc}"
        except LoadError as exc:
            self.board_error = f"{exc.file} is not a valid map or errata file"
            self.load_error = exc
        return None

    @cached_property
    def north_ok(self) -> bool:
        """The north indicator is in a hex of the maps and points to an adjacent hex."""
        board = self.board
        if board is None:
            return False
        try:
            return are_adjacent(*(board.hex(label) for label in self.scenario.north))
        except LabelError:
            return False

    @cached_property
    def zones(self) -> ZoneContext | None:
        """Zone resolution on the board; None without a board or a valid north indicator."""
        if self.board is None or not self.north_ok:
            return None
        return self.scenario.zone_context(self.board)

    @property
    def compass(self) -> Compass | None:
        return self.zones.compass if self.zones else None

    def zone(self, name: str) -> frozenset[Hex] | None:
        """A named zone's hexes; None if it cannot be resolved (zone-empty reports why)."""
        if name not in self._zone_cache:
            try:
                self._zone_cache[name] = resolve_named(name, self.zones) if self.zones else None
            except ZoneError:
                self._zone_cache[name] = None
        return self._zone_cache[name]

    @cached_property
    def _zone_cache(self) -> dict[str, frozenset[Hex] | None]:
        return {}

    @cached_property
    def viewsheds(self) -> Viewsheds | None:
        return Viewsheds(self.board) if self.board is not None else None
