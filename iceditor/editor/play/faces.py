"""What each counter of a scenario prints (2.21-2.23): its unit and its key values, from the
countersheet data (counters/counters.yaml through engine.game.units.field_units), by unit id.

A face is the scenario's, never the game's: the board in play draws a unit of the view on the face
of its id, and learns nothing from the face the view does not give (every side knows the counters
a scenario fields: 24.1's lists).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.model.counters import Counters
from engine.model.scenario import Scenario

if TYPE_CHECKING:
    from engine.game.units import Unit

# the default zoom of the board in play, screen pixels a map unit: a counter's print 8-10 px high
# (counter_drawing.py), a hex 72 px across
PLAY_ZOOM = 1.5
KINDS = {"infantry": "", "ft": "", "commander": "", "cw": "crew-served weapon ", "afv": "AFV "}


@dataclass(frozen=True)
class Face:
    """A counter's print: `unit` its first line (squad letter and weapon, rank, or type and number),
    `values` its second (AP factor-range, AT factor and armour), `strip` its third (PR...), and
    `name` and `detail` in words (for a tooltip and an opened stack); `crew` a CW's full crew
    (8.12), so that a crew short of it shows on the counter."""

    unit: str
    values: str
    strip: str
    name: str
    detail: str
    crew: int | None = None


def face_of(unit: Unit) -> Face:
    ap, reach, at = unit.value("ap_factor"), unit.value("initial_range"), unit.value("at_factor")
    pr = f"PR{unit.pr}"
    side = unit.side.capitalize()
    if unit.kind == "afv":
        frontal, flank = unit.value("frontal"), unit.value("flank")
        first, values, strip = f"{unit.type} {unit.number}", f"AT{at} {frontal}/{flank}", pr
        detail = (
            f"AT {at}, armour {frontal} frontal / {flank} flank, AP {ap} range {unit.value('ap_range')}, "
            f"overrun {unit.value('overrun')}, MF {unit.movement:g}"
        )
    elif unit.kind == "cw":
        first, values = f"{unit.type} {unit.number}", f"{ap}-{reach}"
        strip = f"AT{at} {pr}" if at is not None else pr
        detail = f"AP {ap}, range {reach}" + (f", AT {at}" if at is not None else "") + f", crew {unit.men}"
    else:
        first = f"{unit.squad} {unit.type}" if unit.squad else unit.type
        values = f"r{reach}" if ap is None else f"{ap}-{reach}"  # 16.0: an FT has no AP factor
        strip = pr
        detail = ("no AP factor (16.0)" if ap is None else f"AP {ap}") + f", range {reach}"
        detail += f", assault {unit.value('assault_rating')}"
    squad = f"Squad {unit.squad} " if unit.squad else ""
    name = f"{side} {KINDS[unit.kind]}{squad}{unit.type}" + (f" #{unit.number}" if unit.number else "") + f" {pr}"
    return Face(first, values, strip, name, detail, unit.men if unit.kind == "cw" else None)


def printed_faces(scenario: Scenario, counters: Counters) -> dict[str, Face]:
    """Every unit the scenario fields, by the id the game gives it, with its face. The game engine
    is imported here, not with the module: the legend (and `iceditor snapshot`'s options) draw and
    name faces before any game is played (issue 22: the editor's open)."""
    from engine.game.units import field_units

    return {u.id: face_of(u) for u in field_units(scenario, counters)}
