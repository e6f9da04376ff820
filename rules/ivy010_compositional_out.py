"""IVY010: a compositional function whose ``out`` handling is dead, or missing."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Category,
    Example,
    FileUnderCheck,
    Finding,
    Rule,
    Severity,
)
from ivycheck.rules import _ast_calls
from ivycheck.rules._ast_compositional import OUT, arg_span, name_span, reads_out_of
from ivycheck.rules._ast_facts import FunctionNode, wrapper_name
from ivycheck.rules._ast_logical_lines import continued, indented
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._ast_spans import decorator_span, string_literals

_API = "ivy/functional/ivy/layers.py"
_NUMPY = "ivy/functional/backends/numpy/layers.py"
_EVERY_RETURN_WRITES = "removing the decorator instead leaves writing `out` to the body's own calls"
"""The advice's reason where every return writes ``out`` itself."""


class CompositionalOut(Rule):
    """A compositional function handles ``out`` itself, so it must not be wrapped for it.

    Compositional functions are written once, in the functional API, in terms of other API
    functions, and have no backend implementation. They pass ``out`` on themselves
    (``return ivy.add(ivy.matmul(x, w), b, out=out)``). Wrapped with
    ``@handle_out_argument``, they never see it: when ``out`` is given the wrapper calls the
    function without it and then writes the result with ``inplace_update``, so the body's
    own ``out`` handling is dead code and the result is computed into a temporary and
    copied. The result is still right (the wrapper writes ``out``), so this is a dead-code
    warning. The advice is to drop the body's ``out`` handling and keep the decorator: the
    handling is dead, so dropping it changes no result. Removing the decorator instead is
    not advised, even where every ``return`` hands back what was written into ``out`` (a
    call given ``out=out``): the body's calls then write ``out`` their own way, which need
    not keep its dtype as the decorator's update does (2022 Ivy's ``logspace``: a float64
    ``out`` became float32 on NumPy without the decorator). Where not every return writes
    ``out``, removing it would break the function outright (``result = base **
    linspace(..., out=out); return result`` writes ``out`` with an intermediate).

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
            message=_EVERY_RETURN_WRITES,
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
        Example(
            """
            def scale(x, factor, /, *, out=None):
                return ivy.multiply(x, factor)
            """,
            path="ivy/functional/experimental/creation.py",
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
            message=_EVERY_RETURN_WRITES,
            line=1,
            column=1,
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
            line=1,
            column=1,
        ),
        Example(
            """
            @handle_out_argument
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
            line=1,
            column=1,
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
            line=4,
            column=1,
        ),
        Example(
            """
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)


            linear = handle_out_argument(linear)
            """,
            path=_API,
            line=1,
            column=5,
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
            line=1,
            column=19,
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
            line=4,
            column=34,
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
            line=1,
            column=1,
        ),
        Example(
            """
            @to_native_arrays_and_back
            @handle_out_argument
            def hann_window(size, /, *, out=None):
                return current_backend().hann_window(size, out=out)


            def scale(x, factor, /, *, out=None):
                return ivy.multiply(x, factor)
            """,
            path="ivy/functional/experimental/creation.py",
            message="`scale` is compositional and takes `out`, but never uses it",
            line=7,
            column=28,
        ),
        Example(
            """
            @(
                handle_out_argument  # the decorator in parentheses of its own
            )
            def linear(x, weight, /, *, bias=None, out=None):
                return ivy.add(ivy.matmul(x, weight), bias, out=out)
            """,
            path=_API,
            message=_EVERY_RETURN_WRITES,
            line=1,
            column=1,
        ),
        Example(
            r"""
            def \
                scale(x, factor, /, *, out=None):
                scaled = ivy.multiply(x, factor, out=out)
                return scaled


            scale = handle_out_argument(scale)
            """,
            path=_API,
            line=2,
            column=5,
        ),
        Example(
            r"""
            def lstsq(a, b, /, *, out=None): \
                ...
            """,
            path=_API,
            message="`lstsq` is compositional and takes `out`, but never uses it",
            line=1,
            column=23,
        ),
        Example(
            r"""
            @handle_out_argument
            def sinc(x, /, *, out=None): \
                return ivy.divide(ivy.sin(x), x, out=out)
            """,
            path=_API,
            message="not every return writes `out` itself",
            line=1,
            column=1,
        ),
        Example(
            r"""
            @handle_out_argument
            def sinc(x, /, *, out=None):
                ret = ivy.divide(ivy.sin(x), x)
                if ivy.exists(out):
                    ret = ivy.astype(ret, out.dtype); \
                    return ivy.inplace_update(out, ret)
                return ret
            """,
            path=_API,
            message=_EVERY_RETURN_WRITES,
            line=1,
            column=1,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """At the ``@handle_out_argument`` decorator (from its ``@`` to its expression's
        end, the expression's own parentheses included) or, wrapped by assignment only, at
        the function's name; at ``out``'s name for a dropped ``out``."""
        lines = _LazyLines(file.source)
        for function, out, wrapped in _candidates(tree, file, lines):
            if not wrapped:
                yield Finding(*arg_span(lines(), out), _dropped(function.name))
                continue
            decorator = next(
                (d for d in function.decorator_list if wrapper_name(d) == _WRAPPER), None
            )
            span = (
                name_span(lines(), function)
                if decorator is None
                else decorator_span(lines(), decorator)
            )
            yield Finding(
                *span,
                _dead(function.name, every=_every_return_writes_out(function, lines(), tree)),
                severity=Severity.WARNING,
                category=Category.DEAD_CODE,
            )


_WRAPPER = "handle_out_argument"


def _dead(function: str, *, every: bool) -> str:
    """The message for a wrapped function whose own ``out`` handling is dead; the advice
    follows whether ``every`` return writes ``out`` itself."""
    if every:
        advice = (
            f"drop that handling and keep the decorator ({_EVERY_RETURN_WRITES}, which "
            "need not keep `out`'s dtype as the decorator's update does)"
        )
    else:
        advice = (
            "drop that handling and keep the decorator (not every return writes "
            "`out` itself, so without the decorator `out` would not hold the result)"
        )
    return (
        f"`{function}` is compositional and handles `out` itself, but "
        "@handle_out_argument calls it without `out`, so that handling is dead; "
        f"{advice}"
    )


def _dropped(function: str) -> str:
    """The message for an unwrapped function that never reads ``out``."""
    return (
        f"`{function}` is compositional and takes `out`, but never uses it, so "
        "`out` is silently dropped; pass `out=out` to the last API call"
    )


# What the check reads ----------------------------------------------------------------------


class _LazyLines:
    """The file's :class:`Lines`, split on first use: most files are decided without."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._lines: Lines | None = None

    def __call__(self) -> Lines:
        if self._lines is None:
            self._lines = Lines(self._source)
        return self._lines


def _candidates(
    tree: ast.Module, file: FileUnderCheck, lines: _LazyLines
) -> Iterator[tuple[FunctionNode, ast.arg, bool]]:
    """Each compositional API function with ``out`` that the check reports, with its
    ``out`` and whether it is wrapped for ``out`` (dead handling) or not (``out``
    dropped), in source order. The index is read last: most functions are decided
    before."""
    assigned = _ast_calls.wrapped_by_assignment(tree)
    for function in _ast_calls.api_functions(tree):
        found = _ast_calls.out_arg(function)
        if found is None or _is_stub(function, lines, tree):
            continue
        wrappers = _ast_calls.function_wrappers(tree, function, assigned)
        if "handle_partial_mixed_function" in wrappers or _ast_calls.backend_calls_in(
            tree, function
        ):
            continue
        wrapped = _WRAPPER in wrappers
        if reads_out_of(tree, function)[0] != wrapped:
            continue
        attributes = _ast_calls.index_attributes(file, function.name)
        if {"mixed_backend_wrappers", "support_native_out"} & attributes.keys():
            continue
        if not file.index.implementations(function.name):
            yield function, found[0], wrapped


def _is_stub(function: FunctionNode, lines: _LazyLines, tree: ast.Module) -> bool:
    """A body of only a docstring (any string or concatenation of strings), ``pass``,
    ``...`` or ``raise``, as an indented block: a declaration, not code. A body on the
    ``def``'s logical line (``def f(x): ...``) counts as code, as it always has."""
    for statement in function.body:
        if isinstance(statement, ast.Pass | ast.Raise):
            continue
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Constant) and (
            value.value is Ellipsis or isinstance(value.value, str | bytes)
        ):
            continue
        if isinstance(value, ast.JoinedStr) and string_literals(lines(), value) > 1:
            continue  # "doc" f"{x}": a concatenation of strings, as "a" "b" is
        return False
    return indented(lines(), tree, function.body)


