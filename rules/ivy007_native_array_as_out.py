"""IVY007: a native array passed as ``out`` to a function of the runtime."""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator, Sequence

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules._ast_calls import FUNCTIONS, qualified_out_calls
from ivycheck.rules._ast_facts import FunctionNode, Scope, facts
from ivycheck.rules._ast_layout import keyword_value_code
from ivycheck.rules._ast_out_keyword import keyword_span
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._native_out import native_library
from ivycheck.rules._quote import quoted

NATIVE_RETURNING = frozenset({"native_array", "to_native", "to_numpy"})
"""Runtime functions whose result is a native array, not an ``ivy.Array``."""

NATIVE_ATTRIBUTES = frozenset({"data", "_data"})
"""``x.data`` / ``x._data``: the native array an ``ivy.Array`` wraps."""


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
        Example(
            """
            import ivy
            import numpy as np
            from mylib import add

            add(x, out=np.zeros(3))
            ivy.add(x, x, out=np.data)
            ivy.add(x, x, out=None)

            buf, _ = np.zeros(3), 1
            ivy.add(x, x, out=buf)

            for each in bufs:
                ivy.add(x, x, out=each)

            ann = np.zeros(3)
            ann: T
            ivy.add(x, x, out=ann)

            ctx = np.zeros(3)
            with g() as ctx:
                ivy.add(x, x, out=ctx)

            exc = np.zeros(3)
            try:
                pass
            except E as exc:
                ivy.add(x, x, out=exc)

            same = same
            ivy.add(x, x, out=same)
            """,
            path="project/model.py",
        ),
        Example(
            """
            import ivy
            import numpy as np

            buf = np.zeros(3)


            def f(x, np):
                return ivy.add(x, x, out=np.zeros(3))


            def g(x):
                import mylib as ivy

                return ivy.add(x, x, out=np.zeros(3))


            def h(x):
                global buf
                return ivy.add(x, x, out=buf)


            class A:
                array = np.zeros(3)

                def m(self, x):
                    return ivy.add(x, x, out=array)
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
            message=(
                "`ivy.add` is given the native array `np.zeros(3)` as `out`, which raises; "
                "pass an `ivy.Array` (the Array itself, not its `.data`)"
            ),
            line=4,
            column=15,
        ),
        Example(
            """
            import ivy
            import torch

            def f(x):
                return ivy.tan(x, out=torch.empty(3))
            """,
            path="project/model.py",
            message="`ivy.tan` is given the native array `torch.empty(3)`",
            line=5,
            column=23,
        ),
        Example(
            """
            from ivy import add

            def f(x):
                return add(x, x, out=x.data)
            """,
            path="project/model.py",
            message="`ivy.add` is given the native array `x.data`",
            line=4,
            column=22,
        ),
        Example(
            """
            import ivycheck.runtime as ivy

            def f(x, y):
                return ivy.add(x, y, out=y._data)
            """,
            path="project/model.py",
            message="`ivycheck.runtime.add` is given the native array `y._data`",
            line=4,
            column=26,
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
            message="`ivy.sin` is given the native array `buf`",
            line=6,
            column=23,
        ),
        Example(
            """
            import ivy
            from tensorflow import zeros as tzeros

            buf = tzeros(3)
            ivy.cos(x, out=buf)
            """,
            path="project/script.py",
            line=5,
            column=12,
        ),
        Example(
            """
            import ivy

            def f(x):
                return ivy.abs(x, out=ivy.native_array([1.0]))
            """,
            path="project/model.py",
            message="`ivy.abs` is given the native array `ivy.native_array([1.0])`",
            line=4,
            column=23,
        ),
        Example(
            """
            import ivy
            import numpy as np


            def f(x):
                return ivy.add(x, "é€", x, out=(
                    np.zeros(  # ü
                        3)
                ))
            """,
            path="project/model.py",
            message="`ivy.add` is given the native array `( np.zeros(  # ü 3) )` as `out`",
            line=6,
            column=32,
        ),
        Example(
            """
            import ivy
            import numpy as np
            ivy.add(x, x, out=np.zeros(
                3,
            ))
            """,
            path="project/model.py",
            message="`ivy.add` is given the native array `np.zeros( 3, )` as `out`",
            line=3,
            column=15,
        ),
        Example(
            """
            import ivy
            import numpy as np


            def f(x):
                return ivy.add(x, x, out=np.array(
                    \"\"\"a
                b\"\"\"))
            """,
            path="project/model.py",
            message='`ivy.add` is given the native array `np.array( """a b""")` as `out`',
            line=6,
            column=26,
        ),
        Example(
            """
            import ivy
            import numpy as np


            def f(x):
                # out= spaced and continued
                return ivy.add(x, x, out = \\
                    np.zeros(3) )
            """,
            path="project/model.py",
            message="`ivy.add` is given the native array `np.zeros(3)` as `out`",
            line=7,
            column=26,
        ),
        Example(
            """
            import ivy
            import jax.numpy as jnp


            def f(x):
                buf = jnp.zeros(3)

                def g():
                    return ivy.sin(x, out=buf)

                return g
            """,
            path="project/model.py",
            line=9,
            column=27,
        ),
        Example(
            """
            import ivy
            import numpy as np

            if (buf := np.zeros(3)) is not None:
                ivy.add(x, x, out=buf)
            """,
            path="project/model.py",
            line=5,
            column=19,
        ),
        Example(
            """
            import ivy
            import numpy as np

            buf: T = np.zeros(3)
            match v:
                case buf:
                    ivy.add(x, x, out=buf)
            """,
            path="project/model.py",
            line=7,
            column=23,
        ),
        Example(
            """
            import ivycheck.runtime as rt

            f = lambda x: rt.abs(x, out=rt.to_numpy(x)[0])
            """,
            path="project/model.py",
            message="`ivycheck.runtime.abs` is given the native array `rt.to_numpy(x)[0]`",
            line=3,
            column=25,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Reported at the ``out=`` keyword (from ``out`` to the value's end, parentheses
        of the value included); the message shows the value's text as written, from its
        first token (its own parentheses included), a value over several lines joined on
        one line (:func:`quoted`)."""
        lines: Lines | None = None
        for out, called in _native_outs(tree, file):
            lines = lines or Lines(file.source)
            shown = keyword_value_code(lines, out)
            if shown is None:  # never for a named keyword of a parsed file's tree
                shown = ast.unparse(out.value)
            yield Finding(*keyword_span(lines, out), _message(called, shown))


def _message(called: str, shown: str) -> str:
    """The finding for a call of the runtime's ``called`` given ``out=<shown>``."""
    return (
        f"`{called}` is given the native array `{quoted(shown)}` as `out`, which raises; "
        "pass an `ivy.Array` (the Array itself, not its `.data`)"
    )


def _is_runtime(qualified: str, runtime_modules: Sequence[str]) -> bool:
    """Whether ``qualified`` names a function of the runtime (config ``runtime_modules``)."""
    return qualified.startswith(_prefixes(tuple(runtime_modules)))


@functools.cache
def _prefixes(runtime_modules: tuple[str, ...]) -> tuple[str, ...]:
    """``module.`` for each runtime module: one ``str.startswith`` asks them all (the rule
    asks it of every call given ``out=``, thousands in a backend file)."""
    return tuple(f"{module}." for module in runtime_modules)


Binding = ast.expr | None
"""What a name is bound to in a scope; ``None`` for a binding that cannot be read (a
parameter, a loop target, an augmented assignment...), which makes the name not provably
native."""


def _scope(
    body: Sequence[ast.AST], function: FunctionNode | None, walrus: bool
) -> dict[str, list[Binding]]:
    """The bindings of one scope's body (the module, or a function's statements with its
    parameters), not entering nested functions, classes or lambdas (their names are bound,
    unreadably).

    ``=``, ``: T =`` (without a value: unreadable) and ``:=`` bind their value to a plain
    name target; an augmented assignment, a ``for`` target (not a comprehension's, whose
    variable is its own scope), an ``as`` name (import, ``with``, ``except``) and
    ``global``/``nonlocal`` bind unreadably; names in a tuple or list target (starred ones
    too) are unreadable. A ``match`` capture is not read as a binding (the rule's
    findings as reviewed on the corpora). ``walrus``: whether the file may hold a ``:=``,
    the one binding inside an expression; without one, expressions are not entered.
    """
    bindings: dict[str, list[Binding]] = {}
    children = ast.iter_child_nodes if walrus else _binding_children

    def bind(target: ast.expr, value: Binding) -> None:
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
        todo.extend(children(node))
    if function is not None:
        args = function.args
        for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
            if arg is not None:
                bindings.setdefault(arg.arg, []).append(None)
    return bindings


def _binding_children(node: ast.AST) -> list[ast.AST]:
    """The children of ``node`` that may bind a name when no expression does (no ``:=``):
    the statements of its blocks, its ``except`` clauses and ``case`` blocks, its ``with``
    items and its imports' names."""
    found: list[ast.AST] = []
    for field in ("body", "handlers", "orelse", "finalbody", "cases", "items", "names"):
        value = getattr(node, field, None)
        if isinstance(value, list):
            found.extend(item for item in value if isinstance(item, ast.AST))
    return found


class _Scopes:
    """The bindings of the module and of each function, collected on first lookup (most
    functions pass no name as ``out``, and walking every body up front was a fifth of the
    rule's time on an Ivy-style tree), and the lookup of a name: the innermost enclosing
    function (or the module) that binds it; classes and lambdas are no scopes here."""

    def __init__(self, tree: ast.Module, walrus: bool) -> None:
        self._module = tree.body
        self._walrus = walrus
        self._scopes: dict[int, dict[str, list[Binding]]] = {}

    def _bindings(self, function: FunctionNode | None) -> dict[str, list[Binding]]:
        key = id(function)
        found = self._scopes.get(key)
        if found is None:
            body = self._module if function is None else function.body
            found = self._scopes[key] = _scope(body, function, self._walrus)
        return found

    def lookup(self, name: str, enclosing: Scope) -> list[Binding]:
        for function in (*reversed(enclosing), None):
            bindings = self._bindings(function)
            if name in bindings:
                return bindings[name]
        return []


def _is_native(
    value: ast.expr,
    qualify: Callable[[ast.expr], str | None],
    lookup: Callable[[str], list[Binding]],
    file: FileUnderCheck,
    seen: frozenset[str],
) -> bool:
    """Whether ``value`` is surely a native array: a call of a native library or of a
    runtime function returning one, ``.data``/``._data`` outside frontends (where it is the
    frontend's own tensor), a subscript of one, or a name every binding of which is one.
    Names are qualified in the call's scope (also in a value a name is bound to
    elsewhere)."""
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
        return _is_native(value.value, qualify, lookup, file, seen)
    if isinstance(value, ast.Name) and value.id not in seen:
        bindings = lookup(value.id)
        seen = seen | {value.id}
        return bool(bindings) and all(
            b is not None and _is_native(b, qualify, lookup, file, seen) for b in bindings
        )
    return False  # a constant, a parameter...


def _native_outs(tree: ast.Module, file: FileUnderCheck) -> Iterator[tuple[ast.keyword, str]]:
    """Each call's first ``out=`` keyword that is a native array given to a runtime
    function, with the function's qualified name: names resolved through the imports of
    the call's scope, bindings looked up from the innermost enclosing function out."""
    found = facts(tree)
    imports = found.import_map
    runtime = file.config.runtime_modules
    scopes: _Scopes | None = None
    for _, out, enclosing, called in qualified_out_calls(tree):
        if called is None or not _is_runtime(called, runtime):
            continue
        scopes = scopes or _Scopes(tree, ":=" in file.source)

        def qualify(expression: ast.expr, scope: Scope = enclosing) -> str | None:
            return imports.qualify(expression, scope)

        def lookup(name: str, scope: Scope = enclosing, known: _Scopes = scopes) -> list[Binding]:
            return known.lookup(name, scope)

        if _is_native(out.value, qualify, lookup, file, frozenset()):
            yield out, called
