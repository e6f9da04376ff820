"""The native function a backend function only forwards to (the hot path's shortcut).

Calling ``np.add`` instead of a backend's ``add`` that only returns ``np.add(x1, x2, out=out)``
spares a Python frame and a keyword argument -- a quarter of ``ivy.add``'s cost on 8 elements
-- so :func:`thin_forward` recognises that shape in a backend function's source, and only it.
"""

from __future__ import annotations

import ast
import inspect
import operator
import textwrap
from collections.abc import Callable
from typing import Any, NamedTuple


class Forward(NamedTuple):
    """The native function a backend function only forwards to (see :func:`thin_forward`)."""

    native: Callable[..., Any]
    positional: int
    keywords: frozenset[str]
    out: bool = False
    """The backend function passes ``out=out`` on to ``native`` (so a call with ``out`` may
    take ``native`` too: ``dispatch.out``)."""


def thin_forward(impl: Callable[..., Any]) -> Forward | None:
    """The native function ``impl`` only forwards to, for calls without ``out``.

    ``def add(x1, x2, /, *, out=None): return np.add(x1, x2, out=out)`` called without
    ``out`` is ``np.add(x1, x2)``: calling ``np.add`` directly spares a Python frame and a
    keyword argument, a quarter of ``ivy.add``'s cost on 8 elements. Recognised only in
    exactly that shape: positional parameters passed on in order, keyword-only ones passed
    on by their own name (``dtype=dtype``), a keyword-only ``out=None`` passed on as
    ``out=out`` or not at all, and one ``return`` of a module attribute called so; else
    ``None``. The caller passes exactly ``positional`` arguments and exactly the
    ``keywords`` (a parameter left out would take the native function's default, which may
    not be ``impl``'s).
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(impl)))
    except (OSError, TypeError, SyntaxError):
        return None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef) or len(function.body) != 1:
        return None
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    keyword_only = [a.arg for a in args.kwonlyargs]
    statement = function.body[0]
    if (  # ``return x[query]``: ``operator.getitem``
        names
        and len(names) == 2
        and keyword_only == ["out"]
        and isinstance(statement, ast.Return)
        and isinstance(statement.value, ast.Subscript)
        and [getattr(statement.value.value, "id", None), getattr(statement.value.slice, "id", None)]
        == names
    ):
        return Forward(operator.getitem, 2, frozenset())
    if (
        "out" not in keyword_only
        or args.vararg is not None
        or args.kwarg is not None
        or not isinstance(statement, ast.Return)
        or not isinstance(statement.value, ast.Call)
    ):
        return None
    call = statement.value
    passed = set()
    for keyword in call.keywords:  # each ``name=name``, ``out`` optional
        value = keyword.value
        if keyword.arg is None or not isinstance(value, ast.Name) or value.id != keyword.arg:
            return None
        passed.add(keyword.arg)
    positional = [a.id if isinstance(a, ast.Name) else None for a in call.args]
    if positional != names or passed - {"out"} != set(keyword_only) - {"out"}:
        return None
    dotted: list[str] = []
    func = call.func
    while isinstance(func, ast.Attribute):
        dotted.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or not dotted:
        return None
    native: Any = getattr(impl, "__globals__", {}).get(func.id)
    for attribute in reversed(dotted):
        native = getattr(native, attribute, None)
    if not callable(native):
        return None
    return Forward(native, len(names), frozenset(passed - {"out"}), "out" in passed)
