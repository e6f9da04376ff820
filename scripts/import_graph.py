"""Module sizes and the import graph between the four parts of ivycheck.

Usage: ``python scripts/import_graph.py [ROOT]`` (default: the repository holding this
script). ROOT is a checkout, or a tree exported with ``git archive REV | tar -x -C DIR``,
so the figures of any commit can be compared with today's.

Prints the lines of every module of ``rules/``, ``checker/``, ``lsp/`` and ``runtime/``
(with a total per part), the imports between parts (``checker -> rules: 2`` counts
import statements in ``checker/`` that name a module of ``ivycheck.rules``), the imports
between ``checker`` modules, and any import from one rule module into another (rules
share code through the ``rules/_*.py`` helpers, never through each other). Only ``ast``
is used: nothing is imported, so a broken tree is measured as it is.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

PARTS = ("rules", "checker", "lsp", "runtime")


def module_name(part: str, path: Path, base: Path) -> str:
    relative = path.relative_to(base).with_suffix("")
    names = [n for n in relative.parts if n != "__init__"]
    return ".".join(["ivycheck", part, *names])


def imported(tree: ast.Module, current: str, known: set[str]) -> list[str]:
    """Every module an import statement of ``tree`` names, relative imports resolved:
    ``from ivycheck.checker import walk`` names ``ivycheck.checker.walk``, not the package."""
    found: list[str] = []
    package = current.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{node.module}" if node.module else anchor
            else:
                base = node.module or ""
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            found.extend(m for m in submodules if m in known)
            if not all(m in known for m in submodules):
                found.append(base)
    return found


def part_of(module: str) -> str | None:
    pieces = module.split(".")
    if len(pieces) >= 2 and pieces[0] == "ivycheck" and pieces[1] in PARTS:
        return pieces[1]
    return None


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    modules: dict[str, tuple[str, int, ast.Module]] = {}
    for part in PARTS:
        base = root / part
        for path in sorted(base.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            name = module_name(part, path, base)
            modules[name] = (part, text.count("\n"), ast.parse(text))
    known = set(modules)

    print("# lines per module")
    for part in PARTS:
        sizes = [(n, lines) for n, (p, lines, _) in modules.items() if p == part]
        print(f"{part}: {len(sizes)} modules, {sum(lines for _, lines in sizes)} lines")
        for name, lines in sorted(sizes, key=lambda item: -item[1]):
            print(f"  {lines:6d}  {name.removeprefix(f'ivycheck.{part}.')}")

    edges: Counter[tuple[str, str]] = Counter()
    inner: Counter[tuple[str, str]] = Counter()
    rule_to_rule: list[tuple[str, str]] = []
    for name, (part, _, tree) in modules.items():
        seen: set[str] = set()
        for target in imported(tree, name, known):
            if target not in known or target == name or target in seen:
                continue
            seen.add(target)
            other = part_of(target)
            if other is None:
                continue
            if other != part:
                edges[(part, other)] += 1
            elif part == "checker":
                inner[(name, target)] += 1
            if part == other == "rules":
                short = target.rsplit(".", 1)[-1]
                own = name.rsplit(".", 1)[-1]
                if (
                    target != "ivycheck.rules"
                    and not short.startswith("_")
                    and not own.startswith("_")
                ):
                    rule_to_rule.append((name, target))

    print("\n# imports between parts (modules importing -> module imported, counted per pair)")
    for (source, target), count in sorted(edges.items()):
        print(f"  {source} -> {target}: {count}")
    print(f"\n# imports between checker modules: {sum(inner.values())}")
    for (source, target), _ in sorted(inner.items()):
        print(
            f"  {source.removeprefix('ivycheck.checker.')} -> "
            f"{target.removeprefix('ivycheck.checker.')}"
        )
    print(f"\n# rule module -> rule module: {len(rule_to_rule)}")
    for source, target in sorted(rule_to_rule):
        print(f"  {source.rsplit('.', 1)[-1]} -> {target.rsplit('.', 1)[-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
