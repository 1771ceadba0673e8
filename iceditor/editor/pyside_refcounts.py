"""A guard against the reference bugs of PySide6 6.12.0 on Python 3.11.

PySide6 6.12.0 returns None from its void methods (setText, setToolTip, ...) and passes True
and False to the slots of bool signals (toggled, triggered, cleanChanged, ...) without taking a
reference to them. From Python 3.12 that is harmless, as these three are immortal (PEP 683); on
3.11 each call or emission takes a reference away, and after a few thousand the interpreter
aborts ("Fatal Python error: none_dealloc" or "bool_dealloc"). The editor connects dozens of bool
signals, so a long session died. `pyproject.toml` excludes 6.12.0; for an environment that has
it anyway, these objects are given references they can never lose, as 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys

_SINGLETONS = (None, True, False)


def keep_singletons_alive() -> None:
    if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
        for singleton in _SINGLETONS:
            ctypes.c_ssize_t.from_address(id(singleton)).value += 1 << 40  # PyObject.ob_refcnt
