"""PyTorch primitives: native in-place writes; ``out`` checked on the meta device first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.package import (
    remembered_accumulation,
    remembered_defaults,
    remembered_dtypes,
    remembered_targets,
)
from ivycheck.runtime.backends._common.primitives import Index
from ivycheck.runtime.backends.torch._unsigned import WIDE_UNSIGNED
from ivycheck.runtime.dtypes import Dtype, can_write

NAME = "torch"
NATIVE_TYPES: tuple[type, ...] = (torch.Tensor,)
NUMPY_VIEWS = False
ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]] = {}
NEGATIVE_STEPS = False


def _torch_dtype(name: str) -> Any:
    return getattr(torch, name)


native_dtype = remembered_dtypes(_torch_dtype)
"""``torch.float32`` and friends, by dtype or name."""
default_native = remembered_defaults(native_dtype)
"""The native default dtype of Python values (``arange``, ``full``)."""
target_dtype = remembered_targets(native_dtype)
"""The native dtype of any dtype argument (``astype``)."""
accumulation = remembered_accumulation(
    native_dtype, lambda native: str(native).removeprefix("torch.")
)
"""The native dtype ``sum``/``prod``/``trace`` return by default for a native dtype."""


def dtype_name(x: Any) -> str:
    """``"float32"`` for ``torch.float32``."""
    return str(x.dtype).removeprefix("torch.")


def shape(x: Any) -> tuple[int, ...]:
    """The shape as a tuple of ints."""
    return tuple(x.shape)


def asarray(obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any:
    """``torch.asarray`` (shares memory with a NumPy input unless ``copy=True``).

    A NumPy array with a negative stride (``a[::-1]``) is copied into a compact one first:
    a tensor has no negative strides, and ``torch.asarray`` refused it whatever ``copy``
    said, where the standard asks ``copy=None``/``True`` for a copy; ``copy=False`` raises
    the standard's ``ValueError`` (only a copy gives the tensor). So is a read-only one: a
    tensor is never read-only, and a write in place into shared read-only memory (a
    read-only ``mmap``) crashed the process."""
    if isinstance(obj, np.ndarray) and not dlpack.writable_non_negative_strides(obj):
        if copy is False:
            raise ValueError(
                "copy=False, but PyTorch shares no memory with negative strides or read-only "
                f"(strides {obj.strides}, writeable {obj.flags.writeable}): only a copy gives "
                "the tensor"
            )
        obj, copy = np.array(obj, order="C"), None
    return torch.asarray(
        obj, dtype=None if dtype is None else getattr(torch, str(dtype)), copy=copy
    )


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy."""
    return np.array(x.detach().cpu().numpy(), copy=True)


def copy(x: Any) -> Any:
    """Memory of its own."""
    return x.clone()


def cast(x: Any, dtype: Dtype | str) -> Any:
    """Unsafe cast."""
    return torch.as_tensor(x).to(getattr(torch, str(dtype)))


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``torch.broadcast_to``."""
    return torch.broadcast_to(torch.as_tensor(x), shape)


def writable(x: Any) -> bool:
    """Every tensor can be written in place."""
    return isinstance(x, torch.Tensor)


def write(x: Any, val: Any) -> None:
    """``x.copy_(val)``; a value overlapping ``x`` is cloned first (``copy_`` rejects overlap)."""
    val = torch.as_tensor(val)
    if shares_memory(x, val):
        val = val.clone()
    x.copy_(val)


def _torch_index(index: Index) -> Index:
    return tuple(torch.as_tensor(i) if isinstance(i, np.ndarray) else i for i in index)


def set_region(x: Any, index: Index, val: Any) -> Any:
    """``x[index] = val`` in place (``index_put_`` for integer-array indices); returns ``x``."""
    val = torch.as_tensor(val)
    if shares_memory(x, val):
        val = val.clone()
    bits = _SAME_WIDTH_SIGNED.get(x.dtype)
    if bits is not None:  # no masked_fill/index_put kernels: write the bits as signed ints
        x.view(bits)[_torch_index(index)] = val.to(x.dtype).view(bits)
        return x
    x[_torch_index(index)] = val
    return x


_SAME_WIDTH_SIGNED = {
    torch.uint16: torch.int16,
    torch.uint32: torch.int32,
    torch.uint64: torch.int64,
}


def take(x: Any, index: Index) -> Any:
    """Gather with a multi-index."""
    return x[_torch_index(index)]


def version(x: Any) -> object:
    """Torch's version counter, shared by every view of the storage, bumps on in-place writes."""
    return x._version


