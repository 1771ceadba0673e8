"""A guard against a reference bug of PySide6 6.12 on Python 3.11.

PySide6 6.12 returns None from its void methods (setText, setToolTip, ...) without taking a
reference to it: harmless from Python 3.12, where None is immortal (PEP 683), but on 3.11 each
call takes one reference away from None, and after a few thousand calls the interpreter aborts
("Fatal Python error: none_dealloc: deallocating None"). Until PySide6 is fixed, None is given
references it can never lose, as 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys


def keep_none_alive() -> None:
    if sys.version_info < (3, 12) and sys.implementation.name == "cpython":
        ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40  # PyObject.ob_refcnt
