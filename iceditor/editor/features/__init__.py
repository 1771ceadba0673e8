"""Editor features, one module each: `install(window)` adds its tools, docks, menus and overlays.

`ORDER` (default 50) sets the order they are installed in (and so their menu order)."""
