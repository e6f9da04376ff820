"""Write an Ivy-style tree of a given size: functional API plus four backends.

    .venv/bin/python benchmarks/corpus.py benchmarks/corpus/ivy-5k --functions 5000

Each API function is decorated in Ivy's documented order and delegates to the current
backend; each backend implements it (NumPy and PyTorch forwarding ``out`` natively with
``support_native_out``, JAX and TensorFlow not). Every ``MISTAKE_EVERY``-th function
carries one deliberate mistake (decorators out of order, or a view function without
``copy``), so the expected number of findings is known: :func:`expected_findings`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

FUNCTIONS_PER_FILE = 50
MISTAKE_EVERY = 97
BACKENDS = ("numpy", "torch", "jax", "tensorflow")
NATIVE = {"numpy": "np", "torch": "torch", "jax": "jnp", "tensorflow": "tf"}
IMPORTS = {
    "numpy": "import numpy as np\n",
    "torch": "import torch\n",
    "jax": "import jax.numpy as jnp\n",
    "tensorflow": "import tensorflow as tf\n",
}

API_HEADER = '''"""Generated functional API module {number}."""

from typing import Optional, Sequence, Union

import ivy
from ivy.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_device,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_view,
    to_native_arrays_and_back,
)
from ivy.utils.backend import current_backend
'''

API_FUNCTION = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@handle_device
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[int] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Compute {name} of ``x`` elementwise (generated)."""
    if axis is not None and axis < -x.ndim:
        raise ivy.utils.exceptions.IvyException("axis out of range")
    return current_backend(x).{name}(x, axis=axis, out=out)
'''

API_BAD_ORDER = """

@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
@handle_out_argument
@handle_device
def {name}(x: Union[ivy.Array, ivy.NativeArray], /, *, out: Optional[ivy.Array] = None):
    return current_backend(x).{name}(x, out=out)
"""

API_VIEW_NO_COPY = """

@handle_exceptions
@handle_nestable
@handle_view
@handle_out_argument
@to_native_arrays_and_back
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    shape: Sequence[int],
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).{name}(x, shape, out=out)
"""

BACKEND_NATIVE_OUT = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {alias}.moveaxis(x, axis, -1)
    return {alias}.tanh(x, out=out)


{name}.support_native_out = True
'''

BACKEND_NO_OUT = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {alias}.moveaxis(x, axis, -1)
    return {alias}.tanh(x)
'''


def _api_function(number: int) -> str:
    name = f"fn_{number}"
    if number % MISTAKE_EVERY == 1:
        return API_BAD_ORDER.format(name=name)
    if number % MISTAKE_EVERY == 2:
        return API_VIEW_NO_COPY.format(name=name)
    return API_FUNCTION.format(name=name)


def _backend_function(backend: str, number: int) -> str:
    template = BACKEND_NATIVE_OUT if backend in ("numpy", "torch") else BACKEND_NO_OUT
    return template.format(name=f"fn_{number}", alias=NATIVE[backend])


def generate(root: Path, functions: int) -> list[Path]:
    """Write the tree; returns the files written."""
    written: list[Path] = []
    for start in range(0, functions, FUNCTIONS_PER_FILE):
        numbers = range(start, min(start + FUNCTIONS_PER_FILE, functions))
        module = f"module_{start // FUNCTIONS_PER_FILE:04d}.py"
        api = root / "ivy/functional/ivy" / module
        api.parent.mkdir(parents=True, exist_ok=True)
        api.write_text(
            API_HEADER.format(number=start // FUNCTIONS_PER_FILE)
            + "".join(_api_function(n) for n in numbers)
        )
        written.append(api)
        for backend in BACKENDS:
            path = root / "ivy/functional/backends" / backend / module
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                f'"""Generated {backend} backend module."""\n\n'
                + IMPORTS[backend]
                + "".join(_backend_function(backend, n) for n in numbers)
            )
            written.append(path)
    return written


def expected_findings(functions: int) -> dict[str, int]:
    """How many findings per rule the generated tree holds."""
    bad_order = sum(1 for n in range(functions) if n % MISTAKE_EVERY == 1)
    no_copy = sum(1 for n in range(functions) if n % MISTAKE_EVERY == 2)
    return {"IVY005": bad_order, "IVY006": no_copy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--functions", type=int, default=1000)
    options = parser.parse_args()
    files = generate(options.root, options.functions)
    lines = sum(len(path.read_text().splitlines()) for path in files)
    print(
        f"{len(files)} files, {lines} lines, expected findings {expected_findings(options.functions)}"
    )


if __name__ == "__main__":
    main()
