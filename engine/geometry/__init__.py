"""Geometry on the board: compass directions, zones, (later) line of sight and movement."""
