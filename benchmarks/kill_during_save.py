"""What a `kill -9` in the middle of an autosave or a save leaves behind, one JSON object.

    python benchmarks/kill_during_save.py [KILLS]

A child process writes autosave rounds of a two-file document (a scenario and its map, each
copy saying which round it is from) and saves of a file, over and over; the parent kills it
with SIGKILL after a random few milliseconds, KILLS times (default 150), and after each kill
looks at what a restore would get and what is left on disk. Two ways of writing, in the same
run:

- `naive`: the way the editor wrote before: each copy atomically under a fixed name, then the
  manifest (no checksums), temporary files named by `tempfile.mkstemp` and never cleaned.
- `editor`: iceditor's (`autosave.write_autosave`, `engine.file_writing.atomic_write`): a round's
  copies under names of their own, the manifest with checksums last, stale temporary files
  removed by the next write or open.

`mixed` counts restores that would pair the scenario of one round with the map of another
(a state the editor never had); `refused` counts sets a restore refuses (`DamagedAutosave`);
`temps_left` the temporary files beside the saved file after the last kill and one more open.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)  # the project's packages, from a checkout not installed too

CHILD = r"""
import json, os, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, {root!r})
way, folder, saved = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
if way == "editor":
    from iceditor.editor.features import autosave
    from engine.file_writing import atomic_write

BODY = "x" * 60_000  # a map's size: the write takes a while

def naive_write(path, text):
    fd, temp = tempfile.mkstemp(prefix=f".{{path.name}}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w") as out:
        out.write(text); out.flush(); os.fsync(out.fileno())
    os.replace(temp, path)

class File:
    def __init__(self, path): self.path, self.dirty, self.on_disk, self.round = path, True, None, 0
    def text(self): return f"round {{self.round}}\n{{BODY}}"

class Document:
    def __init__(self):
        self.path = Path("/nowhere/s6.yaml")
        self._files = [File(self.path), File(Path("/nowhere/map2.yaml"))]
    def files(self): return self._files

document = Document()
n = int(time.time_ns() % 1_000_000) * 1000  # every run's rounds differ
print("ready", flush=True)
while True:
    n += 1
    for f in document.files():
        f.round = n
    if way == "naive":
        files = {{}}
        for i, f in enumerate(document.files()):
            naive_write(folder / f"{{i}}-{{f.path.name}}", f.text())
            files[str(f.path)] = f"{{i}}-{{f.path.name}}"
        naive_write(folder / "autosave.json", json.dumps({{"time": time.time(), "files": files}}))
        naive_write(saved, f"saved {{n}}\n{{BODY}}")
    else:
        autosave.write_autosave(document, folder)
        atomic_write(saved, f"saved {{n}}\n{{BODY}}")
"""


def restore_naive(folder: Path) -> tuple[str, ...] | None:
    try:
        manifest = json.loads((folder / "autosave.json").read_text())
        return tuple((folder / name).read_text().split("\n", 1)[0] for name in manifest["files"].values())
    except (OSError, ValueError, KeyError):
        return None


def restore_editor(folder: Path) -> tuple[str, ...] | str | None:
    from iceditor.editor.features import autosave

    try:
        manifest = json.loads((folder / autosave.MANIFEST).read_text())
        found = autosave.Autosaved(
            folder, 0.0, {Path(k): (folder / v["copy"], v["sha256"]) for k, v in manifest["files"].items()}
        )
        return tuple(text.split("\n", 1)[0] for text in found.texts().values())
    except autosave.DamagedAutosave:
        return "refused"
    except (OSError, ValueError, KeyError):
        return None


def run(way: str, kills: int, seed: int) -> dict[str, object]:
    from engine.file_writing import remove_stale_temps, remove_stale_temps_in

    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix=f"kill-{way}-"))
    folder, saved = work / "autosave" / "set", work / "s6.yaml"
    folder.mkdir(parents=True)
    saved.write_text("saved 0\n")
    script = CHILD.format(root=str(ROOT))
    found = mixed = refused = 0
    for _ in range(kills):
        child = subprocess.Popen(
            [sys.executable, "-c", script, way, str(folder), str(saved)], stdout=subprocess.PIPE, text=True
        )
        assert child.stdout is not None and child.stdout.readline() == "ready\n"  # imports done: it writes now
        time.sleep(rng.uniform(0.002, 0.05))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        restored = restore_naive(folder) if way == "naive" else restore_editor(folder)
        if restored == "refused":
            refused += 1
        elif restored is not None:
            found += 1
            mixed += len(set(restored)) > 1
        assert saved.read_text().startswith("saved "), "a save left the file half written"
    temps = list(work.rglob(".*.tmp"))
    if way == "editor":
        remove_stale_temps(saved)  # the next open (every writer is dead: each temp is stale)
        remove_stale_temps_in(folder)  # the next autosave
    left = list(work.rglob(".*.tmp"))
    return {
        "kills": kills,
        "autosaves_found": found,
        "mixed": mixed,
        "refused": refused,
        "temps_after_kills": len(temps),
        "temps_left": len(left),
    }


def main() -> None:
    kills = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    print(json.dumps({way: run(way, kills, seed=20261201) for way in ("naive", "editor")}, indent=2))


if __name__ == "__main__":
    main()
