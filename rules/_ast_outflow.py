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

:func:`followed_outflow` decides more functions, for callers that read the flow's
``reads_data``, ``escapes`` and each use's helper (``via``, ``DROPPED``) as the libcst
rules read ``FunctionOutFlow``: ``out`` read (``out.dtype``, a method called on it, a
positional argument such as ``ivy.is_float_dtype(out)``, an operand, ``return out``),
handed to a same-file helper (by keyword or position; the helper's own flow is decided the
same way, recursion left to libcst), and ``**`` of a local dictionary (one that is not the
signature's ``**kwargs``: a plain flow builds no dictionary carrying ``out``, so libcst
follows nothing there either). Aliases, dictionaries carrying ``out``, subscripts and
closures stay undecided (``None``).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ivycheck.rules._ast_calls import is_inplace_update
from ivycheck.rules._ast_facts import (
    AstImportMap,
    FunctionNode,
    child_nodes,
    positional_or_keyword,
)
from ivycheck.rules._vocabulary import CHECK_CALLS, OUT, UseKind, classify_callee, describe_use

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

_OTHER_PARENTS = (
    ast.Tuple,
    ast.List,
    ast.Set,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.Expr,
    ast.If,
    ast.While,
    ast.Assert,
    ast.AugAssign,
    ast.FormattedValue,
    ast.For,
    ast.AsyncFor,
    ast.withitem,
    ast.Yield,
    ast.YieldFrom,
    ast.Await,
    ast.Raise,
    ast.Slice,
)
"""Parents of a read ``out`` whose libcst counterpart the analysis meets in its last
branch (a test, or else ``out`` escapes there): none of them is an argument, an assigned
value (an alias), a dictionary entry, a subscript or a call's callee."""

_NOT_TESTS = (
    ast.Call,
    ast.Assign,
    ast.Dict,
    ast.Return,
    ast.Attribute,
    ast.Subscript,
    ast.Starred,
)
"""Parents of ``out`` the libcst analysis reads before asking whether it only takes part
in a test (a plain flow holds none of them)."""


@dataclass(frozen=True)
class PlainUse:
    """A call given ``out``, and what it does with it (``_outflow.OutUse``'s facts)."""

    call: ast.Call
    kind: UseKind
    callee: str | None
    via: str | None = None
    """The same-file helper ``out=`` went to (``OutUse.via``)."""

    def describe(self) -> str:
        """``OutUse.describe``: ```helper` -> `numpy.quantile``` or ```numpy.tan```."""
        return describe_use(self.callee, self.via)


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
    reads_data: bool = False
    """``FunctionOutFlow.reads_data`` (always false from :func:`plain_outflow`)."""
    escapes: bool = False
    """``FunctionOutFlow.escapes`` (always false from :func:`plain_outflow`)."""
    covering: frozenset[int] = frozenset()
    """ids of the nodes where ``out`` escapes and may be written (``return out``, the
    call of a method of ``out``): with the uses, ``FunctionOutFlow.writes``."""

    @property
    def native(self) -> list[PlainUse]:
        return [use for use in self.uses if use.kind is UseKind.NATIVE]

    @property
    def may_forward_natively(self) -> bool:
        """``FunctionOutFlow.may_forward_natively`` (no ``**kwargs`` is forwarded here)."""
        return self.escapes or any(use.kind >= UseKind.UNKNOWN for use in self.uses)

    @property
    def best_kind(self) -> UseKind | None:
        """``FunctionOutFlow.best_kind``: what a helper does with the ``out`` it is given."""
        kinds = [use.kind for use in self.uses]
        if self.escapes:
            return max((UseKind.UNKNOWN, *kinds))
        return max(kinds, default=None)

    @property
    def writes(self) -> frozenset[int]:
        """``FunctionOutFlow.writes``: ids of the nodes that write (or may write) ``out``,
        every use from ``inplace_update`` up and where ``out`` escapes."""
        used = frozenset(id(use.call) for use in self.uses if use.kind >= UseKind.INPLACE)
        return used | self.covering

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
    module_functions: Collection[str],
) -> PlainOutFlow | None:
    """The out-flow of ``function``'s ``out`` parameter when the function is plain (see the
    module), else ``None``. ``module_functions``: the file's top-level function names (a
    call of one is a helper the libcst analysis follows)."""
    analysis = _Analysis(imports, runtime_modules, module_functions, None)
    return analysis.flow(function)


