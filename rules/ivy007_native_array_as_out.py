"""IVY007: a native array passed as ``out`` to a function of the runtime."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FileUnderCheck, Rule, RuleContext, walk
from ivycheck.rules._ast_calls import FUNCTIONS, first_keyword_calls
from ivycheck.rules._ast_facts import FunctionNode, Scope, facts
from ivycheck.rules._ast_layout import keyword_value_code
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._names import ImportMap
from ivycheck.rules._native_out import native_library
from ivycheck.rules._quote import quoted

NATIVE_RETURNING = frozenset({"native_array", "to_native", "to_numpy"})
"""Runtime functions whose result is a native array, not an ``ivy.Array``."""

NATIVE_ATTRIBUTES = frozenset({"data", "_data"})
"""``x.data`` / ``x._data``: the native array an ``ivy.Array`` wraps."""

Binding = cst.BaseExpression | None
"""What a name is bound to in a scope; ``None`` for a binding we cannot read (a parameter,
a loop target, an augmented assignment...), which makes the name not provably native."""


class _Bindings(cst.CSTVisitor):
    """The bindings of one scope, not descending into nested functions or classes."""

    def __init__(self) -> None:
        super().__init__()
        self.bindings: dict[str, list[Binding]] = {}

    def _bind(self, target: cst.BaseExpression, value: Binding) -> None:
        if isinstance(target, cst.Name):
            self.bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                self._bind(element.value, None)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.bindings.setdefault(node.name.value, []).append(None)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.bindings.setdefault(node.name.value, []).append(None)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.BaseExpression):
            self._bind(node.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self.bindings.setdefault(item.name.value, []).append(None)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self.bindings.setdefault(item.name.value, []).append(None)


def _scope_of(body: cst.CSTNode, params: cst.Parameters | None) -> dict[str, list[Binding]]:
    collector = _Bindings()
    walk(body, collector)
    if params is not None:
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            collector.bindings.setdefault(param.name.value, []).append(None)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                collector.bindings.setdefault(star.name.value, []).append(None)
    return collector.bindings


class _LazyScope:
    """A scope whose bindings are collected on the first lookup: most functions pass no
    name as ``out``, and walking every function body up front was a fifth of the rule
    phase on an Ivy-style tree."""

    def __init__(self, body: cst.CSTNode, params: cst.Parameters | None) -> None:
        self._body = body
        self._params = params
        self._bindings: dict[str, list[Binding]] | None = None

    def bindings(self) -> dict[str, list[Binding]]:
        if self._bindings is None:
            self._bindings = _scope_of(self._body, self._params)
        return self._bindings


class NativeArrayAsOut(Rule):
    """``out`` of a runtime function must be an ``ivy.Array``, never a native array.

    ``ivy.add(x, y, out=np.zeros(3))`` raises: the wrapper writes the result with
    ``inplace_update``, which updates the data an ``ivy.Array`` holds. A bare NumPy array,
    ``torch.Tensor``, ``jax.Array`` or ``tf.Tensor`` has no such handle (JAX and TensorFlow
    arrays cannot be written at all), and copying into it silently, as Ivy once did on some
    paths, hides the cost and breaks on the backends that cannot copy in place. The same
    holds for the native array inside an Array: ``out=x.data`` and ``out=x._data`` (except
    in frontends, where ``.data`` is the frontend's own tensor type).

    Pass an ``ivy.Array`` (``out=ivy.zeros(3)``, or ``out=x`` instead of ``out=x.data``).
    Runtime functions are those imported from the configured ``runtime-modules`` (default
    ``ivy`` and ``ivycheck.runtime``), resolved by import, not by text. A local name counts
    as native only when every assignment to it in the scope is a native array. This rule is
    syntactic; the mypy plugin catches the typed cases it cannot see.
    """

    CODE = "IVY007"
    LOCAL = True
    NAME = "native-array-as-out"
    MESSAGE = "A native array is passed as `out` to a runtime function; pass an `ivy.Array`"
    TRIGGERS = ("out=",)
    VALID = (
        Example(
            """
            import ivy

            ivy.add(x, y, out=ivy.zeros(3))
            """,
            path="project/script.py",
        ),
        Example(
            """
            import ivy

            def f(x, y, *, out=None):
                return ivy.add(x, y, out=out)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import numpy as np

            def f(x, y, *, out=None):
                return np.add(x, y, out=out)
            """,
            path="ivy/functional/backends/numpy/elementwise.py",
        ),
        Example(
            """
            import ivy
            import numpy as np

            def f(x):
                buf = np.zeros(3)
                buf = ivy.array(buf)
                return ivy.add(x, x, out=buf)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import numpy as np
            from mylib import add

            add(x, y, out=np.zeros(3))
            """,
            path="project/script.py",
        ),
        Example(
            """
            import ivy
            import torch

            def f(x, buf):
                return ivy.add(x, x, out=buf)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import ivy

            class Tensor:
                def add_(self, other):
                    ivy.add(self.ivy_array, other, out=self.data)
            """,
            path="ivy/functional/frontends/torch/tensor.py",
        ),
        Example(
            """
            import ivy
            import numpy as np

            buf = np.zeros(3)

            def f(x):
                buf = ivy.zeros(3)
                return ivy.add(x, x, out=buf)
            """,
            path="project/model.py",
        ),
    )
    INVALID = (
        Example(
            """
            import ivy
            import numpy as np

            ivy.add(x, y, out=np.zeros(3))
            """,
        ),
        Example(
            """
            import ivy
            import torch

            def f(x):
                return ivy.tan(x, out=torch.empty(3))
            """,
            path="project/model.py",
        ),
        Example(
            """
            from ivy import add

            def f(x):
                return add(x, x, out=x.data)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import ivycheck.runtime as ivy

            def f(x, y):
                return ivy.add(x, y, out=y._data)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import ivy
            import jax.numpy as jnp

            def f(x):
                buf = jnp.zeros(3)
                return ivy.sin(x, out=buf)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import ivy
            from tensorflow import zeros as tzeros

            buf = tzeros(3)
            ivy.cos(x, out=buf)
            """,
            path="project/script.py",
        ),
        Example(
            """
            import ivy

            def f(x):
                return ivy.abs(x, out=ivy.native_array([1.0]))
            """,
            path="project/model.py",
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, exactly: a call of a runtime function given
        an ``out=`` that is native."""
        return next(_ast_native_outs(tree, file), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: the finding spans the ``out=`` keyword, which
        CPython's ``keyword`` spans as libcst's ``Arg`` (from ``out`` to the value's end,
        parentheses of the value included), and shows the value as libcst's ``code_for``
        does (from its first token, its own parentheses included, to the keyword's end),
        read from the text; in code points. ``None`` for a value over several lines:
        ``code_for`` renders it without the indentation of the block around it (on lines
        that start with it, but not inside a string), which the text does not tell
        without tokenizing it."""
        found = list(_ast_native_outs(tree, file))
        if not found:
            return []
        lines = Lines(file.source)
        findings: list[AstFinding] = []
        for out, called in found:
            span = node_span(lines, out)
            shown = keyword_value_code(lines, out)
            if span is None or shown is None:
                return None  # (a parsed tree always has them)
            if "\n" in shown or "\r" in shown:
                return None
            findings.append(AstFinding(*span, _message(called, shown)))
        return findings

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._scopes: list[_LazyScope] = []

    def visit_Module(self, node: cst.Module) -> None:
        self._scopes.append(_LazyScope(node, None))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scopes.append(_LazyScope(node.body, node.params))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._scopes.pop()

    def visit_Call(self, node: cst.Call) -> None:
        out = next(
            (arg for arg in node.args if arg.keyword is not None and arg.keyword.value == "out"),
            None,
        )
        if out is None:
            return
        imports = self.context.memo(ImportMap.of)
        called = imports.qualify(node.func)
        if called is None or not self._is_runtime(called):
            return
        if self._is_native(out.value, imports, set()):
            self.report(out, _message(called, self.context.code_for(out.value)))

    def _is_runtime(self, qualified: str) -> bool:
        return _is_runtime(qualified, self.context.config.runtime_modules)

    def _is_native(self, value: cst.BaseExpression, imports: ImportMap, seen: set[str]) -> bool:
        if isinstance(value, cst.Call):
            called = imports.qualify(value.func)
            if called is None:
                return False
            if native_library(called) is not None:
                return True
            return self._is_runtime(called) and called.rsplit(".", 1)[-1] in NATIVE_RETURNING
        if isinstance(value, cst.Attribute):
            # in frontends ``.data`` is the frontend's own tensor (torch's ``Tensor.data``)
            return (
                value.attr.value in NATIVE_ATTRIBUTES
                and self.context.part != "frontend"
                and imports.qualify(value) is None
            )
        if isinstance(value, cst.Subscript):
            return self._is_native(value.value, imports, seen)
        if isinstance(value, cst.Name) and value.value not in seen:
            bindings = self._lookup(value.value)
            seen = seen | {value.value}
            return bool(bindings) and all(
                b is not None and self._is_native(b, imports, seen) for b in bindings
            )
        return False

    def _lookup(self, name: str) -> list[Binding]:
        for scope in reversed(self._scopes):
            bindings = scope.bindings()
            if name in bindings:
                return bindings[name]
        return []


def _message(called: str, shown: str) -> str:
    """The finding for a call of the runtime's ``called`` given ``out=<shown>``."""
    return (
        f"`{called}` is given the native array `{quoted(shown)}` as `out`, which raises; "
        "pass an `ivy.Array` (the Array itself, not its `.data`)"
    )


def _is_runtime(qualified: str, runtime_modules: Sequence[str]) -> bool:
    """Whether ``qualified`` names a function of the runtime (config ``runtime_modules``)."""
    return any(qualified.startswith(module + ".") for module in runtime_modules)


# The same on CPython's tree (``may_find``, ``find_on_ast``) -----------------------------

AstBinding = ast.expr | None
""":data:`Binding` on CPython's tree."""


def _ast_scope(
    body: Sequence[ast.AST], function: FunctionNode | None
) -> dict[str, list[AstBinding]]:
    """:func:`_scope_of` on CPython's tree: the bindings ``_Bindings`` collects from a
    scope's body (the module, or a function's statements with its parameters), not
    entering nested functions, classes or lambdas (their names are bound, unreadable).

    libcst's walk binds what its ``visit_*`` methods see, and so does this one: ``=``,
    ``: T =`` (without a value: unreadable) and ``:=`` bind their value to a plain name
    target; an augmented assignment, a ``for`` target (not a comprehension's), an ``as``
    name (import, ``with``, ``except``) and ``global``/``nonlocal`` bind unreadably; names
    in a tuple or list target (starred ones too) are unreadable; ``match`` captures bind
    nothing (libcst's ``MatchAs`` is not an ``AsName``)."""
    bindings: dict[str, list[AstBinding]] = {}

    def bind(target: ast.expr, value: AstBinding) -> None:
        if isinstance(target, ast.Name):
            bindings.setdefault(target.id, []).append(value)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element, None)
        elif isinstance(target, ast.Starred):
            bind(target.value, None)

    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (*FUNCTIONS, ast.ClassDef)):
            bindings.setdefault(node.name, []).append(None)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bind(target, node.value)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr):
            bind(node.target, node.value)
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor):
            bind(node.target, None)
        elif isinstance(node, ast.withitem):
            if node.optional_vars is not None:
                bind(node.optional_vars, None)
        elif isinstance(node, ast.alias | ast.ExceptHandler):
            name = node.asname if isinstance(node, ast.alias) else node.name
            if name is not None:
                bindings.setdefault(name, []).append(None)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                bindings.setdefault(name, []).append(None)
        todo.extend(ast.iter_child_nodes(node))
    if function is not None:
        args = function.args
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None:
                bindings.setdefault(arg.arg, []).append(None)
    return bindings


