"""IVY006: a view function without a keyword ``copy`` parameter."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ivycheck.checker.rule_api import (
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    ProjectIndex,
    Rule,
)
from ivycheck.rules._ast_compositional import name_span
from ivycheck.rules._ast_facts import FunctionNode, decorator_names, dotted, facts, wrapper_name
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._ast_spans import decorator_span
from ivycheck.rules._vocabulary import VIEW_DECORATORS

if TYPE_CHECKING:
    import libcst as cst


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


_API_CONCAT = {
    "ivy/functional/ivy/manipulation.py": """
    @handle_out_argument
    def concat_from_sequence(input_sequence, /, *, axis=0, out=None):
        return current_backend(input_sequence).concat_from_sequence(input_sequence)
    """,
}
"""The API's ``concat_from_sequence``: no view decorator, so its result is a fresh array."""


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
            line=2,
            column=5,
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
            line=2,
            column=5,
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
            line=5,
            column=5,
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
            line=2,
            column=5,
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
            line=2,
            column=5,
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
            line=3,
            column=9,
        ),
        Example(
            """
            class Array:
                @handle_view
                def concat_from_sequence(self, /, input_sequence, *, axis=0, out=None):
                    return ivy.concat_from_sequence([self._data] + input_sequence, axis=axis)
            """,
            path="ivy/data_classes/array/manipulation.py",
            files=_API_CONCAT,
            line=2,
            column=5,
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
            line=3,
            column=9,
        ),
        Example(
            r"""
            @handle_view
            def \
                flip(x, /, *, axis=None, out=None):
                ...
            """,
            expected=r"""
            @handle_view
            def \
                flip(x, /, *, axis=None, copy=None, out=None):
                ...
            """,
            line=3,
            column=5,
        ),
        Example(
            """
            class Array:
                @ (handle_view)  # in parentheses of its own
                def concat_from_sequence(self, /, input_sequence, *, axis=0, out=None):
                    return ivy.concat_from_sequence([self._data] + input_sequence, axis=axis)
            """,
            path="ivy/data_classes/array/manipulation.py",
            files=_API_CONCAT,
            message="is decorated @handle_view but returns `ivy.concat_from_sequence(...)`",
            line=2,
            column=5,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """At the first view decorator (from its ``@`` to the end of its expression and its
        own parentheses) when every ``return`` hands back a fresh API result, without a
        fix; else at the function's name, with the fix."""
        lines: Lines | None = None
        for function, view in _views_without_copy(tree):
            lines = lines or Lines(file.source)
            fresh = _returns_only_fresh_arrays(function, file.index)
            wrapper = wrapper_name(view)
            if fresh is not None:
                yield Finding(
                    *decorator_span(lines, view), _fresh_message(function.name, wrapper, fresh)
                )
            elif not _wrapper_keeps_copy(wrapper, file.index):
                span = name_span(lines, function)
                yield Finding(
                    *span,
                    _message(function.name, wrapper),
                    fix_description=_FIX,
                    fix_data=span[:2],
                )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The function's signature with ``copy`` added (:func:`_with_copy`), annotated
        only where the signature is: ``Optional[bool]`` where the module imports
        ``Optional``, else ``bool | None``."""
        import libcst as cst

        from ivycheck.checker.core.fix_render import replace_node

        optional = _imports_optional(file.tree)

        def with_copy(node: cst.FunctionDef) -> cst.FunctionDef:
            return node.with_changes(params=_with_copy(node.params, optional=optional))

        return replace_node(file.source, file.tree, finding.fix_data, cst.FunctionDef, with_copy)


def _imports_optional(tree: ast.Module) -> bool:
    """Whether ``Optional`` is importable by that name at module level (a ``from``
    import outside any block)."""
    return any(
        isinstance(statement, ast.ImportFrom)
        and any((alias.asname or alias.name) == "Optional" for alias in statement.names)
        for statement in tree.body
    )


def _with_copy(params: cst.Parameters, *, optional: bool) -> cst.Parameters:
    """``params`` with ``copy=None`` added as a keyword-only parameter, before ``out`` when
    there is one; annotated (``Optional[bool]`` if ``optional``, else ``bool | None``)
    only where another parameter is."""
    import libcst as cst

    annotated = any(
        p.annotation is not None
        for p in (*params.posonly_params, *params.params, *params.kwonly_params)
    )
    annotation = None
    if annotated:
        text = "Optional[bool]" if optional else "bool | None"
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
    import libcst as cst

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
    import libcst as cst

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


def _views_without_copy(tree: ast.Module) -> Iterator[tuple[FunctionNode, ast.expr]]:
    """Each function the check reports (every depth, methods too), with its first view
    decorator: not a dunder (run from syntax, ``x[q]``: no caller can pass ``copy``), no
    ``copy`` among its positional-or-keyword and keyword-only parameters."""
    found = facts(tree)
    for function, _ in found.functions:
        name = function.name
        if name.startswith("__") and name.endswith("__"):
            continue
        names = decorator_names(found, function)
        view = next(
            (
                d
                for d, n in zip(function.decorator_list, names, strict=True)
                if n in VIEW_DECORATORS
            ),
            None,
        )
        if view is None:
            continue
        args = function.args
        if not any(a.arg == "copy" for a in (*args.args, *args.kwonlyargs)):
            yield function, view


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
"""Scopes of their own: the returns inside them are not the function's."""


def _returns_only_fresh_arrays(function: FunctionNode, index: ProjectIndex) -> str | None:
    """``ivy.name`` when every ``return`` of ``function`` is a call of Ivy API functions
    without a view decorator (so the result is never a view), else ``None``."""
    called: list[str] = []
    stack: list[ast.AST] = list(reversed(function.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            value = node.value
            name = dotted(value.func) if isinstance(value, ast.Call) else None
            if name is None or not _fresh_api_call(name, index):
                return None
            called.append(name)
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))
    return called[0] if called else None
