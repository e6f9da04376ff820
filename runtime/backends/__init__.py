"""Backend implementations, one sub-package per framework, imported only when set.

Every backend package exposes the functional API's primary functions (``add``, ``reshape`` ...)
and a ``primitives`` module: the handful of operations in which the frameworks really differ
(how to write in place, how to scatter into a region, what shares memory). Everything else in
the runtime -- ``out`` handling, views, ``inplace_update`` -- is written once against
:class:`Primitives`. That is the "one helper, four backends" rule of DESIGN.md.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from ivycheck.runtime.dtypes import Dtype

Index = tuple[Any, ...]


class Primitives(Protocol):
    """The per-backend table; see ``backends/numpy/primitives.py`` for the reference version."""

    NAME: str
    NATIVE_TYPES: tuple[type, ...]
    NUMPY_VIEWS: bool
    """Every view function returns exactly NumPy's views natively (no tracked views needed)."""
    ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]]
    """The Python exception types a backend's own exception types stand for (TensorFlow's)."""
    NEGATIVE_STEPS: bool
    """Native indexing takes slices with negative steps (for reading and writing)."""

    def native_dtype(self, name: Dtype | str) -> Any: ...
    def dtype_name(self, x: Any) -> str: ...
    def shape(self, x: Any) -> tuple[int, ...]: ...
    def asarray(self, obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any: ...
    def to_numpy(self, x: Any) -> np.ndarray: ...
    def copy(self, x: Any) -> Any: ...
    def cast(self, x: Any, dtype: Dtype | str) -> Any: ...
    def broadcast_to(self, x: Any, shape: tuple[int, ...]) -> Any: ...
    def writable(self, x: Any) -> bool: ...
    def write(self, x: Any, val: Any) -> None: ...
    def set_region(self, x: Any, index: Index, val: Any) -> Any: ...
    def take(self, x: Any, index: Index) -> Any: ...
    def version(self, x: Any) -> object: ...
    def shares_memory(self, a: Any, b: Any) -> bool: ...
    def is_native_view(self, ret: Any, base: Any) -> bool: ...
    def strides(self, x: Any) -> tuple[int, ...] | None: ...
    def to_dlpack(self, x: Any, kwargs: dict[str, Any]) -> Any: ...
    def check_native_out(
        self, fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], *, out: Any
    ) -> bool: ...


BACKENDS = {
    "numpy": ("numpy", "numpy"),
    "torch": ("torch", "torch"),
    "jax": ("jax", "jax jaxlib"),
    "tensorflow": ("tensorflow", "tensorflow-cpu"),
}
"""Backend name -> (module that must be importable, what to ``pip install``)."""


def positions(shape: tuple[int, ...], query: Any) -> Index:
    """Multi-index that ``query`` selects from an array of ``shape``, computed by NumPy.

    Lets a backend without some indexing form (negative steps on PyTorch, integer arrays on
    TensorFlow) gather with NumPy's exact semantics through ``primitives.take``.
    """
    return tuple(np.unravel_index(flat_positions(shape, query), shape))


def plain_query(query: Any) -> Any:
    """``query`` with 0-d integer arrays and slice bounds made Python ints (``operator.index``).

    ``x[a:b]`` with ``a``, ``b`` 0-d arrays is valid in the standard; TensorFlow's slicing
    takes only int32/int64 tensors and ivy arrays not at all.
    """
    if isinstance(query, tuple):
        return tuple(plain_query(q) for q in query)
    if isinstance(query, slice):
        return slice(*(None if v is None else operator.index(v) for v in _bounds(query)))
    if not isinstance(query, (int, bool, type(None), type(Ellipsis))) and _integer_scalar(query):
        return operator.index(query)
    return query


def _bounds(s: slice) -> tuple[Any, Any, Any]:
    return s.start, s.stop, s.step


def _integer_scalar(value: Any) -> bool:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    return shape is not None and len(shape) == 0 and "int" in str(dtype)


def flat_positions(shape: tuple[int, ...], query: Any) -> np.ndarray:
    """Flat (row-major) positions ``query`` selects from an array of ``shape``, in the result's
    shape. Unlike :func:`positions` it also describes what a 0-d array's mask selects."""
    items = query if isinstance(query, tuple) else (query,)
    # Native arrays as NumPy arrays: an empty tensor would otherwise be read as an empty
    # list of integer indices, not as a boolean mask.
    items = tuple(np.asarray(i) if _is_native_array(i) else i for i in items)
    selected: np.ndarray = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[items]
    return selected


def _is_native_array(value: Any) -> bool:
    return hasattr(value, "__array__") and hasattr(value, "shape")


def export(namespace: dict[str, Any], *modules: ModuleType) -> list[str]:
    """Re-export the public functions of a backend's modules from its package; returns names.

    The functional API looks functions up on the package (``current_backend().add``), while
    the code lives in topic modules, as in Ivy's ``backends/<name>/*.py``.
    """
    names = []
    for module in modules:
        for name, value in vars(module).items():
            if callable(value) and not name.startswith("_") and value.__module__ == module.__name__:
                namespace[name] = value
                names.append(name)
    return names


def remembered_defaults(native_dtype: Callable[[Dtype | str], Any]) -> Callable[..., Any]:
    """A backend's ``default_native(*values)``: its native dtype for the standard's default
    dtype of Python values (``functional.creation.default_dtype``: ``arange(8)`` is int64,
    ``full(s, 2.0)`` float32), kept per tuple of the values' types, which is all the answer
    depends on; ``arange`` and ``full`` ask on every call."""
    known: dict[tuple[type, ...], Any] = {}

    def default_native(*values: object) -> Any:
        kinds = tuple(map(type, values))
        native = known.get(kinds)
        if native is None:
            from ivycheck.runtime.functional.creation import default_dtype  # imports backends

            native = known[kinds] = native_dtype(default_dtype(*values))
        return native

    return default_native


def remembered_accumulation(
    native_dtype: Callable[[Dtype | str], Any], name_of: Callable[[Any], str]
) -> Callable[[Any], Any]:
    """A backend's ``accumulation(native)``: the native dtype ``sum``/``prod``/``trace`` of a
    ``native``-dtype array return by default (``functional.statistical.accumulation_dtype``
    of its name, ``name_of(native)``), kept per native dtype, which is all it depends on;
    every ``sum`` and ``trace`` asks, and building a dtype's name costs microseconds."""
    known: dict[Any, Any] = {}

    def accumulation(native: Any) -> Any:
        answer = known.get(native)
        if answer is None:
            from ivycheck.runtime.functional.statistical import accumulation_dtype  # cycle

            answer = known[native] = native_dtype(accumulation_dtype(name_of(native)))
        return answer

    return accumulation


def remembered_dtypes(convert: Callable[[str], Any]) -> Callable[[Dtype | str], Any]:
    """A backend's ``native_dtype``: ``convert`` of a dtype's name, each answer kept.

    Creation functions and promotion ask for a native dtype on every call; the frameworks'
    own lookups (``np.dtype``, ``tf.as_dtype`` ...) cost more than the call being made, and
    their answer for a name never changes.
    """
    known: dict[object, Any] = {}

    def native_dtype(name: Dtype | str) -> Any:
        key = name.name if type(name) is Dtype else name
        native = known.get(key)
        if native is None:
            native = convert(str(name))
            known[key] = native
        return native

    return native_dtype
