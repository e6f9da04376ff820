"""The ``ivycheck`` command's checking part (``ivycheck lsp`` is dispatched above it, in
:mod:`ivycheck.cli`).

Exit status: 0 when nothing is reported, 1 when anything is (or a file could not be
read), 2 for a usage or configuration error. Diagnostics go to standard output, the
summary and problems to standard error, so that ``ivycheck ... > report`` captures only
findings.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from ivycheck import __version__
from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.sourcefile import SourceError, decode_source, read_source
from ivycheck.checker.core.engine import is_applicable
from ivycheck.checker.core.registry import RegistryError, all_rules
from ivycheck.checker.frontends.exit_status import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    INTERRUPTED,
)
from ivycheck.checker.frontends.explain import explain, list_rules, rules_markdown
from ivycheck.checker.frontends.introspection import (
    rule_code,
    rules_json,
    show_files,
    show_settings,
)
from ivycheck.checker.frontends.progress import ProgressLine, shows_progress
from ivycheck.checker.frontends.report_file import ReportFileError, write_report
from ivycheck.checker.frontends.reporters import (
    FORMATS,
    FORMATTERS,
    SHOWS_FIX_EDITS,
    Colors,
    _printable,
    format_statistics,
    format_text,
    quote_name,
)
from ivycheck.checker.frontends.watch import watch
from ivycheck.checker.project.config import CATEGORIES, ConfigError, Overrides, category_list
from ivycheck.checker.project.selectors import SelectorError, check_selectors
from ivycheck.checker.run.adoption import add_noqa_to_files, use_baseline
from ivycheck.checker.run.baseline import BaselineError
from ivycheck.checker.run.runner import Runner, RunOptions, RunResult, run


def _codes(value: str) -> tuple[str, ...]:
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def _categories(value: str) -> tuple[str, ...]:
    try:
        return category_list(value.split(","), "--category")
    except ConfigError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("--category: ")) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ivycheck",
        description="Check Ivy-style backend-wrapped array code for out=/copy=/view mistakes.",
    )
    parser.add_argument("paths", nargs="*", type=Path, help="files or directories (default: .)")
    parser.add_argument("--select", type=_codes, help="rule codes or prefixes to enable only")
    parser.add_argument("--extend-select", type=_codes, default=(), help="enable these as well")
    parser.add_argument("--ignore", type=_codes, default=(), help="rule codes or prefixes to skip")
    parser.add_argument(
        "--category",
        type=_categories,
        help=f"report only these categories ({','.join(CATEGORIES)}); with --select/--ignore",
    )
    parser.add_argument("--fix", action="store_true", help="apply safe fixes, in place")
    parser.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix or --diff: unsafe fixes too"
    )
    parser.add_argument(
        "--diff", action="store_true", help="show what --fix would change; write nothing"
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
    parser.add_argument(
        "--output-file",
        "-o",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (atomically) instead of standard output",
    )
    parser.add_argument(
        "--watch", action="store_true", help="check again whenever a file changes (Ctrl-C ends)"
    )
    parser.add_argument("--statistics", action="store_true", help="count findings per rule")
    parser.add_argument("--show-source", action="store_true", help="show the offending line")
    parser.add_argument("--explain", metavar="RULE", help="explain a rule (code or name)")
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    parser.add_argument(
        "--add-noqa", action="store_true", help="add '# noqa: CODE' to every line with a finding"
    )
    parser.add_argument(
        "--baseline", type=Path, metavar="FILE", help="report only findings not in this baseline"
    )
    parser.add_argument(
        "--write-baseline",
        type=Path,
        metavar="FILE",
        help="record the findings in FILE (with --baseline: the baseline less what was fixed)",
    )
    parser.add_argument(
        "--show-settings", action="store_true", help="print the settings of the first path"
    )
    parser.add_argument(
        "--show-files", action="store_true", help="list the files to check and their part"
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("--config", type=Path, help="use this pyproject.toml / ivycheck.toml")
    parser.add_argument(
        "--stdin-filename", help="with '-': the path standard input stands for (config, parts)"
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=0, help="worker processes (default: all cores)"
    )
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument("--quiet", "-q", action="store_true", help="no summary on stderr")
    parser.add_argument("--version", action="version", version=f"ivycheck {__version__}")
    return parser


def _use_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty()


class _SourceLines:
    """Source lines for ``--show-source``, each file read once."""

    def __init__(self, stdin: tuple[str, str] | None) -> None:
        self.files: dict[str, list[str]] = {}
        if stdin is not None:
            self.files[stdin[0]] = stdin[1].splitlines()

    def __call__(self, path: str, line: int) -> str | None:
        if path not in self.files:
            try:
                self.files[path] = read_source(Path(path)).text.splitlines()
            except SourceError:
                self.files[path] = []
        lines = self.files[path]
        return lines[line - 1] if 0 < line <= len(lines) else None


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


def _summary(result: RunResult, args: argparse.Namespace) -> str:
    found = len(result.diagnostics)
    fixable = sum(1 for d in result.diagnostics if is_applicable(d, args.unsafe_fixes))
    files = _plural(result.files, "file")
    if args.diff:
        return (
            f"Would fix {_plural(result.fixed, 'problem')} in {_plural(len(result.diffs), 'file')}."
        )
    parts = []
    if args.fix:
        # What this run wrote; what it found already fixed on disk (another run wrote the
        # same fix first) is said apart, not counted as its own nor as remaining.
        already = (
            f" ({result.already_fixed} already fixed on disk by another run)"
            if result.already_fixed
            else ""
        )
        parts.append(f"Fixed {_plural(result.fixed, 'problem')}{already}.")
    if found:
        hint = f" ({fixable} fixable with --fix)" if fixable and not args.fix else ""
        noun = "problem" if found == 1 else "problems"
        parts.append(f"Found {found} {'remaining ' if args.fix else ''}{noun}{hint} in {files}.")
    elif result.problems:
        parts.append(
            f"No findings, but {_plural(len(result.problems), 'path')} could not be checked."
        )
    else:
        parts.append(f"All checks passed ({files}).")
    hidden = (
        0
        if args.unsafe_fixes
        else sum(1 for d in result.diagnostics if is_applicable(d, True)) - fixable
    )
    if hidden:
        noun = "fix" if hidden == 1 else "fixes"
        parts.append(f"{hidden} hidden {noun} can be enabled with the --unsafe-fixes option.")
    return " ".join(parts)


def _emit(
    result: RunResult,
    args: argparse.Namespace,
    stdin: tuple[str, str] | None,
    notes: Sequence[str] = (),
    summary: bool = True,
) -> None:
    diagnostics: list[Diagnostic] = result.diagnostics
    if result.stdin_output is not None:
        sys.stdout.write(result.stdin_output)
        out: TextIO = sys.stderr
    else:
        out = sys.stdout
    if args.output_file is not None:
        # The report only: the summary and problems still go to standard error.
        out = io.StringIO()
    if args.diff:
        out.write("".join(result.diffs))
    elif args.statistics:
        out.write(format_statistics(diagnostics))
    elif args.format == "text":
        out.write(
            format_text(
                diagnostics,
                colors=Colors(_use_color(out)),
                show_source=args.show_source,
                read_line=_SourceLines(stdin),
                fixable=lambda d: is_applicable(d, args.unsafe_fixes),
            )
        )
    else:
        out.write(FORMATTERS[args.format](diagnostics))
    if args.output_file is not None:
        assert isinstance(out, io.StringIO)
        write_report(args.output_file, out.getvalue())
    # A problem or note names a file: its ESC, newline or bidi override is escaped as in
    # the text report's messages, never printed raw (a recoloured terminal, a forged line).
    for problem in result.problems:
        sys.stderr.write(f"ivycheck: {_printable(problem)}\n")
    for note in notes:
        sys.stderr.write(f"ivycheck: {_printable(note)}\n")
    if summary and not args.quiet and not args.statistics:
        sys.stderr.write(_summary(result, args) + "\n")


def _interrupt(signum: int, frame: object) -> None:
    """Ctrl-C reaches every process of the terminal's group. Forked workers inherit this
    handler and ignore it (no traceback from each). The main process, while workers run,
    stops them and leaves at once: unwinding through the pool would wait for a dead
    worker's half-written result forever, and nothing is written to the checked files
    while workers run (fixes are written by this process afterwards). Otherwise it raises
    ``KeyboardInterrupt`` so that ``finally`` clauses run."""
    if os.getpid() != _MAIN_PID:
        return
    # Not imported by a run that starts no process (it is part of the start-up).
    multiprocessing = sys.modules.get("multiprocessing")
    children = multiprocessing.active_children() if multiprocessing is not None else []
    if not children:
        raise KeyboardInterrupt
    for child in children:
        child.terminate()
    _clear_progress()
    sys.stderr.write(INTERRUPTED)
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


_MAIN_PID = os.getpid()
_PROGRESS: ProgressLine | None = None
"""The progress line of the run under way, wiped before anything else is written."""


def _clear_progress() -> None:
    if _PROGRESS is not None:
        _PROGRESS.clear()


def main(argv: Sequence[str] | None = None) -> int:
    global _MAIN_PID
    args = build_parser().parse_args(argv)
    _MAIN_PID = os.getpid()
    previous = signal.signal(signal.SIGINT, _interrupt)
    try:
        return _main(args)
    except _STOPPING_ERRORS as err:
        _clear_progress()
        sys.stderr.write(f"ivycheck: error: {_printable(str(err))}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        _clear_progress()
        sys.stderr.write(INTERRUPTED)
        return EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGINT, previous)


_STOPPING_ERRORS = (ConfigError, RegistryError, BaselineError, SelectorError, ReportFileError)
"""What ends a run with exit status 2 and one line saying why (under ``--watch``: what is
said before waiting for the next change)."""


def _error(message: str) -> int:
    sys.stderr.write(f"ivycheck: error: {_printable(message)}\n")
    return EXIT_ERROR


def _main(args: argparse.Namespace) -> int:
    if args.explain:
        code = rule_code(args.explain)
        if code is None:
            return _error(f"unknown rule {args.explain!r} (a code such as IVY005 or a name)")
        sys.stdout.write(explain(code))
        return EXIT_CLEAN
    if args.list_rules:
        listing = {"markdown": rules_markdown, "json": rules_json}.get(args.format, list_rules)
        sys.stdout.write(listing())
        return EXIT_CLEAN
    if args.format == "markdown":
        return _error("--format markdown is for --list-rules only")
    if args.jobs < 0:
        return _error("--jobs must be 0 (all cores) or more")
    codes = all_rules().keys()
    for option, selectors in (
        ("--select", args.select or ()),
        ("--extend-select", args.extend_select),
        ("--ignore", args.ignore),
    ):
        check_selectors(selectors, codes, option)
    if args.add_noqa and (args.fix or args.diff or args.baseline or args.write_baseline):
        return _error("--add-noqa cannot be combined with --fix, --diff or baselines")
    one_shot = args.add_noqa or args.write_baseline or args.show_settings or args.show_files
    if args.watch and one_shot:
        return _error("--watch cannot be combined with --add-noqa, --write-baseline or --show-*")
    paths: list[Path] = args.paths or [Path(".")]
    stdin: tuple[str, str] | None = None
    if any(str(p) == "-" for p in paths):
        if len(paths) != 1:
            return _error("'-' (standard input) cannot be mixed with paths")
        if args.add_noqa:
            return _error("--add-noqa edits files; it cannot read standard input")
        if args.watch:
            return _error("--watch watches files; it cannot read standard input")
        try:
            text = decode_source(sys.stdin.buffer.read()).text
        except SourceError as err:
            return _error(f"standard input: {err}")
        stdin = (args.stdin_filename or "-", text)
    options = RunOptions(
        paths=paths,
        config_file=args.config,
        overrides=Overrides(
            select=args.select,
            extend_select=args.extend_select,
            ignore=args.ignore,
            category=args.category,
        ),
        fix=args.fix,
        unsafe_fixes=args.unsafe_fixes,
        diff=args.diff,
        jobs=args.jobs,
        use_cache=not args.no_cache,
        stdin_text=stdin[1] if stdin else None,
        stdin_filename=args.stdin_filename,
        fix_edits=args.format in SHOWS_FIX_EDITS,
    )
    if args.show_settings or args.show_files:
        return _introspect(args, options, paths)
    if args.watch:
        _watch(args, options, paths)
    return _check_once(args, options, paths, stdin)


def _watch(args: argparse.Namespace, options: RunOptions, paths: list[Path]) -> None:
    """Check, then check again after each change, until Ctrl-C (``KeyboardInterrupt``,
    which ``main`` turns into exit status 130). A configuration error does not end it:
    it is shown, and fixing the file checks again."""
    clears = sys.stdout.isatty() and args.output_file is None

    def check() -> None:
        try:
            _check_once(args, options, paths, None)
        except _STOPPING_ERRORS as err:
            _clear_progress()
            sys.stderr.write(f"ivycheck: error: {_printable(str(err))}\n")
        sys.stdout.flush()  # the report is out before the line that says it is done
        sys.stderr.write("ivycheck: watching for file changes (Ctrl-C to stop)\n")
        sys.stderr.flush()

    def announce(files: Iterable[str]) -> None:
        if clears:
            sys.stdout.write("\x1b[H\x1b[2J")  # cursor home, clear the screen
        count = len(list(files))
        sys.stderr.write(f"ivycheck: {_plural(count, 'file')} changed, checking again\n")

    watch(paths, check, announce)


def _check_once(
    args: argparse.Namespace,
    options: RunOptions,
    paths: list[Path],
    stdin: tuple[str, str] | None,
) -> int:
    """One run: check (or fix), report, and the exit status it deserves."""
    global _PROGRESS
    _PROGRESS = ProgressLine(sys.stderr) if shows_progress(sys.stderr, args.quiet) else None
    try:
        result = run(replace(options, progress=_PROGRESS))
    finally:
        _clear_progress()
    _PROGRESS = None
    if stdin is None and not result.files:
        # Nothing was checked: the format's empty document, and why instead of a summary.
        problems, result.problems = result.problems, []
        _emit(result, args, stdin, summary=False)
        for problem in problems:
            sys.stderr.write(f"ivycheck: error: {_printable(problem)}\n")
        if problems:
            return EXIT_FINDINGS
        sys.stderr.write("ivycheck: warning: No Python files found under the given path(s)\n")
        return EXIT_CLEAN
    if args.add_noqa:
        return _add_noqa(result, Runner(options).project_root_of)
    notes: list[str] = []
    if args.baseline or args.write_baseline:
        outcome = use_baseline(
            result.diagnostics,
            baseline=args.baseline,
            write=args.write_baseline,
            paths=paths,
            stdin=stdin,
        )
        result.diagnostics, notes = outcome.diagnostics, outcome.notes
    # Recording a baseline reports nothing: "All checks passed" after "Wrote 5 findings"
    # would say the opposite of what was just written.
    recording = bool(args.write_baseline) and not args.baseline
    _emit(result, args, stdin, notes, summary=not recording)
    if args.exit_zero:
        return EXIT_CLEAN
    if args.diff:
        return EXIT_FINDINGS if result.diffs else EXIT_CLEAN
    return EXIT_FINDINGS if result.diagnostics or result.problems else EXIT_CLEAN


def _add_noqa(result: RunResult, root_of: Callable[[Path], Path]) -> int:
    """Ruff's ``--add-noqa``: exit 0 once every finding that can be is suppressed."""
    outcome = add_noqa_to_files(result.diagnostics, root_of)
    for problem in [*result.problems, *outcome.problems]:
        sys.stderr.write(f"ivycheck: {_printable(problem)}\n")
    sys.stderr.write(f"Added {outcome.added} noqa directive{'s' if outcome.added != 1 else ''}.\n")
    return EXIT_FINDINGS if result.problems or outcome.problems else EXIT_CLEAN


def _introspect(args: argparse.Namespace, options: RunOptions, paths: list[Path]) -> int:
    workspace = Runner(options).workspace
    if args.show_settings:
        first = (
            Path(args.stdin_filename) if str(paths[0]) == "-" and args.stdin_filename else paths[0]
        )
        index = workspace.project_index(first)
        sys.stdout.write(show_settings(first, workspace.config_for(first), index))
        return EXIT_CLEAN
    project = workspace.discover(paths)
    listing, warnings = show_files(project)
    sys.stdout.write(listing)
    for problem in project.problems:
        name = quote_name(str(problem.path))
        sys.stderr.write(f"ivycheck: error: {name}: {_printable(problem.message)}\n")
    for warning in warnings:
        sys.stderr.write(f"ivycheck: warning: {_printable(warning)}\n")
    if not project.files and not project.problems:
        sys.stderr.write("ivycheck: warning: No Python files found under the given path(s)\n")
    return EXIT_FINDINGS if project.problems else EXIT_CLEAN
