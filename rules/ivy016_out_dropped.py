"""IVY016: a functional-API ``out`` that nothing writes."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker import walk
from ivycheck.checker.rule import Example, Rule
from ivycheck.checker.summary import FunctionSummary
from ivycheck.rules.ivy008_out_not_keyword_only import is_private_helper, out_param
from ivycheck.rules.ivy009_out_annotation import wrappers_of
from ivycheck.rules.ivy017_missing_backend import backend_call

_API = "ivy/functional/ivy/statistical.py"
_NUMPY = "ivy/functional/backends/numpy/statistical.py"
_TORCH = "ivy/functional/backends/torch/statistical.py"
_JAX = "ivy/functional/backends/jax/statistical.py"

_COUNT = (
    "@handle_exceptions\n@handle_nestable\n@to_native_arrays_and_back\n"
    "def count_nonzero(x, /, *, axis=None, out=None):\n"
    "    return current_backend(x).count_nonzero(x, axis=axis, out=out)\n"
)
_COUNT_IGNORES = (
    "def count_nonzero(x, /, *, axis=None, out=None):\n    return np.count_nonzero(x)\n"
)
_COUNT_USES = (
    "def count_nonzero(x, /, *, axis=None, out=None):\n"
    "    return torch.count_nonzero(x, dim=axis, out=out)\n"
)


class _OutUses(cst.CSTVisitor):
    """Whether a function body reads ``out`` other than to hand it to the backend."""

    def __init__(self) -> None:
        super().__init__()
        self.forwarded: set[str] = set()
        self.used = False
        self._not_reads: set[cst.Name] = set()

    def visit_Call(self, node: cst.Call) -> None:
        name = backend_call(node)
        for arg in node.args:
            if arg.keyword is not None:
                self._not_reads.add(arg.keyword)
            if (
                name is not None
                and arg.keyword is not None
                and arg.keyword.value == "out"
                and isinstance(arg.value, cst.Name)
                and arg.value.value == "out"
            ):
                self._not_reads.add(arg.value)
                self.forwarded.add(name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_reads.add(node.attr)

    def visit_Param(self, node: cst.Param) -> None:
        self._not_reads.add(node.name)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == "out" and node not in self._not_reads:
            self.used = True


def body_uses_out(node: cst.FunctionDef) -> tuple[bool, set[str]]:
    """(reads ``out`` itself, backend functions it hands ``out`` to)."""
    finder = _OutUses()
    walk.visit(node.body, finder)
    return finder.used, finder.forwarded


def implementation_uses_out(function: FunctionSummary) -> bool:
    """A backend function reads ``out``, or may pass it on through ``**kwargs``."""
    return function.uses_out or (function.has_var_kwargs and not function.takes_out)


class OutDropped(Rule):
    """``out`` that nothing writes: the caller's buffer silently keeps its old contents.

    A functional-API function that takes ``out`` must write into it. Normally
    ``@handle_out_argument`` does: it passes the native buffer to backends that support it
    and calls ``inplace_update(out, result)`` otherwise. Without that decorator, the work is
    left to the function: the API body (when it handles ``out`` itself) or the backend
    implementation that replaces it. When neither reads ``out``, ``f(x, out=o)`` returns the
    result and leaves ``o`` untouched. Real case: ``count_nonzero(x, out=o)`` in Ivy.

    Add ``@handle_out_argument`` (in its documented place, above the array conversions).
    Reported only when the backend implementations are in the run: the message names those
    seen. Mixed functions (``mixed_backend_wrappers``: IVY013), compositional ones (no
    backend implementation: IVY010) and private helpers are left to other rules.
    """

    CODE = "IVY016"
    LOCAL = True
    NAME = "out-dropped"
    MESSAGE = "Nothing writes `out`; add `@handle_out_argument`"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            "@handle_out_argument\n" + _COUNT,
            path=_API,
            files={_NUMPY: _COUNT_IGNORES},
        ),
        Example(_COUNT, path=_API, files={_NUMPY: _COUNT_IGNORES, _TORCH: _COUNT_USES}),
        Example(
            _COUNT + "\n\ncount_nonzero = handle_out_argument(count_nonzero)\n",
            path=_API,
            files={_NUMPY: _COUNT_IGNORES},
        ),
        Example(_COUNT, path=_API),
        Example(
            "def count_nonzero(x, /, *, axis=None, out=None):\n"
            "    ret = current_backend(x).count_nonzero(x, axis=axis)\n"
            "    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n"
            "    return ret\n",
            path=_API,
            files={_NUMPY: _COUNT_IGNORES},
        ),
        Example(
            _COUNT,
            path=_API,
            files={
                _JAX: "def count_nonzero(x, /, *, axis=None, **kwargs):\n"
                "    return _helper(x, **kwargs)\n"
            },
        ),
        Example(
            "def _count(x, /, *, out=None):\n    return current_backend(x).count(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def count(x, /, *, out=None):\n    return np.sum(x)\n"},
        ),
        Example(
            "@handle_partial_mixed_function\ndef f(x, *, out=None):\n"
            "    return ivy.g(x)\n\n\nf.mixed_backend_wrappers = {'to_add': ()}\n",
            path=_API,
            files={_NUMPY: "def f(x, *, out=None):\n    return np.f(x)\n"},
        ),
        Example(
            "def sinc(x, /, *, out=None):\n    return ivy.divide(ivy.sin(x), x)\n",
            path=_API,
            files={_NUMPY: "def sin(x, /, *, out=None):\n    return np.sin(x)\n"},
        ),
    )
    INVALID = (
        Example(_COUNT, path=_API, files={_NUMPY: _COUNT_IGNORES}),
        Example(
            _COUNT,
            path=_API,
            files={_NUMPY: _COUNT_IGNORES, _JAX: _COUNT_IGNORES.replace("np.", "jnp.")},
        ),
        Example(
            "def count_nonzero(x, /, *, axis=None, out=None):\n"
            "    return current_backend(x).count_nonzero(x, axis=axis)\n",
            path=_API,
            files={_NUMPY: _COUNT_IGNORES},
        ),
        Example(
            "@handle_view\n" + _COUNT,
            path=_API,
            files={_TORCH: "def count_nonzero(x, /, *, axis=None, out=None):\n    return x\n"},
        ),
        Example(
            "import ivy\n\n@ivy.handle_nestable\ndef f(x, *, out: Optional[ivy.Array] = None):\n"
            "    return ivy.current_backend(x).f(x, out=out)\n",
            path=_API,
            files={_NUMPY: "def f(x, *, out=None, **kwargs):\n    return np.f(x)\n"},
        ),
        Example(
            _COUNT + "\n\ncount_nonzero = handle_nestable(count_nonzero)\n",
            path=_API,
            files={_NUMPY: _COUNT_IGNORES},
        ),
    )

    def visit_Module(self, node: cst.Module) -> None:
        for statement in node.body:
            if isinstance(statement, cst.FunctionDef):
                self._check(statement, node)

    def _check(self, node: cst.FunctionDef, module: cst.Module) -> None:
        name = node.name.value
        out = out_param(node.params)
        if out is None or is_private_helper(name):
            return
        wrappers = wrappers_of(node, self.context)
        if wrappers & {"handle_out_argument", "handle_partial_mixed_function"}:
            return
        summary = self.context.index.files.get(self.context.relative_path)
        own = summary.functions.get(name) if summary is not None else None
        if own is not None and "mixed_backend_wrappers" in own.attributes:
            return
        used, forwarded = body_uses_out(node)
        if used:
            return
        implementations: dict[str, FunctionSummary] = {}
        for called in sorted({name, *forwarded}):
            for backend, function in self.context.index.implementations(called).items():
                implementations.setdefault(backend, function)
        if not implementations or any(map(implementation_uses_out, implementations.values())):
            return
        seen = ", ".join(sorted(implementations))
        self.report(
            out.name,
            f"`{name}` takes `out` but nothing writes it: no @handle_out_argument, the body "
            f"does not use it and neither do the backend implementations ({seen}); "
            "add @handle_out_argument",
        )
