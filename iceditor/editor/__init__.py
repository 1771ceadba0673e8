"""The PySide6 editor: it draws and edits; every answer it shows comes from `engine`."""

from .pyside_none import keep_none_alive

keep_none_alive()  # before any Qt call: see pyside_none.py
