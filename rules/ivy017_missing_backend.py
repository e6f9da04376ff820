"""IVY017: the functional API delegates to a backend function that no backend defines."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker import walk
from ivycheck.checker.index import ProjectIndex
from ivycheck.checker.rule import Example, Rule, RuleContext
from ivycheck.rules._names import dotted

_API = "ivy/functional/ivy/elementwise.py"
_NUMPY = "ivy/functional/backends/numpy/elementwise.py"
_TORCH = "ivy/functional/backends/torch/elementwise.py"
_TAN = "def tan(x, /, *, out=None):\n    ...\n"


def backend_call(node: cst.Call) -> str | None:
    """``name`` for ``current_backend(...).name(...)`` (also ``ivy.current_backend``)."""
    func = node.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Call):
        return None
    called = dotted(func.value.func)
    if called is None or called.rsplit(".", 1)[-1] != "current_backend":
        return None
    return func.attr.value


class _BackendCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, None] = {}

    def visit_Call(self, node: cst.Call) -> None:
        called = backend_call(node)
        if called is not None:
            self.names[called] = None


class _BackendCallsByFunction:
    """Per file (``RuleContext.memo``): IVY010 and IVY011 both ask for the backend calls of
    every API function's body; one walk per body answers both."""

    def __init__(self, module: cst.Module) -> None:
        self._found: dict[int, tuple[cst.FunctionDef, tuple[str, ...]]] = {}

    def of(self, function: cst.FunctionDef) -> tuple[str, ...]:
        known = self._found.get(id(function))
        if known is None or known[0] is not function:
            collector = _BackendCalls()
            walk.visit(function.body, collector)
            known = self._found[id(function)] = (function, tuple(collector.names))
        return known[1]


def backend_calls_in(function: cst.FunctionDef, context: RuleContext) -> tuple[str, ...]:
    """The names ``function``'s body calls as ``current_backend(...).name(...)``, in order."""
    return context.memo(_BackendCallsByFunction).of(function)


def backends_seen(index: ProjectIndex) -> list[str]:
    """The backends with at least one file in the run (even a file without functions)."""
    return sorted(
        part.removeprefix("backend:") for part in index.parts() if part.startswith("backend:")
    )


class MissingBackend(Rule):
    """``current_backend(x).name(...)`` must name a function that the backends define.

    A primary function of the functional API does its work in the backend in use: Ivy
    looks ``name`` up on the backend module at call time. If no backend defines it (a typo,
    a renamed backend function, an implementation that was never written), every call
    raises ``AttributeError`` at run time, on every backend, and nothing fails earlier:
    imports succeed and the API looks complete.

    Define the function in each backend (``ivy/functional/backends/<name>/``), or fix the
    name. The rule only runs when the checked files include backend code: a run over the
    functional API alone cannot tell, and says nothing. The message names the backends that
    were seen. Backend functions are found by their ``def`` at module level; a backend that
    binds the name otherwise (``tan = np.tan``, ``from numpy import tan``) is not seen.
    """

    CODE = "IVY017"
    LOCAL = True
    NAME = "missing-backend"
    MESSAGE = "No backend defines the function this API function delegates to; define it"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("current_backend",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={_NUMPY: _TAN},
        ),
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_API,
        ),
        Example(
            "import ivy\n\ndef tan(x, /, *, out=None):\n"
            "    return ivy.current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def sin(x):\n    ...\n", _TORCH: _TAN},
        ),
        Example(
            "def sinc(x, /, *, out=None):\n    return ivy.divide(ivy.sin(x), x, out=out)\n",
            path=_API,
            files={_NUMPY: "def sin(x):\n    ...\n"},
        ),
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_NUMPY,
            files={_TORCH: "def sin(x):\n    ...\n"},
        ),
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={"ivy/functional/backends/numpy/experimental/elementwise.py": _TAN},
        ),
        Example(
            "def dev(x):\n    return current_backend(x).dev\n",
            path=_API,
            files={_NUMPY: "def sin(x):\n    ...\n"},
        ),
    )
    INVALID = (
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tann(x, out=out)\n",
            path=_API,
            files={_NUMPY: _TAN},
        ),
        Example(
            "import ivy\n\ndef tan(x, /, *, out=None):\n"
            "    return ivy.current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def sin(x):\n    ...\n", _TORCH: "def sin(x):\n    ...\n"},
        ),
        Example(
            "def count_nonzero(x, /, *, out=None):\n"
            "    return current_backend().count_non_zero(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def count_nonzero(x, /, *, out=None):\n    ...\n"},
        ),
        Example(
            "def f(x):\n    if x is None:\n        return None\n"
            "    return current_backend(x).f_impl(x)\n",
            path=_API,
            files={_NUMPY: "def f(x):\n    ...\n"},
        ),
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def _tan(x):\n    ...\n\n\ntan_alias = _tan\n"},
        ),
        Example(
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
            path=_API,
            files={_NUMPY: "class Backend:\n    def tan(self, x):\n        ...\n"},
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        name = backend_call(node)
        backends = backends_seen(self.context.index)
        if name is None or not backends:
            return
        if self.context.index.implementations(name):
            return
        seen = ", ".join(backends)
        self.report(
            node.func,
            f"`current_backend(...).{name}` is defined by no backend (seen: {seen}); every "
            f"call raises AttributeError: define `{name}` in each backend or fix the name",
        )
