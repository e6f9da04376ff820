"""IVY010: a compositional function whose ``out`` handling is dead, or missing."""

from __future__ import annotations

import ast
import re

import libcst as cst

from ivycheck.checker.rule_api import Category, Example, FileUnderCheck, Rule, Severity, nodes_of
from ivycheck.rules import _ast_calls
from ivycheck.rules._api_functions import ApiFunction, api_functions
from ivycheck.rules._backends import backend_calls_in, body_uses_out
from ivycheck.rules._decorators import decorator_name
from ivycheck.rules._names import is_inplace_update

_API = "ivy/functional/ivy/layers.py"
_NUMPY = "ivy/functional/backends/numpy/layers.py"


def _is_stub(node: cst.FunctionDef) -> bool:
    """A body of only a docstring, ``pass``, ``...`` or ``raise``: a declaration, not code."""
    body = node.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else None
        if smalls is None:
            return False
        for small in smalls:
            if isinstance(small, cst.Pass | cst.Raise):
                continue
            if isinstance(small, cst.Expr) and isinstance(
                small.value, cst.Ellipsis | cst.SimpleString | cst.ConcatenatedString
            ):
                continue
            return False
    return True


def _every_return_writes_out(node: cst.FunctionDef) -> bool:
    """Whether each ``return`` of the body (not of a function inside it) hands back what
    was written into ``out``: a call given ``out=out``, ``inplace_update(out, ...)``, or
    ``out`` itself, or comes after the guard ``if ivy.exists(out): return
    ivy.inplace_update(out, ret)`` (then it runs with ``out=None``). Only then does the
    body write ``out`` on its own without the wrapper (``xc = ivy.copy_array(x, out=out)``
    ... ``return ret`` writes ``out`` with an intermediate and returns something else)."""
    nested = nodes_of(node.body, cst.FunctionDef)
    inner = {id(r) for f in nested for r in nodes_of(f.body, cst.Return)}
    seen = False
    for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        returns = [r for r in nodes_of(statement, cst.Return) if id(r) not in inner]
        if not all(_writes_out(r.value) for r in returns):
            return False
        seen = seen or bool(returns)
        if _is_out_guard(statement):
            return True  # every later return runs with ``out=None``
    return seen


def _is_out_guard(statement: cst.CSTNode) -> bool:
    """``if <a test of out>: ... return <writes out>`` with no ``else``."""
    if not isinstance(statement, cst.If) or statement.orelse is not None:
        return False
    mentions = any(n.value == "out" for n in nodes_of(statement.test, cst.Name))
    last = statement.body.body[-1] if isinstance(statement.body, cst.IndentedBlock) else None
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else ()
    return mentions and any(isinstance(s, cst.Return) and _writes_out(s.value) for s in smalls)


def _writes_out(value: cst.BaseExpression | None) -> bool:
    if isinstance(value, cst.Name):
        return value.value == "out"
    if not isinstance(value, cst.Call):
        return False
    if is_inplace_update(value.func):
        first = value.args[0].value if value.args else None
        return isinstance(first, cst.Name) and first.value == "out"
    return any(
        a.keyword is not None
        and a.keyword.value == "out"
        and isinstance(a.value, cst.Name)
        and a.value.value == "out"
        for a in value.args
    )


def _ast_is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef, source: str) -> bool:
    """:func:`_is_stub` on CPython's tree (a string or ``...`` there is a constant). A body
    on the line of the ``def`` (``def f(x): ...``) is no stub to libcst's check."""
    for statement in node.body:
        if isinstance(statement, ast.Pass | ast.Raise):
            continue
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Constant) and (
            value.value is Ellipsis or isinstance(value.value, str | bytes)
        ):
            continue
        return False
    first = node.body[0]
    line = _LINE_BREAK.split(source, first.lineno)[first.lineno - 1]
    return not line.encode("utf-8", "surrogatepass")[: first.col_offset].strip()


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What ends a line for CPython's tokenizer (positions in its tree count these only)."""


