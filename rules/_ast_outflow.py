"""A call given ``out`` and what a ``return`` hands back, on CPython's tree.

The out-flow itself (where ``out`` goes in a function: aliases, dictionaries, helpers,
escapes) is :mod:`ivycheck.rules._ast_out_analysis`; what stands here is what the rules
read of single nodes besides it: one call given ``out`` and what it does with it
(:class:`PlainUse`, the analysis's record of a use), a return handing back a method of a
call given ``out=`` (the value returned is not the buffer written), a literal
``out=None``.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from ivycheck.rules._ast_facts import FunctionNode, statements_below
from ivycheck.rules._vocabulary import OUT, UseKind, describe_use


class PlainUse(NamedTuple):
    """A call given ``out``, and what it does with it: one use the out-flow records (a
    tuple: made for every call given ``out``, where a frozen dataclass sets its fields
    one call each)."""

    call: ast.Call
    kind: UseKind
    callee: str | None
    via: str | None = None
    """The same-file helper ``out=`` went to, if any."""

    def describe(self) -> str:
        """How a message names the call: ```helper` -> `numpy.quantile``` or ```numpy.tan```."""
        return describe_use(self.callee, self.via)


def returns_method_of_call(node: ast.Return) -> bool:
    """``return native(..., out=out).method(...)``: what is returned is not the buffer written."""
    value = node.value
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Call)
        and any(k.arg == OUT for k in value.func.value.keywords)
    )


def first_method_of_call_return(function: FunctionNode) -> ast.Return | None:
    """The first ``return`` in source order, nested functions' included, that hands back a
    method of a call given ``out=``."""
    found = [
        node
        for node in statements_below(function.body)
        if node.__class__ is ast.Return and returns_method_of_call(node)
    ]
    return min(found, key=lambda r: (r.lineno, r.col_offset), default=None)


def literal_out_none(function: FunctionNode) -> bool:
    """A call in the function (nested ones too) given ``out=None`` literally."""
    return any(
        isinstance(node, ast.keyword)
        and node.arg == OUT
        and isinstance(node.value, ast.Constant)
        and node.value.value is None
        for statement in function.body
        for node in ast.walk(statement)
    )
