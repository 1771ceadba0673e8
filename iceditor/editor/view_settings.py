"""What the editor remembers between runs (QSettings): the map's zoom and where the docks and
tool bars are. Only the window `iceditor edit` opens remembers (app.run); tests give a file of
their own, never the user's settings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow

# The window's layout changes shape when docks are added or renamed: a layout saved by another
# layout version is not restored (Qt would place the docks it does not know anywhere).
LAYOUT_VERSION = 1


class ViewSettings:
    def __init__(self, path: Path | None = None) -> None:
        """`path`: an INI file (tests); None: the user's settings (~/.config/iceditor/iceditor.conf on Linux)."""
        self.store = QSettings(str(path), QSettings.Format.IniFormat) if path else QSettings("iceditor", "iceditor")

    def zoom(self) -> float | None:
        """The zoom the map was last left at (screen pixels per scene unit), or None."""
        try:
            value = float(self.store.value("view/zoom", 0.0))  # type: ignore[arg-type]
        except (TypeError, ValueError):  # a settings file edited by hand
            return None
        return value if value > 0 else None

    def restore(self, window: QMainWindow) -> bool:
        """Put the docks and tool bars where they were; False when nothing was saved."""
        state = self.store.value("window/state")
        return isinstance(state, QByteArray) and window.restoreState(state, LAYOUT_VERSION)

    def save(self, window: QMainWindow, zoom: float) -> None:
        self.store.setValue("view/zoom", zoom)
        self.store.setValue("window/state", window.saveState(LAYOUT_VERSION))
        self.store.sync()
