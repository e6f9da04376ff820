"""IVY006: a view function without a keyword ``copy`` parameter."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FixSafety, ProjectIndex, Rule, walk
from ivycheck.rules import _ast_facts
from ivycheck.rules._ast_compositional import decorator_span, name_span
from ivycheck.rules._ast_facts import FunctionNode, facts, wrapper_name
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._decorators import decorator_name
from ivycheck.rules._names import dotted, module_level_statements
from ivycheck.rules._outflow import NEW_SCOPES
from ivycheck.rules._vocabulary import VIEW_DECORATORS

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck


def _has_copy_keyword(params: cst.Parameters) -> bool:
    return any(p.name.value == "copy" for p in (*params.params, *params.kwonly_params))


def _imports_optional(module: cst.Module) -> bool:
    """Whether ``Optional`` is importable by that name at module level."""
    return any(
        isinstance(small, cst.ImportFrom)
        and not isinstance(small.names, cst.ImportStar)
        and any(
            (alias.asname.name if alias.asname else alias.name).value == "Optional"  # type: ignore[union-attr]
            for alias in small.names
        )
        for small in module_level_statements(module)
    )


_CONSUMING_HANDLE_VIEW = """
import functools


def handle_view(fn):
    @functools.wraps(fn)
    def new_fn(*args, copy=None, **kwargs):
        ret = fn(*args, **kwargs)
        if copy:
            return ret
        return _build_view(args[0], ret)

    new_fn.handle_view = True
    return new_fn
