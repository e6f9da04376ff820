"""IVY011: an API function whose NumPy/PyTorch implementation returns a view, without
``@handle_view``."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Example,
    FileUnderCheck,
    Finding,
    FunctionSummary,
    ProjectIndex,
    Rule,
    Severity,
)
from ivycheck.rules import _ast_calls
from ivycheck.rules._ast_compositional import name_span
from ivycheck.rules._ast_facts import FunctionNode
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._view_functions import VIEW_FUNCTIONS, is_view
from ivycheck.rules._vocabulary import (
    EXAMPLE_WRAPPER_LIST,
    VIEW_DECORATORS,
    defined,
    implementations,
)

INDEXING = "get_item"
"""Basic indexing makes views on NumPy and PyTorch; Ivy's ``get_item`` needs
``@handle_view_indexing`` (the index holds no fact about returned subscripts, so indexing
is recognised by this name)."""

_API = "ivy/functional/ivy/manipulation.py"
_NUMPY = "ivy/functional/backends/numpy/manipulation.py"
_TORCH = "ivy/functional/backends/torch/manipulation.py"
_JAX = "ivy/functional/backends/jax/manipulation.py"

# Code several examples share.
_FLIP = """
    def flip(x, /, *, copy=None, axis=None, out=None):
        return current_backend(x).flip(x, axis=axis, out=out)
    """
"""The API function ``flip``, without ``@handle_view``."""

_NUMPY_FLIP = """
    import numpy as np

    def flip(x, /, *, copy=None, axis=None, out=None):
        return np.flip(x, axis)
    """
"""NumPy's ``flip``: ``np.flip`` returns a view of ``x``."""

_RESHAPE = """
    def reshape(x, shape, *, copy=None, out=None):
        return current_backend(x).reshape(x, shape)
    """
"""The API function ``reshape``, without ``@handle_view``."""

_GET_ITEM = """
    def get_item(x, query, *, copy=None):
        return x.__getitem__(query)
    """
"""``get_item`` as the API and a backend both write it: basic indexing makes a view."""


