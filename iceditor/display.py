"""Whether the editor's window can be shown here: on Linux and the BSDs Qt needs an X11 or
Wayland display (DISPLAY, WAYLAND_DISPLAY) that answers, unless QT_QPA_PLATFORM names a platform
itself. Without one Qt aborts (exit 134) with its own xcb message: the editor says why and exits 2."""

from __future__ import annotations

import os
import re
import socket
import sys
from pathlib import Path

NO_DISPLAY = """\
iceditor: {why}: the editor window cannot open here.
  To see a file as the editor shows it, draw it to a picture:  iceditor snapshot {file} --out window.png
  To run the editor without a screen (scripts, tests):         QT_QPA_PLATFORM=offscreen iceditor edit {file}"""

X_PORT = 6000  # an X display N listens on TCP port 6000 + N (X11 protocol, "Display Names")


def display_problem() -> str | None:
    """Why Qt would find no display to open a window on (it would abort), or None when it would find one."""
    if sys.platform in ("win32", "darwin") or os.environ.get("QT_QPA_PLATFORM"):
        return None
    wayland, x11 = os.environ.get("WAYLAND_DISPLAY"), os.environ.get("DISPLAY")
    if not (wayland or x11):
        return "no display found (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    if wayland and _wayland_answers(wayland):
        return None
    if x11 and _x11_answers(x11):
        return None
    named = " and ".join(f"{name}={value}" for name, value in (("WAYLAND_DISPLAY", wayland), ("DISPLAY", x11)) if value)
    return f"no display answers at {named} (is the X server or compositor running, and is this the right number?)"


def display_missing() -> bool:
    """True when Qt would find no display to open a window on (it would abort)."""
    return display_problem() is not None


def _x11_answers(display: str) -> bool:
    """Whether an X server listens where DISPLAY says: `[host]:N[.screen]`, a local socket for no
    host (or `unix`), TCP port 6000+N on a host (an SSH forwarded display, `localhost:10.0`)."""
    found = re.fullmatch(r"(?P<host>[^:]*):(?P<number>\d+)(?:\.\d+)?", display)
    if found is None:
        return Path(display).is_socket()  # a launchd-style path to the socket itself
    host, number = found["host"], int(found["number"])
    try:
        if host in ("", "unix"):
            with socket.socket(socket.AF_UNIX) as local:
                local.settimeout(2)
                for address in (f"\0/tmp/.X11-unix/X{number}", f"/tmp/.X11-unix/X{number}"):  # abstract, then file
                    try:
                        local.connect(address)
                        return True
                    except OSError:
                        continue
            if host == "unix":
                return False
        with socket.create_connection((host or "localhost", X_PORT + number), timeout=2):
            return True
    except OSError:
        return False


def _wayland_answers(name: str) -> bool:
    path = Path(name) if os.path.isabs(name) else Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent")) / name
    return path.is_socket()
