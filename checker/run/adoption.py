"""The command's adoption steps on top of a run's findings: baselines and ``--add-noqa``.

Both work on what the run reports (selection and ``# noqa`` already applied), so they
see exactly the findings the user would see, and read files again only for the files
with findings. The text logic lives in :mod:`~ivycheck.checker.run.baseline` and
:mod:`~ivycheck.checker.run.add_noqa`; this module reads and writes the files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.sourcefile import SourceError, read_source, write_source_in_place
from ivycheck.checker.run.add_noqa import add_noqa
from ivycheck.checker.run.baseline import (
    apply_baseline,
    identify,
    in_scope,
    load_baseline,
    rows,
    write_baseline,
)


def source_reader(stdin: tuple[str, str] | None) -> Callable[[str], str | None]:
    """Each diagnostic path's text, read once (standard input by its given name)."""
    texts: dict[str, str | None] = {}
    if stdin is not None:
        texts[stdin[0]] = stdin[1]

    def read(path: str) -> str | None:
        if path not in texts:
            try:
                texts[path] = read_source(Path(path)).text
            except SourceError:
                texts[path] = None
        return texts[path]

    return read


@dataclass
class BaselineOutcome:
    diagnostics: list[Diagnostic]
    """What is left to report."""
    notes: list[str] = field(default_factory=list)
    """Lines for standard error: how many were hidden, fixed, written."""


def use_baseline(
    diagnostics: Sequence[Diagnostic],
    *,
    baseline: Path | None,
    write: Path | None,
    paths: Sequence[Path],
    stdin: tuple[str, str] | None,
) -> BaselineOutcome:
    """Filter by ``--baseline`` and/or write ``--write-baseline``.

    Writing alone records every finding (and keeps an existing file's entries for files
    outside ``paths``, so that writing for a subfolder does not forget the rest). With
    both, the written baseline is the old one less what was fixed: new findings are
    reported, never adopted silently.
    """
    target = baseline if baseline is not None else write
    assert target is not None
    root = Path(os.path.abspath(target)).parent
    identified = identify(diagnostics, root, source_reader(stdin))
    checked = in_scope(list(paths), root)
    outcome = BaselineOutcome(list(diagnostics))
    if baseline is not None:
        filtered = apply_baseline(load_baseline(baseline), identified, checked)
        outcome.diagnostics = filtered.new
        known = len(identified) - len(filtered.new)
        if known:
            outcome.notes.append(f"{known} finding{'s' * (known != 1)} in the baseline not shown.")
        if filtered.fixed and write is None:
            outcome.notes.append(
                f"{filtered.fixed} baseline entr{'ies' if filtered.fixed != 1 else 'y'} "
                f"fixed since; drop them with --write-baseline {baseline}."
            )
        kept = filtered.known
    else:
        kept = rows(identified)
        if write is not None and write.exists():
            kept = {
                **{e: m for e, m in load_baseline(write).items() if not checked(e.path)},
                **kept,
            }
    if write is not None:
        count = write_baseline(write, kept)
        outcome.notes.append(f"Wrote {count} finding{'s' * (count != 1)} to {write}.")
        if baseline is None:
            outcome.diagnostics = []
    return outcome


@dataclass
class NoqaOutcome:
    added: int = 0
    problems: list[str] = field(default_factory=list)


def add_noqa_to_files(
    diagnostics: Sequence[Diagnostic], root_of: Callable[[Path], Path]
) -> NoqaOutcome:
    """Add ``# noqa`` directives for ``diagnostics`` to their files, written as ``--fix``
    writes (in place; same encoding, BOM and line endings; refused if the file changed on
    disk meanwhile or is a link to outside its project, ``root_of`` the file)."""
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    outcome = NoqaOutcome()
    for path, found in sorted(by_path.items()):
        try:
            source = read_source(Path(path))
        except SourceError as err:
            outcome.problems.append(f"{path}: not changed: {err}")
            continue
        edit = add_noqa(source.text, found)
        for line in edit.unplaceable:
            outcome.problems.append(
                f"{path}:{line}: no noqa directive added: the line ends inside a string "
                "or a backslash continuation, where a comment cannot go"
            )
        if edit.problem is not None:
            outcome.problems.append(f"{path}: {edit.problem}")
        if edit.text == source.text:
            continue
        try:
            write_source_in_place(Path(path), source, edit.text, root=root_of(Path(path)))
        except (SourceError, OSError) as err:
            outcome.problems.append(f"{path}: not changed: {err}")
            continue
        outcome.added += edit.added
    return outcome
