"""``--fix`` never damages code: over ``examples/``, a generated Ivy-style corpus (with
deliberate mistakes) and real NumPy/PyTorch files placed where backend rules look at them.

For every file the real command changed: the result parses, a second run has nothing left to
fix, and the module's AST differs from the original only in top-level statements the fixes'
edits touch (or right next to them: a fix may add ``fn.support_native_out = True`` after a
function). Unfixed files are byte-for-byte unchanged.
"""

from __future__ import annotations

import ast
import difflib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO, load_script, run_ivycheck
from tests.reliability import corpus


def _generate_corpus(root: Path, functions: int) -> None:
    module = load_script(REPO / "benchmarks/corpus.py", "corpus_gen")
    module.generate(root, functions)


def _tree(root: Path, real_files: int) -> Path:
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    shutil.copytree(REPO / "examples", root / "examples")
    _generate_corpus(root / "generated", 300)
    for backend in ("numpy", "torch"):
        if backend not in corpus.roots():
            continue
        target = root / "real/ivy/functional/backends" / backend
        target.mkdir(parents=True)
        for number, path in enumerate(corpus.sample(backend, real_files, max_bytes=30_000)):
            shutil.copyfile(path, target / f"{number:03d}_{path.name}")
    return root


def _statements(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line incl. decorators, last line, dump) of each top-level statement."""
    found = []
    for node in tree.body:
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno, *(d.lineno for d in decorators)])
        found.append((first, node.end_lineno or node.lineno, ast.dump(node)))
    return found


def _unintended_changes(before: str, after: str, edited: set[int]) -> list[str]:
    """Top-level statements that changed although no fix edit touched them or a neighbour."""
    old = _statements(ast.parse(before))
    new = _statements(ast.parse(after))
    touched: set[int] = set()
    for line in edited:  # the statement holding the line, or both neighbours of a gap
        holding = {i for i, (a, b, _) in enumerate(old) if a <= line <= b}
        before_gap = [i for i, (_, b, _) in enumerate(old) if b < line]
        touched |= holding or {max(before_gap, default=-1), len(before_gap)}
    matcher = difflib.SequenceMatcher(a=[s[2] for s in old], b=[s[2] for s in new], autojunk=False)
    wrong = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        near = set(range(i1 - 1, i2 + 1))
        if not near & touched:
            wrong.append(f"{tag} old statements {i1}:{i2} / new {j1}:{j2}")
    return wrong


def _edited_lines(diagnostics: list[dict[str, Any]]) -> dict[str, set[int]]:
    lines: dict[str, set[int]] = {}
    for d in diagnostics:
        for edit in (d.get("fix") or {}).get("edits", []):
            rows = range(edit["location"]["row"], edit["end_location"]["row"] + 1)
            lines.setdefault(d["filename"], set()).update(rows)
    return lines


@pytest.mark.parametrize("real_files", [pytest.param(15, id="sample")])
def test_fix_is_safe_over_examples_and_corpus(tmp_path: Path, real_files: int) -> None:
    root = _tree(tmp_path, real_files)
    before = {p: p.read_bytes() for p in root.rglob("*.py")}
    common = ("--no-cache", "--unsafe-fixes", "--jobs", "2", ".")
    first = run_ivycheck("--format", "json", "--exit-zero", *common, cwd=root)
    assert first.returncode == 0, first.stderr
    found = json.loads(first.stdout)
    assert not [d for d in found if d["code"] == "IVY999"], found
    edited = _edited_lines(found)
    assert len(edited) >= 8, "the tree should hold fixable mistakes"

    fixed = run_ivycheck("--fix", "--exit-zero", *common, cwd=root)
    assert fixed.returncode == 0, fixed.stderr
    assert "not fixed" not in fixed.stderr and "would produce" not in fixed.stderr

    changed = {p for p, data in before.items() if p.read_bytes() != data}
    assert {str((root / name).resolve()) for name in edited} >= {str(p) for p in changed}
    assert len(changed) >= 8
    problems = []
    for path in sorted(changed):
        old, new = before[path].decode(), path.read_text()
        try:
            ast.parse(new)
        except SyntaxError as err:
            problems.append(f"{path}: does not parse after --fix: {err}")
            continue
        relative = str(path.relative_to(root))
        problems += [f"{relative}: {w}" for w in _unintended_changes(old, new, edited[relative])]
    assert not problems, "\n".join(problems)

    again = run_ivycheck("--diff", *common, cwd=root)
    assert again.returncode == 0, f"a second pass would fix more:\n{again.stdout[:3000]}"
