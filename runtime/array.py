"""``ivy.Array``: one class wrapping the native array of the backend in use.

Operators and instance methods defer to the functional API (``ivy.add`` ...), so the wrapper
logic -- ``out``, views, dtype checks -- lives in one place. ``Array`` lies below the
functional API (every dispatcher wraps results in it), so it finds the functions by name in
the registry the decorators fill (``dispatch.registry``) when called, never by importing
them; the binary operators are all built by :func:`_binary` from one table of names. In-place operators and item
assignment write *into* the array (and through views into their base), as NumPy does, on every
backend; Ivy rebinds instead, which silently leaves the base of a view unchanged.
"""

# mypy: disable-error-code="no-any-return"
# (``inplace_update`` returns its target, typed Any because it may be a container)
from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ivycheck.runtime import views
from ivycheck.runtime.backend_state import current_backend, prims
from ivycheck.runtime.dispatch.registry import REGISTRY
from ivycheck.runtime.dtypes import SCALAR_TYPES, Dtype, as_dtype, result_type
from ivycheck.runtime.exceptions import InplaceUpdateException, IvyValueError
from ivycheck.runtime.speedups import SPEEDUPS


def _is_operand(other: Any) -> bool:
    return isinstance(other, (Array, *SCALAR_TYPES, *prims().NATIVE_TYPES))


