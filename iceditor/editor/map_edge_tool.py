"""The Map edge tool (D): a click on a hex of a map edge adds that edge to the expression of the zone
in the Zones panel (a click again takes it out; a corner hex clicked again gives its other edge)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap

from engine.geometry.zones import ZoneContext, resolve
from engine.hexgrid import Hex

from .scenario_data import block, flow, sequence, yaml_text
from .scenario_panels import ScenarioPanels, show_dock
from .window import MainWindow, Tool

if TYPE_CHECKING:
    from .features.zone_editor import ZonePanel

EDGES = ("north", "east", "south", "west")


def edges_at(h: Hex, ctx: ZoneContext, maps: list[str]) -> list[Any]:
    """The map-edge expressions whose hexes hold `h`: the assembled map's edges, else (a seam
    between two maps) the edges of the map it is on, `{edge, map}`."""
    found: list[Any] = [e for e in EDGES if h in resolve({"map_edge": e}, ctx)]
    if found or len(maps) < 2:
        return found
    return [flow(edge=e, map=m) for m in maps for e in EDGES if h in resolve({"map_edge": {"edge": e, "map": m}}, ctx)]


def toggled_edge(expression: Any, edge: Any) -> Any:
    """The expression with the map edge added (a lone edge, or `any_of` of edges), or taken out if
    it is there; anything but edges is replaced by the edge."""
    plain = json.loads(json.dumps(edge))
    parts: list[Any] = []
    if isinstance(expression, dict) and "map_edge" in expression:
        parts = [expression]
    elif isinstance(expression, dict) and "any_of" in expression:
        parts = list(expression["any_of"])
        if not all(isinstance(p, dict) and "map_edge" in p for p in parts):
            parts = []
    kept = [p for p in parts if json.loads(json.dumps(p["map_edge"])) != plain]
    if len(kept) == len(parts):
        kept.append(flow(map_edge=edge))
    if len(kept) == 1:
        return kept[0] if isinstance(kept[0], CommentedMap) else flow(**kept[0])
    return block([("any_of", sequence(kept))]) if kept else None


class MapEdgeTool(Tool):
    """Click a hex on a map edge: the zone in the Zones panel gets that edge (again: takes it out)."""

    name = "map-edge"
    label = "Map edge zone"
    shortcut = "D"
    group = "scenario"
    tip = "Pick map edges for the zone in the Zones panel: click a hex on an edge (again to take it out)"

    def __init__(self, window: MainWindow, shared: ScenarioPanels, panel: ZonePanel) -> None:
        super().__init__(window)
        self.shared, self.panel = shared, panel
        self._last: tuple[Hex, int] | None = None  # a corner hex clicked again: its other edge

    def press(self, h: Hex, event: Any) -> None:
        if not self.shared.active:
            return
        self.panel.catch_up()  # its first zone chosen, if its tab has not been shown yet
        if self.panel.name is None:
            self.window.statusBar().showMessage("Choose or add a zone in the Zones panel first", 5000)
            return
        try:
            ctx = self.panel.context()
            edges = edges_at(h, ctx, list(self.shared.scenario.maps))
        except ValueError as exc:  # no valid north indicator: the edges have no names yet
            self.window.statusBar().showMessage(f"Map edges: {exc}", 5000)
            return
        if not edges:
            self.window.statusBar().showMessage(f"{self.shared.label(h)} is on no map edge", 4000)
            return
        turn = self._last[1] + 1 if self._last is not None and self._last[0] == h else 0
        self._last = (h, turn)
        edge = edges[turn % len(edges)]
        try:
            current = self.panel.parsed()
        except ValueError:
            current = None
        expression = toggled_edge(current, edge)
        show_dock(self.panel)
        self.panel.pages.setCurrentIndex(0)
        self.panel.editor.setPlainText(yaml_text(expression) if expression is not None else "")
        self.panel.preview()
        shown = edge if isinstance(edge, str) else f"{edge['edge']} of {edge['map']}"
        self.window.statusBar().showMessage(f"Zone {self.panel.name}: {shown} edge; Apply makes it so", 5000)