class ViewWithoutHandleView(Rule):
    """A function that returns a view on NumPy or PyTorch needs ``@handle_view``.

    ``np.flip(x)`` shares memory with ``x``: writing into the result writes into ``x``.
    Ivy promises the same on every backend, and keeps it on JAX and TensorFlow (which have
    no views) by tracking: ``@handle_view`` records the base and the view operation so that
    an in-place update of either reaches the other. Without the decorator the function
    behaves differently per backend: ``y = ivy.flip(x); y += 1`` changes ``x`` on NumPy and
    leaves it alone on JAX, and ``copy=True`` cannot be honoured.

    Add ``@handle_view`` (``@handle_view_indexing`` for ``get_item``, whose basic indexing
    makes views) in its documented place, with a ``copy`` parameter (IVY006). The rule
    reads the NumPy and PyTorch implementations in the project: one that returns a view
    of an ARGUMENT makes the function a view function. A returned value is a view of an
    argument when a chain of view operations leads from a parameter to it: native view
    functions through their first argument (``numpy.reshape``, ``numpy.flip``,
    ``torch.permute``... ``VIEW_FUNCTIONS`` in this module, with its sources), view
    methods and attributes (``x.reshape(s)``, ``x.T``: ``VIEW_LINKS``) and basic
    subscripts (``x[0, 1:]``), also through local names (``y = np.reshape(x, s);
    return y.T``). A transpose or flip of an array the function computed
    (``np.transpose(conv_result)``, ``np.flip(np.cumprod(np.flip(x)))``) is a new array
    and makes no view; so is anything after ``.copy()`` or advanced indexing. A name
    rebound to a computed value (``x = np.cumprod(x)``) no longer leads to the argument.
    ``torch.flip`` is not a view: PyTorch copies. Functions with ``copy`` but no view
    semantics (``asarray``, ``astype``) return no view and are not reported.

    Judgement call: a view returned on a shortcut path only (``diagflat`` of a
    one-element array returns ``np.ravel(x)``) is reported, because the backends then
    differ on that input as the rule describes; the better fix there may be a copy on
    that path rather than ``@handle_view``.
    """

    CODE = "IVY011"
    NAME = "view-without-handle-view"
    MESSAGE = "Returns a view on NumPy/PyTorch but lacks `@handle_view`; add it"
    PARTS = frozenset({"functional"})
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            @handle_view
            def flip(x, /, *, copy=None, axis=None, out=None):
                return current_backend(x).flip(x, axis=axis, out=out)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_FLIP},
        ),
        Example(_FLIP, path=_API),
        Example(
            _FLIP,
            path=_API,
            files={
                _TORCH: """
                import torch

                def flip(x, /, *, copy=None, axis=None, out=None):
                    return torch.flip(x, axis)
                """,
            },
        ),
        Example(
            """
            @handle_view_indexing
            def get_item(x, query, *, copy=None):
                return x.__getitem__(query)
            """,
            path=_API,
            files={_NUMPY: _GET_ITEM},
        ),
        Example(
            """
            def asarray(obj, /, *, copy=None, dtype=None):
                return current_backend().asarray(obj, copy=copy, dtype=dtype)
            """,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def asarray(obj, /, *, copy=None, dtype=None):
                    return np.asarray(obj, dtype=dtype)
                """,
            },
        ),
        Example(
            """
            def flip(x, /, *, copy=None, axis=None, out=None):
                return current_backend(x).flip(x, axis=axis, out=out)


            flip = handle_view(flip)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_FLIP},
        ),
        Example(
            """
            @handle_exceptions
            @handle_nestable
            @handle_array_like_without_promotion
            @handle_view
            @handle_out_argument
            @to_native_arrays_and_back
            @handle_array_function
            @handle_device
            def flip(x, /, *, copy=None, axis=None, out=None):
                return current_backend(x).flip(x, axis=axis, out=out)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_FLIP},
        ),
        Example(
            _FLIP,
            path=_API,
            files={
                _JAX: """
                import jax.numpy as jnp

                def flip(x, /, *, copy=None, axis=None, out=None):
                    return jnp.flip(x, axis)
                """,
            },
        ),
        Example(
            _RESHAPE,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def reshape(x, shape, *, copy=None, out=None):
                    return np.reshape(x, shape).copy()
                """,
            },
        ),
        Example(
            """
            def conv2d(x, filters, strides, padding, /, *, data_format="NHWC", out=None):
                return current_backend(x).conv2d(x, filters, strides, padding)
            """,
            path="ivy/functional/ivy/layers.py",
            files={
                "ivy/functional/backends/numpy/layers.py": """
                import numpy as np

                def conv2d(x, filters, strides, padding, /, *, data_format="NHWC", out=None):
                    windows = np.lib.stride_tricks.sliding_window_view(x, filters.shape[:2], (1, 2))
                    res = np.sum(windows[..., None] * filters, (3, 4, 5))
                    if data_format == "NCHW":
                        return np.transpose(res, (0, 3, 1, 2))
                    return res
                """,
            },
        ),
        Example(
            """
            def cumprod(x, /, *, axis=0, reverse=False, out=None):
                return current_backend(x).cumprod(x, axis=axis, reverse=reverse, out=out)
            """,
            path="ivy/functional/ivy/statistical.py",
            files={
                "ivy/functional/backends/numpy/statistical.py": """
                import numpy as np

                def cumprod(x, /, *, axis=0, reverse=False, out=None):
                    if not reverse:
                        return np.cumprod(x, axis, out=out)
                    x = np.cumprod(np.flip(x, axis=axis), axis=axis)
                    return np.flip(x, axis=axis)
                """,
            },
        ),
        Example(
            """
            def cross(x1, x2, /, *, axis=-1, out=None):
                return current_backend(x1).cross(x1, x2, axis=axis, out=out)
            """,
            path="ivy/functional/ivy/linear_algebra.py",
            files={
                "ivy/functional/backends/torch/linear_algebra.py": """
                import torch

                def cross(x1, x2, /, *, axis=-1, out=None):
                    x1, x2 = ivy.promote_types_of_inputs(x1, x2)
                    x1 = torch.transpose(x1, axis, 1)
                    return torch.transpose(torch.linalg.cross(input=x1, other=x2[...]), 0, 1)
                """,
            },
        ),
        Example(
            """
            def take_rows(x, indices, /, *, out=None):
                return current_backend(x).take_rows(x, indices)
            """,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def take_rows(x, indices, /, *, out=None):
                    rows = x[indices]
                    return np.transpose(rows).reshape(-1)
                """,
            },
        ),
    )
    INVALID = (
        Example(
            """
            @handle_exceptions
            def flat_diag(x, /, *, out=None):
                return current_backend(x).flat_diag(x, out=out)
            """,
            files={
                "ivy/functional/backends/numpy/linalg.py": """
                import math

                import numpy as np


                def flat_diag(x, /, *, out=None):
                    x = np.ravel(x)
                    if math.prod(x.shape) == 1:
                        return x
                    return np.diag(x)
                """,
            },
            message="returns a view on empty, 0-d or single-element input only",
            severity=Severity.WARNING,
            line=2,
            column=5,
        ),
        Example(_FLIP, path=_API, files={_NUMPY: _NUMPY_FLIP}, line=1, column=5),
        Example(
            """
            def permute_dims(x, axes, *, copy=None, out=None):
                return current_backend(x).permute_dims(x, axes)
            """,
            path=_API,
            files={
                _TORCH: """
                from torch import permute as tperm

                def permute_dims(x, axes, *, copy=None, out=None):
                    return tperm(x, axes)
                """,
            },
            line=1,
            column=5,
        ),
        Example(_GET_ITEM, path=_API, files={_TORCH: _GET_ITEM}, line=1, column=5),
        Example(
            """
            @handle_view
            def get_item(x, query, *, copy=None):
                return x.__getitem__(query)
            """,
            path=_API,
            files={_NUMPY: _GET_ITEM},
            line=2,
            column=5,
        ),
        Example(
            _RESHAPE,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def reshape(x, shape, *, copy=None, out=None):
                    if copy:
                        return np.reshape(x.copy(), shape)
                    return np.reshape(x, shape)
                """,
            },
            line=1,
            column=5,
        ),
        Example(
            """
            @handle_exceptions
            @handle_out_argument
            @to_native_arrays_and_back
            def matrix_transpose(x, /, *, conjugate=False, out=None):
                return current_backend(x).matrix_transpose(x, conjugate=conjugate)
            """,
            path="ivy/functional/ivy/linear_algebra.py",
            files={
                "ivy/functional/backends/numpy/linear_algebra.py": """
                import numpy

                def matrix_transpose(x, /, *, conjugate=False, out=None):
                    return numpy.swapaxes(x, -1, -2)
                """,
            },
            line=4,
            column=5,
        ),
        Example(
            """
            def swap_flat(x, shape, /, *, out=None):
                return current_backend(x).swap_flat(x, shape)
            """,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def swap_flat(x, shape, /, *, out=None):
                    y = np.reshape(x, shape)
                    return y.T
                """,
            },
            line=1,
            column=5,
        ),
        Example(
            """
            def last_plane(x, /, *, out=None):
                return current_backend(x).last_plane(x)
            """,
            path=_API,
            files={
                _TORCH: """
                import torch

                def last_plane(x, /, *, out=None):
                    planes = x.permute(2, 0, 1)
                    return torch.transpose(planes[-1, :, 1:], 0, 1)
                """,
            },
            line=1,
            column=5,
        ),
        Example(
            _RESHAPE,
            path=_API,
            files={
                _NUMPY: """
                import numpy as np

                def reshape(x, shape, *, copy=None, out=None):
                    if copy:
                        x = np.copy(x)
                    return np.reshape(x, shape)
                """,
            },
            line=1,
            column=5,
        ),
        Example(
            _FLIP,
            path=_API,
            files={_NUMPY: _NUMPY_FLIP, "ivy/func_wrapper.py": EXAMPLE_WRAPPER_LIST},
            message=(
                "but lacks @handle_view, so JAX/TensorFlow behave differently; the project "
                "defines no @handle_view to add (no view tracking on JAX/TensorFlow)"
            ),
            line=1,
            column=5,
        ),
        Example(
            r"""
            def \
                flip(x, /, *, copy=None, axis=None, out=None):
                return current_backend(x).flip(x, axis=axis, out=out)
            """,
            path=_API,
            files={_NUMPY: _NUMPY_FLIP},
            message="`flip` returns a view (numpy: numpy.flip) but lacks @handle_view",
            line=2,
            column=5,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Reported at the function's name."""
        lines: Lines | None = None
        for function, found in _views(tree, file):
            lines = lines or Lines(file.source)
            message, severity = _finding(function.name, found, file.index)
            yield Finding(*name_span(lines, function), message, severity=severity)


def _needs_view_wrapper(name: str, wrappers: set[str], found: dict[str, FunctionSummary]) -> bool:
    """Whether API function ``name``, wrapped with ``wrappers``, needs a view wrapper it
    lacks: ``get_item`` always (basic indexing), any other one when a NumPy/PyTorch
    implementation in ``found`` returns a view of an argument."""
    if name == INDEXING:
        return "handle_view_indexing" not in wrappers
    if wrappers & VIEW_DECORATORS:
        return False
    return any(
        is_view(chain, backend)
        for backend, implementation in found.items()
        for chain in implementation.argument_chains
    )


def _finding(
    name: str, found: dict[str, FunctionSummary], index: ProjectIndex
) -> tuple[str, Severity | None]:
    """The message and the finding's own severity (``None``: the rule's) for ``name``,
    which :func:`_needs_view_wrapper` says needs a view wrapper. The advice names the
    wrapper only where the project has it (:func:`defined`): a project that defines its
    wrappers but no view wrapper (Ivy of late 2022) is told what differs, not to add a
    decorator that does not exist."""
    if name == INDEXING:
        return (
            f"`{name}` indexes, and basic indexing returns views on "
            f"{', '.join(sorted(found))}; {_advice('handle_view_indexing', index)}",
            None,
        )
    views = [
        (f"{backend}: {_describe(chain)}", chain in implementation.degenerate_chains)
        for backend, implementation in sorted(found.items())
        for chain in implementation.argument_chains
        if is_view(chain, backend)
    ]
    only_degenerate = all(degenerate for _, degenerate in views)
    when = " on empty, 0-d or single-element input only" if only_degenerate else ""
    return (
        f"`{name}` returns a view{when} ({'; '.join(v for v, _ in views)}) but lacks "
        f"@handle_view, so JAX/TensorFlow behave differently; {_advice('handle_view', index)}",
        Severity.WARNING if only_degenerate else None,
    )


def _advice(wrapper: str, index: ProjectIndex) -> str:
    """``add @handle_view (and `copy`)`` where the project has the wrapper, else what is
    missing."""
    if defined(wrapper, index):
        return f"add @{wrapper}" + (" (and `copy`)" if wrapper == "handle_view" else "")
    return f"the project defines no @{wrapper} to add (no view tracking on JAX/TensorFlow)"


def _views(
    tree: ast.Module, file: FileUnderCheck
) -> Iterator[tuple[FunctionNode, dict[str, FunctionSummary]]]:
    """Each API function the check reports, with its NumPy/PyTorch implementations (of its
    own name or of a name it hands to ``current_backend(...)``), in source order."""
    assigned: dict[str, list[str]] | None = None
    for function in _ast_calls.api_functions(tree):
        names = {function.name, *_ast_calls.backend_calls_in(tree, function)}
        found = {
            backend: implementation
            for backend, implementation in implementations(file.index, names).items()
            if backend in VIEW_FUNCTIONS
        }
        if not found:
            continue
        if assigned is None:
            assigned = _ast_calls.wrapped_by_assignment(tree)
        wrappers = _ast_calls.function_wrappers(tree, function, assigned)
        if _needs_view_wrapper(function.name, wrappers, found):
            yield function, found


def _describe(chain: tuple[str, ...]) -> str:
    """``numpy.swapaxes`` for one native call; ``.T of numpy.reshape`` for a chain."""
    return " of ".join(
        link if link != FunctionSummary.BASIC_INDEX else "[...]" for link in reversed(chain)
    )
