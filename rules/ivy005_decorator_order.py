"""IVY005: wrapping decorators out of the project's wrapper order."""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import NamedTuple

import libcst as cst

from ivycheck.checker.project.layout import KNOWN_WRAPPERS
from ivycheck.checker.rule_api import (
    DECORATOR_ALIASES,
    AstFinding,
    Config,
    Example,
    FileUnderCheck,
    FixSafety,
    ProjectIndex,
    Rule,
    Severity,
)
from ivycheck.rules._ast_facts import FunctionNode, facts, wrapper_name
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._decorators import (
    EXAMPLE_WRAPPER_LIST,
    WrapperList,
    decorator_name,
    wrapper_list,
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
    ``handle_device_shifting``), so a tree is held to its own. Of that list only the
    wrappers whose place can matter count: Ivy's and those the project defines as ``def
    name(fn)`` returning a function (not ``with_unsupported_dtypes``, a class that only
    sets attributes). The message names where the order comes from; it never calls an
    order "documented" (the checker reads code, not a project's documentation). A wrapper
    of the list is looked for only under a name some Ivy era used (the text test and
    ``may_find`` run before the project's list is known).
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

    The fix reorders the known decorators into the order, keeping every
    decorator's comments with it and the unknown decorators in place.
    """

    CODE = "IVY005"
    LOCAL = True
    NEEDS_INDEX = True  # what the project's own wrappers do decides the severity,
    # and the project's own wrapper list which order is right: the index decides findings.
    NAME = "decorator-order"
    MESSAGE = "Wrapping decorators are out of the project's wrapper order; reorder them"
    FIX_SAFETY = FixSafety.SAFE
    # VALID and INVALID: the examples at the end of this module.

    @classmethod
    def is_relevant(cls, source: str, config: Config) -> bool:
        """Only files that mention at least two of the known decorators can misorder them."""
        if "@" not in source:
            return False
        found = 0
        for name in {*config.decorator_order, *DECORATOR_ALIASES, *KNOWN_WRAPPERS}:
            if name in source:
                found += 1
                if found == 2:  # the rest of the names need not be looked for
                    return True
        return False

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, exactly (the helpers, the commuting pairs).
        The order comes from the project (another file, the index), so a file is ruled out
        before the index exists only when no function carries two wrappers any order could
        name (most files of a tree: no index read)."""
        known = {*file.config.decorator_order, *DECORATOR_ALIASES, *KNOWN_WRAPPERS}
        if not any(
            sum(wrapper_name(d) in known for d in function.decorator_list) >= 2
            for function, _ in facts(tree).functions
        ):
            return False
        order = wrapper_list(file.config, file.index).source_order
        return next(_ast_misordered(tree, order), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree. libcst reports the decorator from its ``@`` to
        the end of its expression; CPython's expression starts after the ``@``, which is
        read from the text: ``None`` unless only indentation, the ``@`` and blanks come
        before the expression on its line (a parenthesized ``@(...)`` or an ``@`` ending a
        line with ``\\`` spans otherwise)."""
        lines = Lines(file.source)
        index = file.index
        order = wrapper_list(file.config, index)
        findings: list[AstFinding] = []
        for misordered in _ast_misordered(tree, order.source_order):
            pair = _reported_pair(misordered.names, misordered.misplaced, index)
            decorator = misordered.decorators[pair[1]]
            start = _at_column(lines, decorator)
            if start is None or decorator.end_lineno is None or decorator.end_col_offset is None:
                return None
            api = not misordered.helper and any(s is misordered.function for s in tree.body)
            rewrapped = _rewrapped(misordered.function.name, api, file, order)
            message, severity = _message(misordered.names, pair, index, order, rewrapped)
            findings.append(
                AstFinding(
                    decorator.lineno,
                    start,
                    decorator.end_lineno,
                    lines.column(decorator.end_lineno, decorator.end_col_offset),
                    message,
                    fix_description=_FIX,
                    severity=severity,
                )
            )
        return findings

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        order = wrapper_list(self.context.config, self.context.index)
        slots = _slots(order.source_order)
        known = [(i, d) for i, d in enumerate(node.decorators) if decorator_name(d) in slots]
        names = [decorator_name(d) for _, d in known]
        helper = len(self.context.function_stack) > 1 or _is_private(node.name.value)
        commute = _commuting_pairs(names, _annotated(node.params)) if helper else frozenset()
        misplaced = _misplaced_pairs(names, slots, commute)
        if not misplaced:
            return
        pair = _reported_pair(names, misplaced, self.context.index)
        ordered = sorted(known, key=lambda item: slots[decorator_name(item[1])][0])
        decorators = list(node.decorators)
        for (position, _), (_, decorator) in zip(known, ordered, strict=True):
            decorators[position] = decorator
        api = not helper and any(s is node for s in self.context.module.body)
        rewrapped = _rewrapped(node.name.value, api, self.context, order)
        message, severity = _message(names, pair, self.context.index, order, rewrapped)
        self.report(
            known[pair[1]][1],
            message,
            replacement=node.with_changes(decorators=decorators),
            fix_description=_FIX,
            fix_target=node,
            severity=severity,
        )


_FIX = "Reorder the decorators"


def _reported_pair(
    names: Sequence[str], misplaced: Sequence[tuple[int, int]], index: ProjectIndex
) -> tuple[int, int]:
    """The pair reported: the first whose order changes results, else the first."""
    return next(
        (pair for pair in misplaced if _failure_only(names, pair, index) is None),
        misplaced[0],
    )


def _message(
    names: Sequence[str],
    pair: tuple[int, int],
    index: ProjectIndex,
    order: WrapperList,
    rewrapped: str | None,
) -> tuple[str, Severity | None]:
    """The finding's message and its own severity (``None``: the rule's) for the pair;
    ``rewrapped``: :func:`_rewrapped`'s answer for the function."""
    above, below = pair
    message = f"@{names[below]} must be above @{names[above]} ({order.origin})"
    if rewrapped is not None:
        return f"{message}; {rewrapped}", Severity.WARNING
    failure_only = _failure_only(names, pair, index)
    if failure_only is None:
        return message, None
    return f"{message}; {failure_only}", Severity.WARNING


def _rewrapped(name: str, api: bool, file: FileUnderCheck, order: WrapperList) -> str | None:
    """Why the order written on ``name`` changes nothing once a backend is set (the end of
    a style warning), or ``None`` when it may (``api``: a public module-level function).

    Where the project re-wraps in its list's order (Ivy's ``_wrap_function``, run by
    ``set_backend``), the function a backend implements replaces the API function, wrapped
    in the list's order with the wrappers the API function carries: the order written here
    is used only while no backend is set. That holds for a public module-level function of
    the functional API that every backend of the project implements; a backend without its
    own implementation keeps the API function as written (a compositional function), so
    there the written order is the run-time order."""
    if not (order.rewraps and api and file.part == "functional"):
        return None
    index = file.index
    if index.api_function(name) is None or not index.backends:
        return None
    implemented = index.implementations(name)
    if any(backend not in implemented for backend in index.backends):
        return None
    return (
        "style only: with a backend set, the project re-wraps every backend's "
        f"`{name}` in that order, so the order written here has no run-time effect then"
    )


class _Misordered(NamedTuple):
    """A function whose known decorators are out of order, as CPython's tree holds it."""

    function: FunctionNode
    decorators: list[ast.expr]
    """The known decorators, top to bottom."""
    names: list[str]
    misplaced: list[tuple[int, int]]
    """(above, below) in ``decorators`` of each misplaced pair (:func:`_misplaced_pairs`)."""
    helper: bool
    """Nested or private: wrapped once, by its decorators."""


def _ast_misordered(tree: ast.Module, order: Sequence[str]) -> Iterator[_Misordered]:
    """``DecoratorOrder.visit_FunctionDef`` on CPython's tree, in the order of
    ``facts(tree).functions``: each function with a misplaced pair of known decorators
    (a nested or private one only with a pair that does not commute). The pair reported
    needs the index (:func:`_reported_pair`), which this walk does not read."""
    slots = _slots(order)
    for function, scope in facts(tree).functions:
        if len(function.decorator_list) < 2:
            continue
        decorators = [d for d in function.decorator_list if wrapper_name(d) in slots]
        names = [wrapper_name(d) for d in decorators]
        if len(names) < 2:
            continue
        helper = bool(scope) or _is_private(function.name)
        commute = _commuting_pairs(names, _ast_annotated(function.args)) if helper else frozenset()
        misplaced = _misplaced_pairs(names, slots, commute)
        if misplaced:
            yield _Misordered(function, decorators, names, misplaced, helper)


def _misplaced_pairs(
    names: Sequence[str],
    slots: Mapping[str, tuple[int, int]],
    commute: frozenset[frozenset[str]],
) -> list[tuple[int, int]]:
    """(above, below) indices of each decorator that belongs above an earlier one, in
    source order, skipping pairs whose order cannot change behaviour (``commute``)."""
    return [
        (above, below)
        for below, name in enumerate(names)
        for above in range(below)
        if slots[names[above]][0] > slots[name][1]
        and frozenset((names[above], name)) not in commute
    ]


DEFAULT_FAILURE_ONLY = frozenset({"handle_exceptions"})
"""Wrappers taken to act only on failures when the project does not define them (it imports
``ivy``): Ivy's ``handle_exceptions`` at 975c8fc, ``try: return fn(*args, **kwargs)`` with every
handler re-raising as an Ivy exception. Where the project defines a wrapper, what its own
code does decides (:class:`DecoratorSummary`)."""


def _failure_only(names: Sequence[str], pair: tuple[int, int], index: ProjectIndex) -> str | None:
    """What swapping the pair changes when one of them acts only on failures and the other
    catches nothing raised below it (the end of the message), else ``None``: the order
    then changes results."""
    above, below = names[pair[0]], names[pair[1]]
    if _acts_only_on_failure(below, index) and not _may_catch(above, index):
        return (
            f"in this order no result changes, only errors raised by @{above} itself escape "
            f"as they are instead of re-raised by @{below} as Ivy exceptions"
        )
    if _acts_only_on_failure(above, index) and not _may_catch(below, index):
        return (
            f"in this order no result changes, only errors raised by @{below} itself are "
            f"re-raised by @{above} as Ivy exceptions instead of escaping as they are"
        )
    return None


def _acts_only_on_failure(name: str, index: ProjectIndex) -> bool:
    found = index.decorator(name)
    return found.failure_only if found is not None else name in DEFAULT_FAILURE_ONLY


def _may_catch(name: str, index: ProjectIndex) -> bool:
    """Whether the wrapper may act on what the function below it raises (default, for a
    wrapper the project does not define: no; none of Ivy 975c8fc's other wrappers does)."""
    found = index.decorator(name)
    return found is not None and found.catches and not found.failure_only


def _slots(order: Sequence[str]) -> Mapping[str, tuple[int, int]]:
    """Each known decorator's (first, last) slot; aliases span the slots they stand for."""
    slots = {name: (rank, rank) for rank, name in enumerate(order)}
    for alias, (first, last) in DECORATOR_ALIASES.items():
        if first in slots and last in slots:
            slots[alias] = (slots[first][0], slots[last][1])
    return slots


_INPUTS_ONLY = frozenset({"inputs_to_native_arrays", "inputs_to_ivy_arrays"})
"""Wrappers that convert the arguments and leave the result alone."""
_OUTPUTS_ONLY = frozenset({"outputs_to_ivy_arrays", "outputs_to_native_arrays"})
"""Wrappers that convert the result and leave the arguments alone."""
_ANNOTATION_DRIVEN = frozenset({"handle_array_like_without_promotion"})
"""Wrappers that act only on parameters annotated as arrays: the identity without annotations."""


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _commuting_pairs(names: Collection[str], annotated: bool) -> frozenset[frozenset[str]]:
    """The pairs of the wrappers ``names`` whose order on a function cannot change what it
    does (``annotated``: whether any of its parameters has an annotation)."""
    present = set(names)
    pairs = {
        frozenset((first, second))
        for first in present & _INPUTS_ONLY
        for second in present & _OUTPUTS_ONLY
    }
    if not annotated:
        pairs |= {
            frozenset((identity, other))
            for identity in present & _ANNOTATION_DRIVEN
            for other in present - {identity}
        }
    return frozenset(pairs)


def _annotated(params: cst.Parameters) -> bool:
    """Whether any parameter carries an annotation."""
    return any(
        p.annotation is not None
        for p in (*params.posonly_params, *params.params, *params.kwonly_params)
    ) or any(
        isinstance(p, cst.Param) and p.annotation is not None
        for p in (params.star_arg, params.star_kwarg)
    )


def _ast_annotated(args: ast.arguments) -> bool:
    """:func:`_annotated` on CPython's tree."""
    return any(
        a is not None and a.annotation is not None
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
    )


_AT = re.compile(r"[ \t]*@[ \t]*")
"""What comes before a decorator's expression on its line when libcst's span of it starts
at the ``@``: indentation, the ``@``, blanks."""


def _at_column(lines: Lines, decorator: ast.expr) -> int | None:
    """The code-point column of the ``@`` before ``decorator``, or ``None`` when the text
    before the expression on its line is not just indentation, ``@`` and blanks (or the
    line before continues into it)."""
    text = lines.lines[decorator.lineno - 1]
    start = lines.column(decorator.lineno, decorator.col_offset)
    if not _AT.fullmatch(text, 0, start):
        return None
    previous = lines.lines[decorator.lineno - 2] if decorator.lineno > 1 else ""
    if previous.rstrip("\r\n").endswith("\\"):
        return None
    return text.index("@")


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

_API = "ivy/functional/ivy/example.py"

_OWN_LIST = {
    "ivy/func_wrapper.py": EXAMPLE_WRAPPER_LIST,
    "ivy/functional/backends/numpy/elementwise.py": """
        def tan(x, /, *, out=None):
            return x
        """,
}
"""A project with its own wrapper list (another era's) and a NumPy ``tan``."""

DecoratorOrder.VALID = (
    Example(
        """
        @handle_nans
        @handle_exceptions
        @handle_nestable
        @inputs_to_ivy_arrays
        def nanmax(x, /, *, axis=None):
            ...
        """,
    ),
    Example(
        """
        @handle_exceptions
        @handle_nestable
        @handle_out_argument
        @to_native_arrays_and_back
        @handle_device
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
    ),
    Example(
        """
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
        @staticmethod
        @handle_out_argument
        def k(x, *, out=None):
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
        files=_OWN_LIST,
    ),
)
_NESTABLE_OVER_EXCEPTIONS = """
    @handle_nestable
    @handle_exceptions
    def f(x):
        ...
    """
"""``handle_exceptions`` below ``handle_nestable``: against Ivy's order."""

_EXCEPTIONS_OVER_NESTABLE = """
    @handle_exceptions
    @handle_nestable
    def f(x):
        ...
    """
"""The same function in Ivy's order (what the fix writes)."""

_FAILURE_ONLY_WRAPPER = """
import functools


def handle_exceptions(fn):
    @functools.wraps(fn)
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            _reraise(e)

    def _reraise(e):
        raise RuntimeError(str(e))

    return _handle_exceptions
"""
"""A project's own ``handle_exceptions`` that acts only on failures (a helper raises)."""

_FALLBACK_WRAPPER = """
def handle_exceptions(fn):
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError:
            return None

    return _handle_exceptions
"""
"""A project's own ``handle_exceptions`` that turns a failure into a result."""

_CATCHING_NESTABLE = """
def handle_nestable(fn):
    def _handle_nestable(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError:
            return [fn(a, **kwargs) for a in args[0]]

    return _handle_nestable
"""
"""A project's own ``handle_nestable`` that retries per item when the call fails."""

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
    ),
    Example(
        _NESTABLE_OVER_EXCEPTIONS,
        expected=_EXCEPTIONS_OVER_NESTABLE,
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
        _NESTABLE_OVER_EXCEPTIONS,
        expected=_EXCEPTIONS_OVER_NESTABLE,
        files={"ivy/utils/exceptions.py": _FAILURE_ONLY_WRAPPER},
        message="in this order no result changes",
        severity=Severity.WARNING,
        line=2,
        column=1,
    ),
    Example(
        _NESTABLE_OVER_EXCEPTIONS,
        expected=_EXCEPTIONS_OVER_NESTABLE,
        files={"ivy/utils/exceptions.py": _FALLBACK_WRAPPER},
        message=("@handle_exceptions must be above @handle_nestable (Ivy's decorator order)"),
        severity=Severity.ERROR,
        line=2,
        column=1,
    ),
    Example(
        _NESTABLE_OVER_EXCEPTIONS,
        expected=_EXCEPTIONS_OVER_NESTABLE,
        files={
            "ivy/utils/exceptions.py": _FAILURE_ONLY_WRAPPER,
            "ivy/func_wrapper.py": _CATCHING_NESTABLE,
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
        files=_OWN_LIST,
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
        files=_OWN_LIST,
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
    ),
)
