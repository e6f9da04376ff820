"""Decorator helpers shared by the rules: how a decorator is named, whatever its spelling."""

from __future__ import annotations

import libcst as cst


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
