"""``ivy.Array``: one class wrapping the native array of the backend in use.

Operators and instance methods defer to the functional API (``ivy.add`` ...), so the wrapper
logic -- ``out``, views, dtype checks -- lives in one place. In-place operators and item
assignment write *into* the array (and through views into their base), as NumPy does, on every
backend; Ivy rebinds instead, which silently leaves the base of a view unchanged.
"""

# mypy: disable-error-code="no-any-return"
# (``inplace_update`` returns its target, typed Any because it may be a container)
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime import views
from ivycheck.runtime.backend_handler import current_backend, prims
from ivycheck.runtime.dtypes import Dtype, as_dtype


class Array:
    """A native array of the current backend in ``._data``.

    ``_geometry`` is set only on an array that is the root of tracked views (see
    ``views.py``): the NumPy buffer whose views describe where each view's elements live.
    """

    __slots__ = ("__weakref__", "_data", "_geometry")
    _data: Any

    def __init__(self, data: Any, /) -> None:
        if isinstance(data, Array):
            data = data._data
        elif not isinstance(data, prims().NATIVE_TYPES):
            data = ivy.asarray(data)._data
        self._data = data
        self._geometry: np.ndarray | None = None

    # -- tracked-view plumbing -------------------------------------------------------------

    def _view_source(self) -> tuple[Array, np.ndarray]:
        """The root that a view of this array indexes, and this array's geometry in it."""
        geometry = getattr(self, "_geometry", None)
        if geometry is None:
            # PyTorch tensors may be non-contiguous native views; the others are contiguous.
            stride = getattr(self._data, "stride", None)
            strides = tuple(stride()) if callable(stride) else None
            geometry = self._geometry = views.root_geometry(self.shape, strides)
        return self, geometry

    # -- properties ------------------------------------------------------------------------

    @property
    def data(self) -> Any:
        """The native array (for a tracked view: its current values)."""
        return self._data

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape as a tuple of ints, whatever the backend's shape type."""
        return prims().shape(self._data)

    @property
    def dtype(self) -> Dtype:
        """The dtype by name (``ivy.float32`` ...)."""
        return as_dtype(prims().dtype_name(self._data))

    @property
    def device(self) -> str:
        """The runtime is CPU-only."""
        return "cpu"

    @property
    def ndim(self) -> int:
        """Number of axes."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return int(np.prod(self.shape))

    @property
    def mT(self) -> Array:
        """Matrix transpose (a view)."""
        return ivy.matrix_transpose(self)

    # -- conversion protocols --------------------------------------------------------------

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        ret = prims().to_numpy(self._data)
        return ret if dtype is None else ret.astype(dtype)

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        data = self._data
        if hasattr(data, "__dlpack__"):
            return data.__dlpack__(*args, **kwargs)
        import tensorflow as tf

        return tf.experimental.dlpack.to_dlpack(data)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    def __repr__(self) -> str:
        values = np.array2string(np.asarray(self), separator=", ", prefix="ivy.array(")
        return f"ivy.array({values}, dtype={self.dtype})"

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self) -> Iterator[Array]:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(np.asarray(self))

    def __float__(self) -> float:
        return float(np.asarray(self))

    def __int__(self) -> int:
        return int(np.asarray(self))

    def __index__(self) -> int:
        return int(np.asarray(self))

    # -- indexing --------------------------------------------------------------------------

    def __getitem__(self, query: Any) -> Array:
        return ivy.get_item(self, query)

    def __setitem__(self, query: Any, val: Any) -> None:
        ivy.set_item(self, query, val)

    # -- operators: all defer to the functional API ------------------------------------------

    def __neg__(self) -> Array:
        return ivy.negative(self)

    def __pos__(self) -> Array:
        return self

    def __abs__(self) -> Array:
        return ivy.abs(self)

    def __add__(self, other: Any) -> Array:
        return ivy.add(self, other)

    def __radd__(self, other: Any) -> Array:
        return ivy.add(other, self)

    def __sub__(self, other: Any) -> Array:
        return ivy.subtract(self, other)

    def __rsub__(self, other: Any) -> Array:
        return ivy.subtract(other, self)

    def __mul__(self, other: Any) -> Array:
        return ivy.multiply(self, other)

    def __rmul__(self, other: Any) -> Array:
        return ivy.multiply(other, self)

    def __truediv__(self, other: Any) -> Array:
        return ivy.divide(self, other)

    def __rtruediv__(self, other: Any) -> Array:
        return ivy.divide(other, self)

    def __mod__(self, other: Any) -> Array:
        return ivy.remainder(self, other)

    def __rmod__(self, other: Any) -> Array:
        return ivy.remainder(other, self)

    def __matmul__(self, other: Any) -> Array:
        return ivy.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Array:
        return ivy.matmul(other, self)

    # In-place operators write the result into this array (and so through a view into its
    # base). ``inplace_update`` checks same_kind casting first: ``int_array += 0.5`` raises,
    # as in NumPy. Not ``out=self``: the result may broadcast differently than ``self``.

    def __iadd__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.add(self, other))

    def __isub__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.subtract(self, other))

    def __imul__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.multiply(self, other))

    def __itruediv__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.divide(self, other))

    def __imod__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.remainder(self, other))

    def __imatmul__(self, other: Any) -> Array:
        return ivy.inplace_update(self, ivy.matmul(self, other))

    # -- instance methods ------------------------------------------------------------------

    def __getattr__(self, name: str) -> Callable[..., Any]:
        """``x.reshape(...)``, ``x.sum(...)`` ...: every functional-API function as a method.

        The method passes ``self`` as the first argument and nothing else: in particular never
        ``out=self`` (IVY012).
        """
        from ivycheck.runtime.func_wrapper import REGISTRY

        if name.startswith("_") or name not in REGISTRY:
            raise AttributeError(f"'Array' object has no attribute {name!r}")
        return functools.partial(getattr(ivy, name), self)


class TrackedView(Array):
    """A view the backend cannot make natively: root, geometry in the root, cached values.

    ``_data`` is computed from the root on read when the root's data object or version has
    changed since the cache was filled; writes go through ``inplace_update``, which scatters
    into the root.
    """

    __slots__ = ("_cache", "_region", "_root", "_src", "_version")

    def __init__(self, root: Array, geometry: np.ndarray, values: Any) -> None:
        self._root = root
        self._geometry = geometry
        self._region: views.Region | None = None
        self._cache = values
        self._src = root._data
        self._version = prims().version(self._src)

    @property
    def _data(self) -> Any:
        root = self._root
        src = root._data
        p = prims()
        if src is not self._src or p.version(src) != self._version:
            self._cache = views.gather(current_backend(), p, src, self.region)
            self._src = src
            self._version = p.version(src)
        return self._cache

    @_data.setter
    def _data(self, value: Any) -> None:
        ivy.inplace_update(self, value)

    @property
    def region(self) -> views.Region:
        """Where this view's elements live in the root (computed once)."""
        if self._region is None:
            root_geometry = getattr(self._root, "_geometry", None)
            assert root_geometry is not None and self._geometry is not None
            self._region = views.region_of(self._geometry, root_geometry)
        return self._region

    def _view_source(self) -> tuple[Array, np.ndarray]:
        assert self._geometry is not None
        return self._root, self._geometry

    def _write(self, val: Any) -> bool:
        """Scatter ``val`` (cast and broadcast to this view) into the root.

        Returns whether the root was written natively (False: the root was rebound).
        """
        root = self._root
        src = root._data
        new = views.scatter(current_backend(), prims(), src, self.region, val)
        if new is not src:
            root._data = new
        self._src = None  # re-read on next access: ``val`` may be someone else's buffer
        return new is src