"""
"""A project's own ``handle_view`` that takes ``copy`` itself (2023-03 Ivy's shape)."""


class ViewWithoutCopy(Rule):
    """A function that returns views must let its callers ask for a copy instead.

    ``@handle_view`` and ``@handle_view_indexing`` make the result share memory with the
    input (natively on NumPy and PyTorch, tracked on JAX and TensorFlow): writing into the
    result writes into the input. The only way out for a caller that needs independent
    memory is ``copy=True``, which the wrapper reads from the keyword arguments. A view
    function without a ``copy`` parameter leaves the caller no way out (and
    ``fn(x, copy=True)`` raises ``TypeError``).

    The converse is fine: ``copy`` without a view decorator (``asarray``, ``astype``) is
    an ordinary option. The fix adds ``copy: Optional[bool] = None`` as a keyword-only
    parameter, before ``out`` when there is one (annotated only where the signature is).

    Not reported: dunder methods (``__getitem__`` with ``@handle_view_indexing``), which
    run from syntax (``x[q]``) and so can never be given ``copy``; and functions whose view
    wrapper is the project's own and takes ``copy`` itself without handing it on (2023-03
    Ivy's ``handle_view``: ``def new_fn(*args, copy=None, **kwargs)``), where
    ``fn(x, copy=True)`` reaches the wrapper and the function never sees ``copy``.

    When every ``return`` of the function is a call of an Ivy API function that has no view
    decorator itself (a data-class method ``return ivy.concat_from_sequence(...)``), the
    result is never a view: the defect is the view decorator, which marks a fresh array as
    a view of the input. The finding says so, and no fix is offered (a ``copy`` parameter
    would be unused; removing the decorator is left to the author).
    """

    CODE = "IVY006"
    LOCAL = True
    NAME = "view-without-copy"
    MESSAGE = "View function has no keyword `copy` parameter; add `copy: Optional[bool] = None`"
    FIX_SAFETY = FixSafety.SAFE
    TRIGGERS = ("handle_view",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            @handle_view
            def flip(x, /, *, copy: Optional[bool] = None, out=None):
                ...
            """,
        ),
        Example(
            """
            @handle_view_indexing
            def get_item(x, query, *, copy=None):
                ...
            """,
        ),
        Example(
            """
            def asarray(obj, *, dtype=None, copy=None):
                ...
            """,
        ),
        Example(
            """
            def astype(x, dtype, /, *, copy=True, out=None):
                ...
            """,
        ),
        Example(
            """
            @ivy.handle_view
            def reshape(x, shape, copy=None, *, out=None):
                ...
            """,
        ),
        Example(
            """
            @handle_out_argument
            def tan(x, *, out=None):
                ...
            """,
        ),
        Example(
            """
            class Array:
                @handle_view_indexing
                def __getitem__(self, query):
                    return ivy.get_item(self._data, query)
            """,
            path="ivy/data_classes/array/array.py",
        ),
        Example(
            """
            @handle_view
            def flip(x, /, *, axis=None, out=None):
                return current_backend(x).flip(x, axis=axis, out=out)
            """,
            path="ivy/functional/ivy/manipulation.py",
            files={"ivy/func_wrapper.py": _CONSUMING_HANDLE_VIEW},
        ),
    )
    INVALID = (
        Example(
            """
            @handle_view
            def flip(x, /, *, axis=None, out=None):
                ...
            """,
            expected="""
            @handle_view
            def flip(x, /, *, axis=None, copy=None, out=None):
                ...
            """,
        ),
        Example(
            """
            @handle_view_indexing
            def get_item(x, query):
                ...
            """,
            expected="""
            @handle_view_indexing
            def get_item(x, query, *, copy=None):
                ...
            """,
        ),
        Example(
            """
            from typing import Optional


            @handle_view
            def squeeze(x: ivy.Array, /, axis: int, *, out: Optional[ivy.Array] = None):
                ...
            """,
            expected="""
            from typing import Optional


            @handle_view
            def squeeze(x: ivy.Array, /, axis: int, *, copy: Optional[bool] = None, out: Optional[ivy.Array] = None):
                ...
            """,
        ),
        Example(
            """
            @handle_view
            def expand_dims(x: Array, axis: int) -> Array:
                ...
            """,
            expected="""
            @handle_view
            def expand_dims(x: Array, axis: int, *, copy: bool | None = None) -> Array:
                ...
            """,
        ),
        Example(
            """
            @handle_view
            def f(
                x,
                *,
                out=None,
            ):
                ...
            """,
            expected="""
            @handle_view
            def f(
                x,
                *,
                copy=None,
                out=None,
            ):
                ...
            """,
        ),
        Example(
            """
            class A:
                @ivy.handle_view
                def view(self, *args, **kwargs):
                    ...
            """,
            expected="""
            class A:
                @ivy.handle_view
                def view(self, *args, copy=None, **kwargs):
                    ...
            """,
        ),
        Example(
            """
            class Array:
                @handle_view
                def concat_from_sequence(self, /, input_sequence, *, axis=0, out=None):
                    return ivy.concat_from_sequence([self._data] + input_sequence, axis=axis)
            """,
            path="ivy/data_classes/array/manipulation.py",
            files={
                "ivy/functional/ivy/manipulation.py": """
                @handle_out_argument
                def concat_from_sequence(input_sequence, /, *, axis=0, out=None):
                    return current_backend(input_sequence).concat_from_sequence(input_sequence)
                """,
            },
        ),
        Example(
            """
            class Array:
                @handle_view
                def flip(self, /, *, axis=None, out=None):
                    return ivy.flip(self._data, axis=axis, out=out)
            """,
            path="ivy/data_classes/array/manipulation.py",
            files={
                "ivy/functional/ivy/manipulation.py": """
                @handle_view
                def flip(x, /, *, copy=None, axis=None, out=None):
                    return current_backend(x).flip(x, copy=copy, axis=axis, out=out)
                """,
            },
            expected="""
            class Array:
                @handle_view
                def flip(self, /, *, axis=None, copy=None, out=None):
                    return ivy.flip(self._data, axis=axis, out=out)
            """,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether a function that is not a dunder has a view decorator and no ``copy``
        parameter: the check below, which reports every such function one way or another
        (``find_on_ast`` reads the same walk)."""
        return next(_ast_views_without_copy(tree), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: at the first view decorator (from its ``@``)
        when every ``return`` hands back a fresh API result, else at the function's name
        with the fix offered. ``None`` where that decorator stands in parentheses of its own
        or the name is not right after ``def`` on its line (the spans libcst reports are
        not read there)."""
        lines: Lines | None = None
        findings: list[AstFinding] = []
        for function, view in _ast_views_without_copy(tree):
            lines = lines or Lines(file.source)
            fresh = _ast_returns_only_fresh_arrays(function, file.index)
            wrapper = wrapper_name(view)
            if fresh is not None:
                span = decorator_span(lines, view)
                message, fix = _fresh_message(function.name, wrapper, fresh), None
            elif _wrapper_keeps_copy(wrapper, file.index):
                continue
            else:
                span = name_span(lines, function)
                message, fix = _message(function.name, wrapper), _FIX
            if span is None:
                return None
            findings.append(AstFinding(*span, message, fix_description=fix))
        return findings

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        views = [d for d in node.decorators if decorator_name(d) in VIEW_DECORATORS]
        name = node.name.value
        if not views or _has_copy_keyword(node.params):
            return
        if name.startswith("__") and name.endswith("__"):
            return  # run from syntax (`x[q]`): no caller can pass `copy`
        fresh = _returns_only_fresh_arrays(node, self.context.index)
        if fresh is not None:
            self.report(views[0], _fresh_message(name, decorator_name(views[0]), fresh))
            return
        if _wrapper_keeps_copy(decorator_name(views[0]), self.context.index):
            return
        self.report(
            node.name,
            _message(name, decorator_name(views[0])),
            replacement=node.with_changes(params=self._with_copy(node.params)),
            fix_description=_FIX,
            fix_target=node,
        )

    def _with_copy(self, params: cst.Parameters) -> cst.Parameters:
        annotated = any(
            p.annotation is not None for p in (*params.posonly_params, *params.params)
        ) or any(p.annotation is not None for p in params.kwonly_params)
        annotation = None
        if annotated:
            text = "Optional[bool]" if _imports_optional(self.context.module) else "bool | None"
            annotation = cst.Annotation(cst.parse_expression(text))
        spaced = cst.SimpleWhitespace(" " if annotation else "")
        copy_param = cst.Param(
            name=cst.Name("copy"),
            annotation=annotation,
            default=cst.Name("None"),
            equal=cst.AssignEqual(whitespace_before=spaced, whitespace_after=spaced),
        )
        at = next(
            (i for i, p in enumerate(params.kwonly_params) if p.name.value == "out"),
            len(params.kwonly_params),
        )
        return _insert_kwonly(params, copy_param, at)


def _comma_of(element: cst.Param | cst.ParamStar | None) -> cst.Comma | cst.MaybeSentinel:
    if element is None or not isinstance(element.comma, cst.Comma):
        return cst.MaybeSentinel.DEFAULT
    return element.comma


def _insert_kwonly(params: cst.Parameters, new: cst.Param, at: int) -> cst.Parameters:
    """Insert a keyword-only parameter at ``at``, keeping the signature's comma style.

    The new parameter takes the separator of the element before it; when that element
    was the last one and carried a trailing comma, the trailing comma moves to the new
    parameter and the old element takes the separator of its own predecessor, so that a
    one-parameter-per-line signature stays one parameter per line.
    """
    kwonly = list(params.kwonly_params)
    star: cst.Param | cst.ParamStar
    star = cst.ParamStar() if isinstance(params.star_arg, cst.MaybeSentinel) else params.star_arg
    positional = [*params.posonly_params, *params.params]
    sequence: list[cst.Param | cst.ParamStar] = [*positional[-1:], star, *kwonly]
    before_index = len(sequence) - len(kwonly) + at - 1
    before = sequence[before_index]
    separator = _comma_of(before)
    if before is star and isinstance(params.star_arg, cst.MaybeSentinel):
        separator = cst.MaybeSentinel.DEFAULT  # a new bare `*` is followed by `copy` alone
    last_overall = at == len(kwonly) and params.star_kwarg is None
    if last_overall and isinstance(separator, cst.Comma) and before_index > 0:
        inherited = _comma_of(sequence[before_index - 1])
        if isinstance(before, cst.ParamStar) and not isinstance(inherited, cst.Comma):
            inherited = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        sequence[before_index] = before.with_changes(comma=inherited)
    sequence.insert(before_index + 1, new.with_changes(comma=separator))
    star_at = len(positional[-1:])
    new_positional: list[cst.Param | cst.ParamStar] = [*positional[:-1], *sequence[:star_at]]
    new_star = sequence[star_at]
    new_kwonly = sequence[star_at + 1 :]
    posonly_count = len(params.posonly_params)
    return params.with_changes(
        posonly_params=[p for p in new_positional[:posonly_count] if isinstance(p, cst.Param)],
        params=[p for p in new_positional[posonly_count:] if isinstance(p, cst.Param)],
        star_arg=new_star,
        kwonly_params=[p for p in new_kwonly if isinstance(p, cst.Param)],
    )


def _returns_only_fresh_arrays(node: cst.FunctionDef, index: ProjectIndex) -> str | None:
    """``ivy.name`` when every ``return`` of ``node`` is a call of Ivy API functions without
    a view decorator (so the result is never a view), else ``None``."""
    returns: list[cst.Return] = []

    class Returns(cst.CSTVisitor):
        def on_visit(self, inner: cst.CSTNode) -> bool:
            if isinstance(inner, cst.Return):
                returns.append(inner)
            return type(inner) not in NEW_SCOPES

    for statement in node.body.body:
        walk(statement, Returns())
    called: list[str] = []
    for returned in returns:
        value = returned.value
        name = dotted(value.func) if isinstance(value, cst.Call) else None
        if name is None or not _fresh_api_call(name, index):
            return None
        called.append(name)
    return called[0] if called else None


def _fresh_api_call(name: str, index: ProjectIndex) -> bool:
    """Whether a call of ``name`` (dotted) is ``ivy.<function>`` of an API function that
    makes no view: a result of its own, whichever tree the call was read from."""
    if name.count(".") != 1 or not name.startswith("ivy."):
        return False
    api = index.api_function(name.partition(".")[2])
    return api is not None and not set(api.decorators) & VIEW_DECORATORS


_FIX = "Add a keyword-only `copy` parameter"


def _wrapper_keeps_copy(wrapper: str, index: ProjectIndex) -> bool:
    """Whether the project's own view wrapper takes ``copy`` itself and never hands it to
    the function (2023-03 Ivy's ``handle_view``: ``def new_fn(*args, copy=None,
    **kwargs)``): then callers pass ``copy`` to the wrapper, and the function needs no such
    parameter (one would never be given a value)."""
    return index.wrapper_takes(wrapper, "copy")


def _message(function: str, wrapper: str) -> str:
    """The finding for ``function``, decorated with view wrapper ``wrapper``, without
    ``copy``."""
    return (
        f"@{wrapper} function `{function}` has no keyword `copy` "
        "parameter; add `copy: Optional[bool] = None`"
    )


def _fresh_message(function: str, wrapper: str, fresh: str) -> str:
    """The finding for ``function``, decorated with view wrapper ``wrapper``, whose every
    return is a fresh result of API function ``fresh``."""
    return (
        f"`{function}` is decorated @{wrapper} but returns `{fresh}(...)`, "
        "which is not a view (that API function has no view decorator): the decorator "
        "marks a new array as a view of the input; remove it"
    )


# The check on CPython's tree (``may_find`` and ``find_on_ast``) --------------------------


def _ast_views_without_copy(tree: ast.Module) -> Iterator[tuple[FunctionNode, ast.expr]]:
    """Each function the check below reports (every depth, methods too), with its first
    view decorator: not a dunder, no ``copy`` among its positional-or-keyword and
    keyword-only parameters."""
    for function, _ in facts(tree).functions:
        name = function.name
        if name.startswith("__") and name.endswith("__"):
            continue
        view = next(
            (d for d in function.decorator_list if wrapper_name(d) in VIEW_DECORATORS), None
        )
        if view is None:
            continue
        args = function.args
        if not any(a.arg == "copy" for a in (*args.args, *args.kwonlyargs)):
            yield function, view


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
"""``NEW_SCOPES`` on CPython's tree: the returns inside them are not the function's."""


def _ast_returns_only_fresh_arrays(function: FunctionNode, index: ProjectIndex) -> str | None:
    """:func:`_returns_only_fresh_arrays` on CPython's tree."""
    called: list[str] = []
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            value = node.value
            name = _ast_facts.dotted(value.func) if isinstance(value, ast.Call) else None
            if name is None or not _fresh_api_call(name, index):
                return None
            called.append(name)
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return called[0] if called else None
