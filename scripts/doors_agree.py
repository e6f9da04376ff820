"""Every front door reports the same findings on real code (issue 37).

``tests/rules/test_doors_agree.py`` holds the engine to it on the rules' own examples. This
holds the *doors* to it on real trees: over each folder (default: both shared Ivy snapshots,
``<repo>/../shared/corpora/<name>/ivy``, read in place, never copied) it collects the findings
the way a user gets them, each door a real process:

* ``ivycheck`` with its default output and with every ``--format`` that lists findings:
  ``text``, ``json``, ``sarif``, ``github``, ``junit``, ``gitlab``;
* real ``flake8 --select IVY`` with the installed plugin (entry point ``IVY``);
* the language server, ``python -m ivycheck lsp`` over stdio, driven by pytest-lsp's client
  (``tests/lsp/harness.py``, the one the server's tests use): in push mode, the closed files'
  published diagnostics and then each file's after ``didOpen``; in pull mode, one
  ``workspace/diagnostic`` and then each file's ``textDocument/diagnostic`` after ``didOpen``.

Each door's findings are normalised to (path, code, line, column, end line, end column,
message) in ivycheck's convention: 1-based lines and columns counted in Unicode code points,
end exclusive. Each door's own convention is converted exactly: flake8 prints the plugin's
0-based offset plus one; SARIF says ``columnKind: unicodeCodePoints``; LSP positions are
0-based lines and UTF-16 code units, turned into code points with the file's line (as the
server splits it). A field a format does not carry (GitLab has no column, JUnit no end) is
left out of that door's comparison only. Every door is compared with the JSON door; any
finding dropped, added or moved is listed and the exit status is 1.

Differences that are by design are in :data:`BY_DESIGN`, each with its reason, applied to the
reference and counted in the table, never filtered silently. The mypy plugin is not a door
for these findings (:data:`NOT_A_DOOR`).

Usage::

    .venv/bin/python scripts/doors_agree.py                       # both snapshots
    .venv/bin/python scripts/doors_agree.py DIR [DIR ...]         # any folders
    .venv/bin/python scripts/doors_agree.py --door json --door flake8 DIR

A folder is checked from its parent (``ivycheck ivy`` in the corpus root, as
``scripts/ecosystem_check.py`` does); the language server's workspace folder is the folder
itself, the project root the command finds for it. (Opened one level up, the server takes
that folder as the root, as ``ivycheck .`` there does: IVY005's messages then name
``ivy/func_wrapper.py`` where ``ivycheck ivy`` says ``func_wrapper.py``, 23 findings on
ivy-975c8fc. The root follows the folder named, for the command as for the server.)
No door writes a cache into the folder: ``IVYCHECK_CACHE_DIR`` points at a temporary one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import operator
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO.parent / "shared" / "corpora"
DEFAULT_FOLDERS = (CORPORA / "ivy-975c8fc" / "ivy", CORPORA / "ivy-9affbcc" / "ivy")
IVYCHECK = (sys.executable, "-m", "ivycheck")
REFERENCE = "json"


class Finding(NamedTuple):
    """One finding as every door can say it; ``None``: the door's format does not carry it."""

    path: str
    code: str
    line: int
    col: int | None
    end_line: int | None
    end_col: int | None
    message: str

    def shown(self) -> str:
        where = f"{self.line}:{self.col}" if self.col is not None else f"{self.line}"
        if self.end_line is not None:
            where += f"-{self.end_line}" + (f":{self.end_col}" if self.end_col is not None else "")
        return f"{self.path}:{where}: {self.code} {self.message}"


FIELDS = ("col", "end_line", "end_col")


@dataclass
class DoorRun:
    """What one door reported and what it cost."""

    findings: list[Finding]
    seconds: float
    cpu_seconds: float | None = None
    """User + system CPU of the door's processes (the server's, for a language server door)."""


