"""The PySide6 editor: it draws and edits; every answer it shows comes from `engine`."""

from .pyside_refcounts import keep_singletons_alive

keep_singletons_alive()  # before any Qt call: see pyside_refcounts.py