class CompositionalOut(Rule):
    """A compositional function handles ``out`` itself, so it must not be wrapped for it.

    Compositional functions are written once, in the functional API, in terms of other API
    functions, and have no backend implementation. They pass ``out`` on themselves
    (``return ivy.add(ivy.matmul(x, w), b, out=out)``). Wrapped with
    ``@handle_out_argument``, they never see it: when ``out`` is given the wrapper calls the
    function without it and then writes the result with ``inplace_update``, so the body's
    own ``out`` handling is dead code and the result is computed into a temporary and
    copied. The result is still right (the wrapper writes ``out``), so this is a dead-code
    warning. The advice follows the body: remove the decorator when every ``return`` hands
    back what was written into ``out`` (a call given ``out=out``, ``inplace_update(out,
    ...)``); otherwise removing it would break the function (``result = base **
    linspace(..., out=out); return result`` writes ``out`` with an intermediate), so the
    advice is to drop the body's ``out`` handling and keep the decorator.

    The converse is worse: a compositional function that takes ``out``, is not wrapped for
    it and never reads it drops ``out``: ``f(x, out=o)`` returns the result and leaves ``o``
    as it was. Pass ``out`` on to the last API call (or write it with
    ``ivy.inplace_update``).

    A function is compositional when it does not delegate to ``current_backend(...)``, no
    backend in the run defines it, and it is not mixed (``handle_partial_mixed_function``,
    ``mixed_backend_wrappers``). Private helpers and stubs (a body of only a docstring,
    ``...`` or ``raise``) are not checked.
    """

    CODE = "IVY010"
    LOCAL = True
    NAME = "compositional-out"
    MESSAGE = "Compositional function: handle `out` in the body, without `@handle_out_argument`"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
        ),
        Example(
            """
            @handle_out_argument
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def linear(x, weight, /, *, bias=None, out=None):
                    return ivy.add(ivy.matmul(x, weight), bias, out=out)
                """,
            },
        ),
        Example(
            """
            @handle_out_argument
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
        ),
        Example(
            """
            @handle_out_argument
            def sinc(x, /, *, out=None):
                return ivy.divide(ivy.sin(x), x)
            """,
            path=_API,
        ),
        Example(
            """
            def sinc(x, /, *, out=None):
                ret = ivy.divide(ivy.sin(x), x)
                if ivy.exists(out):
                    return ivy.inplace_update(out, ret)
                return ret
            """,
            path=_API,
        ),
        Example(
            """
            @handle_partial_mixed_function
            @handle_out_argument
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
            message="remove the decorator (every return writes `out` itself)",
        ),
        Example(
            """
            def _linear(x, w, *, out=None):
                return ivy.matmul(x, w)
            """,
            path=_API,
        ),
        Example(
            '''
            def lstsq(a, b, /, *, out=None):
                """Least squares (declared here, implemented per backend)."""
                raise NotImplementedError
            ''',
            path=_API,
        ),
        Example(
            """
            def linear(x, w, *, out=None):
                return ivy.matmul(x, w)
            """,
            path=_API,
            files={
                _NUMPY: """
                def linear(x, w, *, out=None):
                    return np.matmul(x, w, out=out)
                """,
            },
        ),
    )
    INVALID = (
        Example(
            """
            @handle_out_argument
            def geomspace(start, stop, num, /, *, base=10.0, out=None):
                result = base ** ivy.linspace(start, stop, num, out=out)
                if ivy.exists(out):
                    return ivy.inplace_update(out, result)
                return result
            """,
            path=_API,
            message="remove the decorator (every return writes `out` itself)",
        ),
        Example(
            """
            @handle_out_argument
            def geomspace(start, stop, num, /, *, base=10.0, out=None):
                exponents = ivy.linspace(start, stop, num, out=out)
                return base**exponents
            """,
            path=_API,
            message="drop that handling and keep the decorator",
            severity=Severity.WARNING,
            category=Category.DEAD_CODE,
        ),
        Example(
            """
            @handle_out_argument
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
        ),
        Example(
            """
            import ivy

            @ivy.handle_nestable
            @ivy.handle_out_argument
            @ivy.inputs_to_ivy_arrays
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
        ),
        Example(
            """
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)


            linear = handle_out_argument(linear)
            """,
            path=_API,
        ),
        Example(
            """
            def sinc(x, /, *, out=None):
                return ivy.divide(ivy.sin(x), x)
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x, /, *, out=None):
                    return np.sin(x, out=out)
                """,
            },
        ),
        Example(
            """
            @handle_exceptions
            @handle_nestable
            @inputs_to_ivy_arrays
            def softplus(x, /, *, beta=None, out: Optional[ivy.Array] = None):
                ret = ivy.log(ivy.add(ivy.exp(x), 1))
                return ret
            """,
            path=_API,
        ),
        Example(
            """
            @handle_out_argument
            def sinc(x, /, *, out=None):
                ret = ivy.divide(ivy.sin(x), x)
                if ivy.exists(out):
                    return ivy.inplace_update(out, ret)
                return ret
            """,
            path=_API,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree: a compositional API function with ``out``
        that is wrapped for it (whether the body uses ``out`` is not asked: libcst counts
        more names as uses), or unwrapped and never reading ``out``."""
        assigned = _ast_calls.wrapped_by_assignment(tree)
        index = file.index
        for function in _ast_calls.api_functions(tree):
            if _ast_calls.out_arg(function) is None or _ast_is_stub(function, file.source):
                continue
            wrappers = _ast_calls.function_wrappers(function, assigned)
            if "handle_partial_mixed_function" in wrappers:
                continue
            if _ast_calls.backend_calls_in(function):
                continue
            if "handle_out_argument" not in wrappers and _ast_calls.body_uses_out(function)[0]:
                continue
            # Other files last: a file with no candidate is decided before the index exists.
            attributes = _ast_calls.index_attributes(file, function.name)
            if {"mixed_backend_wrappers", "support_native_out"} & attributes.keys():
                continue
            if not index.implementations(function.name):
                return True
        return False

    def visit_Module(self, node: cst.Module) -> None:
        for function in api_functions(self.context):
            if function.out is None or _is_stub(function.node):
                continue
            wrappers = function.wrappers
            if "handle_partial_mixed_function" in wrappers or not self._compositional(function):
                continue
            used, _ = body_uses_out(function.node)
            wrapped = "handle_out_argument" in wrappers
            if wrapped and used:
                decorator = next(
                    (
                        d
                        for d in function.node.decorators
                        if decorator_name(d) == "handle_out_argument"
                    ),
                    function.node.name,
                )
                if _every_return_writes_out(function.node):
                    advice = "remove the decorator (every return writes `out` itself)"
                else:
                    advice = (
                        "drop that handling and keep the decorator (not every return writes "
                        "`out` itself, so without the decorator `out` would not hold the result)"
                    )
                self.report(
                    decorator,
                    f"`{function.name}` is compositional and handles `out` itself, but "
                    "@handle_out_argument calls it without `out`, so that handling is dead; "
                    f"{advice}",
                    category=Category.DEAD_CODE,
                    severity=Severity.WARNING,
                )
            elif not wrapped and not used:
                self.report(
                    function.out.name,
                    f"`{function.name}` is compositional and takes `out`, but never uses it, so "
                    "`out` is silently dropped; pass `out=out` to the last API call",
                )

    def _compositional(self, function: ApiFunction) -> bool:
        """No backend call in the body, no backend attribute, no backend implementation."""
        if backend_calls_in(function.node, self.context):
            return False
        if {"mixed_backend_wrappers", "support_native_out"} & function.attributes.keys():
            return False
        return not self.context.index.implementations(function.name)
