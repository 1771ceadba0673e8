"""`iceditor playtest`: a batch of AI-vs-AI games of a scenario on dask.distributed, and its balance
report (engine/batch, docs/balance.md); `--vary PATH=V1,V2` sweeps a value of the file, and
`iceditor playtest compare A B` plays the same batch on two versions.

Exit 0 for a batch played to its end; 1 when some games failed (their errors are in the report; the
same command plays them again); 2 for input that cannot be played (a scenario with errors, an
unknown player, a bad --vary, a folder holding another batch, an unreachable scheduler);
130 when interrupted (what finished is kept: the same command resumes).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.batch.games import GameTask
from engine.batch.plan import BatchError, BatchSpec, prepare, refuse_summaries
from engine.batch.scenario_file import Vary, VaryError, parse_vary
from engine.model.counters import SIDES
from engine.model.schema import schema_name
from engine.model.source import SourceDocument, SourceError, load_yaml
from engine.terminal_text import shown

from .boardarg import BadInput
from .file_args import SCENARIO_HELP, file_arg
from .output import print_json


def add_parsers(commands: Any) -> None:
    test = commands.add_parser(
        "playtest",
        description="Play N games of SCENARIO between AI players, in parallel (a local Dask cluster, one worker a "
        "core, or --scheduler), and write the balance report to DIR: report.html, report.json, games.csv and "
        "every game's log. The same command resumes an interrupted batch. `iceditor playtest compare A B` plays "
        "the same batch on two versions of a scenario and tests the difference.",
    )
    test.add_argument("files", nargs="+", metavar="SCENARIO", help=f"{SCENARIO_HELP}; or: compare A B")
    test.add_argument("--games", type=int, default=100, metavar="N", help="games to play (each version; default 100)")
    test.add_argument(
        "--players", default="heuristic,heuristic", help="german,russian players (default heuristic,heuristic)"
    )
    test.add_argument("--swap", action="store_true", help="every second game with the two players exchanged")
    test.add_argument("--seed", type=int, default=0, help="game i is played with seed S+i (default 0)")
    test.add_argument("--workers", type=int, metavar="K", help="worker processes of the local cluster (default: cores)")
    test.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask cluster, e.g. tcp://HOST:8786")
    test.add_argument("--out", type=Path, metavar="DIR", help="the batch's folder (default playtest-SCENARIO)")
    test.add_argument("--vary", metavar="PATH=V1,V2", help="a batch for each value at PATH of the scenario file")
    test.add_argument("--given-setup", action="store_true", help="start from the file's test setup: (R265)")
    test.add_argument("--max-actions", type=int, default=1_000_000, metavar="N", help="a game longer fails")
    test.add_argument("--advanced", action="store_true", help="the advanced rules (21.0-23.0, R319)")
    test.add_argument("--no-progress", action="store_true", help="no progress bar (a line at the end only)")
    test.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int | None:
    if args.command != "playtest":
        return None
    if args.workers is not None and args.workers < 1:
        raise BadInput(f"iceditor playtest: error: --workers {args.workers}: at least one")
    spec = _spec(args)
    if args.files[0] == "compare":
        if len(args.files) != 3:
            raise BadInput("iceditor playtest: error: compare takes two scenario files: compare A.yaml B.yaml")
        if args.vary:
            raise BadInput("iceditor playtest: error: compare and --vary: one at a time")
        return _compare(args, spec, [file_arg_or_bad(f) for f in args.files[1:]])
    if len(args.files) != 1:
        raise BadInput("iceditor playtest: error: one SCENARIO (or: compare A B)")
    path = file_arg_or_bad(args.files[0])
    doc = _document(path)
    out = args.out or Path(f"playtest-{path.stem}")
    if args.vary:
        return _sweep(args, spec, doc, out, _vary(args.vary))
    tasks = _prepare(doc, spec, out)
    status = _play(args, tasks)
    report = _publish(out, tasks)
    _say(args, report, out, {"report": str(out / "report.html")})
    return status or (1 if report["failed"] else 0)


def file_arg_or_bad(text: str) -> Path:
    try:
        return file_arg(text)
    except argparse.ArgumentTypeError as exc:
        raise BadInput(f"iceditor playtest: error: {exc}") from None


def _spec(args: argparse.Namespace) -> BatchSpec:
    names = tuple(n.strip() for n in args.players.split(","))
    if len(names) != len(SIDES):
        raise BadInput(f"iceditor playtest: error: --players names {len(SIDES)} players, german then russian")
    return BatchSpec(
        args.games, (names[0], names[1]), args.swap, args.seed, args.given_setup, args.max_actions, args.advanced
    )


def _document(path: Path) -> SourceDocument:
    try:
        doc = load_yaml(path)
    except SourceError as exc:
        raise BadInput(f"{exc.file}:{exc.line}:{exc.column}: error: {exc.message}") from None
    if schema_name(doc) != "scenario":
        raise BadInput(f"{path}: error: not a scenario file (its first key is not format: iron-cross-scenario/2 or /1)")
    return doc


def _vary(text: str) -> Vary:
    try:
        return parse_vary(text)
    except VaryError as exc:
        raise BadInput(f"iceditor playtest: error: {exc}") from None


def _prepare(doc: SourceDocument, spec: BatchSpec, out: Path, **vary: Any) -> list[GameTask]:
    try:
        return prepare(doc, spec, out, **vary)
    except (BatchError, VaryError) as exc:
        raise BadInput(f"iceditor playtest: error: {exc}") from None


def _refuse_summaries(out: Path, names: tuple[str, ...], docs: list[SourceDocument]) -> None:
    try:
        refuse_summaries(out, names, docs)
    except BatchError as exc:
        raise BadInput(f"iceditor playtest: error: {exc}") from None


def _play(args: argparse.Namespace, tasks: list[GameTask]) -> int:
    """Play the tasks on the cluster with a progress bar; 130 when interrupted, else 0."""
    from engine.batch.runner import Tally, cluster, run_batch

    try:
        with cluster(args.workers, args.scheduler) as client, _progress(args, len(tasks)) as show:
            tally = run_batch(client, tasks, on_result=show)
    except KeyboardInterrupt:
        print("iceditor playtest: interrupted: the finished games are kept; the same command resumes", file=sys.stderr)
        return 130
    except (OSError, TimeoutError) as exc:
        raise BadInput(f"iceditor playtest: error: cannot reach the Dask scheduler {args.scheduler}: {exc}") from None
    if not args.no_progress and isinstance(tally, Tally):
        print(f"{tally.done} games: {tally.text()}", file=sys.stderr)
    return 0


class _progress:
    """A rich progress bar with the running tally (stderr), or nothing with --no-progress."""

    def __init__(self, args: argparse.Namespace, total: int) -> None:
        self.quiet, self.total = args.no_progress, total
        self.bar: Any = None

    def __enter__(self) -> Callable[[dict[str, Any] | None, Any], None]:
        if not self.quiet:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self.bar = Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[tally]}"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total, tally="")
        return self.show

    def show(self, summary: dict[str, Any] | None, tally: Any) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=tally.done, tally=tally.text())

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _publish(out: Path, tasks: Sequence[GameTask]) -> dict[str, Any]:
    from engine.batch.html import publish

    return publish(out.resolve(), [t.key for t in tasks])


def _say(args: argparse.Namespace, report: dict[str, Any], out: Path, files: dict[str, str]) -> None:
    if args.format == "json":
        print_json({"games": report["games"], "failed": report["failed"], "verdict": report["verdict"], **files})
        return
    left = report["planned"] - report["games"] - len(report["failed"])
    print(
        f"{shown(report['title'])}: {report['games']} games"
        + (f" of {report['planned']} ({left} not played yet: the same command plays them)" if left else "")
        + f". {report['verdict']}"
    )
    if report["failed"]:
        print(f"{len(report['failed'])} games failed (see the report); the same command plays them again")
    for name, path in files.items():
        print(f"{name}: {path}")


def _sweep(args: argparse.Namespace, spec: BatchSpec, doc: SourceDocument, out: Path, vary: Vary) -> int:
    from engine.batch import plots
    from engine.batch.html import sweep_html
    from engine.file_writing import atomic_write

    _refuse_summaries(out, ("sweep.json", "sweep.html", "sweep.png"), [doc])
    batches = [(value, out / vary.slug(value)) for value in vary.values]
    tasks = {value_out: _prepare(doc, spec, value_out, path=vary.path, value=value) for value, value_out in batches}
    status = _play(args, [t for ts in tasks.values() for t in ts])
    rows = []
    for value, value_out in batches:
        report = _publish(value_out, tasks[value_out])
        rows.append({"value": value, "folder": value_out.name, **report})
        if args.format == "text":
            print(f"{vary.path} = {json.dumps(value)}: {report['games']} games. {report['verdict']}")
    picture = plots.sweep_plot(vary.path, rows, out / "sweep.png")
    keep = ("value", "folder", "games", "outcomes", "verdict", "failed")
    atomic_write(
        out / "sweep.json",
        json.dumps({"path": vary.path, "batches": [{k: r[k] for k in keep} for r in rows]}, indent=1) + "\n",
    )
    atomic_write(out / "sweep.html", sweep_html(vary.path, rows, picture))
    if args.format == "json":
        print_json(
            {"path": vary.path, "batches": [{k: r[k] for k in keep} for r in rows], "report": str(out / "sweep.html")}
        )
    else:
        print(f"sweep: {out / 'sweep.html'}")
    return status or (1 if any(r["failed"] for r in rows) else 0)


def _compare(args: argparse.Namespace, spec: BatchSpec, paths: list[Path]) -> int:
    from engine.batch.compare import compare, compare_html
    from engine.file_writing import atomic_write

    docs = [_document(p) for p in paths]
    names = [p.stem for p in paths]
    if names[0] == names[1]:
        names = [f"a-{names[0]}", f"b-{names[1]}"]
    out = args.out or Path(f"compare-{names[0]}-{names[1]}")
    _refuse_summaries(out, ("compare.json", "compare.html"), docs)
    tasks = [_prepare(doc, spec, out / name) for doc, name in zip(docs, names, strict=True)]
    status = _play(args, tasks[0] + tasks[1])
    reports = [_publish(out / name, ts) for name, ts in zip(names, tasks, strict=True)]
    result = compare(reports[0], reports[1], (names[0], names[1]))
    atomic_write(out / "compare.json", json.dumps(result, indent=1) + "\n")
    atomic_write(out / "compare.html", compare_html(result))
    if args.format == "json":
        print_json({**result, "report": str(out / "compare.html")})
    else:
        for name, report in zip(names, reports, strict=True):
            print(f"{name}: {report['games']} games. {report['verdict']}")
        print(result["verdict"])
        print(f"compare: {out / 'compare.html'}")
    return status or (1 if any(r["failed"] for r in reports) else 0)
