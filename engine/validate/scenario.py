"""Scenario validation: every scenario check, sharing one context (board, zones, geometry)."""

from __future__ import annotations

from engine.model.scenario import scenario_from_document
from engine.model.source import SourceDocument
from engine.problems import Problem

from .context import ScenarioContext
from .registry import runners


def scenario_problems(doc: SourceDocument, *, errors_only: bool = False) -> list[Problem]:
    """The problems of a scenario document that meets its schema (runner.validate_document checks
    that first); `errors_only`: the checks that report errors only (`registry.runners`)."""
    ctx = ScenarioContext(scenario_from_document(doc, checked=True))
    return [p for check in runners("check_scenario", errors_only=errors_only) for p in check(ctx)]