@dataclass
class Folder:
    """A folder checked from its parent, as a user runs ivycheck on it."""

    root: Path
    target: str
    env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, path: Path, cache: Path) -> Folder:
        path = path.resolve()
        return cls(path.parent, path.name, {**os.environ, "IVYCHECK_CACHE_DIR": str(cache)})

    def relative(self, path: str | Path) -> str:
        found = Path(path)
        if found.is_absolute():
            found = found.resolve().relative_to(self.root)
        return found.as_posix().removeprefix("./")

    def files(self) -> list[str]:
        """The files the command checks (``--show-files``), relative to the root."""
        out = _run([*IVYCHECK, "--show-files", self.target], self).stdout
        return [line.split("\t", 1)[0] for line in out.splitlines() if line]

    def lines(self, path: str) -> list[str]:
        """The file's lines as the language server splits them (\\n, \\r\\n, \\r)."""
        text = (self.root / path).read_bytes().decode("utf-8-sig", errors="replace")
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _run(args: Sequence[str], folder: Folder) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        args, cwd=folder.root, env=folder.env, capture_output=True, text=True, check=False
    )
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not proc.stdout):
        raise RuntimeError(f"{' '.join(args)} exited {proc.returncode}:\n{proc.stderr.strip()}")
    return proc


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed_command(
    args: Sequence[str], folder: Folder, parse: Callable[[str, Folder], list[Finding]]
) -> DoorRun:
    cpu, started = _children_cpu(), time.perf_counter()
    proc = _run(args, folder)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    return DoorRun(parse(proc.stdout, folder), seconds, cpu)


# --- the command's formats ------------------------------------------------------------------

TEXT_LINE = re.compile(r"^(.+):(\d+):(\d+): ([A-Z]+\d+)(?: \[\*\])? (.*)$")
"""``path:line:col: CODE [*] message`` (``[*]``: the finding has a fix ``--fix`` applies)."""


def _every_line(text: str, pattern: re.Pattern[str], what: str) -> Iterable[re.Match[str]]:
    """Each line of a door's output matched by ``pattern``: a line it does not match is a
    door printing something else than findings, an error (``what`` it should have been)."""
    for line in text.splitlines():
        match = pattern.match(line)
        if match is None:
            raise ValueError(f"not {what}: {line!r}")
        yield match


def _flake8_lines(text: str, folder: Folder) -> list[Finding]:
    found = []
    for match in _every_line(text, TEXT_LINE, "a finding line"):
        path, row, col, code, message = match.groups()
        found.append(Finding(folder.relative(path), code, int(row), int(col), None, None, message))
    return found


def _json(text: str, folder: Folder) -> list[Finding]:
    return [
        Finding(
            folder.relative(d["filename"]),
            d["code"],
            d["location"]["row"],
            d["location"]["column"],
            d["end_location"]["row"],
            d["end_location"]["column"],
            d["message"],
        )
        for d in json.loads(text)
    ]


def _sarif(text: str, folder: Folder) -> list[Finding]:
    (run,) = json.loads(text)["runs"]
    if run.get("columnKind") != "unicodeCodePoints":
        raise ValueError(f"SARIF columns are {run.get('columnKind')!r}, not code points")
    found = []
    for result in run["results"]:
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        region = physical["region"]
        uri = urllib.parse.unquote(physical["artifactLocation"]["uri"])
        found.append(
            Finding(
                folder.relative(uri),
                result["ruleId"],
                region["startLine"],
                region["startColumn"],
                region["endLine"],
                region["endColumn"],
                result["message"]["text"],
            )
        )
    return found


GITHUB_LINE = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def _github_unescape(text: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, char)
    return text


def _github(text: str, folder: Folder) -> list[Finding]:
    found = []
    for match in _every_line(text, GITHUB_LINE, "a workflow command"):
        properties = dict(part.split("=", 1) for part in match.group(2).split(","))
        code, rest = _github_unescape(match.group(3)).split(" ", 1)
        message = rest.split("] ", 1)[1]  # "[category] message"
        found.append(
            Finding(
                folder.relative(_github_unescape(properties["file"])),
                code,
                int(properties["line"]),
                int(properties["col"]),
                int(properties["endLine"]),
                int(properties["endColumn"]),
                message,
            )
        )
    return found


def _junit(text: str, folder: Folder) -> list[Finding]:
    found = []
    for case in ET.fromstring(text).iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            continue  # a clean run's passing case
        at = re.fullmatch(r"([A-Z]+\d+) at (\d+):(\d+)", case.get("name", ""))
        if at is None:
            raise ValueError(f"unexpected test case name: {case.get('name')!r}")
        found.append(
            Finding(
                folder.relative(case.get("file", "")),
                failure.get("type", ""),
                int(case.get("line", "0")),
                int(at.group(3)),
                None,
                None,
                failure.get("message", ""),
            )
        )
    return found


