"""Ecosystem check: ivycheck on real Ivy code bases, each compared with its reviewed snapshot.

The rules are exact on the cases we wrote; this check holds them to the code users have. It
runs the real ``ivycheck`` command over each snapshot of Ivy kept outside the repository
(``<repo>/../shared/corpora/<name>/ivy`` for every name in :data:`CORPORA`: the same framework
in 2023-03 and 2023-09, with different wrappers, ``inplace_update``s, decorator lists and
layouts; read in place, never copied) and compares every finding with
``tests/ecosystem/<name>.review.jsonl``, where a person has read each one and written a
verdict and a one-line reason:

* ``true``: a real mistake by the rule's documented meaning;
* ``judgement``: defensible either way (the reason says why);
* ``false``: the code is right; the finding is a known false positive that must be fixed;
* ``missed``: a real mistake ivycheck does not report yet (it must, once the rule is fixed);
* ``unreviewed``: written by ``--update`` for a finding nobody has judged yet.

Any difference between the run and the snapshot fails (exit 1), because a rule change that adds
or drops a finding on real code must be read by a person before it lands: findings not in the
snapshot (added), snapshot findings no longer reported (dropped: a lost true finding, or a fixed
false one), changed messages, and ``unreviewed`` entries. Known false findings and known misses
are listed on every run; with ``--strict`` they fail as well. ``--update`` rewrites the snapshot
from the run, keeping every verdict and reason, turning a ``missed`` entry that is now found into
``true``, dropping entries no longer reported and marking new findings ``unreviewed``; the diff
of the file is then the review.

Paths are relative to the corpus root (``ivy/...``): ivycheck runs there on ``ivy``, so the
snapshot does not depend on where the corpus lives. The snapshot holds one JSON object per line,
sorted by path, row, column and code, so that a review reads as a line diff.

Usage::

    .venv/bin/python scripts/ecosystem_check.py            # compare; exit 1 on any difference
    .venv/bin/python scripts/ecosystem_check.py --strict   # known false findings and misses fail too
    .venv/bin/python scripts/ecosystem_check.py --update   # rewrite the snapshots from this run
    .venv/bin/python scripts/ecosystem_check.py --only ivy-9affbcc   # one corpus

With ``--probe`` (``make ecosystem`` passes it), each corpus's out-fate table (what
``--show-settings`` prints) is also compared with what that corpus's own wrapper does when
called, by ``scripts/probe_out_fate.py`` where that script exists (:func:`run_probe`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

CORPORA = ("ivy-975c8fc", "ivy-9affbcc")
"""The shared snapshots the check runs on, each with its own review file."""
CORPUS_NAME = CORPORA[0]
REPO_ROOT = Path(__file__).resolve().parent.parent
CORPORA_ROOT = REPO_ROOT.parent / "shared" / "corpora"
DEFAULT_CORPUS = CORPORA_ROOT / CORPUS_NAME
DEFAULT_SNAPSHOT = REPO_ROOT / "tests" / "ecosystem" / f"{CORPUS_NAME}.review.jsonl"
PROBE = REPO_ROOT / "scripts" / "probe_out_fate.py"
"""Calls a corpus's own wrapper and compares what ``out`` becomes with the fate table
``--show-settings`` prints (written with the out-fate model, issue 36 part 1)."""


def snapshot_for(name: str) -> Path:
    """The review file of corpus ``name``."""
    return REPO_ROOT / "tests" / "ecosystem" / f"{name}.review.jsonl"


CHECKED_DIR = "ivy"
"""The folder of the corpus that is checked, given to ivycheck relative to the corpus root."""

VERDICTS = ("true", "judgement", "false", "missed", "unreviewed")
ENTRY_KEYS = ("path", "row", "col", "code", "verdict", "reason", "message")
OPTIONAL_KEYS = ("runtime",)
"""``runtime``: ``confirmed`` or ``refuted`` when ``scripts/verify_fixes.py --update-review``
ran the consequence the message states (absent: not run); kept by ``--update``."""
RUNTIME_STATUSES = ("confirmed", "refuted")

Key = tuple[str, int, int, str]


class SnapshotError(ValueError):
    """The snapshot file cannot be read as a review (bad JSON, verdict, key or duplicate)."""


@dataclass(frozen=True)
class Finding:
    """One finding of the run, with its path relative to the corpus root."""

    path: str
    row: int
    col: int
    code: str
    message: str

    @property
    def key(self) -> Key:
        return (self.path, self.row, self.col, self.code)

    def __str__(self) -> str:
        return f"{self.path}:{self.row}:{self.col}: {self.code} {self.message}"


@dataclass(frozen=True)
class Entry:
    """One reviewed line of the snapshot; ``message`` is None for a ``missed`` finding."""

    path: str
    row: int
    col: int
    code: str
    verdict: str
    reason: str
    message: str | None
    runtime: str | None = None

    @property
    def key(self) -> Key:
        return (self.path, self.row, self.col, self.code)

    def __str__(self) -> str:
        text = f"{self.path}:{self.row}:{self.col}: {self.code}"
        return f"{text} {self.message}" if self.message else f"{text} ({self.reason})"


def parse_snapshot(text: str) -> list[Entry]:
    """Read the JSON Lines snapshot; every line must be a complete, valid review entry."""
    entries: list[Entry] = []
    seen: set[Key] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as error:
            raise SnapshotError(f"line {number}: not JSON ({error})") from error
        if (
            not isinstance(raw, dict)
            or not set(ENTRY_KEYS) <= set(raw)
            or not set(raw) <= set(ENTRY_KEYS + OPTIONAL_KEYS)
        ):
            raise SnapshotError(
                f"line {number}: expected exactly the keys {', '.join(ENTRY_KEYS)} "
                f"(and optionally {', '.join(OPTIONAL_KEYS)})"
            )
        entry = _entry_from(raw, number)
        if entry.key in seen:
            raise SnapshotError(f"line {number}: {entry} appears twice")
        seen.add(entry.key)
        entries.append(entry)
    return entries


def _entry_from(raw: Mapping[str, Any], number: int) -> Entry:
    strings = ("path", "code", "verdict", "reason")
    if not all(isinstance(raw[name], str) for name in strings):
        raise SnapshotError(f"line {number}: {', '.join(strings)} must be strings")
    if not all(isinstance(raw[name], int) and raw[name] > 0 for name in ("row", "col")):
        raise SnapshotError(f"line {number}: row and col must be positive integers")
    if raw["verdict"] not in VERDICTS:
        raise SnapshotError(
            f"line {number}: verdict {raw['verdict']!r} is not one of {', '.join(VERDICTS)}"
        )
    if raw["verdict"] != "unreviewed" and not raw["reason"].strip():
        raise SnapshotError(f"line {number}: a {raw['verdict']} entry needs a reason")
    if raw["verdict"] == "missed":
        if raw["message"] is not None:
            raise SnapshotError(f"line {number}: a missed finding has no message (null)")
    elif not isinstance(raw["message"], str):
        raise SnapshotError(f"line {number}: message must be a string")
    if "runtime" in raw and raw["runtime"] not in RUNTIME_STATUSES:
        raise SnapshotError(f"line {number}: runtime must be one of {', '.join(RUNTIME_STATUSES)}")
    return Entry(
        raw["path"],
        raw["row"],
        raw["col"],
        raw["code"],
        raw["verdict"],
        raw["reason"],
        raw["message"],
        raw.get("runtime"),
    )


def render_snapshot(entries: Iterable[Entry]) -> str:
    """The canonical text: one entry per line, sorted by path, row, column and code."""
    lines = []
    for entry in sorted(entries, key=lambda e: e.key):
        raw = {name: getattr(entry, name) for name in ENTRY_KEYS}
        raw.update({k: getattr(entry, k) for k in OPTIONAL_KEYS if getattr(entry, k) is not None})
        lines.append(json.dumps(raw, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def run_ivycheck(corpus: Path, command: Sequence[str]) -> list[Finding]:
    """Run ``command`` (ivycheck) over ``corpus/ivy`` from the corpus root and read its JSON."""
    args = [*command, "--format", "json", "--no-cache", "--exit-zero", "--quiet", CHECKED_DIR]
    proc = subprocess.run(args, cwd=corpus, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(
            f"{shlex.join(args)} exited {proc.returncode} in {corpus}:\n{proc.stderr.strip()}"
        )
    return [_finding_from(raw, corpus) for raw in json.loads(proc.stdout)]


def _finding_from(raw: Mapping[str, Any], corpus: Path) -> Finding:
    path = Path(raw["filename"])
    if path.is_absolute():
        path = path.relative_to(corpus.resolve())
    return Finding(
        path.as_posix(),
        int(raw["location"]["row"]),
        int(raw["location"]["column"]),
        str(raw["code"]),
        str(raw["message"]),
    )


@dataclass
class Comparison:
    """How a run differs from the snapshot; each list holds what one message is about."""

    added: list[Finding] = field(default_factory=list)
    dropped: list[Entry] = field(default_factory=list)
    changed: list[tuple[Entry, Finding]] = field(default_factory=list)
    unreviewed: list[Entry] = field(default_factory=list)
    fixed_false: list[Entry] = field(default_factory=list)
    found_missed: list[Entry] = field(default_factory=list)
    known_false: list[Entry] = field(default_factory=list)
    known_missed: list[Entry] = field(default_factory=list)
    agreed: int = 0

    def differences(self) -> int:
        """Changes that a person must review (and ``--update`` records) before they land."""
        return (
            len(self.added)
            + len(self.dropped)
            + len(self.changed)
            + len(self.unreviewed)
            + len(self.fixed_false)
            + len(self.found_missed)
        )

    def failures(self, *, strict: bool) -> int:
        known = len(self.known_false) + len(self.known_missed) if strict else 0
        return self.differences() + known


def compare(entries: Iterable[Entry], findings: Iterable[Finding]) -> Comparison:
    """Match the run's findings with the snapshot entries by path, row, column and code."""
    result = Comparison()
    snapshot = {entry.key: entry for entry in entries}
    reported = {finding.key: finding for finding in findings}
    for key, finding in sorted(reported.items()):
        entry = snapshot.get(key)
        if entry is None:
            result.added.append(finding)
        elif entry.verdict == "missed":
            result.found_missed.append(entry)
        elif entry.message != finding.message:
            result.changed.append((entry, finding))
        elif entry.verdict == "unreviewed":
            result.unreviewed.append(entry)
        elif entry.verdict == "false":
            result.known_false.append(entry)
        else:
            result.agreed += 1
    for key, entry in sorted(snapshot.items()):
        if key in reported:
            continue
        if entry.verdict == "missed":
            result.known_missed.append(entry)
        elif entry.verdict == "false":
            result.fixed_false.append(entry)
        else:
            result.dropped.append(entry)
    return result


