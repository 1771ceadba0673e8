"""Whether the editor can open a window (iceditor/display.py): a DISPLAY that names no running X
server is said so, with exit 2, as no DISPLAY at all is (Qt itself would abort with exit 134)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from iceditor import display

pytestmark = pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="Linux and the BSDs need a display server")


def unused_display() -> int:
    """A display number with no X server on this machine (no socket, nothing on its TCP port)."""
    for number in range(87, 200):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not display._x11_answers(f":{number}"):
            return number
    raise AssertionError("every display number answers")


def test_a_display_answers_only_where_an_x_server_listens(monkeypatch: pytest.MonkeyPatch) -> None:
    """`host:N` is TCP port 6000+N on the host (an SSH-forwarded display, `localhost:10.0`)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))  # an ephemeral port, far above 6000
        server.listen()
        number = server.getsockname()[1] - display.X_PORT
        assert number > 0 and display._x11_answers(f"127.0.0.1:{number}.0")
    assert not display._x11_answers(f"127.0.0.1:{number}")  # closed: nothing answers there now
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", f":{unused_display()}")
    assert display.display_missing() and "no display answers at DISPLAY=:" in (display.display_problem() or "")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")  # a platform of its own: no display needed
    assert display.display_problem() is None


def test_a_display_that_does_not_exist_is_said_so_with_exit_2() -> None:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "LANG")}
    env["DISPLAY"] = f":{unused_display()}"
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from iceditor.cli import main; sys.exit(main(sys.argv[1:]))", "edit", "s6"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 2, done.stderr
    assert f"no display answers at DISPLAY={env['DISPLAY']}" in done.stderr and "iceditor snapshot" in done.stderr
    assert "Traceback" not in done.stderr and "xcb" not in done.stderr