def _gitlab(text: str, folder: Folder) -> list[Finding]:
    found = []
    for issue in json.loads(text):
        code, message = issue["description"].split(" ", 1)
        if code != issue["check_name"]:
            raise ValueError(f"description and check_name disagree: {issue}")
        lines = issue["location"]["lines"]
        found.append(
            Finding(
                folder.relative(issue["location"]["path"]),
                code,
                lines["begin"],
                None,
                lines["end"],
                None,
                message,
            )
        )
    return found


def _command_door(
    options: Sequence[str], parse: Callable[[str, Folder], list[Finding]]
) -> Callable[[Folder], DoorRun]:
    def door(folder: Folder) -> DoorRun:
        args = [*IVYCHECK, *options, "--no-cache", "--exit-zero", "--quiet", folder.target]
        return _timed_command(args, folder, parse)

    return door


def _flake8(folder: Folder) -> DoorRun:
    args = [sys.executable, "-m", "flake8", "--select", "IVY", "--ivycheck-no-cache"]
    return _timed_command([*args, folder.target], folder, _flake8_lines)


# --- the language server --------------------------------------------------------------------


def _code_points(line: str, units: int) -> int:
    """An LSP character offset (UTF-16 code units) in ``line`` as a 1-based code-point column."""
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            if count > units:
                raise ValueError(f"offset {units} splits a character of {line!r}")
            return index + 1
        count += 2 if ord(char) > 0xFFFF else 1
    if count < units:
        raise ValueError(f"offset {units} is past the end of {line!r}")
    return len(line) + 1


def _from_lsp(folder: Folder, uri: str, diagnostics: Iterable[Any]) -> list[Finding]:
    from pygls.uris import to_fs_path

    fs_path = to_fs_path(uri)
    if fs_path is None:
        raise ValueError(f"not a file URI: {uri}")
    path = folder.relative(fs_path)
    lines = folder.lines(path)
    found = []
    for d in diagnostics:
        start, end = d.range.start, d.range.end
        found.append(
            Finding(
                path,
                str(d.code),
                start.line + 1,
                _code_points(lines[start.line], start.character),
                end.line + 1,
                _code_points(lines[end.line], end.character),
                d.message,
            )
        )
    return found


@dataclass
class LspRuns:
    """The two doors one server session gives: closed files, then each file opened."""

    closed: DoorRun
    opened: DoorRun


async def _lsp_session(folder: Folder, *, pull: bool) -> LspRuns:
    sys.path.insert(0, str(REPO))
    from lsprotocol import types

    from tests.lsp.harness import open_document, server, server_pid, uri

    env = {**folder.env, "IVYCHECK_LOG_LEVEL": "info"}
    loop = asyncio.get_running_loop()
    started = loop.time()
    files = folder.files()
    async with server(folder.root / folder.target, pull=pull, env=env) as client:
        pid = server_pid(client)

        def logged(prefix: str) -> bool:
            return any(m.message.startswith(prefix) for m in client.log_messages)

        async def until(ready: Callable[[], bool], what: str, timeout: float = 600) -> None:
            deadline = loop.time() + timeout
            while not ready():
                if loop.time() > deadline:
                    raise TimeoutError(f"the language server never said: {what}")
                await asyncio.sleep(0.02)

        closed: list[Finding] = []
        if pull:
            # The server asks for a refresh once the index is complete.
            await until(lambda: client.diagnostic_refresh_count > 0, "workspace/diagnostic/refresh")
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[])
            )
            for item in report.items:
                assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport), item
                closed += _from_lsp(folder, item.uri, item.items)
        else:
            await until(lambda: logged("workspace diagnostics up to date"), "closed files done")
            for document, published in client.diagnostics.items():
                closed += _from_lsp(folder, document, published)
        closed_cpu = _process_cpu(pid)
        closed_run = DoorRun(closed, loop.time() - started, closed_cpu)

        opened_started = loop.time()
        opened: list[Finding] = []
        for path in files:
            document = uri(folder.root / path)
            client.diagnostics.pop(document, None)
            open_document(client, folder.root / path)
            if pull:
                answer = await client.text_document_diagnostic_async(
                    types.DocumentDiagnosticParams(
                        text_document=types.TextDocumentIdentifier(uri=document)
                    )
                )
                assert isinstance(answer, types.RelatedFullDocumentDiagnosticReport), answer
                diagnostics: Sequence[Any] = answer.items
            else:
                await until(partial(operator.contains, client.diagnostics, document), path, 60)
                diagnostics = client.diagnostics[document]
            opened += _from_lsp(folder, document, diagnostics)
            client.text_document_did_close(
                types.DidCloseTextDocumentParams(
                    text_document=types.TextDocumentIdentifier(uri=document)
                )
            )
        opened_run = DoorRun(opened, loop.time() - opened_started, _process_cpu(pid) - closed_cpu)
    return LspRuns(closed_run, opened_run)


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the doors and what differs by design ---------------------------------------------------