def updated(entries: Iterable[Entry], findings: Iterable[Finding]) -> list[Entry]:
    """The snapshot after this run: verdicts kept, found misses ``true``, new ones unreviewed."""
    snapshot = {entry.key: entry for entry in entries}
    reported = {finding.key: finding for finding in findings}
    result = []
    for key, finding in reported.items():
        entry = snapshot.get(key)
        if entry is None:
            result.append(Entry(*key, verdict="unreviewed", reason="", message=finding.message))
        else:
            verdict = "true" if entry.verdict == "missed" else entry.verdict
            # a changed message is a changed claim: its run-time status no longer applies
            runtime = entry.runtime if entry.message == finding.message else None
            result.append(replace(entry, verdict=verdict, message=finding.message, runtime=runtime))
    result.extend(e for k, e in snapshot.items() if k not in reported and e.verdict == "missed")
    return sorted(result, key=lambda e: e.key)


def report(result: Comparison, *, strict: bool) -> list[str]:
    """Ruff-style lines: what differs, what is still known to be wrong, and a summary."""
    sections: list[tuple[str, list[str]]] = [
        ("added (not in the snapshot: review them)", [f"+ {f}" for f in result.added]),
        ("dropped (in the snapshot, no longer reported)", [f"- {e}" for e in result.dropped]),
        (
            "changed message",
            [f"- {old}\n+ {new}" for old, new in result.changed],
        ),
        ("unreviewed (set a verdict)", [f"? {e}" for e in result.unreviewed]),
        (
            "false findings no longer reported (fixed: run --update)",
            [f"- {e}" for e in result.fixed_false],
        ),
        (
            "missed findings now reported (run --update)",
            [f"+ {e}" for e in result.found_missed],
        ),
    ]
    known_mark = "FAIL" if strict else "must be fixed"
    sections += [
        (
            f"known false findings: {len(result.known_false)} ({known_mark})",
            [f"  {e}\n      why false: {e.reason}" for e in result.known_false],
        ),
        (
            f"known misses: {len(result.known_missed)} ({known_mark})",
            [f"  {e}" for e in result.known_missed],
        ),
    ]
    lines = []
    for title, items in sections:
        if items:
            lines += [f"{title}:", *items, ""]
    failures = result.failures(strict=strict)
    lines.append(
        f"{result.agreed} findings as reviewed, {result.differences()} differences, "
        f"{len(result.known_false)} known false, {len(result.known_missed)} known misses"
        f"{' (strict)' if strict else ''}: {'FAILED' if failures else 'ok'}"
    )
    return lines


