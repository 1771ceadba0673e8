"""What is dragged onto the map to build a test set-up: a unit (from the OOB tree) or a marker (an
IP, a mined hex, a hidden hex, from the set-up panel), as a set-up entry of one side."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QMimeData

MIME = "application/x-iceditor-setup"


def setup_mime(side: str, section: str, entry: dict[str, Any]) -> QMimeData:
    """`section`: the side's set-up list the entry joins (units, improved_positions, mines,
    hidden_hexes); `entry`: its keys without the hex, which the drop gives."""
    mime = QMimeData()
    mime.setData(MIME, json.dumps({"side": side, "section": section, "entry": entry}).encode())
    mime.setText(json.dumps(entry))
    return mime


def read_setup_mime(mime: QMimeData) -> tuple[str, str, dict[str, Any]] | None:
    if not mime.hasFormat(MIME):
        return None
    found = json.loads(bytes(mime.data(MIME).data()).decode())
    return found["side"], found["section"], found["entry"]
