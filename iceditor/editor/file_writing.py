"""Atomic writes of the user's files live in engine/file_writing.py (batch playtests write their
game logs with them too, in worker processes that load no Qt); the editor imports them from here."""

from engine.file_writing import STALE_SECONDS, atomic_write, file_list, remove_stale_temps, remove_stale_temps_in

__all__ = ["STALE_SECONDS", "atomic_write", "file_list", "remove_stale_temps", "remove_stale_temps_in"]
