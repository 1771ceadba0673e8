"""What a scenario check is given: the scenario, the counters, and (once, lazily) its board,
zones, viewsheds and movement, so that checks share the expensive work."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from engine.geometry.compass import Compass
from engine.geometry.movement import Mover
from engine.geometry.turns import SearchLabels, TurnSearch, turns_searches
from engine.geometry.zones import ZoneContext, ZoneError, resolve_named
from engine.hexgrid import Hex, LabelError, are_adjacent
from engine.model.board import Board
from engine.model.counters import Counters, bundled_counters
from engine.model.load_errors import LoadError
from engine.model.scenario import Scenario
from engine.model.source import SourceDocument, SourceError

if TYPE_CHECKING:  # imported by the first check that asks (numpy with it): an editor opens without
    from engine.geometry.viewshed import Viewsheds


@dataclass
class ScenarioContext:
    scenario: Scenario
    counters: Counters = field(default_factory=bundled_counters)
    board_given: InitVar[Board | None] = None  # the maps as an editor holds them, instead of the files
    board_error: str | None = None  # why the maps could not be loaded
    load_error: LoadError | None = None
    used_board: bool = False  # set when a check asks for the board (it must rerun after terrain edits)

    def __post_init__(self, board_given: Board | None) -> None:
        if board_given is not None:
            board_given.watchers.append(self._terrain_changed)
            self.__dict__["_board"] = board_given

    @property
    def doc(self) -> SourceDocument | None:
        return self.scenario.doc

    @property
    def board(self) -> Board | None:
        """The scenario's maps with its errata; None when they cannot be loaded (reported once).

        Asking for it (or for anything built on it) marks the running check as one that
        depends on the terrain (see engine/validate/session.py)."""
        self.used_board = True
        return self._board

    @cached_property
    def _board(self) -> Board | None:
        try:
            board = self.scenario.load_board()
            board.watchers.append(self._terrain_changed)
            return board
        except (SourceError, FileNotFoundError) as exc:
            self.board_error = f"cannot load the maps: {exc}"
        except LoadError as exc:
            self.board_error = f"{exc.file} is not a valid map or errata file"
            self.load_error = exc
        return None

    def source_documents(self) -> list[SourceDocument]:
        """The map and errata files the board was built from. Terrain edits change the board,
        not these documents, so asking for them does not make a check depend on the terrain."""
        board = self._board
        if board is None:
            return []
        docs = [m.doc for m in board.maps if m.doc is not None]
        if board.errata is not None and board.errata.doc is not None:
            docs.append(board.errata.doc)
        return docs

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

    @property
    def zones(self) -> ZoneContext | None:
        """Zone resolution on the board; None without a board or a valid north indicator."""
        return self._zones if self.board is not None else None

    @cached_property
    def _zones(self) -> ZoneContext | None:
        if self.board is None or not self.north_ok:
            return None
        return self.scenario.zone_context(self.board)

    @property
    def compass(self) -> Compass | None:
        return self.zones.compass if self.zones else None

    def zone(self, name: str) -> frozenset[Hex] | None:
        """A named zone's hexes; None if it cannot be resolved (zone-empty reports why)."""
        if self.board is not None and name not in self._zone_cache:
            try:
                self._zone_cache[name] = resolve_named(name, self.zones) if self.zones else None
            except ZoneError:
                self._zone_cache[name] = None
        return self._zone_cache.get(name)

    @cached_property
    def _zone_cache(self) -> dict[str, frozenset[Hex] | None]:
        return {}

    def share_zones(self, kept: dict[str, dict[str, frozenset[Hex] | None]]) -> None:
        """Resolve the named zones into `kept`'s entry for the zones, north indicator and maps as
        they are now: the games of a scenario on one board that no one edits (new_game) share them."""
        key = repr((self.scenario.maps, self.scenario.north, self.scenario.zones))
        self.__dict__["_zone_cache"] = kept.setdefault(key, {})

    @property
    def viewsheds(self) -> Viewsheds | None:
        return self._viewsheds if self.board is not None else None

    @cached_property
    def _viewsheds(self) -> Viewsheds | None:
        from engine.geometry.viewshed import Viewsheds

        return Viewsheds(self.board) if self.board is not None else None

    def turns(
        self, sources: frozenset[Hex], targets: frozenset[Hex], mover: Mover, *, entering: bool = False
    ) -> int | None:
        """turns_needed on the board, remembered until an edit could change it."""
        return self.turns_each(sources, [targets], mover, entering=entering)[0]

    def turns_each(
        self, sources: frozenset[Hex], target_sets: Sequence[frozenset[Hex]], mover: Mover, *, entering: bool = False
    ) -> list[int | None]:
        """`turns` to each set of targets; those not remembered are found in one search."""
        assert self.board is not None
        keys = [(sources, targets, mover, entering) for targets in target_sets]
        missing = [key for key in dict.fromkeys(keys) if key not in self._turns]
        if missing:
            found = turns_searches(self.board, sources, [key[1] for key in missing], mover, entering=entering)
            self._turns.update(zip(missing, found, strict=True))
        return [self._turns[key].turns for key in keys]

    @cached_property
    def _turns(self) -> dict[tuple[frozenset[Hex], frozenset[Hex], Mover, bool], TurnSearch]:
        return {}

    def keep_geometry(self, before: ScenarioContext) -> None:
        """Take over the viewsheds and turn counts of a context on the same board (the scenario's
        own data changed, not the terrain): they depend on hexes, not on the scenario."""
        if before.__dict__.get("_board") is not self.__dict__.get("_board"):
            return
        for name in ("_viewsheds", "_turns"):
            if name in before.__dict__:
                self.__dict__[name] = before.__dict__[name]

    def _terrain_changed(self, hexes: frozenset[Hex]) -> None:
        """After an edit: zones are resolved again, viewsheds and turn counts only where it can matter."""
        self._zone_cache.clear()
        zones = self.__dict__.get("_zones")
        if zones is not None:
            zones.terrain_changed()
        views = self.__dict__.get("_viewsheds")
        if views is not None:
            views.changed(hexes)
        # each search's labels follow the edit once, then each answer kept is checked against them
        improved: dict[SearchLabels, dict[Hex, int]] = {}
        for key, search in list(self._turns.items()):
            if search.labels not in improved:
                improved[search.labels] = search.labels.follow(hexes)
            if search.may_change(hexes, improved[search.labels]):
                del self._turns[key]
