"""Which wrappers a function carries: decorators and ``f = wrapper(f)`` alike.

Ivy wraps a function either with decorators or, at module level, by assignment
(``f = handle_out_argument(f)``); both wrap the same function the same way, so every rule
that asks "is ``f`` wrapped for ``out``/views?" asks :func:`wrappers_of`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from ivycheck.checker.rule_api import DECORATOR_ALIASES, Config, ProjectIndex, RuleContext
from ivycheck.rules._names import dotted, module_level_statements


def decorator_name(decorator: cst.Decorator) -> str:
    """``handle_view`` for ``@handle_view``, ``@ivy.handle_view`` and ``@handle_view(...)``."""
    expression = decorator.decorator
    if isinstance(expression, cst.Call):
        expression = expression.func
    if isinstance(expression, cst.Attribute):
        return expression.attr.value
    if isinstance(expression, cst.Name):
        return expression.value
    return ""


def wrapped_by_assignment(module: cst.Module) -> dict[str, list[str]]:
    """Wrappers applied at module level by assignment: ``f = handle_out_argument(f)``."""
    found: dict[str, list[str]] = {}
    for small in module_level_statements(module):
        if (
            isinstance(small, cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.targets[0].target, cst.Name)
            and isinstance(small.value, cst.Call)
            and len(small.value.args) == 1
            and isinstance(small.value.args[0].value, cst.Name)
            and small.value.args[0].value.value == small.targets[0].target.value
        ):
            wrapper = dotted(small.value.func)
            if wrapper is not None:
                name = small.targets[0].target.value
                found.setdefault(name, []).append(wrapper.rsplit(".", 1)[-1])
    return found


def wrappers_of(node: cst.FunctionDef, context: RuleContext) -> set[str]:
    """Every wrapper of a module-level function: decorators and assignments alike.

    The module's assignments are read once per file (``context.memo``), never once per
    function: the cost per function stays constant however many functions the file holds
    (``benchmarks/lsp_latency.py`` checks a document of thousands of functions).
    """
    by_assignment = context.memo(wrapped_by_assignment).get(node.name.value, [])
    return {decorator_name(d) for d in node.decorators} | set(by_assignment)


_DEFAULT_ORDER: tuple[str, ...] = Config(Path()).decorator_order
"""``decorator-order`` when the configuration does not set it."""


@dataclass(frozen=True)
class WrapperList:
    """The decorator order IVY005 holds functions to, and where it comes from."""

    source_order: tuple[str, ...]
    """Top to bottom as written (the first applied sits closest to ``def``)."""
    origin: str
    """For messages: ``the project's FN_DECORATORS order, ivy/func_wrapper.py:15``."""
    rewraps: bool = False
    """The project re-wraps a backend's function in this order when a backend is set
    (Ivy's ``_wrap_function``): the order written on such a function has no effect then."""


def wrapper_list(config: Config, index: ProjectIndex) -> WrapperList:
    """The order of a ``decorator-order`` the configuration sets; else the project's own
    wrapper list (``FN_DECORATORS``, read by :func:`~ivycheck.checker.project.layout.
    wrapper_order`); else Ivy's order as of 975c8fc (the default ``decorator-order``).

    No origin says "documented": the checker reads code, not a project's docs."""
    if config.decorator_order != _DEFAULT_ORDER:
        return WrapperList(config.decorator_order, "the configured decorator-order")
    found = index.wrapper_order()
    if found is None:
        return WrapperList(config.decorator_order, "Ivy's decorator order")
    path, order = found
    return WrapperList(
        tuple(name for name in order.source_order if _wraps(name, index)),
        f"the project's {order.variable} order, {path}:{order.line}",
        rewraps=order.rewraps,
    )


def _wraps(name: str, index: ProjectIndex) -> bool:
    """Whether a name of the project's list is a wrapper whose place can matter: one the
    project defines as ``def name(fn)`` returning a function (:class:`DecoratorSummary`),
    or one of Ivy's. A name the loop cannot apply as a wrapper (2023-03 Ivy lists
    ``with_unsupported_dtypes``, a class taking dtypes that only sets attributes) has
    no place to keep."""
    return name in _DEFAULT_ORDER or name in DECORATOR_ALIASES or index.decorator(name) is not None


def defines_wrappers(index: ProjectIndex) -> bool:
    """Whether the project defines its own function wrappers (it is Ivy, or a fork): then
    only the wrappers it defines exist, and advice may name no other. A project that
    defines none uses Ivy's (``import ivy``), all of which exist."""
    return bool(index.wrapper_paths()) or index.wrapper_order() is not None


def defined(name: str, index: ProjectIndex) -> bool:
    """Whether wrapper ``name`` exists for the project: it defines it, or it defines no
    wrappers of its own (:func:`defines_wrappers`)."""
    return index.decorator(name) is not None or not defines_wrappers(index)


EXAMPLE_WRAPPER_LIST = """
import functools

FN_DECORATORS = [
    "integer_arrays_to_float",
    "outputs_to_ivy_arrays",
    "inputs_to_native_arrays",
    "handle_out_argument",
    "handle_nestable",
    "handle_array_like_without_promotion",
]


def integer_arrays_to_float(fn):
    @functools.wraps(fn)
    def _integer_arrays_to_float(*args, **kwargs):
        return fn(*args, **kwargs)

    return _integer_arrays_to_float


def _wrap_function(key, to_wrap, original):
    for attr in FN_DECORATORS:
        if hasattr(original, attr) and not hasattr(to_wrap, attr):
            to_wrap = getattr(ivy, attr)(to_wrap)
    return to_wrap
"""
"""For the rules' examples: a project's own wrapper module whose list differs from today's
Ivy (an older era's names and places) and re-wraps with it, and which defines no view
wrapper."""
