"""IVY010: a compositional function whose ``out`` handling is dead, or missing."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Category,
    Example,
    FileUnderCheck,
    Rule,
    Severity,
    nodes_of,
)
from ivycheck.rules import _ast_calls
from ivycheck.rules._api_functions import ApiFunction, api_functions
from ivycheck.rules._ast_compositional import (
    OUT,
    arg_span,
    decorator_span,
    name_span,
    reads_out,
)
from ivycheck.rules._ast_facts import FunctionNode, wrapper_name
from ivycheck.rules._ast_layout import indented
from ivycheck.rules._ast_source import Lines
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
            message="removing the decorator instead leaves writing `out` to the body's own calls",
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
            message="removing the decorator instead leaves writing `out` to the body's own calls",
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
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree (``find_on_ast`` reads the same walk): a
        compositional API function with ``out`` that is wrapped for it and reads it, or
        unwrapped and never reading it."""
        return next(_ast_candidates(tree, file, _LazyLines(file.source)), False) is not False

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: at the ``@handle_out_argument`` decorator
        (from its ``@``) or, wrapped by assignment only, at the function's name; at
        ``out``'s name for a dropped ``out``. ``None`` where the layout libcst reads is not
        read exactly here (a continuation line, a decorator in parentheses of its own)."""
        lines = _LazyLines(file.source)
        findings: list[AstFinding] = []
        for found in _ast_candidates(tree, file, lines):
            if found is None:
                return None
            function, out, wrapped = found
            if not wrapped:
                findings.append(AstFinding(*arg_span(lines(), out), _dropped(function.name)))
                continue
            decorator = next(
                (d for d in function.decorator_list if wrapper_name(d) == _WRAPPER), None
            )
            span = (
                name_span(lines(), function)
                if decorator is None
                else decorator_span(lines(), decorator)
            )
            every = _ast_every_return_writes_out(function, lines())
            if span is None or every is None:
                return None
            findings.append(
                AstFinding(
                    *span,
                    _dead(function.name, every=every),
                    severity=Severity.WARNING,
                    category=Category.DEAD_CODE,
                )
            )
        return findings

    def visit_Module(self, node: cst.Module) -> None:
        for function in api_functions(self.context):
            if function.out is None or _is_stub(function.node):
                continue
            wrappers = function.wrappers
            if "handle_partial_mixed_function" in wrappers or not self._compositional(function):
                continue
            used, _ = body_uses_out(function.node)
            wrapped = _WRAPPER in wrappers
            if wrapped and used:
                decorator = next(
                    (d for d in function.node.decorators if decorator_name(d) == _WRAPPER),
                    function.node.name,
                )
                self.report(
                    decorator,
                    _dead(function.name, every=_every_return_writes_out(function.node)),
                    category=Category.DEAD_CODE,
                    severity=Severity.WARNING,
                )
            elif not wrapped and not used:
                self.report(function.out.name, _dropped(function.name))

    def _compositional(self, function: ApiFunction) -> bool:
        """No backend call in the body, no backend attribute, no backend implementation."""
        if backend_calls_in(function.node, self.context):
            return False
        if {"mixed_backend_wrappers", "support_native_out"} & function.attributes.keys():
            return False
        return not self.context.index.implementations(function.name)


_WRAPPER = "handle_out_argument"


def _dead(function: str, *, every: bool) -> str:
    """The message for a wrapped function whose own ``out`` handling is dead; the advice
    follows whether ``every`` return writes ``out`` itself."""
    if every:
        advice = (
            "drop that handling and keep the decorator (removing the decorator instead "
            "leaves writing `out` to the body's own calls, which need not keep `out`'s "
            "dtype as the decorator's update does)"
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


# The check on CPython's tree (``may_find`` and ``find_on_ast``) --------------------------


class _LazyLines:
    """The file's :class:`Lines`, split on first use: most files are decided without."""

    def __init__(self, source: str) -> None:
        self._source = source
        self._lines: Lines | None = None

    def __call__(self) -> Lines:
        if self._lines is None:
            self._lines = Lines(self._source)
        return self._lines