def followed_outflow(
    function: FunctionNode,
    imports: AstImportMap,
    runtime_modules: Sequence[str],
    module_functions: Mapping[str, FunctionNode],
) -> PlainOutFlow | None:
    """The out-flow of ``function``'s ``out`` parameter where it reads ``out``, lets it
    escape or hands it to a same-file helper as well (see the module), else ``None``.
    ``module_functions``: the file's top-level functions by name (the last definition of
    a name, as the libcst analysis keeps them). The caller must read
    :attr:`PlainOutFlow.reads_data`, ``escapes`` and the uses' ``via``."""
    analysis = _Analysis(imports, runtime_modules, module_functions, module_functions)
    return analysis.flow(function)


class _Undecided(Exception):
    """A shape only the libcst analysis reads."""


class _Ignored:
    """An occurrence of ``out`` that only tests it (``out is None``, ``ivy.exists(out)``)
    or only reads it (``out.dtype``)."""


_IGNORED = _Ignored()


class _Analysis:
    """``_outflow.ModuleOutFlow`` on CPython's tree: one function's flow and those of the
    helpers it hands ``out`` to, each analysed once."""

    def __init__(
        self,
        imports: AstImportMap,
        runtime_modules: Sequence[str],
        names: Collection[str],
        helpers: Mapping[str, FunctionNode] | None,
    ) -> None:
        self.imports = imports
        self.runtime_modules = runtime_modules
        self.names = names
        self.helpers = helpers
        """``None``: plain only (nothing read, escaping or followed)."""
        self.memo: dict[tuple[int, str], PlainOutFlow] = {}
        self.running: set[tuple[int, str]] = set()

    def flow(self, function: FunctionNode) -> PlainOutFlow | None:
        try:
            return self.analyse(function, OUT)
        except _Undecided:
            return None

    def analyse(self, function: FunctionNode, root: str) -> PlainOutFlow:
        """The flow of parameter ``root``; a helper met again while its own flow is being
        decided (recursion, where libcst's memo order matters) is left to libcst."""
        key = (id(function), root)
        found = self.memo.get(key)
        if found is not None:
            return found
        if key in self.running:
            raise _Undecided
        self.running.add(key)
        try:
            found = self.memo[key] = _Walk(self, function, root).run()
        finally:
            self.running.discard(key)
        return found

    def helper(self, call: ast.Call) -> FunctionNode | None:
        """``ModuleOutFlow.helper_of``: the module-level function a plain-name call calls
        (not an import). Only followed by :func:`followed_outflow`."""
        func = call.func
        if not isinstance(func, ast.Name) or func.id not in self.names:
            return None
        if self.imports.lookup(func.id) is not None:
            return None
        if self.helpers is None:
            raise _Undecided  # a same-file helper: libcst follows `out` into it
        return self.helpers.get(func.id)

    def helper_kind(self, helper: FunctionNode, root: str | None) -> UseKind:
        """``ModuleOutFlow.helper_kind``: what the helper does with the value it is given
        as parameter ``root`` (``None``: no such parameter)."""
        if root is None:
            return UseKind.UNKNOWN
        kind = self.analyse(helper, root).best_kind
        return UseKind.DROPPED if kind is None else kind


