"""NumPy primitives: the reference semantics; every write is native."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.package import (
    remembered_defaults,
    remembered_dtypes,
    remembered_targets,
)
from ivycheck.runtime.backends._common.primitives import Index
from ivycheck.runtime.dtypes import Dtype
from ivycheck.runtime.exceptions import InplaceUpdateException

NAME = "numpy"
NATIVE_TYPES: tuple[type, ...] = (np.ndarray,)
NUMPY_VIEWS = True
ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]] = {}
NEGATIVE_STEPS = True


native_dtype = remembered_dtypes(np.dtype)
"""``np.dtype`` for a dtype (or its name)."""
default_native = remembered_defaults(native_dtype)
"""The native default dtype of Python values (``arange``, ``full``)."""
target_dtype = remembered_targets(native_dtype)
"""The native dtype of any dtype argument (``astype``)."""


def dtype_name(x: Any) -> str:
    """The dtype name of a native array."""
    return str(x.dtype)


def shape(x: Any) -> tuple[int, ...]:
    """The shape as a tuple of ints."""
    return tuple(x.shape)


def asarray(obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any:
    """``np.asarray``/``np.array`` with the Array-API ``copy`` flag."""
    return np.array(obj, dtype=None if dtype is None else str(dtype), copy=copy)


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy (callers may write to it without touching ``x``)."""
    return np.array(x, copy=True)


def copy(x: Any) -> Any:
    """Memory of its own."""
    return np.array(x, copy=True)


def cast(x: Any, dtype: Dtype | str) -> Any:
    """Unsafe cast (callers check ``same_kind`` first when they must)."""
    return np.asarray(x).astype(str(dtype), copy=False)


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """A writable array of ``shape`` (``np.broadcast_to`` alone is read-only)."""
    return np.array(np.broadcast_to(x, shape))


def writable(x: Any) -> bool:
    """Every writeable ndarray (read-only ones come from ``broadcast_to`` and friends)."""
    return isinstance(x, np.ndarray) and x.flags.writeable


def write(x: Any, val: Any) -> None:
    """Write ``val`` into the buffer of ``x`` (broadcasting, overlapping memory is fine)."""
    np.copyto(x, val, casting="unsafe")


def set_region(x: Any, index: Index, val: Any) -> Any:
    """``x[index] = val`` in place; returns ``x``."""
    x[index] = val
    return x


def take(x: Any, index: Index) -> Any:
    """Gather with a multi-index (tuple of integer arrays)."""
    return x[index]


def version(x: Any) -> object:
    """NumPy views are native, so tracked views never exist; a constant suffices."""
    return 0


def shares_memory(a: Any, b: Any) -> bool:
    """Native view detection."""
    return bool(np.may_share_memory(a, b))


def is_native_view(ret: Any, base: Any) -> bool:
    """Never asked: NumPy's views are the views (``NUMPY_VIEWS``)."""
    return False


ERROR_STATE: ContextVar[Any] | None = getattr(
    getattr(getattr(np, "_core", None), "umath", None), "_extobj_contextvar", None
)
"""NumPy's floating-point error state (what ``np.seterr``/``np.errstate`` set: a new value per
change), where this NumPy keeps it in a ``ContextVar``; else ``None``."""
SAFE_ERROR_STATES: set[Any] = set()
"""Values of :data:`ERROR_STATE` under which no floating-point error raises (see
:func:`native_out_safe`), recorded as met (at most :data:`_SAFE_KEPT`)."""
_SAFE_KEPT = 64
_SAFE_MODES = frozenset({"ignore", "warn", "print"})
NATIVE_OUT_GUARD: tuple[ContextVar[Any], set[Any]] | None = (
    None if ERROR_STATE is None else (ERROR_STATE, SAFE_ERROR_STATES)
)
"""How the hot paths tell, in one read, that a native ``out`` is safe
(``ERROR_STATE.get() in SAFE_ERROR_STATES``); any other answer asks
:func:`native_out_safe`."""


def native_out_safe() -> bool:
    """Whether a NumPy function may be given ``out``'s buffer: it then raises only before
    writing. Under ``np.seterr(all="raise")`` (or ``"call"``, ``"log"``, whose handlers may
    raise) a ufunc computes into ``out`` and raises ``FloatingPointError`` afterwards --
    ``out`` would be changed by a call that failed -- so the result is computed first and
    written only if that succeeded (``dispatch.out``), as on every other backend. A state
    found safe is recorded in :data:`SAFE_ERROR_STATES`, which the hot paths read. (``"warn"``
    counts as safe: a ``RuntimeWarning`` that a warnings filter makes an error is raised by
    NumPy after writing, as NumPy does.)"""
    state = None if ERROR_STATE is None else ERROR_STATE.get()
    if state is not None and state in SAFE_ERROR_STATES:
        return True
    safe = _SAFE_MODES.issuperset(np.geterr().values())
    if safe and state is not None:
        if len(SAFE_ERROR_STATES) >= _SAFE_KEPT:  # (one per ``np.errstate`` entered)
            SAFE_ERROR_STATES.clear()
        SAFE_ERROR_STATES.add(state)
    return safe


def check_native_out(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], *, out: Any
) -> Callable[..., Any] | None:
    """``fn``, the function to call with ``out``, after a check: NumPy checks shapes and
    ufunc casting itself, but reductions cast ``out`` unsafely; ``None`` (compute, then
    write) where an error could be raised after writing (:func:`native_out_safe`).

    So check the promoted input dtype against ``out`` under ``same_kind`` first; a result that
    cannot be written raises here, before NumPy writes anything. A ufunc (the NumPy backend's
    elementwise functions are the ufuncs of their name) resolves its own result dtype -- bool
    for a comparison of integers -- and refuses a ``same_kind`` violation before writing, so
    it is left to check ``out`` itself.
    """
    if not native_out_safe():
        return None
    if isinstance(getattr(np, getattr(fn, "__name__", ""), None), np.ufunc):
        return fn
    arrays = [a for a in args if isinstance(a, (np.ndarray, np.generic))]
    if "dtype" in kwargs and kwargs["dtype"] is not None:
        arrays = [np.empty((), kwargs["dtype"])]
    if arrays and not np.can_cast(np.result_type(*arrays), out.dtype, casting="same_kind"):
        raise InplaceUpdateException(  # as ``inplace_update`` and every backend raise it
            f"out: cannot write a {np.result_type(*arrays)} result into an out array of dtype "
            f"{out.dtype} (same_kind casting)"
        )
    return fn


def same_layout(a: Any, b: Any) -> bool:
    """Whether two native arrays have one shape and one dtype (the write of a result into
    ``out`` asks on every call)."""
    dtype = a.dtype
    return a.shape == b.shape and (dtype is b.dtype or dtype == b.dtype)


def out_checks_itself(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` refuses an ``out`` that does not fit before writing anything: the
    NumPy backend's elementwise functions (the ufuncs of their name) do -- shape, casting
    under ``same_kind``, a read-only buffer -- so the dispatcher passes ``out`` without
    asking :func:`check_native_out`."""
    return isinstance(getattr(np, getattr(fn, "__name__", ""), None), np.ufunc)


def strides(x: Any) -> tuple[int, ...] | None:
    """Never asked: NumPy views are native."""
    return None


def to_dlpack(x: Any, kwargs: dict[str, Any]) -> Any:
    """The array's own DLPack exporter."""
    return x.__dlpack__(**kwargs)
