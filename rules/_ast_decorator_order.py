"""IVY005's reading of CPython's tree: the functions whose known wrappers stand out of the
project's order, each with the pair a finding names and the order its fix writes.

What a pair of wrappers means (out of order, commuting, changing results) is tree-free
(:mod:`~ivycheck.rules._wrapper_order`); this module only finds the functions and their
decorators, and what kind of function each is.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING, NamedTuple

from ivycheck.rules._ast_facts import FunctionNode, Scope, decorator_names, facts
from ivycheck.rules._wrapper_order import Slots, commuting_pairs, fix_order, reported_pair

if TYPE_CHECKING:
    from ivycheck.checker.project.index import ProjectIndex


class Misordered(NamedTuple):
    """A function with a misplaced pair of known wrappers."""

    function: FunctionNode
    decorator: ast.expr
    """The lower decorator of the pair reported (the one that belongs above)."""
    above: str
    below: str
    """The pair's names, as the message names them."""
    api: bool
    """A public module-level function (the project re-wraps such a function)."""
    fixed: tuple[int, ...]
    """Per place of the decorator list, the index (as written) of the one the fix puts there."""


def decorated(tree: ast.Module, era: Collection[str]) -> list[tuple[FunctionNode, Scope]]:
    """The functions with two decorators or more, or none when no function carries two
    whose names are in ``era`` (any name some order could hold): the project's own order
    (another file, the index) is then not needed to rule the file out."""
    found = facts(tree)
    functions = [(f, scope) for f, scope in found.functions if len(f.decorator_list) > 1]
    if any(sum(n in era for n in decorator_names(found, f)) > 1 for f, _ in functions):
        return functions
    return []


def misordered(
    tree: ast.Module,
    functions: list[tuple[FunctionNode, Scope]],
    places: Slots,
    index: ProjectIndex,
) -> Iterator[Misordered]:
    """Each of ``functions`` (of ``tree``) with a misplaced pair of the wrappers ``places``
    orders. A helper (nested in a function, or private) is wrapped once, by its
    decorators: there a pair whose order cannot change what it does is not misplaced."""
    top = {id(statement) for statement in tree.body}
    found = facts(tree)
    pairs: dict[tuple[tuple[str, ...], frozenset[frozenset[str]]], tuple[int, int] | None] = {}
    for function, scope in functions:
        known = [
            (at, name) for at, name in enumerate(decorator_names(found, function)) if name in places
        ]
        names = tuple(name for _, name in known)
        helper = bool(scope) or _is_private(function.name)
        commute = commuting_pairs(names, _annotated(function.args)) if helper else frozenset()
        key = (names, commute)
        if key in pairs:  # (the functions of a file share a few decorator lists)
            pair = pairs[key]
        else:
            pair = pairs[key] = reported_pair(names, places, commute, index)
        if pair is None:
            continue
        yield Misordered(
            function,
            function.decorator_list[known[pair[1]][0]],
            names[pair[0]],
            names[pair[1]],
            not helper and id(function) in top,
            fix_order(len(function.decorator_list), known, places),
        )


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _annotated(args: ast.arguments) -> bool:
    """Whether any parameter carries an annotation."""
    return any(
        a is not None and a.annotation is not None
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
    )
