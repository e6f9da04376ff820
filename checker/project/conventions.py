"""What the Ivy code base does by convention, which the checker assumes by default.

The order Ivy applies its function wrappers in, the decorators that stand for several
of them, the backends and where each part of the code base lives in Ivy's tree and in
``ivycheck.runtime``. Every fact here is a default a project can change in
``[tool.ivycheck]`` (``decorator-order``, ``backends``, ``functional-api``...); the
configuration loader validates against them, and rules read them through the
:class:`~ivycheck.checker.project.config.Config` they are given.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_DECORATOR_ORDER: tuple[str, ...] = (
    "handle_nans",
    "handle_exceptions",
    "temp_asarray_wrapper",
    "handle_backend_invalid",
    "handle_ragged",
    "handle_nestable",
    "handle_partial_mixed_function",
    "handle_array_like_without_promotion",
    "handle_view",
    "handle_view_indexing",
    "handle_out_argument",
    "inputs_to_ivy_arrays",
    "inputs_to_native_shapes",
    "inputs_to_native_arrays",
    "outputs_to_native_arrays",
    "outputs_to_ivy_shapes",
    "outputs_to_ivy_arrays",
    "handle_array_function",
    "infer_dtype",
    "handle_device",
    "infer_device",
    "handle_complex_input",
)
"""Ivy's wrappers read top to bottom in source (the first applied sits closest to ``def``)."""

DECORATOR_ALIASES: Mapping[str, tuple[str, str]] = {
    "to_native_arrays_and_back": ("inputs_to_native_arrays", "outputs_to_ivy_arrays"),
    "handle_device_shifting": ("handle_device", "handle_device"),
}
"""Decorators that stand for a span of the order: (first slot, last slot)."""

BACKEND_NAMES: tuple[str, ...] = ("numpy", "torch", "jax", "tensorflow", "dask")
"""The backends with default patterns and per-library native-``out`` data; any folder
under ``functional/backends/`` is a backend too."""

KNOWN_BACKENDS: tuple[str, ...] = (*BACKEND_NAMES, "paddle", "mxnet")
"""Every name ``backends`` accepts: the above and Ivy's other backend folders (the
snapshots' ``ivy/functional/backends/``). A name outside it is a configuration error with
a suggestion, since a misspelt backend (``tensorflw``) silently checks its files as no
backend at all. A new backend is added here (to ``BACKEND_NAMES`` once it has defaults)."""

DEFAULT_FUNCTIONAL_API = ("**/functional/ivy/**", "**/runtime/functional/**")
DEFAULT_FRONTENDS = ("**/functional/frontends/**",)
DEFAULT_DATA_CLASSES = ("**/data_classes/**",)
DEFAULT_BACKENDS: Mapping[str, tuple[str, ...]] = {
    name: (f"**/functional/backends/{name}/**", f"**/runtime/backends/{name}/**")
    for name in BACKEND_NAMES
}
DEFAULT_RUNTIME_MODULES = ("ivy", "ivycheck.runtime")