def _every_return_writes_out(function: FunctionNode, lines: Lines, tree: ast.Module) -> bool:
    """Whether each ``return`` of the body (not of a function inside it) hands back what
    was written into ``out``: a call given ``out=out``, ``inplace_update(out, ...)``, or
    ``out`` itself, or comes after the guard ``if ivy.exists(out): return
    ivy.inplace_update(out, ret)`` (then it runs with ``out=None``). Only then does the
    body write ``out`` on its own without the wrapper (``xc = ivy.copy_array(x, out=out)``
    ... ``return ret`` writes ``out`` with an intermediate and returns something else).
    A body on the ``def``'s logical line is not read (no return counts)."""
    if not indented(lines, tree, function.body):
        return False
    seen = False
    for statement in function.body:
        returns = list(_own_returns(statement))
        if not all(_writes_out(r.value) for r in returns):
            return False
        seen = seen or bool(returns)
        if _is_out_guard(statement, lines, tree):
            return True  # every later return runs with ``out=None``
    return seen


def _own_returns(statement: ast.stmt) -> Iterator[ast.Return]:
    """The ``return`` statements in ``statement`` outside functions defined in it."""
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _is_out_guard(statement: ast.stmt, lines: Lines, tree: ast.Module) -> bool:
    """``if <a test naming out>:`` with no ``else``, an indented block whose last line
    holds a ``return`` that writes ``out``. The test names ``out`` as a name, an
    attribute, a keyword or a lambda's parameter."""
    if not isinstance(statement, ast.If) or statement.orelse:
        return False
    if not any(_names_out(node) for node in ast.walk(statement.test)):
        return False
    if not indented(lines, tree, statement.body):
        return False
    last = _last_line(lines, tree, statement.body)
    return any(isinstance(s, ast.Return) and _writes_out(s.value) for s in last)


