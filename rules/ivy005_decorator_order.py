"""IVY005: wrapping decorators out of the project's wrapper order."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Config,
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    Rule,
    Severity,
)
from ivycheck.rules._ast_decorator_order import decorated, misordered
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._ast_spans import decorator_span
from ivycheck.rules._text_fixes import function_at, reordered_decorators, reordered_with_libcst
from ivycheck.rules._vocabulary import EXAMPLE_WRAPPER_LIST, wrapper_list
from ivycheck.rules._wrapper_order import (
    EXAMPLE_CATCHING_NESTABLE,
    EXAMPLE_EXCEPTIONS_OVER_NESTABLE,
    EXAMPLE_FAILURE_ONLY_WRAPPER,
    EXAMPLE_FALLBACK_WRAPPER,
    EXAMPLE_NESTABLE_OVER_EXCEPTIONS,
    EXAMPLE_OWN_LIST_PROJECT,
    era_names,
    mentions_two,
    message,
    rewraps,
    slots,
)


class DecoratorOrder(Rule):
    """A project applies its wrappers in one order, and the order is behaviour.

    Each wrapper sees the function as the wrappers below it left it: ``handle_out_argument``
    must sit above ``to_native_arrays_and_back`` so that it receives the ``ivy.Array``
    passed as ``out`` (and can write into it) rather than the native buffer; ``handle_view``
    must sit above ``handle_out_argument`` so that a result written to ``out`` is not
    registered as a view; ``handle_nestable`` must be outside the array conversions so that
    it maps over a ``Container`` before anything tries to convert it. Put in another order,
    the decorators still run, and the function silently returns a native array, drops
    ``out``, or fails only for containers.

    The order, read top to bottom in source (the first applied sits closest to ``def``), is
    the project's own: ``decorator-order`` where the configuration sets it, else the
    project's wrapper list (``FN_DECORATORS`` in Ivy's ``func_wrapper.py``: a module-level
    list of names that a loop applies as wrappers, ``to_wrap = getattr(ivy,
    attr)(to_wrap)``, the first applied first), else Ivy's order as of 975c8fc. Ivy's list
    changed between releases (2023-03: ``integer_arrays_to_float``,
    ``handle_mixed_function``; 2023-09: ``handle_partial_mixed_function``,
    ``handle_device_shifting``), so a tree is held to its own. Of that list only Ivy's
    wrappers and those the project defines as ``def name(fn)`` returning a function count
    (not ``with_unsupported_dtypes``, a class that only sets attributes), and only under a
    name some Ivy era used (most files are decided before the project's list is read). The
    message names where the order comes from, never "documented" (the checker reads code).
    ``to_native_arrays_and_back`` stands for the ``inputs_to_native_arrays`` ...
    ``outputs_to_ivy_arrays`` span and ``handle_device_shifting`` for ``handle_device``.
    Decorators not in the order are ignored and stay where they are.

    A helper nested inside a function, or a private one (``_name``), is wrapped once, by its
    decorators, and nothing else applies Ivy's order to it; there only a pair whose order
    changes what the function does is reported. Two wrappers commute when one converts
    only the inputs and the other only the outputs (``@outputs_to_ivy_arrays`` over
    ``@inputs_to_native_arrays``), or when one does nothing to this function
    (``@handle_array_like_without_promotion`` converts only parameters annotated as arrays,
    so it is the identity on a helper without annotations). Public module-level functions
    and methods are held to the order whatever the pair.

    Severity follows what the swap can change, read from the project's own wrappers (a
    module-level ``def name(fn)`` returning the function it defines). A wrapper whose
    function is ``try: return fn(*args, **kwargs)`` with every handler raising (Ivy's
    ``handle_exceptions``) hands back the result unchanged and acts only on a failure; when
    the other wrapper of the pair has no ``try`` around its call of ``fn``, the order
    changes no result, only which exception a failure raised by that other wrapper's own
    code comes out as (``@handle_nestable`` mapping over a ``Container``, say). Such a pair
    is a warning, with that consequence in the message; a pair whose order changes results
    stays an error, and when a decorator list has both, the error is the one reported. A
    wrapper the project does not define (it imports ``ivy``) is taken to be Ivy's at
    975c8fc: ``handle_exceptions`` acts only on failures, no other wrapper catches.

    Where the project re-wraps with its list (Ivy's ``_wrap_function``, which
    ``set_backend`` runs), a public module-level function of the functional API that
    every backend implements is replaced, once a backend is set, by the backend's
    function wrapped in the list's order: the order written on the API function is then
    used only while no backend is set. Such a finding is a style warning that says so. A
    compositional function (some backend lacks it) keeps the API function as written, so
    there the written order is the run-time order and the severity follows the pair.

    The fix reorders the known decorators into the order, keeping every decorator's
    comments with it and the unknown decorators in place.
    """

    CODE = "IVY005"
    NEEDS_INDEX = True  # what the project's own wrappers do decides the severity,
    # and the project's own wrapper list which order is right: the index decides findings.
    NAME = "decorator-order"
    MESSAGE = "Wrapping decorators are out of the project's wrapper order; reorder them"
    FIX_SAFETY = FixSafety.SAFE
    # VALID and INVALID: the examples at the end of this module.

    @classmethod
    def is_relevant(cls, source: str, config: Config) -> bool:
        """Only files that mention at least two of the known decorators can misorder them."""
        return "@" in source and mentions_two(source, era_names(config))

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """One finding per function with a misplaced pair, at the lower decorator of the
        pair reported, from its ``@``. The index (the project's list, what its wrappers
        do) is read only once a function carries two wrappers some Ivy era names: most
        files of a tree are decided without it."""
        functions = decorated(tree, era_names(file.config))
        if not functions:
            return
        lines = Lines(file.source)
        order = wrapper_list(file.config, file.index)
        for found in misordered(tree, functions, slots(order.source_order), file.index):
            function = found.function
            rewrapped = rewraps(function.name, found.api, file.part, file.index, order)
            text, severity = message(found.above, found.below, file.index, order, rewrapped)
            at = function.lineno, lines.column(function.lineno, function.col_offset)
            yield Finding(
                *decorator_span(lines, found.decorator),
                text,
                fix_description=_FIX,
                severity=severity,
                fix_data=(at, found.fixed),  # where its ``def`` is, and the order
            )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The function's decorators in the order :meth:`check` worked out (``fix_data``:
        where its ``def`` is, and each place's decorator by its index as written): each
        decorator moves with the comments above it, the unknown ones stay where they are.
        Rendered as text where the shape is plain (libcst's edit, without its import)."""
        at, permutation = finding.fix_data
        function = function_at(file.source, file.tree, at)
        if edit := function and reordered_decorators(file.source, function, permutation):
            return edit
        return reordered_with_libcst(file.source, file.tree, at, permutation)