def _binary(
    name: str,
) -> tuple[Callable[[Array, Any], Any], Callable[[Array, Any], Any], Callable[[Array, Any], Any]]:
    """The forward, reflected and in-place operator methods of the function ``name``."""

    def forward(self: Array, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return REGISTRY[name](self, other)

    def reflected(self: Array, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return REGISTRY[name](other, self)

    def inplace(self: Array, other: Any) -> Any:
        # The standard's rule: ``x op= y`` must not change x's dtype (the promoted dtype is
        # x's) nor its shape. Both are checked, and the result computed, before anything is
        # written -- into this array and through a view into its base -- so a failure leaves
        # everything unchanged. ``inplace_update`` casts the result (``same_kind``) in case a
        # backend function computed it in a wider dtype.
        if not _is_operand(other):
            return NotImplemented
        promoted = result_type(self, other)
        if promoted != self.dtype:
            raise InplaceUpdateException(
                f"x {_SYMBOLS[name]}= y: x is {self.dtype} and the operands promote to "
                f"{promoted}; an in-place operator cannot change the dtype"
            )
        result = REGISTRY[name](self, other)
        if result.shape != self.shape:
            raise InplaceUpdateException(
                f"x {_SYMBOLS[name]}= y: the result has shape {result.shape}, x has "
                f"{self.shape}; an in-place operator cannot change the shape"
            )
        return REGISTRY["inplace_update"](self, result)

    for method, prefix in ((forward, ""), (reflected, "r"), (inplace, "i")):
        method.__name__ = method.__qualname__ = f"__{prefix}{_DUNDER[name]}__"
        method.__doc__ = f"``{_SYMBOLS[name]}`` by ``ivy.{name}``."
    return forward, reflected, inplace


def _unary(name: str, symbol: str) -> Callable[[Array], Any]:
    def unary(self: Array) -> Any:
        return REGISTRY[name](self)

    unary.__name__ = unary.__qualname__ = f"__{_UNARY_DUNDER[name]}__"
    unary.__doc__ = f"``{symbol}x`` by ``ivy.{name}``."
    return unary


_UNARY_DUNDER = {"negative": "neg", "positive": "pos", "abs": "abs", "bitwise_invert": "invert"}


def _comparison(name: str) -> Callable[[Array, Any], Any]:
    def compare(self: Array, other: Any) -> Any:
        if not _is_operand(other):
            return NotImplemented
        return REGISTRY[name](self, other)

    compare.__name__ = compare.__qualname__ = f"__{_DUNDER[name]}__"
    compare.__doc__ = f"Elementwise ``{_SYMBOLS[name]}`` by ``ivy.{name}`` (a bool array)."
    return compare


_DUNDER = {
    "add": "add",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "truediv",
    "floor_divide": "floordiv",
    "remainder": "mod",
    "pow": "pow",
    "matmul": "matmul",
    "bitwise_and": "and",
    "bitwise_or": "or",
    "bitwise_xor": "xor",
    "bitwise_left_shift": "lshift",
    "bitwise_right_shift": "rshift",
    "equal": "eq",
    "not_equal": "ne",
    "less": "lt",
    "less_equal": "le",
    "greater": "gt",
    "greater_equal": "ge",
}
_SYMBOLS = {
    "add": "+",
    "subtract": "-",
    "multiply": "*",
    "divide": "/",
    "floor_divide": "//",
    "remainder": "%",
    "pow": "**",
    "matmul": "@",
    "bitwise_and": "&",
    "bitwise_or": "|",
    "bitwise_xor": "^",
    "bitwise_left_shift": "<<",
    "bitwise_right_shift": ">>",
    "equal": "==",
    "not_equal": "!=",
    "less": "<",
    "less_equal": "<=",
    "greater": ">",
    "greater_equal": ">=",
}


class ArrayType(type):
    """The class of ``Array``: ``Array(data)``, the public constructor, is its ``__call__``.

    ``Array`` itself has no ``__init__`` (nor ``__new__``), so that :data:`bare_array` -- the
    ``type.__call__`` of ``Array``, bound once -- makes a bare instance in C: the object
    allocated, no Python frame and no argument tuple. Every function result is wrapped so,
    and it costs about two thirds of ``object.__new__(Array)``, whose argument parsing and
    subtype checks are a tenth of a small NumPy call (``benchmarks/runtime_overhead.py``).
    A subclass with an ``__init__`` of its own (``TrackedView``) is constructed as any class
    is; one without is constructed as ``Array`` is.
    """

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is not Array and any("__init__" in vars(c) for c in cls.__mro__[:-1]):
            return super().__call__(*args, **kwargs)
        return _construct(cls, *args, **kwargs)


def _get_item(self: Array, query: Any) -> Array:
    """``x[query]`` by ``ivy.get_item``, found by name (it lies above this module)."""
    return REGISTRY["get_item"](self, query)


def _construct(cls: ArrayType, data: Any, /) -> Array:
    """``cls(data)``: an array, a native array, or anything ``asarray`` takes."""
    if isinstance(data, Array):
        data = data._data
    elif not isinstance(data, prims().NATIVE_TYPES):
        data = REGISTRY["asarray"](data)._data
    new = bare_array() if cls is Array else type.__call__(cls)
    new._data = data
    new._geometry = None
    return new


if TYPE_CHECKING:
    _Storage = object
else:  # ``_data``, ``_geometry`` and ``x[key]`` in C where built (``speedups.py``)
    _Storage = object if SPEEDUPS is None else SPEEDUPS.ArrayBase


class Array(_Storage, metaclass=ArrayType):
    """A native array of the current backend in ``._data``.

    ``_geometry`` is set only on an array that is the root of tracked views (see
    ``views.py``): the NumPy buffer whose views describe where each view's elements live.
    Constructed by ``Array(data)`` (:class:`ArrayType`), or bare by :data:`bare_array` with
    ``_data`` set next (the dispatcher's results: nothing to check). With the C paths
    (``speedups.py``) the three slots are ``_speedups.ArrayBase``'s, which also answers
    ``x[key]`` (:func:`use_item_method`).
    """

    __slots__ = ("__weakref__", "_data", "_geometry") if SPEEDUPS is None else ()
    _data: Any
    _geometry: np.ndarray | None

    if TYPE_CHECKING:

        def __init__(self, data: Any, /) -> None: ...

    # -- tracked-view plumbing -------------------------------------------------------------

    def _view_source(self) -> tuple[Array, np.ndarray]:
        """The root that a view of this array indexes, and this array's geometry in it.

        The geometry is made once, under the root's lock: a view's geometry is a NumPy view
        of this buffer and its region is read against ``_geometry`` later, so two threads
        taking their first views at once must not each make (and set) a buffer of their
        own -- the loser's views pointed into a buffer the root no longer had, and its
        writes scattered to garbage positions (TensorFlow: "index -1404792 is out of
        bounds") or, in range, into other elements.
        """
        geometry = getattr(self, "_geometry", None)
        if geometry is None:
            with views.root_lock(self):
                geometry = getattr(self, "_geometry", None)
                if geometry is None:
                    # A native view may be non-contiguous (a transposed PyTorch tensor).
                    strides = prims().strides(self._data)
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
        """Matrix transpose of the last two axes (a view)."""
        return REGISTRY["matrix_transpose"](self)

    @property
    def T(self) -> Array:
        """Transpose of a 2-d array (a view); the standard defines it for 2-d arrays only."""
        if self.ndim != 2:
            raise IvyValueError(f"x.T needs a 2-d array, got {self.ndim}-d; use x.mT")
        return REGISTRY["permute_dims"](self, (1, 0))

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """The runtime is CPU-only: ``"cpu"`` returns the array itself."""
        if device not in (None, "cpu"):
            raise IvyValueError(f"to_device: unknown device {device!r}; the runtime has 'cpu'")
        return self

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        """The namespace whose functions accept this array: ``ivycheck.runtime``."""
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise IvyValueError(f"unsupported Array API version {api_version!r}")
        # The package is imported before any of its modules (this one included): the
        # namespace is read from ``sys.modules`` rather than imported, which would be a cycle.
        return sys.modules["ivycheck.runtime"]

    # -- copy and pickle ---------------------------------------------------------------------

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """The set slots, ``_data`` and ``_geometry`` first: with the C paths those two are
        ``ArrayBase``'s, in no ``__slots__``, where ``copy`` and ``pickle`` would not look."""
        slots = [n for c in type(self).__mro__ for n in c.__dict__.get("__slots__", ())]
        names = dict.fromkeys(["_data", "_geometry", *slots])
        names.pop("__weakref__", None)
        return None, {n: getattr(self, n) for n in names if hasattr(self, n)}

    # -- conversion protocols --------------------------------------------------------------

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        ret = prims().to_numpy(self._data)
        return ret if dtype is None else ret.astype(dtype)

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """DLPack capsule of the native buffer (the backend's own exporter; ``copy=True``
        exports a copy). Only the arguments given are passed on: exporters differ in what
        they accept, and ``None`` is every argument's default."""
        given = {"stream": stream, "max_version": max_version, "dl_device": dl_device}
        kwargs = {k: v for k, v in given.items() if v is not None}
        data = prims().copy(self._data) if copy else self._data
        return prims().to_dlpack(data, kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(kDLCPU, 0)``: every backend runs on the CPU."""
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

    def _scalar(self, kinds: str, what: str) -> Any:
        """The one element of a 0-d (or one-element) array as a NumPy scalar."""
        value = np.asarray(self)
        if value.size != 1:
            raise TypeError(f"only one-element arrays can be converted to {what}")
        if value.dtype.kind not in kinds:
            raise TypeError(f"{what}() of a {self.dtype} array")
        return value.reshape(()).item()

    def __bool__(self) -> bool:
        return bool(self._scalar("biufc", "bool"))

    def __complex__(self) -> complex:
        return complex(self._scalar("biufc", "complex"))

    def __float__(self) -> float:
        return float(self._scalar("biuf", "float"))

    def __int__(self) -> int:
        return int(self._scalar("biuf", "int"))

    def __index__(self) -> int:
        return int(self._scalar("iu", "index"))

    # -- indexing --------------------------------------------------------------------------

    # Replaced by ``ivy.get_item``'s own method once it exists (``OPERATOR_FUNCTIONS``):
    # ``x[q]`` then costs one inlined Python frame, not two and a registry lookup. With the
    # C paths, ``ArrayBase`` answers it (configured below and by :func:`use_item_method`).
    if TYPE_CHECKING:

        def __getitem__(self, query: Any, /) -> Any: ...

    elif SPEEDUPS is None:
        __getitem__ = _get_item

    def __setitem__(self, query: Any, val: Any) -> None:
        REGISTRY["set_item"](self, query, val)

    # -- operators: all defer to the functional API ------------------------------------------
    # Looked up on the runtime module at call time: the standard's function names, whatever
    # backend is set. An operand that is neither an array nor a Python scalar gives
    # NotImplemented, so Python tries the other operand's reflected method.

    __hash__ = object.__hash__  # identity, as torch.Tensor: ``==`` is elementwise

    __neg__ = _unary("negative", "-")
    __pos__ = _unary("positive", "+")
    __abs__ = _unary("abs", "abs")
    __invert__ = _unary("bitwise_invert", "~")

    __add__, __radd__, __iadd__ = _binary("add")
    __sub__, __rsub__, __isub__ = _binary("subtract")
    __mul__, __rmul__, __imul__ = _binary("multiply")
    __truediv__, __rtruediv__, __itruediv__ = _binary("divide")
    __floordiv__, __rfloordiv__, __ifloordiv__ = _binary("floor_divide")
    __mod__, __rmod__, __imod__ = _binary("remainder")
    __pow__, __rpow__, __ipow__ = _binary("pow")
    __matmul__, __rmatmul__, __imatmul__ = _binary("matmul")
    __and__, __rand__, __iand__ = _binary("bitwise_and")
    __or__, __ror__, __ior__ = _binary("bitwise_or")
    __xor__, __rxor__, __ixor__ = _binary("bitwise_xor")
    __lshift__, __rlshift__, __ilshift__ = _binary("bitwise_left_shift")
    __rshift__, __rrshift__, __irshift__ = _binary("bitwise_right_shift")
    __eq__ = _comparison("equal")
    __ne__ = _comparison("not_equal")
    __lt__ = _comparison("less")
    __le__ = _comparison("less_equal")
    __gt__ = _comparison("greater")
    __ge__ = _comparison("greater_equal")

    # -- instance methods ------------------------------------------------------------------
    # ``x.reshape(...)``, ``x.sum(...)`` ...: every functional-API function is set on the
    # class as a method when it is made (``dispatch.public``, :func:`add_method`), so that the
    # method passes ``self`` as the first argument and nothing else -- in particular never
    # ``out=self`` (IVY012). Not a ``__getattr__``: a class with one reads every attribute
    # through it (CPython cannot specialise ``x._data`` then), which cost each runtime call
    # about 15 ns per ``._data`` read.

    if TYPE_CHECKING:

        def __getattr__(self, name: str) -> Callable[..., Any]: ...


if SPEEDUPS is not None:
    SPEEDUPS.configure_item(Array, _get_item)


def use_item_method(
    method: Callable[[Array, Any], Any],
    direct: tuple[frozenset[type], frozenset[type], Callable[..., Any], Callable[..., Any]]
    | None = None,
) -> None:
    """``x[query]`` answered by ``method(x, query)``; or, where the C paths are used and
    ``direct`` is given as ``(plain, native_set, error, wrap)``, by ``ArrayBase`` in C: a key
    of plain values handed to the native array, the result wrapped, any other key to
    ``method`` (the backend's native indexing makes the view: NumPy)."""
    name = OPERATOR_FUNCTIONS["get_item"]
    if SPEEDUPS is not None and direct is not None:
        plain, native_set, error, wrap = direct
        SPEEDUPS.configure_item(Array, method, plain, native_set, error, wrap)
        if name in Array.__dict__:
            delattr(Array, name)  # ``ArrayBase``'s slot answers
    elif Array.__dict__.get(name) is not method:
        setattr(Array, name, method)


def rebind(x: Array, native: Any) -> None:
    """``x``'s data replaced by ``native`` (not written into: an immutable array, a view's
    root). With the C paths, the layout ``x`` kept for its old data is dropped too, which
    would otherwise keep that data alive (``_speedups.forget_layout``)."""
    x._data = native
    if SPEEDUPS is not None:
        SPEEDUPS.forget_layout(x)


bare_array: Callable[[], Array] = type.__call__.__get__(Array)
"""A bare ``Array`` (no ``_data`` yet): ``type.__call__`` bound to ``Array``, which has no
``__init__`` of its own, so the instance is made in C (see :class:`ArrayType`)."""


METHODS: set[str] = set()
"""Names :func:`add_method` set on ``Array`` (and may set again)."""


def add_method(name: str, fn: Callable[..., Any]) -> None:
    """``x.name(...)`` calls ``fn(x, ...)``: the functional-API function ``name`` as a method
    of ``Array``, unless ``Array`` has an attribute of that name of its own (``x.shape``,
    ``x.T``) or the name is private."""
    if name.startswith("_") or (name not in METHODS and hasattr(Array, name)):
        return
    METHODS.add(name)
    setattr(Array, name, fn)


OPERATOR_FUNCTIONS = {"get_item": "__getitem__"}
"""Methods of ``Array`` that only call the public function of that name with the same
arguments, set when the function is made and bound (``dispatch.public``): for ``x[q]`` a
function of two positional parameters sharing the public function's hot path, which CPython
calls from ``x[q]`` without the C slot (``x[1:5]``)."""


class TrackedView(Array):
    """A view the backend cannot make natively: root, geometry in the root, cached values.

    ``_data`` is computed from the root on read when the root's data object or version has
    changed since the cache was filled; writes go through ``inplace_update``, which scatters
    into the root.
    """

    __slots__ = ("_cache", "_region", "_root", "_src", "_version")

    def __reduce__(self) -> tuple[type[Array], tuple[Any]]:
        """A copy or a pickle of a view is an array of its values, as NumPy's is: the
        tracking (root, geometry) belongs to this view only."""
        return Array, (self._data,)

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
        REGISTRY["inplace_update"](self, value)

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

    # Always ``ivy.get_item``'s general path: ``Array``'s own method, set per backend,
    # indexes ``_data`` directly, which here is a copy of the view's values.
    __getitem__ = _get_item

    def _write(self, val: Any) -> bool:
        """Scatter ``val`` (cast and broadcast to this view) into the root.

        Returns whether the root was written natively (False: the root was rebound).
        """
        root = self._root
        with views.root_lock(root):  # no other thread's write between the read and the rebind
            src = root._data
            new = views.scatter(current_backend(), prims(), src, self.region, val)
            if new is not src:
                rebind(root, new)
        self._src = None  # re-read on next access: ``val`` may be someone else's buffer
        return new is src
