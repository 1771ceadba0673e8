"""The `iceditor` command line.

Exit codes: 0 no errors (warnings and info allowed); 1 errors found; 2 a file cannot be read
or is not YAML at all, or the command line is wrong. Problems print as
`path:line:col: severity: message (rule) [code]`; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.model.source import SourceError
from engine.problems import Problem, Severity, count_errors

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNREADABLE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="iceditor", description="Iron Cross scenario and map editor")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    validate = commands.add_parser(
        "validate",
        help="check maps, errata, tables, counters and scenarios",
        description="Check files against their schema and the rules. With no FILE: all bundled data.",
    )
    validate.add_argument("files", nargs="*", type=Path, metavar="FILE")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return EXIT_OK
    try:
        if args.command == "validate":
            return _validate(args.files, args.format)
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug must still not end in a traceback for the user
        print(f"iceditor: internal error: {type(exc).__name__}: {exc} (please report it)", file=sys.stderr)
        return 3
    return EXIT_OK


def _validate(files: list[Path], output: str) -> int:
    from engine.model.source import load_yaml
    from engine.validate.runner import bundled_files, validate_document

    paths = files or [_shown(p) for p in bundled_files()]
    problems: list[Problem] = []
    unreadable = False
    for path in paths:
        try:
            doc = load_yaml(path)
        except SourceError as exc:
            unreadable = True
            problems.append(
                Problem("unreadable", Severity.ERROR, exc.message, file=exc.file, line=exc.line, column=exc.column)
            )
            continue
        problems += validate_document(doc)
    _print(problems, output, len(paths))
    if unreadable:
        return EXIT_UNREADABLE
    return EXIT_ERRORS if count_errors(problems) else EXIT_OK


def _shown(path: Path) -> Path:
    """A bundled file as the user would name it: relative to the current folder when inside it."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _print(problems: list[Problem], output: str, n_files: int) -> None:
    if output == "json":
        json.dump({"problems": [p.as_json() for p in problems]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    for p in problems:
        print(p.text())
    counts = {s: sum(1 for p in problems if p.severity is s) for s in Severity}
    summary = ", ".join(f"{n} {s.value}{'s' if n != 1 and s is not Severity.INFO else ''}" for s, n in counts.items())
    print(f"{n_files} file{'s' if n_files != 1 else ''} checked: {summary}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
