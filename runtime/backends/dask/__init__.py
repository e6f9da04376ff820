"""The Dask backend: ``dask.array``, lazy, on Dask's threaded scheduler or on the
``dask.distributed`` cluster whose ``Client`` is active (Dask picks it up itself; nothing to
configure here). Most functions are the NumPy backend's, run chunk by chunk or handed to
Dask by NumPy (``numpy_functions``); the rest are written for Dask in the topic modules."""

from ivycheck.runtime.backends._common.package import export
from ivycheck.runtime.backends.dask import (
    creation,
    elementwise,
    manipulation,
    numpy_functions,
    primitives,
    reductions,
    statistical,
)

__all__ = ["primitives"]
__all__ += export(
    globals(), creation, elementwise, manipulation, numpy_functions, reductions, statistical
)
