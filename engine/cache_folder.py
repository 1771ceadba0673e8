"""Where iceditor keeps what it worked out before, between processes (issue 22): line tables
(engine/geometry/table_cache.py) and schema verdicts (engine/model/schema_cache.py).

`$ICEDITOR_CACHE_DIR`, else `$XDG_CACHE_HOME/iceditor`, else `~/.cache/iceditor`;
`ICEDITOR_CACHE=off` keeps nothing on disk."""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder() -> Path | None:
    """Where cached results are kept; None when the cache is off."""
    if os.environ.get("ICEDITOR_CACHE", "").lower() in ("off", "0", "no"):
        return None
    given = os.environ.get("ICEDITOR_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "iceditor"