class _AstScopes:
    """The bindings of the module and of each function, collected on first lookup (as
    :class:`_LazyScope`), and the lookup of :meth:`NativeArrayAsOut._lookup`: the innermost
    enclosing function (or the module) that binds the name; classes and lambdas are no
    scopes there."""

    def __init__(self, tree: ast.Module) -> None:
        self._module = tree.body
        self._scopes: dict[int, dict[str, list[AstBinding]]] = {}

    def _bindings(self, function: FunctionNode | None) -> dict[str, list[AstBinding]]:
        key = id(function)
        found = self._scopes.get(key)
        if found is None:
            body = self._module if function is None else function.body
            found = self._scopes[key] = _ast_scope(body, function)
        return found

    def lookup(self, name: str, enclosing: Scope) -> list[AstBinding]:
        for function in (*reversed(enclosing), None):
            bindings = self._bindings(function)
            if name in bindings:
                return bindings[name]
        return []


def _ast_is_native(
    value: ast.expr,
    qualify: Callable[[ast.expr], str | None],
    lookup: Callable[[str], list[AstBinding]],
    file: FileUnderCheck,
    seen: frozenset[str],
) -> bool:
    """:meth:`NativeArrayAsOut._is_native` on CPython's tree: names qualified in the
    call's scope (also in a value a name is bound to elsewhere, as libcst's check does)."""
    if isinstance(value, ast.Call):
        called = qualify(value.func)
        if called is None:
            return False
        if native_library(called) is not None:
            return True
        runtime = _is_runtime(called, file.config.runtime_modules)
        return runtime and called.rsplit(".", 1)[-1] in NATIVE_RETURNING
    if isinstance(value, ast.Attribute):
        return (
            value.attr in NATIVE_ATTRIBUTES and file.part != "frontend" and qualify(value) is None
        )
    if isinstance(value, ast.Subscript):
        return _ast_is_native(value.value, qualify, lookup, file, seen)
    if isinstance(value, ast.Name) and value.id not in seen:
        bindings = lookup(value.id)
        seen = seen | {value.id}
        return bool(bindings) and all(
            b is not None and _ast_is_native(b, qualify, lookup, file, seen) for b in bindings
        )
    return False  # ``None``, ``True``, ``False``: names on libcst's tree, never bound


def _ast_native_outs(tree: ast.Module, file: FileUnderCheck) -> Iterator[tuple[ast.keyword, str]]:
    """Each call's first ``out=`` keyword that ``NativeArrayAsOut.visit_Call`` reports,
    with the called runtime function's qualified name: names resolved through the imports
    of the call's scope (``_names.ImportMap`` as the engine scopes it), bindings looked up
    from the innermost enclosing function out."""
    found = facts(tree)
    imports = found.import_map
    runtime = file.config.runtime_modules
    scopes: _AstScopes | None = None
    for call, out, enclosing in first_keyword_calls(tree, "out"):
        called = imports.qualify(call.func, enclosing)
        if called is None or not _is_runtime(called, runtime):
            continue
        scopes = scopes or _AstScopes(tree)

        def qualify(expression: ast.expr, scope: Scope = enclosing) -> str | None:
            return imports.qualify(expression, scope)

        def lookup(
            name: str, scope: Scope = enclosing, known: _AstScopes = scopes
        ) -> list[AstBinding]:
            return known.lookup(name, scope)

        if _ast_is_native(out.value, qualify, lookup, file, frozenset()):
            yield out, called
