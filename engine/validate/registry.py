"""Every check, found in engine/validate/checks/: the runner runs them, docs/checks.md lists them."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

from engine.problems import Severity

from . import checks
from .check import Check

KINDS = ("check_document", "check_map", "check_errata", "check_scenario")


@cache
def modules() -> tuple[ModuleType, ...]:
    found = [importlib.import_module(f"{checks.__name__}.{m.name}") for m in pkgutil.iter_modules(checks.__path__)]
    return tuple(sorted(found, key=lambda m: m.__name__))


def runners(kind: str, *, errors_only: bool = False) -> list[Callable[..., Iterator[Any]]]:
    """The `kind` functions of every check module (kind: one of KINDS); `errors_only`: of the
    modules with a check that reports errors only (all that refuses a game: play.py)."""
    return [getattr(m, kind) for m in modules() if hasattr(m, kind) and (not errors_only or _reports_errors(m))]


@cache
def _reports_errors(module: ModuleType) -> bool:
    return any(isinstance(c, Check) and c.severity is Severity.ERROR for c in vars(module).values())


def all_checks() -> list[Check]:
    """Every Check of every module, sorted by code; a code is defined once."""
    found: dict[str, Check] = {}
    for m in modules():
        for c in vars(m).values():
            if isinstance(c, Check):
                if found.get(c.id, c) != c:
                    raise ValueError(f"check code {c.id!r} is defined twice, differently ({m.__name__})")
                found[c.id] = c
    return [found[k] for k in sorted(found)]
