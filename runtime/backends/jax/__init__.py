"""The JAX backend. Setting it enables ``jax_enable_x64``: without it JAX silently computes
float64 inputs and ``out`` arrays in float32, and ``out`` could not keep its dtype."""

import jax

jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]

# ruff: noqa: E402

from ivycheck.runtime.backends._common.package import export
from ivycheck.runtime.backends.jax import (
    creation,
    elementwise,
    linear_algebra,
    manipulation,
    primitives,
    statistical,
)

__all__ = ["primitives"]
__all__ += export(globals(), creation, elementwise, linear_algebra, manipulation, statistical)
from ivycheck.runtime.backends.jax import data_type

__all__ += export(globals(), data_type)
from ivycheck.runtime.backends.jax import indexing, searching, sorting, utility
from ivycheck.runtime.backends.jax import set as set_functions

__all__ += export(globals(), indexing, searching, set_functions, sorting, utility)
from ivycheck.runtime.backends._common import array_api_fft as _array_api_fft
from ivycheck.runtime.backends.jax import fft_ext, linalg_ext

__all__ += export(globals(), _array_api_fft, fft_ext, linalg_ext)
