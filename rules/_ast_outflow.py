"""Where ``out`` goes in a *plain* backend function, on CPython's tree.

The out-flow analysis (:mod:`ivycheck.rules._outflow`) follows ``out`` on libcst's tree
through aliases, dictionaries and same-file helpers, and :mod:`ivycheck.rules._return_paths`
judges every ``return`` against it. Most functions that forward ``out`` do it plainly:
``out`` appears only as ``out=out`` in calls and in tests (``if out is None``) and no call
unpacks ``**`` anything. For such a function :func:`plain_outflow` gives the libcst
analysis's answers from CPython's tree: the calls that receive ``out`` with what each does
with it; and, when its one ``return`` is its last statement, whether that return writes it.
For any other function it answers ``None``, and the caller asks libcst. Every test below
only ever says "not plain" where the libcst analysis would follow something; none guesses.

``inplace_update(out, value)`` (``out`` its first positional argument) is plain too: the
libcst analysis records it as an ``inplace_update`` use and follows nothing. A plain flow
therefore never reads ``out``'s values, never lets it escape and forwards no ``**``
dictionary: :attr:`FunctionOutFlow.reads_data`, ``escapes`` and ``forwards_var_kwargs``
are all false for it, and its uses are all the analysis has (what IVY002 and IVY003 ask).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from ivycheck.rules._ast_calls import is_inplace_update
from ivycheck.rules._ast_facts import AstImportMap, FunctionNode
from ivycheck.rules._outflow import CHECK_CALLS, OUT, UseKind, classify_callee

_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
"""Nodes that open a scope: an ``out`` inside one is not plain (libcst's analysis stops
following it at a function, lambda or class; comprehensions are left to it as well)."""

_TESTS = (ast.Compare, ast.BoolOp, ast.UnaryOp)
_TESTED = (ast.If, ast.While, ast.IfExp, ast.Assert)


@dataclass(frozen=True)
class PlainUse:
    """A call given ``out=out``, and what it does with it (``_outflow.OutUse``'s facts)."""

    call: ast.Call
    kind: UseKind
    callee: str | None


@dataclass(frozen=True)
class PlainOutFlow:
    """The out-flow of a plain function."""

    function: FunctionNode
    uses: tuple[PlainUse, ...]
    """In source order, as the libcst analysis records them."""
    returns: tuple[ast.Return, ...]
    """The function's own ``return`` statements (not those of nested functions)."""
    returns_method_of_call: bool
    """Some ``return`` hands back a method of a call given ``out=``
    (``_outflow.method_of_native_result``)."""

    @property
    def native(self) -> list[PlainUse]:
        return [use for use in self.uses if use.kind is UseKind.NATIVE]

    @property
    def may_forward_natively(self) -> bool:
        """``FunctionOutFlow.may_forward_natively`` (nothing escapes in a plain flow)."""
        return any(use.kind >= UseKind.UNKNOWN for use in self.uses)

    @property
    def writes(self) -> frozenset[int]:
        """``FunctionOutFlow.writes``: ids of the calls that write (or may write) ``out``,
        every use from ``inplace_update`` up (a plain flow has no other covering node)."""
        return frozenset(id(use.call) for use in self.uses if use.kind >= UseKind.INPLACE)

    @property
    def every_return_written(self) -> bool:
        """The one ``return`` is the last statement and holds a call that writes ``out``
        natively: every path to a ``return`` writes it (what ``_return_paths`` finds)."""
        if len(self.returns) != 1 or self.returns[0] is not self.function.body[-1]:
            return False
        return _holds(self.returns[0], {id(use.call) for use in self.native})


def plain_outflow(
    function: FunctionNode,
    imports: AstImportMap,
    runtime_modules: Sequence[str],
    module_functions: set[str],
) -> PlainOutFlow | None:
    """The out-flow of ``function``'s ``out`` parameter when the function is plain (see the
    module), else ``None``. ``module_functions``: the file's top-level function names (a
    call of one is a helper the libcst analysis follows)."""
    parents: dict[int, ast.AST] = {}
    names: list[ast.Name] = []
    returns: list[ast.Return] = []
    method_of_call = False
    stack: list[tuple[ast.AST, bool]] = [(statement, False) for statement in function.body]
    for statement in function.body:
        parents[id(statement)] = function
    while stack:
        node, nested = stack.pop()
        if isinstance(node, ast.keyword) and node.arg is None:
            return None  # f(**kw): dictionaries and **kwargs carry `out` unseen here
        if isinstance(node, ast.Return):
            method_of_call = method_of_call or _returns_method_of_call(node)
            if not nested:
                returns.append(node)
        elif isinstance(node, ast.Name) and node.id == OUT:
            if nested:
                return None
            names.append(node)
        inner = nested or isinstance(node, _SCOPES)
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            stack.append((child, inner))
    uses: list[PlainUse] = []
    for name in sorted(names, key=lambda n: (n.lineno, n.col_offset)):
        verdict = _occurrence(name, parents, imports, runtime_modules, module_functions)
        if verdict is None:
            return None
        if isinstance(verdict, PlainUse):
            uses.append(verdict)
    if len({id(use.call) for use in uses}) != len(uses):
        return None  # a call given `out` twice (`inplace_update(out, out=out)`): not plain
    returns.sort(key=lambda r: (r.lineno, r.col_offset))
    return PlainOutFlow(function, tuple(uses), tuple(returns), method_of_call)


class _Ignored:
    """An occurrence of ``out`` that only tests it (``out is None``, ``ivy.exists(out)``)."""


_IGNORED = _Ignored()


def _occurrence(
    name: ast.Name,
    parents: dict[int, ast.AST],
    imports: AstImportMap,
    runtime_modules: Sequence[str],
    module_functions: set[str],
) -> PlainUse | _Ignored | None:
    """What the libcst analysis makes of one ``out`` (``_outflow._Analysis.visit_Name``),
    when it is plain: a use, ignored, or ``None`` (not plain)."""
    parent = parents[id(name)]
    if not isinstance(name.ctx, ast.Load):
        # A plain store (`out = ...`, `out += ...`, `for out in ...`) is not a use.
        if isinstance(parent, ast.Assign) and name in parent.targets:
            return _IGNORED
        if isinstance(parent, ast.AnnAssign | ast.AugAssign | ast.For) and parent.target is name:
            return _IGNORED
        return None
    if isinstance(parent, ast.keyword):
        call = parents[id(parent)]
        if not isinstance(call, ast.Call) or parent.arg != OUT:
            return None
        if _last_name(call.func) in CHECK_CALLS and not is_inplace_update(call.func):
            return _IGNORED
        if isinstance(call.func, ast.Name) and _followed(call.func.id, imports, module_functions):
            return None  # a carrier dictionary or a same-file helper: libcst follows it
        if is_inplace_update(call.func):
            return PlainUse(call, UseKind.INPLACE, _last_name(call.func))
        kind, callee = classify_callee(imports.qualify(call.func), runtime_modules)
        return PlainUse(call, kind, callee)
    if isinstance(parent, ast.Call) and name in parent.args:
        if _last_name(parent.func) in CHECK_CALLS and not is_inplace_update(parent.func):
            return _IGNORED
        positional = [a for a in parent.args if not isinstance(a, ast.Starred)]
        if is_inplace_update(parent.func) and positional[0] is name:
            return PlainUse(parent, UseKind.INPLACE, _last_name(parent.func))
        return None  # out's values read (a positional argument): libcst marks reads_data
    if isinstance(parent, ast.Call | ast.Assign | ast.Dict | ast.Return | ast.Attribute):
        return None
    if isinstance(parent, ast.Subscript | ast.Starred):
        return None
    return _IGNORED if _in_test(name, parents) else None


def _followed(name: str, imports: AstImportMap, module_functions: set[str]) -> bool:
    """A call of ``dict`` (a dictionary carrying ``out``) or of a same-file function (a
    helper ``out`` goes through): the libcst analysis follows ``out`` into it."""
    return name == "dict" or (name in module_functions and imports.lookup(name) is None)


def _in_test(name: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """``_outflow._Analysis._in_test``: the name only takes part in a test."""
    child: ast.AST = name
    while True:
        ancestor = parents.get(id(child))
        if ancestor is None or isinstance(ancestor, ast.stmt | ast.FunctionDef):
            if isinstance(ancestor, _TESTED):
                return ancestor.test is child
            return False
        if isinstance(ancestor, _TESTS):
            return True
        if isinstance(ancestor, _TESTED):
            return ancestor.test is child
        child = ancestor


def _holds(root: ast.AST, wanted: set[int]) -> bool:
    """Whether ``root`` holds one of the ``wanted`` nodes outside any nested scope."""
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in wanted:
            return True
        stack.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))
    return False


def _returns_method_of_call(node: ast.Return) -> bool:
    """``return native(..., out=out).method(...)`` (``_outflow.method_of_native_result``)."""
    value = node.value
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Call)
        and any(k.arg == OUT for k in value.func.value.keywords)
    )


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def literal_out_none(function: FunctionNode) -> bool:
    """A call in the function (nested ones too) given ``out=None`` literally: IVY002's
    ``_has_literal_out_none`` (libcst reads ``None`` as a name, CPython as a constant)."""
    return any(
        isinstance(node, ast.keyword)
        and node.arg == OUT
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
        for statement in function.body
        for node in ast.walk(statement)
    )
