"""PyTorch view functions. ``flip``, ``rot90``, ``flipud``, ``fliplr`` and negative-step
indexing return copies in PyTorch; the ``handle_view`` wrapper sees that the storage differs
and makes them tracked views, so they behave like NumPy's views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.backends._common.indexing import positions
from ivycheck.runtime.backends._common.sizes import check_size
from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.dtypes import result_type

Arr = Any


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    return normalize_axes(axis, ndim)


def reshape(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    return torch.reshape(x, tuple(shape))


def permute_dims(x: Arr, /, axes: Sequence[int], *, out: Arr | None = None) -> Arr:
    return torch.permute(x, tuple(axes))


def swapaxes(x: Arr, axis0: int, axis1: int, /, *, out: Arr | None = None) -> Arr:
    return torch.swapaxes(x, axis0, axis1)


def moveaxis(x: Arr, source: Any, destination: Any, /, *, out: Arr | None = None) -> Arr:
    return torch.movedim(x, source, destination)


def expand_dims(x: Arr, /, axis: Any = 0, *, out: Arr | None = None) -> Arr:
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    for a in sorted(_axes(axes, x.ndim + len(axes))):
        x = torch.unsqueeze(x, a)
    return x


def squeeze(x: Arr, /, axis: Any = None, *, out: Arr | None = None) -> Arr:
    if axis is None:
        return torch.squeeze(x)
    axes = _axes(axis, x.ndim)
    if any(x.shape[a] != 1 for a in axes):
        raise ValueError(f"cannot squeeze axes {axes} of shape {tuple(x.shape)}")
    return torch.squeeze(x, axes)


def flip(x: Arr, /, *, axis: Any = None, out: Arr | None = None) -> Arr:
    """uint16-64 through int64 (the same values): torch has no flip kernel for them."""
    dims = tuple(range(x.ndim)) if axis is None else _axes(axis, x.ndim)
    return _unsigned.restore(torch.flip(_unsigned.signed(x), dims), x.dtype)


def rot90(m: Arr, /, *, k: int = 1, axes: tuple[int, int] = (0, 1), out: Arr | None = None) -> Arr:
    return _unsigned.restore(torch.rot90(_unsigned.signed(m), k, tuple(axes)), m.dtype)


def flipud(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unsigned.restore(torch.flipud(_unsigned.signed(m)), m.dtype)


def fliplr(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unsigned.restore(torch.fliplr(_unsigned.signed(m)), m.dtype)


def matrix_transpose(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.transpose(x, -1, -2)


def get_item(x: Arr, /, query: Any, *, out: Arr | None = None) -> Arr:
    if type(query) is int or (
        type(query) is slice
        and (query.step is None or (type(query.step) is int and query.step > 0))
    ):
        return x[query]  # the common case, as ``take`` would index it
    items = query if isinstance(query, tuple) else (query,)
    if any(isinstance(i, slice) and (i.step or 1) < 0 for i in items):
        return primitives.take(x, positions(tuple(x.shape), query))
    return primitives.take(x, query if isinstance(query, tuple) else (query,))


def _promoted(arrays: Sequence[Arr]) -> list[Arr] | tuple[Arr, ...]:
    """The arrays in the standard's result dtype (torch would promote a 0-d one like a
    scalar); tensors of one dtype, the common case, as they are (torch's dtypes are
    singletons: ``is`` compares them)."""
    if not arrays:
        return list(arrays)
    if type(arrays[0]) is torch.Tensor:
        first = arrays[0].dtype
        for a in arrays:
            if type(a) is not torch.Tensor or a.dtype is not first:
                break
        else:
            return arrays if isinstance(arrays, (list, tuple)) else list(arrays)
    dtype = primitives.native_dtype(result_type(*arrays))
    return [a.to(dtype) for a in arrays]


def broadcast_to(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    check_size("broadcast_to", shape, x.dtype)  # torch raised RuntimeError, the others ValueError
    return torch.broadcast_to(x, tuple(shape))


def concat(arrays: Sequence[Arr], /, *, axis: int | None = 0, out: Arr | None = None) -> Arr:
    arrays = _promoted(arrays)
    if axis is None:
        return torch.cat([torch.reshape(a, (-1,)) for a in arrays])
    # torch parses each argument in about 0.1 us (a keyword in 0.2 us): the default axis
    # is left to torch.
    return torch.cat(arrays) if axis == 0 else torch.cat(arrays, axis)


def stack(arrays: Sequence[Arr], /, *, axis: int = 0, out: Arr | None = None) -> Arr:
    arrays = _promoted(arrays)
    return torch.stack(arrays) if axis == 0 else torch.stack(arrays, axis)


def repeat(x: Arr, repeats: Any, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    if axis is None:
        x, axis = torch.reshape(x, (-1,)), 0
    if isinstance(repeats, torch.Tensor):  # torch repeats by int64 counts only
        repeats = repeats.to(torch.int64)
    ret = torch.repeat_interleave(_unsigned.signed(x), repeats, dim=axis)
    return _unsigned.restore(ret, x.dtype)


def roll(x: Arr, /, shift: Any, *, axis: Any = None, out: Arr | None = None) -> Arr:
    if axis is None:
        return torch.roll(x, shift)
    return torch.roll(x, shift, axis)


def tile(x: Arr, repetitions: Sequence[int], /, *, out: Arr | None = None) -> Arr:
    return torch.tile(x, tuple(repetitions))