_FIX = "Reorder the decorators"


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

_API = "ivy/functional/ivy/example.py"

DecoratorOrder.VALID = (
    Example(
        """
        @handle_nans
        @handle_exceptions
        @handle_nestable
        @inputs_to_ivy_arrays
        def nanmax(x, /, *, axis=None):
            ...


        @handle_exceptions
        @handle_nestable
        @handle_out_argument
        @to_native_arrays_and_back
        @handle_device
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)


        @handle_exceptions
        @handle_nestable
        @handle_view
        @handle_out_argument
        @inputs_to_ivy_arrays
        def flip(x, /, *, copy=None, out=None):
            ...
        """,
    ),
    Example(
        """
        @with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)
        @handle_out_argument
        @outputs_to_ivy_arrays
        def f(x, *, out=None):
            ...


        @staticmethod
        @handle_out_argument
        def k(x, *, out=None):
            ...
        """,
    ),
    Example(
        """
        import ivy

        @ivy.func_wrapper.handle_nestable
        @ivy.handle_out_argument
        @ivy.inputs_to_native_arrays
        def g(x, *, out=None):
            ...
        """,
    ),
    Example(
        """
        @handle_exceptions
        @handle_array_like_without_promotion
        @handle_view
        @inputs_to_ivy_arrays
        @handle_array_function
        @infer_dtype
        @handle_device
        def h(x, *, copy=None):
            ...
        """,
    ),
    Example(
        """
        def grad(f):
            def nth(n):
                @outputs_to_ivy_arrays
                @inputs_to_native_arrays
                def _inner(*args, **kwargs):
                    return f(*args, **kwargs)

                return _inner

            return nth(1)
        """,
    ),
    Example(
        """
        def if_else(cond, body_fn, orelse_fn, vars):
            @to_native_arrays_and_back
            @handle_array_like_without_promotion
            def _if_else(cond, body_fn, orelse_fn, **vars):
                return current_backend().if_else(cond, body_fn, orelse_fn, vars)

            return _if_else(cond, body_fn, orelse_fn, **vars)
        """,
    ),
    Example(
        """
        @outputs_to_ivy_arrays
        @inputs_to_native_arrays
        def _helper(x):
            return x
        """,
    ),
    Example(
        """
        @handle_array_like_without_promotion
        @handle_nestable
        @handle_out_argument
        @to_native_arrays_and_back
        @integer_arrays_to_float
        def tan(x: Array, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
        path=_API,
        files=EXAMPLE_OWN_LIST_PROJECT,
    ),
)
DecoratorOrder.INVALID = (
    Example(
        """
        @to_native_arrays_and_back
        @handle_out_argument
        def tan(x, /, *, out=None):
            ...
        """,
        path=_API,
        expected="""
        @handle_out_argument
        @to_native_arrays_and_back
        def tan(x, /, *, out=None):
            ...
        """,
        message="@handle_out_argument must be above @to_native_arrays_and_back",
        line=2,
        column=1,
    ),
    Example(
        """
        @handle_out_argument
        @handle_view
        def flip(x, *, copy=None, out=None):
            ...
        """,
        expected="""
        @handle_view
        @handle_out_argument
        def flip(x, *, copy=None, out=None):
            ...
        """,
        message="@handle_view must be above @handle_out_argument",
        line=2,
        column=1,
    ),
    Example(
        EXAMPLE_NESTABLE_OVER_EXCEPTIONS,
        expected=EXAMPLE_EXCEPTIONS_OVER_NESTABLE,
        message=(
            "@handle_exceptions must be above @handle_nestable (Ivy's decorator order); "
            "in this order no result changes, only errors raised by @handle_nestable "
            "itself escape as they are instead of re-raised by @handle_exceptions as Ivy "
            "exceptions"
        ),
        severity=Severity.WARNING,
        line=2,
        column=1,
    ),
    Example(
        """
        @handle_exceptions
        @handle_nans
        def nanmax(x):
            ...
        """,
        expected="""
        @handle_nans
        @handle_exceptions
        def nanmax(x):
            ...
        """,
        message=(
            "only errors raised by @handle_nans itself are re-raised by @handle_exceptions "
            "as Ivy exceptions instead of escaping as they are"
        ),
        severity=Severity.WARNING,
        line=2,
        column=1,
    ),
    Example(
        """
        @handle_nestable
        @handle_exceptions
        @to_native_arrays_and_back
        @handle_out_argument
        def tan(x, /, *, out=None):
            ...
        """,
        expected="""
        @handle_exceptions
        @handle_nestable
        @handle_out_argument
        @to_native_arrays_and_back
        def tan(x, /, *, out=None):
            ...
        """,
        message=(
            "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)"
        ),
        severity=Severity.ERROR,
        line=4,
        column=1,
    ),
    Example(
        EXAMPLE_NESTABLE_OVER_EXCEPTIONS,
        expected=EXAMPLE_EXCEPTIONS_OVER_NESTABLE,
        files={"ivy/utils/exceptions.py": EXAMPLE_FAILURE_ONLY_WRAPPER},
        message="in this order no result changes",
        severity=Severity.WARNING,
        line=2,
        column=1,
    ),
    Example(
        EXAMPLE_NESTABLE_OVER_EXCEPTIONS,
        expected=EXAMPLE_EXCEPTIONS_OVER_NESTABLE,
        files={"ivy/utils/exceptions.py": EXAMPLE_FALLBACK_WRAPPER},
        message=("@handle_exceptions must be above @handle_nestable (Ivy's decorator order)"),
        severity=Severity.ERROR,
        line=2,
        column=1,
    ),
    Example(
        EXAMPLE_NESTABLE_OVER_EXCEPTIONS,
        expected=EXAMPLE_EXCEPTIONS_OVER_NESTABLE,
        files={
            "ivy/utils/exceptions.py": EXAMPLE_FAILURE_ONLY_WRAPPER,
            "ivy/func_wrapper.py": EXAMPLE_CATCHING_NESTABLE,
        },
        message=("@handle_exceptions must be above @handle_nestable (Ivy's decorator order)"),
        severity=Severity.ERROR,
        line=2,
        column=1,
    ),
    Example(
        """
        # the device goes last
        @handle_device
        # convert arrays
        @inputs_to_ivy_arrays
        def g(x):
            ...
        """,
        expected="""
        # the device goes last
        # convert arrays
        @inputs_to_ivy_arrays
        @handle_device
        def g(x):
            ...
        """,
        message="@inputs_to_ivy_arrays must be above @handle_device",
        line=4,
        column=1,
    ),
    Example(
        """
        @with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)
        @outputs_to_ivy_arrays
        @handle_out_argument
        def h(x, *, out=None):
            ...
        """,
        expected="""
        @with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)
        @handle_out_argument
        @outputs_to_ivy_arrays
        def h(x, *, out=None):
            ...
        """,
        message="@handle_out_argument must be above @outputs_to_ivy_arrays",
        line=3,
        column=1,
    ),
    Example(
        """
        class A:
            @ivy.infer_dtype
            @ivy.handle_array_function
            def m(self, x):
                ...
        """,
        expected="""
        class A:
            @ivy.handle_array_function
            @ivy.infer_dtype
            def m(self, x):
                ...
        """,
        message="@handle_array_function must be above @infer_dtype",
        line=3,
        column=5,
    ),
    Example(
        """
        def if_else(cond, body_fn, orelse_fn, vars):
            @to_native_arrays_and_back
            @handle_array_like_without_promotion
            def _if_else(cond: ivy.Array, body_fn, orelse_fn, **vars):
                return current_backend().if_else(cond, body_fn, orelse_fn, vars)

            return _if_else(cond, body_fn, orelse_fn, **vars)
        """,
        expected="""
        def if_else(cond, body_fn, orelse_fn, vars):
            @handle_array_like_without_promotion
            @to_native_arrays_and_back
            def _if_else(cond: ivy.Array, body_fn, orelse_fn, **vars):
                return current_backend().if_else(cond, body_fn, orelse_fn, vars)

            return _if_else(cond, body_fn, orelse_fn, **vars)
        """,
        message="@handle_array_like_without_promotion must be above @to_native_arrays_and_back",
        line=3,
        column=5,
    ),
    Example(
        """
        def grad(f):
            @inputs_to_native_arrays
            @handle_out_argument
            def _inner(x, *, out=None):
                return f(x, out=out)

            return _inner
        """,
        expected="""
        def grad(f):
            @handle_out_argument
            @inputs_to_native_arrays
            def _inner(x, *, out=None):
                return f(x, out=out)

            return _inner
        """,
        message="@handle_out_argument must be above @inputs_to_native_arrays",
        line=3,
        column=5,
    ),
    Example(
        """
        @outputs_to_ivy_arrays
        @inputs_to_native_arrays
        def tan(x):
            return x
        """,
        expected="""
        @inputs_to_native_arrays
        @outputs_to_ivy_arrays
        def tan(x):
            return x
        """,
        message="@inputs_to_native_arrays must be above @outputs_to_ivy_arrays",
        line=2,
        column=1,
    ),
    Example(
        """
        @to_native_arrays_and_back
        @handle_out_argument
        @handle_nestable
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
        path=_API,
        files=EXAMPLE_OWN_LIST_PROJECT,
        expected="""
        @handle_nestable
        @handle_out_argument
        @to_native_arrays_and_back
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
        message=(
            "@handle_out_argument must be above @to_native_arrays_and_back (the project's "
            "FN_DECORATORS order, ivy/func_wrapper.py:3); style only: with a backend set, "
            "the project re-wraps every backend's `tan` in that order, so the order written "
            "here has no run-time effect then"
        ),
        severity=Severity.WARNING,
        line=2,
        column=1,
    ),
    Example(
        """
        @to_native_arrays_and_back
        @handle_out_argument
        def tan_twice(x, /, *, out=None):
            return ivy.tan(ivy.tan(x), out=out)
        """,
        path=_API,
        files=EXAMPLE_OWN_LIST_PROJECT,
        expected="""
        @handle_out_argument
        @to_native_arrays_and_back
        def tan_twice(x, /, *, out=None):
            return ivy.tan(ivy.tan(x), out=out)
        """,
        message=(
            "@handle_out_argument must be above @to_native_arrays_and_back (the project's "
            "FN_DECORATORS order, ivy/func_wrapper.py:3)"
        ),
        severity=Severity.ERROR,
        line=2,
        column=1,
    ),
    Example(
        """
        @handle_nestable
        @handle_array_like_without_promotion
        def tan(x: Array, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
        path="ivy/functional/ivy/elementwise.py",
        files={"ivy/func_wrapper.py": EXAMPLE_WRAPPER_LIST},
        expected="""
        @handle_array_like_without_promotion
        @handle_nestable
        def tan(x: Array, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
        message="@handle_array_like_without_promotion must be above @handle_nestable",
        severity=Severity.ERROR,
        line=2,
        column=1,
    ),
)
