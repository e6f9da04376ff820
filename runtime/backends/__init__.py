"""Backend implementations, one sub-package per framework, imported only when set.

Every backend package (``numpy/``, ``torch/``, ``jax/``, ``tensorflow/``) has Ivy's shape:
topic modules (``elementwise.py``, ``creation.py`` ...) holding the functional API's primary
functions, re-exported from the package, and a ``primitives`` module
(:class:`~ivycheck.runtime.backends._common.primitives.Primitives`). Code that more than one
backend needs and that is not in that shape lives in ``_common/`` -- the primitive table's
protocol, NumPy-computed index positions, the one promotion table, the complex special
values, shape rules of linalg/fft, the ``out`` write of functions that cannot forward
``out`` -- so a backend imports only ``_common``, the dtype policy (``dtypes``) and the
leaf modules (``axes``, ``info``, ``exceptions``): nothing above the backends.
"""

from __future__ import annotations

BACKENDS = {
    "numpy": ("numpy", "numpy"),
    "torch": ("torch", "torch"),
    "jax": ("jax", "jax jaxlib"),
    "tensorflow": ("tensorflow", "tensorflow-cpu"),
    "dask": ("dask", "dask[array]"),
}
"""Backend name -> (module that must be importable, what to ``pip install``)."""
