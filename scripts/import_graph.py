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

LAYERS: tuple[tuple[str, ...], ...] = (
    ("ivycheck.checker.base",),
    ("ivycheck.checker.project",),
    ("ivycheck.checker.noqa",),
    ("ivycheck.checker.core",),
    ("ivycheck.checker.rule_api",),
    ("ivycheck.rules",),
    ("ivycheck.checker.run",),
    ("ivycheck.checker.frontends",),
    ("ivycheck.lsp",),
)
"""The checker's layers, lowest first: a module imports its own layer or a lower one.

The finding record, text and files (``base``) under what a project is (``project``:
configuration, discovery, summaries, the index) under ``# noqa`` (``noqa``) under the rule
machinery (``core``) under the surface rules import (``rule_api``) under the rules under
a run over many files (``run``: runner, cache, baseline, the workspace) under what users
start (``frontends``: the command, reporters, the flake8 and mypy plugins) under the
language server. ``runtime`` is a separate part, checked for circles only."""


def module_name(part: str, path: Path, base: Path) -> str:
    relative = path.relative_to(base).with_suffix("")
    names = [n for n in relative.parts if n != "__init__"]
    return ".".join(["ivycheck", part, *names])


def imported(tree: ast.Module, current: str, known: set[str]) -> list[str]:
    """Every module an import statement of ``tree`` names, relative imports resolved:
    ``from ivycheck.checker.core import engine`` names ``ivycheck.checker.core.engine``, not the package."""
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


def read_modules(root: Path) -> dict[str, tuple[str, int, ast.Module]]:
    """Every module of the four parts by dotted name: its part, line count and tree. An
    extension module (C) is known by its stub (``runtime/_speedups.pyi``), which imports only
    what its types name."""
    modules: dict[str, tuple[str, int, ast.Module]] = {}
    for part in PARTS:
        base = root / part
        stubs = [p for p in base.rglob("*.pyi") if not p.with_suffix(".py").exists()]
        for path in sorted([*base.rglob("*.py"), *stubs]):
            text = path.read_text(encoding="utf-8")
            name = module_name(part, path, base)
            modules[name] = (part, text.count("\n"), ast.parse(text))
    return modules


def import_graph(modules: dict[str, tuple[str, int, ast.Module]]) -> dict[str, set[str]]:
    """Module -> the modules of ivycheck it imports (at any depth, ``TYPE_CHECKING`` too)."""
    known = set(modules)
    return {
        name: {t for t in imported(tree, name, known) if t in known and t != name}
        for name, (_, _, tree) in modules.items()
    }


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of modules that import each other round a circle (Tarjan's strongly
    connected components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(circles)


def layer_of(module: str) -> int | None:
    """The position of ``module``'s layer in :data:`LAYERS`, ``None`` outside them (the
    ``ivycheck.checker`` package itself, the runtime)."""
    for position, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return position
    return None


def layer_violations(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import from a lower layer into a higher one: (importing, imported)."""
    found: list[tuple[str, str]] = []
    for source, targets in sorted(graph.items()):
        own = layer_of(source)
        for target in sorted(targets):
            other = layer_of(target)
            if own is not None and other is not None and other > own:
                found.append((source, target))
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent
    modules = read_modules(root)
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
    graph = import_graph(modules)
    circles = import_circles(graph)
    print(f"\n# import circles: {len(circles)}")
    for circle in circles:
        print(f"  {' -> '.join(circle)}")
    upward = layer_violations(graph)
    print(f"\n# imports against the layer order: {len(upward)}")
    for source, target in upward:
        print(f"  {source} -> {target}")
    return 1 if circles or upward or rule_to_rule else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
