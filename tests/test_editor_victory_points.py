"""Victory points (24.1, 24.9; Scenario 6) made in the Victory panel from none (issue 20): the
first award writes the points (who scores, control by the last to occupy, a band of the schedule),
an award's scope is edited as YAML, the last award removed takes the points with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from iceditor.editor.document import open_document
from iceditor.editor.features.victory_editor import VictoryPanel
from iceditor.editor.scenario_panels import show_dock
from iceditor.editor.window import MainWindow

pytestmark = pytest.mark.gui


@pytest.fixture
def window(qtbot, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Discard)
    out = MainWindow(open_document(workspace / "scenarios" / "s1-demyansk-pocket.yaml"))
    qtbot.addWidget(out)
    out.show()
    qtbot.waitExposed(out)
    return out


def victory(window: MainWindow) -> Any:
    assert window.document.scenario is not None
    return window.document.scenario.data["victory"]


def test_24_9_the_first_award_writes_the_victory_points_and_the_last_takes_them_away(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    """24.9: "The last side to occupy a hex controls it": the points' control; Scenario 6 awards
    VPs per hex of Buildings 1 and 2 controlled and per building of Map 2 controlled."""
    panel = window.findChild(VictoryPanel)
    show_dock(panel)
    QApplication.processEvents()
    assert not panel.schedule.isVisibleTo(panel) and panel.award_kind.isVisibleTo(panel)
    panel.side.setCurrentText("russian")
    panel.award_kind.setCurrentText("per building of map")
    assert panel.add_award()
    points = victory(window)["points"]
    assert points["side"] == "russian" and points["control"] == "last_to_occupy"
    assert [dict(a) for a in points["awards"]] == [{"per_building_controlled": {"map": "map2"}, "vp": 1}]
    assert [list(b["vp"]) for b in points["schedule"]] == [[0, 0]]
    assert panel.schedule.isVisibleTo(panel) and "Maximum" in panel.maximum.text()
    assert panel.awards.item(0, 0).text() == "per_building_controlled: {map: map2}"
    panel.award_kind.setCurrentText("per hex of building")
    window.selected = {window.document.board.hex("4307")}  # a hex of Building 23
    assert panel.add_award()
    assert list(points["awards"][1]["per_hex_controlled"]["building"]) == ["23"]
    panel.awards.item(1, 0).setText('per_hex_controlled: {building: ["23", "24"]}')
    qtbot.waitUntil(lambda: list(points["awards"][1]["per_hex_controlled"]["building"]) == ["23", "24"])
    assert list(points["awards"][1]) == ["per_hex_controlled", "vp"]
    panel.awards.item(1, 0).setText("lots")  # not a scope: refused, with the forms it takes
    qtbot.waitUntil(lambda: "per_building_controlled: {map: map1}" in panel.message.text())
    window.undo_stack.undo()
    assert list(points["awards"][1]["per_hex_controlled"]["building"]) == ["23"]
    for row in (1, 0):
        panel.awards.selectRow(row)
        assert panel.remove_award()
    assert "points" not in victory(window) and "results" in victory(window)
    window.undo_stack.undo()
    assert len(victory(window)["points"]["awards"]) == 1
