"""IVY008: an ``out`` parameter that callers can fill positionally."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ivycheck.checker.rule_api import (
    DECORATOR_ALIASES,
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    Rule,
)
from ivycheck.rules._ast_calls import function_wrappers, signatures, wrapped_by_assignment
from ivycheck.rules._ast_facts import FunctionNode, wrapper_name
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._text_fixes import keyword_only_out, parameter_at
from ivycheck.rules._vocabulary import VIEW_DECORATORS, is_private_helper

if TYPE_CHECKING:
    import libcst as cst


class OutNotKeywordOnly(Rule):
    """``out`` must be keyword-only: ``def tan(x, /, *, out=None)``.

    Ivy's wrappers find ``out`` among the keyword arguments: ``handle_out_argument``,
    ``handle_nestable`` and the view wrappers read ``kwargs["out"]``. A caller who passes
    ``out`` positionally (``tan(x, y)``) hides it from them, so the result is computed into
    a fresh array and the buffer the caller gave is never written, or is mistaken for an
    input and converted, broadcast or mapped over. It also lets a later positional
    parameter slide into ``out`` by accident when the signature grows.

    Checked in the functional API, the backends and the data classes (the code Ivy's
    wrappers call). Frontends (``functional/frontends/**``) mirror NumPy, whose ufuncs take ``out``
    positionally, and are not checked; neither are private helpers (``_helper``) and
    versioned helpers (``fn_v_0p3p0_to_0p3p1``, ``fn_v_1p2p0_and_above``), which only the API
    calls. A name such as ``fn_v2`` is no version range and is checked.

    Only a function that a wrapper reads ``out`` of is reported: a module-level function of
    the functional API or of a backend (Ivy wraps both: the API function with its
    decorators, the backend implementation with the API's wrappers), or any function
    carrying one of Ivy's wrappers (the ``decorator-order`` list, the view wrappers). An
    undecorated data-class method or static helper (``cont_handle_inplace(ret, out)``,
    which writes ``out`` itself, or a method passing ``out=out`` on by keyword) hides
    nothing from any wrapper, so it is left alone.

    The fix makes ``out`` keyword-only (after ``*``). It is unsafe: callers that pass
    ``out`` positionally must be changed to ``out=...``.
    """

    CODE = "IVY008"
    NAME = "out-not-keyword-only"
    MESSAGE = "`out` can be passed positionally; make it keyword-only (after `*`)"
    FIX_SAFETY = FixSafety.UNSAFE
    PARTS = frozenset({"functional", "backend:*", "data_classes"})
    TRIGGERS = ("out",)
    VALID = (
        Example(
            """
            def tan(x, /, *, out=None):
                ...
            """,
        ),
        Example(
            """
            def add(x1, x2, out=None, /):
                ...
            """,
            path="ivy/functional/frontends/numpy/mathematical_functions/arithmetic.py",
        ),
        Example(
            """
            def _helper(x, out=None):
                ...
            """,
        ),
        Example(
            """
            def tan_v_0p3p0_to_0p3p1(x, out=None):
                ...
            """,
        ),
        Example(
            """
            def tan_v_1p2p0_and_above(x, out=None):
                ...
            """,
        ),
        Example(
            """
            def f(x, *args, out=None, **kwargs):
                ...
            """,
            path="ivy/functional/backends/numpy/general.py",
        ),
        Example(
            """
            class Array:
                def __array_ufunc__(self, ufunc, method, *inputs, out=None):
                    ...
                def add(self, x2, /, *, out=None):
                    ...
            """,
            path="ivy/data_classes/array/elementwise.py",
        ),
        Example(
            """
            def fill(x, value, output=None):
                ...
            """,
        ),
        Example(
            """
            def f(x, out=None):
                ...
            """,
            path="scripts/tool.py",
        ),
        Example(
            """
            class Array:
                def l1_normalize(self, axis=None, out=None):
                    return ivy.l1_normalize(self, axis=axis, out=out)
            """,
            path="ivy/data_classes/array/norms.py",
        ),
        Example(
            """
            class ContainerBase:
                @staticmethod
                def cont_handle_inplace(ret, out):
                    if out is not None:
                        out.cont_inplace_update(ret)
                        return out
                    return ret
            """,
            path="ivy/data_classes/container/base.py",
        ),
    )
    INVALID = (
        Example(
            """
            def tan(x, out=None):
                ...
            """,
            expected="""
            def tan(x, *, out=None):
                ...
            """,
        ),
        Example(
            """
            def tan_v2(x, out=None):
                ...
            """,
            expected="""
            def tan_v2(x, *, out=None):
                ...
            """,
        ),
        Example(
            """
            def tan(x, /, out=None):
                ...
            """,
            path="ivy/functional/backends/torch/elementwise.py",
            expected="""
            def tan(x, /, *, out=None):
                ...
            """,
        ),
        Example(
            """
            def add(x1, x2, out=None, *, alpha=None):
                ...
            """,
            expected="""
            def add(x1, x2, *, alpha=None, out=None):
                ...
            """,
        ),
        Example(
            """
            def clip(
                x,
                lo,
                hi,
                out: Optional[ivy.Array] = None,
            ):
                ...
            """,
            expected="""
            def clip(
                x,
                lo,
                hi,
                *,
                out: Optional[ivy.Array] = None,
            ):
                ...
            """,
        ),
        Example(
            """
            class Array:
                @handle_view
                def add(self, x2, out=None):
                    ...
            """,
            path="ivy/data_classes/array/elementwise.py",
            expected="""
            class Array:
                @handle_view
                def add(self, x2, *, out=None):
                    ...
            """,
        ),
        Example(
            """
            def sort(x, out=None, *args):
                ...
            """,
            path="ivy/functional/backends/jax/sorting.py",
            expected="""
            def sort(x, *args, out=None):
                ...
            """,
        ),
        Example(
            """
            def f(x, out, /):
                ...
            """,
            expected="""
            def f(x, /, *, out):
                ...
            """,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Reported at the parameter's name, which CPython's ``arg`` starts with (its end,
        after an annotation, is not the name's)."""
        lines = Lines(file.source)
        for function, out in _positional_outs(tree, file):
            start = lines.column(out.lineno, out.col_offset)
            yield Finding(
                out.lineno,
                start,
                out.lineno,
                start + len(OUT),
                _message(function.name),
                fix_description=_FIX,
                fix_data=(out.lineno, start),
            )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The function's signature with ``out`` moved after ``*`` (:func:`_keyword_only`;
        as text, without importing libcst, where the signature is plain:
        :func:`~ivycheck.rules._text_fixes.keyword_only_out`)."""
        found = parameter_at(file.source, file.tree, finding.fix_data)
        if edit := found and keyword_only_out(file.source, *found):
            return edit
        return keyword_only_with_libcst(file.source, file.tree, finding.fix_data)


OUT = "out"
_FIX = "Make `out` keyword-only (callers passing it positionally break)"


def _message(function: str) -> str:
    """The finding's message for the function named ``function``."""
    return (
        f"`out` of `{function}` can be passed positionally, which hides it from "
        "Ivy's wrappers; make it keyword-only (after `*`)"
    )


def _positional_outs(
    tree: ast.Module, file: FileUnderCheck
) -> Iterator[tuple[FunctionNode, ast.arg]]:
    """Each public function (with its ``out``) whose ``out`` is not keyword-only and which
    one of Ivy's wrappers reads (see the rule's docs), in the order
    of ``facts(tree).functions``."""
    api = file.part == "functional" or file.part.startswith("backend:")
    known = {*file.config.decorator_order, *DECORATOR_ALIASES, *VIEW_DECORATORS}
    top: set[int] | None = None  # ids of the module's statements, once a function asks
    assigned: dict[str, list[str]] | None = None
    for node, found, _ in signatures(tree):
        if found is None or found[1] or is_private_helper(node.name):
            continue
        if top is None:
            top = {id(statement) for statement in tree.body}
        if id(node) in top:
            if api:
                yield node, found[0]
                continue
            if assigned is None:
                assigned = wrapped_by_assignment(tree)
            wrappers = function_wrappers(tree, node, assigned)
        else:
            wrappers = {wrapper_name(d) for d in node.decorator_list}
        if wrappers & known:
            yield node, found[0]


def keyword_only_with_libcst(source: str, tree: ast.Module, at: tuple[int, int]) -> Edit | None:
    """:meth:`OutNotKeywordOnly.fix` rendered by libcst, for any shape (and the reference
    the text is held to): ``out``, whose name is at ``at``, moved after ``*``."""
    import libcst as cst

    from ivycheck.checker.core.fix_render import replace_node

    def keyword_only(node: cst.FunctionDef) -> cst.FunctionDef:
        params = node.params
        everyone = (*params.posonly_params, *params.params, *params.kwonly_params)
        out = next(param for param in everyone if param.name.value == OUT)
        return node.with_changes(params=_keyword_only(params, out))

    return replace_node(source, tree, at, cst.FunctionDef, keyword_only, header_only=True)


def _keyword_only(params: cst.Parameters, out: cst.Param) -> cst.Parameters:
    """The signature with ``out`` moved to the end of the keyword-only parameters.

    Commas belong to positions, not to parameters: the n-th element of the new signature
    takes the n-th comma of the old one, so a trailing comma or one parameter per line
    survives the move. A new bare ``*`` takes the separator that preceded ``out``.
    """
    import libcst as cst

    star = params.star_arg
    slash = params.posonly_ind
    old: list[cst.Param | cst.ParamStar | cst.ParamSlash] = [
        *params.posonly_params,
        *([slash] if isinstance(slash, cst.ParamSlash) else []),
        *params.params,
        *([star] if isinstance(star, cst.Param | cst.ParamStar) else []),
        *params.kwonly_params,
        *([params.star_kwarg] if params.star_kwarg is not None else []),
    ]
    commas: list[cst.Comma | cst.MaybeSentinel] = [element.comma for element in old]
    new_star: cst.Param | cst.ParamStar
    if isinstance(star, cst.Param | cst.ParamStar):
        new_star = star
    else:
        before = old[old.index(out) - 1].comma if old.index(out) > 0 else cst.MaybeSentinel.DEFAULT
        commas.insert(len(commas) - 1, before)
        new_star = cst.ParamStar()
    posonly = [p for p in params.posonly_params if p is not out]
    positional = [p for p in params.params if p is not out]
    kwonly = [*params.kwonly_params, out]
    kwargs = [params.star_kwarg] if params.star_kwarg is not None else []
    new: list[cst.Param | cst.ParamStar | cst.ParamSlash] = [
        *posonly,
        *([slash] if isinstance(slash, cst.ParamSlash) else []),
        *positional,
        new_star,
        *kwonly,
        *kwargs,
    ]
    placed = [_with_comma(element, comma) for element, comma in zip(new, commas, strict=True)]
    at = len(posonly) + (1 if isinstance(slash, cst.ParamSlash) else 0)
    return params.with_changes(
        posonly_params=placed[: len(posonly)],
        posonly_ind=placed[len(posonly)] if isinstance(slash, cst.ParamSlash) else slash,
        params=placed[at : at + len(positional)],
        star_arg=placed[at + len(positional)],
        kwonly_params=placed[at + len(positional) + 1 : at + len(positional) + 1 + len(kwonly)],
        star_kwarg=placed[-1] if kwargs else None,
    )


def _with_comma(
    element: cst.Param | cst.ParamStar | cst.ParamSlash, comma: cst.Comma | cst.MaybeSentinel
) -> cst.Param | cst.ParamStar | cst.ParamSlash:
    import libcst as cst

    if isinstance(element, cst.ParamStar) and not isinstance(comma, cst.Comma):
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return element.with_changes(comma=comma)