def run_probe(corpus: Path, command: Sequence[str]) -> tuple[int, str]:
    """``scripts/probe_out_fate.py <corpus> --ivycheck <command>``: (exit status, output);
    (0, why skipped) if the script is missing. Exit 0: the fate table ``command
    --show-settings`` prints for the corpus is what the corpus's own wrapper does on NumPy
    and PyTorch; 1 a row differs; 2 the corpus's Ivy does not import."""
    if not PROBE.is_file():
        return 0, f"probe skipped: {PROBE.relative_to(REPO_ROOT)} does not exist yet"
    proc = subprocess.run(
        [sys.executable, str(PROBE), str(corpus), "--ivycheck", shlex.join(command)],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, (proc.stdout + proc.stderr).strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="one corpus root (default: every corpus of CORPORA under ../shared/corpora)",
    )
    parser.add_argument(
        "--snapshot", type=Path, default=None, help="its review file (with --corpus)"
    )
    parser.add_argument(
        "--only", action="append", choices=CORPORA, help="check only this corpus (repeatable)"
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="also compare each corpus's fate table with its wrapper (scripts/probe_out_fate.py)",
    )
    parser.add_argument(
        "--ivycheck",
        default=shlex.join([sys.executable, "-m", "ivycheck"]),
        help="the command that runs ivycheck (default: this Python's `-m ivycheck`)",
    )
    parser.add_argument(
        "--strict", action="store_true", help="known false findings and misses fail too"
    )
    parser.add_argument("--update", action="store_true", help="rewrite the snapshots from this run")
    args = parser.parse_args(argv)

    if args.corpus is not None:
        runs = [(args.corpus, args.snapshot or snapshot_for(args.corpus.name))]
    else:
        runs = [(CORPORA_ROOT / name, snapshot_for(name)) for name in args.only or CORPORA]
    command = shlex.split(args.ivycheck)
    worst = 0
    for corpus, snapshot in runs:
        status = check_corpus(corpus, snapshot, command, strict=args.strict, update=args.update)
        if status == 0 and args.probe and not args.update:
            status, output = run_probe(corpus, command)
            print(output)
        worst = max(worst, status)
    if len(runs) > 1:
        print(f"{len(runs)} corpora: {'ok' if worst == 0 else 'FAILED'}")
    return worst


