"""Values the rulebook gives in words without printing the number are `inferred`, with the words
and the reasoning, and counted apart from printed and assumed ones (provenance policy)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.model.counter_values import counter_values
from engine.model.counters import bundled_counters
from engine.model.provenance import sourced_values
from engine.model.schema_validation import validator
from engine.model.source import load_yaml
from engine.validate.runner import validate_paths
from iceditor.cli import main

REPO = Path(__file__).resolve().parent.parent
COUNTERS = REPO / "counters" / "counters.yaml"

INFERRED = {
    "/infantry_weapons/russian/R/ap_factor": "11.2 example",  # "A Russian infantry unit": the weapon is not named
    "/infantry_weapons/russian/R/initial_range": "11.2 example",
    "/crew_weapons/russian/ATR/crew": "8.3 example",  # "an ATR CW unit (two man crew)": no side named
    "/crew_weapons/german/ATR/crew": "8.3 example",
    "/crew_weapons/russian/MOR/crew": "14.12",  # fully crewed, then two, then one: three men
    "/crew_weapons/german/MOR/crew": "14.12",
}


def test_the_values_read_from_an_example_or_a_limit_are_inferred_with_their_reasoning() -> None:
    found = {v.pointer: v.note for v in sourced_values(load_yaml(COUNTERS)) if v.provenance == "inferred"}
    assert set(found) == set(INFERRED)
    for pointer, rule in INFERRED.items():
        assert found[pointer].startswith(rule) and ": " in found[pointer]  # the words, then the reasoning


def test_validate_counts_inferred_values_apart() -> None:
    (line,) = [p for p in validate_paths([COUNTERS]) if p.code == "inferred-values"]
    assert line.message.startswith("6 inferred values")


def test_counter_values_and_the_provenance_listing_say_inferred(capsys: Any) -> None:
    rifle = counter_values(bundled_counters(), "russian", "squad", "A", member=2)
    assert rifle["ap_factor"].inferred and not rifle["ap_factor"].assumed and rifle["ap_factor"].value == 4
    assert main(["provenance", str(COUNTERS)]) == 0
    assert "inferred: /crew_weapons/german/MOR/crew = 3" in capsys.readouterr().out


@pytest.mark.parametrize("kinds", [("printed", "inferred"), ("inferred", "assumed")])
def test_a_value_has_one_provenance(kinds: tuple[str, str]) -> None:
    data = copy.deepcopy(yaml.safe_load(COUNTERS.read_text(encoding="utf-8")))
    data["crew_weapons"]["german"]["MOR"]["crew"] = {"value": 3, **{k: "a source" for k in kinds}}
    assert list(validator("counters").iter_errors(data))
