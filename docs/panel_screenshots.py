"""The screenshots of docs/editor.md's scenario panels, made in a real window at 1366x768:

    Xvfb :15 -screen 0 1366x768x24 &
    DISPLAY=:15 PYTHONPATH=. python3 docs/panel_screenshots.py

Each opens a copy of Scenario 1 (the repository's files are never written), brings one panel to
the front as a user would and saves the window."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

REPO = Path(__file__).resolve().parents[1]
IMAGES = REPO / "docs" / "images"


def main() -> None:
    from iceditor.editor.document import open_document
    from iceditor.editor.features.sides_panel import SidesPanel
    from iceditor.editor.features.source_panel import SourcePanel
    from iceditor.editor.features.zone_editor import ZonePanel
    from iceditor.editor.scenario_panels import show_dock
    from iceditor.editor.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    folder = Path(tempfile.mkdtemp())
    shutil.copytree(REPO / "scenarios", folder / "scenarios")
    shutil.copytree(REPO / "maps", folder / "maps")
    os.chdir(folder)  # the files named as a user in their folder sees them: scenarios/..., maps/...

    def window_on(name: str) -> MainWindow:
        window = MainWindow(open_document(folder / "scenarios" / name))
        window.show()
        window.fit_screen()
        for _ in range(5):
            app.processEvents()
        return window

    def scroll_to(widget: QWidget) -> None:
        """The dock scrolled down to `widget`, as a user would."""
        area = widget.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(widget)
            app.processEvents()

    def settle(window: MainWindow) -> None:
        for _ in range(50):
            app.processEvents()
            if not window._revalidate.isActive():
                break
            window._revalidate_step()
        app.processEvents()

    # the deployment editor: Scenario 1's German deployment chosen, its hexes on the map, its marks open
    window = window_on("s1-demyansk-pocket.yaml")
    zones = window.findChild(ZonePanel).starts_page
    zones.show_starts()
    zones.starts.selectRow(zones.start_paths.index(("sides", "german", "deployment", 0)))
    zones.marks.open()
    window.view.centre_on(window.document.board.hex("4310"))
    settle(window)
    scroll_to(zones.marks.fields["printed"])
    zones.window.grab().save(str(IMAGES / "editor-s1-deployments.png"))
    # a group with no deployment: its row in red, the problem that leads there
    zones.remove_start()
    settle(window)
    problem = next(p for p in window.problems if p.code == "unit-not-placed")
    window.problem_chosen.emit(problem)
    settle(window)
    window.grab().save(str(IMAGES / "editor-s1-not-placed.png"))
    window.hide()  # not closed: it would ask whether to save the edit
    # a deployment of units rather than a group: its units under its row, in view at 1366x768
    window = window_on("s1-demyansk-pocket.yaml")
    zones = window.findChild(ZonePanel).starts_page
    zones.show_starts()
    zones.starts.selectRow(zones.start_paths.index(("sides", "german", "deployment", 0)))
    zones.units.name_units()
    zones.units.units.setCurrentRow(1)
    window.view.centre_on(window.document.board.hex("4310"))
    settle(window)
    window.grab().save(str(IMAGES / "editor-s1-units.png"))
    window.hide()
    # the Sides page: the Germans' grenades, hidden hexes, IPs; special rules
    window = window_on("s1-demyansk-pocket.yaml")
    sides = window.findChild(SidesPanel)
    show_dock(sides)
    settle(window)
    window.grab().save(str(IMAGES / "editor-s1-sides.png"))
    # the Source page scrolled to the assertions, the LOS fact from Hill K chosen
    source = window.findChild(SourcePanel)
    show_dock(source)
    source.assertions.table.selectRow(1)
    settle(window)
    scroll_to(source.assertions.message)
    window.grab().save(str(IMAGES / "editor-s1-assertions.png"))
    window.hide()  # not closed: it would ask whether to save the edit


if __name__ == "__main__":
    main()
