"""Playtest mode: a game of the scenario being edited, played in the window (docs/editor.md, Playtest)."""
