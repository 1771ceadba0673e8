"""The validator's errors-only run, which decides whether a game may start (engine/game/play.py):
it leaves out the checks that only inform or warn, and finds every error the whole run finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.model.source import SourceDocument, SourceError, parse_yaml
from engine.problems import Severity
from engine.resources import bundled_scenarios
from engine.validate.runner import validate_document

from .fuzzing import mutants

FIXTURES = sorted(Path(__file__).parent.glob("fixtures/*/*.yaml"))


def _errors(doc: SourceDocument, errors_only: bool) -> list[str]:
    return [p.text() for p in validate_document(doc, errors_only=errors_only) if p.severity is Severity.ERROR]


@pytest.mark.slow
def test_errors_only_finds_every_error_of_the_whole_run() -> None:
    """The bundled scenarios, the test fixtures and mutants of the scenarios (hexes off the map,
    numbers out of range, keys replaced): the same errors, in the same order."""
    docs = []
    for source in [*bundled_scenarios(), *FIXTURES]:
        docs.append(parse_yaml(source.read_text(encoding="utf-8"), str(source)))
    for mutant in mutants(list(bundled_scenarios()), 40, seed=20261203):
        try:
            docs.append(parse_yaml(mutant.text, str(mutant.source)))
        except SourceError:
            continue
    found = [(_errors(doc, True), _errors(doc, False)) for doc in docs]
    assert all(fast == whole for fast, whole in found)
    assert sum(bool(whole) for _, whole in found) >= 5  # the mutants do break rules


def test_errors_only_leaves_out_the_figures() -> None:
    """assumed-used (an assumed value the scenario relies on) is information for its designer: not
    run to start a game."""
    doc = parse_yaml(bundled_scenarios()[0].read_text(encoding="utf-8"), str(bundled_scenarios()[0]))
    whole = {p.code for p in validate_document(doc)}
    fast = {p.code for p in validate_document(doc, errors_only=True)}
    assert "assumed-used" in whole and "assumed-used" not in fast
    assert fast < whole
