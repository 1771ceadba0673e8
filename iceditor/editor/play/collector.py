"""CPython's cyclic garbage collector kept out of the clicks in play.

With Scenario 6 open in the editor the process holds over 200,000 objects the collector tracks
(the document, its maps, the scene's items); a full collection walks them all and took 0.3-0.4 s
(measured, benchmarks/editor.py), a pause that fell on whatever click was answering. A game adds
about 70 objects an action and leaves no cyclic garbage (349 actions of Scenario 6: none found).
So a game in play runs with what is already there frozen (gc.freeze: never walked again) and, now
and then, collects what the game made since, then freezes that too: every collection walks at most
REFROZEN_EVERY actions' objects. What was garbage at the first freeze (a few hundred objects) waits
for the next game, which collects everything first (a pause, under the busy cursor of its start),
or for the end of the window or document, which hands every object back to the collector.
"""

from __future__ import annotations

import gc

REFROZEN_EVERY = 200  # actions: about 14,000 objects, a collection of a few ms


class Collector:
    """When to collect and freeze, from the number of actions the game has played."""

    def __init__(self) -> None:
        self.frozen_at: int | None = None  # actions played at the last freeze (None: nothing frozen)

    def begin(self, played: int) -> None:
        """A game in play: everything frozen as it is, after a full collection if a game (this
        window's or another's) was frozen before: its garbage, and the first freeze's, collected now."""
        if gc.get_freeze_count():
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        self.frozen_at = played

    def settle(self, played: int) -> None:
        """After every REFROZEN_EVERY actions (or a take back before the last freeze): what is not
        frozen yet collected (the collection walks only that), then frozen."""
        at = self.frozen_at
        if at is None or 0 <= played - at < REFROZEN_EVERY:
            return
        gc.collect()
        gc.freeze()
        self.frozen_at = played

    def release(self) -> None:
        """The game over with its document or window: its objects are the collector's again."""
        if self.frozen_at is not None and gc.get_freeze_count():
            gc.unfreeze()
        self.frozen_at = None
