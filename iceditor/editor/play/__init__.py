"""Playtest mode: a game of the scenario being edited, played in the editor window (issue 19)."""
