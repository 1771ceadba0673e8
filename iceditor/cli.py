"""The `iceditor` command line.

Exit codes: 0 no errors (warnings and info allowed); 1 errors found; 2 a file cannot be read
or is not YAML at all, or the command line is wrong. Problems print as
`path:line:col: severity: message (rule) [code]`; never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.file_writing import WriteRefused
from engine.model.map_folders import folders_allowed
from engine.model.source import SourceDocument, SourceError
from engine.problems import Problem, Severity, by_severity, count_errors
from engine.resources import given_or_bundled, is_bundled, shown_name

from .file_args import SCENARIO_HELP, file_arg
from .output import BadInput, command_error, file_error, print_json, print_table

if TYPE_CHECKING:
    from engine.model.provenance import Sourced

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2
FILE_HELP = "a path, or a bundled name (map2, errata, s1, combat...: iceditor list)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNREADABLE, f"{self.prog}: error: {message}\n")


# Every command in `iceditor --help`'s order, with its line there and the module that builds its
# parser and runs it (add_parsers(subparsers), run(args) -> exit code or None): only the module of
# the command named is imported, so that `--help` or `validate` loads no Qt, Dask or game engine
# (issue 22). "" is a command of this module.
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("", "check maps, errata, tables, counters and scenarios"),
    "checks": ("", "list every check: code, severity, rule, what it means, how to fix it"),
    "zone": ("", "list the hexes of a scenario's zone"),
    "provenance": ("", "list every value with its source: printed (rule, chart) or assumed (reason)"),
    "los": ("cli_sight", "line of sight between two hexes (10.3)"),
    "viewshed": ("cli_sight", "every hex a hex can see (10.3)"),
    "reach": ("cli_movement", "the hexes a unit can enter this phase, with the cheapest MP cost of each"),
    "path": ("cli_movement", "the cheapest path in MPs between two hexes"),
    "turns": (
        "cli_movement",
        "the fewest turns an unopposed NORMAL unit needs from one zone of a scenario to another",
    ),
    "errata": ("cli_errata", "what an errata file changes"),
    "edit": ("cli_editor", "open a scenario or map in the editor"),
    "snapshot": ("cli_snapshot", "draw the editor window with a file (and an overlay) to a PNG"),
    "render": ("cli_snapshot", "export the map alone, print-ready, as SVG or PNG"),
    "migrate": ("cli_migrate", "upgrade scenario files to the current format (iron-cross-scenario/2)"),
    "list": ("cli_list", "list the bundled maps, errata, scenarios, tables and counters, and their names"),
    "play": ("cli_game", "play a game of a scenario with the rules engine (AI players)"),
    "replay": ("cli_game", "replay a game's log: check it, or show the state at any point"),
    "odds": ("cli_odds", "the exact chances of a fire combat's results (AP 11.4, AT 12.3)"),
    "playtest": (
        "cli_playtest",
        "play a batch of AI games of a scenario and report its balance (Dask; docs/balance.md)",
    ),
}


def _module(name: str) -> Any:
    return importlib.import_module(f"{__package__}.{name}")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The command line, parsed by a parser that knows the named command whole and the others by
    their line in `--help` (SystemExit as argparse raises it: --help, --version, a wrong line)."""
    argv = list(argv)
    named = argv[0] if argv and not argv[0].startswith("-") else None  # -h, --version: the only options before it
    whole = COMMANDS[named][0] if named in COMMANDS else None  # the module of the named command
    parser = _Parser(prog="iceditor", description="Iron Cross scenario and map editor")
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, line) in COMMANDS.items():
        if module != whole:
            commands.add_parser(name, help=line)  # its line in --help; never parsed
    if whole == "":
        _own_parsers(commands)
    elif whole is not None:
        _module(whole).add_parsers(commands)
    for command in commands.choices.values():  # any command may read a scenario's maps and errata
        command.add_argument(
            "--allow-dir",
            action="append",
            type=Path,
            default=[],
            metavar="DIR",
            help="let scenarios name map and errata files under DIR too (besides their own folder)",
        )
    return parser.parse_args(argv)


