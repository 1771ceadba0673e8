"""Where iceditor keeps what it worked out before, between processes (issue 22): line tables and
sight matrices (engine/geometry/table_cache.py), schema verdicts (engine/model/schema_cache.py)
and validation verdicts (engine/validate/verdict_cache.py).

`$ICEDITOR_CACHE_DIR`, else `$XDG_CACHE_HOME/iceditor`, else `~/.cache/iceditor`;
`ICEDITOR_CACHE=off` keeps nothing on disk."""

from __future__ import annotations

import os
import sys
from functools import cache
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


@cache
def installed_packages() -> str:
    """The installed packages with their versions, from their folders' names (`numpy-2.4.6.dist-info`),
    for the keys of what is kept: a listing a folder, where importlib.metadata takes 30 ms."""
    names: list[str] = []
    for folder in filter(None, sys.path):
        try:
            names += sorted(n for n in os.listdir(folder) if n.endswith((".dist-info", ".egg-info")))
        except OSError:
            continue  # a zip, or a folder that is gone: no packages of its own to tell apart
    return "\n".join(names)
