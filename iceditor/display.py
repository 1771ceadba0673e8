"""Whether the editor's window can be shown here: on Linux and the BSDs Qt needs an X11 or
Wayland display (DISPLAY, WAYLAND_DISPLAY), unless QT_QPA_PLATFORM names a platform itself."""

from __future__ import annotations

import os
import sys

NO_DISPLAY = """\
iceditor: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set): the editor window cannot open here.
  To see a file as the editor shows it, draw it to a picture:  iceditor snapshot {file} --out window.png
  To run the editor without a screen (scripts, tests):         QT_QPA_PLATFORM=offscreen iceditor edit {file}"""


def display_missing() -> bool:
    """True when Qt would find no display to open a window on (it would abort)."""
    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
