"""IVY010: a compositional function whose ``out`` handling is dead, or missing."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule
from ivycheck.rules._api_functions import ApiFunction, api_functions
from ivycheck.rules._backends import backend_calls_in, body_uses_out
from ivycheck.rules._decorators import decorator_name

_API = "ivy/functional/ivy/layers.py"
_NUMPY = "ivy/functional/backends/numpy/layers.py"
_LINEAR = (
    "def linear(x, weight, /, *, bias=None, out=None):\n"
    "    return ivy.add(ivy.matmul(x, weight), bias, out=out)\n"
)


def _is_stub(node: cst.FunctionDef) -> bool:
    """A body of only a docstring, ``pass``, ``...`` or ``raise``: a declaration, not code."""
    body = node.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    for statement in statements:
        smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else None
        if smalls is None:
            return False
        for small in smalls:
            if isinstance(small, cst.Pass | cst.Raise):
                continue
            if isinstance(small, cst.Expr) and isinstance(
                small.value, cst.Ellipsis | cst.SimpleString | cst.ConcatenatedString
            ):
                continue
            return False
    return True


class CompositionalOut(Rule):
    """A compositional function handles ``out`` itself, so it must not be wrapped for it.

    Compositional functions are written once, in the functional API, in terms of other API
    functions, and have no backend implementation. They pass ``out`` on themselves
    (``return ivy.add(ivy.matmul(x, w), b, out=out)``). Wrapped with
    ``@handle_out_argument``, they never see it: when ``out`` is given the wrapper calls the
    function without it and then writes the result with ``inplace_update``, so the body's
    own ``out`` handling is dead code and the result is computed into a temporary and
    copied. Remove the decorator.

    The converse is worse: a compositional function that takes ``out``, is not wrapped for
    it and never reads it drops ``out``: ``f(x, out=o)`` returns the result and leaves ``o``
    as it was. Pass ``out`` on to the last API call (or write it with
    ``ivy.inplace_update``).

    A function is compositional when it does not delegate to ``current_backend(...)``, no
    backend in the run defines it, and it is not mixed (``handle_partial_mixed_function``,
    ``mixed_backend_wrappers``). Private helpers and stubs (a body of only a docstring,
    ``...`` or ``raise``) are not checked.
    """

    CODE = "IVY010"
    LOCAL = True
    NAME = "compositional-out"
    MESSAGE = "Compositional function: handle `out` in the body, without `@handle_out_argument`"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    VALID = (
        Example(_LINEAR, path=_API),
        Example("@handle_out_argument\n" + _LINEAR, path=_API, files={_NUMPY: _LINEAR}),
        Example(
            "@handle_out_argument\ndef tan(x, /, *, out=None):\n"
            "    return current_backend(x).tan(x, out=out)\n",
            path=_API,
        ),
        Example(
            "@handle_out_argument\ndef sinc(x, /, *, out=None):\n"
            "    return ivy.divide(ivy.sin(x), x)\n",
            path=_API,
        ),
        Example(
            "def sinc(x, /, *, out=None):\n    ret = ivy.divide(ivy.sin(x), x)\n"
            "    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n"
            "    return ret\n",
            path=_API,
        ),
        Example(
            "@handle_partial_mixed_function\n@handle_out_argument\n" + _LINEAR,
            path=_API,
        ),
        Example("def _linear(x, w, *, out=None):\n    return ivy.matmul(x, w)\n", path=_API),
        Example(
            "def lstsq(a, b, /, *, out=None):\n"
            '    """Least squares (declared here, implemented per backend)."""\n'
            "    raise NotImplementedError\n",
            path=_API,
        ),
        Example(
            "def linear(x, w, *, out=None):\n    return ivy.matmul(x, w)\n",
            path=_API,
            files={_NUMPY: "def linear(x, w, *, out=None):\n    return np.matmul(x, w, out=out)\n"},
        ),
    )
    INVALID = (
        Example("@handle_out_argument\n" + _LINEAR, path=_API),
        Example(
            "import ivy\n\n@ivy.handle_nestable\n@ivy.handle_out_argument\n"
            "@ivy.inputs_to_ivy_arrays\n" + _LINEAR,
            path=_API,
        ),
        Example(_LINEAR + "\n\nlinear = handle_out_argument(linear)\n", path=_API),
        Example(
            "def sinc(x, /, *, out=None):\n    return ivy.divide(ivy.sin(x), x)\n",
            path=_API,
            files={_NUMPY: "def sin(x, /, *, out=None):\n    return np.sin(x, out=out)\n"},
        ),
        Example(
            "@handle_exceptions\n@handle_nestable\n@inputs_to_ivy_arrays\n"
            "def softplus(x, /, *, beta=None, out: Optional[ivy.Array] = None):\n"
            "    ret = ivy.log(ivy.add(ivy.exp(x), 1))\n    return ret\n",
            path=_API,
        ),
        Example(
            "@handle_out_argument\ndef sinc(x, /, *, out=None):\n"
            "    ret = ivy.divide(ivy.sin(x), x)\n"
            "    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n"
            "    return ret\n",
            path=_API,
        ),
    )

    def visit_Module(self, node: cst.Module) -> None:
        for function in api_functions(self.context):
            if function.out is None or _is_stub(function.node):
                continue
            wrappers = function.wrappers
            if "handle_partial_mixed_function" in wrappers or not self._compositional(function):
                continue
            used, _ = body_uses_out(function.node)
            wrapped = "handle_out_argument" in wrappers
            if wrapped and used:
                decorator = next(
                    (
                        d
                        for d in function.node.decorators
                        if decorator_name(d) == "handle_out_argument"
                    ),
                    function.node.name,
                )
                self.report(
                    decorator,
                    f"`{function.name}` is compositional and handles `out` itself, but "
                    "@handle_out_argument calls it without `out`, so that handling is dead; "
                    "remove the decorator",
                )
            elif not wrapped and not used:
                self.report(
                    function.out.name,
                    f"`{function.name}` is compositional and takes `out`, but never uses it, so "
                    "`out` is silently dropped; pass `out=out` to the last API call",
                )

    def _compositional(self, function: ApiFunction) -> bool:
        """No backend call in the body, no backend attribute, no backend implementation."""
        if backend_calls_in(function.node, self.context):
            return False
        if {"mixed_backend_wrappers", "support_native_out"} & function.attributes.keys():
            return False
        return not self.context.index.implementations(function.name)
