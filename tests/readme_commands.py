"""The README's commands, read from README.md so that CI runs exactly what a reader copies.

- `quick_start()`: the two lines of the Quick start (CI runs them in a fresh clone, in a fresh
  virtual environment: .ci/run).
- `cli_examples()`: every `iceditor ...` line of the other `sh` blocks, but those that open the
  editor's window. `run_examples` runs them in a folder of its own with an installed copy's
  `iceditor`, from where no repository is in sight (tests/test_packaging.py, .ci/run).

    python3 tests/readme_commands.py quick-start          # prints the commands, one a line
    python3 tests/readme_commands.py examples BIN FOLDER  # runs the examples with BIN/iceditor
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^## (?P<section>[^\n]+)$|^```sh\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)
# The README's stand-ins for the reader's own files: copies of bundled ones (a scenario of your own
# that names `maps: [map2]` beside no map file reads the bundled map).
OWN_FILES = {"my-scenario.yaml": ("scenarios", "s1-demyansk-pocket.yaml"), "my-map.yaml": ("maps", "map2.yaml")}
EXAMPLE_TIMEOUT = 300  # seconds for one command, on a loaded machine


def _blocks(readme: Path = README) -> list[tuple[str, list[str]]]:
    """Each `sh` block's non-empty lines, with the `## ` section it stands in."""
    blocks, section = [], ""
    for match in BLOCK.finditer(readme.read_text(encoding="utf-8")):
        if match["section"]:
            section = match["section"].strip()
        else:
            blocks.append((section, [line for line in match["code"].splitlines() if line.strip()]))
    return blocks


def quick_start(readme: Path = README) -> list[str]:
    """The Quick start's commands, as written."""
    commands = [lines for section, lines in _blocks(readme) if section == "Quick start"]
    if len(commands) != 1:
        raise ValueError(f"{readme}: expected one sh block under '## Quick start', found {len(commands)}")
    return commands[0]


def _without_comment(line: str) -> str:
    return re.sub(r"\s+#\s.*$", "", line).strip()


def opens_a_window(argv: list[str]) -> bool:
    """`iceditor` alone and `iceditor edit` show the editor and wait for the user."""
    return len(argv) == 1 or argv[1] == "edit"


def cli_examples(readme: Path = README) -> list[str]:
    """The `iceditor` command lines outside the Quick start that finish by themselves."""
    lines = [_without_comment(line) for section, block in _blocks(readme) if section != "Quick start" for line in block]
    return [line for line in lines if line.split()[0] == "iceditor" and not opens_a_window(shlex.split(line))]


@dataclass
class Outcome:
    command: str
    returncode: int
    output: str


def run_examples(bin_dir: Path, folder: Path, data_root: Path, env: dict[str, str] | None = None) -> list[Outcome]:
    """Run every example with `bin_dir/iceditor` in `folder` (made, holding copies for the README's
    own files from `data_root`); the outcomes of the commands that failed (exit code not 0, or a traceback)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, parts in OWN_FILES.items():
        shutil.copy(data_root.joinpath(*parts), folder / name)
    failed = []
    for command in cli_examples():
        argv = shlex.split(command)
        for word in argv:
            if word.startswith("my-") and word not in OWN_FILES:
                raise ValueError(f"{README}: {command!r} names {word}: add a stand-in for it to OWN_FILES")
        result = subprocess.run(
            [str(bin_dir / "iceditor"), *argv[1:]],
            cwd=folder,
            capture_output=True,
            text=True,
            env=env,
            timeout=EXAMPLE_TIMEOUT,
        )
        output = result.stdout + result.stderr
        if result.returncode != 0 or "Traceback" in output:
            failed.append(Outcome(command, result.returncode, output[-2000:]))
    return failed


def main(argv: list[str]) -> int:
    if argv[:1] == ["quick-start"]:
        print("\n".join(quick_start()))
        return 0
    if argv[:1] == ["examples"] and len(argv) == 3:
        bin_dir, folder = Path(argv[1]), Path(argv[2])
        probe = "import engine.resources as r; print(r.data_root())"
        found = subprocess.run([bin_dir / "python", "-c", probe], capture_output=True, text=True, check=True)
        data_root = Path(found.stdout.strip())
        failed = run_examples(bin_dir, folder, data_root)
        for outcome in failed:
            print(f"FAILED (exit {outcome.returncode}): {outcome.command}\n{outcome.output}", file=sys.stderr)
        print(f"{len(cli_examples()) - len(failed)} of {len(cli_examples())} README examples ran in {folder}")
        return 1 if failed else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