def shares_memory(a: Any, b: Any) -> bool:
    """Same storage: the native-view test (``flip`` and friends return fresh storage)."""
    if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
        return False
    if a.numel() == 0 or b.numel() == 0:
        return False
    # Views of one base tensor share its storage: a cheap answer for the common case (a
    # view function's result against its input) before asking for both storages.
    base_a, base_b = a._base, b._base
    if (a if base_a is None else base_a) is (b if base_b is None else base_b):
        return True
    return bool(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())


def is_native_view(ret: Any, base: Any) -> bool:
    """Whether ``ret`` is certainly a view of ``base`` that a view function returns as it
    is: made from the same base tensor, with more than one element (so at least 1-d: a 0-d
    result may be a copy in NumPy; and not empty: ``shares_memory`` says no for empty
    tensors). ``False`` only means "ask :func:`shares_memory`": this answers the common
    case in three attribute reads (each costs about 0.1 us on PyTorch)."""
    if type(ret) is not torch.Tensor:
        return False
    source = ret._base
    return source is not None and (source is base or source is base._base) and ret.numel() > 1


def _overlaps(fn: Callable[..., Any], out: Any, args: list[Any], kwargs: dict[str, Any]) -> bool:
    """Whether ``out``'s memory is also an input's, so that torch's own ``out=`` would not
    give the answer without ``out``: ``matmul(x, x, out=x)`` of a stack of matrices zeroes
    ``out`` before reading ``x`` (all zeros), and an ``out`` overlapping an input in part
    raises. An elementwise function reads each element before writing it, so an input that
    *is* ``out`` (same address, shape and strides) is left to torch there."""
    storage = out.untyped_storage().data_ptr()
    elementwise = getattr(fn, "__module__", "").endswith(".elementwise")
    for t in (*args, *kwargs.values()):
        if type(t) is not torch.Tensor or t.untyped_storage().data_ptr() != storage:
            continue
        same = t.data_ptr() == out.data_ptr() and t.shape == out.shape
        if not (elementwise and same and t.stride() == out.stride()):
            return True
    return False


def check_native_out(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], *, out: Any
) -> Callable[..., Any] | None:
    """The function to call with ``out=out`` when ``fn(*args, **kwargs)`` makes a tensor of
    exactly ``out``'s shape and dtype, else ``None``.

    Torch silently *resizes* an ``out`` of the wrong shape, so the native path is taken only
    for an exact shape and dtype match; anything else goes through ``inplace_update``, which
    broadcasts, casts, or refuses before writing. The answer comes from running ``fn`` on the
    meta device (shapes and dtypes, no data), which costs about 100 us; a meta tensor has no
    values, so the answer depends only on the arguments' types, dtypes and shapes, the other
    arguments' values and ``out``'s dtype and shape, and it is kept per such signature. The
    function to call is ``fn``, or, for two tensors of one dtype that is not a wide unsigned
    one, the native function ``fn`` then amounts to (its ``one_dtype_native``: ``torch.add``
    for ``add``), which spares two Python frames per call.
    """
    if _overlaps(fn, out, args, kwargs):
        return None
    n = len(args)
    a: Any = args[0] if n else None
    b: Any = args[-1] if n else None
    quick = not kwargs and n < 3 and type(a) is torch.Tensor and type(b) is torch.Tensor
    if quick:
        # The common calls, one or two tensors and no keyword, keyed without
        # ``_signature``'s recursion (most of the cost of a small ``add`` with ``out``); a
        # longer tuple than the general key, so the two never meet.
        key: Any = (fn, n, a.dtype, a.shape, b.dtype, b.shape, out.dtype, out.shape)
    else:
        key = (fn, _signature(args), _signature(kwargs), out.dtype, out.shape)
    try:
        known: Any = _FITS.get(key)
    except TypeError:  # an unhashable argument: ask the meta device every time
        return fn if _meta_fits(fn, args, kwargs, out) else None
    if known is None:
        if len(_FITS) >= _FITS_LIMIT:
            _FITS.clear()
        known = _FITS[key] = (
            _target(fn, args, quick) if _meta_fits(fn, args, kwargs, out) else False
        )
    return known or None


