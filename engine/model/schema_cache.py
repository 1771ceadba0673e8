"""Schema verdicts kept on disk between processes (issue 22: JSON Schema validation was a third of
`iceditor validate`'s time on files that had not changed).

Only "meets the schema" is kept: a document with schema errors is validated again each time, so
its problems and their lines always come from the file as it is. The key is the document's data
(its `repr`: values of the YAML safe loader, where 1, 1.0 and true differ), the schema's name, the
schema files, the code that validates (schema.py, schema_files.py, schema_validation.py) and
the installed packages' versions (jsonschema's): any change to them is a new key, never a stale
verdict. One empty file a key, in engine/cache_folder.py's folder; a file that cannot be written
is no cache, never an error."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from engine.cache_folder import cache_folder, installed_packages
from engine.file_writing import atomic_write
from engine.resources import data_path


@cache
def _code_version() -> str:
    digest = hashlib.sha256(installed_packages().encode())  # jsonschema's version among them
    for module in ("schema.py", "schema_files.py", "schema_validation.py"):
        digest.update(Path(__file__).with_name(module).read_bytes())
    for path in sorted(data_path("schemas").glob("*.schema.json")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _verdict_file(name: str, data: Any) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256(_code_version().encode())
    digest.update(name.encode() + b"\0" + repr(data).encode())
    return folder / f"schema-ok-{digest.hexdigest()[:32]}"


def known_valid(name: str, data: Any) -> bool:
    """Whether `data` was found to meet the `name` schema before, by this code and these schemas."""
    path = _verdict_file(name, data)
    return path is not None and path.is_file()


def remember_valid(name: str, data: Any) -> None:
    path = _verdict_file(name, data)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, b"")
    except OSError:
        pass  # a cache that cannot be written is no cache, never an error
