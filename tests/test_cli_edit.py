"""`iceditor edit FILE` and bare `iceditor`: the editor opens the file (Scenario 1 by default);
a file it cannot open is reported with its problems and exit code 2, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from iceditor.cli import main
from iceditor.editor.window import MainWindow


@pytest.fixture
def opened(qtbot, monkeypatch: pytest.MonkeyPatch) -> list[MainWindow]:  # type: ignore[no-untyped-def]
    """The windows `iceditor edit` shows; the event loop returns at once instead of running."""
    shown: list[MainWindow] = []
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)
    real_show = MainWindow.show

    def show(window: MainWindow) -> None:
        shown.append(window)
        qtbot.addWidget(window)
        real_show(window)

    monkeypatch.setattr(MainWindow, "show", show)
    return shown


def test_bare_iceditor_opens_scenario_1(opened: list[MainWindow]) -> None:
    assert main([]) == 0
    (window,) = opened
    assert window.document.path.name == "s1-demyansk-pocket.yaml"
    assert len(window.document.board.hexes) == 21 * 27


def test_edit_opens_the_file_given(opened: list[MainWindow], write: Any) -> None:
    path = write("m.yaml", "format: iron-cross-map/1\nname: T\ngrid: {columns: [10, 14], rows: [1, 9]}\n")
    assert main(["edit", str(path)]) == 0
    assert opened[0].document.path == Path(path)


def test_a_file_that_cannot_be_opened_is_reported(opened: list[MainWindow], write: Any, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = write(
        "bad.yaml",
        'format: iron-cross-map/1\nname: X\ngrid: {columns: [10, 12], rows: [1, 3]}\nhexes:\n  "1001": {trees: -1}\n',
    )
    assert main(["edit", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:5:" in err and "[schema]" in err and "Traceback" not in err
    assert opened == []
