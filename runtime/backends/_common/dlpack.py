"""DLPack imports that never hand a backend memory it cannot use.

A backend's own importer takes any host buffer zero-copy and only fails later: TensorFlow
imports a buffer that is not 64-byte aligned and aborts the process at the next kernel
(``Check failed: IsAligned()``); PyTorch imports negative strides and aborts; JAX and
TensorFlow refuse non-contiguous strides where the standard asks for a copy, and JAX copies
a buffer off a 64-byte boundary itself, where ``copy=False`` asks for no copy. So every import
first reads the producer as a NumPy view (``np.from_dlpack`` takes any strides, zero-copy),
asks the backend whether it can take that memory as it is, and otherwise copies it into a
C-contiguous, 64-byte aligned buffer -- or, with ``copy=False``, raises the standard's
``BufferError`` before the backend sees the memory.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ivycheck.runtime.exceptions import IvyBufferError, IvyValueError

ALIGNMENT = 64
"""The alignment TensorFlow's kernels check (``EIGEN_MAX_ALIGN_BYTES``); enough for all."""


def aligned_copy(view: np.ndarray) -> np.ndarray:
    """A C-contiguous copy of ``view`` whose buffer starts on an ``ALIGNMENT`` boundary
    (NumPy's allocator promises only 16 bytes)."""
    raw = np.empty(view.nbytes + ALIGNMENT, np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    ret = raw[start : start + view.nbytes].view(view.dtype).reshape(view.shape)
    np.copyto(ret, view)
    return ret


def c_contiguous(view: np.ndarray) -> bool:
    """Compact row-major strides (what JAX's and TensorFlow's importers accept)."""
    return bool(view.flags.c_contiguous)


def aligned_c_contiguous(view: np.ndarray) -> bool:
    """Compact row-major strides on an ``ALIGNMENT`` boundary (what TensorFlow can use)."""
    return c_contiguous(view) and view.ctypes.data % ALIGNMENT == 0


def non_negative_strides(view: np.ndarray) -> bool:
    """No negative stride (PyTorch's tensors have none)."""
    return all(s >= 0 for s in view.strides)


def writable_non_negative_strides(view: np.ndarray) -> bool:
    """What PyTorch can take as it is: a tensor is never read-only, and the runtime writes
    into tensors in place, so shared read-only memory (a read-only ``mmap``) would be
    written (a segmentation fault); and no negative stride."""
    return bool(view.flags.writeable) and non_negative_strides(view)


def host_view(x: Any) -> np.ndarray | None:
    """``x`` as a zero-copy NumPy view, or ``None`` when NumPy cannot read it (a device
    buffer, a dtype NumPy lacks): the backend's importer is then asked directly."""
    try:
        return np.from_dlpack(x)
    except (BufferError, TypeError, ValueError, RuntimeError, AttributeError):
        return None


def importable(x: Any, copy: bool | None, fits: Callable[[np.ndarray], bool]) -> Any:
    """What to hand the backend's importer for ``from_dlpack(x, copy=copy)``: ``x`` itself
    when NumPy cannot read it, otherwise a view the backend can take as it is (``fits``),
    or an aligned contiguous copy (always with ``copy=True``; ``copy=False`` raises
    :class:`IvyBufferError` when only a copy would do)."""
    view = host_view(x)
    if view is None:
        return x
    if copy:
        return aligned_copy(view)
    if fits(view) and (view.flags.writeable or not isinstance(x, np.ndarray)):
        # A read-only view (NumPy's reading of a JAX array) cannot be exported again to an
        # importer of the older DLPack: the producer itself is handed on, as it is -- unless
        # it is that read-only NumPy array, which cannot be exported so either.
        return view if view.flags.writeable else x
    if view.size == 0:
        # No element to share or to copy: a new empty buffer breaks no ``copy=False``
        # (TensorFlow refused a NumPy empty array's unaligned address).
        return aligned_copy(view)
    if copy is False:
        raise IvyBufferError(
            "from_dlpack: copy=False, but this buffer cannot be imported without a copy "
            f"(shape {view.shape}, strides {view.strides}, address {view.ctypes.data:#x}: "
            "the backend needs compact, aligned memory)"
        )
    return aligned_copy(view)


def shared_view(obj: Any, dtype: str | None) -> np.ndarray:
    """``asarray(obj, copy=False)`` on a backend whose arrays cannot wrap a NumPy array (JAX,
    TensorFlow): ``obj``'s memory as a NumPy view their DLPack importers share as it is, else
    the standard's ``ValueError`` (both copied any NumPy input silently).

    They share compact, 64-byte aligned memory only (JAX copies any other buffer itself,
    TensorFlow aborts the process on it) and writable memory only (their importers ask for
    the DLPack that cannot say "read-only", which NumPy refuses to export then). An empty
    array has nothing to share: an empty buffer of its own is no copy.
    """
    try:
        view = np.asarray(obj, copy=False)
    except ValueError as e:  # NumPy's own "Unable to avoid copy"
        raise IvyValueError(
            f"asarray: copy=False, but a {type(obj).__qualname__} becomes an array only by a copy"
        ) from e
    if dtype is not None and view.dtype.name != dtype:
        raise IvyValueError(
            f"asarray: copy=False, but an array of {view.dtype.name} becomes {dtype} only by a copy"
        )
    if view.size == 0:
        return aligned_copy(view)
    if not aligned_c_contiguous(view) or not view.flags.writeable:
        raise IvyValueError(
            "asarray: copy=False, but this backend shares only compact, 64-byte aligned, "
            f"writable memory (shape {view.shape}, strides {view.strides}, address "
            f"{view.ctypes.data:#x}{'' if view.flags.writeable else ', read-only'}): a copy "
            "is needed"
        )
    return view
