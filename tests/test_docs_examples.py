"""Documents that run (issue 24): every YAML example in docs/ is read by the loader, and each that
declares a `format:` validates with no error (an excerpt of a bundled file says so on its first
line, `# an excerpt of ...`, and is read only)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.model.source import parse_yaml
from engine.validate.runner import validate_document

DOCS = Path(__file__).resolve().parent.parent / "docs"
EXAMPLES = [
    pytest.param(
        block.group(1), id=f"{page.name}:{page.read_text(encoding='utf-8')[: block.start()].count(chr(10)) + 1}"
    )
    for page in sorted(DOCS.glob("*.md"))
    for block in re.finditer(r"```yaml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
]


def test_the_docs_hold_yaml_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("text", EXAMPLES)
def test_a_yaml_example_of_the_docs_reads_and_validates(tmp_path: Path, text: str) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    doc = parse_yaml(text, str(path))  # every example is YAML the loader reads
    if not re.search(r"^format: ", text, re.M) or text.startswith("# an excerpt of "):
        return
    errors = [p.text() for p in validate_document(doc) if p.severity.name == "ERROR"]
    assert errors == []
