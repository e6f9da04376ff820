"""Which of the Dask backend's functions are the NumPy backend's, and how each runs.

Three ways, each giving NumPy's answer (``lifted``): chunk by chunk (``CHUNKWISE``: the
elementwise functions), handed to Dask by NumPy itself (``DISPATCHED``: the NumPy backend's
function called on Dask arrays, whose every NumPy call Dask implements through
``__array_function__``, so the result is a lazy Dask graph), or computed in one process
(``IN_ONE_PROCESS``: what Dask cannot split, and what NumPy would compute anyway -- these
are the functions that compute their inputs; docs/runtime.md lists them). The rest of the
namespace is written for Dask in this package's topic modules.
"""

from __future__ import annotations

from types import ModuleType

from ivycheck.runtime.backends import numpy as _numpy
from ivycheck.runtime.backends._common import array_api_fft as _array_api_fft
from ivycheck.runtime.backends.dask.lifted import dispatched, in_one_process

DISPATCHED = (
    "broadcast_to", "diagonal", "empty_like", "flip", "fliplr", "flipud",
    "full_like", "matrix_transpose", "meshgrid", "moveaxis", "ones_like",
    "permute_dims", "roll", "rot90", "squeeze", "swapaxes", "tile",
    "tril", "triu", "zeros_like",
)  # fmt: skip
"""Lazy: NumPy hands every call these make to Dask."""

IN_ONE_PROCESS = (
    "argsort", "cholesky", "cross", "det", "eig", "eigh", "eigvals", "eigvalsh", "fftfreq",
    "inv", "matrix_norm", "matrix_power", "matrix_rank", "nonzero", "pinv", "qr",
    "rfftfreq", "searchsorted", "slogdet", "solve", "sort", "svd", "svdvals", "take_along_axis",
    "unique_all", "unique_counts", "unique_inverse", "unique_values", "vector_norm",
)  # fmt: skip
"""Computed: the inputs are gathered into this process (up to ``lifted.GATHER_LIMIT``)."""

FFT = (
    "fft", "fftn", "fftshift", "hfft", "ifft", "ifftn", "ifftshift", "ihfft", "irfft",
    "irfftn", "rfft", "rfftn",
)  # fmt: skip
"""The ``fft`` extension's transforms: computed in one process too (a transform mixes every
element along its axes)."""


def _of(source: ModuleType, names: tuple[str, ...], how: object) -> dict[str, object]:
    return {name: how(getattr(source, name), __name__) for name in names}  # type: ignore[operator]


globals().update(_of(_numpy, DISPATCHED, dispatched))
globals().update(_of(_numpy, IN_ONE_PROCESS, in_one_process))
globals().update(_of(_array_api_fft, FFT, in_one_process))
