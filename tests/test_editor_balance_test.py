"""Play > Balance test... (iceditor/editor/features/balance_test.py): a batch in the background,
its progress from the games it writes, and its report opened at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from iceditor.editor.document import open_document
from iceditor.editor.features.balance_test import BalanceDialog, BalanceOptions, play_menu
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    w = MainWindow(open_document(workspace / "scenarios" / "s1-demyansk-pocket.yaml"))
    qtbot.addWidget(w)
    w.show()
    return w


def test_the_play_menu_is_found_or_made_once_before_help(window: MainWindow) -> None:
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles.count("Play") == 1 and titles.index("Play") == titles.index("Help") - 1
    assert play_menu(window) is window.menus["Play"]
    assert "Balance test..." in [a.text().replace("&", "") for a in window.menus["Play"].actions()]


@pytest.mark.slow
def test_a_balance_test_runs_in_the_background_and_opens_its_report(
    window: MainWindow, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    out = tmp_path / "balance"
    run = window.balance_test.start(BalanceOptions(1, ("random", "random"), False, 1, out))  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: bool(opened), timeout=240_000)
    assert opened[0].toLocalFile() == str((out / "report.html").resolve())
    assert run.seen == {"g00000.json"} and sum(run.tally.values()) == 1


def test_r319_the_balance_dialogs_advanced_box_asks_the_batch_for_the_advanced_rules(
    window: MainWindow, tmp_path: Path
) -> None:
    """Issue 23: `--advanced` on `playtest`, offered where a balance test starts; off by default."""
    scenario = tmp_path / "s.yaml"
    dialog = BalanceDialog(window, scenario)
    assert "--advanced" not in dialog.options().command(scenario)
    dialog.advanced.setChecked(True)
    assert dialog.options().command(scenario)[-1] == "--advanced"