COMMAND_DOORS: Mapping[str, Callable[[Folder], DoorRun]] = {
    "json": _command_door(["--format", "json"], _json),
    "text-default": _command_door([], _flake8_lines),
    "text": _command_door(["--format", "text"], _flake8_lines),
    "sarif": _command_door(["--format", "sarif"], _sarif),
    "github": _command_door(["--format", "github"], _github),
    "junit": _command_door(["--format", "junit"], _junit),
    "gitlab": _command_door(["--format", "gitlab"], _gitlab),
    "flake8": _flake8,
}
LSP_DOORS = {
    "lsp-push-closed": (False, "closed"),
    "lsp-push-open": (False, "opened"),
    "lsp-pull-workspace": (True, "closed"),
    "lsp-pull-document": (True, "opened"),
}
DOORS = (*COMMAND_DOORS, *LSP_DOORS)

NOT_A_DOOR = {
    "mypy plugin": (
        "reports one code of its own, mypy's `ivy-native-out` (README, 'mypy'): a native array "
        "passed as `out` seen through inferred types, which IVY007 cannot follow; it reports "
        "none of ivycheck's IVY codes, so there is nothing of theirs to compare"
    ),
}


@dataclass(frozen=True)
class ByDesign:
    """A documented difference: how ``door`` shows a reference finding of ``code``."""

    doors: frozenset[str]
    reason: str
    applies: Callable[[Finding], bool]
    shown_as: Callable[[Finding, Folder], Finding | None]
    """The finding as the door shows it; ``None``: the door does not show it."""


def _whole_line(finding: Finding, folder: Folder) -> Finding:
    row = finding.line - 1
    lines = folder.lines(finding.path)
    end_col = len(lines[row]) + 1 if row < len(lines) else finding.col
    return finding._replace(end_line=finding.line, end_col=end_col)


LSP_NAMES = frozenset(LSP_DOORS)
BY_DESIGN = (
    ByDesign(
        frozenset({"flake8"}),
        "flake8 runs no plugin on a file that does not parse: it reports its own E999, "
        "which --select IVY does not show (README, 'flake8')",
        lambda f: f.code == "IVY000",
        lambda f, folder: None,
    ),
    ByDesign(
        LSP_NAMES,
        "a point finding (end at its start) is shown to the end of its line, so that an "
        "editor can draw it (lsp/convert.py, _end)",
        lambda f: f.end_line is not None and (f.end_line, f.end_col or 0) <= (f.line, f.col or 0),
        _whole_line,
    ),
)


def expected(reference: Sequence[Finding], door: str, folder: Folder) -> tuple[list[Finding], int]:
    """The reference as ``door`` shows it by design, and how many findings that changed."""
    shown, changed = [], 0
    for finding in reference:
        rule = next((r for r in BY_DESIGN if door in r.doors and r.applies(finding)), None)
        if rule is None:
            shown.append(finding)
            continue
        changed += 1
        as_shown = rule.shown_as(finding, folder)
        if as_shown is not None:
            shown.append(as_shown)
    return shown, changed


def _project(findings: Iterable[Finding], carried: Sequence[str]) -> Counter[Finding]:
    blank = {name: None for name in FIELDS if name not in carried}
    return Counter(replace_fields(f, blank) for f in findings)