def _own_parsers(commands: Any) -> None:
    """The parsers of this module's commands: validate, checks, zone, provenance."""
    validate = commands.add_parser(
        "validate",
        description="Check files against their schema and the rules. With no FILE: all bundled data.",
    )
    validate.add_argument("files", nargs="*", type=given_or_bundled, metavar="FILE", help=FILE_HELP)
    validate.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="github: workflow annotations; sarif: SARIF 2.1.0 for code-scanning tools",
    )
    validate.add_argument("--strict", action="store_true", help="treat warnings as errors")
    validate.add_argument(
        "--skip-other-yaml",
        action="store_true",
        help="quietly skip YAML files without an iron-cross `format:` (for pre-commit hooks)",
    )
    validate.add_argument(
        "--select", action="append", default=[], metavar="CODES", help="only these codes (comma list)"
    )
    validate.add_argument("--ignore", action="append", default=[], metavar="CODES", help="leave out these codes")
    checks = commands.add_parser(
        "checks",
        description="List every check iceditor validate runs (docs/checks.md is this list as markdown).",
    )
    checks.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    zone = commands.add_parser(
        "zone",
        description="Resolve a named zone of a scenario (on its maps, with its errata) and list its hexes.",
    )
    zone.add_argument("scenario", type=file_arg, metavar="SCENARIO", help=SCENARIO_HELP)
    zone.add_argument("name", nargs="?", metavar="NAME", help="a zone name; omit to list the scenario's zones")
    zone.add_argument("--format", choices=("text", "json"), default="text")
    provenance = commands.add_parser(
        "provenance",
        description="List sourced values. With no FILE: all bundled data (scenarios: assumed values only).",
    )
    provenance.add_argument("files", nargs="*", type=given_or_bundled, metavar="FILE", help=FILE_HELP)
    provenance.add_argument("--assumed", action="store_true", help="only the assumed values")
    provenance.add_argument(
        "--used",
        action="store_true",
        help="FILE is a scenario: the assumed values it rests on in its maps, errata, counters and the rule tables "
        "(the ones `iceditor validate` counts for it, assumed-used)",
    )
    provenance.add_argument("--format", choices=("text", "markdown", "json"), default="text")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
    except SystemExit as exc:  # --help (0), or a wrong command line: argparse has said why (2)
        return exc.code if isinstance(exc.code, int) else EXIT_UNREADABLE
    if args.command is None:  # `iceditor` alone opens the editor on Scenario 1
        args = parse(["edit"])
    try:
        with folders_allowed(args.allow_dir):
            return _run(args)
    except (BadInput, WriteRefused) as exc:  # WriteRefused: an output that is not written, and why
        print(exc, file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug must still not end in a traceback for the user
        print(f"iceditor: internal error: {type(exc).__name__}: {exc} (please report it)", file=sys.stderr)
        return 3


def _run(args: argparse.Namespace) -> int:
    if args.command == "validate":
        return _validate(args)
    if args.command == "checks":
        return _checks(args.format)
    if args.command == "zone":
        return _zone(args.scenario, args.name, args.format)
    if args.command == "provenance":
        return _provenance(args.files, args.assumed, args.used, args.format)
    status = _module(COMMANDS[args.command][0]).run(args)
    return EXIT_OK if status is None else int(status)


def _validate(args: argparse.Namespace) -> int:
    from engine.model.source import parse_yaml, read_text
    from engine.resources import bundled_files
    from engine.validate.verdict_cache import kept_problems

    select, ignore = _codes(args.select), _codes(args.ignore)
    paths = args.files or bundled_files()
    problems: list[Problem] = []
    unreadable = False
    for path in paths:
        try:
            text = read_text(path)
            if args.skip_other_yaml and "iron-cross-" not in text:
                continue  # no `format: iron-cross-...`: another tool's YAML (or empty), not held to our limits
            if args.skip_other_yaml and not str(_format_of(parse_yaml(text, str(path)))).startswith("iron-cross-"):
                continue
            # a file validated before, unchanged with all it reads, is not validated again (issue 22)
            problems += kept_problems("validate", str(path), text, partial(_validated, text, str(path)))
        except SourceError as exc:
            unreadable = True
            problems.append(
                Problem("unreadable", Severity.ERROR, exc.message, file=exc.file, line=exc.line, column=exc.column)
            )
    problems = [p for p in problems if (not select or p.code in select) and p.code not in ignore]
    problems = [replace(p, file=shown_name(p.file)) if p.file and is_bundled(Path(p.file)) else p for p in problems]
    if args.strict:
        problems = [replace(p, severity=Severity.ERROR) if p.severity is Severity.WARNING else p for p in problems]
    _print(by_severity(problems), args.format, len(paths))
    if unreadable:
        return EXIT_UNREADABLE
    return EXIT_ERRORS if count_errors(problems) else EXIT_OK


def _format_of(doc: SourceDocument) -> object:
    return doc.data.get("format") if isinstance(doc.data, dict) else None


def _validated(text: str, file: str) -> list[Problem]:
    from engine.model.source import parse_yaml
    from engine.validate.runner import validate_document  # the checks: imported only when a file is validated

    return validate_document(parse_yaml(text, file))


def _codes(values: list[str]) -> set[str]:
    """Check codes from repeated, comma-separated options; an unknown code is bad input."""
    codes = {c.strip() for v in values for c in v.split(",") if c.strip()}
    if not codes:
        return codes
    from engine.validate.registry import all_checks  # every check module: only for codes to check

    unknown = sorted(codes - {c.id for c in all_checks()})
    if unknown:
        raise BadInput(
            command_error("validate", f"unknown check code(s): {', '.join(unknown)} (see `iceditor checks`)")
        )
    return codes


def _checks(output: str) -> int:
    from engine.validate.registry import all_checks
    from engine.validate.report import checks_markdown

    checks = all_checks()
    if output == "markdown":
        sys.stdout.write(checks_markdown(checks))
    elif output == "json":
        rows = [
            {"code": c.id, "severity": c.severity.value, "rule": c.rule, "summary": c.summary, "fix": c.fix}
            for c in checks
        ]
        print_json({"checks": rows})
    else:
        rows = [(c.id, c.severity.value, c.rule or "-", c.summary) for c in checks]
        print_table([("code", "severity", "rule", "what it means"), *rows])
    return EXIT_OK


def _zone(path: Path, name: str | None, output: str) -> int:
    """The zones that resolve, listed; each that does not, reported as zone-empty reports it (exit 1)."""
    from engine.geometry.zones import ZoneError, resolve_named
    from engine.model.load_errors import LoadError
    from engine.model.scenario import scenario_from_document
    from engine.model.schema import schema_name
    from engine.model.source import load_yaml
    from engine.validate.checks.zone_resolves import CHECK as ZONE_EMPTY

    from .boardarg import not_a_scenario

    try:
        doc = load_yaml(path)
        if schema_name(doc) != "scenario":
            raise BadInput(not_a_scenario(path, doc))
        scenario = scenario_from_document(doc)
        board = scenario.load_board()
        ctx = scenario.zone_context(board)
    except SourceError as exc:
        print(f"{exc.file}:{exc.line}:{exc.column}: error: {exc.message}", file=sys.stderr)
        return EXIT_UNREADABLE
    except LoadError as exc:
        for problem in exc.problems:
            print(problem.text(), file=sys.stderr)
        return EXIT_UNREADABLE
    except (FileNotFoundError, ValueError) as exc:
        print(f"{path}: error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    if name is not None and name not in scenario.zones:
        zones = ", ".join(scenario.zones) or "none"
        raise BadInput(f"{path}: error: no zone named {name!r} (zones: {zones})")
    result: dict[str, list[str]] = {}
    problems: list[Problem] = []
    for zone_name in [name] if name else list(scenario.zones):
        try:
            hexes = resolve_named(zone_name, ctx)
        except ZoneError as exc:
            where = exc.path if exc.path[:1] == ("zones",) else ("zones", zone_name, "area")
            problems.append(ZONE_EMPTY.problem(scenario.doc, where, f"zone {zone_name!r}: {exc}"))
            continue
        if not hexes:
            problems.append(
                ZONE_EMPTY.problem(scenario.doc, ("zones", zone_name, "area"), f"zone {zone_name!r} resolves to no hex")
            )
        result[zone_name] = sorted(board.label(h) for h in hexes)
    if output == "json":
        print_json({"scenario": str(path), "zones": result, "problems": [p.as_json() for p in problems]})
    elif name:
        if name in result:
            print(" ".join(result[name]))
    else:
        for zone_name, hexes in result.items():
            print(f"{zone_name}: {len(hexes)} hex{'es' if len(hexes) != 1 else ''}")
    for problem in problems:
        print(problem.text(), file=sys.stderr)
    return EXIT_ERRORS if problems else EXIT_OK


def _provenance(files: list[Path], assumed_only: bool, used: bool, output: str) -> int:
    """Sourced values file by file; with `used`, each scenario's assumed values in the files it rests on."""
    from engine.model.provenance import count_sourced
    from engine.resources import shown_name
    from engine.validate.checks.assumed_used import summary

    if used and not files:
        raise BadInput(command_error("provenance", "--used needs one SCENARIO or more"))
    status = EXIT_OK
    if used:
        reports = [(shown_name(path), _used_values(path)) for path in files]
    else:
        status, groups = _sourced_values(files, assumed_only)
        reports = [("", groups)]
    if output == "json":
        if used:
            print_json({"scenarios": [{"scenario": s, "files": _files_json(groups)} for s, groups in reports]})
        else:
            print_json({"files": _files_json(reports[0][1])})
        return status
    if output == "markdown" and not used and not files:
        print(PROVENANCE_HEADER)
    for scenario, groups in reports:
        for file, values in groups:
            if output == "markdown":
                _provenance_markdown(file, values)
            else:
                for v in values:
                    print(f"{file}:{v.line}: {v.provenance}: {v.pointer} = {v.value}: {v.note}")
        if used and output == "text":
            print(f"{scenario} rests on {summary(groups)}", file=sys.stderr)
        elif output == "text":  # as validate sums up what it found
            counts = count_sourced(v for _, values in groups for v in values)
            shown = ", ".join(f"{n} {kind}" for kind, n in counts.items())
            print(f"{len(groups)} file{'s' if len(groups) != 1 else ''} listed: {shown}", file=sys.stderr)
    return status


PROVENANCE_HEADER = """\
# Provenance of every shipped value

Generated by `iceditor provenance --format markdown`; do not edit by hand.
`printed`: the rulebook prints it (source given); `inferred`: the rulebook's words give it without \
printing the number (words and reasoning given); `assumed`: it does not (reason given).
A map sourced as a whole lists each hex, road and bridge it holds with the map's source or reason.
Scenario files list only their assumed values (everything else in them quotes the book);
`iceditor provenance --used SCENARIO` lists every assumed value a scenario rests on."""


def _sourced_values(files: list[Path], assumed_only: bool) -> tuple[int, list[tuple[str, list[Sourced]]]]:
    """Each file's sourced values (the assumed ones only for `assumed_only`, and for the bundled scenarios)."""
    from engine.model.provenance import sourced_values
    from engine.model.schema import schema_name
    from engine.model.source import load_yaml
    from engine.resources import bundled_files, shown_name

    status, groups = EXIT_OK, []
    named = [(path, str(path)) for path in files] or [(path, shown_name(path)) for path in bundled_files()]
    for path, name in named:
        try:
            doc = load_yaml(path)
        except SourceError as exc:
            print(f"{exc.file}:{exc.line}:{exc.column}: error: {exc.message}", file=sys.stderr)
            status = EXIT_UNREADABLE
            continue
        only_assumed = assumed_only or (not files and schema_name(doc) == "scenario")
        groups.append((name, [v for v in sourced_values(doc) if not only_assumed or v.provenance == "assumed"]))
    return status, groups


def _used_values(path: Path) -> list[tuple[str, list[Sourced]]]:
    """The assumed values a scenario rests on, file by file, as the assumed-used check counts them."""
    from engine.validate.checks.assumed_used import used_values
    from engine.validate.context import ScenarioContext

    from .boardarg import load_scenario_arg

    scenario, _ = load_scenario_arg(path)
    ctx = ScenarioContext(scenario)
    found = used_values(ctx)
    if found is None:
        raise BadInput(file_error(path, ctx.board_error or "cannot load the maps"))
    return found


def _provenance_markdown(file: str, values: list[Sourced]) -> None:
    from engine.model.provenance import count_sourced

    counts = count_sourced(values)
    print(f"\n## `{file}`\n\n" + ", ".join(f"{n} {k}" for k, n in counts.items()) + ".\n")
    shared = {(v.provenance, v.note) for v in values}
    if len(values) > 1 and len(shared) == 1:  # a file sourced as a whole: its source once, not on every row
        ((kind, note),) = shared
        print(f"All {kind}: {note}\n\n| line | where | value |\n|---|---|---|")
        rows = [[str(v.line), f"`{v.pointer}`", v.value] for v in values]
    else:
        if values:
            print("| line | where | value | | source or reason |\n|---|---|---|---|---|")
        rows = [[str(v.line), f"`{v.pointer}`", v.value, v.provenance, v.note] for v in values]
    for cells in rows:
        print("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |")


def _files_json(groups: list[tuple[str, list[Sourced]]]) -> list[dict[str, object]]:
    from engine.model.provenance import count_sourced

    return [
        {
            "file": file,
            "counts": count_sourced(values),
            "values": [
                {"line": v.line, "pointer": v.pointer, "value": v.value, "provenance": v.provenance, "note": v.note}
                for v in values
            ],
        }
        for file, values in groups
    ]


class _Version(argparse.Action):
    """--version: the installed package's version, looked up only when asked (importlib.metadata
    costs every command 15 ms, `iceditor edit` and `--help` among them)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **given: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **given)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"iceditor {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("iceditor")
    except PackageNotFoundError:
        return "0+unknown"


def _print(problems: list[Problem], output: str, n_files: int) -> None:
    from engine.validate.registry import all_checks
    from engine.validate.report import github, sarif

    counts = {s: sum(1 for p in problems if p.severity is s) for s in Severity}
    if output == "json":
        summary = {"files": n_files} | {s.value: n for s, n in counts.items()}
        print_json({"problems": [p.as_json() for p in problems], "summary": summary})
        return
    if output == "sarif":
        print_json(sarif(problems, all_checks(), _version()))
        return
    if output == "github":
        for line in github(problems):
            print(line)
    else:
        for p in problems:
            print(p.text())
    summary = ", ".join(f"{n} {s.value}{'s' if n != 1 and s is not Severity.INFO else ''}" for s, n in counts.items())
    print(f"{n_files} file{'s' if n_files != 1 else ''} checked: {summary}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