class _Walk:
    """``_outflow._Analysis`` for one function and one parameter, on CPython's tree."""

    def __init__(self, analysis: _Analysis, function: FunctionNode, root: str) -> None:
        self.analysis = analysis
        self.followed = analysis.helpers is not None
        self.function = function
        self.root = root
        self.parents: dict[int, ast.AST] = {}
        self.reads = False
        self.escapes = False
        self.covering: set[int] = set()

    def run(self) -> PlainOutFlow:
        function, root = self.function, self.root
        kwarg = function.args.kwarg.arg if function.args.kwarg is not None else None
        parents = self.parents
        names: list[ast.Name] = []
        returns: list[ast.Return] = []
        method_of_call = False
        stack: list[tuple[ast.AST, bool]] = [(statement, False) for statement in function.body]
        for statement in function.body:
            parents[id(statement)] = function
        while stack:
            node, nested = stack.pop()
            if isinstance(node, ast.keyword) and node.arg is None:
                # f(**kw): a dictionary or the signature's **kwargs may carry `out`. A
                # followed flow builds no dictionary holding `out` (that is undecided), so
                # only the signature's own, outside nested scopes, is followed by libcst.
                if not self.followed:
                    raise _Undecided
                value = node.value
                if not nested and isinstance(value, ast.Name) and value.id == kwarg:
                    raise _Undecided
            if isinstance(node, ast.Return):
                method_of_call = method_of_call or returns_method_of_call(node)
                if not nested:
                    returns.append(node)
            elif isinstance(node, ast.Name):
                if node.id == root:
                    if nested:
                        raise _Undecided
                    names.append(node)
            elif _names_elsewhere(node, root):
                raise _Undecided
            inner = nested or isinstance(node, _SCOPES)
            for child in child_nodes(node):
                parents[id(child)] = node
                stack.append((child, inner))
        uses: list[PlainUse] = []
        for name in sorted(names, key=lambda n: (n.lineno, n.col_offset)):
            verdict = self.occurrence(name)
            if isinstance(verdict, PlainUse):
                uses.append(verdict)
        if len({id(use.call) for use in uses}) != len(uses):
            raise _Undecided  # a call given `out` twice (`inplace_update(out, out=out)`)
        returns.sort(key=lambda r: (r.lineno, r.col_offset))
        return PlainOutFlow(
            function,
            tuple(uses),
            tuple(returns),
            method_of_call,
            reads_data=self.reads or self.escapes,
            escapes=self.escapes,
            covering=frozenset(self.covering),
        )

    def occurrence(self, name: ast.Name) -> PlainUse | _Ignored:
        """What the libcst analysis makes of one ``out`` (``_outflow._Analysis.visit_Name``):
        a use, or nothing more than a test, a read or an escape; ``_Undecided`` where the
        libcst analysis would follow it further or this walk does not read the shape."""
        parent = self.parents[id(name)]
        if not isinstance(name.ctx, ast.Load):
            # A plain store (`out = ...`, `out += ...`, `for out in ...`) is not a use.
            if isinstance(parent, ast.Assign) and name in parent.targets:
                return _IGNORED
            if (
                isinstance(parent, ast.AnnAssign | ast.AugAssign | ast.For)
                and parent.target is name
            ):
                return _IGNORED
            raise _Undecided
        if isinstance(parent, ast.keyword):
            call = self.parents[id(parent)]
            if not isinstance(call, ast.Call) or parent.arg is None:
                raise _Undecided
            if parent.arg != OUT and not self.followed:
                raise _Undecided  # out's values read (an argument): libcst marks reads_data
            return self.argument(name, call, parent.arg)
        if isinstance(parent, ast.Call) and any(a is name for a in parent.args):
            return self.argument(name, parent, None)
        if not self.followed:
            if isinstance(parent, _NOT_TESTS):
                raise _Undecided
            if _in_test(name, self.parents):
                return _IGNORED
            raise _Undecided
        if isinstance(parent, ast.Attribute):
            self.reads = True  # out.dtype, out.shape: its values are data
            called = self.parents[id(parent)]
            if isinstance(called, ast.Call) and called.func is parent:
                self.escape(called)  # out.copy_(...), out.fill(...): writes not judged
            return _IGNORED
        if isinstance(parent, ast.Return):
            self.escape(name)
            return _IGNORED
        if not isinstance(parent, _OTHER_PARENTS):
            raise _Undecided  # an alias, a dictionary entry, a subscript, a callee...
        if not _in_test(name, self.parents):
            self.escape(name)
        return _IGNORED

    def escape(self, node: ast.AST) -> None:
        self.escapes = True
        self.covering.add(id(node))

    def argument(self, name: ast.Name, call: ast.Call, keyword: str | None) -> PlainUse | _Ignored:
        """``_Analysis._argument``: ``out`` given to ``call`` as ``keyword`` (``None``: by
        position)."""
        analysis = self.analysis
        if _last_name(call.func) in CHECK_CALLS and not is_inplace_update(call.func):
            return _IGNORED
        if keyword == OUT:
            if isinstance(call.func, ast.Name) and call.func.id == "dict":
                raise _Undecided  # a dictionary carrying `out`: libcst follows it
            return self.use(call)
        positional = [a for a in call.args if not isinstance(a, ast.Starred)]
        position = next((i for i, a in enumerate(positional) if a is name), -1)
        if is_inplace_update(call.func) and (keyword == "x" or position == 0):
            return PlainUse(call, UseKind.INPLACE, _last_name(call.func))
        if not self.followed:
            raise _Undecided  # out's values read (an argument): libcst marks reads_data
        self.reads = True
        helper = analysis.helper(call)
        if helper is not None:
            target = keyword if keyword is not None else _positional_param(helper, position)
            if target is not None and target not in positional_or_keyword(helper):
                target = None
            return PlainUse(call, analysis.helper_kind(helper, target), helper.name)
        return PlainUse(call, UseKind.UNKNOWN, analysis.imports.qualify(call.func))

    def use(self, call: ast.Call) -> PlainUse:
        """``_Analysis._use``: ``call`` is given ``out=``."""
        analysis = self.analysis
        helper = analysis.helper(call)
        if helper is not None:
            target = OUT if OUT in positional_or_keyword(helper) else None
            kind = analysis.helper_kind(helper, target)
            callee: str | None = helper.name
            if kind is UseKind.NATIVE and target is not None:
                inner = analysis.analyse(helper, target).native
                callee = inner[0].callee if inner else helper.name
            return PlainUse(call, kind, callee, helper.name)
        if is_inplace_update(call.func):
            return PlainUse(call, UseKind.INPLACE, _last_name(call.func))
        kind, callee = classify_callee(
            analysis.imports.qualify(call.func), analysis.runtime_modules
        )
        return PlainUse(call, kind, callee)