def native_out_for_pair(fn: Callable[..., Any], a: Any, b: Any, buffer: Any) -> Any:
    """:func:`check_native_out` for a call of two arrays and no keyword, the public
    function's hot ``out`` path: the same answer from the same table, read without packing
    the arguments into a list and a dictionary (on 8 elements the check costs as much as
    ``torch.add`` itself, and a call with ``out`` must cost no more than one without it).
    ``buffer`` is ``out``'s tensor (positional: a keyword costs as much as the check saves)."""
    if type(a) is _TENSOR and type(b) is _TENSOR:
        try:
            known = _FITS[(fn, 2, a.dtype, a.shape, b.dtype, b.shape, buffer.dtype, buffer.shape)]
        except KeyError:
            pass
        else:
            return known or None
    return check_native_out(fn, [a, b], {}, out=buffer)


_TENSOR = torch.Tensor
"""Read from the module's globals: one lookup, not two, per call of the pair check."""


def _target(fn: Callable[..., Any], args: list[Any], quick: bool) -> Callable[..., Any]:
    """What to call for arguments that fit ``out`` (see :func:`check_native_out`)."""
    native = getattr(fn, "one_dtype_native", None)
    if native is None or not quick or len(args) != 2:
        return fn
    dtype = args[0].dtype
    if args[1].dtype != dtype or dtype in WIDE_UNSIGNED:
        return fn
    return native  # type: ignore[no-any-return]


_FITS: dict[Any, Any] = {}
"""Signature -> the function to call with ``out``, or ``False``: it does not fit."""
_FITS_LIMIT = 4096


def _signature(value: Any) -> Any:
    """What a meta run can depend on: a tensor's dtype and shape; any other value's type and
    value (``True`` and ``1`` differ), inside tuples, lists and dicts too."""
    if isinstance(value, torch.Tensor):
        return (torch.Tensor, value.dtype, value.shape)
    if type(value) in (tuple, list):
        return (type(value), *map(_signature, value))
    if type(value) is dict:
        return (dict, *((k, _signature(v)) for k, v in value.items()))
    return (type(value), value)


def _meta_fits(fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], out: Any) -> bool:
    meta_args = [a.to("meta") if isinstance(a, torch.Tensor) else a for a in args]
    try:
        res = fn(*meta_args, **kwargs)
    except Exception:  # noqa: BLE001 - any failure of the dry run means: no native out
        return False
    if not isinstance(res, torch.Tensor):
        return False
    if not can_write(dtype_name(res), dtype_name(out)):
        return False  # inplace_update reports it with the standard message
    return bool(res.shape == out.shape and res.dtype == out.dtype)


def same_layout(a: Any, b: Any) -> bool:
    """Whether two tensors have one shape and one dtype (``torch.dtype`` objects are
    singletons)."""
    return a.dtype is b.dtype and a.shape == b.shape


def out_checks_itself(fn: Callable[..., Any]) -> bool:
    """Never: PyTorch resizes an ``out`` of another shape (:func:`check_native_out` asks first)."""
    return False


def strides(x: Any) -> tuple[int, ...] | None:
    """Element strides: a tensor may be a non-contiguous native view (a transpose)."""
    return tuple(x.stride())


def to_dlpack(x: Any, kwargs: dict[str, Any]) -> Any:
    """The tensor's own DLPack exporter."""
    return x.__dlpack__(**kwargs)
