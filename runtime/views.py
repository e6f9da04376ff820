"""NumPy-style views on every backend.

NumPy and PyTorch make most views natively. Where a backend cannot (JAX and TensorFlow have
immutable arrays; PyTorch's ``flip``, ``rot90``, ``flipud``, ``fliplr`` and negative-step
slices copy), the runtime *tracks* the view: the view knows its root array and its
**geometry** -- where each of its elements lives in the root.

The geometry is computed by NumPy itself. Every root that has tracked views owns a one-byte
-per-element NumPy buffer shaped like it; a view's geometry is that buffer with the same view
operations applied by the NumPy backend. So a chain of any length composes into one
``(offset, shape, strides)`` triple, NumPy decides what is a view and what is a copy (a reshape
that NumPy would copy is a copy here too), and sibling views are simply other geometries over
the same buffer.

From the geometry a :class:`Region` is derived once per view: preferably a strided index --
ints and positive slices over the root, then flips, a transpose and a reshape -- so that a write
is *one* strided scatter into the root (``x.at[idx].set`` on JAX, a strided-slice update on
TensorFlow, a slice copy on PyTorch); where no such form exists (a reshape that merges axes of
a sliced root, say) the region falls back to an integer multi-index. Reads are lazy: a view
caches its data together with the identity and version of the root data it came from, so an
update of the root or of any sibling is seen at the next read, and no list of live views is
needed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.primitives import Index, Primitives

_ROOT_LOCKS = tuple(threading.RLock() for _ in range(64))


def root_lock(root: object) -> threading.RLock:
    """The lock held around one read-scatter-rebind of ``root``'s data.

    On JAX and TensorFlow a write through a view is emulated: read the root's data, scatter
    into a new array, rebind the root to it. Two threads writing different slices of one
    root both read the old data and the later rebind dropped the other's write (14 of 20
    trials on JAX). Each write holds its root's lock from the read to the rebind; the locks
    are striped by the root's identity (a lock per root would need a table to clean up), so
    two roots may share one, which costs only waiting, never a wrong answer. Re-entrant, and
    never held while another root's lock is taken.
    """
    return _ROOT_LOCKS[(id(root) >> 4) % len(_ROOT_LOCKS)]


@dataclass(frozen=True, slots=True)
class Region:
    """Where a view's elements live in its root.

    Strided form: ``root[index]`` (ints and positive-step slices, one per root axis), then
    ``flip(flips)``, ``permute_dims(perm)``, ``reshape(shape)``; ``kept`` is the shape before
    the reshape. Fallback form: ``positions``, an integer multi-index of the view's shape.
    """

    shape: tuple[int, ...]
    index: Index | None = None
    flips: tuple[int, ...] = ()
    perm: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    positions: Index | None = None


def root_geometry(shape: tuple[int, ...], strides: tuple[int, ...] | None = None) -> np.ndarray:
    """A one-byte-per-element buffer shaped like a root; views of it are geometries.

    A root that is itself a non-contiguous native view (a transposed PyTorch tensor) gets a
    geometry with its real element ``strides``, so that NumPy's view-or-copy decisions
    (``reshape``) match. Such a *positional* geometry is int64 and holds, at each element, the
    element's flat position in the root; regions over it use those positions directly.
    """
    contiguous = strides is None or not shape or strides == _c_strides(shape)
    if contiguous or 0 in shape:
        return np.empty(shape, dtype=np.uint8)
    assert strides is not None
    span = 1 + sum((n - 1) * s for n, s in zip(shape, strides, strict=True))
    buffer = np.zeros(span, dtype=np.int64)
    geometry = np.lib.stride_tricks.as_strided(
        buffer, shape, tuple(s * buffer.itemsize for s in strides)
    )
    geometry[...] = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    return geometry


def _c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(np.prod(shape[a + 1 :])) for a in range(len(shape)))


def is_view_of(geometry: np.ndarray, root: np.ndarray) -> bool:
    """Whether NumPy made ``geometry`` as a view of ``root`` (rather than as a copy)."""
    return geometry.size > 0 and bool(np.may_share_memory(geometry, root))


def _offset(geometry: np.ndarray, root: np.ndarray) -> int:
    return int(geometry.__array_interface__["data"][0] - root.__array_interface__["data"][0])


def flat_positions(geometry: np.ndarray, root: np.ndarray) -> np.ndarray:
    """Flat (C-order) position in the root of every element of the view."""
    if root.dtype == np.int64:  # positional geometry: the values are the positions
        return np.array(geometry, dtype=np.int64)
    pos = np.full(geometry.shape, _offset(geometry, root), dtype=np.int64)
    for axis, (n, stride) in enumerate(zip(geometry.shape, geometry.strides, strict=True)):
        shape = [1] * geometry.ndim
        shape[axis] = n
        pos = pos + np.arange(n, dtype=np.int64).reshape(shape) * stride
    return pos


def region_of(geometry: np.ndarray, root: np.ndarray) -> Region:
    """Strided region if one exists, else the integer multi-index fallback."""
    strided = None
    if root.dtype == np.uint8:
        strided = _strided_region(
            _offset(geometry, root), geometry.shape, geometry.strides, root.shape
        )
    if strided is not None:
        return strided
    positions = np.unravel_index(flat_positions(geometry, root), root.shape)
    return Region(shape=geometry.shape, positions=tuple(positions))


def _strided_region(
    offset: int, shape: tuple[int, ...], strides: tuple[int, ...], root_shape: tuple[int, ...]
) -> Region | None:
    """Match each view axis of length > 1 to a distinct root axis with a whole step.

    Correct by construction: element ``i`` of the view is at flat ``offset + sum(i_k s_k)``
    and the region addresses root index ``start + sum(i_k step_k e_{a_k})``, whose flat
    position is the same number as long as it stays inside the root, which is checked.
    """
    if 0 in root_shape:
        return None
    root_strides = _c_strides(root_shape)
    start = [int(s) for s in np.unravel_index(offset, root_shape)] if root_shape else []
    assigned: dict[int, tuple[int, int]] = {}
    order: list[int] = []
    for n, s in zip(shape, strides, strict=True):
        if n == 1:
            continue
        for a, (rn, rs) in enumerate(zip(root_shape, root_strides, strict=True)):
            if a in assigned or rn == 1 or s % rs:
                continue
            step = s // rs
            if step and 0 <= start[a] + (n - 1) * step < rn:
                break
        else:
            return None
        assigned[a] = (step, n)
        order.append(a)
    sub_axes = sorted(assigned)
    index: list[Any] = []
    flips: list[int] = []
    for a in range(len(root_shape)):
        if a not in assigned:
            index.append(start[a])
            continue
        step, n = assigned[a]
        if step > 0:
            index.append(slice(start[a], start[a] + (n - 1) * step + 1, step))
        else:
            index.append(slice(start[a] + (n - 1) * step, start[a] + 1, -step))
            flips.append(sub_axes.index(a))
    return Region(
        shape=tuple(shape),
        index=tuple(index),
        flips=tuple(flips),
        perm=tuple(sub_axes.index(a) for a in order),
        kept=tuple(assigned[a][1] for a in order),
    )


def gather(backend: ModuleType, prims: Primitives, root: Any, region: Region) -> Any:
    """Read a region of a native root."""
    if region.positions is not None:
        return prims.take(root, region.positions)
    assert region.index is not None
    sub = root[region.index]
    if region.flips:
        sub = backend.flip(sub, axis=region.flips)
    if region.perm != tuple(sorted(region.perm)):
        sub = backend.permute_dims(sub, region.perm)
    return backend.reshape(sub, region.shape)


def scatter(backend: ModuleType, prims: Primitives, root: Any, region: Region, val: Any) -> Any:
    """Write ``val`` (already cast, broadcast to the region's shape) with one scatter.

    Returns the root: the same object when the backend wrote in place, a new one otherwise.
    """
    if region.positions is not None:
        return prims.set_region(root, region.positions, val)
    assert region.index is not None
    sub = backend.reshape(val, region.kept)
    if region.perm != tuple(sorted(region.perm)):
        sub = backend.permute_dims(sub, tuple(int(a) for a in np.argsort(region.perm)))
    if region.flips:
        sub = backend.flip(sub, axis=region.flips)
    return prims.set_region(root, region.index, sub)