def _names_elsewhere(node: ast.AST, root: str) -> bool:
    """``root`` spelled where CPython's tree keeps a plain string but libcst a ``Name``
    its analysis would meet (a nested ``def root``, ``global root``, a match capture, the
    module of ``from root import x``, ``import root.x``): left to libcst."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == root
    if isinstance(node, ast.Global | ast.Nonlocal):
        return root in node.names
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name == root
    if isinstance(node, ast.MatchMapping):
        return node.rest == root
    if isinstance(node, ast.MatchClass):
        return root in node.kwd_attrs
    if isinstance(node, ast.ImportFrom):
        return root in (node.module or "").split(".")
    if isinstance(node, ast.alias):
        return root in node.name.split(".")[:-1]
    return type(node).__name__ in ("TypeVar", "ParamSpec", "TypeVarTuple") and (
        getattr(node, "name", None) == root
    )


def _positional_param(function: FunctionNode, position: int) -> str | None:
    """``_outflow._positional_param``: the parameter a positional argument binds."""
    positional = [*function.args.posonlyargs, *function.args.args]
    return positional[position].arg if 0 <= position < len(positional) else None


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


def returns_method_of_call(node: ast.Return) -> bool:
    """``return native(..., out=out).method(...)`` (``_outflow.method_of_native_result``)."""
    value = node.value
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Call)
        and any(k.arg == OUT for k in value.func.value.keywords)
    )


def first_method_of_call_return(function: FunctionNode) -> ast.Return | None:
    """The first ``return`` in source order, nested functions' included (libcst's
    ``nodes_of``), that hands back a method of a call given ``out=``."""
    found = [
        node
        for statement in function.body
        for node in ast.walk(statement)
        if isinstance(node, ast.Return) and returns_method_of_call(node)
    ]
    return min(found, key=lambda r: (r.lineno, r.col_offset), default=None)


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
