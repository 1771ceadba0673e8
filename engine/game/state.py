"""A game's state: the turn, the phase, who acts, every unit, what each side has placed in secret,
and the record of what happened (docs/engine.md).

The phases of a Player Turn are 6.0's A-H; a game starts with the set-up of 24.1 (the side that
sets up first, then the other) and, where a scenario lets a group choose its entry before play,
those choices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.hexgrid import Hex
from engine.model.board import Board
from engine.model.counters import SIDES, Counters
from engine.model.scenario import Scenario
from engine.validate.context import ScenarioContext
from engine.validate.placements import zone_hexes

from .actions import Action
from .dice import Dice
from .state_text import state_digest, state_view
from .units import WAITING, Unit, make_stale, names_unit, own_copy, share_all

SETUP, ENTRY_CHOICE = "setup", "entry_choice"
MORALE, SUPPORT_FIRE, MOVEMENT, REACTION, DEFENSIVE_FIRE, MOVING_FIRE, ASSAULT, FREE_STATE = (
    "morale",
    "support_fire",
    "movement",
    "reaction_movement",
    "defensive_fire",
    "moving_fire",
    "assault",
    "free_state_change",
)
# 6.0: the seven phases of a Player Turn, and H.
PLAYER_TURN = (MORALE, SUPPORT_FIRE, MOVEMENT, REACTION, DEFENSIVE_FIRE, MOVING_FIRE, ASSAULT, FREE_STATE)
LETTER = dict(zip(PLAYER_TURN, "ABCDEFGH", strict=True))
COUNTED_PHASES = (SUPPORT_FIRE, MOVEMENT, REACTION, DEFENSIVE_FIRE, MOVING_FIRE, ASSAULT)  # 23.2: no Morale Phase


# What `GameState.caches` keeps from phase to phase: the choices and lines keyed by all they depend
# on, the phase included where it counts (a unit's openings and starts, its steps by how it moves in
# this phase); the rest goes with each phase (`next_phase_caches`).
LASTING_CACHES = frozenset(
    (
        *("hex_actions", "sights", "opens", "unit_openings", "starts", "steps"),
        *("entries", "entry_bars", "digest_parts", "digest_texts", "digest_units", "phase_marks", "turn_marks"),
        *("side_afvs",),
    )
)

_MISSING = object()
_NOBODY = (0, 0, 0)
# Tests set this (tests/test_engine_copy_on_write.py): each `play` then begins as after a copy (no
# unit its state's own), a copy shares no unit, and the unit `changing` replaces is killed, so that
# a reference kept across a change fails when read. Off in play.
STRICT_UNITS = False


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass
class Secrets:
    """What a side placed that the other may not see (19.11 mines, 24.21 hidden hexes)."""

    mines: dict[Hex, dict[str, int]] = field(default_factory=dict)  # hex -> {"ap": n, "at": n}
    hidden_hexes: set[Hex] = field(default_factory=set)
    # 21.0 (advanced): each MG's mode, its Fire Lane's target hex ("" for none) and the Player Turn it
    # was chosen in: 'A unit's mode need not be revealed until the unit fires'
    modes: dict[str, tuple[str, str, int]] = field(default_factory=dict)


@dataclass
class GameState:
    scenario: Scenario
    context: ScenarioContext
    counters: Counters
    seed: int
    options: dict[str, Any]
    dice: Dice
    units: dict[str, Unit]
    turn: int = 0  # 0 during the set-up
    phase: str = SETUP
    phasing: str = ""
    to_act: str = ""
    # set-up: the side placing; movement: the stack moving and the hex it entered last (an interrupt)
    interrupt: dict[str, Any] | None = None
    first_shot: bool = False  # 8.22: no movement PC until a side rolls the dice for combat
    shot_fired: bool = False  # 8.22: combat dice rolled: movement PCs from the next Player Turn (R92)
    player_turns: int = 0  # Player Turns begun (11.15: how long a jammed MG stays silent)
    secrets: dict[str, Secrets] = field(default_factory=lambda: {s: Secrets() for s in SIDES})
    improved_positions: dict[Hex, int] = field(default_factory=dict)  # 18.1: public once placed
    revealed_mines: dict[Hex, dict[str, int]] = field(default_factory=dict)  # 19.22, 19.23: public once detonated
    ips_used: dict[str, list[int]] = field(default_factory=dict)  # the points of the markers placed, by side
    grenades_used: dict[str, int] = field(default_factory=dict)  # 15.9: grenades used, by side (public)
    ammo: dict[str, int] = field(default_factory=dict)  # 22.1: points left by pool (advanced: ammo.py, R346)
    grenade_hexes: set[tuple[int, Hex]] = field(default_factory=set)  # 15.3: (Player Turn, hex) thrown from
    infiltration: dict[str, Any] = field(default_factory=dict)  # 24.3: the infiltration under way (public)
    control: dict[Hex, str] = field(default_factory=dict)  # R82: the last side to occupy each hex
    entry_choice: dict[tuple[str, int], int] = field(default_factory=dict)  # (side, entry) -> option
    held: set[str] = field(default_factory=set)  # units that use an entry's limit instead of deploying
    stage: dict[str, int] = field(default_factory=dict)  # 8.0 movement order reached, by side
    setup_done: list[str] = field(default_factory=list)
    acted: set[str] = field(default_factory=set)  # sides done with a phase both play (A, G, H)
    active: tuple[str, ...] = ()  # the unit or stack moving now (8.0)
    wrecks: set[Hex] = field(default_factory=set)  # 12.4 (fire combat, the next issue, makes them)
    phase_ending: bool = False  # the Movement Phase's end is under way: 8.65's pushes, nothing else
    attack: dict[str, Any] | None = None  # an AP attack being declared: target, units, intensive (10.0 a)
    closing: bool = False  # a movement phase's end: Assault markers (17.0), crew replacements (20.1)
    # 17.0: Assault markers, public: the hex of the stack -> (its side, the adjacent hex it points at)
    assault_markers: dict[Hex, tuple[str, Hex]] = field(default_factory=dict)
    # the Assault Phase's work (assault.py): "fight", the assault under way; "cleared", 17.32's hexes
    assault: dict[str, Any] = field(default_factory=dict)
    # 9.0 (overrun.py): "under_way", the overrun being resolved; "at_fire", hex -> the Player Turn of
    # its defensive AT fire (9.2 A: 'ONCE in the Movement Phase and only at the FIRST AFV'); public
    overrun: dict[str, Any] = field(default_factory=dict)
    # a move by path (paths.py, R190): the units, the hexes still to go, the hexes entered, its log line
    path: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    _at: dict[Hex, list[Unit]] | None = field(default=None, repr=False)
    _totals: dict[tuple[str, Hex], tuple[int, int, int]] = field(default_factory=dict, repr=False)
    _signatures: dict[Hex, tuple[Any, ...]] = field(default_factory=dict, repr=False)
    _around: dict[Hex, tuple[Any, ...]] = field(default_factory=dict, repr=False)
    _wrecks_seen: frozenset[Hex] = field(default=frozenset(), repr=False)
    _kept: dict[Any, Any] = field(default_factory=dict, repr=False)
    # the four dicts kept with the index of `at` are a copy's too (`copy`) until one of the two moves a unit
    _kept_shared: bool = field(default=False, repr=False)
    # each hex's movement starts (starts._starts), kept with the index of `at` and dropped for a hex
    # as a unit in it changes or a unit next to it moves; a copy's too until either drops one
    _starts: dict[Hex, Any] = field(default_factory=dict, repr=False)
    _starts_shared: bool = field(default=False, repr=False)
    _starts_for: dict[str, Any] | None = field(default=None, repr=False)  # the `caches` they go with
    _listing: tuple[Any, frozenset[Hex]] | None = field(default=None, repr=False)  # `starts_listing`
    _board: Board | None = field(default=None, repr=False)
    _labels: dict[Hex, str] | None = field(default=None, repr=False)
    _neighbours: dict[Hex, list[Hex]] | None = field(default=None, repr=False)
    _hexes: dict[str, Hex] | None = field(default=None, repr=False)
    _sides: dict[str, tuple[Unit, ...]] = field(default_factory=dict, repr=False)
    _rank: dict[str, int] | None = field(default=None, repr=False)
    # the ids of the units `changing` handed out since each reader of `changed_since` last asked, by
    # reader (none yet: nothing noted); a copy adds to the same sets until either asks: each of the
    # two reads the changes of both
    _touched: dict[str, set[str]] = field(default_factory=dict, repr=False)
    _last_touched: str | None = field(default=None, repr=False)  # in every set of `_touched` (until it is new)
    # what legal_actions worked out this phase, by what it depends on (shared by copies: keys say it all)
    caches: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._owned = list(self.units.values())  # the units it changes in place (copy-on-write)

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = self.context.board
            assert self._board is not None
        return self._board

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def unit(self, unit_id: str) -> Unit:
        return self.units[unit_id]

    def zone_hexes(self, zone: Any) -> frozenset[Hex]:
        """A zone reference's hexes (a name or an inline expression); the scenario validated, so it resolves."""
        return zone_hexes(self.context, zone, ()) or frozenset()

    def names(self, instruction: dict[str, Any], unit: Unit) -> bool:
        """Whether a deployment, entry or restriction names the unit (its group, or the unit itself)."""
        if instruction.get("group") is not None:
            return bool(instruction["group"] == unit.group)
        return any(names_unit(key, unit) for key in instruction.get("units") or [])

    def at(self, h: Hex) -> list[Unit]:
        """The units on the map in h (an index rebuilt after units move: `relocate`)."""
        return list(self._index().get(h, ()))

    def kept(self, key: Any, work: Callable[[], Any]) -> Any:
        """`work()`, kept until units move, hide or are revealed (with the index of `at`)."""
        self._index()
        found = self._kept.get(key, _MISSING)  # one look-up: the keys are long tuples, hashed anew each time
        if found is _MISSING:
            found = self._kept[key] = work()
        return found

    def hex_starts(self) -> dict[Hex, Any]:
        """Each hex's movement starts by its stamp (starts._starts; `keep_starts` adds one), kept
        with the index of `at`: `changing` drops a unit's hex, `relocate` the hexes a move left and
        entered and those next to them (whose `around` changes); they go with the phase's `caches`
        (emptied by hand, as tests do after changing units in place: gone too). A copy shares them
        until one of the two changes a unit or drops an entry (what either adds while their units
        are the same holds for both)."""
        self._index()
        if self._starts_for is not self.caches:
            self._starts, self._starts_shared, self._starts_for = {}, False, self.caches
            self._listing = None
        return self._starts

    def starts_listing(self, keep: Any = None) -> tuple[Any, frozenset[Hex]] | None:
        """The last whole movement listing that starts._starts kept (`keep`) and the hexes whose
        starts went since; it goes with them (`hex_starts`) and when a unit is put to wait off the
        map (`relocate`). Never changed in place: a copy shares it."""
        self.hex_starts()
        if keep is not None:
            self._listing = (keep, frozenset())
        return self._listing

    def keep_starts(self, h: Hex, entry: Any) -> None:
        """Keeps a hex's starts (`hex_starts`); one it replaces (of another stamp) is dropped first,
        as a copy may hold it."""
        if h in self._starts:
            self._drop_starts((h,))
        self._starts[h] = entry

    def _drop_starts(self, hexes: tuple[Hex, ...]) -> None:
        if self._listing is not None:
            self._listing = (self._listing[0], self._listing[1].union(hexes))
        kept = self._starts
        for h in hexes:
            if h in kept:
                if self._starts_shared:
                    self._starts = kept = dict(kept)
                    self._starts_shared = False
                del kept[h]

    def _starts_change(self, h: Hex | None) -> None:
        """A unit in h changes: its hex's starts go, and a copy's are shared no more (what this
        state adds from here holds for its units only)."""
        if self._starts_shared:
            self._starts, self._starts_shared = dict(self._starts), False
        if h is not None:
            self._drop_starts((h,))

    def occupied(self) -> dict[Hex, list[Unit]]:
        """Every hex with units on the map in it (the index of `at`; not to be changed)."""
        return self._index()

    def _index(self) -> dict[Hex, list[Unit]]:
        if self._at is None or self.wrecks != self._wrecks_seen:  # Wrecks are set by hand in tests too
            index: dict[Hex, list[Unit]] = {}
            for u in self.units.values():
                if u.on_map and u.hex is not None:
                    index.setdefault(u.hex, []).append(u)
            self._at, self._wrecks_seen = index, frozenset(self.wrecks)
            self._totals, self._signatures, self._around, self._kept = {}, {}, {}, {}
            self._starts, self._kept_shared, self._starts_shared, self._listing = {}, False, False, None
        return self._at

    def totals(self, side: str, h: Hex) -> tuple[int, int, int]:
        """Men, AFVs and CWs of `side` in h (8.62, 8.63), kept with the index of `at`."""
        there = self._index().get(h)
        if there is None:
            return _NOBODY
        found = self._totals.get((side, h))
        if found is None:
            units = [u for u in there if u.side == side]
            found = self._totals[(side, h)] = (
                sum(u.men for u in units if not u.is_afv),
                sum(1 for u in units if u.is_afv),
                sum(1 for u in units if u.kind == "cw"),
            )
        return found

    def signature(self, h: Hex) -> tuple[Any, ...]:
        """Who stands in h as a move into it sees them (side, men, kind, hidden) and a Wreck; kept with the index."""
        index = self._index()
        found = self._signatures.get(h)
        if found is None:
            units = index.get(h, ())
            found = self._signatures[h] = (*((u.side, u.men, u.kind, u.hidden) for u in units), h in self.wrecks)
        return found

    def around(self, h: Hex) -> tuple[Any, ...]:
        """The signatures of the hexes next to h (what entering them depends on), kept with the index."""
        self._index()
        found = self._around.get(h)
        if found is None:
            found = self._around[h] = tuple([self.signature(n) for n in self.neighbours(h)])
        return found

    def neighbours(self, h: Hex) -> list[Hex]:
        """The board's neighbours of h, kept per board (the game never edits the terrain)."""
        if self._neighbours is None:  # the board's, as `label_of` keeps its labels
            self._neighbours = self.board.caches.setdefault("game_neighbours", {})
        found = self._neighbours.get(h)
        if found is None:
            found = self._neighbours[h] = self.board.neighbours(h)
        return found

    def stop_moving(self, units: list[Unit], rule: str | None = None, why: str | None = None) -> list[dict[str, Any]]:
        """The units end their movement for the phase and leave the moving stack (8.0); `rule` says
        why they must (8.43, 13.18, 19.27). A "stopped" event for each that is still on the map."""
        events: list[dict[str, Any]] = []
        for unit in units:
            unit = self.changing(unit)
            unit.move_done = True
            unit.extra["moving"] = False
            if unit.on_map:
                event = {"event": "stopped", "unit": unit.id, "hex": self.label(unit.hex), "mp": unit.mp_spent}
                events.append({**event, **({"rule": rule} if rule else {}), **({"why": why} if why else {})})
        stopped = {u.id for u in units}
        self.active = tuple(i for i in self.active if i not in stopped)
        return events

    def phase_count(self) -> int:
        """The phases played, the Morale Phase not counted (23.2: 'Exclude the Morale Phase when
        counting the last three phases'); in a Morale Phase, the phase before it."""
        index = COUNTED_PHASES.index(self.phase) if self.phase in COUNTED_PHASES else -1
        return self.player_turns * len(COUNTED_PHASES) + index

    def relocate(self, unit: Unit, where: str, h: Hex | None) -> None:
        """Every change of where a unit is goes through here: the index of `at` follows it (a new
        dict and lists, as whoever reads the old one expects), and what is kept of the hexes it left
        and entered and of their neighbours is dropped."""
        held = self._at  # the index others may read: changed only in a new dict
        unit = self.changing(unit)  # a shared unit on the map: a new index, which no one holds yet
        before = unit.hex if unit.on_map else None
        unit.where, unit.hex = where, h
        after = unit.hex if unit.on_map else None
        self._listing = None if where == WAITING else self._listing  # its units waiting to enter: one more
        if before is not None and after is not None and before != after and self.options.get("advanced"):
            unit.extra["moved_at"] = self.phase_count()  # 23.2 g, observer c (observation.py)
        self._kept = {}
        if self._at is None or before == after:
            return
        index = self._at if self._at is not held else dict(self._at)
        if before is not None:
            index[before] = [u for u in index[before] if u is not unit]
            if not index[before]:
                del index[before]
        if after is not None:  # in the order of `units`, as a rebuilt index has them
            rank = self.ranks()
            here = index.get(after, [])
            at = next((i for i, u in enumerate(here) if rank[u.id] > rank[unit.id]), len(here))
            index[after] = [*here[:at], unit, *here[at:]]
        self._at = index
        if self._kept_shared:  # a copy holds them too: this state's own from here
            self._totals, self._signatures = dict(self._totals), dict(self._signatures)
            self._around = dict(self._around)
            self._kept_shared = False
        dropped: list[Hex] = []
        for changed in (before, after):
            if changed is not None:
                self._signatures.pop(changed, None)
                for side in SIDES:
                    self._totals.pop((side, changed), None)
                neighbours = self.neighbours(changed)
                for n in neighbours:
                    self._around.pop(n, None)
                dropped += (changed, *neighbours)
        self._drop_starts(tuple(dropped))  # at once: the listing's hexes gone grow by one union

    def ranks(self) -> dict[str, int]:
        """Each unit's place in `units`, and so in its side's `side_units` (kept: no unit joins or
        leaves a game)."""
        if self._rank is None:
            self._rank = {u: i for i, u in enumerate(self.units)}
        return self._rank

    def changing(self, unit: Unit | str) -> Unit:
        """The unit (or the unit of that id) as this state may change it in place: itself if the
        state owns it, else (a copy of the state shares it) a copy of it put in its place in
        `units`, the index of `at` and `side_units`. Every change of a unit goes through here
        (copy-on-write: docs/engine.md "Speed"); a reference to the unit kept from before reads
        the unit as it was, so a caller goes on with the unit this returns."""
        if self._touched:
            unit_id = unit if isinstance(unit, str) else unit.id
            if unit_id != self._last_touched:  # a move asks for its units again and again
                self._last_touched = unit_id
                for seen in self._touched.values():
                    seen.add(unit_id)
        if type(unit) is Unit and self.units[unit.id] is unit:
            if self._starts_shared or unit.hex in self._starts:
                self._starts_change(unit.hex)
            return unit
        current = self.units[unit if isinstance(unit, str) else unit.id]
        if self._starts_shared or current.hex in self._starts:
            self._starts_change(current.hex)
        if type(current) is Unit:
            return current
        twin = own_copy(current)
        self.units[twin.id] = twin
        self._owned.append(twin)
        if self._at is not None and current.on_map and current.hex is not None:
            index = dict(self._at)
            index[current.hex] = [twin if u is current else u for u in index[current.hex]]
            self._at = index
        kept = self._sides.get(twin.side)
        if kept is not None:
            self._sides = {**self._sides, twin.side: tuple([twin if u is current else u for u in kept])}
        if STRICT_UNITS:
            make_stale(current)
        return twin

    def changing_all(self, units: Iterable[Unit]) -> list[Unit]:
        """`changing` of each unit, for many at once (a phase's start takes its marks off every unit
        that has them): the index of `at` and `side_units` made anew once, not once a unit."""
        owned, replaced = [], {}  # replaced: id of a shared unit -> the state's own copy of it
        shared = []
        units = list(units)
        ids = [unit.id for unit in units]
        for seen in self._touched.values():  # each reader's set once, not once a unit
            seen.update(ids)
        for unit in units:
            current = self.units[unit.id]
            if self._starts_shared or current.hex in self._starts:
                self._starts_change(current.hex)
            if type(current) is not Unit:
                shared.append(current)
                replaced[id(current)] = twin = own_copy(current)
                self.units[twin.id] = current = twin
                self._owned.append(twin)
            owned.append(current)
        if replaced:
            if self._at is not None:
                self._at = {h: [replaced.get(id(u), u) for u in there] for h, there in self._at.items()}
            self._sides = {side: tuple([replaced.get(id(u), u) for u in kept]) for side, kept in self._sides.items()}
        if STRICT_UNITS:
            for unit in shared:
                make_stale(unit)
        return owned

    def changed_since(self, mark: object, reader: str = "openings") -> tuple[set[str] | None, object]:
        """The ids of the units changed (`changing`) since `mark` was handed out to `reader` (each
        its own: shot.openings_by_unit, state_text.state_digest), None if that is not known (another
        state asked since), and a new mark. Since a copy, the changes of the copy and its original
        both: what was kept with the mark held for either, but for those units."""
        touched = self._touched.get(reader)
        fresh: set[str] = set()
        self._touched = {**self._touched, reader: fresh}  # a new dict: a copy holds the one it shares
        self._last_touched = None
        return (touched if touched is mark else None), fresh

    def strict_epoch(self) -> None:
        """With STRICT_UNITS on: no unit is the state's own any more, as after a copy."""
        if STRICT_UNITS:
            self._share()

    def _share(self) -> None:
        """The units the state changed in place are shared from now on (by a copy)."""
        share_all(self._owned)
        self._owned = []

    def units_changed(self) -> None:
        """A unit moved, was hidden or revealed, or lost men: the index of `at` is built again."""
        self._at = None

    def side_units(self, side: str) -> tuple[Unit, ...]:
        """The side's units in the order of `units` (kept: no unit joins or leaves a game, or changes side)."""
        if side not in self._sides:
            self._sides[side] = tuple(u for u in self.units.values() if u.side == side)
        return self._sides[side]

    def next_phase_caches(self) -> None:
        """A phase begins: what was kept for the last phase goes, what is keyed for any phase stays.
        The hexes' movement starts go with them now (`hex_starts` would let them go at its next
        call), so that the phase's first changes of units drop nothing from them one by one."""
        self.caches = {k: v for k, v in self.caches.items() if k in LASTING_CACHES}
        self._starts, self._starts_shared, self._starts_for, self._listing = {}, False, self.caches, None

    def hex_actions(self, verb: str, ids: tuple[str, ...], hexes: Iterable[Hex]) -> list[Action]:
        """`verb IDS HEX` for each hex, each made once a phase (listing the choices makes thousands)."""
        kept = self.caches  # `get` first: `setdefault` would make a dict to throw away at every call
        made: dict[tuple[str, tuple[str, ...]], dict[Hex, Action]] = kept.get("hex_actions") or kept.setdefault(
            "hex_actions", {}
        )
        by_hex = made.get((verb, ids))  # by verb and units first: a key per hex hashes only the hex
        if by_hex is None:
            by_hex = made[(verb, ids)] = {}
        found = by_hex.get
        actions = []
        for h in hexes:
            action = found(h)
            if action is None:
                action = by_hex[h] = Action(verb, ids, self.label_of(h))
            actions.append(action)
        return actions

    def label(self, h: Hex | None) -> str | None:
        return self.label_of(h) if h is not None else None

    def label_of(self, h: Hex) -> str:
        """A hex's printed label (kept per board: actions name hexes by label)."""
        if self._labels is None:
            self._labels = self.board.caches.setdefault("game_labels", {})
        label = self._labels.get(h)
        if label is None:
            label = self._labels[h] = self.board.label(h)
        return label

    def hex(self, label: str) -> Hex:
        """The hex a printed label names (`Board.hex`: UnknownHexError if it is not on the board),
        kept per board as `label_of` is: actions name hexes by label."""
        if self._hexes is None:
            self._hexes = self.board.caches.setdefault("game_hexes", {})
        found = self._hexes.get(label) if type(label) is str else None
        if found is None:
            found = self.board.hex(label)
            self._hexes[label] = found
        return found

    def copy(self, seed: int | None = None) -> GameState:
        """An independent state. Its dice roll what the game's would (`apply`), or with a `seed`
        their own (a player's search: R200). Its units are the original's, shared until one of the
        two changes one (`changing`: copy-on-write); what is kept of the units' places (the index
        of `at`, `kept`) stays valid."""
        twin = object.__new__(GameState)  # not __init__: copying is most of a search node
        twin.__dict__ = self.__dict__.copy()
        twin.dice = self.dice.copy(seed)
        if STRICT_UNITS:  # nothing shared: `changing` kills the units it replaces
            twin.units = units = {k: own_copy(u) for k, u in self.units.items()}
            twin._owned = list(units.values())
            if self._at is not None:
                twin._at = {h: [units[u.id] for u in there] for h, there in self._at.items()}
            twin._sides = {side: tuple([units[u.id] for u in kept]) for side, kept in self._sides.items()}
        else:  # copy-on-write: the two share every unit, and neither may change one in place any more
            self._share()
            twin._owned = []
            twin.units, twin._sides = dict(self.units), dict(self._sides)
        # a hex's factors are never changed in place (19.12: a placement makes a new dict): shared
        twin.secrets = {s: Secrets(dict(v.mines), set(v.hidden_hexes), dict(v.modes)) for s, v in self.secrets.items()}
        twin.improved_positions, twin.control, twin.entry_choice = (
            dict(self.improved_positions),
            dict(self.control),
            dict(self.entry_choice),
        )
        twin.stage, twin.options, twin.grenades_used = dict(self.stage), dict(self.options), dict(self.grenades_used)
        twin.ammo = dict(self.ammo)
        twin.ips_used = {side: list(points) for side, points in self.ips_used.items()}
        twin.grenade_hexes, twin.held, twin.acted = set(self.grenade_hexes), set(self.held), set(self.acted)
        twin.wrecks, twin.setup_done, twin.assault_markers = (
            set(self.wrecks),
            list(self.setup_done),
            dict(self.assault_markers),
        )
        twin.infiltration, twin.assault, twin.overrun = (
            _fresh(self.infiltration),
            _fresh(self.assault),
            _fresh(self.overrun),
        )
        twin.revealed_mines = {h: dict(m) for h, m in self.revealed_mines.items()}
        twin.interrupt = dict(self.interrupt) if self.interrupt is not None else None
        twin.path = {**self.path, "hexes": list(self.path["hexes"])} if self.path is not None else None
        if self.attack is not None:
            twin.attack = {k: list(v) if isinstance(v, list) else v for k, v in self.attack.items()}
        twin.log = list(self.log)
        # the index of `at` and `side_units` are shared: never changed in place (`relocate` and
        # `changing` make new ones); what is kept with the index holds no unit, and is shared too
        # while no unit of either state moves (what either adds holds for both: they stand alike)
        # and `relocate` takes the state's own copies before it drops an entry
        self._kept_shared = twin._kept_shared = True
        self._starts_shared = twin._starts_shared = True
        return twin

    # -- what a side may know (24.2, 19.11) --------------------------------------------------------
    def view(self, side: str | None = None, *, with_units: bool = True) -> dict[str, Any]:
        """The state as `side` may see it (None: everything, for a replay or a referee): the other
        side's hidden units and mines are left out (`state_text.state_view`)."""
        return state_view(self, side, with_units=with_units)

    def digest(self) -> str:
        """A short hash of the whole state, recorded in the log so that a replay can check it
        (`state_text.state_digest`)."""
        return state_digest(self)


_AS_THEY_ARE = frozenset((str, int, float, bool, type(None), tuple))  # what `_fresh` gives back as it is


def _fresh(value: Any) -> Any:
    """A copy of plain data (dicts, lists and sets of values), as deepcopy without its memo: each
    container copied whole, then what it holds that is not a plain value (every copy of a state
    copies three such dicts, most of a game empty or of plain values)."""
    if isinstance(value, dict):
        value = dict(value)
        for k, v in value.items():
            if type(v) not in _AS_THEY_ARE:
                value[k] = _fresh(v)
    elif isinstance(value, list):
        value = list(value)
        for i, v in enumerate(value):
            if type(v) not in _AS_THEY_ARE:
                value[i] = _fresh(v)
    elif isinstance(value, set):
        value = set(value)
    return value
