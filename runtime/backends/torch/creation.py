"""PyTorch creation functions (computed, then written to ``out`` by the wrapper: torch's own
``out=`` would demand that ``dtype`` match ``out``'s dtype)."""

from __future__ import annotations

from typing import Any

import torch
import torch.utils.dlpack

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.sizes import check_range, check_size
from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.dtypes import DEFAULT_INT
from ivycheck.runtime.info import as_sequence

Arr = Any


def _shape(shape: Any) -> tuple[int, ...]:
    if type(shape) is tuple:
        return shape
    return (shape,) if isinstance(shape, int) else tuple(shape)


def _sized(name: str, shape: Any, dtype: Any) -> tuple[int, ...]:
    """The shape as a tuple, refused as NumPy refuses it when it is too big to address
    (torch raised ``RuntimeError``, NumPy and TensorFlow ``ValueError``)."""
    ret = _shape(shape)
    check_size(name, ret, dtype)
    return ret


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.zeros(_sized("zeros", shape, dtype), dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.ones(_sized("ones", shape, dtype), dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.empty(_sized("empty", shape, dtype), dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    dtype = dtype or primitives.default_native(fill_value)
    return torch.full(_sized("full", shape, dtype), fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    if dtype is None:  # integers only (the common call) make the default int: no lookup
        ints = type(start) is type(stop) is type(step) is int
        dtype = _DEFAULT_INT if ints else primitives.default_native(start, stop, step)
    check_range("arange", start, stop, step, dtype)
    if step != 0 and (stop - start) / step <= 0:  # torch refuses an empty range
        return torch.empty(0, dtype=dtype)
    if dtype in _unsigned.WIDE_UNSIGNED:
        return torch.arange(start, stop, step, dtype=torch.int64).to(dtype)
    return torch.arange(start, stop, step, dtype=dtype)


_DEFAULT_INT = primitives.native_dtype(DEFAULT_INT)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("linspace", num, dtype)  # torch raised RuntimeError, the others ValueError
    if endpoint:
        return torch.linspace(start, stop, num, dtype=dtype)
    return torch.linspace(start, stop, num + 1, dtype=dtype)[:-1].clone()


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.clone(x)


def empty_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.empty_like(x, dtype=dtype)


def full_like(x: Arr, /, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.full_like(x, fill_value, dtype=dtype)


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    """torch.eye has no ``k``: ones where the column index is the row index plus ``k``
    (``torch.eye`` itself for the main diagonal, where it has a kernel for the dtype)."""
    cols = n_rows if n_cols is None else n_cols
    check_size("eye", (n_rows, cols), dtype)
    if k == 0 and dtype is not None and dtype not in _unsigned.WIDE_UNSIGNED:
        return torch.eye(n_rows, cols, dtype=dtype)
    k = max(min(k, cols), -n_rows)  # a diagonal outside the matrix: all zeros, no overflow
    ret = torch.arange(n_rows)[:, None] + k == torch.arange(cols)[None, :]
    return ret.to(dtype)


def from_dlpack(x: Any, /, *, copy: bool | None = None, out: Arr | None = None) -> Arr:
    """Through :func:`dlpack.importable`: a negative-stride buffer imported as it is would
    abort the process at the next kernel, read-only memory written in place crash it."""
    source = dlpack.importable(x, copy, dlpack.writable_non_negative_strides)
    ret = torch.utils.dlpack.from_dlpack(source)
    return ret.clone() if copy and source is x else ret


def meshgrid(*arrays: Arr, indexing: str = "xy") -> Any:
    # torch's grids are expanded views sharing memory; NumPy's have memory of their own.
    return as_sequence(g.clone() for g in torch.meshgrid(*arrays, indexing=indexing))


def tril(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return _unsigned.restore(torch.tril(_unsigned.signed(x), k), x.dtype)


def triu(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return _unsigned.restore(torch.triu(_unsigned.signed(x), k), x.dtype)
