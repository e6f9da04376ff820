"""IVY016: a functional-API ``out`` that nothing writes."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules import _ast_calls
from ivycheck.rules._ast_compositional import arg_span, reads_out_of
from ivycheck.rules._ast_facts import FunctionNode
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._vocabulary import implementation_uses_out, implementations

_API = "ivy/functional/ivy/statistical.py"
_NUMPY = "ivy/functional/backends/numpy/statistical.py"
_TORCH = "ivy/functional/backends/torch/statistical.py"
_JAX = "ivy/functional/backends/jax/statistical.py"

# Code several examples share (``Example(preamble=...)`` puts it before the example's own).
_COUNT_NONZERO = """
    @handle_exceptions
    @handle_nestable
    @to_native_arrays_and_back
    def count_nonzero(x, /, *, axis=None, out=None):
        return current_backend(x).count_nonzero(x, axis=axis, out=out)
    """
"""The API function ``count_nonzero`` as Ivy had it: nothing wraps it for ``out``."""

_NUMPY_COUNT_NONZERO = """
    def count_nonzero(x, /, *, axis=None, out=None):
        return np.count_nonzero(x)
    """
"""A backend ``count_nonzero`` that ignores ``out``."""


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
    NAME = "out-dropped"
    MESSAGE = "Nothing writes `out`; add `@handle_out_argument`"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            @handle_out_argument
            @handle_exceptions
            @handle_nestable
            @to_native_arrays_and_back
            def count_nonzero(x, /, *, axis=None, out=None):
                return current_backend(x).count_nonzero(x, axis=axis, out=out)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
        ),
        Example(
            _COUNT_NONZERO,
            path=_API,
            files={
                _NUMPY: _NUMPY_COUNT_NONZERO,
                _TORCH: """
                def count_nonzero(x, /, *, axis=None, out=None):
                    return torch.count_nonzero(x, dim=axis, out=out)
                """,
            },
        ),
        Example(
            preamble=_COUNT_NONZERO,
            code="""


            count_nonzero = handle_out_argument(count_nonzero)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
        ),
        Example(_COUNT_NONZERO, path=_API),
        Example(
            """
            def count_nonzero(x, /, *, axis=None, out=None):
                ret = current_backend(x).count_nonzero(x, axis=axis)
                if ivy.exists(out):
                    return ivy.inplace_update(out, ret)
                return ret
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
        ),
        Example(
            _COUNT_NONZERO,
            path=_API,
            files={
                _JAX: """
                def count_nonzero(x, /, *, axis=None, **kwargs):
                    return _helper(x, **kwargs)
                """,
            },
        ),
        Example(
            """
            def _count(x, /, *, out=None):
                return current_backend(x).count(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def count(x, /, *, out=None):
                    return np.sum(x)
                """,
            },
        ),
        Example(
            """
            @handle_partial_mixed_function
            def f(x, *, out=None):
                return ivy.g(x)


            f.mixed_backend_wrappers = {'to_add': ()}
            """,
            path=_API,
            files={
                _NUMPY: """
                def f(x, *, out=None):
                    return np.f(x)
                """,
            },
        ),
        Example(
            """
            def count_nonzero(x, /, *, axis=None, out=None):
                o = out
                return current_backend(x).count_nonzero(x, axis=axis, out=o)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
        ),
        Example(
            """
            def sinc(x, /, *, out=None):
                return ivy.divide(ivy.sin(x), x)
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x, /, *, out=None):
                    return np.sin(x)
                """,
            },
        ),
    )
    INVALID = (
        Example(
            _COUNT_NONZERO,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
            line=4,
            column=39,
            message=(
                "`count_nonzero` takes `out` but nothing writes it: no @handle_out_argument, "
                "the body does not use it and neither do the backend implementations (numpy); "
                "add @handle_out_argument"
            ),
        ),
        Example(
            _COUNT_NONZERO,
            path=_API,
            files={
                _NUMPY: _NUMPY_COUNT_NONZERO,
                _JAX: """
                def count_nonzero(x, /, *, axis=None, out=None):
                    return jnp.count_nonzero(x)
                """,
            },
            line=4,
            column=39,
            message="neither do the backend implementations (jax, numpy)",
        ),
        Example(
            """
            def count_nonzero(x, /, *, axis=None, out=None):
                return current_backend(x).count_nonzero(x, axis=axis)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
            line=1,
            column=39,
        ),
        Example(
            """
            @handle_view
            @handle_exceptions
            @handle_nestable
            @to_native_arrays_and_back
            def count_nonzero(x, /, *, axis=None, out=None):
                return current_backend(x).count_nonzero(x, axis=axis, out=out)
            """,
            path=_API,
            files={
                _TORCH: """
                def count_nonzero(x, /, *, axis=None, out=None):
                    return x
                """,
            },
            line=5,
            column=39,
            message="(torch)",
        ),
        Example(
            """
            import ivy

            @ivy.handle_nestable
            def f(x, *, out: Optional[ivy.Array] = None):
                return ivy.current_backend(x).f(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def f(x, *, out=None, **kwargs):
                    return np.f(x)
                """,
            },
            line=4,
            column=13,
            message="`f` takes `out`",
        ),
        Example(
            preamble=_COUNT_NONZERO,
            code="""


            count_nonzero = handle_nestable(count_nonzero)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
            line=4,
            column=39,
        ),
        Example(
            """
            @handle_nestable(
                1,
            )
            @handle_exceptions
            async def count_nonzero(x, /, *, axis="é", out=None):
                return current_backend(x).count_nonzero(x, axis=axis, out=out)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_COUNT_NONZERO},
            line=5,
            column=44,
        ),
        Example(
            """
            def count_nonzero(x, /, *, axis=None, out=None):
                return current_backend(x).other(x, axis=axis, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def other(x, /, *, axis=None, out=None):
                    return np.count_nonzero(x)
                """,
            },
            line=1,
            column=39,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Reported at ``out``'s name, which CPython's ``arg`` starts with."""
        lines: Lines | None = None
        for function, out, backends in _dropped(tree, file):
            lines = lines or Lines(file.source)
            yield Finding(*arg_span(lines, out), _message(function.name, backends))


def _message(function: str, backends: Iterable[str]) -> str:
    """The finding's message for ``function``, naming the backends whose implementations
    were read."""
    return (
        f"`{function}` takes `out` but nothing writes it: no @handle_out_argument, "
        "the body does not use it and neither do the backend implementations "
        f"({', '.join(sorted(backends))}); add @handle_out_argument"
    )


def _dropped(
    tree: ast.Module, file: FileUnderCheck
) -> Iterator[tuple[FunctionNode, ast.arg, Iterable[str]]]:
    """Each API function reported, with its ``out`` and the backends whose implementations
    were read, in source order: it takes ``out``, no wrapper writes it (neither
    ``handle_out_argument`` nor a mixed function's, decorated or applied by assignment),
    its body reads ``out`` only to hand it to backend calls (:func:`reads_out`), and every
    implementation of those calls the index holds ignores it (:func:`implementation_uses_out`:
    ``**kwargs`` may carry it on, so it counts as a use)."""
    assigned = _ast_calls.wrapped_by_assignment(tree)
    for function in _ast_calls.api_functions(tree):
        found = _ast_calls.out_arg(function)
        if found is None:
            continue
        wrappers = _ast_calls.function_wrappers(tree, function, assigned)
        if wrappers & {"handle_out_argument", "handle_partial_mixed_function"}:
            continue
        used, forwarded = reads_out_of(tree, function)
        if used:
            continue
        # Other files last: a file with no candidate is decided before the index exists.
        if "mixed_backend_wrappers" in _ast_calls.index_attributes(file, function.name):
            continue
        implemented = implementations(file.index, {function.name, *forwarded})
        if implemented and not any(map(implementation_uses_out, implemented.values())):
            yield function, found[0], implemented