def _ast_candidates(
    tree: ast.Module, file: FileUnderCheck, lines: _LazyLines
) -> Iterator[tuple[FunctionNode, ast.arg, bool] | None]:
    """Each API function the check below reports, with its ``out`` and whether it is
    wrapped for ``out`` (dead handling) or not (``out`` dropped), in source order; ``None``
    for a function whose body libcst may read as a stub or not (a continuation line)."""
    assigned = _ast_calls.wrapped_by_assignment(tree)
    for function in _ast_calls.api_functions(tree):
        found = _ast_calls.out_arg(function)
        if found is None:
            continue
        stub = _ast_is_stub(function, lines)
        if stub:
            continue
        wrappers = _ast_calls.function_wrappers(function, assigned)
        if "handle_partial_mixed_function" in wrappers or _ast_calls.backend_calls_in(function):
            continue
        wrapped = _WRAPPER in wrappers
        if reads_out(function)[0] != wrapped:
            continue
        # Other files last: a file with no candidate is decided before the index exists.
        attributes = _ast_calls.index_attributes(file, function.name)
        if {"mixed_backend_wrappers", "support_native_out"} & attributes.keys():
            continue
        if not file.index.implementations(function.name):
            yield None if stub is None else (function, found[0], wrapped)


def _ast_is_stub(function: FunctionNode, lines: _LazyLines) -> bool | None:
    """:func:`_is_stub` on CPython's tree (a string or ``...`` there is a constant). A body
    on the line of the ``def`` (``def f(x): ...``) is no stub to libcst's check; ``None``
    where a continuation line may put it there."""
    for statement in function.body:
        if isinstance(statement, ast.Pass | ast.Raise):
            continue
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(value, ast.Constant) and (
            value.value is Ellipsis or isinstance(value.value, str | bytes)
        ):
            continue
        return False
    return indented(lines(), function.body)


def _ast_every_return_writes_out(function: FunctionNode, lines: Lines) -> bool | None:
    """:func:`_every_return_writes_out` on CPython's tree; ``None`` where a continuation
    line may change which block or line libcst sees."""
    block = indented(lines, function.body)
    if not block:
        return block  # a body on the def's line: libcst reads no statements of it
    seen = False
    for statement in function.body:
        returns = list(_own_returns(statement))
        if not all(_ast_writes_out(r.value) for r in returns):
            return False
        seen = seen or bool(returns)
        guard = _ast_is_out_guard(statement, lines)
        if guard is None or guard:
            return guard
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


def _ast_is_out_guard(statement: ast.stmt, lines: Lines) -> bool | None:
    """:func:`_is_out_guard` on CPython's tree: ``if <a test naming out>:`` with no
    ``else``, an indented block whose last line holds a ``return`` that writes ``out``.
    libcst's test names ``out`` as any ``Name`` node: a name, an attribute, a keyword or a
    lambda's parameter."""
    if not isinstance(statement, ast.If) or statement.orelse:
        return False
    if not any(_names_out(node) for node in ast.walk(statement.test)):
        return False
    block = indented(lines, statement.body)
    if not block:
        return block
    last = _last_line(lines, statement.body)
    if last is None:
        return None
    return any(isinstance(s, ast.Return) and _ast_writes_out(s.value) for s in last)


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


_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
)


def _last_line(lines: Lines, body: list[ast.stmt]) -> list[ast.stmt] | None:
    """The statements of the block's last line as libcst holds them (its last
    ``SimpleStatementLine``'s, ``;`` joining them); none when the block ends with a
    compound statement; ``None`` where a continuation line may join two lines."""
    if isinstance(body[-1], _COMPOUND):
        return []
    first = len(body) - 1
    while first > 0:
        previous, current = body[first - 1], body[first]
        if isinstance(previous, _COMPOUND) or previous.end_lineno != current.lineno:
            end = lines.lines[(previous.end_lineno or previous.lineno) - 1]
            if end.rstrip("\r\n").endswith("\\"):
                return None
            break
        first -= 1
    return body[first:]


def _ast_writes_out(value: ast.expr | None) -> bool:
    """:func:`_writes_out` on CPython's tree: ``out``, ``inplace_update(out, ...)`` (its
    first argument in the text, which libcst keeps in order with the keywords) or a call
    given ``out=out``."""
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