def _names_out(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == OUT
    if isinstance(node, ast.Attribute):
        return node.attr == OUT
    if isinstance(node, ast.keyword):
        return node.arg == OUT
    if isinstance(node, ast.arg):
        return node.arg == OUT
    return False


def _last_line(lines: Lines, tree: ast.Module, body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of the block's last logical line: ``;`` joins simple statements,
    also across a line continuation. A compound statement ends its logical line, and no
    statement after it can share its last line (that would be in its block), so a block
    ending with one gives that statement alone (which is no ``return``)."""
    first = len(body) - 1
    while first > 0:
        previous, current = body[first - 1], body[first]
        joined = previous.end_lineno == current.lineno or continued(
            lines, tree, previous.end_lineno or previous.lineno
        )
        if not joined:
            break
        first -= 1
    return body[first:]


def _writes_out(value: ast.expr | None) -> bool:
    """``out``, ``inplace_update(out, ...)`` (``out`` first in the text, by position or
    by keyword) or a call given ``out=out``."""
    if isinstance(value, ast.Name):
        return value.id == OUT
    if not isinstance(value, ast.Call):
        return False
    if _ast_calls.is_inplace_update(value.func):
        arguments: list[ast.expr | ast.keyword] = [*value.args, *value.keywords]
        if not arguments:
            return False
        first = min(arguments, key=lambda a: (a.lineno, a.col_offset))
        inner = first.value if isinstance(first, ast.Starred | ast.keyword) else first
        return isinstance(inner, ast.Name) and inner.id == OUT
    return any(
        k.arg == OUT and isinstance(k.value, ast.Name) and k.value.id == OUT for k in value.keywords
    )
