"""Which wrappers a function carries: decorators and ``f = wrapper(f)`` alike.

Ivy wraps a function either with decorators or, at module level, by assignment
(``f = handle_out_argument(f)``); both wrap the same function the same way, so every rule
that asks "is ``f`` wrapped for ``out``/views?" asks :func:`wrappers_of`.
"""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import RuleContext
from ivycheck.rules._names import dotted, module_level_statements

VIEW_DECORATORS = frozenset({"handle_view", "handle_view_indexing"})
"""The wrappers that make a function's result a view of its input (IVY006, IVY011)."""


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
