"""IVY005: Ivy's wrapping decorators out of their documented order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from ivycheck.checker.rule_api import DECORATOR_ALIASES, Config, Example, FixSafety, Rule
from ivycheck.rules._decorators import decorator_name

_API = "ivy/functional/ivy/example.py"


def _slots(order: Sequence[str]) -> Mapping[str, tuple[int, int]]:
    """Each known decorator's (first, last) slot; aliases span the slots they stand for."""
    slots = {name: (rank, rank) for rank, name in enumerate(order)}
    for alias, (first, last) in DECORATOR_ALIASES.items():
        if first in slots and last in slots:
            slots[alias] = (slots[first][0], slots[last][1])
    return slots


class DecoratorOrder(Rule):
    """Ivy applies its wrappers in a documented order, and the order is behaviour.

    Each wrapper sees the function as the wrappers below it left it: ``handle_out_argument``
    must sit above ``to_native_arrays_and_back`` so that it receives the ``ivy.Array``
    passed as ``out`` (and can write into it) rather than the native buffer; ``handle_view``
    must sit above ``handle_out_argument`` so that a result written to ``out`` is not
    registered as a view; ``handle_nestable`` must be outside the array conversions so that
    it maps over a ``Container`` before anything tries to convert it. Put in another order,
    the decorators still run, and the function silently returns a native array, drops
    ``out``, or fails only for containers.

    The documented order, read top to bottom in source (the first applied sits closest to
    ``def``), is ``decorator-order`` in the configuration. ``to_native_arrays_and_back``
    stands for the ``inputs_to_native_arrays`` ... ``outputs_to_ivy_arrays`` span and
    ``handle_device_shifting`` for ``handle_device``. Decorators not in the list (such as
    ``with_unsupported_dtypes``) are ignored and stay where they are.

    The fix reorders the known decorators into the documented order, keeping every
    decorator's comments with it and the unknown decorators in place.
    """

    CODE = "IVY005"
    LOCAL = True
    NAME = "decorator-order"
    MESSAGE = "Wrapping decorators are out of Ivy's documented order; reorder them"
    FIX_SAFETY = FixSafety.SAFE
    VALID = (
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
    )
    INVALID = (
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
            """
            @handle_nestable
            @handle_exceptions
            def f(x):
                ...
            """,
            expected="""
            @handle_exceptions
            @handle_nestable
            def f(x):
                ...
            """,
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
        ),
    )

    @classmethod
    def is_relevant(cls, source: str, config: Config) -> bool:
        """Only files that mention at least two of the known decorators can misorder them."""
        names = (*config.decorator_order, *DECORATOR_ALIASES)
        return "@" in source and sum(1 for name in names if name in source) >= 2

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        slots = _slots(self.context.config.decorator_order)
        known = [(i, d) for i, d in enumerate(node.decorators) if decorator_name(d) in slots]
        misplaced = self._first_misplaced([decorator_name(d) for _, d in known], slots)
        if misplaced is None:
            return
        above, below = misplaced
        ordered = sorted(known, key=lambda item: slots[decorator_name(item[1])][0])
        decorators = list(node.decorators)
        for (position, _), (_, decorator) in zip(known, ordered, strict=True):
            decorators[position] = decorator
        self.report(
            known[below][1],
            f"@{decorator_name(known[below][1])} must be above "
            f"@{decorator_name(known[above][1])} (Ivy's documented decorator order)",
            replacement=node.with_changes(decorators=decorators),
            fix_description="Reorder the decorators",
            fix_target=node,
        )

    @staticmethod
    def _first_misplaced(
        names: Sequence[str], slots: Mapping[str, tuple[int, int]]
    ) -> tuple[int, int] | None:
        """(above, below) indices of the first decorator that belongs above an earlier one."""
        for below, name in enumerate(names):
            for above in range(below):
                if slots[names[above]][0] > slots[name][1]:
                    return above, below
        return None
