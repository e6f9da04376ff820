"""IVY007: a native array passed as ``out`` to a function of the runtime."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule, RuleContext, walk
from ivycheck.rules._ast_facts import AnyScopeImports, facts
from ivycheck.rules._names import ImportMap
from ivycheck.rules._native_out import native_library

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck

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


def _may_be_native(
    value: ast.expr,
    imports: AnyScopeImports,
    runtime: tuple[str, ...],
    assigned: dict[str, list[ast.expr]],
    part: str,
    seen: set[str],
) -> bool:
    """``NativeArrayAsOut._is_native`` over-approximated on ``ast`` (for ``may_find``)."""
    if isinstance(value, ast.Call):
        return any(
            native_library(q) is not None
            or (q.startswith(runtime) and q.rsplit(".", 1)[-1] in NATIVE_RETURNING)
            for q in imports.qualify(value.func)
        )
    if isinstance(value, ast.Attribute):
        return value.attr in NATIVE_ATTRIBUTES and part != "frontend"
    if isinstance(value, ast.Subscript):
        return _may_be_native(value.value, imports, runtime, assigned, part, seen)
    if isinstance(value, ast.Name) and value.id not in seen:
        seen = seen | {value.id}
        return any(
            _may_be_native(v, imports, runtime, assigned, part, seen)
            for v in assigned.get(value.id, ())
        )
    return False


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
        """Whether a call that may be a runtime function's is given an ``out=`` that may be
        native: the check below with every name read in any scope the file imports it in,
        and a name native when any assignment to it anywhere in the file may be."""
        found = facts(tree)
        imports = found.any_scope_imports
        runtime = tuple(m + "." for m in file.config.runtime_modules)
        for call, out, _ in found.keyword_calls("out"):
            if not any(q.startswith(runtime) for q in imports.qualify(call.func)):
                continue
            assigned = found.assigned_values
            if _may_be_native(out.value, imports, runtime, assigned, file.part, set()):
                return True
        return False

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
            shown = self.context.code_for(out.value)
            self.report(
                out,
                f"`{called}` is given the native array `{shown}` as `out`, which raises; "
                "pass an `ivy.Array` (the Array itself, not its `.data`)",
            )

    def _is_runtime(self, qualified: str) -> bool:
        return any(
            qualified.startswith(module + ".") for module in self.context.config.runtime_modules
        )

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
