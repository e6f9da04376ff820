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
            "@handle_exceptions\n@handle_nestable\n@handle_out_argument\n"
            "@to_native_arrays_and_back\n@handle_device\n"
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n"
        ),
        Example(
            "@handle_exceptions\n@handle_nestable\n@handle_view\n@handle_out_argument\n"
            "@inputs_to_ivy_arrays\ndef flip(x, /, *, copy=None, out=None):\n    ...\n"
        ),
        Example(
            "@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n"
            "@handle_out_argument\n@outputs_to_ivy_arrays\ndef f(x, *, out=None):\n    ...\n"
        ),
        Example(
            "import ivy\n\n@ivy.func_wrapper.handle_nestable\n@ivy.handle_out_argument\n"
            "@ivy.inputs_to_native_arrays\ndef g(x, *, out=None):\n    ...\n"
        ),
        Example(
            "@handle_exceptions\n@handle_array_like_without_promotion\n@handle_view\n"
            "@inputs_to_ivy_arrays\n@handle_array_function\n@infer_dtype\n@handle_device\n"
            "def h(x, *, copy=None):\n    ...\n"
        ),
        Example("@staticmethod\n@handle_out_argument\ndef k(x, *, out=None):\n    ...\n"),
    )
    INVALID = (
        Example(
            "@to_native_arrays_and_back\n@handle_out_argument\n"
            "def tan(x, /, *, out=None):\n    ...\n",
            path=_API,
            expected=(
                "@handle_out_argument\n@to_native_arrays_and_back\n"
                "def tan(x, /, *, out=None):\n    ...\n"
            ),
        ),
        Example(
            "@handle_out_argument\n@handle_view\ndef flip(x, *, copy=None, out=None):\n    ...\n",
            expected=(
                "@handle_view\n@handle_out_argument\ndef flip(x, *, copy=None, out=None):\n"
                "    ...\n"
            ),
        ),
        Example(
            "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
            expected="@handle_exceptions\n@handle_nestable\ndef f(x):\n    ...\n",
        ),
        Example(
            "# the device goes last\n@handle_device\n# convert arrays\n@inputs_to_ivy_arrays\n"
            "def g(x):\n    ...\n",
            expected=(
                "# the device goes last\n# convert arrays\n@inputs_to_ivy_arrays\n"
                "@handle_device\ndef g(x):\n    ...\n"
            ),
        ),
        Example(
            "@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n"
            "@outputs_to_ivy_arrays\n@handle_out_argument\ndef h(x, *, out=None):\n    ...\n",
            expected=(
                "@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n"
                "@handle_out_argument\n@outputs_to_ivy_arrays\ndef h(x, *, out=None):\n"
                "    ...\n"
            ),
        ),
        Example(
            "class A:\n    @ivy.infer_dtype\n    @ivy.handle_array_function\n"
            "    def m(self, x):\n        ...\n",
            expected=(
                "class A:\n    @ivy.handle_array_function\n    @ivy.infer_dtype\n"
                "    def m(self, x):\n        ...\n"
            ),
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
