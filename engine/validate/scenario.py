"""Scenario validation: maps and errata load, the north indicator, zones, units and clauses."""

from __future__ import annotations

from engine.model.counters import bundled_counters
from engine.model.mapsheet import LoadError
from engine.model.scenario import scenario_from_document
from engine.model.source import SourceDocument, SourceError
from engine.problems import Problem, count_errors

from .checks import scenario_maps, seam_agreement, squad_clause, unit_exists, zone_resolves


def scenario_problems(doc: SourceDocument) -> list[Problem]:
    scenario = scenario_from_document(doc)
    counters = bundled_counters()
    problems: list[Problem] = [*unit_exists.check(scenario, counters), *squad_clause.check(scenario, counters)]
    try:
        board = scenario.load_board()
    except (SourceError, FileNotFoundError) as exc:
        return [*problems, scenario_maps.CHECK.problem(doc, ("maps",), f"cannot load the maps: {exc}")]
    except LoadError as exc:
        return [
            *problems,
            scenario_maps.CHECK.problem(doc, ("maps",), f"{exc.file} is not a valid map or errata file"),
            *exc.problems,
        ]
    problems += seam_agreement.check(board)
    north = list(scenario_maps.check_north(scenario, board))
    problems += north
    if not count_errors(north):
        problems += zone_resolves.check(scenario, scenario.zone_context(board))
    return problems
