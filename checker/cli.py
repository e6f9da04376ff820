"""The ``ivycheck`` command's checking part (``ivycheck lsp`` is dispatched above it, in
:mod:`ivycheck.cli`).

Exit status: 0 when nothing is reported, 1 when anything is (or a file could not be
read), 2 for a usage or configuration error. Diagnostics go to standard output, the
summary and problems to standard error, so that ``ivycheck ... > report`` captures only
findings.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ivycheck import __version__
from ivycheck.checker.config import ConfigError, Overrides
from ivycheck.checker.diagnostics import Diagnostic
from ivycheck.checker.engine import is_applicable
from ivycheck.checker.explain import explain, list_rules, rules_markdown
from ivycheck.checker.registry import RegistryError, all_rules
from ivycheck.checker.reporters import (
    FORMATS,
    FORMATTERS,
    Colors,
    format_statistics,
    format_text,
)
from ivycheck.checker.runner import RunOptions, RunResult, run
from ivycheck.checker.sourcefile import SourceError, decode_source, read_source

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def _codes(value: str) -> tuple[str, ...]:
    return tuple(code.strip().upper() for code in value.split(",") if code.strip())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ivycheck",
        description="Check Ivy-style backend-wrapped array code for out=/copy=/view mistakes.",
    )
    parser.add_argument("paths", nargs="*", type=Path, help="files or directories (default: .)")
    parser.add_argument("--select", type=_codes, help="rule codes or prefixes to enable only")
    parser.add_argument("--extend-select", type=_codes, default=(), help="enable these as well")
    parser.add_argument("--ignore", type=_codes, default=(), help="rule codes or prefixes to skip")
    parser.add_argument("--fix", action="store_true", help="apply safe fixes, in place")
    parser.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix or --diff: unsafe fixes too"
    )
    parser.add_argument(
        "--diff", action="store_true", help="show what --fix would change; write nothing"
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
    parser.add_argument("--statistics", action="store_true", help="count findings per rule")
    parser.add_argument("--show-source", action="store_true", help="show the offending line")
    parser.add_argument("--explain", metavar="CODE", help="explain a rule and exit")
    parser.add_argument("--list-rules", action="store_true", help="list every rule and exit")
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


def _summary(result: RunResult, args: argparse.Namespace) -> str:
    found = len(result.diagnostics)
    fixable = sum(1 for d in result.diagnostics if is_applicable(d, args.unsafe_fixes))
    files = f"{result.files} file{'s' if result.files != 1 else ''}"
    if args.diff:
        return f"Would fix {result.fixed} problem{'s' if result.fixed != 1 else ''} ({files})."
    parts = []
    if args.fix:
        parts.append(f"Fixed {result.fixed} problem{'s' if result.fixed != 1 else ''}.")
    if found:
        hint = f" ({fixable} fixable with --fix)" if fixable and not args.fix else ""
        noun = "problem" if found == 1 else "problems"
        parts.append(f"Found {found} {'remaining ' if args.fix else ''}{noun}{hint} in {files}.")
    else:
        parts.append(f"All checks passed ({files}).")
    return " ".join(parts)


def _emit(result: RunResult, args: argparse.Namespace, stdin: tuple[str, str] | None) -> None:
    diagnostics: list[Diagnostic] = result.diagnostics
    if result.stdin_output is not None:
        sys.stdout.write(result.stdin_output)
        out: TextIO = sys.stderr
    else:
        out = sys.stdout
    if args.diff:
        out.write("".join(result.diffs))
    elif args.format == "text":
        out.write(
            format_text(
                diagnostics,
                colors=Colors(_use_color(out)),
                show_source=args.show_source,
                read_line=_SourceLines(stdin),
            )
        )
    else:
        out.write(FORMATTERS[args.format](diagnostics))
    if args.statistics and not args.diff:
        sys.stderr.write(format_statistics(diagnostics))
    for problem in result.problems:
        sys.stderr.write(f"ivycheck: {problem}\n")
    if not args.quiet:
        sys.stderr.write(_summary(result, args) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _main(args)
    except (ConfigError, RegistryError) as err:
        sys.stderr.write(f"ivycheck: error: {err}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


def _main(args: argparse.Namespace) -> int:
    if args.explain:
        code = args.explain.upper()
        if code not in all_rules():
            sys.stderr.write(f"ivycheck: error: unknown rule code {args.explain!r}\n")
            return EXIT_ERROR
        sys.stdout.write(explain(code))
        return EXIT_CLEAN
    if args.list_rules:
        sys.stdout.write(rules_markdown() if args.format == "markdown" else list_rules())
        return EXIT_CLEAN
    if args.format == "markdown":
        sys.stderr.write("ivycheck: error: --format markdown is for --list-rules only\n")
        return EXIT_ERROR
    if args.jobs < 0:
        sys.stderr.write("ivycheck: error: --jobs must be 0 (all cores) or more\n")
        return EXIT_ERROR
    paths: list[Path] = args.paths or [Path(".")]
    stdin: tuple[str, str] | None = None
    if any(str(p) == "-" for p in paths):
        if len(paths) != 1:
            sys.stderr.write("ivycheck: error: '-' (standard input) cannot be mixed with paths\n")
            return EXIT_ERROR
        try:
            text = decode_source(sys.stdin.buffer.read()).text
        except SourceError as err:
            sys.stderr.write(f"ivycheck: error: standard input: {err}\n")
            return EXIT_ERROR
        stdin = (args.stdin_filename or "-", text)
    options = RunOptions(
        paths=paths,
        config_file=args.config,
        overrides=Overrides(
            select=args.select, extend_select=args.extend_select, ignore=args.ignore
        ),
        fix=args.fix,
        unsafe_fixes=args.unsafe_fixes,
        diff=args.diff,
        jobs=args.jobs,
        use_cache=not args.no_cache,
        stdin_text=stdin[1] if stdin else None,
        stdin_filename=args.stdin_filename,
    )
    result = run(options)
    _emit(result, args, stdin)
    if args.exit_zero:
        return EXIT_CLEAN
    if args.diff:
        return EXIT_FINDINGS if result.diffs else EXIT_CLEAN
    return EXIT_FINDINGS if result.diagnostics or result.problems else EXIT_CLEAN