def replace_fields(finding: Finding, values: Mapping[str, Any]) -> Finding:
    return finding._replace(**values) if values else finding


def carried_fields(findings: Sequence[Finding]) -> tuple[str, ...]:
    """The optional fields a door's format carries (all its findings have them or none)."""
    return tuple(name for name in FIELDS if any(getattr(f, name) is not None for f in findings))


@dataclass
class Comparison:
    door: str
    run: DoorRun
    missing: list[Finding]
    extra: list[Finding]
    by_design: int
    carried: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return not self.missing and not self.extra


def compare(door: str, run: DoorRun, reference: Sequence[Finding], folder: Folder) -> Comparison:
    """``door``'s findings against the reference's, on the fields the door's format carries."""
    want, by_design = expected(reference, door, folder)
    carried = carried_fields(run.findings) if run.findings else carried_fields(want)
    got_counts, want_counts = _project(run.findings, carried), _project(want, carried)
    missing = sorted((want_counts - got_counts).elements())
    extra = sorted((got_counts - want_counts).elements())
    return Comparison(door, run, missing, extra, by_design, carried)


def collect(folder: Folder, doors: Sequence[str]) -> dict[str, DoorRun]:
    """Run each door over ``folder`` (the JSON door always: it is the reference)."""
    runs: dict[str, DoorRun] = {}
    for name in dict.fromkeys([REFERENCE, *doors]):
        if name in COMMAND_DOORS:
            runs[name] = COMMAND_DOORS[name](folder)
    for pull in (False, True):
        wanted = [name for name, (p, _) in LSP_DOORS.items() if p == pull and name in doors]
        if wanted:
            session = asyncio.run(_lsp_session(folder, pull=pull))
            for name in wanted:
                runs[name] = getattr(session, LSP_DOORS[name][1])
    return runs


def check_folder(path: Path, doors: Sequence[str], cache: Path) -> list[Comparison]:
    folder = Folder.of(path, cache)
    runs = collect(folder, doors)
    reference = runs[REFERENCE].findings
    return [compare(name, run, reference, folder) for name, run in runs.items()]


def report(path: Path, comparisons: Sequence[Comparison], limit: int = 20) -> str:
    reference = comparisons[0].run.findings
    codes = sorted({f.code for f in reference})
    lines = [
        f"{path}: {len(reference)} findings of {len(codes)} codes ({', '.join(codes)})",
        "| door | findings | by design | missing | extra | compared | seconds | CPU s |",
        "|---|---:|---:|---:|---:|---|---:|---:|",
    ]
    for c in comparisons:
        cpu = f"{c.run.cpu_seconds:.2f}" if c.run.cpu_seconds is not None else "-"
        compared = ", ".join(("line", *c.carried, "message"))
        lines.append(
            f"| {c.door} | {len(c.run.findings)} | {c.by_design} | {len(c.missing)} | "
            f"{len(c.extra)} | {compared} | {c.run.seconds:.2f} | {cpu} |"
        )
    for c in comparisons:
        for kind, found in (("missing", c.missing), ("extra", c.extra)):
            for finding in found[:limit]:
                lines.append(f"  {c.door}: {kind}: {finding.shown()}")
            if len(found) > limit:
                lines.append(f"  {c.door}: ... {len(found) - limit} more {kind}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=list(DEFAULT_FOLDERS))
    parser.add_argument(
        "--door", action="append", choices=DOORS, help="only these doors (default: every one)"
    )
    options = parser.parse_args(argv)
    doors = options.door or list(DOORS)
    for folder in options.folders:
        if not folder.is_dir():
            print(f"doors_agree: not a folder: {folder}", file=sys.stderr)
            return 2
    for name, reason in NOT_A_DOOR.items():
        print(f"not compared: {name}: {reason}")
    for rule in BY_DESIGN:
        print(f"by design ({', '.join(sorted(rule.doors))}): {rule.reason}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    disagree = False
    with tempfile.TemporaryDirectory(prefix="doors-agree-cache-") as cache:
        for folder in options.folders:
            comparisons = check_folder(folder, doors, Path(cache))
            print(report(folder, comparisons))
            disagree |= not all(c.agrees for c in comparisons)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("doors disagree" if disagree else "every door agrees")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