def check_corpus(
    corpus: Path, snapshot: Path, command: Sequence[str], *, strict: bool, update: bool
) -> int:
    """One corpus against its review file: 0 agreed, 1 differences, 2 could not run."""
    if not (corpus / CHECKED_DIR).is_dir():
        print(f"error: corpus not found: {corpus / CHECKED_DIR}", file=sys.stderr)
        return 2
    try:
        text = snapshot.read_text(encoding="utf-8") if snapshot.exists() else ""
        entries = parse_snapshot(text)
    except SnapshotError as error:
        print(f"error: {snapshot}: {error}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        findings = run_ivycheck(corpus, command)
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    print(f"ivycheck on {corpus / CHECKED_DIR}: {len(findings)} findings in {elapsed:.1f} s")

    result = compare(entries, findings)
    if update:
        new = updated(entries, findings)
        snapshot.write_text(render_snapshot(new), encoding="utf-8")
        waiting = sum(entry.verdict == "unreviewed" for entry in new)
        print(
            f"wrote {snapshot} ({len(new)} entries; {result.differences()} differences "
            f"recorded; {waiting} unreviewed: set their verdict and reason)"
        )
        return 0
    print("\n".join(report(result, strict=strict)))
    if text != render_snapshot(entries):
        print(f"{snapshot} is not in canonical order/format: run --update")
        return 1
    return 1 if result.failures(strict=strict) else 0


if __name__ == "__main__":
    raise SystemExit(main())
